package physics

import (
	"github.com/blockmate/blockmate/bot/mcdata"
)

// What movement needs to know of each block state, flattened into one table
// per game version so a tick does two slice reads per block: the flags
// below, and the block's friction and speed and jump factors.

const (
	fAir uint32 = 1 << iota
	fClimbable
	fLadder
	fTrapdoor
	fOpen
	fFence     // #minecraft:fences
	fWallGate  // #minecraft:walls or a fence gate
	fWater     // the water block itself (Blocks.WATER)
	fBubble    // a bubble column
	fDragDown  // a bubble column that pulls down (drag=true)
	fScaffold  // scaffolding
	fBottom    // scaffolding's bottom=true
	fPowder    // powder snow
	fHoney     // honey block
	fSlime     // slime block
	fBed       // any bed
	fCobweb    // cobweb
	fBerry     // sweet berry bush
	fSolid     // BlockState.blocksMotion()
	fIce       // IceBlock
	fLarge     // the collision shape leaves the unit cube (fences, walls)
	fFullCube  // the collision shape is exactly the unit cube
	fNoShape   // no collision shape
	fResetFall // #minecraft:fall_damage_resetting (climbables, berry bush, cobweb)
	fSturdyN   // face sturdy towards north (−Z); the next three follow
	fSturdyE
	fSturdyS
	fSturdyW
	fDistance0 // scaffolding's distance=0
)

// facingShift is where a ladder's or trapdoor's facing (0 north, 1 east, 2
// south, 3 west) is kept in the flags.
const facingShift = 30

type stateInfo struct {
	flags                  uint32
	friction, speed, jump  float32
	stuckX, stuckY, stuckZ float64
	fluidKind              mcdata.FluidKind
	fluidAmount            uint8
	falling                bool
	// shape indexes blockTable.shapes: the state's collision boxes.
	shape uint32
}

type blockTable struct {
	g      *mcdata.GameData
	states []stateInfo
	air    stateInfo
	// scaffoldBottom is UNSTABLE_SHAPE_BOTTOM, the 2-pixel floor of a
	// hanging scaffolding block; powderFalling is powder snow's
	// FALLING_COLLISION_SHAPE.
	scaffoldBottom, powderFalling []AABB
	full                          []AABB
	// shapes are the distinct collision shapes of the version, in block
	// coordinates.
	shapes [][]AABB
	// ring says which neighbours of a queried box's blocks can hold a
	// shape reaching into it: x and z (a shape wider than its block), below
	// (taller than its block, as fences and walls are) and above (reaching
	// under its block). The game searches a one-block ring all round; only
	// the sides some shape can reach from matter.
	ringX, ringZ, ringBelow, ringAbove int
}

func newBlockTable(g *mcdata.GameData) *blockTable {
	t := &blockTable{
		g:              g,
		states:         make([]stateInfo, g.NumStates()),
		scaffoldBottom: []AABB{{0, 0, 0, 1, 2.0 / 16, 1}},
		powderFalling:  []AABB{{0, 0, 0, 1, 0.9, 1}},
		full:           []AABB{{0, 0, 0, 1, 1, 1}},
	}
	named := func(name string) mcdata.BlockID {
		if b := g.BlockByName(name); b != nil {
			return b.ID
		}
		return -1
	}
	water, bubble, scaffold := named("water"), named("bubble_column"), named("scaffolding")
	powder, honey, slime := named("powder_snow"), named("honey_block"), named("slime_block")
	cobweb, berry, ladder := named("cobweb"), named("sweet_berry_bush"), named("ladder")
	shapeIndex := map[*mcdata.AABB]uint32{}
	t.shapes = [][]AABB{nil}
	for i := range t.states {
		s := mcdata.StateID(i)
		st, _ := g.StateByID(s)
		b := st.Block
		p := &b.Physics
		info := stateInfo{friction: p.Friction, speed: p.SpeedFactor, jump: p.JumpFactor}
		var f uint32
		if g.IsAir(s) {
			f |= fAir
		}
		if p.Climbable {
			f |= fClimbable | fResetFall
		}
		if p.Trapdoor {
			f |= fTrapdoor
		}
		if p.Fence {
			f |= fFence
		}
		if p.Wall || p.FenceGate {
			f |= fWallGate
		}
		if p.Bed {
			f |= fBed
		}
		if p.Ice {
			f |= fIce
		}
		switch b.ID {
		case water:
			f |= fWater
		case bubble:
			f |= fBubble
			if v, _ := st.Value("drag"); v == "true" {
				f |= fDragDown
			}
		case scaffold:
			f |= fScaffold
			if v, _ := st.Value("bottom"); v == "true" {
				f |= fBottom
			}
			if v, _ := st.Value("distance"); v == "0" {
				f |= fDistance0
			}
		case powder:
			f |= fPowder
		case honey:
			f |= fHoney
		case slime:
			f |= fSlime
		case cobweb:
			f |= fCobweb | fResetFall
		case berry:
			f |= fBerry | fResetFall
		case ladder:
			f |= fLadder
		}
		if f&(fLadder|fTrapdoor) != 0 {
			if v, ok := st.Value("facing"); ok {
				f |= uint32(facingIndex(v)) << facingShift
			}
			if v, _ := st.Value("open"); v == "true" {
				f |= fOpen
			}
		}
		info.stuckX, info.stuckY, info.stuckZ = p.Stuck[0], p.Stuck[1], p.Stuck[2]
		fl := g.Fluid(s)
		info.fluidKind = fl.Kind
		if fl.Kind != mcdata.NoFluid {
			// LiquidBlock.getFluidState: level 0 is a source (amount 8),
			// 1–7 flowing with amount 8−level, 8–15 falling with amount 8.
			info.fluidAmount = 8
			if fl.Level >= 1 && fl.Level <= 7 {
				info.fluidAmount = 8 - fl.Level
			}
			info.falling = fl.Level >= 8
		}
		var shapes []AABB
		if src := g.Shapes(s); len(src) > 0 {
			idx, ok := shapeIndex[&src[0]]
			if !ok {
				idx = uint32(len(t.shapes))
				shapeIndex[&src[0]] = idx
				boxes := make([]AABB, len(src))
				for j, b := range src {
					boxes[j] = AABB(b)
				}
				t.shapes = append(t.shapes, boxes)
			}
			info.shape = idx
			shapes = t.shapes[idx]
		}
		f |= shapeFlags(shapes)
		if f&fNoShape == 0 && b.ID != cobweb && b.Name != "bamboo_sapling" && legacySolid(shapes) {
			f |= fSolid
		}
		info.flags = f
		t.states[i] = info
	}
	t.air = t.states[0]
	for _, boxes := range t.shapes {
		for _, b := range boxes {
			if b.MinX < 0 || b.MaxX > 1 {
				t.ringX = 1
			}
			if b.MinZ < 0 || b.MaxZ > 1 {
				t.ringZ = 1
			}
			if b.MaxY > 1 {
				t.ringBelow = 1
			}
			if b.MinY < 0 {
				t.ringAbove = 1
			}
		}
	}
	return t
}

