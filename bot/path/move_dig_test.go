package path

import (
	"slices"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// pickaxeTicks is a stand-in for bot/dig's break time with a stone
// pickaxe: what the tests need is a per-block figure the planner adds up,
// and blocks it refuses (bedrock).
func pickaxeTicks(st mcdata.StateID) (int, bool) {
	b := game.BlockOf(st)
	switch {
	case b == nil || b.Hardness < 0:
		return 0, false
	case b.Hardness == 0:
		return 0, true
	}
	return int(b.Hardness*10) + 1, true
}

func digger() *Digger { return &Digger{BreakTicks: pickaxeTicks} }

// broken is every block a path breaks, in order.
func broken(r Result) []world.BlockPos {
	var out []world.BlockPos
	for _, st := range r.Path.Steps {
		out = append(out, st.Break...)
	}
	return out
}

// placed is every block a path places, in order.
func placed(r Result) []world.BlockPos {
	var out []world.BlockPos
	for _, st := range r.Path.Steps {
		out = append(out, st.Place...)
	}
	return out
}

// wallWorld is flat ground with a stone wall across the whole world at
// x 5 (three thick, 4 high): no way around, over (4 high) or under.
func wallWorld(t *testing.T) *testWorld {
	w := flat(t, 2)
	w.fill(5, 64, -32, 7, 67, 31, "stone")
	return w
}

func TestDigThroughAWall(t *testing.T) {
	w := wallWorld(t)
	v := w.view()
	goal := Near{Pos: pos(10, 64, 0)}
	r := plan(t, v, pos(0, 64, 0), goal, Options{})
	if r.Status != NoPath || r.Reason != ReasonNeedsDigging {
		t.Fatalf("a wall without digging:\n%s", describe(r))
	}
	r = plan(t, v, pos(0, 64, 0), goal, Options{Movers: []Mover{digger()}})
	if r.Status != Complete {
		t.Fatalf("a wall with digging:\n%s", describe(r))
	}
	got := broken(r)
	// Straight through on the level: the feet's and the head's blocks of
	// each of the three layers, the head first.
	var want []world.BlockPos
	for x := 5; x <= 7; x++ {
		want = append(want, pos(x, 65, 0), pos(x, 64, 0))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("broke %v, want %v\n%s", got, want, describe(r))
	}
	for _, st := range r.Path.Steps {
		if st.Move == Dig {
			for _, b := range st.Break {
				if b.Y < st.To.Y || b == st.Support || b.Y == st.From.Y-1 && b.X == st.From.X && b.Z == st.From.Z {
					t.Errorf("step %v → %v breaks %v: under the feet", st.From, st.To, b)
				}
			}
		}
	}
	// The cost is the break times and the penalty on top of the walk.
	stone, _ := pickaxeTicks(w.state("stone"))
	if min := 6 * (float64(stone) + DefaultDigPenalty); r.Cost < min {
		t.Errorf("cost %.1f is less than six blocks' break time and penalty (%.1f)", r.Cost, min)
	}
}

func TestDigPrefersAShortDetour(t *testing.T) {
	w := wallWorld(t)
	w.fill(5, 64, 3, 7, 65, 3, "air") // a doorway three blocks aside
	r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{Movers: []Mover{digger()}})
	if r.Status != Complete || len(broken(r)) != 0 {
		t.Fatalf("with a doorway three blocks aside, the bot walks around:\n%s", describe(r))
	}
}

func TestDigNeverUnbreakable(t *testing.T) {
	w := flat(t, 2)
	w.fill(5, 64, -32, 7, 67, 31, "bedrock")
	r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{Movers: []Mover{digger()}})
	if r.Status == Complete || len(broken(r)) != 0 {
		t.Fatalf("a bedrock wall:\n%s", describe(r))
	}
	// Too slow a break (MaxTicks) is no way either.
	w = wallWorld(t)
	slow := &Digger{BreakTicks: pickaxeTicks, MaxTicks: 5}
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{Movers: []Mover{slow}})
	if r.Status == Complete || len(broken(r)) != 0 {
		t.Fatalf("stone beyond MaxTicks:\n%s", describe(r))
	}
}

