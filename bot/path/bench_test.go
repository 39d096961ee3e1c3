package path

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"unsafe"

	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// benchGen is the benchmark's world: 8×8 chunks (128×128 blocks) of
// generated hills, ponds and trees.
var benchGen = terrainGen{seed: 42, r: 4}

type route struct {
	name        string
	start, goal world.BlockPos
	rng         float64
}

// benchRoutes are 40-block walks over the generated terrain, between
// ground columns free of trees.
func benchRoutes(g terrainGen) []route {
	ground := func(x, z int) world.BlockPos {
		for d := 0; ; d++ {
			for _, c := range [][2]int{{x + d, z}, {x, z + d}, {x - d, z}, {x, z - d}} {
				if _, tree := g.tree(c[0], c[1]); !tree && g.height(c[0], c[1]) >= seaLevel {
					free := true
					for dx := -2; dx <= 2; dx++ {
						for dz := -2; dz <= 2; dz++ {
							if _, t := g.tree(c[0]+dx, c[1]+dz); t {
								free = false
							}
						}
					}
					if free {
						return g.surface(c[0], c[1])
					}
				}
			}
		}
	}
	return []route{
		{"east_40", ground(-20, 3), ground(20, 3), 1},
		{"diagonal_40", ground(-14, -14), ground(14, 14), 1},
		{"north_40", ground(5, 25), ground(5, -15), 1},
	}
}

var benchWorld struct {
	once  sync.Once
	datas map[world.ChunkPos][]byte
	view  *world.View
}

func benchView(tb testing.TB) (*world.View, map[world.ChunkPos][]byte) {
	benchWorld.once.Do(func() {
		benchWorld.datas = benchGen.encode(tb)
		benchWorld.view = benchGen.store(tb, benchWorld.datas).Snapshot()
	})
	return benchWorld.view, benchWorld.datas
}

// TestBenchRoutesAreWalkable plans the benchmark's routes and checks them:
// the comparison is only fair if both planners find complete paths.
func TestBenchRoutesAreWalkable(t *testing.T) {
	v, _ := benchView(t)
	for _, rt := range benchRoutes(benchGen) {
		r := plan(t, v, rt.start, Near{Pos: rt.goal, Range: rt.rng}, Options{})
		if r.Status != Complete {
			t.Errorf("%s: %s", rt.name, describe(r))
			continue
		}
		t.Logf("%s: %v → %v, %d steps, %.1f blocks, cost %.0f ticks, %d nodes", rt.name, rt.start, rt.goal, len(r.Path.Steps), r.Path.Length(), r.Cost, r.Nodes)
	}
}

// BenchmarkPlan plans the benchmark's routes (no node needed).
func BenchmarkPlan(b *testing.B) {
	v, _ := benchView(b)
	p := New(game, Options{})
	for _, rt := range benchRoutes(benchGen) {
		goal := Near{Pos: rt.goal, Range: rt.rng}
		b.Run(rt.name, func(b *testing.B) {
			b.ReportAllocs()
			var r Result
			for b.Loop() {
				r = p.Plan(context.Background(), v, rt.start, goal)
			}
			if r.Status != Complete {
				b.Fatal(describe(r))
			}
			b.ReportMetric(float64(r.Nodes), "nodes")
		})
	}
}

// nodeRoute is what path_bench.js reports for a route.
type nodeRoute struct {
	Name           string
	Status         string
	ColdMs, WarmMs float64
	WarmCPUMs      float64 `json:"warmCpuMs"`
	Path           [][3]int
	Cost           float64
	Visited        int
	Steps          int
	Length         float64
	End            [3]int
	AllocatedBytes float64
	RetainedBytes  float64
}

