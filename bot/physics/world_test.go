package physics

import (
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// testWorld is a world for tests: a floor of one block type filling every
// y below groundTop, air above, and any blocks set on top of that.
type testWorld struct {
	g         *mcdata.GameData
	groundTop int
	ground    mcdata.StateID
	blocks    map[world.BlockPos]mcdata.StateID
	unloaded  map[world.ChunkPos]bool
}

func newWorld(t testing.TB, e *Engine, ground string) *testWorld {
	t.Helper()
	w := &testWorld{g: e.Game(), blocks: map[world.BlockPos]mcdata.StateID{}, unloaded: map[world.ChunkPos]bool{}}
	if ground != "" {
		w.ground = w.state(t, ground)
	}
	return w
}

// state parses "oak_stairs[facing=east,half=bottom]".
func (w *testWorld) state(t testing.TB, spec string) mcdata.StateID {
	t.Helper()
	name, props := spec, map[string]string{}
	if i := indexByte(spec, '['); i >= 0 {
		name = spec[:i]
		for _, kv := range splitComma(spec[i+1 : len(spec)-1]) {
			j := indexByte(kv, '=')
			props[kv[:j]] = kv[j+1:]
		}
	}
	b := w.g.BlockByName(name)
	if b == nil {
		t.Fatalf("no block %q in %s", name, w.g.Version)
	}
	s, err := b.StateWith(props)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

func splitComma(s string) []string {
	var out []string
	for s != "" {
		i := indexByte(s, ',')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = s[i+1:]
	}
	return out
}

func (w *testWorld) set(t testing.TB, x, y, z int, spec string) {
	t.Helper()
	w.blocks[world.BlockPos{X: x, Y: y, Z: z}] = w.state(t, spec)
}

// fill sets every block of the box (inclusive).
func (w *testWorld) fill(t testing.TB, x0, y0, z0, x1, y1, z1 int, spec string) {
	t.Helper()
	s := w.state(t, spec)
	for x := x0; x <= x1; x++ {
		for y := y0; y <= y1; y++ {
			for z := z0; z <= z1; z++ {
				w.blocks[world.BlockPos{X: x, Y: y, Z: z}] = s
			}
		}
	}
}

func (w *testWorld) BlockAt(p world.BlockPos) (mcdata.StateID, bool) {
	if w.unloaded[p.Chunk()] {
		return 0, false
	}
	if s, ok := w.blocks[p]; ok {
		return s, true
	}
	if p.Y < w.groundTop {
		return w.ground, true
	}
	return 0, true
}

func (w *testWorld) Loaded(c world.ChunkPos) bool { return !w.unloaded[c] }

func engine(t testing.TB, protocol int32) *Engine {
	t.Helper()
	e, err := For(protocol)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
