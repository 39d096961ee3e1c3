package path

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
)

// Worlds built in code for the planner's tests: air columns decoded from
// section data (as the server sends them), then blocks set through the
// store, so the planner reads them exactly as it reads a live world.

const testProtocol = 769 // 1.21.4

var game = mcdata.Game(testProtocol)

func testLayout() world.Layout {
	return world.Layout{MinY: -64, Height: 384, NumStates: game.NumStates(), NumBiomes: 65}
}

// airSections is the section data of an all-air column.
func airSections(l world.Layout) []byte {
	w := &wire.Writer{}
	for range l.Sections() {
		w.Uint16(0)
		w.Byte(0) // blocks: one value, air
		w.VarInt(0)
		w.VarInt(0)
		w.Byte(0) // biomes: one value
		w.VarInt(0)
		w.VarInt(0)
	}
	return w.B
}

type testWorld struct {
	tb      testing.TB
	store   *world.Store
	changes []world.BlockChange
	states  map[string]mcdata.StateID
}

// newWorld loads air columns for chunks -r … r-1 on both axes (blocks
// -16r … 16r-1).
func newWorld(tb testing.TB, r int) *testWorld {
	tb.Helper()
	l := testLayout()
	s, err := world.NewStore(game, l)
	if err != nil {
		tb.Fatal(err)
	}
	w := &testWorld{tb: tb, store: s, states: map[string]mcdata.StateID{}}
	for x := -r; x < r; x++ {
		for z := -r; z < r; z++ {
			w.loadAir(x, z)
		}
	}
	return w
}

// loadAir loads an all-air column.
func (w *testWorld) loadAir(cx, cz int) {
	l := testLayout()
	secs, _, err := world.DecodeSections(airSections(l), l)
	if err != nil {
		w.tb.Fatal(err)
	}
	if err := w.store.Load(&world.Chunk{Pos: world.ChunkPos{X: int32(cx), Z: int32(cz)}, Sections: secs}); err != nil {
		w.tb.Fatal(err)
	}
}

// state is the first state a pattern matches.
func (w *testWorld) state(pattern string) mcdata.StateID {
	if st, ok := w.states[pattern]; ok {
		return st
	}
	st := stateOf(w.tb, pattern)
	w.states[pattern] = st
	return st
}

func stateOf(tb testing.TB, pattern string) mcdata.StateID {
	tb.Helper()
	set, err := game.MatchStates(pattern)
	if err != nil {
		tb.Fatal(err)
	}
	// Of the states the pattern matches, take the one nearest the
	// block's default (not waterlogged, not powered).
	b := set.Blocks[0]
	def := mcdata.BlockState{ID: b.DefaultState, Block: b}
	best, bestSame := mcdata.StateID(-1), -1
	for s := b.MinState; s <= b.MaxState; s++ {
		if !set.Has(s) {
			continue
		}
		st, same := mcdata.BlockState{ID: s, Block: b}, 0
		for i := range b.Props {
			if st.ValueIndex(i) == def.ValueIndex(i) {
				same++
			}
		}
		if same > bestSame {
			best, bestSame = s, same
		}
	}
	if best < 0 {
		tb.Fatalf("%s matches no state", pattern)
	}
	return best
}

func (w *testWorld) set(x, y, z int, pattern string) {
	w.changes = append(w.changes, world.BlockChange{Pos: world.BlockPos{X: x, Y: y, Z: z}, State: w.state(pattern)})
}

// fill sets every block of a box (corners inclusive).
func (w *testWorld) fill(x0, y0, z0, x1, y1, z1 int, pattern string) {
	st := w.state(pattern)
	for x := min(x0, x1); x <= max(x0, x1); x++ {
		for y := min(y0, y1); y <= max(y0, y1); y++ {
			for z := min(z0, z1); z <= max(z0, z1); z++ {
				w.changes = append(w.changes, world.BlockChange{Pos: world.BlockPos{X: x, Y: y, Z: z}, State: st})
			}
		}
	}
}

// view applies the blocks set so far and returns a snapshot.
func (w *testWorld) view() *world.View {
	if len(w.changes) > 0 {
		w.store.SetBlocks(w.changes)
		w.changes = w.changes[:0]
	}
	return w.store.Snapshot()
}

// flat is a world of stone up to y 63 (the bot stands at y 64) over
// chunks -r … r-1.
func flat(tb testing.TB, r int) *testWorld {
	w := newWorld(tb, r)
	w.fill(-16*r, 62, -16*r, 16*r-1, 63, 16*r-1, "stone")
	return w
}

func pos(x, y, z int) world.BlockPos { return world.BlockPos{X: x, Y: y, Z: z} }

// plan plans with the given options and checks every step of the result
// with checkPath.
func plan(tb testing.TB, v *world.View, start world.BlockPos, goal Goal, opts Options) Result {
	tb.Helper()
	p := New(game, opts)
	r := p.Plan(context.Background(), v, start, goal)
	checkPath(tb, v, p.Options(), r)
	return r
}

