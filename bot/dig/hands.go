package dig

import (
	"context"
	"errors"
	"fmt"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// The body's hands: what bot/move borrows to carry out the digging and
// bridging steps of a path (path.Digger, path.Bridger). They never walk
// (the body stops at the step, in reach) and answer with an error whose
// text is a sentence when the server or the world refuses, so the body
// plans again.

// Throwaway are the blocks a bridge is built with: common, cheap, solid
// and not falling. The order is the preference when the bot carries
// several.
var Throwaway = []string{"dirt", "cobblestone", "netherrack", "cobbled_deepslate", "stone", "andesite", "diorite", "granite", "tuff", "coarse_dirt", "blackstone", "end_stone"}

// Throwaway is how many blocks the bot carries that a bridge may use.
func (d *Dig) Throwaway() int {
	v := d.inv.View()
	n := 0
	for _, name := range Throwaway {
		n += v.Count(name)
	}
	return n
}

// throwawayItem is the throwaway block to place next: the first of
// Throwaway the bot carries, preferring what it holds.
func (d *Dig) throwawayItem() string {
	v := d.inv.View()
	held := v.Held()
	for _, name := range Throwaway {
		if !held.Empty() && held.Name == name {
			return name
		}
	}
	for _, name := range Throwaway {
		if v.Count(name) > 0 {
			return name
		}
	}
	return ""
}

// Break breaks the block at p from where the bot stands, with the best
// tool it carries (Dig's rules and waits), without walking.
func (d *Dig) Break(ctx context.Context, p world.BlockPos) error {
	d.op.Lock()
	defer d.op.Unlock()
	st, _ := d.blockAt(p)
	r, err := d.dig(ctx, p, false)
	switch {
	case err != nil:
		return err
	case !r.Dug:
		return errors.New(r.Reason)
	}
	d.record(st)
	return nil
}

// PlaceUnder places a throwaway block (dirt, cobblestone …) at p, against
// a neighbour's face, from where the bot stands: the next block of a
// bridge, under the bot's next step.
func (d *Dig) PlaceUnder(ctx context.Context, p world.BlockPos) error {
	d.op.Lock()
	defer d.op.Unlock()
	name := d.throwawayItem()
	if name == "" {
		return fmt.Errorf("the bot carries no blocks to bridge with (%v)", Throwaway)
	}
	r, err := d.place(ctx, name, p, false)
	switch {
	case err != nil:
		return err
	case !r.Placed:
		return errors.New(r.Reason)
	}
	return nil
}

// BreakCost returns the planner's break time: how many ticks breaking a
// block state takes with the best tool the bot carries now (the tool Dig
// would equip), standing on the ground, and false for what the bot cannot
// break (bedrock, fluids, any block in adventure or spectator mode). The
// function remembers each block's answer; it belongs to one plan and one
// goroutine.
func (d *Dig) BreakCost() func(mcdata.StateID) (int, bool) {
	if d.g == nil {
		return func(mcdata.StateID) (int, bool) { return 0, false }
	}
	me := d.self.Snapshot()
	mode := me.GameMode
	conds := d.toolConditions(d.inv.View())
	for i := range conds {
		// The body stops on the ground to dig; the eyes' water is where it
		// will stand, unknown here: the dry figure.
		conds[i].OnGround, conds[i].EyesInWater = true, false
	}
	type answer struct {
		ticks int
		ok    bool
	}
	memo := map[*mcdata.Block]answer{}
	return func(st mcdata.StateID) (int, bool) {
		b := d.g.BlockOf(st)
		if b == nil || d.isAir(st) || mode == adventure || mode == spectator {
			return 0, false
		}
		if a, ok := memo[b]; ok {
			return a.ticks, a.ok
		}
		a := answer{}
		if b.Hardness >= 0 && b.Name != "water" && b.Name != "lava" {
			a = answer{bestTool(b, conds).ticks, true}
			if mode == creative {
				a.ticks = 0
			}
		}
		memo[b] = a
		return a.ticks, a.ok
	}
}
