package dig

import (
	"fmt"
	"testing"

	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/move"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/bot/worldfeat"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/internal/testkit/offline"
)

// pickScene is an offline session with the bot standing at x 64 z on the
// world block(x, y, z) gives (loaded in the 5×5 chunks around 0 0), and a
// Dig that can pick blocks in it.
func pickScene(t *testing.T, proto int32, x, z float64, block func(x, y, z int) mcdata.StateID) *Dig {
	t.Helper()
	var me *self.Self
	var w *worldfeat.World
	var m *move.Mover
	o := offline.New(t, proto, func(s *core.Session) {
		reg := registry.Attach(s)
		me = self.Attach(s, reg, self.Options{})
		w = worldfeat.Attach(s, reg, me)
		m = move.Attach(s, me, w)
	})
	o.Configure()
	o.Join(x, 64, z, 4)
	for cx := int32(-2); cx <= 2; cx++ {
		for cz := int32(-2); cz <= 2; cz++ {
			c := fakeserver.Column(proto, cx, cz, 1, block)
			o.RouteBytes(mcdata.ClientboundPlayMapChunk, world.AppendChunk(nil, c, fakeserver.OverworldLayout(proto)))
		}
	}
	return &Dig{g: mcdata.Game(proto), self: me, world: w, body: m}
}

// pickProtocols are the versions the picker tests run on: the first, one
// in the middle and the newest the data knows.
func pickProtocols() []int32 {
	all := mcdata.GameProtocols()
	return []int32{all[0], all[len(all)/2], all[len(all)-1]}
}

// stoneBelow is a world of stone below y 64 with the blocks of extra
// (by position) set over it.
func stoneBelow(g *mcdata.GameData, extra map[world.BlockPos]string) func(x, y, z int) mcdata.StateID {
	stone := g.BlockByName("stone").DefaultState
	return func(x, y, z int) mcdata.StateID {
		if name, ok := extra[world.BlockPos{X: x, Y: y, Z: z}]; ok {
			if name == "air" {
				return 0
			}
			return g.BlockByName(name).DefaultState
		}
		if y < 64 {
			return stone
		}
		return 0
	}
}

func matchBlocks(g *mcdata.GameData, names ...string) func(mcdata.StateID) bool {
	set := g.StatesOf(func(b *mcdata.Block) bool {
		for _, n := range names {
			if b.Name == n {
				return true
			}
		}
		return false
	})
	return set.Has
}

// TestPickerTakesExposedBlocksFirst: coal ore sealed in stone two blocks
// from the bot is passed over for an exposed one farther off (its drop
// would lie sealed in stone, and the answers say "the blocks the bot can
// see"); with no exposed one, the buried one is picked to be tunnelled
// to, and said so (open false).
func TestPickerTakesExposedBlocksFirst(t *testing.T) {
	for _, proto := range pickProtocols() {
		g := mcdata.Game(proto)
		t.Run(g.Version, func(t *testing.T) {
			buried, exposed := world.BlockPos{X: 2, Y: 61, Z: 0}, world.BlockPos{X: 6, Y: 63, Z: 3}
			d := pickScene(t, proto, 0.5, 0.5, stoneBelow(g, map[world.BlockPos]string{buried: "coal_ore", exposed: "deepslate_coal_ore"}))
			coal := matchBlocks(g, "coal_ore", "deepslate_coal_ore")
			p, open, ok := d.nearest(coal, map[world.BlockPos]bool{})
			if !ok || !open || p != exposed {
				t.Fatalf("picked %v (open %v, found %v), want the exposed ore at %v", p, open, ok, exposed)
			}
			p, open, ok = d.nearest(coal, map[world.BlockPos]bool{exposed: true})
			if !ok || open || p != buried {
				t.Fatalf("with the exposed ore tried, picked %v (open %v, found %v), want the buried one at %v, to tunnel to", p, open, ok, buried)
			}
			if _, _, ok := d.nearest(coal, map[world.BlockPos]bool{exposed: true, buried: true}); ok {
				t.Error("a block was picked when every one was tried")
			}
		})
	}
}

// TestPickerOpenFaces: what counts as an open face: air, a plant, water
// beside the block; stone, or an unloaded chunk, does not.
func TestPickerOpenFaces(t *testing.T) {
	for _, proto := range pickProtocols() {
		g := mcdata.Game(proto)
		t.Run(g.Version, func(t *testing.T) {
			d := pickScene(t, proto, 0.5, 0.5, stoneBelow(g, map[world.BlockPos]string{
				{X: 5, Y: 60, Z: 0}: "air", {X: 5, Y: 58, Z: 2}: "water", {X: 5, Y: 59, Z: 4}: "short_grass",
			}))
			for _, c := range []struct {
				p    world.BlockPos
				want bool
			}{
				{world.BlockPos{X: 5, Y: 61, Z: 0}, true},    // above an air pocket
				{world.BlockPos{X: 6, Y: 60, Z: 0}, true},    // beside it
				{world.BlockPos{X: 5, Y: 58, Z: 1}, true},    // beside water
				{world.BlockPos{X: 5, Y: 58, Z: 4}, true},    // under grass
				{world.BlockPos{X: 5, Y: 63, Z: 0}, true},    // the floor's top
				{world.BlockPos{X: 5, Y: 62, Z: 0}, false},   // sealed
				{world.BlockPos{X: 20, Y: 40, Z: 20}, false}, // sealed, deep
				{world.BlockPos{X: 47, Y: 62, Z: 0}, false},  // the last loaded block, its east neighbour unloaded
			} {
				if got := d.exposed(c.p); got != c.want {
					t.Errorf("exposed(%v) = %v, want %v", c.p, got, c.want)
				}
			}
		})
	}
}

