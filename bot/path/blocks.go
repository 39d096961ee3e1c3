package path

import (
	"strings"
	"sync"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// The planner asks the same few questions of every block it looks at: does
// it collide with a player standing here or passing through, does it hurt,
// is it water, a ladder, a door it can open, how fast does it let the
// player walk. table answers them for every block state of one version
// with two slice lookups, computed once from the collision shapes and the
// block physics of bot/mcdata.

// footprint is a horizontal rectangle of a block cell the player's box
// covers: standing in the middle of the cell (the centre 0.6×0.6), sweeping
// from the centre across one face or two (a straight or a diagonal step),
// or the 0.3×0.3 corner a diagonal step clips in the cells beside it.
type footprint uint8

const (
	// sweep(dx, dz) is (dx+1)*3 + dz+1: the centre is sweep(0, 0).
	fpCenter footprint = 4
	// corner(sx, sz) is 9 + 2*[sx>0] + [sz>0]; nearHalf(dx, dz) is 13 +
	// the index of (dx, dz) in cardinals.
	numFootprints = 17
)

// nearHalf is the footprint of the half of a block a player walking in
// direction (dx, dz) (one of them zero) enters first: where the lower
// step of a stairs block is when the stairs rise that way.
func nearHalf(dx, dz int) footprint {
	switch {
	case dx > 0:
		return 13
	case dx < 0:
		return 14
	case dz > 0:
		return 15
	}
	return 16
}

// sweep is the footprint of a player moving from the cell's centre toward
// (dx, dz) (each -1, 0 or 1), or arriving from the opposite side.
func sweep(dx, dz int) footprint { return footprint((dx+1)*3 + dz + 1) }

// corner is the footprint of the 0.3×0.3 corner of a cell toward (sx, sz):
// what a diagonal step's box clips in the two cells beside its line.
func corner(sx, sz int) footprint {
	f := footprint(9)
	if sx > 0 {
		f += 2
	}
	if sz > 0 {
		f++
	}
	return f
}

// half is the player's half width: its box is 0.6 wide.
const half = 0.3

// rect returns a footprint's rectangle in block-local coordinates.
func (f footprint) rect() (x0, z0, x1, z1 float64) {
	span := func(d int) (float64, float64) {
		switch {
		case d > 0:
			return 0.5 - half, 1
		case d < 0:
			return 0, 0.5 + half
		}
		return 0.5 - half, 0.5 + half
	}
	cornerSpan := func(s bool) (float64, float64) {
		if s {
			return 1 - half, 1
		}
		return 0, half
	}
	if f < 9 {
		dx, dz := int(f)/3-1, int(f)%3-1
		x0, x1 = span(dx)
		z0, z1 = span(dz)
		return
	}
	if f >= 13 {
		x0, z0, x1, z1 = 0.5-half, 0.5-half, 0.5+half, 0.5+half
		switch f {
		case 13: // walking east: the west half
			x0, x1 = 0, 0.5
		case 14:
			x0, x1 = 0.5, 1
		case 15: // walking south: the north half
			z0, z1 = 0, 0.5
		case 16:
			z0, z1 = 0.5, 1
		}
		return
	}
	x0, x1 = cornerSpan((f-9)&2 != 0)
	z0, z1 = cornerSpan((f-9)&1 != 0)
	return
}

// span is the heights, in the cell's own coordinates, that a shape's
// boxes fill over one footprint: from lo to hi (one interval, the hull of
// the boxes). Empty is lo > hi. A fence or a wall reaches 1.5.
type span struct{ lo, hi float32 }

func (s span) empty() bool { return s.lo > s.hi }

var noSpan = span{lo: 2, hi: -1}

// shapeSpans are a shape's spans over every footprint.
type shapeSpans [numFootprints]span

// Facts about one block state.
const (
	fWater    uint16 = 1 << iota // holds water (a water block, waterlogged, kelp …)
	fLava                        // holds lava
	fHazard                      // hurts or traps a player in or on it: lava, fire, cactus, magma, berry bushes, powder snow, wither roses, cobwebs, campfires
	fClimb                       // a ladder, vine or other climbable block
	fOpenable                    // a closed wooden door or fence gate the player opens by hand
	fSlow                        // slows walking on it (soul sand, honey)
	fLowJump                     // weakens a jump from it (honey)
	fLoaded                      // set on every fact read from a loaded block (a zero fact is an unloaded block)
	fFalls                       // falls when the block under it goes (sand, gravel, concrete powder, anvils): digging under it brings it down
)

// stateFacts is what the planner knows of a block state.
type stateFacts struct {
	shape uint16 // index into table.spans
	// open is the shape of the open door or gate for an openable state,
	// else shape.
	open  uint16
	flags uint16
	// speed is the block's speed factor (0.4 on soul sand and honey).
	speed float32
}

// table is every state's facts for one version.
type table struct {
	game  *mcdata.GameData
	facts []stateFacts
	spans []shapeSpans
}

var tables sync.Map // *mcdata.GameData → *table

// tableFor returns the facts of a version, computing them on first use.
func tableFor(g *mcdata.GameData) *table {
	if t, ok := tables.Load(g); ok {
		return t.(*table)
	}
	t, _ := tables.LoadOrStore(g, buildTable(g))
	return t.(*table)
}

func buildTable(g *mcdata.GameData) *table {
	t := &table{game: g, facts: make([]stateFacts, g.NumStates())}
	byValue := map[shapeSpans]uint16{}
	byShape := map[*mcdata.AABB]uint16{}
	intern := func(boxes []mcdata.AABB) uint16 {
		if len(boxes) > 0 {
			if i, ok := byShape[&boxes[0]]; ok {
				return i
			}
		}
		s := spansOf(boxes)
		i, ok := byValue[s]
		if !ok {
			i = uint16(len(t.spans))
			t.spans = append(t.spans, s)
			byValue[s] = i
		}
		if len(boxes) > 0 {
			byShape[&boxes[0]] = i
		}
		return i
	}
	intern(nil) // index 0: no collision
	for i := range g.Blocks {
		b := &g.Blocks[i]
		var flags uint16
		ph := b.Physics
		if ph.Hurts || ph.Stuck != [3]float64{} {
			flags |= fHazard
		}
		if ph.Climbable {
			flags |= fClimb
		}
		if ph.SpeedFactor < 1 {
			flags |= fSlow
		}
		if ph.JumpFactor < 1 {
			flags |= fLowJump
		}
		if falls(b.Name) {
			flags |= fFalls
		}
		openable := strings.HasSuffix(b.Name, "_fence_gate") ||
			strings.HasSuffix(b.Name, "_door") && b.Name != "iron_door"
		openProp := -1
		if openable {
			_, openProp = b.Prop("open")
		}
		for s := b.MinState; s <= b.MaxState; s++ {
			f := stateFacts{flags: flags | fLoaded, speed: ph.SpeedFactor}
			switch g.Fluid(s).Kind {
			case mcdata.Water:
				f.flags |= fWater
			case mcdata.Lava:
				f.flags |= fLava | fHazard
			}
			f.shape = intern(g.Shapes(s))
			f.open = f.shape
			if openProp >= 0 {
				st := mcdata.BlockState{ID: s, Block: b}
				if v, _ := st.Value("open"); v == "false" {
					if alt, ok := openVariant(st, openProp); ok {
						f.flags |= fOpenable
						f.open = intern(g.Shapes(alt))
					}
				}
			}
			t.facts[s] = f
		}
	}
	return t
}

// falls says whether a block falls when nothing holds it up (the game's
// FallingBlock subclasses a path meets: sand, gravel, concrete powder,
// anvils, the dragon egg).
func falls(name string) bool {
	switch name {
	case "sand", "red_sand", "gravel", "suspicious_sand", "suspicious_gravel",
		"anvil", "chipped_anvil", "damaged_anvil", "dragon_egg":
		return true
	}
	return strings.HasSuffix(name, "_concrete_powder")
}

// openVariant is the state that differs from st only by open=true.
func openVariant(st mcdata.BlockState, openProp int) (mcdata.StateID, bool) {
	b := st.Block
	for s := b.MinState; s <= b.MaxState; s++ {
		o := mcdata.BlockState{ID: s, Block: b}
		same := true
		for i := range b.Props {
			if i == openProp {
				if b.Props[i].Values[o.ValueIndex(i)] != "true" {
					same = false
				}
			} else if o.ValueIndex(i) != st.ValueIndex(i) {
				same = false
			}
			if !same {
				break
			}
		}
		if same {
			return s, true
		}
	}
	return 0, false
}

// spansOf computes a shape's spans over every footprint. Boxes touching a
// footprint only along an edge do not count: the player slides past them.
func spansOf(boxes []mcdata.AABB) shapeSpans {
	const eps = 1e-7
	var out shapeSpans
	for f := footprint(0); f < numFootprints; f++ {
		x0, z0, x1, z1 := f.rect()
		s := noSpan
		for _, b := range boxes {
			if b.MinX < x1-eps && b.MaxX > x0+eps && b.MinZ < z1-eps && b.MaxZ > z0+eps {
				s.lo = min(s.lo, float32(b.MinY))
				s.hi = max(s.hi, float32(b.MaxY))
			}
		}
		out[f] = s
	}
	return out
}
