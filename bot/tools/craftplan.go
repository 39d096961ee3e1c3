package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/plan"
	"github.com/blockmate/blockmate/bot/skill"
	blocks "github.com/blockmate/blockmate/bot/world"
)

// mc_craft with a plan: the tree of what an item takes comes from bot/plan
// (the one planner over recipes, drops and smelting), asked for count more
// of the item with what the bot carries; mc_craft runs the plan's crafts and
// its table placement, and stops before anything that needs the world
// (gathering, smelting), which it names instead, down to the raw materials.

// CraftStep is one thing mc_craft did on the way to the item: a craft, or
// the crafting table it placed.
type CraftStep struct {
	// Did is "craft" or "place".
	Did   string `json:"did"`
	Item  string `json:"item"`
	Count int    `json:"count"`
	// For is the item the step was made for (planks for the sticks), empty
	// for the goal itself.
	For string `json:"for,omitempty"`
	// At is where a placed block stands.
	At *BlockPos `json:"at,omitempty"`
}

// MissingItem is a raw material the world provides that a craft lacks:
// how many of the item, and the blocks it is got from (raw_iron from
// iron_ore or deepslate_iron_ore).
type MissingItem struct {
	Item  string   `json:"item"`
	Count int      `json:"count"`
	From  []string `json:"from,omitempty"`
}

// craftPlan is mc_craft's reading of a plan.
type craftPlan struct {
	*plan.Plan
	// Missing are the raw materials the plan would gather (all of them,
	// summed by item, with the blocks they come from).
	Missing []MissingItem
	// Smelts are the plan's smelting steps, which mc_craft does not do.
	Smelts []plan.Step
	// Direct says the plan does not end in a craft of the item (an item
	// a player gets another way, iron_ingot by smelting): mc_craft crafts
	// it by its own recipe then, without intermediates.
	Direct bool
}

// Runnable says whether mc_craft can run the plan from the inventory alone.
func (c *craftPlan) Runnable() bool {
	return c.OK() && !c.Direct && len(c.Missing) == 0 && len(c.Smelts) == 0
}

// planCraft plans crafting count more of an item from what the bot
// carries: the plan is asked for count of it with what is carried of the
// item itself left out (mc_craft makes new ones, it does not count the old),
// and with a crafting table in the world when one is within reach or a
// walk away (tableNear), so that none is made then.
func planCraft(g *mcdata.GameData, item string, count int, carried map[string]int, tableNear bool) (*craftPlan, error) {
	have := make(map[string]int, len(carried))
	for k, v := range carried {
		if k != item {
			have[k] = v
		}
	}
	p, err := plan.Make(g, plan.Goal{Item: item, Count: count}, have, plan.World{CraftingTable: tableNear})
	if err != nil {
		return nil, err
	}
	cp := &craftPlan{Plan: p}
	if n := len(p.Steps); n == 0 || p.Steps[n-1].Kind != plan.Craft || p.Steps[n-1].Item != item {
		cp.Direct = true
	}
	for _, s := range p.Steps {
		switch s.Kind {
		case plan.Gather:
			found := false
			for i := range cp.Missing {
				if cp.Missing[i].Item == s.Item {
					cp.Missing[i].Count += s.Count
					found = true
				}
			}
			if !found {
				cp.Missing = append(cp.Missing, MissingItem{Item: s.Item, Count: s.Count, From: s.From})
			}
		case plan.Smelt:
			cp.Smelts = append(cp.Smelts, s)
		}
	}
	return cp, nil
}

// purpose is the item step i of a plan is made for: the first later step
// that uses it, where a crafting table made to be placed serves what the
// placed table serves (the next craft at a table); empty for the goal.
func purpose(steps []plan.Step, i int) string {
	s := steps[i]
	for j := i + 1; j < len(steps); j++ {
		later := steps[j]
		if s.Kind == plan.PlaceTable {
			if later.Kind == plan.Craft && later.Table {
				return later.Item
			}
			continue
		}
		if later.Kind == plan.PlaceTable && later.Item == s.Item {
			return purpose(steps, j)
		}
		for _, u := range later.Uses {
			if u.Item == s.Item {
				return later.Item
			}
		}
	}
	return ""
}

// stepText is a step as the console's task line names it: "crafting
// oak_planks for crafting_table", "placing a crafting_table".
func stepText(steps []plan.Step, i int) string {
	s := steps[i]
	if s.Kind == plan.PlaceTable {
		return "placing a crafting_table"
	}
	text := fmt.Sprintf("crafting %d %s", s.Count, s.Item)
	if p := purpose(steps, i); p != "" {
		text += " for " + p
	}
	return text
}

// whatItTakes is the sentence for a plan mc_craft cannot run: the raw
// materials it lacks, then the smelting it would need.
func (c *craftPlan) whatItTakes(item string) string {
	var parts []string
	if len(c.Missing) > 0 {
		var m []string
		for _, x := range c.Missing {
			m = append(m, fmt.Sprintf("%d %s", x.Count, x.Item))
		}
		parts = append(parts, "it lacks "+strings.Join(m, ", ")+" (from the world)")
	}
	for _, s := range c.Smelts {
		parts = append(parts, s.String())
	}
	return fmt.Sprintf("crafting %s from what the bot carries is not possible: %s", item, strings.Join(parts, "; and "))
}

