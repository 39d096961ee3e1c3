package dig

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// with is the hand's conditions holding a tool.
func with(g *mcdata.GameData, tool string) Conditions {
	c := Hand()
	if tool != "" {
		c.Tool, c.ToolID = tool, g.ItemByName(tool).ID
	}
	return c
}

// TestBreakTicksByHand: break times worked out by hand from the game's
// formula (speed / hardness / 30 with a tool that makes the block drop,
// / 100 without; 20 ticks a second), on every version's data.
func TestBreakTicksByHand(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		cases := []struct {
			block, tool string
			change      func(*Conditions)
			ticks       int
		}{
			// Stone by hand: 1 / 1.5 / 100 a tick, 150 ticks = 7.5 s (no drop).
			{"stone", "", nil, 150},
			// With a wooden pickaxe: 2 / 1.5 / 30 = 0.0444 a tick: 22.5 → 23 ticks = 1.15 s.
			{"stone", "wooden_pickaxe", nil, 23},
			// Stone pickaxe: 4 / 1.5 / 30 → 11.25 → 12 ticks.
			{"stone", "stone_pickaxe", nil, 12},
			// Oak log by hand: 1 / 2 / 30 → 60 ticks = 3 s (logs drop by hand).
			{"oak_log", "", nil, 60},
			// With an iron axe: 6 / 2 / 30 = 0.1 → 10 ticks = 0.5 s.
			{"oak_log", "iron_axe", nil, 10},
			// A pickaxe is no help on a log: 60 ticks.
			{"oak_log", "diamond_pickaxe", nil, 60},
			// Dirt by hand: 1 / 0.5 / 30 → 15 ticks; a wooden shovel 2 → 8 (7.5 up).
			{"dirt", "", nil, 15},
			{"dirt", "wooden_shovel", nil, 8},
			// Iron ore needs a stone pickaxe to drop: by hand 1 / 3 / 100 → 300;
			// stone pickaxe 4 / 3 / 30 → 22.5 → 23; with a wooden one it
			// breaks at 2 / 3 / 100 → 150 and drops nothing.
			{"iron_ore", "", nil, 300},
			{"iron_ore", "stone_pickaxe", nil, 23},
			{"iron_ore", "wooden_pickaxe", nil, 150},
			// Obsidian with diamond: 8 / 50 / 30 → 187.5 → 188 ticks = 9.4 s.
			{"obsidian", "diamond_pickaxe", nil, 188},
			// Efficiency V on a diamond pickaxe: 8 + 26 = 34 / 1.5 / 30 = 0.7556 → 2 ticks.
			{"stone", "diamond_pickaxe", func(c *Conditions) { c.Efficiency = 5 }, 2},
			// Off the ground, ×1/5: the wooden pickaxe's 22.5 becomes 112.5 → 113.
			{"stone", "wooden_pickaxe", func(c *Conditions) { c.OnGround = false }, 113},
			// Eyes in water, ×0.2: the same 113; aqua affinity cancels it.
			{"stone", "wooden_pickaxe", func(c *Conditions) { c.EyesInWater = true }, 113},
			{"stone", "wooden_pickaxe", func(c *Conditions) { c.EyesInWater, c.AquaAffinity = true, true }, 23},
			// Haste II (amplifier 1): ×1.4: 2.8 / 1.5 / 30 → 16.07 → 17.
			{"stone", "wooden_pickaxe", func(c *Conditions) { c.Haste = 1 }, 17},
			// Mining fatigue I: ×0.3: 0.6 / 1.5 / 30 → 75 ticks.
			{"stone", "wooden_pickaxe", func(c *Conditions) { c.MiningFatigue = 0 }, 75},
			// Hardness 0 breaks at once; so does a block a tool breaks in under a tick.
			{"short_grass", "", nil, 0},
			{"oak_leaves", "shears", nil, 0},
		}
		for _, tc := range cases {
			b := g.BlockByName(tc.block)
			if b == nil {
				t.Fatalf("%s has no %s", g.Version, tc.block)
			}
			c := with(g, tc.tool)
			if tc.change != nil {
				tc.change(&c)
			}
			if got, ok := BreakTicks(b, c); !ok || got != tc.ticks {
				t.Errorf("%s: %s with %q %+v: %d ticks (%v), want %d", g.Version, tc.block, tc.tool, c, got, ok, tc.ticks)
			}
		}
		for _, name := range []string{"bedrock", "barrier", "end_portal_frame"} {
			if n, ok := BreakTicks(g.BlockByName(name), with(g, "netherite_pickaxe")); ok {
				t.Errorf("%s: %s breaks in %d ticks; it is unbreakable", g.Version, name, n)
			}
		}
	}
}

// TestBreakTicksAgreeWithThePlugin compares every block of each version,
// with the hand and 32 tools, on the ground, in the air, in water, with
// haste II, mining fatigue I and efficiency III, against the survival
// plugin's break times (testdata/peers/survival/digging.js, the rules the
// test server breaks blocks by). Every case must agree to the tick.
func TestBreakTicksAgreeWithThePlugin(t *testing.T) {
	versions := map[string]int32{}
	var names []string
	for _, r := range mcdata.Releases() {
		if mcdata.Game(int32(r.Protocol)) == nil {
			continue
		}
		name := r.Names[len(r.Names)-1]
		versions[name] = int32(r.Protocol)
		names = append(names, name)
	}
	out := peertest.RunNode(t, "survival/breakticks.js", names...)
	compared := 0
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var v struct {
			Version    string
			Tools      []string
			Conditions []string
			Blocks     map[string][]int
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		g := mcdata.Game(versions[v.Version])
		wrong := 0
		for name, row := range v.Blocks {
			b := g.BlockByName(name)
			if b == nil {
				t.Errorf("%s: the plugin has a block %s that the bot's data lacks", v.Version, name)
				continue
			}
			for ti, tool := range v.Tools {
				for ci, cond := range v.Conditions {
					c := with(g, tool)
					switch cond {
					case "air":
						c.OnGround = false
					case "water":
						c.EyesInWater = true
					case "haste 2":
						c.Haste = 1
					case "mining fatigue 1":
						c.MiningFatigue = 0
					case "efficiency 3":
						c.Efficiency = 3
					}
					want := row[ti*len(v.Conditions)+ci]
					got, ok := BreakTicks(b, c)
					if !ok {
						got = -1
					}
					compared++
					if got != want {
						if wrong++; wrong <= 10 {
							t.Errorf("%s: %s with %q (%s): %d ticks, the plugin %d", v.Version, name, tool, cond, got, want)
						}
					}
				}
			}
		}
		if wrong > 10 {
			t.Errorf("%s: %d disagreements in all", v.Version, wrong)
		}
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
	t.Logf("%d cases compared", compared)
}
