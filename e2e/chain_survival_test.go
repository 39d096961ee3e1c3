package e2e

import (
	"fmt"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
)

// TestStonePickaxeChain is the survival skills' worked example end to end,
// from an empty inventory, through `blockmate sidecar` on the survival
// plugin's flying-squid (real break times, drops, crafting grids): collect 4
// oak logs, craft planks, a crafting table and sticks, place the table,
// craft a wooden pickaxe at it, collect 3 cobblestone with that pickaxe
// (stone drops nothing by hand), craft a stone pickaxe. Every step is
// checked against the server's own inventory, never only against what the
// tools answered.
func TestStonePickaxeChain(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	for _, version := range []string{"1.21.1", "1.21.4"} {
		t.Run(version, func(t *testing.T) {
			// Each version has its own server and sidecar.
			t.Parallel()
			s := startSkillScene(t, bin, version, peertest.SurvivalOptions{})
			s.chain()
		})
	}
}

type collectReply struct {
	Collected int    `json:"collected"`
	Item      string `json:"item"`
	Reason    string `json:"reason"`
	NextStep  string `json:"next_step"`
}

// setblock sets a block with the server's console and waits until the bot
// sees it (mc_block_at), so the next tool call finds it.
func (s *skillScene) setblock(p [3]int, name string) {
	s.t.Helper()
	s.command(fmt.Sprintf("setblock %d %d %d %s", p[0], p[1], p[2], name))
	var b struct {
		Block string `json:"block"`
	}
	s.eventually(fmt.Sprintf("the bot sees %s at %v", name, p), func() bool {
		s.call("mc_block_at", map[string]any{"x": p[0], "y": p[1], "z": p[2]}, &b)
		return b.Block == name
	}, func() string { return b.Block })
}

// collect runs mc_collect and checks the answer and both inventories.
func (s *skillScene) collect(block string, count int, item string, want map[string]int) {
	s.t.Helper()
	var r collectReply
	s.call("mc_collect", map[string]any{"block_type": block, "count": count}, &r)
	if r.Collected != count || r.Item != item {
		s.t.Fatalf("mc_collect %s %d = %+v, want %d %s", block, count, r, count, item)
	}
	s.agree(want)
	s.t.Logf("mc_collect %s %d: %+v; the inventory holds %v", block, count, r, want)
}

func (s *skillScene) chain() {
	s.t.Helper()
	if got := s.botCounts(); len(got) != 0 {
		s.t.Fatalf("the bot starts with %v; the chain starts from an empty inventory", got)
	}
	// A trunk of four logs stands three blocks west of the bot: the bot
	// digs it from where it stands or walks up to it, and walks to the
	// drops on the ground.
	for dy := 0; dy < 4; dy++ {
		s.setblock([3]int{s.at[0] - 3, s.at[1] + dy, s.at[2]}, "oak_log")
	}
	s.collect("oak_log", 4, "oak_log", map[string]int{"oak_log": 4})

	s.craft("oak_planks", 16, 16, map[string]int{"oak_log": 0, "oak_planks": 16})
	s.craft("crafting_table", 1, 1, map[string]int{"oak_planks": 12, "crafting_table": 1})
	s.craft("stick", 4, 4, map[string]int{"oak_planks": 10, "stick": 4})

	// The table goes on the ground two blocks east, placed by the bot.
	table := [3]int{s.at[0] + 2, s.at[1], s.at[2]}
	var placed struct {
		Placed bool   `json:"placed"`
		Reason string `json:"reason"`
	}
	s.call("mc_place", map[string]any{"block": "crafting_table", "x": table[0], "y": table[1], "z": table[2]}, &placed)
	if !placed.Placed {
		s.t.Fatalf("mc_place crafting_table = %+v", placed)
	}
	var b struct {
		Name string `json:"name"`
	}
	s.eventually("the server has the crafting table", func() bool {
		s.query(&b, "block", table[0], table[1], table[2])
		return b.Name == "crafting_table"
	}, func() string { return b.Name })
	s.agree(map[string]int{"crafting_table": 0})

	s.craft("wooden_pickaxe", 1, 1, map[string]int{"oak_planks": 7, "stick": 2, "wooden_pickaxe": 1})

	for dy := 2; dy <= 4; dy++ {
		s.setblock([3]int{s.at[0], s.at[1] + dy, s.at[2]}, "stone")
	}
	s.collect("stone", 3, "cobblestone", map[string]int{"cobblestone": 3, "wooden_pickaxe": 1})

	s.craft("stone_pickaxe", 1, 1, map[string]int{"cobblestone": 0, "stick": 0, "stone_pickaxe": 1, "wooden_pickaxe": 1})
}