func TestDigNeverNextToFluids(t *testing.T) {
	for _, fluid := range []string{"water", "lava"} {
		w := wallWorld(t)
		// A fluid inside the wall at every z: any way through the middle
		// layer's blocks would let it out.
		w.fill(6, 64, -32, 6, 67, 31, fluid)
		r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{Movers: []Mover{digger()}})
		if r.Status == Complete {
			t.Fatalf("a wall with %s inside:\n%s", fluid, describe(r))
		}
		for _, b := range broken(r) {
			for _, d := range [6][3]int{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
				if d[0]+b.X == 6 {
					t.Fatalf("breaks %v next to %s:\n%s", b, fluid, describe(r))
				}
			}
		}
	}
	// Water above the wall's top layer: the bot digs through the lower two
	// blocks, which do not touch it.
	w := flat(t, 2)
	w.fill(5, 64, -32, 7, 66, 31, "stone")
	w.fill(5, 67, -32, 7, 67, 31, "water")
	w.fill(4, 67, -32, 4, 67, 31, "stone") // banks for the water
	w.fill(8, 67, -32, 8, 67, 31, "stone")
	r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{Movers: []Mover{digger()}})
	if r.Status != Complete {
		t.Fatalf("a wall under water, dug below it:\n%s", describe(r))
	}
	for _, b := range broken(r) {
		if b.Y >= 66 {
			t.Fatalf("breaks %v, under the water:\n%s", b, describe(r))
		}
	}
}

func TestDigNeverUnderSand(t *testing.T) {
	w := wallWorld(t)
	w.fill(5, 66, -32, 7, 67, 31, "sand") // sand over the wall's lower half
	r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{Movers: []Mover{digger()}})
	// The way on is a tunnel a block lower, whose roof is stone: never the
	// block under the sand.
	if r.Status != Complete {
		t.Fatalf("a wall under sand:\n%s", describe(r))
	}
	for _, b := range broken(r) {
		if b.X >= 5 && b.X <= 7 && b.Y == 65 {
			t.Fatalf("breaks %v under sand:\n%s", b, describe(r))
		}
	}
	// With sand down to the feet's level above the ground, no way at all.
	w.fill(5, 64, -32, 7, 67, 31, "sand")
	w.fill(5, 50, -32, 7, 63, 31, "sand")
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{Movers: []Mover{digger()}})
	for _, b := range broken(r) {
		if b.X >= 5 && b.X <= 7 {
			t.Fatalf("breaks %v in a sand wall:\n%s", b, describe(r))
		}
	}
	if r.Status == Complete {
		t.Fatalf("through a wall of sand:\n%s", describe(r))
	}
}

func TestDigIntoAShutBox(t *testing.T) {
	w := flat(t, 2)
	w.fill(10, 64, -1, 12, 66, 1, "stone")
	w.fill(11, 64, 0, 11, 65, 0, "air")
	v := w.view()
	goal := Near{Pos: pos(11, 64, 0)}
	r := plan(t, v, pos(0, 64, 0), goal, Options{})
	if r.Status != NoPath || r.Reason != ReasonGoalEnclosed {
		t.Fatalf("a shut box without digging:\n%s", describe(r))
	}
	r = plan(t, v, pos(0, 64, 0), goal, Options{Movers: []Mover{digger()}})
	if r.Status != Complete || r.Path.End() != pos(11, 64, 0) {
		t.Fatalf("a shut box with digging:\n%s", describe(r))
	}
	if n := len(broken(r)); n != 2 {
		t.Errorf("broke %d blocks to get in, want the wall's two: %v", n, broken(r))
	}
}

