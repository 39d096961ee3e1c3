package path

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/blockmate/blockmate/bot/world"
)

// Property tests: many random worlds, random starts and goals; every path
// must pass checkPath (each step a valid move in the world), the search
// must stay within its budget, and the cost must be the cheapest the moves
// allow.

// randomBlocks are what random worlds scatter: every shape and hazard the
// planner knows about.
var randomBlocks = []string{
	"stone", "oak_slab[type=bottom]", "oak_slab[type=top]", "oak_stairs[facing=east,half=bottom]",
	"oak_stairs[facing=north,half=top]", "oak_fence", "cobblestone_wall", "white_carpet", "snow[layers=4]",
	"snow[layers=8]", "water", "lava", "ladder[facing=north]", "vine[north=true]", "oak_fence_gate[facing=east]",
	"oak_door[facing=north,half=lower]", "oak_door[facing=north,half=upper]", "iron_door[facing=east,half=lower]",
	"soul_sand", "honey_block", "cactus", "cobweb", "sweet_berry_bush[age=2]", "magma_block", "glass_pane",
	"iron_bars", "oak_trapdoor[half=bottom,open=false]", "oak_trapdoor[facing=east,open=true]", "oak_leaves",
	"torch", "short_grass", "chest", "farmland", "dirt_path", "powder_snow", "scaffolding", "hay_block",
	"fire", "campfire", "lily_pad", "oak_sign", "anvil", "cauldron", "composter", "bell", "lantern",
	"water[level=3]", "kelp", "bubble_column", "oak_pressure_plate", "rail", "red_bed[part=foot]",
}

// randomWorld fills the blocks -16 … 15 with hills, ponds, walls and
// scattered blocks of every kind.
func randomWorld(tb testing.TB, rng *rand.Rand) *testWorld {
	w := newWorld(tb, 1)
	seed := rng.Uint32()
	for x := -16; x < 16; x++ {
		for z := -16; z < 16; z++ {
			h := 60 + int(6*valueNoise(seed, float64(x), float64(z), 8))
			w.fill(x, 56, z, x, h, z, "stone")
			if h < 62 && rng.IntN(2) == 0 {
				w.fill(x, h+1, z, x, 62, z, "water")
			}
			for y := h + 1; y <= h+3; y++ {
				if rng.IntN(7) == 0 {
					w.set(x, y, z, randomBlocks[rng.IntN(len(randomBlocks))])
				}
			}
		}
	}
	for range rng.IntN(4) { // walls
		x, z, n := rng.IntN(32)-16, rng.IntN(32)-16, rng.IntN(12)+3
		dx, dz := 1, 0
		if rng.IntN(2) == 0 {
			dx, dz = 0, 1
		}
		for i := range n {
			w.fill(x+i*dx, 60, z+i*dz, x+i*dx, 60+rng.IntN(6), z+i*dz, "stone")
		}
	}
	return w
}

// someStand finds a random place to stand, or false.
func someStand(rng *rand.Rand, v *world.View) (world.BlockPos, bool) {
	p := New(game, Options{})
	s := &search{}
	s.reset(p, v, Near{})
	for range 50 {
		x, z := rng.IntN(32)-16, rng.IntN(32)-16
		for y := 75; y > 55; y-- {
			if sp := s.t.stand(x, y, z); sp.kind != spotNone {
				return world.BlockPos{X: x, Y: y, Z: z}, true
			}
		}
	}
	return world.BlockPos{}, false
}

// noHeuristic turns a goal into Dijkstra's search.
type noHeuristic struct{ Goal }

func (noHeuristic) Heuristic(world.BlockPos) float64 { return 0 }

func TestRandomWorldPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	worlds, complete := 30, 0
	if testing.Short() {
		worlds = 8
	}
	for wi := range worlds {
		w := randomWorld(t, rng)
		v := w.view()
		for range 4 {
			start, ok1 := someStand(rng, v)
			goalPos, ok2 := someStand(rng, v)
			if !ok1 || !ok2 {
				continue
			}
			opts := Options{MaxNodes: 20000}
			switch rng.IntN(4) {
			case 1:
				opts.NoSprint = true
			case 2:
				opts.MaxFall, opts.MaxSwim = 5, 4
			case 3:
				opts.NoDoors, opts.NoParkour = true, true
			}
			goal := Near{Pos: goalPos, Range: float64(rng.IntN(3))}
			r := plan(t, v, start, goal, opts)
			if r.Nodes > opts.MaxNodes {
				t.Fatalf("world %d: %d nodes over a budget of %d", wi, r.Nodes, opts.MaxNodes)
			}
			if r.Status != Complete {
				if r.Reason == ReasonNone {
					t.Fatalf("world %d: %s without a reason", wi, r.Status)
				}
				continue
			}
			complete++
			if !goal.Done(r.Path.End()) {
				t.Fatalf("world %d: a complete path that ends off the goal:\n%s", wi, describe(r))
			}
			// A change Affected does not report leaves the path valid: fill
			// blocks near it that it says do not matter with stone or lava.
			if len(r.Path.Steps) > 0 {
				var changes []world.BlockChange
				for range 12 {
					st := r.Path.Steps[rng.IntN(len(r.Path.Steps))]
					q := world.BlockPos{X: st.To.X + rng.IntN(5) - 2, Y: st.To.Y + rng.IntN(5) - 2, Z: st.To.Z + rng.IntN(5) - 2}
					if !r.Path.Affected(q, 0) {
						changes = append(changes, world.BlockChange{Pos: q, State: w.state([]string{"stone", "lava"}[rng.IntN(2)])})
					}
				}
				old := make([]world.BlockChange, len(changes))
				for i, c := range changes {
					st, _ := v.BlockAt(c.Pos)
					old[i] = world.BlockChange{Pos: c.Pos, State: st}
				}
				w.store.SetBlocks(changes)
				checkPath(t, w.store.Snapshot(), New(game, opts).Options(), r)
				w.store.SetBlocks(old)
			}
			// The cheapest: Dijkstra's search (no heuristic) finds no cheaper
			// path, so the heuristic never over-estimates here.
			d := plan(t, v, start, noHeuristic{goal}, Options{MaxNodes: 200000, NoSprint: opts.NoSprint, MaxFall: opts.MaxFall,
				MaxSwim: opts.MaxSwim, NoDoors: opts.NoDoors, NoParkour: opts.NoParkour})
			if d.Status == Complete && d.Cost < r.Cost-1e-6 {
				t.Fatalf("world %d: A* found cost %.4f, Dijkstra %.4f\nA*: %s\nDijkstra: %s", wi, r.Cost, d.Cost, describe(r), describe(d))
			}
			// Cost grows along the path, and planning again from any node
			// of it costs no more than the rest of it.
			if len(r.Path.Steps) > 1 {
				k := rng.IntN(len(r.Path.Steps) - 1)
				rest := 0.0
				for _, st := range r.Path.Steps[k+1:] {
					rest += st.Cost
				}
				again := plan(t, v, r.Path.Steps[k].To, goal, opts)
				if again.Status != Complete || again.Cost > rest+1e-6 {
					t.Fatalf("world %d: from step %d the rest costs %.4f; planned again: %s %.4f\n%s\nagain: %s", wi, k, rest, again.Status, again.Cost, describe(r), describe(again))
				}
			}
		}
	}
	t.Logf("%d complete paths in %d worlds", complete, worlds)
	if complete < worlds {
		t.Errorf("only %d complete paths in %d worlds: the random worlds are too hostile to test much", complete, worlds)
	}
}

// TestGeneratedTerrainPaths plans between random places of generated
// terrain (encoded as section data and decoded) with several seeds.
func TestGeneratedTerrainPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, seed := range []uint32{1, 2, 3} {
		g := terrainGen{seed: seed, r: 2}
		v := g.store(t, g.encode(t)).Snapshot()
		for range 6 {
			a := g.surface(rng.IntN(60)-30, rng.IntN(60)-30)
			b := g.surface(rng.IntN(60)-30, rng.IntN(60)-30)
			r := plan(t, v, a, Near{Pos: b, Range: 1}, Options{})
			if r.Status == Complete && math.IsInf(r.Cost, 0) {
				t.Fatal("infinite cost")
			}
		}
	}
}

func TestPlanDoesNotHoldTheStore(t *testing.T) {
	// The planner reads a snapshot: the store's writer carries on while a
	// plan runs, and the plan sees the world as it was.
	w := flat(t, 2)
	v := w.view()
	done := make(chan Result)
	go func() {
		done <- New(game, Options{}).Plan(context.Background(), v, pos(0, 64, 0), Near{Pos: pos(30, 64, 30)})
	}()
	for i := range 100 {
		w.store.SetBlock(pos(10, 64, i%20), stateOf(t, "stone"))
	}
	r := <-done
	checkPath(t, v, New(game, Options{}).Options(), r)
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
}
