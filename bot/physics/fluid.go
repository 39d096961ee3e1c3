package physics

import (
	"math"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// fluidHeight is FluidState.getHeight: a full block under the same fluid,
// else the fluid's own height.
func (t *tick) fluidHeight(x, y, z int, in *stateInfo) float32 {
	if in.fluidKind == mcdata.NoFluid {
		return 0
	}
	if t.r.info(x, y+1, z).fluidKind == in.fluidKind {
		return 1
	}
	return in.ownHeight()
}

// horizontal is Direction.Plane.HORIZONTAL: north, east, south, west.
var horizontal = [4]struct {
	dx, dz int
	sturdy uint32
}{{0, -1, fSturdyN}, {1, 0, fSturdyE}, {0, 1, fSturdyS}, {-1, 0, fSturdyW}}

// flow is FlowingFluid.getFlow: the direction a fluid block pushes, from
// the height differences to its neighbours, turned downwards for falling
// fluid beside a wall.
func (t *tick) flow(x, y, z int, in *stateInfo) Vec3 {
	var d, e float64
	own := in.ownHeight()
	for _, dir := range horizontal {
		nx, nz := x+dir.dx, z+dir.dz
		n := t.r.info(nx, y, nz)
		if n.fluidKind != mcdata.NoFluid && n.fluidKind != in.fluidKind {
			continue
		}
		f := n.ownHeight()
		var g float32
		if f == 0 {
			if n.flags&fSolid == 0 {
				below := t.r.info(nx, y-1, nz)
				if below.fluidKind == mcdata.NoFluid || below.fluidKind == in.fluidKind {
					f = below.ownHeight()
					if f > 0 {
						g = own - (f - 0.8888889)
					}
				}
			}
		} else if f > 0 {
			g = own - f
		}
		if g != 0 {
			d += float64(float32(dir.dx) * g)
			e += float64(float32(dir.dz) * g)
		}
	}
	v := Vec3{d, 0, e}
	if in.falling {
		for _, dir := range horizontal {
			if t.solidFace(x+dir.dx, y, z+dir.dz, in, dir.sturdy) || t.solidFace(x+dir.dx, y+1, z+dir.dz, in, dir.sturdy) {
				v = v.normalize().Add(Vec3{0, -6, 0})
				break
			}
		}
	}
	return v.normalize()
}

// solidFace is FlowingFluid.isSolidFace for a horizontal direction.
func (t *tick) solidFace(x, y, z int, fluid *stateInfo, sturdy uint32) bool {
	in := t.r.info(x, y, z)
	if in.fluidKind == fluid.fluidKind || in.flags&fIce != 0 {
		return false
	}
	return in.flags&sturdy != 0
}

// touchingUnloadedChunk is Entity.touchingUnloadedChunk.
func (t *tick) touchingUnloadedChunk() bool {
	b := t.box().Inflate(1, 1, 1)
	x0, x1 := floorInt(b.MinX)>>4, ceilInt(b.MaxX)>>4
	z0, z1 := floorInt(b.MinZ)>>4, ceilInt(b.MaxZ)>>4
	for cx := x0; cx <= x1; cx++ {
		for cz := z0; cz <= z1; cz++ {
			if !t.r.loaded(cx<<4, cz<<4) {
				return true
			}
		}
	}
	return false
}

// updateWaterState is Entity.updateInWaterStateAndDoWaterCurrentPushing
// (before 26.1): touching water ends a fall.
func (t *tick) updateWaterState() {
	if t.fluidPush(mcdata.Water, 0.014) {
		t.s.FallDistance = 0
		t.s.InWater = true
	} else {
		t.s.InWater = false
	}
}

// fluidPush is Entity.updateFluidHeightAndDoFluidPushing (before 26.1):
// how deep the player stands in a fluid, and the push of its current. It
// reports whether the player touches the fluid.
func (t *tick) fluidPush(kind mcdata.FluidKind, scale float64) bool {
	s := &t.s
	if t.touchingUnloadedChunk() {
		return false
	}
	b := t.box().Inflate(-0.001, -0.001, -0.001)
	x0, x1 := floorInt(b.MinX), ceilInt(b.MaxX)
	y0, y1 := floorInt(b.MinY), ceilInt(b.MaxY)
	z0, z1 := floorInt(b.MinZ), ceilInt(b.MaxZ)
	depth := 0.0
	touching := false
	var push Vec3
	n := 0
	for x := x0; x < x1; x++ {
		for y := y0; y < y1; y++ {
			for z := z0; z < z1; z++ {
				in := t.r.info(x, y, z)
				if in.fluidKind != kind {
					continue
				}
				top := float64(float32(y) + t.fluidHeight(x, y, z, in))
				if top < b.MinY {
					continue
				}
				touching = true
				depth = max(top-b.MinY, depth)
				f := t.flow(x, y, z, in)
				if depth < 0.4 {
					f = f.Scale(depth)
				}
				push = push.Add(f)
				n++
			}
		}
	}
	if push.Length() > 0 {
		if n > 0 {
			push = push.Scale(1.0 / float64(n))
		}
		push = push.Scale(scale)
		if math.Abs(s.Vel.X) < 0.003 && math.Abs(s.Vel.Z) < 0.003 && push.Length() < 0.0045000000000000005 {
			push = push.normalize().Scale(0.0045000000000000005)
		}
		s.Vel = s.Vel.Add(push)
	}
	if kind == mcdata.Water {
		s.WaterHeight = depth
	} else {
		s.LavaHeight = depth
	}
	return touching
}

// updateEyes is Entity.updateFluidOnEyes (before 26.1): are the eyes under
// the surface of the water in their block?
func (t *tick) updateEyes() {
	s := &t.s
	s.WasEyeInWater = s.EyeInWater
	eye := s.EyePos()
	p := eye.Block()
	in := t.at(p)
	top := float64(float32(p.Y) + t.fluidHeight(p.X, p.Y, p.Z, in))
	s.EyeInWater = in.fluidKind == mcdata.Water && top > eye.Y
}

// updateFluidInteraction is Entity.updateFluidInteraction with
// EntityFluidInteraction (26.1): depths, eyes and currents in one pass.
func (t *tick) updateFluidInteraction() {
	s := &t.s
	b := t.box().Inflate(-0.001, -0.001, -0.001)
	x0, x1 := floorInt(b.MinX), ceilInt(b.MaxX)-1
	y0, y1 := floorInt(b.MinY), ceilInt(b.MaxY)-1
	z0, z1 := floorInt(b.MinZ), ceilInt(b.MaxZ)-1
	type tracker struct {
		height float64
		eyes   bool
		acc    Vec3
		n      int
	}
	var water, lava tracker
	loaded := true
	for cx := (x0 - 1) >> 4; cx <= (x1+1)>>4 && loaded; cx++ {
		for cz := (z0 - 1) >> 4; cz <= (z1+1)>>4; cz++ {
			if !t.r.loaded(cx<<4, cz<<4) {
				loaded = false
				break
			}
		}
	}
	if loaded && x1-x0 < maxSpan && y1-y0 < maxSpan && z1-z0 < maxSpan {
		bottom := s.Pos.Y
		eye := s.EyePos()
		ex, ez := floorInt(s.Pos.X), floorInt(s.Pos.Z)
		for x := x0; x <= x1; x++ {
			for y := y0; y <= y1; y++ {
				for z := z0; z <= z1; z++ {
					in := t.r.info(x, y, z)
					if in.fluidKind == mcdata.NoFluid {
						continue
					}
					lo := float64(y)
					hi := lo + float64(t.fluidHeight(x, y, z, in))
					if hi < b.MinY {
						continue
					}
					tr := &water
					if in.fluidKind == mcdata.Lava {
						tr = &lava
					}
					if x == ex && z == ez && eye.Y >= lo && eye.Y <= hi {
						tr.eyes = true
					}
					tr.height = max(hi-bottom, tr.height)
					f := t.flow(x, y, z, in)
					if tr.height < 0.4 {
						f = f.Scale(tr.height)
					}
					tr.acc = tr.acc.Add(f)
					tr.n++
				}
			}
		}
	}
	s.WaterHeight, s.LavaHeight = water.height, lava.height
	s.EyeInWater = water.eyes
	inWater, inLava := water.height > 0, lava.height > 0
	if inWater {
		s.FallDistance = 0
	}
	s.InWater, s.InLava = inWater, inLava
	apply := func(tr *tracker, scale float64) {
		if tr.n == 0 || tr.acc.LengthSqr() < f32(1e-5) {
			return
		}
		imp := tr.acc.Scale(1.0 / float64(tr.n)).Scale(scale)
		if math.Abs(s.Vel.X) < 0.003 && math.Abs(s.Vel.Z) < 0.003 && imp.Length() < 0.0045000000000000005 {
			imp = imp.normalize().Scale(0.0045000000000000005)
		}
		s.Vel = s.Vel.Add(imp)
	}
	if inWater {
		apply(&water, 0.014)
	}
	if inLava {
		scale := 0.0023333333333333335
		if t.a.FastLava {
			scale = 0.007
		}
		apply(&lava, scale)
	}
}
