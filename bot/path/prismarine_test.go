package path

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// TestPlanOnPrismarineTerrain plans over terrain a peer we did not write
// built: chunk_dump.js makes an overworld column with prismarine-chunk
// (bumpy ground, water in the dips, a tree) and serialises it as a
// map_chunk packet with minecraft-protocol, as flying-squid serves it, for
// the first version of each chunk format; the test decodes the packets
// with bot/world, lays the column out 3×3 and plans corner to corner. Each
// path is checked step by step against the decoded blocks.
func TestPlanOnPrismarineTerrain(t *testing.T) {
	var versions []string
	byVersion := map[string]int32{}
	for _, p := range []int32{767, 770, 775} {
		g := mcdata.Game(p)
		versions = append(versions, g.Version)
		byVersion[g.Version] = p
	}
	dir := t.TempDir()
	out := peertest.RunNode(t, "chunk_dump.js", append([]string{"make", dir}, versions...)...)
	found := 0
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var f struct {
			Version, Name, Path string
			MinY, Height        int
		}
		if err := json.Unmarshal(line, &f); err != nil {
			t.Fatalf("chunk_dump.js: %v: %s", err, line)
		}
		if f.Name != "terrain" {
			continue
		}
		found++
		p := byVersion[f.Version]
		g := mcdata.Game(p)
		l := world.Layout{Format: world.Format{NoSizePrefix: p >= 770, HeightmapArray: p >= 770, FluidCount: p >= 775},
			MinY: f.MinY, Height: f.Height, NumStates: g.NumStates(), NumBiomes: len(g.Biomes)}
		raw, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		r := wire.NewReader(raw)
		r.VarInt() // the packet id
		c, err := world.DecodeChunk(r, l)
		if err != nil {
			t.Fatalf("%s: %v", f.Version, err)
		}
		store, err := world.NewStore(g, l)
		if err != nil {
			t.Fatal(err)
		}
		for cx := int32(-1); cx <= 1; cx++ {
			for cz := int32(-1); cz <= 1; cz++ {
				cc := *c
				cc.Pos = world.ChunkPos{X: cx, Z: cz}
				if err := store.Load(&cc); err != nil {
					t.Fatal(err)
				}
			}
		}
		v := store.Snapshot()
		planner := New(g, Options{})
		s := &search{}
		s.reset(planner, v, Near{})
		surface := func(x, z int) world.BlockPos {
			for y := 100; y > 40; y-- {
				if sp := s.t.stand(x, y, z); sp.kind != spotNone {
					return world.BlockPos{X: x, Y: y, Z: z}
				}
			}
			t.Fatalf("%s: nowhere to stand at %d, %d", f.Version, x, z)
			return world.BlockPos{}
		}
		complete := 0
		for _, ends := range [][2][2]int{{{-14, -14}, {14, 14}}, {{-14, 12}, {13, -14}}, {{0, -15}, {2, 15}}} {
			start, goal := surface(ends[0][0], ends[0][1]), surface(ends[1][0], ends[1][1])
			res := planner.Plan(context.Background(), v, start, Near{Pos: goal, Range: 1})
			checkPathIn(t, g, v, planner.Options(), res)
			if res.Status == Complete {
				complete++
			} else if res.Reason == ReasonNone {
				t.Errorf("%s: %s without a reason", f.Version, res.Status)
			}
			t.Logf("%s: %v → %v: %s (%s), %d steps, %.0f ticks, %d nodes", f.Version, start, goal, res.Status, res.Reason, len(res.Path.Steps), res.Cost, res.Nodes)
		}
		if complete == 0 {
			t.Errorf("%s: no complete path over the terrain", f.Version)
		}
	}
	if found != len(versions) {
		t.Fatalf("chunk_dump.js made %d terrain columns for %d versions", found, len(versions))
	}
}
