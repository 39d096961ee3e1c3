package tools

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	blocks "github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// mappedWorld is a scripted world that, on the command "scene", sends the
// 3×3 columns around the bot (which stands at 0 64 0, looking west): grass
// at y 60 over stone, a pond (x 3–5, z -2…-1), a lava pool at -4 3, an oak
// at 2 4 (log y 61–63, leaves at y 64 around it), a poppy at 1 1; the
// player alex at -3.5 61 5.5 (spawned as flying-squid does, as entity type
// 0 with his UUID), a zombie at 6.5 61 -6.5 and a skeleton at 20.5 61 0.5.
// On "fill" it turns the grass at 0 60 -3 into water.
func mappedWorld(t *testing.T, proto int32) *scriptedWorld {
	g := mcdata.Game(proto)
	st := func(name string) mcdata.StateID { return g.BlockByName(name).DefaultState }
	stone, grass, water, lava, log, leaves, poppy := st("stone"), st("grass_block"), st("water"), st("lava"), st("oak_log"), st("oak_leaves"), st("poppy")
	opts := bot.Options{Clock: core.NewManualClock(time.Unix(1_700_000_000, 0))}
	return newScriptedWorldWith(t, proto, opts, nil, func(f *fakeServer, cmd string) {
		switch cmd {
		case "scene":
			for cx := int32(-1); cx <= 1; cx++ {
				for cz := int32(-1); cz <= 1; cz++ {
					f.SendChunk(fakeserver.Column(proto, cx, cz, 1, func(x, y, z int) mcdata.StateID {
						switch {
						case x >= 3 && x <= 5 && z >= -2 && z <= -1 && y == 60:
							return water
						case x == -4 && z == 3 && y == 60:
							return lava
						case x == 2 && z == 4 && y >= 61 && y <= 63:
							return log
						case x >= 1 && x <= 3 && z >= 3 && z <= 5 && y == 64:
							return leaves
						case x == 1 && z == 1 && y == 61:
							return poppy
						case y < 60:
							return stone
						case y == 60:
							return grass
						}
						return 0
					}))
				}
			}
			f.ListPlayers("alex")
			f.Send(mcdata.ClientboundPlaySpawnEntity, func(w *wire.Writer) {
				w.Raw(fakeserver.SpawnBody(proto, 7, [16]byte{100}, 0, -3.5, 61, 5.5))
			})
			f.Send(mcdata.ClientboundPlaySpawnEntity, func(w *wire.Writer) {
				w.Raw(fakeserver.SpawnBody(proto, 8, [16]byte{8}, g.EntityByName("zombie").ID, 6.5, 61, -6.5))
			})
			f.Send(mcdata.ClientboundPlaySpawnEntity, func(w *wire.Writer) {
				w.Raw(fakeserver.SpawnBody(proto, 9, [16]byte{9}, g.EntityByName("skeleton").ID, 20.5, 61, 0.5))
			})
			f.SystemLine("scene set")
		case "fill":
			f.Send(mcdata.ClientboundPlayBlockChange, func(w *wire.Writer) {
				w.Int64(int64(0)<<38 | int64(-3&0x3ffffff)<<12 | 60)
				w.VarInt(int32(water))
			})
			f.SystemLine("filled")
		}
	})
}

// cell is the letter of the map at an offset from the bot.
func (m mapResult) cell(dx, dz int) string {
	return string(m.Rows[m.Radius+dz][m.Radius+dx])
}

