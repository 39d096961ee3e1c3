package physics

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// The bot's world store and its snapshots are Worlds, and tell unloaded
// columns apart.
var (
	_ World       = (*world.Store)(nil)
	_ World       = (*world.View)(nil)
	_ storeLoaded = (*world.Store)(nil)
	_ viewLoaded  = (*world.View)(nil)
)

// benchWorld is the world physics_ref.js --bench builds — a stone floor
// and, when cluttered, rows of oak slabs and fences every third x and
// second z — loaded into the bot's own chunk store, read through a
// snapshot as a planner would.
func benchWorld(b *testing.B, e *Engine, cluttered bool) *world.View {
	tw := newWorld(b, e, "stone")
	if cluttered {
		slab, fence := tw.state(b, "oak_slab"), tw.state(b, "oak_fence")
		for x := -8; x < 40; x += 3 {
			for z := -8; z < 200; z += 2 {
				s := fence
				if ((x+z)%4+4)%4 == 0 {
					s = slab
				}
				tw.blocks[world.BlockPos{X: x, Y: 0, Z: z}] = s
			}
		}
	}
	return storeOf(b, e, tw, -2, -2, 14, 14).Snapshot()
}

// storeOf loads the columns from (cx0, cz0) to (cx1, cz1) of a test world
// into a world.Store, encoding each section as a chunk packet would.
func storeOf(b testing.TB, e *Engine, tw *testWorld, cx0, cz0, cx1, cz1 int) *world.Store {
	l := world.Layout{MinY: -64, Height: 384, NumStates: e.Game().NumStates(), NumBiomes: 1}
	st, err := world.NewStore(e.Game(), l)
	if err != nil {
		b.Fatal(err)
	}
	for cx := cx0; cx <= cx1; cx++ {
		for cz := cz0; cz <= cz1; cz++ {
			var data wire.Writer
			for sec := 0; sec < l.Sections(); sec++ {
				var states [4096]mcdata.StateID
				index := map[mcdata.StateID]int{}
				var palette []mcdata.StateID
				for i := range states {
					p := world.BlockPos{X: cx<<4 | i&15, Y: l.MinY + sec<<4 | i>>8, Z: cz<<4 | (i>>4)&15}
					s, _ := tw.BlockAt(p)
					states[i] = s
					if _, ok := index[s]; !ok {
						index[s] = len(palette)
						palette = append(palette, s)
					}
				}
				data.Uint16(4096)
				if len(palette) == 1 {
					data.Byte(0)
					data.VarInt(int32(palette[0]))
					data.VarInt(0)
				} else {
					// An 8-bit local palette: 8 entries per word.
					data.Byte(8)
					data.VarInt(int32(len(palette)))
					for _, s := range palette {
						data.VarInt(int32(s))
					}
					data.VarInt(512)
					for w := 0; w < 512; w++ {
						var v uint64
						for k := 0; k < 8; k++ {
							v |= uint64(index[states[w*8+k]]) << (8 * k)
						}
						data.Int64(int64(v))
					}
				}
				data.Byte(0) // one biome
				data.VarInt(0)
				data.VarInt(0)
			}
			sections, counts, err := world.DecodeSections(data.B, l)
			if err != nil {
				b.Fatal(err)
			}
			if err := st.Load(&world.Chunk{Pos: world.ChunkPos{X: int32(cx), Z: int32(cz)}, Sections: sections, Counts: counts}); err != nil {
				b.Fatal(err)
			}
		}
	}
	return st
}

// stepLoop sprint-jumps forward for n ticks, back at the start every 200,
// as the reference benchmark does.
func stepLoop(e *Engine, w World, n int) State {
	a := DefaultAttributes()
	c := Controls{Forward: true, Sprint: true, Jump: true}
	var s State
	for i := 0; i < n; i++ {
		if i%200 == 0 {
			s = State{Pos: Vec3{0.5, 0, 0.5}, OnGround: true}
		}
		s = e.Step(w, s, c, a)
	}
	return s
}

func BenchmarkStepFlat(b *testing.B) {
	e := engine(b, 769)
	w := benchWorld(b, e, false)
	b.ReportAllocs()
	b.ResetTimer()
	stepLoop(e, w, b.N)
}

func BenchmarkStepCluttered(b *testing.B) {
	e := engine(b, 769)
	w := benchWorld(b, e, true)
	b.ReportAllocs()
	b.ResetTimer()
	stepLoop(e, w, b.N)
}

// BenchmarkStepVsPrismarine times prismarine-physics on the same worlds in
// the same run (physics_ref.js --bench, after a JIT warm-up) and reports
// its ns per tick beside Step's and the ratio.
func BenchmarkStepVsPrismarine(b *testing.B) {
	for _, cluttered := range []bool{false, true} {
		name := "flat"
		if cluttered {
			name = "cluttered"
		}
		b.Run(name, func(b *testing.B) {
			e := engine(b, 769)
			w := benchWorld(b, e, cluttered)
			args := []string{"--bench", e.Game().Version, strconv.Itoa(100000)}
			if cluttered {
				args = append(args, "cluttered")
			}
			var ref struct {
				NsPerTick float64 `json:"nsPerTick"`
			}
			if err := json.Unmarshal(peertest.RunNode(b, "physics_ref.js", args...), &ref); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			stepLoop(e, w, b.N)
			b.StopTimer()
			ours := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(ref.NsPerTick, "prismarine-ns/tick")
			b.ReportMetric(ref.NsPerTick/ours, "x-prismarine")
			b.ReportMetric(1e9/ours, "steps/s")
		})
	}
}
