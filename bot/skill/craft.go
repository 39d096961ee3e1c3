package skill

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// Have counts what the bot carries, by item name.
func Have(v inventory.View) map[string]int {
	out := map[string]int{}
	for s := inventory.SlotMainFirst; s <= inventory.SlotOffhand; s++ {
		if st := v.Slots[s]; !st.Empty() {
			out[inventory.StackName(st)] += int(st.Count)
		}
	}
	return out
}

// RecipeInfo is a plan with where it can be crafted now.
type RecipeInfo struct {
	Plan
	// Table is the crafting table within reach, when the plan needs one
	// and HasTable is true.
	Table    world.BlockPos
	HasTable bool
}

// TableWalk is how far, in blocks, a craft looks for a crafting table to
// walk to when none is within reach: a table in sight in the same clearing
// serves, as it would a player, rather than a second one being made.
const TableWalk = 24

// TableToWalkTo is the nearest crafting table within TableWalk blocks of
// the bot, in the loaded world, and whether there is one.
func (k *Skills) TableToWalkTo() (world.BlockPos, bool) {
	if p, ok := k.nearestBlock("crafting_table"); ok {
		return p, true
	}
	b := k.game.BlockByName("crafting_table")
	if b == nil {
		return world.BlockPos{}, false
	}
	pos := k.me.Snapshot().Position
	from := world.BlockPos{X: int(math.Floor(pos.X)), Y: int(math.Floor(pos.Y)), Z: int(math.Floor(pos.Z))}
	found := k.world.View().FindBlocks(from, TableWalk, 1, func(s mcdata.StateID) bool { return s >= b.MinState && s <= b.MaxState })
	if len(found) == 0 {
		return world.BlockPos{}, false
	}
	return found[0].Pos, true
}

// CraftableNow says whether the bot could craft the plan where it stands.
func (r RecipeInfo) CraftableNow() bool { return r.Ready() && (!r.NeedsTable || r.HasTable) }

// Recipe plans crafting count of an item with what the bot carries.
func (k *Skills) Recipe(item string, count int) (RecipeInfo, error) {
	p, err := PlanCraft(k.game, item, count, Have(k.inv.View()))
	if err != nil {
		return RecipeInfo{Plan: p}, err
	}
	info := RecipeInfo{Plan: p}
	if p.NeedsTable {
		info.Table, info.HasTable = k.nearestBlock("crafting_table")
	}
	return info, nil
}

// CraftResult is what Craft did, counted from the server's inventory.
type CraftResult struct {
	// Made is how many of the item arrived in the inventory.
	Made int
	Info RecipeInfo
	// Reason says why fewer than asked arrived.
	Reason string
}

// ErrNoTable is Craft's error when a recipe needs a crafting table and none
// is within reach.
var ErrNoTable = errors.New("this recipe needs a crafting table (3×3 grid) and none is within reach")

// Craft crafts count of an item (at least; a recipe may make more at a
// time) in the inventory's 2×2 grid or at a crafting table within reach:
// it lays the ingredients for as many crafts as it can at once (one item
// a cell per craft), takes the result with a shift-click (which crafts
// again while the grid allows) and counts what arrived. It does not craft
// intermediate steps: what is missing is in the result. progress, if not
// nil, hears how many have arrived after each batch, out of what the
// whole crafts for count make.
func (k *Skills) Craft(ctx context.Context, item string, count int, progress func(done, total int)) (CraftResult, error) {
	end, err := k.begin(ctx)
	if err != nil {
		return CraftResult{}, err
	}
	defer end()
	info, err := k.Recipe(item, count)
	if err != nil {
		return CraftResult{Info: info}, err
	}
	return k.craft(ctx, info, count, false, progress)
}

// CraftRecipe is Craft by a recipe chosen already (a plan's step, which
// chose the variant by what the bot carries), and it walks to a crafting
// table within TableWalk blocks when the recipe needs one and none is
// within reach.
func (k *Skills) CraftRecipe(ctx context.Context, r *mcdata.Recipe, count int, progress func(done, total int)) (CraftResult, error) {
	end, err := k.begin(ctx)
	if err != nil {
		return CraftResult{}, err
	}
	defer end()
	it := k.game.Item(r.Result)
	if it == nil {
		return CraftResult{}, fmt.Errorf("the recipe makes item %d, which Minecraft %s does not have", r.Result, k.game.Version)
	}
	p, _, _, _ := planRecipe(k.game, it.Name, r, count, Have(k.inv.View()))
	info := RecipeInfo{Plan: p}
	if p.NeedsTable {
		info.Table, info.HasTable = k.nearestBlock("crafting_table")
	}
	return k.craft(ctx, info, count, true, progress)
}

