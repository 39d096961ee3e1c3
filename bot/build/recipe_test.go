package build_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/build"
)

func p(x, y, z int) *build.Pos { return &build.Pos{X: x, Y: y, Z: z} }

func positions(t *build.Target) map[build.Pos]bool {
	out := map[build.Pos]bool{}
	for _, b := range t.Blocks {
		out[b.Pos] = true
	}
	return out
}

// TestBoxShapes checks boxes against the definition: every position of
// the box; hollow, the ones on its surface; walls, the ones on its sides.
func TestBoxShapes(t *testing.T) {
	g := newest()
	for _, c := range []struct {
		min, max      build.Pos
		hollow, walls bool
	}{
		{build.Pos{0, 64, 0}, build.Pos{4, 67, 5}, false, false},
		{build.Pos{4, 67, 5}, build.Pos{0, 64, 0}, true, false}, // corners in any order
		{build.Pos{0, 64, 0}, build.Pos{4, 67, 5}, false, true},
		{build.Pos{0, 64, 0}, build.Pos{1, 70, 1}, true, false},
		{build.Pos{-3, 10, -3}, build.Pos{-3, 10, -3}, true, true},
	} {
		tg, err := build.Expand(g, build.Recipe{Version: 1, Operations: []build.Operation{{Op: "box", Min: &c.min, Max: &c.max, Block: "stone", Hollow: c.hollow, Walls: c.walls}}})
		if err != nil {
			t.Fatal(err)
		}
		got := positions(tg)
		lo := build.Pos{min(c.min.X, c.max.X), min(c.min.Y, c.max.Y), min(c.min.Z, c.max.Z)}
		hi := build.Pos{max(c.min.X, c.max.X), max(c.min.Y, c.max.Y), max(c.min.Z, c.max.Z)}
		want := 0
		for x := lo.X; x <= hi.X; x++ {
			for y := lo.Y; y <= hi.Y; y++ {
				for z := lo.Z; z <= hi.Z; z++ {
					side := x == lo.X || x == hi.X || z == lo.Z || z == hi.Z
					in := true
					if c.walls {
						in = side
					} else if c.hollow {
						in = side || y == lo.Y || y == hi.Y
					}
					if in != got[build.Pos{x, y, z}] {
						t.Fatalf("%+v: %v is %v", c, build.Pos{x, y, z}, got[build.Pos{x, y, z}])
					}
					if in {
						want++
					}
				}
			}
		}
		if len(got) != want {
			t.Errorf("%+v: %d positions, want %d", c, len(got), want)
		}
	}
}

