package world

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// terrainColumn builds an overworld column as a world generator would:
// bedrock, deepslate and stone with ores and caves, dirt, grass, a tree,
// water where the ground is low. seed varies the heights and ores.
func terrainColumn(tb testing.TB, pos ChunkPos, seed uint32) *Chunk {
	l := storeLayout()
	bedrock, deepslate, stone := state(tb, "bedrock"), state(tb, "deepslate"), state(tb, "stone")
	coal, iron, diamond := state(tb, "coal_ore"), state(tb, "iron_ore"), state(tb, "deepslate_diamond_ore")
	dirt, grass, water := state(tb, "dirt"), state(tb, "grass_block[snowy=false]"), state(tb, "water[level=0]")
	log, leaves := state(tb, "oak_log[axis=y]"), state(tb, "oak_leaves[distance=1,persistent=false,waterlogged=false]")
	base := 58 + int(seed%10)
	hash := func(x, y, z int) uint32 { // a small deterministic noise
		h := uint32(x*374761393+y*668265263+z*2147483647) ^ seed*2654435761
		h = (h ^ h>>13) * 1274126177
		return h ^ h>>16
	}
	return buildChunk(pos, l, func(x, y, z int) mcdata.StateID {
		lx, lz := x&15, z&15
		top := base + (lx*7+lz*3)%4
		r := hash(x, y, z) % 1000
		switch {
		case y == l.MinY:
			return bedrock
		case y < 0:
			switch {
			case r < 3:
				return diamond
			case r < 40:
				return 0
			}
			return deepslate
		case y < top-3:
			switch {
			case r < 12:
				return coal
			case r < 18:
				return iron
			case r < 40:
				return 0
			}
			return stone
		case y < top:
			return dirt
		case y == top:
			return grass
		case y <= 62:
			return water
		case lx == 8 && lz == 8 && y <= base+8:
			return log
		case lx >= 6 && lx <= 10 && lz >= 6 && lz <= 10 && y >= base+7 && y <= base+9:
			return leaves
		}
		return 0
	})
}

var (
	worldOnce sync.Once
	world441  *View
)

// viewDistance10 is a store of 21×21 terrain columns around the origin:
// what a client with view distance 10 holds. Sixteen distinct columns are
// repeated (a column's sections may be shared; FindBlocks reads them the
// same).
func viewDistance10(tb testing.TB) *View {
	worldOnce.Do(func() {
		s, _ := NewStore(game, storeLayout())
		var templates []*Chunk
		for i := range 16 {
			templates = append(templates, terrainColumn(tb, ChunkPos{}, uint32(i)))
		}
		for x := int32(-10); x <= 10; x++ {
			for z := int32(-10); z <= 10; z++ {
				c := *templates[int(x*7+z*13)&15]
				c.Pos = ChunkPos{x, z}
				s.Load(&c)
			}
		}
		world441 = s.Snapshot()
	})
	return world441
}

// BenchmarkFindBlocks: the nearest 16 of a block over a view distance of
// 10 (441 columns), from a player standing on the ground at the centre;
// the goal is under 5 ms for a common block.
func BenchmarkFindBlocks(b *testing.B) {
	v := viewDistance10(b)
	from := BlockPos{3, 64, 5}
	for _, c := range []struct{ name, pattern string }{
		{"stone", "stone"},                       // common: everywhere underground
		{"oak_log", "oak_log"},                   // one tree a column
		{"diamond_ore", "deepslate_diamond_ore"}, // rare and deep
		{"gold_block", "gold_block"},             // absent: every section's palette says no
	} {
		set, err := game.MatchStates(c.pattern)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			var found []Found
			for b.Loop() {
				found = v.FindBlocks(from, 160, 16, set.Has)
			}
			if c.name != "gold_block" && len(found) != 16 {
				b.Fatalf("found %d", len(found))
			}
		})
	}
}

// BenchmarkBlockAt reads blocks at random through a snapshot.
func BenchmarkBlockAt(b *testing.B) {
	v := viewDistance10(b)
	var sink mcdata.StateID
	for i := 0; b.Loop(); i++ {
		st, _ := v.BlockAt(BlockPos{(i*31)%320 - 160, (i*7)%384 - 64, (i*17)%320 - 160})
		sink += st
	}
	_ = sink
}

