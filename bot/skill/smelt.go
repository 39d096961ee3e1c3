package skill

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/blockmate/blockmate/bot/inventory"
)

// The furnace window's slots and properties (the game's
// AbstractFurnaceMenu and AbstractFurnaceBlockEntity's ContainerData).
const (
	furnaceInput  = 0
	furnaceFuel   = 1
	furnaceOutput = 2

	propLitTime     = 0 // ticks of burning left
	propCookTime    = 2 // ticks the current item has cooked
	propCookTotal   = 3 // ticks an item takes
	defaultCookTime = 200
)

// stallTicks is how long a furnace may show no change before Smelt gives
// up: it is not burning or not cooking what it was given.
const stallTicks = 100

// fuels are the fuels Smelt takes when none is named, best first: what a
// player burns (the game's fuel values: coal and charcoal 1600 ticks, a
// block of coal 16000, logs and planks 300, sticks 100). Any other item the
// server burns can be named as fuel.
var fuels = []string{"coal", "charcoal", "coal_block", "_log", "_planks", "_wood", "stick"}

// ErrNoFurnace is Smelt's error when no furnace is within reach.
var ErrNoFurnace = errors.New("no furnace within reach")

// ErrNoFuel is Smelt's error when the bot carries nothing to burn.
var ErrNoFuel = errors.New("the bot carries no fuel")

// SmeltResult is what Smelt did, from the server's windows.
type SmeltResult struct {
	// Output is what came out ("charcoal"), Smelted how many of it arrived
	// in the inventory.
	Output  string
	Smelted int
	// Fuel names what was burnt, in order ("oak_log, oak_planks" when
	// the log ran out and planks were fed next).
	Fuel   string
	Reason string
}

