package dig

import (
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// TestBestToolIsThePlannersCost: the tool the planner's break time assumes
// is the one Dig equips: one that makes the block drop first, then the
// fastest, and the held item on a tie.
func TestBestToolIsThePlannersCost(t *testing.T) {
	g := mcdata.Game(769)
	with := func(name string) Conditions {
		c := Hand()
		if name != "" {
			c.Tool, c.ToolID = name, mcdata.ItemID(g.ItemByName(name).ID)
		}
		return c
	}
	carried := []Conditions{with("oak_planks"), with(""), with("wooden_pickaxe"), with("wooden_shovel"), with("golden_shovel")}
	for _, c := range []struct {
		block, tool string
		ticks       int
	}{
		{"stone", "wooden_pickaxe", 23},   // drops only with a pickaxe
		{"dirt", "golden_shovel", 2},      // the fastest shovel
		{"oak_log", "oak_planks", 60},     // no axe: all alike, the held item kept
		{"obsidian", "wooden_pickaxe", 0}, // nothing makes it drop: the fastest (too slow for a path)
	} {
		b := g.BlockByName(c.block)
		got := bestTool(b, carried)
		if got.name != c.tool || c.ticks != 0 && got.ticks != c.ticks {
			t.Errorf("%s: %+v, want %s in %d ticks", c.block, got, c.tool, c.ticks)
		}
	}
}