// BenchmarkSetBlock is one block update: a section copied and swapped in.
func BenchmarkSetBlock(b *testing.B) {
	s, _ := NewStore(game, storeLayout())
	s.Load(terrainColumn(b, ChunkPos{}, 1))
	glass := state(b, "glass")
	for i := 0; b.Loop(); i++ {
		s.SetBlock(BlockPos{i & 15, 40 + i&7, (i >> 4) & 15}, glass+mcdata.StateID(i&1))
	}
}

// peerPackets are the map_chunk packets chunk_dump.js makes for every
// version, with their layouts.
type peerPacket struct {
	body    []byte // the packet without its id
	layout  Layout
	terrain bool // the generated overworld column, the realistic case
}

func makePeerPackets(b *testing.B) (packets []peerPacket, all, terrain string) {
	dir := b.TempDir()
	byVersion := map[string]int32{}
	var versions []string
	for _, p := range mcdata.GameProtocols() {
		v := mcdata.Game(p).Version
		byVersion[v] = p
		versions = append(versions, v)
	}
	out := peertest.RunNode(b, "chunk_dump.js", append([]string{"make", dir}, versions...)...)
	var files, terrainFiles []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var f struct {
			Version, Name, Path string
			MinY, Height        int
		}
		if err := json.Unmarshal(line, &f); err != nil {
			b.Fatal(err)
		}
		raw, err := os.ReadFile(f.Path)
		if err != nil {
			b.Fatal(err)
		}
		r := wire.NewReader(raw)
		r.VarInt()
		p := byVersion[f.Version]
		g := mcdata.Game(p)
		packets = append(packets, peerPacket{body: r.Rest(), layout: Layout{
			Format: Format{NoSizePrefix: p >= 770, HeightmapArray: p >= 770, FluidCount: p >= 775},
			MinY:   f.MinY, Height: f.Height, NumStates: g.NumStates(), NumBiomes: len(g.Biomes)},
			terrain: f.Name == "terrain"})
		file := map[string]any{"version": f.Version, "path": f.Path, "minY": f.MinY, "height": f.Height}
		files = append(files, file)
		if f.Name == "terrain" {
			terrainFiles = append(terrainFiles, file)
		}
	}
	write := func(name string, list []map[string]any) string {
		raw, _ := json.Marshal(list)
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			b.Fatal(err)
		}
		return path
	}
	return packets, write("all.json", files), write("terrain.json", terrainFiles)
}

// nodeBench is what chunk_dump.js bench measures of prismarine-chunk.
type nodeBench struct {
	LoadNsPerChunk          float64
	MineflayerNsPerChunk    float64
	BytesPerColumn          float64
	BytesPerColumnWithLight float64
}

func runNodeBench(b *testing.B, list string) nodeBench {
	out := peertest.RunNode(b, "chunk_dump.js", "bench", list, "20")
	var n nodeBench
	if err := json.Unmarshal(out, &n); err != nil {
		b.Fatalf("chunk_dump.js bench: %v: %s", err, out)
	}
	return n
}

