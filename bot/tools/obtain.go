package tools

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/move"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/plan"
	"github.com/blockmate/blockmate/bot/skill"
	blocks "github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/protocol"
)

// ObtainResult is mc_obtain's result.
type ObtainResult struct {
	Obtained bool   `json:"obtained"`
	Item     string `json:"item"`
	// Count is how many of Item the bot carries at the end of the call
	// (from the server's inventory updates).
	Count int `json:"count"`
	// Steps are the steps done (done=true, with what they yielded) and
	// then the steps still to do (done=false), in order; a dry run lists
	// the whole plan, nothing done.
	Steps []ObtainStep `json:"steps"`
	// Missing are the raw materials still to be got from the world for
	// what remains: empty once the item is obtained.
	Missing  []plan.ItemCount `json:"missing"`
	Reason   string           `json:"reason,omitempty"`
	NextStep string           `json:"next_step,omitempty"`
	// stopped says the call's context ended it (mc_stop), for the
	// dispatcher: mc_stop lists the call as one it cancelled.
	stopped bool
}

// Interrupted is protocol.Interrupted: the answer of a stopped call.
func (r ObtainResult) Interrupted() bool { return r.stopped }

// ObtainStep is one step of mc_obtain's plan: gather, craft, smelt,
// place_table or place_furnace, the item and how many.
type ObtainStep struct {
	Action string `json:"action"`
	Item   string `json:"item"`
	Count  int    `json:"count"`
	Done   bool   `json:"done"`
}

// stationRadius is how far from the bot a crafting table or furnace counts
// as one the plan can use (the bot walks to it) instead of making and
// placing its own: about what a player looks around for.
const stationRadius = 16

// maxObtainSteps bounds the steps one call runs: a plan re-made after each
// step could otherwise go round for ever when the world keeps yielding
// less than planned.
const maxObtainSteps = 64

func (t *Tools) registerObtain(c *protocol.Catalog) {
	c.Add(protocol.Tool{
		Name: "mc_obtain",
		Description: "Gets count of an item in one call, from what the bot carries and the world around it: it plans the way a player would from the game version's recipes, block drops and smelting (an empty inventory and stone_pickaxe: gather logs, craft planks and sticks, craft and place a crafting table, craft a wooden pickaxe, mine cobblestone, craft the stone pickaxe; iron_ingot adds a furnace, iron ore and fuel) and runs the steps with the same skills as mc_collect, mc_craft and mc_smelt (mining a staircase down, through ground only, to stone or ore with no open face), planning again after every step from the inventory. " +
			"dry_run=true answers with the plan and does nothing. It reports mc_task_progress per step (done of total steps, step names it); mc_stop stops it within a tick and the answer says what was done and what remains. " +
			"It does not go to the nether, fight mobs for their drops or trade: reason says so, and says what it could not find within reach.",
		Args: protocol.Schema{
			protocol.Str("item", "the item to get, by its registry name (stone_pickaxe, iron_ingot) or a word for one (wood, planks, iron)").Req().Len(1, 100),
			protocol.Int("count", "how many the bot should carry at the end", 1, 64*36).Def(1),
			protocol.Bool("dry_run", "answer with the plan only, doing nothing").Def(false),
		},
		Effect: protocol.Destructive,
		Long:   true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			dry := a.Bool("dry_run")
			var w *session
			var err error
			if dry {
				w, err = t.session()
			} else {
				w, err = t.alive("obtain anything")
			}
			if err != nil {
				return nil, err
			}
			if err := w.blindness(); err != nil {
				return nil, err
			}
			w.awaitFirstChunks(ctx)
			goal := plan.Goal{Item: strings.TrimPrefix(strings.TrimSpace(a.String("item")), "minecraft:"), Count: max(a.Int("count"), 1)}
			r := &obtainRun{w: w, g: w.Skills().Game(), goal: goal, unusable: map[blocks.BlockPos]bool{}}
			if r.g == nil {
				return nil, fmt.Errorf("blockmate has no recipe data for Minecraft %s, so it cannot plan", w.Version())
			}
			p, err := r.plan()
			if err != nil {
				return nil, err
			}
			if dry {
				return r.dryRun(p), nil
			}
			id, _ := protocol.CallID(ctx)
			r.report = func(done, total int, step string) {
				if id != "" {
					t.emit("mc_task_progress", id, protocol.TaskProgress{Tool: "mc_obtain", ID: id, Done: int64(done), Total: int64(total), Step: step})
				}
			}
			return r.run(ctx, p), nil
		},
	})
}

