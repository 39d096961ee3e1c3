package physics

import (
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// ctx is what the collision shapes of a few blocks depend on: where the
// entity's feet were when the collision query began, whether it is
// descending (sneaking), its fall distance and its boots
// (EntityCollisionContext; PowderSnowBlock and ScaffoldingBlock read it).
type ctx struct {
	bottom       float64
	descending   bool
	fallDistance float64
	leatherBoots bool
}

// reader reads blocks for one Step or query: the world, the engine's
// tables, and a small cache. A tick reads the same few dozen blocks many
// times (collision, step-up, the supporting block, fluids, poses), and the
// world cannot change during a Step, so each is asked of the world once.
type reader struct {
	e      *Engine
	w      World
	cached bool
	cache  [cacheSize]cacheEntry
	// view is w when it is a snapshot of the bot's store, read column by
	// column without the map look-up per block; col is the last column
	// read.
	view *world.View
	minY int
	cols [4]struct {
		pos world.ChunkPos
		col *world.Column
		ok  bool
	}
	nextCol int
}

// newReader prepares a reader; cached readers remember every block they
// read.
func newReader(e *Engine, w World, cached bool) reader {
	r := reader{e: e, w: w, cached: cached}
	r.init()
	return r
}

func (r *reader) init() {
	if v, ok := r.w.(*world.View); ok && v != nil {
		r.view, r.minY = v, v.Layout().MinY
	}
}

// column returns the view's column holding (x, z), or nil; the last four
// columns asked for are remembered (a player near a corner touches four).
func (r *reader) column(x, z int) *world.Column {
	cp := world.ChunkPos{X: int32(x >> 4), Z: int32(z >> 4)}
	for i := range r.cols {
		if c := &r.cols[i]; c.ok && c.pos == cp {
			return c.col
		}
	}
	c := &r.cols[r.nextCol]
	r.nextCol = (r.nextCol + 1) % len(r.cols)
	c.pos, c.col, c.ok = cp, r.view.Column(cp), true
	return c.col
}

// loaded says whether the column holding block (x, z) is loaded.
func (r *reader) loaded(x, z int) bool {
	if r.view != nil {
		return r.column(x, z) != nil
	}
	return columnLoaded(r.w, x, z)
}

// The cache is direct-mapped on the low 3 bits of each coordinate: the
// 8×8×8 blocks around the player never collide.
const cacheSize = 512

type cacheEntry struct {
	x, y, z int32
	s       int32 // state+1; 0 marks an empty entry
}

func (r *reader) state(x, y, z int) mcdata.StateID {
	if r.cached {
		c := &r.cache[(x&7)<<6|(y&7)<<3|z&7]
		if c.s != 0 && c.x == int32(x) && c.y == int32(y) && c.z == int32(z) {
			return mcdata.StateID(c.s - 1)
		}
		s := r.fetch(x, y, z)
		*c = cacheEntry{int32(x), int32(y), int32(z), int32(s) + 1}
		return s
	}
	return r.fetch(x, y, z)
}

func (r *reader) fetch(x, y, z int) mcdata.StateID {
	if r.view != nil {
		col := r.column(x, z)
		if col == nil || y < r.minY {
			return 0
		}
		sec := col.Section((y - r.minY) >> 4)
		if sec == nil {
			return 0
		}
		return sec.Block(x&15, (y-r.minY)&15, z&15)
	}
	s, ok := r.w.BlockAt(world.BlockPos{X: x, Y: y, Z: z})
	if !ok || !r.e.game.ValidState(s) {
		// Unknown blocks (unloaded, or outside the dimension) are air, as
		// the game's collisions treat them.
		return 0
	}
	return s
}

func (r *reader) info(x, y, z int) *stateInfo {
	return r.e.blocks.info(r.state(x, y, z))
}

// shapes returns a state's collision boxes in block coordinates for the
// entity context c.
func (r *reader) shapes(s mcdata.StateID, in *stateInfo, y int, c *ctx) []AABB {
	switch {
	case in.flags&fPowder != 0:
		// PowderSnowBlock.getCollisionShape: a 0.9-tall floor for an entity
		// that fell more than 2.5 blocks; a full block for one in leather
		// boots standing on top and not sneaking; nothing otherwise.
		if c.fallDistance > 2.5 {
			return r.e.blocks.powderFalling
		}
		if c.leatherBoots && c.bottom > float64(y)+1-f32(1e-5) && !c.descending {
			return r.e.blocks.full
		}
		return nil
	case in.flags&fScaffold != 0:
		// ScaffoldingBlock.getCollisionShape: solid from above unless
		// descending; a hanging block's bottom floor from just above its
		// bottom; nothing from inside.
		if c.bottom > float64(y)+1-f32(1e-5) && !c.descending {
			return r.e.blocks.shapes[in.shape]
		}
		if in.flags&fDistance0 == 0 && in.flags&fBottom != 0 && c.bottom > float64(y)-f32(1e-5) {
			return r.e.blocks.scaffoldBottom
		}
		return nil
	}
	return r.e.blocks.shapes[in.shape]
}

// colliders appends to dst the boxes of every block whose collision shape
// overlaps box, in world coordinates (the game's BlockCollisions): the
// blocks the box touches, and the ring around them for shapes taller or
// wider than a block (fences, walls). A block contributes all its boxes
// when any of them overlaps.
func (r *reader) colliders(dst []AABB, box AABB, c *ctx) []AABB {
	t := r.e.blocks
	x0, x1 := floorInt(box.MinX-1e-7)-t.ringX, floorInt(box.MaxX+1e-7)+t.ringX
	y0, y1 := floorInt(box.MinY-1e-7)-t.ringBelow, floorInt(box.MaxY+1e-7)+t.ringAbove
	z0, z1 := floorInt(box.MinZ-1e-7)-t.ringZ, floorInt(box.MaxZ+1e-7)+t.ringZ
	if x1-x0 > maxSpan || y1-y0 > maxSpan || z1-z0 > maxSpan {
		// Step caps the motion of a tick (maxSpeed), so only a caller's
		// query box this large reaches here; it is not worth iterating.
		return dst
	}
	for z := z0; z <= z1; z++ {
		ez := t.ringZ == 1 && (z == z0 || z == z1)
		for y := y0; y <= y1; y++ {
			ey := t.ringBelow == 1 && y == y0 || t.ringAbove == 1 && y == y1
			for x := x0; x <= x1; x++ {
				edges := 0
				if t.ringX == 1 && (x == x0 || x == x1) {
					edges++
				}
				if ey {
					edges++
				}
				if ez {
					edges++
				}
				if edges >= 2 {
					continue
				}
				s := r.state(x, y, z)
				in := t.info(s)
				if in.flags&fNoShape != 0 && in.flags&(fPowder|fScaffold) == 0 {
					continue
				}
				if edges == 1 && in.flags&fLarge == 0 {
					continue
				}
				fx, fy, fz := float64(x), float64(y), float64(z)
				if in.flags&fFullCube != 0 {
					cell := AABB{fx, fy, fz, fx + 1, fy + 1, fz + 1}
					if box.Intersects(cell) {
						dst = append(dst, cell)
					}
					continue
				}
				shapes := r.shapes(s, in, y, c)
				hit := false
				for _, b := range shapes {
					if box.Intersects(b.Move(fx, fy, fz)) {
						hit = true
						break
					}
				}
				if hit {
					for _, b := range shapes {
						dst = append(dst, b.Move(fx, fy, fz))
					}
				}
			}
		}
	}
	return dst
}

// maxSpan bounds the blocks one collision query visits along an axis; a
// tick's movement is capped well below it.
const maxSpan = 64

// maxSpeed caps each axis of the motion Step starts a tick with, in blocks
// per tick. The game has no cap, but nothing a player does comes near it
// (terminal fall speed is 3.92), and it keeps every query box small.
const maxSpeed = 16

// noCollision says whether no block collides with box
// (CollisionGetter.noCollision, block part).
func (r *reader) noCollision(box AABB, c *ctx) bool {
	var buf [16]AABB
	return len(r.colliders(buf[:0], box, c)) == 0
}

// containsAnyLiquid says whether a fluid occupies any block the box touches
// (Level.containsAnyLiquid).
func (r *reader) containsAnyLiquid(box AABB) bool {
	x0, x1 := floorInt(box.MinX), ceilInt(box.MaxX)
	y0, y1 := floorInt(box.MinY), ceilInt(box.MaxY)
	z0, z1 := floorInt(box.MinZ), ceilInt(box.MaxZ)
	if x1-x0 > maxSpan || y1-y0 > maxSpan || z1-z0 > maxSpan {
		return false
	}
	for x := x0; x < x1; x++ {
		for y := y0; y < y1; y++ {
			for z := z0; z < z1; z++ {
				if r.info(x, y, z).fluidKind != mcdata.NoFluid {
					return true
				}
			}
		}
	}
	return false
}

// supportingBlock is CollisionGetter.findSupportingBlock: of the blocks
// colliding with box, the one whose centre is nearest pos (ties to the
// greatest by y, then z, then x).
func (r *reader) supportingBlock(box AABB, pos Vec3, c *ctx) (world.BlockPos, bool) {
	t := r.e.blocks
	x0, x1 := floorInt(box.MinX-1e-7)-t.ringX, floorInt(box.MaxX+1e-7)+t.ringX
	y0, y1 := floorInt(box.MinY-1e-7)-t.ringBelow, floorInt(box.MaxY+1e-7)+t.ringAbove
	z0, z1 := floorInt(box.MinZ-1e-7)-t.ringZ, floorInt(box.MaxZ+1e-7)+t.ringZ
	if x1-x0 > maxSpan || y1-y0 > maxSpan || z1-z0 > maxSpan {
		return world.BlockPos{}, false
	}
	var best world.BlockPos
	found, bestD := false, 0.0
	for z := z0; z <= z1; z++ {
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				edges := 0
				if t.ringX == 1 && (x == x0 || x == x1) {
					edges++
				}
				if t.ringBelow == 1 && y == y0 || t.ringAbove == 1 && y == y1 {
					edges++
				}
				if t.ringZ == 1 && (z == z0 || z == z1) {
					edges++
				}
				if edges >= 2 {
					continue
				}
				s := r.state(x, y, z)
				in := t.info(s)
				if in.flags&fNoShape != 0 && in.flags&(fPowder|fScaffold) == 0 || edges == 1 && in.flags&fLarge == 0 {
					continue
				}
				fx, fy, fz := float64(x), float64(y), float64(z)
				hit := false
				for _, b := range r.shapes(s, in, y, c) {
					if box.Intersects(b.Move(fx, fy, fz)) {
						hit = true
						break
					}
				}
				if !hit {
					continue
				}
				dx, dy, dz := fx+0.5-pos.X, fy+0.5-pos.Y, fz+0.5-pos.Z
				d := dx*dx + dy*dy + dz*dz
				p := world.BlockPos{X: x, Y: y, Z: z}
				if !found || d < bestD || d == bestD && blockPosLess(best, p) {
					best, bestD, found = p, d, true
				}
			}
		}
	}
	return best, found
}

// blockPosLess is Vec3i.compareTo(a, b) < 0: by y, then z, then x.
func blockPosLess(a, b world.BlockPos) bool {
	if a.Y != b.Y {
		return a.Y < b.Y
	}
	if a.Z != b.Z {
		return a.Z < b.Z
	}
	return a.X < b.X
}
