package path

import (
	"math"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// Terrain is the planner's read-only world: a world.View snapshot (never
// the live store, so planning holds no lock and never delays the read
// loop) read through a small cache of sections, as Azalea's pathfinder
// reads its CachedWorld, and the facts of each block state. A Terrain
// belongs to one search; it is not safe for concurrent use.
type Terrain struct {
	view  *world.View
	tab   *table
	minY  int // the dimension's lowest block
	maxY  int // one above its highest
	air   stateFacts
	cache [cacheSize]cachedSection
	last  cachedSection // the section read last: most reads hit it again
	spots spotTable
	// doors: closed wooden doors and gates count as open (the bot opens
	// them on its way).
	doors bool

	// What the search met, to say why it found no path.
	metUnloaded bool
	metHazard   bool
}

const cacheSize = 512 // sections; a search rarely spans more

type cachedSection struct {
	key    uint64
	sec    *world.Section
	filled bool
}

func (t *Terrain) reset(view *world.View, tab *table) {
	l := view.Layout()
	t.view, t.tab = view, tab
	t.minY, t.maxY = l.MinY, l.MinY+l.Height
	t.air = stateFacts{flags: fLoaded, speed: 1}
	clear(t.cache[:])
	t.last = cachedSection{}
	t.spots.reset()
	t.metUnloaded, t.metHazard = false, false
}

// section returns the section holding a block, or nil when its column is
// not loaded.
func (t *Terrain) section(x, y, z int) *world.Section {
	cx, sy, cz := x>>4, (y-t.minY)>>4, z>>4
	key := uint64(uint32(cx))<<40 ^ uint64(uint32(cz))<<12 ^ uint64(sy)
	if t.last.filled && t.last.key == key {
		return t.last.sec
	}
	slot := &t.cache[(uint64(cx)*0x9E3779B1^uint64(cz)*0x85EBCA77^uint64(sy)*0xC2B2AE3D)%cacheSize]
	if slot.filled && slot.key == key {
		t.last = *slot
		return slot.sec
	}
	var sec *world.Section
	if col := t.view.Column(world.ChunkPos{X: int32(cx), Z: int32(cz)}); col != nil {
		sec = col.Section(sy)
	}
	*slot = cachedSection{key: key, sec: sec, filled: true}
	t.last = *slot
	return sec
}

// facts returns a block's facts; a block of an unloaded column has none
// (fLoaded clear). Above the dimension is air; below it is nothing to
// stand on, like an unloaded block.
func (t *Terrain) facts(x, y, z int) stateFacts {
	if y >= t.maxY {
		return t.air
	}
	if y < t.minY {
		return stateFacts{}
	}
	sec := t.section(x, y, z)
	if sec == nil {
		return stateFacts{}
	}
	st := sec.Block(x&15, (y-t.minY)&15, z&15)
	if uint32(st) >= uint32(len(t.tab.facts)) {
		return stateFacts{} // a state this version does not have: treat as unknown
	}
	return t.tab.facts[st]
}

// State returns the block state at a position, and false when its column
// is not loaded or y is outside the dimension.
func (t *Terrain) State(p world.BlockPos) (mcdata.StateID, bool) {
	return t.view.BlockAt(p)
}

// spot is what a player can do at one position (the block its feet are
// in): whether it can stay there and how.
type spot struct {
	kind spotKind
	// floor is the feet height above the block's bottom: 0 on a full
	// block below, 0.5 on a slab, 0.875 on soul sand.
	floor float32
	// speed is the speed factor of the block walked on.
	speed float32
	// door is set when the player fits here only with a door or gate
	// opened: a move that ends here opens it.
	door bool
	// lowJump is set on a block that weakens jumps (honey: half): no
	// jump up or over a gap from here.
	lowJump bool
}

type spotKind uint8

const (
	spotNone   spotKind = iota // the player cannot stay here
	spotGround                 // standing on something
	spotWading                 // standing, feet in water
	spotSwim                   // in water with nothing under the feet
	spotClimb                  // held by a ladder or vine
)

func (s spot) water() bool { return s.kind == spotWading || s.kind == spotSwim }

const eps = 1e-4

// stand works out whether a player can stay with its feet in block
// (x, y, z) and where its feet are: on the collision shape of this block
// when it is lower than a full block (a slab, a carpet, soul sand), else
// on the block below when that one is exactly a full block high (fences
// and walls, 1.5 high, are not stood on), else held by water or a ladder.
// The player's body, 1.8 high from its feet, must then fit in the centre
// of the cells above, and none of them may hurt.
func (t *Terrain) stand(x, y, z int) spot {
	if s, ok := t.spots.get(x, y, z); ok {
		return s
	}
	s := t.computeStand(x, y, z)
	t.spots.put(x, y, z, s)
	return s
}

func (t *Terrain) computeStand(x, y, z int) spot {
	here := t.facts(x, y, z)
	if here.flags&fLoaded == 0 {
		t.metUnloaded = true
		return spot{}
	}
	if here.flags&fHazard != 0 {
		t.metHazard = true
		return spot{}
	}
	s := spot{kind: spotGround, speed: 1}
	in := t.spanOf(here, fpCenter, t.doors)
	if t.doors && here.flags&fOpenable != 0 && !t.spans(here.shape, fpCenter).empty() {
		s.door = true // a closed gate across the block's middle
	}
	switch {
	case !in.empty():
		if in.hi >= 1-eps {
			return spot{} // a block fills the feet
		}
		s.floor = in.hi
		s.speed = here.speed
		s.lowJump = here.flags&fLowJump != 0
	default:
		below := t.facts(x, y-1, z)
		if below.flags&fLoaded == 0 {
			t.metUnloaded = true
		}
		under := t.tab.spans[below.shape][fpCenter]
		switch {
		case !under.empty() && under.hi >= 1-eps && under.hi <= 1+eps:
			if below.flags&fHazard != 0 {
				t.metHazard = true
				return spot{} // magma, a campfire
			}
			s.speed = below.speed
			s.lowJump = below.flags&fLowJump != 0
		case here.flags&fWater != 0:
			s.kind = spotSwim
		case here.flags&fClimb != 0:
			s.kind = spotClimb
		default:
			return spot{} // nothing to stand on here (or a fence's top)
		}
	}
	if here.flags&fWater != 0 && s.kind == spotGround {
		s.kind = spotWading
	}
	ok, opened := t.clearSpan(x, z, fpCenter, float64(y)+float64(s.floor), float64(y)+float64(s.floor)+playerHeight, t.doors)
	if !ok {
		return spot{}
	}
	s.door = s.door || opened
	return s
}

// bodyClear says whether nothing in the column of cells at (x, z)
// collides with a player's box over footprint fp between absolute heights
// lo and hi, and nothing there hurts (with open, closed wooden doors and
// gates count as opened). A fence or wall below lo reaching into it counts.
func (t *Terrain) bodyClear(x, z int, fp footprint, lo, hi float64, open bool) bool {
	ok, _ := t.clearSpan(x, z, fp, lo, hi, open)
	return ok
}

// clearSpan is bodyClear that also says whether a door or gate had to be
// opened for it.
func (t *Terrain) clearSpan(x, z int, fp footprint, lo, hi float64, open bool) (ok, opened bool) {
	first := int(math.Floor(lo))
	last := int(math.Floor(hi - eps))
	// A fence, wall or gate below reaches up to half a block into the
	// lowest cell.
	if f := t.facts(x, first-1, z); f.flags&fLoaded != 0 {
		reaches := func(sp span) bool { return !sp.empty() && float64(sp.hi)-1 > lo-float64(first)+eps }
		if reaches(t.spans(f.shape, fp)) {
			if !open || f.flags&fOpenable == 0 || reaches(t.spans(f.open, fp)) {
				return false, false
			}
			opened = true
		}
	}
	for y := first; y <= last; y++ {
		f := t.facts(x, y, z)
		if f.flags&fLoaded == 0 {
			t.metUnloaded = true
			return false, false
		}
		if f.flags&fHazard != 0 {
			t.metHazard = true
			return false, false
		}
		sp := t.spans(f.shape, fp)
		if !sp.empty() {
			base := float64(y)
			if float64(sp.lo)+base < hi-eps && float64(sp.hi)+base > lo+eps {
				if !open || f.flags&fOpenable == 0 {
					return false, false
				}
				sp = t.spans(f.open, fp)
				if !sp.empty() && float64(sp.lo)+base < hi-eps && float64(sp.hi)+base > lo+eps {
					return false, false
				}
				opened = true
			}
		}
	}
	return true, opened
}

// side is what a diagonal step meets in a block beside its line.
type side uint8

const (
	sideClear side = iota // nothing in the way
	sideSolid             // a block the player slides along
	sideBad               // something harmful, or not loaded: keep off
)

// sideOf classifies a column beside a diagonal step over footprint fp
// between absolute heights lo and hi.
func (t *Terrain) sideOf(x, z int, fp footprint, lo, hi float64) side {
	out := sideClear
	first, last := int(math.Floor(lo)), int(math.Floor(hi-eps))
	if f := t.facts(x, first-1, z); f.flags&fLoaded != 0 {
		if sp := t.spans(f.shape, fp); !sp.empty() && float64(sp.hi)-1 > lo-float64(first)+eps {
			out = sideSolid
		}
	}
	for y := first; y <= last; y++ {
		f := t.facts(x, y, z)
		if f.flags&fLoaded == 0 {
			t.metUnloaded = true
			return sideBad
		}
		if f.flags&fHazard != 0 {
			t.metHazard = true
			return sideBad
		}
		if sp := t.spans(f.shape, fp); !sp.empty() && float64(sp.lo)+float64(y) < hi-eps && float64(sp.hi)+float64(y) > lo+eps {
			out = sideSolid
		}
	}
	return out
}

func (t *Terrain) spans(shape uint16, fp footprint) span { return t.tab.spans[shape][fp] }

func (t *Terrain) spanOf(f stateFacts, fp footprint, open bool) span {
	if open && f.flags&fOpenable != 0 {
		return t.tab.spans[f.open][fp]
	}
	return t.tab.spans[f.shape][fp]
}

// Node is a place the player can stand (or swim, or hang on a ladder):
// the block its feet are in and the height of its feet.
type Node struct {
	Pos world.BlockPos
	// Floor is the absolute height of the feet: Pos.Y, or a little more on
	// a slab, a carpet, a snow layer or soul sand.
	Floor float64
	// Water is set when the feet are in water; Swimming when there is also
	// nothing under them. Climbing is set on a ladder or vine.
	Water, Swimming, Climbing bool
}

func (s spot) node(p world.BlockPos) Node {
	return Node{Pos: p, Floor: float64(p.Y) + float64(s.floor), Water: s.water(), Swimming: s.kind == spotSwim, Climbing: s.kind == spotClimb}
}

// Stand says whether a player can stay with its feet in block p, and
// where: the question every move asks of where it ends. Extensions (digging
// and bridging moves) ask it too.
func (t *Terrain) Stand(p world.BlockPos) (Node, bool) {
	s := t.stand(p.X, p.Y, p.Z)
	return s.node(p), s.kind != spotNone
}

// Clear says whether a player's body fits in the middle of the column of
// blocks at p's x and z between absolute heights lo and hi, with nothing
// there that hurts.
func (t *Terrain) Clear(p world.BlockPos, lo, hi float64) bool {
	return t.bodyClear(p.X, p.Z, fpCenter, lo, hi, false)
}

// Loaded says whether p's column is loaded.
func (t *Terrain) Loaded(p world.BlockPos) bool {
	return t.view.Column(p.Chunk()) != nil
}

// roomy says whether a player might pass through part of a block, for
// the enclosure test, which must never find closed what a player could
// pass: over footprint fp the block's collision leaves some height free
// (a carpet, a slab or nothing; an openable door or gate counts as open),
// and it is not lava. loaded is false for an unloaded block.
func (t *Terrain) roomy(x, y, z int, fp footprint) (roomy, loaded bool) {
	f := t.facts(x, y, z)
	if f.flags&fLoaded == 0 {
		return false, y < t.minY // below the world is closed, not unknown
	}
	if f.flags&fLava != 0 {
		return false, true
	}
	sp := t.spanOf(f, fp, true)
	return sp.empty() || sp.lo > eps || sp.hi < 1-eps, true
}