// obtainRun is one mc_obtain call's state: the goal, the steps done so
// far, and the stations found unusable (a table the bot could not walk
// to is not planned with again).
type obtainRun struct {
	w        *session
	g        *mcdata.GameData
	goal     plan.Goal
	done     []ObtainStep
	unusable map[blocks.BlockPos]bool
	report   func(done, total int, step string)
}

// plan plans from what the bot carries now and the stations near it.
func (r *obtainRun) plan() (*plan.Plan, error) {
	_, table := r.station("crafting_table")
	_, furnace := r.station("furnace")
	return plan.Make(r.g, r.goal, skill.Have(r.w.Inventory().View()), plan.World{CraftingTable: table, Furnace: furnace})
}

// carried is how many of the plan's goal the bot carries.
func (r *obtainRun) carried(p *plan.Plan) int { return r.w.Inventory().View().Count(p.Goal.Item) }

func stepOf(s plan.Step) ObtainStep {
	return ObtainStep{Action: string(s.Kind), Item: s.Item, Count: s.Count}
}

// planStepText names a step for the console's task line: "craft 12
// oak_planks".
func planStepText(s plan.Step) string {
	switch s.Kind {
	case plan.PlaceTable, plan.PlaceFurnace:
		return "place " + s.Item
	}
	return fmt.Sprintf("%s %d %s", s.Kind, s.Count, s.Item)
}

// answer is the result with the steps done and what p still plans.
func (r *obtainRun) answer(p *plan.Plan) ObtainResult {
	out := ObtainResult{Item: p.Goal.Item, Count: r.carried(p), Steps: append([]ObtainStep{}, r.done...), Missing: p.Missing}
	out.Obtained = out.Count >= r.goal.Count
	if out.Obtained {
		out.Missing = []plan.ItemCount{}
		return out
	}
	for _, s := range p.Steps {
		out.Steps = append(out.Steps, stepOf(s))
	}
	if out.Missing == nil {
		out.Missing = []plan.ItemCount{}
	}
	return out
}

func (r *obtainRun) dryRun(p *plan.Plan) ObtainResult {
	out := r.answer(p)
	switch {
	case out.Obtained:
		// Carried already: no steps, nothing to say.
	case !p.OK():
		out.Reason, out.NextStep = p.Reason, cannotNextStep(p)
	default:
		out.NextStep = fmt.Sprintf("call mc_obtain %s without dry_run to run these %d steps", out.Item, len(p.Steps))
	}
	return out
}

func cannotNextStep(p *plan.Plan) string {
	return fmt.Sprintf("get %s another way (a player can give it: mc_get_inventory shows when it arrives), or ask for something else", p.Cannot[0].Item)
}

// run runs the plan a step at a time, planning again after each from the
// inventory, until the goal is carried, a step yields nothing, or ctx ends.
func (r *obtainRun) run(ctx context.Context, p *plan.Plan) ObtainResult {
	if !p.OK() && r.carried(p) < r.goal.Count {
		out := r.answer(p)
		out.Reason, out.NextStep = p.Reason, cannotNextStep(p)
		return out
	}
	for len(p.Steps) > 0 && r.carried(p) < r.goal.Count {
		if len(r.done) >= maxObtainSteps {
			out := r.answer(p)
			out.Reason = fmt.Sprintf("the plan took %d steps and is not done: the world keeps yielding less than planned", len(r.done))
			out.NextStep = "call mc_get_inventory to see what the bot carries, then mc_obtain again"
			return out
		}
		step, index := p.Steps[0], len(r.done)+1
		total := len(r.done) + len(p.Steps)
		text := planStepText(step)
		r.report(len(r.done), total, text)
		got, why, err := r.runStep(ctx, step, func(done, of int) {
			r.report(len(r.done), total, fmt.Sprintf("%s (%d/%d)", text, done, of))
		})
		if got > 0 {
			r.done = append(r.done, ObtainStep{Action: string(step.Kind), Item: step.Item, Count: got, Done: got >= step.Count})
		}
		if ctx.Err() != nil {
			return r.stopped(ctx, step, index)
		}
		if err == nil && got == 0 {
			err = errors.New(why)
		}
		next, perr := r.plan()
		if perr != nil {
			// The goal was planned once; it stays readable.
			next = p
		}
		if err != nil {
			out := r.answer(next)
			out.Reason = fmt.Sprintf("%s failed: %v", text, err)
			out.NextStep = failedNextStep(step)
			return out
		}
		r.report(len(r.done), len(r.done)+len(next.Steps), text)
		if !next.OK() && r.carried(next) < r.goal.Count {
			out := r.answer(next)
			out.Reason, out.NextStep = next.Reason, cannotNextStep(next)
			return out
		}
		p = next
	}
	out := r.answer(p)
	if !out.Obtained {
		out.Reason, out.NextStep = "the plan ended without the item", nextStepInventory
	}
	return out
}