// TestPickerNeverDigsUnderfoot: collecting stone while standing on it,
// the picker never takes a block under the bot's box (the straight 1×1
// shaft of the issue, dug block after block under the feet), nor one more
// than a block below the feet's level under a closed top (a pit the bot
// could not climb out of once it steps in for the drop): it takes the
// floor beside the bot, and goes down a step at a time.
func TestPickerNeverDigsUnderfoot(t *testing.T) {
	for _, proto := range pickProtocols() {
		g := mcdata.Game(proto)
		stone := matchBlocks(g, "stone")
		for _, c := range []struct {
			x, z float64
			dug  map[world.BlockPos]string
		}{
			{0.5, 0.5, nil},
			{0.95, 0.5, nil}, // on the edge: its box stands over x 1 too
			{0.5, 0.5, map[world.BlockPos]string{{X: 1, Y: 63, Z: 0}: "air"}}, // a step dug beside it
		} {
			t.Run(fmt.Sprint(g.Version, c.x, c.z, len(c.dug)), func(t *testing.T) {
				d := pickScene(t, proto, c.x, c.z, stoneBelow(g, c.dug))
				feet := d.self.Snapshot().Position
				tried := map[world.BlockPos]bool{}
				for i := 0; i < 40; i++ {
					p, open, ok := d.nearest(stone, tried)
					if !ok {
						t.Fatalf("pick %d: nothing picked", i)
					}
					if !open {
						t.Fatalf("pick %d: %v is buried, with open floor all around", i, p)
					}
					if p.Y == 63 && underBox(feet, p) {
						t.Fatalf("pick %d: %v is under the bot's feet at %+v", i, p, feet)
					}
					if p.Y < 62 {
						t.Fatalf("pick %d: %v is more than one below the feet (y 64)", i, p)
					}
					if p.Y == 62 {
						if _, hole := c.dug[world.BlockPos{X: p.X, Y: 63, Z: p.Z}]; !hole {
							t.Fatalf("pick %d: %v is under a closed top, two below the feet", i, p)
						}
					}
					tried[p] = true
				}
			})
		}
	}
}

// TestEveryGatherableItemResolves: every item a block drops (the game's
// drop tables) resolves, on every version, to the blocks that drop it, by
// its own name and by its name as people write it (spaces, capitals,
// minecraft:), so mc_collect takes any of them.
func TestEveryGatherableItemResolves(t *testing.T) {
	for _, proto := range mcdata.GameProtocols() {
		g := mcdata.Game(proto)
		n := 0
		for i := range g.Items {
			it := &g.Items[i]
			if len(g.DropSources(it.ID)) == 0 {
				continue
			}
			n++
			for _, word := range []string{it.Name, "minecraft:" + it.Name, spaced(it.Name)} {
				got, err := resolveGather(g, word)
				if err != nil {
					t.Fatalf("%s: %v", g.Version, err)
				}
				if !got.items[it.Name] || len(got.sources) == 0 {
					t.Fatalf("%s: %q counts %v from %d blocks", g.Version, word, got.items, len(got.sources))
				}
				for _, s := range got.sources {
					dropsIt := false
					for _, d := range s.Block.Loot {
						dropsIt = dropsIt || got.items[g.Item(d.Item).Name]
					}
					if !dropsIt {
						t.Fatalf("%s: %q is collected from %s, which drops none of %v", g.Version, word, s.Block.Name, got.items)
					}
				}
			}
		}
		if n < 100 {
			t.Errorf("%s: only %d items are dropped by blocks", g.Version, n)
		}
	}
}

// TestGatherWordsAsPeopleSayThem: the words, as Collect reads
// them: what counts and what the answer calls it.
func TestGatherWordsAsPeopleSayThem(t *testing.T) {
	for _, proto := range mcdata.GameProtocols() {
		g := mcdata.Game(proto)
		for _, c := range []struct {
			word, label, counts string
			from                []string
		}{
			{"coal", "coal", "coal", []string{"coal_ore", "deepslate_coal_ore"}},
			{"cobblestone", "cobblestone", "cobblestone", []string{"stone", "cobblestone"}},
			{"stone", "cobblestone", "cobblestone", []string{"stone"}},
			{"dirt", "dirt", "dirt", []string{"dirt", "grass_block"}},
			{"oak_log", "oak_log", "oak_log", []string{"oak_log"}},
			{"wood", "wood", "birch_log", []string{"oak_log", "spruce_log"}},
			{"logs", "logs", "oak_log", []string{"oak_log", "birch_log"}},
			{"flint", "flint", "flint", []string{"gravel"}},
		} {
			got, err := resolveGather(g, c.word)
			if err != nil {
				t.Fatalf("%s: %v", g.Version, err)
			}
			if got.label != c.label || !got.items[c.counts] {
				t.Errorf("%s: %q is called %q and counts %v; want %q counting %s", g.Version, c.word, got.label, got.items, c.label, c.counts)
			}
			for _, b := range c.from {
				found := false
				for _, s := range got.sources {
					found = found || s.Block.Name == b
				}
				if !found {
					t.Errorf("%s: %q is not collected from %s", g.Version, c.word, b)
				}
			}
		}
		if _, err := resolveGather(g, "unobtainium"); err == nil {
			t.Errorf("%s: a word the game lacks resolved", g.Version)
		}
	}
}

// spaced writes a registry name as a person might: "Oak Log".
func spaced(name string) string {
	out := []byte(name)
	up := true
	for i, c := range out {
		switch {
		case c == '_':
			out[i], up = ' ', true
		case up && c >= 'a' && c <= 'z':
			out[i], up = c-'a'+'A', false
		default:
			up = false
		}
	}
	return string(out)
}