// BenchmarkPlanVsMineflayer plans the same routes over the same world
// (the same chunk section bytes, decoded by each side) with blockmate and
// with mineflayer-pathfinder 2.4.5 (path_bench.js: its own plugin and
// default Movements, no digging or placing, one unbounded think), in one
// run, and reports the time to a complete path, the path's length and
// the memory of both, with the ratios. Goal: ≥ 5× faster, no longer.
func BenchmarkPlanVsMineflayer(b *testing.B) {
	v, datas := benchView(b)
	dir := b.TempDir()
	type column struct {
		X    int32  `json:"x"`
		Z    int32  `json:"z"`
		Path string `json:"path"`
	}
	type nodeSpec struct {
		Version string           `json:"version"`
		MinY    int              `json:"minY"`
		Height  int              `json:"height"`
		Rounds  int              `json:"rounds"`
		Columns []column         `json:"columns"`
		Routes  []map[string]any `json:"routes"`
	}
	l := testLayout()
	spec := nodeSpec{Version: game.Version, MinY: l.MinY, Height: l.Height, Rounds: 15}
	for pos, data := range datas {
		p := filepath.Join(dir, fmt.Sprintf("c.%d.%d.bin", pos.X, pos.Z))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		spec.Columns = append(spec.Columns, column{pos.X, pos.Z, p})
	}
	routes := benchRoutes(benchGen)
	for _, rt := range routes {
		spec.Routes = append(spec.Routes, map[string]any{"name": rt.name,
			"start": []int{rt.start.X, rt.start.Y, rt.start.Z}, "goal": []int{rt.goal.X, rt.goal.Y, rt.goal.Z}, "range": rt.rng})
	}
	raw, _ := json.Marshal(spec)
	specPath := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(specPath, raw, 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(peertest.NodeBinary(b), "--expose-gc", "--max-semi-space-size=128", "path_bench.js", specPath)
	cmd.Dir = peertest.PeersDir(b)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("path_bench.js: %v\n%s", err, stderr.String())
	}
	theirs := map[string]nodeRoute{}
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var n nodeRoute
		if err := json.Unmarshal(line, &n); err != nil {
			b.Fatalf("path_bench.js: %v: %s", err, line)
		}
		theirs[n.Name] = n
	}
	p := New(game, Options{})
	for _, rt := range routes {
		goal := Near{Pos: rt.goal, Range: rt.rng}
		them := theirs[rt.name]
		var r Result
		var ns, cpuNs, bytesPerOp float64
		b.Run(rt.name, func(b *testing.B) {
			b.ReportAllocs()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			c0 := cpuTime()
			n := 0
			for b.Loop() {
				r = p.Plan(context.Background(), v, rt.start, goal)
				n++
			}
			cpuNs = float64(cpuTime()-c0) / float64(n)
			runtime.ReadMemStats(&m1)
			ns = float64(b.Elapsed().Nanoseconds()) / float64(n)
			bytesPerOp = float64(m1.TotalAlloc-m0.TotalAlloc) / float64(n)
			b.ReportMetric(float64(r.Nodes), "nodes")
			b.ReportMetric(them.WarmMs*1e6/ns, "x-mineflayer")
			b.ReportMetric(them.WarmCPUMs*1e6/cpuNs, "x-mineflayer-cpu")
		})
		if r.Status != Complete {
			b.Fatalf("%s: blockmate: %s", rt.name, describe(r))
		}
		scratch := scratchBytes(p, v, rt.start, goal)
		priced, ok := priceSteps(p, v, rt.start, them.Path)
		pricedText := "uses a move blockmate does not make"
		if ok {
			pricedText = fmt.Sprintf("%.0f ticks (blockmate's %.0f: %.2f×)", priced, r.Cost, r.Cost/priced)
		}
		b.Logf("%s %v → %v\n"+
			"  blockmate: %s in %.3f ms wall, %.3f ms CPU; %d nodes; %d steps, %.1f blocks, %.0f ticks\n"+
			"  mineflayer-pathfinder: %s in %.2f ms wall, %.2f ms CPU warm (%.1f ms cold); %d nodes; %d steps, %.1f blocks, ending at %v; its path at blockmate's costs: %s\n"+
			"  ratio: %.1f× faster wall, %.1f× CPU (%.1f× against its cold first search); path %.2f× as long\n"+
			"  memory: blockmate allocates %.1f KiB per plan and reuses %.0f KiB of pooled scratch; mineflayer-pathfinder allocates %.0f KiB per search, its result holds %.0f KiB",
			rt.name, rt.start, rt.goal,
			r.Status, ns/1e6, cpuNs/1e6, r.Nodes, len(r.Path.Steps), r.Path.Length(), r.Cost,
			them.Status, them.WarmMs, them.WarmCPUMs, them.ColdMs, them.Visited, them.Steps, them.Length, them.End, pricedText,
			them.WarmMs*1e6/ns, them.WarmCPUMs*1e6/cpuNs, them.ColdMs*1e6/ns, r.Path.Length()/them.Length,
			bytesPerOp/1024, float64(scratch)/1024, them.AllocatedBytes/1024, them.RetainedBytes/1024)
	}
}

var debugPrice = os.Getenv("PATH_DEBUG_PRICE") != ""

// scratchBytes is the memory one search's scratch space holds at its end:
// the nodes, the open heap, the position tables and the section cache.
func scratchBytes(p *Planner, v *world.View, start world.BlockPos, goal Goal) int {
	s := &search{}
	s.reset(p, v, goal)
	s.run(context.Background(), start, p.opts.MaxNodes)
	return cap(s.nodes)*int(unsafe.Sizeof(node{})) + cap(s.open)*4 + cap(s.edges)*int(unsafe.Sizeof(edge{})) +
		len(s.index.keys)*12 + len(s.t.spots.keys)*(8+int(unsafe.Sizeof(spot{}))) + int(unsafe.Sizeof(s.t))
}

// priceSteps prices a path another planner found with blockmate's moves
// and costs: for each step, the move blockmate offers between the two
// positions. It fails when a step is not one of blockmate's moves.
func priceSteps(p *Planner, v *world.View, start world.BlockPos, path [][3]int) (float64, bool) {
	s := &search{}
	s.reset(p, v, Near{Pos: start})
	at := start
	sp := s.t.stand(at.X, at.Y, at.Z)
	total := 0.0
	for _, q := range path {
		f := from{x: at.X, y: at.Y, z: at.Z, sp: sp, floor: float64(at.Y) + float64(sp.floor)}
		s.neighbours(&f)
		found := false
		for _, e := range s.edges {
			if e.x == q[0] && e.y == q[1] && e.z == q[2] {
				total += e.cost
				sp, found = e.sp, true
				break
			}
		}
		if !found {
			if debugPrice {
				fmt.Printf("no move %v → %v (%+v); offered:", at, q, sp)
				for _, e := range s.edges {
					fmt.Printf(" %s→%d,%d,%d", e.kind, e.x, e.y, e.z)
				}
				fmt.Println()
			}
			return 0, false
		}
		at = world.BlockPos{X: q[0], Y: q[1], Z: q[2]}
	}
	return total, true
}