// stopped is the answer of a run mc_stop (or the caller) ended during
// step, the index-th.
func (r *obtainRun) stopped(ctx context.Context, step plan.Step, index int) ObtainResult {
	p, err := r.plan()
	if err != nil {
		p = &plan.Plan{Goal: plan.ItemCount{Item: r.goal.Item, Count: r.goal.Count}}
	}
	out := r.answer(p)
	cause := "mc_stop"
	if c := context.Cause(ctx); c != nil && !errors.Is(c, protocol.ErrStopped) {
		cause = c.Error()
	}
	out.Reason = fmt.Sprintf("stopped by %s during step %d (%s), after %d steps done", cause, index, planStepText(step), index-1)
	out.NextStep = fmt.Sprintf("call mc_obtain %s again to go on from what the bot carries", out.Item)
	out.stopped = true
	return out
}

func failedNextStep(s plan.Step) string {
	switch s.Kind {
	case plan.Gather:
		return fmt.Sprintf("move the bot to where there is %s (mc_find_blocks %s), then call mc_obtain again", strings.Join(s.From, " or "), s.From[0])
	case plan.PlaceTable, plan.PlaceFurnace:
		return "move the bot to open, flat ground, then call mc_obtain again"
	}
	return "call mc_get_inventory to see what the bot carries, then mc_obtain again"
}

// runStep does one step with the skills the tools use and returns how many
// of the step's item it yielded, counted from the inventory (a placed
// table is 1), and, when it yielded nothing, why.
func (r *obtainRun) runStep(ctx context.Context, s plan.Step, progress func(done, total int)) (got int, why string, err error) {
	inv := r.w.Inventory()
	before := inv.View().Count(s.Item)
	gained := func() int { return max(0, inv.View().Count(s.Item)-before) }
	switch s.Kind {
	case plan.Gather:
		var whys []string
		collect := func() error {
			whys = nil
			for _, from := range s.From {
				if gained() >= s.Count {
					break
				}
				if b := r.g.BlockByName(from); b == nil || !dropsCounted(r.g, b, s.Item) {
					// mc_collect counts a block's own drop; a block
					// that gives the item only by chance (flint from
					// gravel) is not one it gathers for it.
					whys = append(whys, fmt.Sprintf("%s gives %s only by chance, which mc_obtain does not gather for yet", from, s.Item))
					continue
				}
				res, err := r.w.Dig().Collect(ctx, from, s.Count-gained(), progress)
				if err != nil {
					return err
				}
				if res.Reason != "" && gained() < s.Count {
					whys = append(whys, res.Reason)
				}
			}
			return nil
		}
		// Blocks with no open face near (stone under a forest's dirt)
		// are mined down to by a staircase, as a player does: the
		// collect would dig them where their drops stay sealed in.
		if p, ok := r.nearestOf(s); ok && !r.exposed(p) {
			w, err := r.mineStairs(ctx, s, gained, progress)
			if err != nil {
				return gained(), "", err
			}
			if gained() >= s.Count {
				return gained(), "", nil
			}
			if w != "" {
				defer func() {
					// The staircase's reason goes before the collect's.
					why = strings.TrimSuffix(w+"; "+why, "; ")
				}()
			}
		}
		if err := collect(); err != nil {
			return gained(), "", err
		}
		return gained(), strings.Join(whys, "; "), nil
	case plan.Craft:
		if s.Table {
			if err := r.approach(ctx, "crafting_table"); err != nil {
				return 0, "", err
			}
		}
		res, err := r.w.Skills().Craft(ctx, s.Item, s.Count, progress)
		if err != nil {
			return gained(), "", err
		}
		why = res.Reason
		if len(res.Info.Missing) > 0 {
			why = fmt.Sprintf("the bot lacks %d %s", res.Info.Missing[0].Count, res.Info.Missing[0].Item)
		}
		return gained(), why, nil
	case plan.Smelt:
		if err := r.approach(ctx, "furnace"); err != nil {
			return 0, "", err
		}
		fuel := ""
		if len(s.Fuel) == 1 {
			fuel = s.Fuel[0].Item
		}
		res, err := r.w.Skills().Smelt(ctx, s.Uses[0].Item, s.Count, fuel, progress)
		if err != nil {
			return gained(), "", err
		}
		return gained(), res.Reason, nil
	case plan.PlaceTable, plan.PlaceFurnace:
		placed, why, err := r.placeStation(ctx, s.Item)
		if placed {
			return 1, "", nil
		}
		return 0, why, err
	}
	return 0, fmt.Sprintf("blockmate cannot do a %s step", s.Kind), nil
}