// craftPlanned is mc_craft: it plans, runs the crafts and the table
// placement in order, and reports each step (report, if not nil, hears
// the step's words, and how many steps are done of all).
func (w *session) craftPlanned(ctx context.Context, item string, count int, report func(step string, done, total int)) (CraftResult, error) {
	out := CraftResult{Item: item, Steps: []CraftStep{}}
	k := w.Skills()
	_, tableNear := k.TableToWalkTo()
	cp, err := planCraft(k.Game(), item, count, skill.Have(w.Inventory().View()), tableNear)
	if err != nil {
		return out, err
	}
	if cp.Direct {
		// The item's own recipe, as before the plan: the plan gets it
		// another way (smelting, mining), which mc_obtain does.
		if report != nil {
			report("crafting "+item, 0, 1)
		}
		r, err := k.Craft(ctx, item, count, nil)
		out.Count, out.Crafted = r.Made, r.Made >= count
		for _, m := range r.Info.Missing {
			out.Missing = append(out.Missing, MissingItem{Item: m.Item, Count: m.Count})
		}
		out.Reason = r.Reason
		if r.Made > 0 {
			out.Steps = append(out.Steps, CraftStep{Did: "craft", Item: item, Count: r.Made})
		}
		return out, err
	}
	if !cp.OK() {
		out.Reason = cp.Reason
		out.Missing = cp.Missing
		return out, nil
	}
	if !cp.Runnable() {
		out.Reason = cp.whatItTakes(item)
		out.Missing = cp.Missing
		return out, nil
	}
	steps := cp.Steps
	start := w.Inventory().View().Count(item)
	for i, s := range steps {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if report != nil {
			report(stepText(steps, i), i, len(steps))
		}
		forItem := purpose(steps, i)
		switch s.Kind {
		case plan.PlaceTable:
			at, err := w.placeNear(ctx, s.Item)
			if err != nil {
				out.Reason = err.Error()
				return out, nil
			}
			out.Steps = append(out.Steps, CraftStep{Did: "place", Item: s.Item, Count: 1, For: forItem, At: &BlockPos{at.X, at.Y, at.Z}})
		case plan.Craft:
			before := w.Inventory().View().Count(s.Item)
			r, err := k.CraftRecipe(ctx, s.Recipe, s.Count, nil)
			made := w.Inventory().View().Count(s.Item) - before
			if made > 0 {
				out.Steps = append(out.Steps, CraftStep{Did: "craft", Item: s.Item, Count: made, For: forItem})
			}
			if errors.Is(err, skill.ErrNoTable) {
				out.Reason = fmt.Sprintf("crafting %s: %v", s.Item, err)
				return out, nil
			}
			if err != nil {
				out.Count = w.Inventory().View().Count(item) - start
				return out, err
			}
			if r.Made < s.Count {
				out.Reason = fmt.Sprintf("crafting %s for %s: %s", s.Item, item, r.Reason)
				if s.Item == item {
					out.Reason = r.Reason
				}
				out.Count = w.Inventory().View().Count(item) - start
				out.Crafted = out.Count >= count
				return out, nil
			}
		}
	}
	out.Count = w.Inventory().View().Count(item) - start
	out.Crafted = out.Count >= count
	if report != nil {
		report("crafted "+item, len(steps), len(steps))
	}
	return out, nil
}

// placeNear places a carried block (a crafting table) beside the bot, as
// a player puts one down: on the ground next to it, on air with something
// solid below, trying the nearest places first, and answers where it
// stands once the server shows it there.
func (w *session) placeNear(ctx context.Context, item string) (blocks.BlockPos, error) {
	feet := w.feet()
	view := w.Level().View()
	g := w.Level().Game()
	isAir := func(p blocks.BlockPos) bool {
		st, ok := view.BlockAt(p)
		if !ok {
			return false
		}
		b := g.BlockOf(st)
		return b != nil && (b.Name == "air" || b.Name == "cave_air" || b.Name == "short_grass" || b.Name == "grass")
	}
	var reasons []string
	tries := 0
	for r := 1; r <= 2 && tries < 8; r++ {
		for dx := -r; dx <= r && tries < 8; dx++ {
			for dz := -r; dz <= r && tries < 8; dz++ {
				if max(abs(dx), abs(dz)) != r {
					continue
				}
				p := blocks.BlockPos{X: feet.X + dx, Y: feet.Y, Z: feet.Z + dz}
				below := blocks.BlockPos{X: p.X, Y: p.Y - 1, Z: p.Z}
				if !isAir(p) || isAir(below) {
					continue
				}
				if _, ok := view.BlockAt(below); !ok {
					continue
				}
				tries++
				res, err := w.Dig().Place(ctx, item, p)
				if err != nil {
					return p, fmt.Errorf("placing the %s: %v", item, err)
				}
				if res.Placed {
					return p, nil
				}
				reasons = append(reasons, res.Reason)
			}
		}
	}
	if len(reasons) == 0 {
		return feet, fmt.Errorf("there is no free ground beside the bot to place the %s on; move the bot to open ground and call mc_craft again", item)
	}
	return feet, fmt.Errorf("the %s could not be placed beside the bot (%s); place it with mc_place, then call mc_craft again", item, reasons[len(reasons)-1])
}