func TestDigUpAndDown(t *testing.T) {
	// A goal one block up inside a hill of stone: the bot digs a stair.
	w := flat(t, 2)
	w.fill(5, 64, -32, 31, 70, 31, "stone")
	r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(8, 67, 0)}, Options{Movers: []Mover{digger()}})
	if r.Status != Complete {
		t.Fatalf("up into a hill:\n%s", describe(r))
	}
	ups := 0
	for _, st := range r.Path.Steps {
		if st.Move == Dig && st.To.Y > st.From.Y {
			ups++
			if !st.Jump {
				t.Errorf("a dig up without a jump: %+v", st)
			}
		}
	}
	if ups == 0 {
		t.Fatalf("no dig up:\n%s", describe(r))
	}
	// Down into the ground, never breaking the block under the feet.
	w = flat(t, 2)
	w.fill(-32, 50, -32, 31, 61, 31, "stone")
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(4, 62, 0)}, Options{Movers: []Mover{digger()}})
	if r.Status != Complete {
		t.Fatalf("down into the ground:\n%s", describe(r))
	}
	for _, st := range r.Path.Steps {
		for _, b := range st.Break {
			if b.X == st.From.X && b.Z == st.From.Z && b.Y < st.From.Y {
				t.Fatalf("step %v → %v breaks %v under the feet:\n%s", st.From, st.To, b, describe(r))
			}
			if b == st.Support {
				t.Fatalf("step %v → %v breaks its own support:\n%s", st.From, st.To, describe(r))
			}
		}
	}
}

// trenchWorld is flat ground with a trench 3 wide (x 4 … 6) and 6 deep
// across the whole world: too wide to jump, too deep to climb out of.
func trenchWorld(t *testing.T) *testWorld {
	w := flat(t, 2)
	w.fill(-32, 50, -32, 31, 61, 31, "stone")
	w.fill(4, 58, -32, 6, 63, 31, "air")
	return w
}

func TestBridgeOverATrench(t *testing.T) {
	w := trenchWorld(t)
	v := w.view()
	goal := Near{Pos: pos(9, 64, 0)}
	r := plan(t, v, pos(0, 64, 0), goal, Options{})
	if r.Status == Complete {
		t.Fatalf("a trench without bridging:\n%s", describe(r))
	}
	r = plan(t, v, pos(0, 64, 0), goal, Options{Movers: []Mover{&Bridger{Blocks: 0}}})
	if r.Status == Complete || len(placed(r)) != 0 {
		t.Fatalf("a trench with no blocks to build with:\n%s", describe(r))
	}
	r = plan(t, v, pos(0, 64, 0), goal, Options{Movers: []Mover{&Bridger{Blocks: 2}}})
	if r.Status == Complete {
		t.Fatalf("a trench 3 wide with 2 blocks:\n%s", describe(r))
	}
	r = plan(t, v, pos(0, 64, 0), goal, Options{Movers: []Mover{&Bridger{Blocks: 64}}})
	if r.Status != Complete {
		t.Fatalf("a trench with blocks to bridge it:\n%s", describe(r))
	}
	want := []world.BlockPos{pos(4, 63, 0), pos(5, 63, 0), pos(6, 63, 0)}
	if got := placed(r); !slices.Equal(got, want) {
		t.Fatalf("placed %v, want %v\n%s", got, want, describe(r))
	}
	for _, st := range r.Path.Steps {
		if st.Move == Bridge && (st.Support != st.Place[0] || st.To.Y != 64) {
			t.Errorf("a bridge step stands on %v, places %v: %+v", st.Support, st.Place, st)
		}
	}
}

func TestBridgeOverWaterNotLava(t *testing.T) {
	w := trenchWorld(t)
	w.fill(4, 58, -32, 6, 63, 31, "water")
	// Too much water to swim (MaxSwim 1) and no bank to climb out: a
	// bridge over it (no jumps, as the body plans today).
	r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(9, 64, 0)}, Options{MaxSwim: 1, NoParkour: true, Movers: []Mover{&Bridger{Blocks: 64}}})
	if r.Status != Complete || len(placed(r)) != 3 {
		t.Fatalf("over water:\n%s", describe(r))
	}
	w = trenchWorld(t)
	w.fill(4, 58, -32, 6, 63, 31, "lava")
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(9, 64, 0)}, Options{Movers: []Mover{&Bridger{Blocks: 64}}})
	if r.Status == Complete || len(placed(r)) != 0 {
		t.Fatalf("over lava:\n%s", describe(r))
	}
}

func TestBridgeNotWhereTheGroundIs(t *testing.T) {
	w := flat(t, 2)
	r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(9, 64, 0)}, Options{Movers: []Mover{&Bridger{Blocks: 64}, digger()}})
	if r.Status != Complete || len(placed(r)) != 0 || len(broken(r)) != 0 {
		t.Fatalf("flat ground with both movers:\n%s", describe(r))
	}
}