// maxStairs bounds a staircase: 16 stairs down is below any forest's dirt
// to the stone.
const maxStairs = 16

// mineStairs mines a staircase down towards the nearest block of the
// step's kinds, as a player mines down, until the step has its count:
// each stair clears the block ahead at head height, at the feet and one
// below, top first, and the bot steps down into it, picking up what fell
// there (the stone's cobblestone). It never digs the block it stands on,
// and can always walk back up. It stops at a drop under the next stair (a
// cave), at a block it could not dig or a step it could not take, and
// after maxStairs stairs, and says why. progress hears what has arrived.
func (r *obtainRun) mineStairs(ctx context.Context, s plan.Step, gained func() int, progress func(done, total int)) (string, error) {
	for range maxStairs {
		if gained() >= s.Count {
			return "", nil
		}
		target, ok := r.nearestOf(s)
		if !ok {
			return fmt.Sprintf("no %s within 32 blocks", strings.Join(s.From, " or ")), nil
		}
		feet := r.w.feet()
		next, why := r.nextStair(s, feet, target)
		if why != "" {
			return why, nil
		}
		for _, p := range r.stairBlocks(feet, next) {
			if r.isAir(p) {
				continue
			}
			res, err := r.w.Dig().Dig(ctx, p)
			if err != nil {
				return "", err
			}
			if !res.Dug {
				return fmt.Sprintf("the staircase towards %s stopped: %s", posText(target), res.Reason), nil
			}
		}
		had := gained()
		_, err := r.w.Body().Go(ctx, move.Target{Kind: "go_near", Point: func() (geom.Vec3, bool) {
			return geom.Vec3{X: float64(next.X) + 0.5, Y: float64(next.Y), Z: float64(next.Z) + 0.5}, true
		}, Within: 0.4})
		if err != nil {
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			return fmt.Sprintf("the staircase towards %s stopped: the bot could not step to %s: %v", posText(target), posText(next), err), nil
		}
		// What fell into the stair arrives as the bot stands in it: the
		// game's pick-up delay is 10 ticks.
		_ = r.w.Core().Await(ctx, stairPickupTicks, func() bool { return gained() > had || !r.dropsAt(next) })
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if progress != nil && gained() > had {
			progress(min(gained(), s.Count), s.Count)
		}
	}
	if gained() >= s.Count {
		return "", nil
	}
	return fmt.Sprintf("%d stairs down did not reach enough %s", maxStairs, strings.Join(s.From, " or ")), nil
}

// nextStair is where the bot steps next on its way to target: a block
// down (level when the target is not below), towards it along the longer
// axis first, else to either side or back, wherever every block the stair
// clears is ground (never a table, chest or anything a player built) and
// no drop lies under it; why says why there is none.
func (r *obtainRun) nextStair(s plan.Step, feet, target blocks.BlockPos) (blocks.BlockPos, string) {
	dx, dz := target.X-feet.X, target.Z-feet.Z
	var first [2]int
	switch {
	case dx == 0 && dz == 0:
		first = [2]int{1, 0}
	case abs(dx) >= abs(dz):
		first = [2]int{sign(dx), 0}
	default:
		first = [2]int{0, sign(dz)}
	}
	dirs := [][2]int{first, {first[1], first[0]}, {-first[1], -first[0]}, {-first[0], -first[1]}}
	why := fmt.Sprintf("the staircase towards %s found no way down around %s that breaks only ground", posText(target), posText(feet))
	for _, d := range dirs {
		next := blocks.BlockPos{X: feet.X + d[0], Y: feet.Y - 1, Z: feet.Z + d[1]}
		if target.Y >= feet.Y {
			next.Y = feet.Y
		}
		if r.isAir(blocks.BlockPos{X: next.X, Y: next.Y - 1, Z: next.Z}) {
			why = fmt.Sprintf("the staircase towards %s stopped at %s: a drop under the next stair", posText(target), posText(next))
			continue
		}
		ok := true
		for _, p := range r.stairBlocks(feet, next) {
			if !r.isAir(p) && !r.mayMineThrough(s, p) {
				ok = false
				break
			}
		}
		if ok {
			return next, ""
		}
	}
	return blocks.BlockPos{}, why
}