// heapPerColumn loads 441 columns decoded from the packets (in turn) into
// stores and returns the Go heap they hold per column, and what
// Store.Bytes counts.
func heapPerColumn(b *testing.B, packets []peerPacket) (heap, counted float64) {
	const columns = 441
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	stores := map[Layout]*Store{}
	for i := range columns {
		p := packets[i%len(packets)]
		s := stores[p.layout]
		if s == nil {
			s, _ = NewStore(nil, p.layout)
			stores[p.layout] = s
		}
		c, err := DecodeChunk(wire.NewReader(p.body), p.layout)
		if err != nil {
			b.Fatal(err)
		}
		c.Pos = ChunkPos{int32(i), 0}
		s.Load(c)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	n := 0
	for _, s := range stores {
		n += s.Bytes()
	}
	runtime.KeepAlive(stores)
	return float64(after.HeapAlloc-before.HeapAlloc) / columns, float64(n) / columns
}

// BenchmarkChunksVsPrismarine decodes the same map_chunk packets (every
// palette kind, every version, a generated terrain column among them) as
// prismarine-chunk's load, in one run, and reports chunks per second and
// memory per loaded column for both, with the ratios. Goal: ≥ 5× faster.
func BenchmarkChunksVsPrismarine(b *testing.B) {
	packets, allList, terrainList := makePeerPackets(b)
	var terrain []peerPacket
	for _, p := range packets {
		if p.terrain {
			terrain = append(terrain, p)
		}
	}
	node, nodeTerrain := runNodeBench(b, allList), runNodeBench(b, terrainList)
	heapAll, countedAll := heapPerColumn(b, packets)
	heapTerrain, countedTerrain := heapPerColumn(b, terrain)
	var sectionsNs, packetNs float64
	b.Run("sections", func(b *testing.B) {
		datas := make([][]byte, len(packets))
		for i, p := range packets {
			r := wire.NewReader(p.body)
			r.Int32()
			r.Int32()
			readHeightmaps(r, p.layout.HeightmapArray)
			datas[i] = r.ByteArray()
		}
		n := 0
		for b.Loop() {
			for i, p := range packets {
				if _, _, err := DecodeSections(datas[i], p.layout); err != nil {
					b.Fatal(err)
				}
			}
			n += len(packets)
		}
		sectionsNs = float64(b.Elapsed().Nanoseconds()) / float64(n)
		b.ReportMetric(sectionsNs, "ns/chunk")
		b.ReportMetric(node.LoadNsPerChunk/sectionsNs, "x-prismarine-load")
	})
	b.Run("packet", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, p := range packets {
				if _, err := DecodeChunk(wire.NewReader(p.body), p.layout); err != nil {
					b.Fatal(err)
				}
			}
			n += len(packets)
		}
		packetNs = float64(b.Elapsed().Nanoseconds()) / float64(n)
		b.ReportMetric(packetNs, "ns/chunk")
		b.ReportMetric(node.MineflayerNsPerChunk/packetNs, "x-mineflayer-map_chunk")
	})
	var terrainNs float64
	b.Run("terrain", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, p := range terrain {
				if _, err := DecodeChunk(wire.NewReader(p.body), p.layout); err != nil {
					b.Fatal(err)
				}
			}
			n += len(terrain)
		}
		terrainNs = float64(b.Elapsed().Nanoseconds()) / float64(n)
		b.ReportMetric(terrainNs, "ns/chunk")
		b.ReportMetric(nodeTerrain.LoadNsPerChunk/terrainNs, "x-prismarine-load")
	})
	b.Logf("speed, terrain columns: blockmate %.0f ns/chunk for the whole packet, prismarine-chunk's load of its section data %.0f ns (%.1f× slower), mineflayer's map_chunk %.0f ns (%.1f× slower)",
		terrainNs, nodeTerrain.LoadNsPerChunk, nodeTerrain.LoadNsPerChunk/terrainNs, nodeTerrain.MineflayerNsPerChunk, nodeTerrain.MineflayerNsPerChunk/terrainNs)
	b.Logf("speed, %d packets of %d versions: blockmate %.0f ns/chunk for the section data, %.0f for the whole packet; prismarine-chunk's load %.0f ns (%.1f× slower), mineflayer's map_chunk (parse, load, light) %.0f ns (%.1f× slower)",
		len(packets), len(mcdata.GameProtocols()), sectionsNs, packetNs, node.LoadNsPerChunk, node.LoadNsPerChunk/sectionsNs, node.MineflayerNsPerChunk, node.MineflayerNsPerChunk/packetNs)
	b.Logf("memory per loaded column, terrain: blockmate %.0f B (Store.Bytes %.0f), prismarine-chunk %.0f B (%.1f×), with light as mineflayer keeps it %.0f B (%.1f×)",
		heapTerrain, countedTerrain, nodeTerrain.BytesPerColumn, nodeTerrain.BytesPerColumn/heapTerrain, nodeTerrain.BytesPerColumnWithLight, nodeTerrain.BytesPerColumnWithLight/heapTerrain)
	b.Logf("memory per loaded column, every test packet (dense noise): blockmate %.0f B (Store.Bytes %.0f), prismarine-chunk %.0f B (%.1f×), with light %.0f B (%.1f×)",
		heapAll, countedAll, node.BytesPerColumn, node.BytesPerColumn/heapAll, node.BytesPerColumnWithLight, node.BytesPerColumnWithLight/heapAll)
}

// BenchmarkDecodeTerrain decodes a generated overworld column's whole
// chunk packet (no node needed).
func BenchmarkDecodeTerrain(b *testing.B) {
	for _, f := range allFormats {
		l := storeLayout()
		l.Format = f
		tc := terrainColumn(b, ChunkPos{}, 3)
		body := chunkPacket(l, AppendSections(nil, tc.Sections, tc.Counts, l), 2)
		b.Run(fmt.Sprintf("fluid=%v,noprefix=%v,bytemasks=%v", f.FluidCount, f.NoSizePrefix, f.LightMaskBytes), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if _, err := DecodeChunk(wire.NewReader(body), l); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