func TestLines(t *testing.T) {
	g := newest()
	for _, c := range [][2]build.Pos{
		{{0, 0, 0}, {10, 3, -4}}, {{5, 5, 5}, {5, 5, 5}}, {{-7, 2, 9}, {3, -8, 1}}, {{0, 0, 0}, {0, 20, 0}},
	} {
		tg, err := build.Expand(g, build.Recipe{Version: 1, Operations: []build.Operation{{Op: "line", From: &c[0], To: &c[1], Block: "stone"}}})
		if err != nil {
			t.Fatal(err)
		}
		bs := tg.Blocks
		if bs[0].Pos != c[0] || bs[len(bs)-1].Pos != c[1] {
			t.Errorf("%v: runs %v to %v", c, bs[0].Pos, bs[len(bs)-1].Pos)
		}
		n := max(abs(c[1].X-c[0].X), abs(c[1].Y-c[0].Y), abs(c[1].Z-c[0].Z)) + 1
		if len(bs) != n {
			t.Errorf("%v: %d blocks, want %d", c, len(bs), n)
		}
		for i := 1; i < len(bs); i++ {
			a, b := bs[i-1].Pos, bs[i].Pos
			if abs(a.X-b.X) > 1 || abs(a.Y-b.Y) > 1 || abs(a.Z-b.Z) > 1 {
				t.Errorf("%v: a gap between %v and %v", c, a, b)
			}
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func TestCylinders(t *testing.T) {
	g := newest()
	for r := 0; r <= 8; r++ {
		full, err := build.Expand(g, build.Recipe{Version: 1, Operations: []build.Operation{{Op: "cylinder", Center: p(0, 0, 0), Radius: r, Height: 3, Block: "stone"}}})
		if err != nil {
			t.Fatal(err)
		}
		walls, _ := build.Expand(g, build.Recipe{Version: 1, Operations: []build.Operation{{Op: "cylinder", Center: p(0, 0, 0), Radius: r, Height: 3, Block: "stone", Walls: true}}})
		shell, _ := build.Expand(g, build.Recipe{Version: 1, Operations: []build.Operation{{Op: "cylinder", Center: p(0, 0, 0), Radius: r, Height: 3, Block: "stone", Hollow: true}}})
		f, w, s := positions(full), positions(walls), positions(shell)
		for q := range f {
			// Round: symmetric under the turns and mirrors of the square.
			for _, m := range []build.Pos{{-q.X, q.Y, q.Z}, {q.X, q.Y, -q.Z}, {q.Z, q.Y, q.X}} {
				if !f[m] {
					t.Fatalf("radius %d: %v in, %v not", r, q, m)
				}
			}
			if q.X*q.X+q.Z*q.Z > r*r+r {
				t.Fatalf("radius %d: %v is outside", r, q)
			}
			if q.Y == 1 && w[q] != s[q] {
				t.Fatalf("radius %d: the middle layer of walls and shell differ at %v", r, q)
			}
			if (q.Y == 0 || q.Y == 2) && !s[q] {
				t.Fatalf("radius %d: the shell's floor or roof lacks %v", r, q)
			}
		}
		if len(f) != 3*len(positionsAt(f, 0)) || r > 0 && len(w) >= len(f) && r > 1 {
			t.Errorf("radius %d: %d full, %d walls", r, len(f), len(w))
		}
	}
}

func positionsAt(m map[build.Pos]bool, y int) []build.Pos {
	var out []build.Pos
	for q := range m {
		if q.Y == y {
			out = append(out, q)
		}
	}
	return out
}

func TestRepeatAndOverwrite(t *testing.T) {
	g := newest()
	r := build.Recipe{Version: 1, Operations: []build.Operation{
		{Op: "repeat", Count: 3, Offset: p(4, 0, 0), Operations: []build.Operation{
			{Op: "box", Min: p(0, 64, 0), Max: p(1, 65, 1), Block: "oak_planks"},
		}},
		{Op: "line", From: p(0, 65, 0), To: p(8, 65, 0), Block: "minecraft:glass"},
	}}
	tg, err := build.Expand(g, r)
	if err != nil {
		t.Fatal(err)
	}
	planks, glass := state(t, g, "oak_planks"), state(t, g, "glass")
	got := map[build.Pos]bool{}
	for _, b := range tg.Blocks {
		got[b.Pos] = true
		want := planks
		if b.Pos.Y == 65 && b.Pos.Z == 0 && b.Pos.X <= 8 {
			want = glass
		}
		if b.State != want {
			t.Errorf("%v holds %d, want %d", b.Pos, b.State, want)
		}
	}
	if len(tg.Blocks) != 3*8+4 { // three 2×2×2 boxes, and the line adds x = 2, 3, 6, 7
		t.Errorf("%d positions", len(tg.Blocks))
	}
	if !got[build.Pos{9, 64, 1}] || got[build.Pos{12, 64, 0}] {
		t.Error("the copies are not at the offsets")
	}
}

func TestRecipeLimitsAndErrors(t *testing.T) {
	g := newest()
	box := func(min, max build.Pos, block string) build.Operation {
		return build.Operation{Op: "box", Min: &min, Max: &max, Block: block}
	}
	nest := func(depth int) build.Operation {
		op := box(build.Pos{0, 0, 0}, build.Pos{0, 0, 0}, "stone")
		for range depth {
			op = build.Operation{Op: "repeat", Count: 1, Offset: p(0, 0, 0), Operations: []build.Operation{op}}
		}
		return op
	}
	many := make([]build.Operation, 300)
	for i := range many {
		many[i] = box(build.Pos{i, 0, 0}, build.Pos{i, 0, 0}, "stone")
	}
	for _, c := range []struct {
		name string
		r    build.Recipe
		says string
	}{
		{"version", build.Recipe{Version: 2, Operations: []build.Operation{box(build.Pos{}, build.Pos{}, "stone")}}, `write "version": 1`},
		{"empty", build.Recipe{Version: 1}, "no operations"},
		{"too many positions", build.Recipe{Version: 1, Operations: []build.Operation{box(build.Pos{0, 0, 0}, build.Pos{16, 16, 16}, "stone")}}, "at most 4096"},
		{"a huge box, refused before it is walked", build.Recipe{Version: 1, Operations: []build.Operation{box(build.Pos{-30000000, -4096, -30000000}, build.Pos{30000000, 4096, 30000000}, "stone")}}, "at most 65536 are accepted"},
		{"outside the world", build.Recipe{Version: 1, Operations: []build.Operation{box(build.Pos{0, 0, 0}, build.Pos{1 << 40, 0, 0}, "stone")}}, "outside the world"},
		{"repeat bomb", build.Recipe{Version: 1, Operations: []build.Operation{{Op: "repeat", Count: 4096, Offset: p(0, 0, 0), Operations: []build.Operation{
			{Op: "repeat", Count: 4096, Offset: p(0, 0, 0), Operations: []build.Operation{box(build.Pos{}, build.Pos{15, 15, 15}, "stone")}}}}}}, "at most 65536 are accepted"},
		{"overwrites counted", build.Recipe{Version: 1, Operations: []build.Operation{{Op: "repeat", Count: 20, Offset: p(0, 0, 0), Operations: []build.Operation{box(build.Pos{}, build.Pos{15, 15, 15}, "stone")}}}}, "overwrites counted"},
		{"deep nesting", build.Recipe{Version: 1, Operations: []build.Operation{nest(6)}}, "nest deeper than 4"},
		{"many operations", build.Recipe{Version: 1, Operations: many}, "at most 256 are accepted"},
		{"unknown op", build.Recipe{Version: 1, Operations: []build.Operation{{Op: "sphere"}}}, `op "sphere" is not one of box, line, cylinder, repeat`},
		{"no op", build.Recipe{Version: 1, Operations: []build.Operation{{}}}, "has no op"},
		{"box without max", build.Recipe{Version: 1, Operations: []build.Operation{{Op: "box", Min: p(0, 0, 0), Block: "stone"}}}, "needs min and max"},
		{"no block", build.Recipe{Version: 1, Operations: []build.Operation{{Op: "line", From: p(0, 0, 0), To: p(1, 0, 0)}}}, "needs a block"},
		{"bad state, named by its operation", build.Recipe{Version: 1, Operations: []build.Operation{
			box(build.Pos{}, build.Pos{}, "stone"),
			{Op: "repeat", Count: 2, Offset: p(1, 0, 0), Operations: []build.Operation{box(build.Pos{}, build.Pos{}, "oak_stairs[facing=up]")}}}},
			"operation 2 (repeat) > operation 1 (box): oak_stairs's facing cannot be \"up\"; it is one of north, south, west, east"},
		{"radius", build.Recipe{Version: 1, Operations: []build.Operation{{Op: "cylinder", Center: p(0, 0, 0), Radius: 65, Height: 1, Block: "stone"}}}, "radius 65; it must be 0–64"},
		{"height", build.Recipe{Version: 1, Operations: []build.Operation{{Op: "cylinder", Center: p(0, 0, 0), Radius: 2, Height: 0, Block: "stone"}}}, "height 0"},
		{"repeat count", build.Recipe{Version: 1, Operations: []build.Operation{{Op: "repeat", Count: 0, Offset: p(0, 0, 0), Operations: many[:1]}}}, "count 0"},
		{"repeat offset", build.Recipe{Version: 1, Operations: []build.Operation{{Op: "repeat", Count: 2, Operations: many[:1]}}}, "needs offset"},
	} {
		start := time.Now()
		_, err := build.Expand(g, c.r)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want it to say %q", c.name, err, c.says)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: took %v to refuse", c.name, d)
		}
	}
}

// FuzzRecipe expands arbitrary JSON recipes: a target within the limits,
// or a sentence, quickly, never a panic.
func FuzzRecipe(f *testing.F) {
	g := newest()
	for _, s := range []string{
		`{"version":1,"operations":[{"op":"box","min":{"x":0,"y":64,"z":0},"max":{"x":4,"y":67,"z":4},"block":"oak_planks","hollow":true}]}`,
		`{"version":1,"operations":[{"op":"repeat","count":3,"offset":{"x":2,"y":0,"z":0},"operations":[{"op":"line","from":{"x":0,"y":0,"z":0},"to":{"x":0,"y":5,"z":0},"block":"stone"}]}]}`,
		`{"version":1,"operations":[{"op":"cylinder","center":{"x":0,"y":0,"z":0},"radius":5,"height":4,"block":"glass","walls":true}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var r build.Recipe
		if json.Unmarshal(raw, &r) != nil {
			return
		}
		tg, err := build.Expand(g, r)
		if err != nil {
			return
		}
		if len(tg.Blocks) > build.MaxPositions || len(tg.Blocks) == 0 {
			t.Fatalf("%d positions", len(tg.Blocks))
		}
	})
}
