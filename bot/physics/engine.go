package physics

import (
	"fmt"
	"sync"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// World is the part of the world movement reads: the block state at a
// position, and false when it is not known (its chunk column is not loaded,
// or y is outside the dimension). An unknown block counts as air, as it
// does for the game's collisions. *world.Store and *world.View implement
// it; a planner should step on a View (no lock per block).
//
// A World that also has Loaded(world.ChunkPos) bool (a Store) or
// Column(world.ChunkPos) *world.Column (a View) lets Step tell an unloaded
// column from the sky: the game does not move a player whose column is not
// loaded, and gives a player over an unloaded column a fixed fall speed.
type World interface {
	BlockAt(p world.BlockPos) (mcdata.StateID, bool)
}

// Engine computes movement for one game version. It holds only read-only
// tables, so one Engine serves every goroutine and every session of that
// version; For returns a shared one.
type Engine struct {
	protocol int32
	game     *mcdata.GameData
	rules    rules
	blocks   *blockTable
	trig     trig
}

var engines sync.Map // protocol → *Engine

// For returns the engine of a protocol version, building its tables on
// first use (a few milliseconds), or an error naming the versions there are
// when the protocol has no game data.
func For(protocol int32) (*Engine, error) {
	if e, ok := engines.Load(protocol); ok {
		return e.(*Engine), nil
	}
	g := mcdata.Game(protocol)
	if g == nil {
		return nil, fmt.Errorf("physics: protocol %d has no game data; the bot knows protocols %v", protocol, mcdata.GameProtocols())
	}
	r := rulesFor(protocol)
	e := &Engine{protocol: protocol, game: g, rules: r, blocks: tableFor(g), trig: trig{double: r.doubleSin}}
	actual, _ := engines.LoadOrStore(protocol, e)
	return actual.(*Engine), nil
}

var tables sync.Map // *mcdata.GameData → *blockTable

func tableFor(g *mcdata.GameData) *blockTable {
	if t, ok := tables.Load(g); ok {
		return t.(*blockTable)
	}
	t, _ := tables.LoadOrStore(g, newBlockTable(g))
	return t.(*blockTable)
}

// Protocol is the protocol version the engine computes movement for.
func (e *Engine) Protocol() int32 { return e.protocol }

// Game is the static data the engine reads block shapes and facts from.
func (e *Engine) Game() *mcdata.GameData { return e.game }

// loadedChecker is the optional half of World that tells an unloaded column
// from a position outside the dimension.
type storeLoaded interface {
	Loaded(world.ChunkPos) bool
}

type viewLoaded interface {
	Column(world.ChunkPos) *world.Column
}

func columnLoaded(w World, x, z int) bool {
	cp := world.ChunkPos{X: int32(x >> 4), Z: int32(z >> 4)}
	switch v := w.(type) {
	case storeLoaded:
		return v.Loaded(cp)
	case viewLoaded:
		return v.Column(cp) != nil
	}
	return true
}