// describe prints a path for failure messages.
func describe(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s) cost %.1f, %d nodes, from %v:", r.Status, r.Reason, r.Cost, r.Nodes, r.Path.Start)
	for _, st := range r.Path.Steps {
		fmt.Fprintf(&b, "\n  %-8s → %v floor %.3f cost %.2f", st.Move, st.To, st.Floor, st.Cost)
		if st.Jump {
			b.WriteString(" jump")
		}
		if len(st.Open) > 0 {
			fmt.Fprintf(&b, " open %v", st.Open)
		}
	}
	return b.String()
}

// checkPath checks every step of a result against the world with rules
// of its own, read from the static data directly rather than the
// planner's tables: each step starts where the last ended and moves as
// its kind may; the body fits at each end (the centre 0.6×0.6 of the
// blocks from the feet to 1.8 above, doors the step opens counted open);
// the feet rest on a block's top, or are in water or on a ladder; no
// block the body is in or stands on hurts; a fall is no longer than
// allowed; the costs are positive and add up.
func checkPath(tb testing.TB, v *world.View, opts Options, r Result) {
	tb.Helper()
	checkPathIn(tb, game, v, opts, r)
}

// checkPathIn is checkPath for a version's data.
func checkPathIn(tb testing.TB, game *mcdata.GameData, v *world.View, opts Options, r Result) {
	tb.Helper()
	at := r.Path.Start
	floor := r.Path.StartFloor
	total := 0.0
	opened := map[world.BlockPos]bool{} // doors stay open once opened
	for i, st := range r.Path.Steps {
		fail := func(format string, args ...any) {
			tb.Helper()
			tb.Fatalf("step %d (%s %v → %v): %s\n%s", i, st.Move, st.From, st.To, fmt.Sprintf(format, args...), describe(r))
		}
		if st.From != at {
			fail("starts at %v, the last step ended at %v", st.From, at)
		}
		if !(st.Cost > 0) {
			fail("cost %v is not positive", st.Cost)
		}
		total += st.Cost
		dx, dy, dz := st.To.X-at.X, st.To.Y-at.Y, st.To.Z-at.Z
		adx, adz := abs(dx), abs(dz)
		rise := st.Floor - floor
		switch st.Move {
		case Walk:
			if adx+adz != 1 || dy < 0 || dy > 1 || rise > stepHeight+1e-6 {
				fail("a walk moves one block straight and rises at most a step (moved %d,%d,%d, rose %.3f)", dx, dy, dz, rise)
			}
		case Ascend:
			if adx+adz != 1 || dy < 0 || dy > 1 || rise > jumpHeight+1e-6 || rise <= stepHeight {
				fail("an ascend goes one block straight up to 1.25 (moved %d,%d,%d, rose %.3f)", dx, dy, dz, rise)
			}
			if s, _ := v.BlockAt(st.Support); !st.Jump && !strings.HasSuffix(game.BlockOf(s).Name, "_stairs") {
				fail("an ascend without a jump must walk up stairs, not %s", stateName(game, s))
			}
		case Descend:
			if adx+adz != 1 || rise >= 0 {
				fail("a descend steps one block straight and falls (moved %d,%d,%d)", dx, dy, dz)
			}
		case Diagonal:
			if adx != 1 || adz != 1 || rise > jumpHeight+1e-6 {
				fail("a diagonal moves one block each way (moved %d,%d,%d)", dx, dy, dz)
			}
		case Parkour:
			if (adx != 0) == (adz != 0) || adx+adz < 2 || adx+adz > 3 || dy != 0 || !st.Jump {
				fail("a parkour jump goes 2 or 3 blocks straight on the level (moved %d,%d,%d)", dx, dy, dz)
			}
		case Climb:
			if dx != 0 || dz != 0 || abs(dy) != 1 {
				fail("a climb moves one block up or down (moved %d,%d,%d)", dx, dy, dz)
			}
		case Swim:
			if adx > 1 || adz > 1 || abs(dy) > 1 || !st.Water && !st.Climbing && dy >= 0 {
				fail("a swim moves one block and ends in water (moved %d,%d,%d)", dx, dy, dz)
			}
		case Dig, Bridge:
			// A Mover's step: one block straight (a block up or down when
			// digging), never breaking what it stands on or will stand on.
			if adx+adz != 1 || abs(dy) > 1 || st.Move == Bridge && (dy != 0 || len(st.Place) != 1 || st.Place[0] != st.Support) {
				fail("a %s step moves one block straight (moved %d,%d,%d, places %v on %v)", st.Move, dx, dy, dz, st.Place, st.Support)
			}
			for _, b := range st.Break {
				if b == st.Support || b == (world.BlockPos{X: at.X, Y: at.Y - 1, Z: at.Z}) {
					fail("breaks %v, under the feet", b)
				}
				if s, ok := v.BlockAt(b); ok && game.Fluid(s).Kind != mcdata.NoFluid {
					fail("breaks %v, which holds a fluid", b)
				}
			}
			at, floor = st.To, st.Floor
			continue
		default:
			fail("unknown move kind %d", st.Move)
		}
		if -rise > float64(opts.MaxFall)+1e-6 && !st.Water && !st.Climbing {
			fail("falls %.2f blocks onto a floor; the limit is %d", -rise, opts.MaxFall)
		}
		for _, d := range st.Open {
			if opened[d] {
				fail("opens %v again (shutting it)", d)
			}
			opened[d] = true
			opened[world.BlockPos{X: d.X, Y: d.Y + 1, Z: d.Z}] = true // a door's upper half
		}
		checkStand(tb, game, v, st, opened, fail)
		at, floor = st.To, st.Floor
	}
	if math.Abs(total-r.Cost) > 1e-6*math.Max(1, total) {
		tb.Fatalf("the steps cost %.6f in all; the result says %.6f\n%s", total, r.Cost, describe(r))
	}
}