func facingIndex(v string) int {
	switch v {
	case "east":
		return 1
	case "south":
		return 2
	case "west":
		return 3
	}
	return 0
}

// shapeFlags classifies a collision shape: empty, the unit cube, reaching
// out of the unit cube (BlockState.hasLargeCollisionShape, which widens the
// search for colliders by a block) and which side faces are sturdy.
func shapeFlags(shapes []AABB) uint32 {
	if len(shapes) == 0 {
		return fNoShape
	}
	var f uint32
	if len(shapes) == 1 && shapes[0] == (AABB{0, 0, 0, 1, 1, 1}) {
		f |= fFullCube
	}
	for _, b := range shapes {
		if b.MinX < 0 || b.MinY < 0 || b.MinZ < 0 || b.MaxX > 1 || b.MaxY > 1 || b.MaxZ > 1 {
			f |= fLarge
		}
		// A face is sturdy when one box covers it whole (an approximation
		// of Block.isFaceSturdy's FULL support type: the game compares the
		// support shape's face with the full square).
		fullY := b.MinY <= 0 && b.MaxY >= 1
		if fullY && b.MinX <= 0 && b.MaxX >= 1 {
			if b.MinZ <= 0 {
				f |= fSturdyN
			}
			if b.MaxZ >= 1 {
				f |= fSturdyS
			}
		}
		if fullY && b.MinZ <= 0 && b.MaxZ >= 1 {
			if b.MinX <= 0 {
				f |= fSturdyW
			}
			if b.MaxX >= 1 {
				f |= fSturdyE
			}
		}
	}
	return f
}

// legacySolid is BlockBehaviour.calculateSolid for the blocks that do not
// force it: a collision shape whose bounds average at least 0.7291666 on
// a side, or that is a full block tall.
func legacySolid(shapes []AABB) bool {
	b := shapes[0]
	for _, s := range shapes[1:] {
		b.MinX, b.MinY, b.MinZ = min(b.MinX, s.MinX), min(b.MinY, s.MinY), min(b.MinZ, s.MinZ)
		b.MaxX, b.MaxY, b.MaxZ = max(b.MaxX, s.MaxX), max(b.MaxY, s.MaxY), max(b.MaxZ, s.MaxZ)
	}
	size := ((b.MaxX - b.MinX) + (b.MaxY - b.MinY) + (b.MaxZ - b.MinZ)) / 3
	return size >= 0.7291666666666666 || b.MaxY-b.MinY >= 1
}

func (t *blockTable) info(s mcdata.StateID) *stateInfo {
	if uint32(s) >= uint32(len(t.states)) {
		return &t.air
	}
	return &t.states[s]
}

// fluidHeight of a fluid state's own level (FlowingFluid.getOwnHeight):
// amount/9.
func (i *stateInfo) ownHeight() float32 {
	if i.fluidKind == mcdata.NoFluid {
		return 0
	}
	return float32(i.fluidAmount) / 9.0
}
