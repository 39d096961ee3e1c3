package path

import (
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// TestFactsForEveryVersion checks the planner's reading of blocks on every
// version the bot joins: what hurts, what is water or climbable, which
// doors open by hand, what a player stands on and at what height.
func TestFactsForEveryVersion(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		tab := tableFor(g)
		if tableFor(g) != tab {
			t.Fatalf("%s: the table is not kept", g.Version)
		}
		first := func(pattern string) stateFacts {
			set, err := g.MatchStates(pattern)
			if err != nil {
				t.Fatalf("%s: %v", g.Version, err)
			}
			for s := set.Blocks[0].MinState; s <= set.Blocks[0].MaxState; s++ {
				if set.Has(s) {
					return tab.facts[s]
				}
			}
			t.Fatalf("%s: %s matches nothing", g.Version, pattern)
			return stateFacts{}
		}
		center := func(f stateFacts) span { return tab.spans[f.shape][fpCenter] }
		for _, c := range []struct {
			pattern string
			has     uint16
			hasNot  uint16
		}{
			{"lava", fLava | fHazard, fWater},
			{"water", fWater, fHazard},
			{"oak_slab[waterlogged=true]", fWater, 0},
			{"kelp", fWater, 0},
			{"fire", fHazard, 0},
			{"cactus", fHazard, 0},
			{"magma_block", fHazard, 0},
			{"sweet_berry_bush", fHazard, 0},
			{"powder_snow", fHazard, 0},
			{"wither_rose", fHazard, 0},
			{"cobweb", fHazard, 0},
			{"ladder", fClimb, fHazard},
			{"vine", fClimb, 0},
			{"soul_sand", fSlow, 0},
			{"honey_block", fSlow, 0},
			{"oak_door[open=false]", fOpenable, 0},
			{"oak_door[open=true]", 0, fOpenable},
			{"copper_door[open=false]", fOpenable, 0},
			{"iron_door[open=false]", 0, fOpenable},
			{"oak_fence_gate[open=false]", fOpenable, 0},
			{"stone", fLoaded, fHazard | fWater | fClimb | fOpenable | fSlow},
		} {
			f := first(c.pattern)
			if f.flags&c.has != c.has || f.flags&c.hasNot != 0 {
				t.Errorf("%s: %s has flags %b, want %b and not %b", g.Version, c.pattern, f.flags, c.has, c.hasNot)
			}
		}
		for _, c := range []struct {
			pattern string
			lo, hi  float32
		}{
			{"stone", 0, 1},
			{"oak_slab[type=bottom]", 0, 0.5},
			{"oak_slab[type=top]", 0.5, 1},
			{"white_carpet", 0, 0.0625},
			{"snow[layers=3]", 0, 0.25},
			{"soul_sand", 0, 0.875},
			{"oak_fence", 0, 1.5},
			{"cobblestone_wall[up=true]", 0, 1.5},
		} {
			if sp := center(first(c.pattern)); sp.lo != c.lo || sp.hi != c.hi {
				t.Errorf("%s: %s spans %v in the middle, want %v–%v", g.Version, c.pattern, sp, c.lo, c.hi)
			}
		}
		for _, pattern := range []string{"air", "short_grass", "ladder[facing=north]", "snow[layers=1]", "oak_door[facing=north,open=false]", "torch", "vine"} {
			if sp := center(first(pattern)); !sp.empty() {
				t.Errorf("%s: the middle of %s should be free, spans %v", g.Version, pattern, sp)
			}
		}
		// A closed door blocks the face it sits on; open, it blocks
		// nothing a player walks through it by.
		door := first("oak_door[facing=north,open=false,hinge=left]")
		if tab.spans[door.shape][sweep(0, 1)].empty() || !tab.spans[door.open][sweep(0, 1)].empty() {
			t.Errorf("%s: a closed north door should block walking south through it, open not", g.Version)
		}
	}
}

func TestFootprints(t *testing.T) {
	for f := footprint(0); f < numFootprints; f++ {
		x0, z0, x1, z1 := f.rect()
		if x0 < 0 || z0 < 0 || x1 > 1 || z1 > 1 || x1-x0 < 0.3-1e-9 || z1-z0 < 0.3-1e-9 {
			t.Errorf("footprint %d: %v %v %v %v", f, x0, z0, x1, z1)
		}
	}
	if x0, z0, x1, z1 := fpCenter.rect(); x0 != 0.2 || z0 != 0.2 || x1 != 0.8 || z1 != 0.8 {
		t.Errorf("centre %v %v %v %v", x0, z0, x1, z1)
	}
	if x0, _, x1, _ := sweep(1, 0).rect(); x0 != 0.2 || x1 != 1 {
		t.Errorf("sweep east spans x %v–%v", x0, x1)
	}
	if x0, z0, x1, z1 := corner(-1, 1).rect(); x0 != 0 || x1 != 0.3 || z0 != 0.7 || z1 != 1 {
		t.Errorf("corner (-1, 1): %v %v %v %v", x0, z0, x1, z1)
	}
	for _, xyz := range [][3]int{{0, 0, 0}, {-30000000, -2032, 29999999}, {123, 64, -456}, {29999999, 2031, -30000000}} {
		x, y, z := unpackKey(posKey(xyz[0], xyz[1], xyz[2]))
		if [3]int{x, y, z} != xyz || posKey(xyz[0], xyz[1], xyz[2]) == 0 {
			t.Errorf("key of %v unpacks to %d %d %d", xyz, x, y, z)
		}
	}
}
