package peertest_test

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// TestChunkCaptures checks that every folder of testdata/chunks is what its
// README says: each packet begins with the map_chunk id and names its own
// chunk, and prismarine-chunk's reading has the blocks the peer's world has
// (flying-squid's superflat layers; mpserver's grass, tree and samples).
func TestChunkCaptures(t *testing.T) {
	versions := peertest.ChunkCaptureVersions(t)
	if len(versions) == 0 {
		t.Fatal("testdata/chunks holds no capture")
	}
	for _, v := range versions {
		t.Run(v, func(t *testing.T) {
			c := peertest.LoadChunkCaptures(t, v)
			if c.Version != v || c.MinY != -64 || c.Height != 384 {
				t.Errorf("meta = version %s, minY %d, height %d; want %s, -64, 384", c.Version, c.MinY, c.Height, v)
			}
			name := func(id uint16) string { return c.States[strconv.Itoa(int(id))] }
			for _, ch := range c.Chunks {
				r := bytes.NewReader(ch.Packet)
				id, err := binary.ReadUvarint(r)
				if err != nil || int(id) != c.MapChunkPacketID {
					t.Fatalf("chunk %d %d: packet id %d (%v), want %d", ch.X, ch.Z, id, err, c.MapChunkPacketID)
				}
				var x, z int32
				_ = binary.Read(r, binary.BigEndian, &x)
				_ = binary.Read(r, binary.BigEndian, &z)
				if int(x) != ch.X || int(z) != ch.Z {
					t.Errorf("chunk %d %d: the packet names chunk %d %d", ch.X, ch.Z, x, z)
				}
				if ch.ParsedBytes != ch.PacketBytes {
					t.Errorf("chunk %d %d: minecraft-protocol read %d of %d bytes", ch.X, ch.Z, ch.ParsedBytes, ch.PacketBytes)
				}
				for _, s := range ch.States {
					if name(s) == "" {
						t.Fatalf("chunk %d %d: state %d is not in meta.json's states", ch.X, ch.Z, s)
					}
				}
			}
			chunk := func(x, z int) *peertest.CapturedChunk {
				i := slices.IndexFunc(c.Chunks, func(ch peertest.CapturedChunk) bool { return ch.X == x && ch.Z == z })
				if i < 0 {
					t.Fatalf("no chunk %d %d", x, z)
				}
				return &c.Chunks[i]
			}
			origin := chunk(0, 0)
			squid := strings.HasPrefix(c.Peer, "flying-squid")
			// Column 0, 0 from the bottom up, and the trunk at 5, 5.
			want := map[int]string{-64: "bedrock", 0: "stone", 61: "dirt", 63: "grass_block[snowy=false]", 64: "air"}
			trunk := 64
			if squid {
				want = map[int]string{0: "bedrock", 2: "dirt", 4: "grass_block[snowy=false]", 5: "gold_block"}
				trunk = 5
			}
			for y, w := range want {
				if got := name(origin.Block(c.MinY, 0, y, 0)); got != w {
					t.Errorf("block 0 %d 0 = %s, want %s", y, got, w)
				}
			}
			if got := name(origin.Block(c.MinY, 5, trunk, 5)); got != "oak_log[axis=y]" {
				t.Errorf("the tree's trunk = %s, want oak_log[axis=y]", got)
			}
			if !squid {
				distinct := map[uint16]bool{}
				for y := 96; y < 112; y++ {
					for z := 0; z < 16; z++ {
						for x := 0; x < 16; x++ {
							distinct[chunk(1, 1).Block(c.MinY, x, y, z)] = true
						}
					}
				}
				if len(distinct) != 301 {
					t.Errorf("the section of samples holds %d states, want 300 and air", len(distinct))
				}
			}
		})
	}
}