// stairBlocks are the blocks a stair from feet to next clears, top first
// so that what they drop falls to where the bot steps.
func (r *obtainRun) stairBlocks(feet, next blocks.BlockPos) []blocks.BlockPos {
	out := []blocks.BlockPos{{X: next.X, Y: next.Y + 1, Z: next.Z}, next}
	if next.Y < feet.Y {
		out = append([]blocks.BlockPos{{X: next.X, Y: next.Y + 2, Z: next.Z}}, out...)
	}
	return out
}

// mayMineThrough says whether a staircase may break the block at p: the
// ground the game generates (earth, stone and its kinds, ores, plants
// growing on it) and the step's own blocks, never what a player placed.
func (r *obtainRun) mayMineThrough(s plan.Step, p blocks.BlockPos) bool {
	name := r.blockName(p)
	if slices.Contains(s.From, name) || strings.HasSuffix(name, "_ore") {
		return true
	}
	switch name {
	case "dirt", "grass_block", "coarse_dirt", "podzol", "rooted_dirt", "mud", "clay", "gravel", "sand", "red_sand",
		"stone", "deepslate", "andesite", "diorite", "granite", "tuff", "calcite", "sandstone", "red_sandstone",
		"short_grass", "grass", "tall_grass", "fern", "large_fern", "dandelion", "poppy", "dead_bush", "moss_block", "moss_carpet", "snow":
		return true
	}
	return false
}

// blockName is the name of the block the bot sees at p, "" where it has
// no chunk.
func (r *obtainRun) blockName(p blocks.BlockPos) string {
	if st, ok := r.w.Level().View().BlockAt(p); ok {
		if b := r.g.BlockOf(st); b != nil {
			return b.Name
		}
	}
	return ""
}

// stairPickupTicks bounds the wait for a stair's drops.
const stairPickupTicks = 30

// dropsAt says whether an item entity lies within the block at p.
func (r *obtainRun) dropsAt(p blocks.BlockPos) bool {
	for _, e := range r.w.Entities().All() {
		if e.Item != nil && int(math.Floor(e.Position.X)) == p.X && int(math.Floor(e.Position.Z)) == p.Z && math.Abs(e.Position.Y-float64(p.Y)) < 2 {
			return true
		}
	}
	return false
}

// nearestOf is the nearest block of the kinds a gather step breaks, within
// 32 blocks of the bot.
func (r *obtainRun) nearestOf(s plan.Step) (blocks.BlockPos, bool) {
	var best blocks.Found
	ok := false
	for _, from := range s.From {
		b := r.g.BlockByName(from)
		if b == nil || !dropsCounted(r.g, b, s.Item) {
			continue
		}
		found := r.w.Level().View().FindBlocks(r.w.feet(), 32, 1, func(st mcdata.StateID) bool { return st >= b.MinState && st <= b.MaxState })
		if len(found) > 0 && (!ok || found[0].DistSq < best.DistSq) {
			best, ok = found[0], true
		}
	}
	return best.Pos, ok
}

// isAir says whether the bot sees air at p (false where it has no chunk).
func (r *obtainRun) isAir(p blocks.BlockPos) bool {
	st, ok := r.w.Level().View().BlockAt(p)
	if !ok {
		return false
	}
	b := r.g.BlockOf(st)
	return b != nil && (b.Name == "air" || b.Name == "cave_air" || b.Name == "void_air")
}

// exposed says whether a face of the block at p touches air.
func (r *obtainRun) exposed(p blocks.BlockPos) bool {
	for _, d := range [][3]int{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
		if r.isAir(blocks.BlockPos{X: p.X + d[0], Y: p.Y + d[1], Z: p.Z + d[2]}) {
			return true
		}
	}
	return false
}