// TestMapOnEveryVersion: mc_map draws what the scripted server sent, in
// every version's layouts: the classes of the top blocks where they are
// (a flower looked through, the tree's trunk under its leaves, the leaves
// around it), the bot at
// the centre looking west, alex and the zombie at their offsets and the
// skeleton left out beyond the radius; it follows a block change; and a
// path and goal appear once the movement feature reports them.
func TestMapOnEveryVersion(t *testing.T) {
	for _, r := range mcdata.Releases() {
		proto := int32(r.Protocol)
		t.Run(fmt.Sprint(proto), func(t *testing.T) {
			w := mappedWorld(t, proto)
			if res := w.command(t, "scene", "scene set"); !res.OK {
				t.Fatal(res.Error)
			}
			m := decode[mapResult](t, callN(t, w.d, "mc_map", `{"radius":8}`))
			if m.Center != (BlockPos{0, 64, 0}) || m.Radius != 8 || m.Facing != "west" || m.Yaw != 90 || len(m.Rows) != 17 {
				t.Fatalf("mc_map = %+v", m)
			}
			for i, row := range m.Rows {
				if len(row) != 17 {
					t.Fatalf("row %d is %q", i, row)
				}
			}
			for _, c := range []struct {
				dx, dz int
				want   string
			}{
				{0, 0, "grass"}, {1, 1, "grass"}, {3, -2, "water"}, {5, -1, "water"}, {6, -1, "grass"}, {-4, 3, "lava"},
				{2, 4, "wood"}, {1, 5, "leaves"}, {4, 4, "grass"}, {-8, -8, "grass"}, {8, 8, "grass"},
			} {
				if got := m.Legend[m.cell(c.dx, c.dz)]; got != c.want {
					t.Errorf("at %d %d: %q (%s), want %s\n%s", c.dx, c.dz, m.cell(c.dx, c.dz), got, c.want, strings.Join(m.Rows, "\n"))
				}
			}
			if len(m.Legend) != 5 || m.Legend["w"] != "water" || m.Legend["l"] != "lava" || m.Legend["t"] != "wood" {
				t.Errorf("legend = %v; it names exactly the letters drawn", m.Legend)
			}
			if len(m.Players) != 1 || m.Players[0] != (mapPlayer{"alex", mapOffset{-4, 5, -3}}) || m.UntrustedText == "" {
				t.Errorf("players = %+v (%q)", m.Players, m.UntrustedText)
			}
			if len(m.Hostiles) != 1 || m.Hostiles[0] != (mapMob{"zombie", mapOffset{6, -7, -3}}) {
				t.Errorf("hostiles = %+v", m.Hostiles)
			}
			if m.Path != nil || m.Goal != nil || m.Note != "" {
				t.Errorf("path %v, goal %v, note %q with no walk", m.Path, m.Goal, m.Note)
			}
			// At radius 24 the skeleton is in, and the square reaches past
			// the loaded chunks (x -16…31).
			wide := decode[mapResult](t, callN(t, w.d, "mc_map", `{"radius":24}`))
			if len(wide.Hostiles) != 2 || wide.Hostiles[1].Type != "skeleton" || wide.cell(-17, 0) != " " || wide.Legend[" "] != "not loaded" || wide.cell(-16, 0) != "g" {
				t.Errorf("radius 24: hostiles %+v, legend %v", wide.Hostiles, wide.Legend)
			}

			w.command(t, "fill", "filled")
			if m := decode[mapResult](t, callN(t, w.d, "mc_map", `{"radius":8}`)); m.Legend[m.cell(0, -3)] != "water" {
				t.Errorf("after the block change 0 -3 is %q", m.cell(0, -3))
			}

			w.t.mem.route = func() ([]blocks.BlockPos, *blocks.BlockPos) {
				return []blocks.BlockPos{{X: 1, Y: 64, Z: 0}, {X: 2, Y: 64, Z: 1}, {X: 30, Y: 64, Z: 1}}, &blocks.BlockPos{X: 30, Y: 65, Z: 1}
			}
			m = decode[mapResult](t, callN(t, w.d, "mc_map", `{"radius":8}`))
			if len(m.Path) != 2 || m.Path[1] != (mapOffset{2, 1, 0}) || m.Goal == nil || *m.Goal != (mapOffset{30, 1, 1}) {
				t.Errorf("path %+v, goal %+v", m.Path, m.Goal)
			}
		})
	}
}

// TestMapBeforeAnyChunk: with nothing loaded the map is blank and says why;
// a radius out of range is refused with the range.
func TestMapBeforeAnyChunk(t *testing.T) {
	w := newScriptedWorldWith(t, 769, bot.Options{Clock: core.NewManualClock(time.Unix(1_700_000_000, 0))}, nil, nil)
	m := decode[mapResult](t, callN(t, w.d, "mc_map", `{"radius":2}`))
	if len(m.Rows) != 5 || m.Rows[2] != "     " || !strings.Contains(m.Note, "no chunks loaded yet") || len(m.Players) != 0 {
		t.Errorf("mc_map = %+v", m)
	}
	if res := callN(t, w.d, "mc_map", `{"radius":99}`); res.OK || !strings.Contains(res.Error, "32") {
		t.Errorf("radius 99: %+v", res)
	}
}