// checkStand checks that the body fits at a step's end and rests on
// something, with nothing harmful.
func checkStand(tb testing.TB, game *mcdata.GameData, v *world.View, st Step, opened map[world.BlockPos]bool, fail func(string, ...any)) {
	tb.Helper()
	shapes := func(p world.BlockPos) ([]mcdata.AABB, mcdata.StateID, bool) {
		s, ok := v.BlockAt(p)
		if !ok {
			return nil, 0, false
		}
		if opened[p] {
			bs, _ := game.StateByID(s)
			if alt, ok := openState(bs); ok {
				return game.Shapes(alt), s, true
			}
		}
		return game.Shapes(s), s, true
	}
	harmful := func(s mcdata.StateID) bool {
		b := game.BlockOf(s)
		return b.Physics.Hurts || b.Physics.Stuck != [3]float64{} || game.Fluid(s).Kind == mcdata.Lava
	}
	lo, hi := st.Floor, st.Floor+playerHeight
	for y := int(math.Floor(lo)) - 1; y <= int(math.Floor(hi-1e-9)); y++ {
		p := world.BlockPos{X: st.To.X, Y: y, Z: st.To.Z}
		boxes, s, ok := shapes(p)
		if !ok {
			fail("block %v is not loaded", p)
		}
		if y >= int(math.Floor(lo)) && harmful(s) {
			fail("the body is in %s at %v", stateName(game, s), p)
		}
		for _, b := range boxes {
			if b.MinX < 0.8 && b.MaxX > 0.2 && b.MinZ < 0.8 && b.MaxZ > 0.2 &&
				float64(y)+b.MinY < hi-1e-6 && float64(y)+b.MaxY > lo+1e-6 {
				fail("the body at feet %.3f collides with %s at %v", lo, stateName(game, s), p)
			}
		}
	}
	if st.Water || st.Climbing {
		s, _ := v.BlockAt(st.To)
		if st.Water && game.Fluid(s).Kind != mcdata.Water {
			fail("says water but %v is %s", st.To, stateName(game, s))
		}
		if st.Climbing && !game.BlockOf(s).Physics.Climbable {
			fail("says climbing but %v is %s", st.To, stateName(game, s))
		}
		if st.Climbing || game.Fluid(s).Kind == mcdata.Water && !supported(game, v, st) {
			return
		}
	}
	if !supported(game, v, st) {
		fail("nothing to stand on at feet height %.3f", st.Floor)
	}
	s, _ := v.BlockAt(st.Support)
	if harmful(s) {
		fail("stands on %s", stateName(game, s))
	}
}

// supported says whether a block's top under the middle of the block is
// at the step's floor.
func supported(game *mcdata.GameData, v *world.View, st Step) bool {
	for _, y := range []int{st.To.Y, st.To.Y - 1} {
		s, _ := v.BlockAt(world.BlockPos{X: st.To.X, Y: y, Z: st.To.Z})
		for _, b := range game.Shapes(s) {
			if b.MinX < 0.8 && b.MaxX > 0.2 && b.MinZ < 0.8 && b.MaxZ > 0.2 && math.Abs(float64(y)+b.MaxY-st.Floor) < 1e-6 {
				return true
			}
		}
	}
	return false
}

// openState is a closed door's or gate's open state.
func openState(s mcdata.BlockState) (mcdata.StateID, bool) {
	_, i := s.Block.Prop("open")
	if i < 0 {
		return 0, false
	}
	return openVariant(s, i)
}

func stateName(game *mcdata.GameData, s mcdata.StateID) string {
	bs, _ := game.StateByID(s)
	return bs.String()
}
