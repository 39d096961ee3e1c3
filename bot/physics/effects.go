package physics

import (
	"math"

	"github.com/blockmate/blockmate/bot/world"
)

// applyEffectsFromBlocks is Entity.applyEffectsFromBlocks (1.21.2 on): the
// block stood on, then the blocks passed through this tick.
func (t *tick) applyEffectsFromBlocks() {
	if t.s.OnGround {
		t.stepOn(t.at(t.onPos(0.2)))
	}
	t.checkInsideBlocks(true)
}

// checkInsideBlocks applies the blocks the player's box is inside:
// cobwebs, berry bushes and powder snow hold it back, bubble columns push
// it, honey slows a slide. Before 1.21.2 (Entity.checkInsideBlocks) these
// are the blocks the box touches now; from 1.21.2 (path true) those the box
// swept through since the tick began, each once (BlockGetter.boxTraverseBlocks).
func (t *tick) checkInsideBlocks(path bool) {
	s := &t.s
	if !path {
		b := t.box()
		lo := Vec3{b.MinX + 1e-7, b.MinY + 1e-7, b.MinZ + 1e-7}.Block()
		hi := Vec3{b.MaxX - 1e-7, b.MaxY - 1e-7, b.MaxZ - 1e-7}.Block()
		if !t.blocksLoaded(lo, hi) {
			return
		}
		for x := lo.X; x <= hi.X; x++ {
			for y := lo.Y; y <= hi.Y; y++ {
				for z := lo.Z; z <= hi.Z; z++ {
					t.entityInside(x, y, z)
				}
			}
		}
		return
	}
	d := float64(float32(1e-5))
	b := t.box().Inflate(-d, -d, -d)
	lo := Vec3{b.MinX, b.MinY, b.MinZ}.Block()
	hi := Vec3{b.MaxX, b.MaxY, b.MaxZ}.Block()
	move := s.Pos.Sub(t.start)
	if move.LengthSqr() < f32(0.99999)*f32(0.99999) || hi.X-lo.X > maxSpan {
		for x := lo.X; x <= hi.X; x++ {
			for y := lo.Y; y <= hi.Y; y++ {
				for z := lo.Z; z <= hi.Z; z++ {
					t.entityInside(x, y, z)
				}
			}
		}
		return
	}
	// A fast tick (a block or more): every block the box swept through, once.
	sweep := b.ExpandTowards(-move.X, -move.Y, -move.Z)
	lo, hi = Vec3{sweep.MinX, sweep.MinY, sweep.MinZ}.Block(), Vec3{sweep.MaxX, sweep.MaxY, sweep.MaxZ}.Block()
	for x := lo.X; x <= hi.X; x++ {
		for y := lo.Y; y <= hi.Y; y++ {
			for z := lo.Z; z <= hi.Z; z++ {
				if t.sweptThrough(x, y, z, b, move) {
					t.entityInside(x, y, z)
				}
			}
		}
	}
}

// sweptThrough says whether block (x,y,z) meets box b moved back along move
// at some point of the move (the swept volume, tested exactly by slab
// intersection of the block grown by the box's size with the box's
// corner's path).
func (t *tick) sweptThrough(x, y, z int, b AABB, move Vec3) bool {
	lo, hi := 0.0, 1.0
	axis := func(bmin, bmax, d float64, c int) bool {
		// The corner runs from bmin−d to bmin; the block (grown by the
		// box's extent) spans [c−(bmax−bmin), c+1].
		start := bmin - d
		lo0, hi0 := float64(c)-(bmax-bmin), float64(c)+1
		if d == 0 {
			return start <= hi0 && start >= lo0
		}
		t0, t1 := (lo0-start)/d, (hi0-start)/d
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		lo, hi = math.Max(lo, t0), math.Min(hi, t1)
		return lo <= hi
	}
	return axis(b.MinX, b.MaxX, move.X, x) && axis(b.MinY, b.MaxY, move.Y, y) && axis(b.MinZ, b.MaxZ, move.Z, z)
}

func (t *tick) blocksLoaded(lo, hi world.BlockPos) bool {
	for cx := lo.X >> 4; cx <= hi.X>>4; cx++ {
		for cz := lo.Z >> 4; cz <= hi.Z>>4; cz++ {
			if !t.r.loaded(cx<<4, cz<<4) {
				return false
			}
		}
	}
	return true
}

// entityInside is BlockBehaviour.entityInside of the blocks that move a
// player.
func (t *tick) entityInside(x, y, z int) {
	s := &t.s
	in := t.r.info(x, y, z)
	f := in.flags
	switch {
	case f&(fCobweb|fBerry) != 0:
		// WebBlock, SweetBerryBushBlock: makeStuckInBlock.
		t.stuck(Vec3{in.stuckX, in.stuckY, in.stuckZ})
	case f&fPowder != 0:
		// PowderSnowBlock: stuck only while the player's own position is in
		// powder snow.
		if t.inBlock().flags&fPowder != 0 {
			t.stuck(Vec3{in.stuckX, in.stuckY, in.stuckZ})
		}
		s.InPowderSnow = true
	case f&fBubble != 0:
		above := t.r.info(x, y+1, z)
		free := above.flags&fAir != 0
		if t.rules.fluidTracker {
			// 26.1: nothing above means no collision shape and no fluid.
			free = above.flags&fNoShape != 0 && above.fluidKind == 0
		}
		down := f&fDragDown != 0
		if free {
			// Entity.onAboveBubbleCol.
			if down {
				s.Vel.Y = max(-0.9, s.Vel.Y-0.03)
			} else {
				s.Vel.Y = min(1.8, s.Vel.Y+0.1)
			}
		} else {
			// Entity.onInsideBubbleColumn.
			if down {
				s.Vel.Y = max(-0.3, s.Vel.Y-0.03)
			} else {
				s.Vel.Y = min(0.7, s.Vel.Y+0.06)
			}
			s.FallDistance = 0
		}
	case f&fHoney != 0:
		t.honeySlide(x, y, z)
	}
}

func (t *tick) stuck(v Vec3) {
	t.s.FallDistance = 0
	t.s.Stuck = v
}

// honeySlide is HoneyBlock.entityInside: a player falling beside a honey
// block slides down it slowly. From 1.21.2 the block sees the motion after
// friction and gravity, and undoes them for its test (getOldDeltaY).
func (t *tick) honeySlide(x, y, z int) {
	s := &t.s
	old := func(dy float64) float64 { return dy }
	newY := func(dy float64) float64 { return dy }
	if t.rules.effectsAfterTravel {
		old = func(dy float64) float64 { return dy/f32(0.98) + 0.08 }
		newY = func(dy float64) float64 { return (dy - 0.08) * f32(0.98) }
	}
	if s.OnGround || s.Pos.Y > float64(y)+0.9375-1e-7 || old(s.Vel.Y) >= -0.08 {
		return
	}
	dx := math.Abs(float64(x) + 0.5 - s.Pos.X)
	dz := math.Abs(float64(z) + 0.5 - s.Pos.Z)
	w, _, _ := s.Pose.Size()
	reach := 0.4375 + float64(float32(w)/2)
	if !(dx+1e-7 > reach || dz+1e-7 > reach) {
		return
	}
	if o := old(s.Vel.Y); o < -0.13 {
		k := -0.05 / o
		s.Vel = Vec3{s.Vel.X * k, newY(-0.05), s.Vel.Z * k}
	} else {
		s.Vel.Y = newY(-0.05)
	}
	s.FallDistance = 0
}