// chooseFuel picks the fuel: the one named, else the best carried that is
// not what is being smelted.
func chooseFuel(have map[string]int, named, input string) (string, bool) {
	if named != "" {
		return named, have[named] > 0
	}
	// By name within a kind, so that the same bag burns the same fuel.
	names := make([]string, 0, len(have))
	for name, n := range have {
		if n > 0 && name != input {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, f := range fuels {
		for _, name := range names {
			if name == f || (strings.HasPrefix(f, "_") && strings.HasSuffix(name, f) && !strings.HasPrefix(name, "stripped_")) {
				return name, true
			}
		}
	}
	return "", false
}

// Smelt smelts count of an item in a furnace within reach: it puts the
// items in, feeds fuel one item at a time while there is cooking to do,
// takes the output as it comes, and at the end takes back what is left
// (input and fuel). Smelted counts the output that arrived in the
// inventory. Whether an item smelts is the server's to say: a furnace that
// does not start on it is reported, not guessed. progress, if not nil,
// hears how many have come out whenever that changes.
func (k *Skills) Smelt(ctx context.Context, item string, count int, fuel string, progress func(done, total int)) (SmeltResult, error) {
	end, err := k.begin(ctx)
	if err != nil {
		return SmeltResult{}, err
	}
	defer end()
	have := Have(k.inv.View())
	if have[item] == 0 {
		return SmeltResult{}, fmt.Errorf("%w: no %s in the inventory", inventory.ErrNotCarried, item)
	}
	f, ok := chooseFuel(have, fuel, item)
	if !ok {
		if fuel != "" {
			return SmeltResult{}, fmt.Errorf("%w: no %s in the inventory", ErrNoFuel, fuel)
		}
		return SmeltResult{}, ErrNoFuel
	}
	res := SmeltResult{Fuel: f}
	pos, ok := k.nearestBlock("furnace")
	if !ok {
		return res, ErrNoFurnace
	}
	c, err := k.openBlock(ctx, pos, "furnace")
	if err != nil {
		return res, err
	}
	defer func() { _ = k.inv.CloseContainer() }()
	w := c.Window
	slot := func(i int) (string, int) {
		v := k.inv.View()
		if v.Container == nil || v.Container.Window != w {
			return "", 0
		}
		st := v.Container.Slots[i]
		if st.Empty() {
			return "", 0
		}
		return inventory.StackName(st), int(st.Count)
	}
	prop := func(i int16) int {
		v := k.inv.View()
		if v.Container == nil {
			return 0
		}
		return int(v.Container.Properties[i])
	}
	if name, _ := slot(furnaceInput); name != "" && name != item {
		res.Reason = fmt.Sprintf("the furnace is busy smelting %s", name)
		return res, nil
	}
	startCounts := Have(k.inv.View())
	takeOutput := func() error {
		name, n := slot(furnaceOutput)
		if n == 0 {
			return nil
		}
		if _, err := k.inv.Click(ctx, inventory.ShiftClick(w, furnaceOutput)); err != nil {
			return err
		}
		if res.Output == "" {
			res.Output = name
		}
		return nil
	}
	// What the furnace made before belongs to whoever smelted it; take it
	// so the count below is this smelt's.
	if err := takeOutput(); err != nil {
		return res, err
	}
	startCounts = Have(k.inv.View())
	res.Output = ""
	_, already := slot(furnaceInput)
	if n := count - already; n > 0 {
		if _, err := k.moveItems(ctx, w, item, n, furnaceInput); err != nil {
			return res, err
		}
	}
	smelted := func() int {
		if res.Output == "" {
			return 0
		}
		return Have(k.inv.View())[res.Output] - startCounts[res.Output]
	}
	// The stall check counts the session's ticks between the waits below:
	// the whole loop holds them in real time, so none of them is a second
	// of catch-up ticks run at once.
	defer k.s.HoldRealTime()()
	lastTick, last, told := k.s.Tick(), "", -1
	for smelted() < count {
		if n := smelted(); progress != nil && n != told {
			progress(n, count)
			told = n
		}
		if err := ctx.Err(); err != nil {
			return k.smeltEnd(ctx, w, res, startCounts), err
		}
		if err := takeOutput(); err != nil {
			return k.smeltEnd(ctx, w, res, startCounts), err
		}
		_, input := slot(furnaceInput)
		_, fuelLeft := slot(furnaceFuel)
		if _, out := slot(furnaceOutput); input == 0 && out > 0 {
			res.Reason = "the bot's inventory has no room for the output"
			break
		}
		if input == 0 {
			// The last item cooked (or the input was taken): its output
			// comes in a packet of its own, maybe just after the input's.
			err := k.waitTicks(ctx, answerTicks, func() bool { _, out := slot(furnaceOutput); return out > 0 })
			if errors.Is(err, errTimedOut) {
				break
			}
			if err != nil {
				return k.smeltEnd(ctx, w, res, startCounts), err
			}
			continue
		}
		total := prop(propCookTotal)
		if total <= 0 {
			total = defaultCookTime
		}
		need := input*total - prop(propCookTime)
		if input > 0 && fuelLeft == 0 && prop(propLitTime) < need {
			have := Have(k.inv.View())
			if have[f] == 0 && fuel == "" {
				// The fuel chosen ran out: burn the next best carried,
				// as a player does (a log burnt up, planks next), rather
				// than stop with fuel in the bag. A fuel that was named
				// is the only one used.
				if next, ok := chooseFuel(have, "", item); ok {
					f = next
					res.Fuel += ", " + f
				}
			}
			if have[f] > 0 {
				if _, err := k.moveItems(ctx, w, f, 1, furnaceFuel); err != nil {
					return k.smeltEnd(ctx, w, res, startCounts), fmt.Errorf("putting in fuel: %v", err)
				}
			} else if k.burntOut(ctx, prop, slot) {
				// With none left to add, the fuel ran out only once the
				// fire is out with cooking left: the furnace's slots and
				// properties come one packet at a time, and a view taken
				// between them can show a fire too short for the work (a
				// stick burns exactly half a smelt).
				res.Reason = fmt.Sprintf("the fuel (%s) ran out", f)
				break
			}
		}
		// Wait for the furnace to change; a furnace that shows no change
		// for stallTicks is not cooking.
		v := k.inv.View()
		state := fmt.Sprint(v.Container.Slots, v.Container.Properties)
		if state != last {
			last, lastTick = state, k.s.Tick()
		} else if k.s.Tick()-lastTick >= stallTicks {
			if prop(propLitTime) == 0 {
				res.Reason = fmt.Sprintf("the furnace did not start: either %s does not smelt or %s does not burn", item, f)
			} else {
				res.Reason = fmt.Sprintf("the furnace burns but does not cook %s: it does not smelt", item)
			}
			break
		}
		err := k.waitTicks(ctx, 20, func() bool {
			v := k.inv.View()
			return v.Container == nil || fmt.Sprint(v.Container.Slots, v.Container.Properties) != state
		})
		if err != nil && !errors.Is(err, errTimedOut) {
			return k.smeltEnd(ctx, w, res, startCounts), err
		}
		if k.inv.View().Container == nil {
			res.Reason = "the furnace window closed (the furnace is gone or the bot moved away)"
			return k.smeltEnd(ctx, w, res, startCounts), nil
		}
	}
	return k.smeltEnd(ctx, w, res, startCounts), nil
}

// smeltEnd takes the output and back what is left in the furnace (input,
// fuel), and counts what arrived.
func (k *Skills) smeltEnd(ctx context.Context, w int32, res SmeltResult, before map[string]int) SmeltResult {
	ctx = context.WithoutCancel(ctx)
	if v := k.inv.View(); v.Container != nil && v.Container.Window == w {
		if out := v.Container.Slots[furnaceOutput]; !out.Empty() && res.Output == "" {
			res.Output = inventory.StackName(out)
		}
		for _, s := range []int{furnaceOutput, furnaceInput, furnaceFuel} {
			if !v.Container.Slots[s].Empty() {
				_, _ = k.inv.Click(ctx, inventory.ShiftClick(w, s))
			}
		}
	}
	if res.Output != "" {
		res.Smelted = Have(k.inv.View())[res.Output] - before[res.Output]
	}
	return res
}

// burntOut says whether the furnace's fire is out with input left and no
// fuel in it, and stays so for answerTicks: a fire that is only between
// two fuel items (or a view between two packets) lights again at once.
func (k *Skills) burntOut(ctx context.Context, prop func(int16) int, slot func(int) (string, int)) bool {
	out := func() bool {
		_, input := slot(furnaceInput)
		_, fuel := slot(furnaceFuel)
		return input > 0 && fuel == 0 && prop(propLitTime) == 0
	}
	if !out() {
		return false
	}
	err := k.waitTicks(ctx, answerTicks, func() bool { return !out() })
	return errors.Is(err, errTimedOut)
}