func (k *Skills) craft(ctx context.Context, info RecipeInfo, count int, walk bool, progress func(done, total int)) (CraftResult, error) {
	res := CraftResult{Info: info}
	if !info.Ready() {
		res.Reason = "the bot lacks ingredients"
		return res, nil
	}
	if info.NeedsTable && !info.HasTable && walk {
		info.Table, info.HasTable = k.TableToWalkTo()
	}
	if info.NeedsTable && !info.HasTable {
		return res, ErrNoTable
	}
	window, width := int32(0), 2
	if info.NeedsTable {
		c, err := k.openBlock(ctx, info.Table, "crafting")
		if err != nil {
			return res, err
		}
		window, width = c.Window, 3
		defer func() { _ = k.inv.CloseContainer() }()
	} else if v := k.inv.View(); v.Container != nil {
		// The 2×2 grid is window 0's: a container's window must close first.
		if err := k.inv.CloseContainer(); err != nil {
			return res, err
		}
	}
	if window == 0 {
		// Stopped half-way (mc_stop), the ingredients would stay in the
		// inventory's grid: put them back, as the next craft would.
		defer func() {
			if ctx.Err() != nil {
				_ = k.clearGrid(context.WithoutCancel(ctx), window, width)
			}
		}()
	}
	start := k.inv.View().Count(info.Item)
	made := func() int { return k.inv.View().Count(info.Item) - start }
	r := info.Recipe
	layout := cells(r, width)
	// Progress counts toward what whole crafts make: two planks asked
	// for are four made, "4 of 4", not "4 of 2".
	total := (count + r.Count - 1) / r.Count * r.Count
	for made() < count {
		if err := ctx.Err(); err != nil {
			return k.craftResult(res, made()), err
		}
		if err := k.clearGrid(ctx, window, width); err != nil {
			return k.craftResult(res, made()), err
		}
		crafts := (count - made() + r.Count - 1) / r.Count
		crafts = min(crafts, k.maxStackOf(layout))
		have := Have(k.inv.View())
		for _, in := range r.Inputs() {
			crafts = min(crafts, have[k.game.Item(in.Item).Name]/in.Count)
		}
		if crafts <= 0 {
			res.Reason = "the ingredients ran out"
			break
		}
		for cell, id := range layout {
			if id == mcdata.NoItem {
				continue
			}
			name := k.game.Item(id).Name
			n, err := k.moveItems(ctx, window, name, crafts, 1+cell)
			if err != nil {
				return k.craftResult(res, made()), fmt.Errorf("laying out %s: %v", name, err)
			}
			if n < crafts {
				return k.craftResult(res, made()), fmt.Errorf("the bot ran out of %s while laying out the recipe", name)
			}
		}
		// The server computes the result as the grid changes.
		want := r.Count
		err := k.waitTicks(ctx, answerTicks, func() bool {
			st := slotOf(k.inv.View(), window, 0)
			return !st.Empty() && st.Name == info.Item && int(st.Count) == want
		})
		if err != nil {
			if errors.Is(err, errTimedOut) {
				res.Reason = fmt.Sprintf("the server showed no %s in the result slot for this recipe", info.Item)
				_ = k.clearGrid(ctx, window, width)
				return k.craftResult(res, made()), nil
			}
			return k.craftResult(res, made()), err
		}
		before := made()
		target := before + crafts*r.Count
		if _, err := k.inv.Click(ctx, inventory.ShiftClick(window, 0)); err != nil {
			return k.craftResult(res, made()), err
		}
		// Shift-clicking the result crafts again while the grid allows; the
		// server sends the items as they land.
		_ = k.waitTicks(ctx, answerTicks, func() bool { return made() >= target })
		if made() == before {
			res.Reason = "the server did not hand over the result (is the inventory full?)"
			_ = k.clearGrid(ctx, window, width)
			break
		}
		if progress != nil {
			progress(made(), total)
		}
	}
	if err := k.clearGrid(ctx, window, width); err != nil {
		return k.craftResult(res, made()), err
	}
	return k.craftResult(res, made()), nil
}

func (k *Skills) craftResult(res CraftResult, made int) CraftResult {
	res.Made = made
	if made < res.Info.Count && res.Reason == "" {
		res.Reason = fmt.Sprintf("only %d of %d arrived", made, res.Info.Count)
	}
	return res
}

// clearGrid puts the cursor down and shift-clicks what is left in the
// crafting grid back into the inventory.
func (k *Skills) clearGrid(ctx context.Context, window int32, width int) error {
	if err := k.clearCursor(ctx, window); err != nil {
		return err
	}
	for cell := 1; cell <= width*width; cell++ {
		if slotOf(k.inv.View(), window, cell).Empty() {
			continue
		}
		if _, err := k.click(ctx, inventory.ShiftClick(window, cell)); err != nil {
			return fmt.Errorf("taking back what was left in the grid: %v", err)
		}
	}
	return nil
}

// maxStackOf is how many crafts one grid can hold at once: the smallest
// stack size among the recipe's ingredients.
func (k *Skills) maxStackOf(layout []mcdata.ItemID) int {
	n := 64
	for _, id := range layout {
		if it := k.game.Item(id); id != mcdata.NoItem && it != nil && it.StackSize > 0 {
			n = min(n, it.StackSize)
		}
	}
	return n
}
