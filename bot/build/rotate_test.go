package build_test

import (
	"testing"

	"github.com/blockmate/blockmate/bot/build"
	"github.com/blockmate/blockmate/bot/mcdata"
)

// TestEveryStateTurns turns every state of every version by one, two and
// three quarter turns: each turn is a state of the same block, four turns
// come back to the start, and one turn then three is no turn.
func TestEveryStateTurns(t *testing.T) {
	for _, g := range versions() {
		changed := 0
		for id := mcdata.StateID(0); int(id) < g.NumStates(); id++ {
			s, _ := g.StateByID(id)
			cur := s
			for k := 1; k <= 4; k++ {
				next, err := build.RotateState(cur, 1)
				if err != nil {
					t.Fatalf("%s: %v", g.Version, err)
				}
				if next.Block != s.Block {
					t.Fatalf("%s: %s turned into another block, %s", g.Version, cur, next)
				}
				cur = next
				if k == 1 && next.ID != id {
					changed++
				}
			}
			if cur.ID != id {
				t.Fatalf("%s: four turns take %s to %s", g.Version, s, cur)
			}
			one, _ := build.RotateState(s, 1)
			back, _ := build.RotateState(one, 3)
			if back.ID != id {
				t.Fatalf("%s: a turn and three more take %s to %s", g.Version, s, back)
			}
		}
		if changed < g.NumStates()/4 {
			t.Errorf("%s: a turn changes only %d of %d states", g.Version, changed, g.NumStates())
		}
	}
}

// TestTurnsAreTheGames checks turns the game's rotate methods define
// (StairBlock, RotatedPillarBlock, SignBlock, CrossCollisionBlock, RailBlock,
// RedStoneWireBlock, JigsawBlock, BedBlock) on one state each.
func TestTurnsAreTheGames(t *testing.T) {
	g := newest()
	for _, c := range []struct {
		from  string
		turns int
		to    string
	}{
		{"oak_stairs[facing=north,half=top,shape=inner_left]", 1, "oak_stairs[facing=east,half=top,shape=inner_left]"},
		{"oak_stairs[facing=north]", 2, "oak_stairs[facing=south]"},
		{"oak_stairs[facing=north]", 3, "oak_stairs[facing=west]"},
		{"oak_log[axis=x]", 1, "oak_log[axis=z]"},
		{"oak_log[axis=y]", 1, "oak_log[axis=y]"},
		{"oak_log[axis=x]", 2, "oak_log[axis=x]"},
		{"oak_sign[rotation=0]", 1, "oak_sign[rotation=4]"},
		{"oak_sign[rotation=14]", 1, "oak_sign[rotation=2]"},
		{"oak_fence[north=true]", 1, "oak_fence[east=true]"},
		{"cobblestone_wall[north=tall,west=low]", 1, "cobblestone_wall[east=tall,north=low]"},
		{"rail[shape=north_east]", 1, "rail[shape=south_east]"},
		{"rail[shape=north_south]", 1, "rail[shape=east_west]"},
		{"rail[shape=ascending_north]", 1, "rail[shape=ascending_east]"},
		{"powered_rail[shape=ascending_west]", 1, "powered_rail[shape=ascending_north]"},
		{"redstone_wire[north=side,east=up]", 1, "redstone_wire[east=side,south=up]"},
		{"jigsaw[orientation=north_up]", 1, "jigsaw[orientation=east_up]"},
		{"jigsaw[orientation=up_north]", 1, "jigsaw[orientation=up_east]"},
		{"hopper[facing=down]", 1, "hopper[facing=down]"},
		{"red_bed[facing=north,part=head]", 1, "red_bed[facing=east,part=head]"},
		{"oak_door[facing=west,hinge=left,half=upper]", 1, "oak_door[facing=north,hinge=left,half=upper]"},
		{"vine[north=true,up=true]", 1, "vine[east=true,up=true]"},
	} {
		from, _ := g.ParseState(c.from)
		got, err := build.RotateState(from, c.turns)
		want, _ := g.ParseState(c.to)
		if err != nil || got.ID != want.ID {
			t.Errorf("%s turned %d: %s, want %s (%v)", c.from, c.turns, got, want, err)
		}
	}
	for _, c := range []struct {
		p, want build.Pos
		q       int
	}{
		{build.Pos{0, 5, -1}, build.Pos{1, 5, 0}, 1}, // north of the origin turns east
		{build.Pos{1, 0, 0}, build.Pos{0, 0, 1}, 1},  // east turns south
		{build.Pos{2, 3, 4}, build.Pos{-2, 3, -4}, 2},
		{build.Pos{2, 3, 4}, build.Pos{4, 3, -2}, 3},
		{build.Pos{2, 3, 4}, build.Pos{2, 3, 4}, 4},
		{build.Pos{2, 3, 4}, build.Pos{4, 3, -2}, -1},
	} {
		if got := build.RotatePos(c.p, c.q); got != c.want {
			t.Errorf("%v turned %d: %v, want %v", c.p, c.q, got, c.want)
		}
	}
}
