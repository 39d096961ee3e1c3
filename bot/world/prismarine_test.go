package world_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// formatFor is the chunk format of a protocol, as the per-version codec
// gives it to the world: decoding the peers' chunks of every version with
// it checks the codec's flags too.
func formatFor(protocol int32) world.Format { return codec.For(protocol).ChunkFormat }

// chunkFile is one map_chunk packet (packet id, then the body, uncompressed)
// and the dimension it belongs to.
type chunkFile struct {
	Version string `json:"version"` // game version: 1.21.4, 26.1 …
	Path    string `json:"path"`
	MinY    int    `json:"minY"`
	Height  int    `json:"height"`
}

// capturedChunks lists the packets captured from real peers under
// testdata/chunks: testdata/chunks/<game version>/<name>.bin, each one
// map_chunk packet as the peer framed it (packet id, then the body,
// uncompressed), in the overworld (y -64, height 384) unless
// <name>.bin.json says {"minY": …, "height": …}. Dropping a file there is
// all it takes to have it checked.
func capturedChunks(t *testing.T) []chunkFile {
	root := filepath.Join(peertest.ModuleRoot(t), "testdata", "chunks")
	files, _ := filepath.Glob(filepath.Join(root, "*", "*.bin"))
	var out []chunkFile
	for _, f := range files {
		c := chunkFile{Version: filepath.Base(filepath.Dir(f)), Path: f, MinY: -64, Height: 384}
		if raw, err := os.ReadFile(f + ".json"); err == nil {
			if err := json.Unmarshal(raw, &c); err != nil {
				t.Fatalf("%s.json: %v", f, err)
			}
			c.Path = f
		}
		out = append(out, c)
	}
	return out
}

// gameByVersion maps the game versions the data covers to their data and
// protocol.
func gameByVersion() map[string]struct {
	g        *mcdata.GameData
	protocol int32
} {
	out := map[string]struct {
		g        *mcdata.GameData
		protocol int32
	}{}
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		out[g.Version] = struct {
			g        *mcdata.GameData
			protocol int32
		}{g, p}
	}
	return out
}

// TestChunksMatchPrismarineChunk builds chunks of every palette kind for
// every version with prismarine-chunk, serializes them as map_chunk packets
// with minecraft-protocol, and checks that the decoder reads every block
// state and every biome of the same bytes as prismarine-chunk does, with
// the same counts, block entities and heightmaps. Captured packets under
// testdata/chunks go through the same comparison.
func TestChunksMatchPrismarineChunk(t *testing.T) {
	games := gameByVersion()
	var versions []string
	for _, p := range mcdata.GameProtocols() {
		versions = append(versions, mcdata.Game(p).Version)
	}
	dir := t.TempDir()
	out := peertest.RunNode(t, "chunk_dump.js", append([]string{"make", dir}, versions...)...)
	var files []chunkFile
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var f chunkFile
		if err := json.Unmarshal(line, &f); err != nil {
			t.Fatalf("chunk_dump.js make: %v: %s", err, line)
		}
		files = append(files, f)
	}
	if len(files) < 8*len(versions) {
		t.Fatalf("chunk_dump.js made %d chunks for %d versions", len(files), len(versions))
	}
	files = append(files, capturedChunks(t)...)
	list, _ := json.Marshal(files)
	listPath := filepath.Join(dir, "list.json")
	if err := os.WriteFile(listPath, list, 0o644); err != nil {
		t.Fatal(err)
	}
	out = peertest.RunNode(t, "chunk_dump.js", "read", listPath)
	type reading struct {
		Path          string
		X, Z          int32
		Counts        [][2]int16
		BlockEntities []struct {
			X, Y, Z int
			Type    int32
			NBT     bool
		}
		Heightmaps []json.RawMessage
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	checked := 0
	for i := 0; sc.Scan(); i++ {
		var want reading
		if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
			t.Fatalf("chunk_dump.js read: %v", err)
		}
		f := files[i]
		if want.Path != f.Path {
			t.Fatalf("chunk_dump.js read answered %s for %s", want.Path, f.Path)
		}
		game, ok := games[f.Version]
		if !ok {
			t.Fatalf("%s: no game data for version %s", f.Path, f.Version)
		}
		t.Run(strings.TrimSuffix(filepath.Base(f.Path), ".bin"), func(t *testing.T) {
			l := world.Layout{Format: formatFor(game.protocol), MinY: f.MinY, Height: f.Height,
				NumStates: game.g.NumStates(), NumBiomes: len(game.g.Biomes)}
			packet, err := os.ReadFile(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			r := wire.NewReader(packet)
			r.VarInt() // the packet id
			c, err := world.DecodeChunk(r, l)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if r.Remaining() != 0 {
				t.Errorf("%d bytes left after the packet", r.Remaining())
			}
			body := wire.NewReader(packet)
			body.VarInt()
			checkTerrainEnd(t, l, packet[len(packet)-body.Remaining():])
			if c.Pos != (world.ChunkPos{X: want.X, Z: want.Z}) {
				t.Errorf("position %v, prismarine %d,%d", c.Pos, want.X, want.Z)
			}
			states := readUint16s(t, f.Path+".states")
			biomes := readUint16s(t, f.Path+".biomes")
			if len(states) != 4096*len(c.Sections) || len(biomes) != 64*len(c.Sections) {
				t.Fatalf("prismarine read %d states and %d biomes for %d sections", len(states), len(biomes), len(c.Sections))
			}
			bad := 0
			for s, sec := range c.Sections {
				for i := 0; i < 4096; i++ {
					got := sec.Block(i&15, i>>8, (i>>4)&15)
					if uint16(got) != states[s*4096+i] && bad < 10 {
						bad++
						t.Errorf("section %d block %d: state %d, prismarine-chunk reads %d", s, i, got, states[s*4096+i])
					}
				}
				for i := 0; i < 64; i++ {
					got := sec.Biome((i&3)*4, (i>>4)*4, ((i>>2)&3)*4)
					if uint16(got) != biomes[s*64+i] && bad < 10 {
						bad++
						t.Errorf("section %d biome cell %d: %d, prismarine-chunk reads %d", s, i, got, biomes[s*64+i])
					}
				}
				wantCounts := world.SectionCounts{Blocks: want.Counts[s][0]}
				if l.FluidCount {
					wantCounts.Fluids = want.Counts[s][1]
				}
				if c.Counts[s] != wantCounts {
					t.Errorf("section %d counts %+v, prismarine-chunk %+v", s, c.Counts[s], wantCounts)
				}
			}
			if len(c.BlockEntities) != len(want.BlockEntities) {
				t.Fatalf("%d block entities, prismarine %d", len(c.BlockEntities), len(want.BlockEntities))
			}
			for i, w := range want.BlockEntities {
				e := c.BlockEntities[i]
				wantPos := world.BlockPos{X: int(c.Pos.X)<<4 | w.X, Y: w.Y, Z: int(c.Pos.Z)<<4 | w.Z}
				if e.Pos != wantPos || e.Type != w.Type || (e.NBT != nil) != w.NBT {
					t.Errorf("block entity %d: %+v, prismarine %+v", i, e, w)
				}
			}
			if len(c.Heightmaps) != len(want.Heightmaps) {
				t.Errorf("%d heightmaps, prismarine %d", len(c.Heightmaps), len(want.Heightmaps))
			}
			checked++
		})
	}
	if checked != len(files) {
		t.Fatalf("checked %d of %d chunks", checked, len(files))
	}
}

func readUint16s(t *testing.T, path string) []uint16 {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]uint16, len(raw)/2)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(raw[2*i:])
	}
	return out
}
