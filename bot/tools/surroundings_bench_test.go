package tools

import (
	"context"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	blocks "github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// viewWorld is a world at protocol 769 whose bot stands at 8, 65, 8 on
// generated terrain over a view distance of 10 (21×21 columns, sent as
// chunk packets through the handlers): deepslate and stone with caves,
// coal, iron and the odd diamond, dirt and grass, an oak now and then.
func viewWorld(b *testing.B) *session {
	const proto = 769
	a, peer := net.Pipe()
	go func() { _, _ = io.Copy(io.Discard, peer) }()
	s, err := bot.Offline(a, proto, nil, bot.Options{Clock: core.NewManualClock(time.Unix(1_700_000_000, 0))})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Core().Leave)
	for _, p := range fakeserver.OfflineSetup(proto) {
		if err := s.Core().Route(p.Packet, p.Body); err != nil {
			b.Fatal(err)
		}
	}
	w := &session{Session: s, mem: &memory{of: s}}
	if err := w.Core().Route(mcdata.ClientboundPlayPosition, fakeserver.PositionBody(proto, 1, 8.5, 65, 8.5, 0)); err != nil {
		b.Fatal(err)
	}
	if err := w.Core().Route(mcdata.ClientboundPlayUpdateViewDistance, []byte{10}); err != nil {
		b.Fatal(err)
	}
	g := mcdata.Game(proto)
	st := func(name string) mcdata.StateID { return g.BlockByName(name).DefaultState }
	deepslate, stone, dirt, grass, coal, iron, diamond, log := st("deepslate"), st("stone"), st("dirt"), st("grass_block"), st("coal_ore"), st("iron_ore"), st("deepslate_diamond_ore"), st("oak_log")
	hash := func(x, y, z int) uint32 {
		h := uint32(x*374761393+y*668265263+z*2147483647) ^ 0x9e3779b9
		h = (h ^ h>>13) * 1274126177
		return h ^ h>>16
	}
	for cx := int32(-10); cx <= 10; cx++ {
		for cz := int32(-10); cz <= 10; cz++ {
			c := fakeserver.Column(proto, cx, cz, 0, func(x, y, z int) mcdata.StateID {
				top := 62 + int(hash(x>>3, 0, z>>3)%4)
				r := hash(x, y, z) % 1000
				switch {
				case y == -64:
					return st("bedrock")
				case y < 0 && r < 3:
					return diamond
				case y < top-3 && r < 40:
					return 0 // caves
				case y < 0:
					return deepslate
				case y < top-3 && r < 52:
					return coal
				case y < top-3 && r < 58:
					return iron
				case y < top-3:
					return stone
				case y < top:
					return dirt
				case y == top:
					return grass
				case y > top && y < top+5 && x&15 == 7 && z&15 == 7:
					return log
				}
				return 0
			})
			body := worldAppend(proto, c)
			if err := w.Core().Route(mcdata.ClientboundPlayMapChunk, body); err != nil {
				b.Fatal(err)
			}
		}
	}
	if n := w.Level().Stats().Columns; n != 441 {
		b.Fatalf("%d columns loaded", n)
	}
	return w
}

// BenchmarkFindBlocksTool is mc_find_blocks over a full view distance of
// 10 (441 columns): the nearest 16 of a block within 160 blocks, the whole
// tool's work (the pattern, the snapshot, the search, the answer). Goal:
// under 5 ms for a common block.
func BenchmarkFindBlocksTool(b *testing.B) {
	w := viewWorld(b)
	for _, block := range []string{"stone", "iron_ore", "oak_log", "deepslate_diamond_ore", "gold_block"} {
		b.Run(block, func(b *testing.B) {
			var res findResult
			for b.Loop() {
				var err error
				res, err = w.findBlocks(context.Background(), block, 160, 16)
				if err != nil {
					b.Fatal(err)
				}
			}
			if block != "gold_block" && res.Found != 16 {
				b.Fatalf("found %d %s", res.Found, block)
			}
		})
	}
}

// BenchmarkNearbyTool is mc_nearby's default radius over the same world:
// the entity scan and the count of blocks in the 33-block cube.
func BenchmarkNearbyTool(b *testing.B) {
	w := viewWorld(b)
	for b.Loop() {
		if res := w.nearby(context.Background(), 16); len(res.Blocks) == 0 {
			b.Fatal("no blocks counted")
		}
	}
}

func worldAppend(proto int32, c *blocks.Chunk) []byte {
	return blocks.AppendChunk(nil, c, fakeserver.OverworldLayout(proto))
}

// BenchmarkMapTool is mc_map over the same world, the whole tool's work
// (the snapshot, the scan, the rows and legend, the entities): "again" as
// the console asks it a few times a second, with the columns read by the
// last call remembered; "first" as a first call reads every column.
func BenchmarkMapTool(b *testing.B) {
	w := viewWorld(b)
	for _, r := range []int{16, 32} {
		for _, first := range []bool{false, true} {
			name := fmt.Sprintf("again-radius-%d", r)
			if first {
				name = fmt.Sprintf("first-radius-%d", r)
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					if first {
						w.mem.mapView.scanner = nil
					}
					res, err := w.topDownMap(context.Background(), r, nil)
					if err != nil || res.Legend["g"] != "grass" {
						b.Fatalf("%v %v", err, res.Legend)
					}
				}
			})
		}
	}
}