func posText(p blocks.BlockPos) string { return fmt.Sprintf("%d %d %d", p.X, p.Y, p.Z) }

func sign(n int) int {
	if n < 0 {
		return -1
	}
	return 1
}

// dropsCounted says whether breaking b gives item as the drop mc_collect
// counts (the block's own item, else its first drop).
func dropsCounted(g *mcdata.GameData, b *mcdata.Block, item string) bool {
	for _, id := range b.Drops {
		if it := g.Item(id); it != nil && it.Name == b.Name {
			return it.Name == item
		}
	}
	for _, id := range b.Drops {
		if it := g.Item(id); it != nil {
			return it.Name == item
		}
	}
	return false
}

// station finds the nearest crafting table or furnace within stationRadius
// of the bot that the run has not found unusable.
func (r *obtainRun) station(name string) (blocks.BlockPos, bool) {
	b := r.g.BlockByName(name)
	if b == nil {
		return blocks.BlockPos{}, false
	}
	found := r.w.Level().View().FindBlocks(r.w.feet(), stationRadius, 8, func(s mcdata.StateID) bool { return s >= b.MinState && s <= b.MaxState })
	for _, f := range found {
		if !r.unusable[f.Pos] {
			return f.Pos, true
		}
	}
	return blocks.BlockPos{}, false
}

// approach walks the bot within reach of the nearest station of the kind,
// which the plan counted on. One it cannot reach is marked unusable, so
// that the next plan makes its own.
func (r *obtainRun) approach(ctx context.Context, name string) error {
	p, ok := r.station(name)
	if !ok {
		return fmt.Errorf("no %s within %d blocks", name, stationRadius)
	}
	center := geom.Vec3{X: float64(p.X) + 0.5, Y: float64(p.Y) + 0.5, Z: float64(p.Z) + 0.5}
	eyes := r.w.Self().Snapshot().Position
	dx, dy, dz := eyes.X-center.X, eyes.Y+physics.EyeHeight-center.Y, eyes.Z-center.Z
	if math.Sqrt(dx*dx+dy*dy+dz*dz) <= physics.BlockReach-0.5 {
		return nil
	}
	err := r.w.Body().GoNear(ctx, center, physics.BlockReach-1)
	if err != nil && ctx.Err() == nil {
		// From the bottom of a staircase the way back may need a block
		// dug (the body's dig paths, as mc_goto dig=true).
		_, err = r.w.Body().Go(ctx, move.Target{Kind: "go_near", Point: func() (geom.Vec3, bool) { return center, true }, Within: physics.BlockReach - 1, Eyes: true, Dig: true})
	}
	if err != nil {
		if ctx.Err() == nil {
			r.unusable[p] = true
		}
		return err
	}
	return nil
}

// placeStation puts a carried crafting table or furnace down next to the
// bot: the first free spot around its feet, nearest first, where the
// server shows it placed.
func (r *obtainRun) placeStation(ctx context.Context, item string) (bool, string, error) {
	feet := r.w.feet()
	why := fmt.Sprintf("no free spot next to the bot to place the %s", item)
	for _, off := range stationSpots {
		p := blocks.BlockPos{X: feet.X + off[0], Y: feet.Y + off[1], Z: feet.Z + off[2]}
		res, err := r.w.Dig().Place(ctx, item, p)
		if err != nil {
			return false, "", err
		}
		if res.Placed {
			return true, "", nil
		}
		if strings.Contains(res.Reason, "has no") || strings.Contains(res.Reason, "dead") || strings.Contains(res.Reason, "mode") {
			return false, res.Reason, nil
		}
	}
	return false, why, nil
}

// stationSpots are where placeStation tries, around the feet: the four
// sides, the corners, then a step further and one up or down for a slope.
var stationSpots = func() [][3]int {
	var out [][3]int
	for _, dy := range []int{0, 1, -1} {
		for _, ring := range [][][2]int{
			{{1, 0}, {-1, 0}, {0, 1}, {0, -1}},
			{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}},
			{{2, 0}, {-2, 0}, {0, 2}, {0, -2}},
		} {
			for _, d := range ring {
				out = append(out, [3]int{d[0], dy, d[1]})
			}
		}
	}
	return out
}()
