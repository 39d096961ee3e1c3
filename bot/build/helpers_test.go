package build_test

import (
	"testing"

	"github.com/blockmate/blockmate/bot/build"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

func newest() *mcdata.GameData {
	ps := mcdata.GameProtocols()
	return mcdata.Game(ps[len(ps)-1])
}

func versions() []*mcdata.GameData {
	var out []*mcdata.GameData
	for _, p := range mcdata.GameProtocols() {
		if g := mcdata.Game(p); g.Protocols[0] == p {
			out = append(out, g)
		}
	}
	return out
}

func state(t testing.TB, g *mcdata.GameData, text string) mcdata.StateID {
	t.Helper()
	s, err := g.ParseState(text)
	if err != nil {
		t.Fatal(err)
	}
	return s.ID
}

// fakeWorld is a world of air above dirt at y < 64, with changes on top
// and chunk columns that can be marked unloaded.
type fakeWorld struct {
	g        *mcdata.GameData
	changed  map[build.Pos]mcdata.StateID
	unloaded map[[2]int]bool
	dirt     mcdata.StateID
}

func newWorld(t testing.TB, g *mcdata.GameData) *fakeWorld {
	return &fakeWorld{g: g, changed: map[build.Pos]mcdata.StateID{}, unloaded: map[[2]int]bool{}, dirt: state(t, g, "dirt")}
}

func (w *fakeWorld) read(p build.Pos) (mcdata.StateID, bool) {
	if w.unloaded[[2]int{p.X >> 4, p.Z >> 4}] || p.Y < -64 || p.Y >= 320 {
		return 0, false
	}
	if s, ok := w.changed[p]; ok {
		return s, true
	}
	if p.Y < 64 {
		return w.dirt, true
	}
	s, _ := w.g.ParseState("air")
	return s.ID, true
}

func (w *fakeWorld) set(p build.Pos, s mcdata.StateID) { w.changed[p] = s }

// apply writes a plan the way an apply would, checking each block first,
// and returns the writes it made and the conflicts it skipped.
func (w *fakeWorld) apply(p *build.Plan) (made []build.Write, skipped int) {
	for _, wr := range p.Writes {
		if cur, ok := w.read(wr.Pos); !ok || cur != wr.BeforeID {
			skipped++
			continue
		}
		w.set(wr.Pos, wr.AfterID)
		made = append(made, wr)
	}
	return made, skipped
}

// storeWithColumns builds a real world store of the version holding a
// varied terrain in the columns around the origin, for the inspection
// benchmark and the export test.
func storeWithColumns(t testing.TB, g *mcdata.GameData, radius int) *world.Store {
	l := world.Layout{MinY: -64, Height: 384, NumStates: g.NumStates(), NumBiomes: 64}
	s, err := world.NewStore(g, l)
	if err != nil {
		t.Fatal(err)
	}
	palette := []mcdata.StateID{
		state(t, g, "stone"), state(t, g, "oak_planks"), state(t, g, "oak_stairs[facing=east]"),
		state(t, g, "oak_log[axis=x]"), state(t, g, "glass"), state(t, g, "red_wool"), state(t, g, "torch"),
	}
	for cx := -radius; cx < radius; cx++ {
		for cz := -radius; cz < radius; cz++ {
			c := &world.Chunk{Pos: world.ChunkPos{X: int32(cx), Z: int32(cz)}}
			for i := 0; i < l.Sections(); i++ {
				baseY := l.MinY + 16*i
				c.Sections = append(c.Sections, world.BuildSection(l, 0, func(x, y, z int) mcdata.StateID {
					wy := baseY + y
					if wy >= 80 {
						return 0
					}
					return palette[((x*7+y*3+z*5+cx+cz)%len(palette)+len(palette))%len(palette)]
				}))
			}
			if err := s.Load(c); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s
}
