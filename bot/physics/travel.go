package physics

import (
	"math"
	"slices"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// travel is Player.travel and LivingEntity.travel: swim towards the look,
// then move through fluid or air.
func (t *tick) travel() {
	s := &t.s
	input := Vec3{float64(t.xxa), 0, float64(t.zza)}
	if s.Swimming {
		// Player.travel: a swimming player drifts towards where it looks.
		d := float64(-t.r.e.trig.sin(s.Pitch * degToRad))
		e := 0.06
		if d < -0.2 {
			e = 0.085
		}
		above := Vec3{s.Pos.X, s.Pos.Y + 1 - 0.1, s.Pos.Z}.Block()
		if d <= 0 || t.jumping || t.at(above).fluidKind != mcdata.NoFluid {
			s.Vel.Y += (d - s.Vel.Y) * e
		}
	}
	if s.InWater || s.InLava {
		t.travelInFluid(input)
	} else {
		t.travelInAir(input)
	}
}

// gravity is LivingEntity.getEffectiveGravity: slow falling caps it at 0.01
// while falling.
func (t *tick) gravity() float64 {
	g := t.a.Gravity
	if t.s.Vel.Y <= 0 && t.a.SlowFalling {
		g = min(g, 0.01)
	}
	return g
}

func (t *tick) travelInFluid(input Vec3) {
	s, a := &t.s, &t.a
	falling := s.Vel.Y <= 0
	oldY := s.Pos.Y
	grav := t.gravity()
	if s.InWater {
		slow := float32(0.8) // getWaterSlowDown
		if s.Sprinting {
			slow = 0.9
		}
		speed := float32(0.02)
		eff := float32(a.WaterMovementEfficiency)
		if !s.OnGround {
			eff *= 0.5
		}
		if eff > 0 {
			slow += (0.54600006 - slow) * eff
			speed += (t.speed() - speed) * eff
		}
		if a.DolphinsGrace {
			slow = 0.96
		}
		t.moveRelative(speed, input)
		t.move(s.Vel)
		v := s.Vel
		if s.HorizontalCollision && t.onClimbable() {
			v.Y = 0.2
		}
		v = Vec3{v.X * float64(slow), v.Y * f32(0.8), v.Z * float64(slow)}
		s.Vel = t.fluidFalling(grav, falling, v)
	} else {
		t.moveRelative(0.02, input)
		t.move(s.Vel)
		if s.LavaHeight <= t.fluidJumpThreshold() {
			s.Vel = Vec3{s.Vel.X * 0.5, s.Vel.Y * f32(0.8), s.Vel.Z * 0.5}
			s.Vel = t.fluidFalling(grav, falling, s.Vel)
		} else {
			s.Vel = s.Vel.Scale(0.5)
		}
		if grav != 0 {
			s.Vel.Y += -grav / 4.0
		}
	}
	// Leave the fluid over a ledge (jump out of water).
	v := s.Vel
	if s.HorizontalCollision && t.isFree(v.X, v.Y+f32(0.6)-s.Pos.Y+oldY, v.Z) {
		s.Vel.Y = f32(0.3)
	}
}

// fluidFalling is LivingEntity.getFluidFallingAdjustedMovement.
func (t *tick) fluidFalling(grav float64, falling bool, v Vec3) Vec3 {
	if grav == 0 || t.s.Sprinting {
		return v
	}
	if falling && math.Abs(v.Y-0.005) >= 0.003 && math.Abs(v.Y-grav/16.0) < 0.003 {
		v.Y = -0.003
	} else {
		v.Y -= grav / 16.0
	}
	return v
}

// isFree is Entity.isFree: the box moved by (x, y, z) collides with no
// block and holds no fluid.
func (t *tick) isFree(x, y, z float64) bool {
	b := t.box().Move(x, y, z)
	c := t.ctx()
	return t.r.noCollision(b, &c) && !t.r.containsAnyLiquid(b)
}

func (t *tick) travelInAir(input Vec3) {
	s, a := &t.s, &t.a
	below := t.onPos(0.500001)
	friction := t.at(below).friction
	inertia := float32(0.91)
	if s.OnGround {
		inertia = friction * 0.91
	}
	grav := 0.0
	if !t.rules.gravityAfterMove {
		grav = t.gravity()
	}
	v := t.handleRelativeFriction(input, friction)
	if t.rules.gravityAfterMove {
		grav = t.gravity()
	}
	q := v.Y
	switch {
	case a.Levitation > 0:
		q += (0.05*float64(a.Levitation) - v.Y) * 0.2
	case t.r.loaded(below.X, below.Z):
		q -= grav
	default:
		// The client gives a player above an unloaded column a fixed fall
		// speed rather than gravity.
		q = -0.1
	}
	s.Vel = Vec3{v.X * float64(inertia), q * f32(0.98), v.Z * float64(inertia)}
}

// handleRelativeFriction is LivingEntity.handleRelativeFrictionAndCalculateMovement.
func (t *tick) handleRelativeFriction(input Vec3, friction float32) Vec3 {
	s := &t.s
	t.moveRelative(t.frictionSpeed(friction), input)
	s.Vel = t.handleOnClimbable(s.Vel)
	t.move(s.Vel)
	v := s.Vel
	powder := t.a.LeatherBoots
	if t.rules.fluidTracker {
		powder = powder && s.WasInPowderSnow
	} else {
		powder = powder && t.inBlock().flags&fPowder != 0
	}
	if (s.HorizontalCollision || t.jumping) && (t.onClimbable() || powder) {
		v.Y = 0.2
	}
	return v
}

// frictionSpeed is LivingEntity.getFrictionInfluencedSpeed with Player's
// flying speed.
func (t *tick) frictionSpeed(friction float32) float32 {
	if t.s.OnGround {
		return t.speed() * (0.21600002 / (friction * friction * friction))
	}
	if t.s.Sprinting {
		return 0.025999999
	}
	return 0.02
}

// moveRelative is Entity.moveRelative: add the input, turned by the yaw and
// scaled to speed.
func (t *tick) moveRelative(speed float32, input Vec3) {
	lsq := input.LengthSqr()
	if lsq < 1e-7 {
		return
	}
	if lsq > 1 {
		input = input.normalize()
	}
	input = input.Scale(float64(speed))
	rad := t.s.Yaw * degToRad
	sin, cos := float64(t.r.e.trig.sin(rad)), float64(t.r.e.trig.cos(rad))
	t.s.Vel.X += float64(input.X*cos) - float64(input.Z*sin)
	t.s.Vel.Y += input.Y
	t.s.Vel.Z += float64(input.Z*cos) + float64(input.X*sin)
}

// onClimbable is LivingEntity.onClimbable: in a climbable block, or in an
// open trapdoor above a ladder facing the same way.
func (t *tick) onClimbable() bool {
	p := t.blockPos()
	in := t.at(p)
	if in.flags&fClimbable != 0 {
		return true
	}
	if in.flags&fTrapdoor != 0 && in.flags&fOpen != 0 {
		below := t.at(world.BlockPos{X: p.X, Y: p.Y - 1, Z: p.Z})
		return below.flags&fLadder != 0 && below.flags>>facingShift == in.flags>>facingShift
	}
	return false
}

// handleOnClimbable caps the motion on a ladder, and holds a sneaking
// player still on it.
func (t *tick) handleOnClimbable(v Vec3) Vec3 {
	if !t.onClimbable() {
		return v
	}
	t.s.FallDistance = 0
	lim := f32(0.15)
	v.X = min(max(v.X, -lim), lim)
	v.Z = min(max(v.Z, -lim), lim)
	v.Y = max(v.Y, -lim)
	if v.Y < 0 && t.inBlock().flags&fScaffold == 0 && t.c.Sneak {
		v.Y = 0
	}
	return v
}

// move is Entity.move for the player's own movement.
func (t *tick) move(delta Vec3) {
	s, r := &t.s, t.rules
	if s.Stuck.LengthSqr() > 1e-7 {
		delta = Vec3{delta.X * s.Stuck.X, delta.Y * s.Stuck.Y, delta.Z * s.Stuck.Z}
		s.Stuck = Vec3{}
		s.Vel = Vec3{}
	}
	delta = t.backOffFromEdge(delta)
	moved := t.collide(delta)
	lsq := moved.LengthSqr()
	if lsq > 1e-7 || r.effectsAfterTravel && delta.LengthSqr()-lsq < 1e-7 {
		if s.FallDistance != 0 && lsq >= 1 && t.clipResetsFall(s.Pos, moved) {
			s.FallDistance = 0
		}
		s.Pos = s.Pos.Add(moved)
	}
	xColl, zColl := !mthEqual(delta.X, moved.X), !mthEqual(delta.Z, moved.Z)
	s.HorizontalCollision = xColl || zColl
	s.VerticalCollision = delta.Y != moved.Y
	below := s.VerticalCollision && delta.Y < 0
	s.MinorHorizontalCollision = s.HorizontalCollision && t.minorCollision(moved)
	s.OnGround = below
	t.checkSupportingBlock(below, moved)
	on := t.at(t.onPos(0.2))
	t.checkFallDamage(moved.Y)
	if s.HorizontalCollision {
		if xColl {
			s.Vel.X = 0
		}
		if zColl {
			s.Vel.Z = 0
		}
	}
	if delta.Y != moved.Y {
		t.afterFallOn(on)
	}
	if !r.effectsAfterTravel {
		if s.OnGround {
			t.stepOn(on)
		}
		t.checkInsideBlocks(false)
	}
	f := float64(t.speedFactor())
	s.Vel.X *= f
	s.Vel.Z *= f
}

// minorCollision is LocalPlayer.isHorizontalCollisionMinor: the movement
// went within 8° of where the player steered.
func (t *tick) minorCollision(moved Vec3) bool {
	rad := t.s.Yaw * degToRad
	d, e := float64(t.r.e.trig.sin(rad)), float64(t.r.e.trig.cos(rad))
	x, z := float64(t.xxa), float64(t.zza)
	g := x*e - z*d
	h := z*e + x*d
	i := g*g + h*h
	j := moved.X*moved.X + moved.Z*moved.Z
	if i < f32(1e-5) || j < f32(1e-5) {
		return false
	}
	k := g*moved.X + h*moved.Z
	return math.Acos(k/math.Sqrt(i*j)) < f32(0.13962634)
}

// checkSupportingBlock is Entity.checkSupportingBlock: which block a player
// on ground stands on.
func (t *tick) checkSupportingBlock(onGround bool, moved Vec3) {
	s := &t.s
	if !onGround {
		s.NoSupportBlocks = false
		s.HasSupport = false
		return
	}
	b := t.box()
	test := AABB{b.MinX, b.MinY - 1e-6, b.MinZ, b.MaxX, b.MinY, b.MaxZ}
	c := t.ctx()
	p, ok := t.r.supportingBlock(test, s.Pos, &c)
	if ok || s.NoSupportBlocks {
		s.Support, s.HasSupport = p, ok
	} else {
		p, ok = t.r.supportingBlock(test.Move(-moved.X, 0, -moved.Z), s.Pos, &c)
		s.Support, s.HasSupport = p, ok
	}
	s.NoSupportBlocks = !ok
}

// checkFallDamage is LivingEntity.checkFallDamage and Entity's: re-check
// the water (which ends a fall), then grow the fall distance or, on
// landing, reset it.
func (t *tick) checkFallDamage(dy float64) {
	s := &t.s
	if !s.InWater {
		if t.rules.fluidTracker {
			t.updateFluidInteraction()
		} else {
			t.updateWaterState()
		}
	}
	if t.rules.fallDouble {
		if !s.InWater && dy < 0 {
			s.FallDistance -= float64(float32(dy))
		}
		if s.OnGround {
			s.ImpactFall = s.FallDistance
			s.FallDistance = 0
		}
		return
	}
	if s.OnGround {
		s.ImpactFall = s.FallDistance
		s.FallDistance = 0
	} else if dy < 0 {
		s.FallDistance = float64(float32(s.FallDistance) - float32(dy))
	}
}

// afterFallOn is Block.updateEntityMovementAfterFallOn for the block under
// the player: slime and beds bounce a falling player (unless it sneaks),
// anything else stops its vertical motion.
func (t *tick) afterFallOn(on *stateInfo) {
	s := &t.s
	switch {
	case on.flags&fSlime != 0 && !t.c.Sneak:
		if s.Vel.Y < 0 {
			s.Vel.Y = -s.Vel.Y
		}
	case on.flags&fBed != 0 && !t.c.Sneak:
		if s.Vel.Y < 0 {
			s.Vel.Y = -s.Vel.Y * f32(0.66)
		}
	default:
		s.Vel.Y = 0
	}
}

// stepOn is Block.stepOn for slime, which brakes a player walking on it.
func (t *tick) stepOn(on *stateInfo) {
	s := &t.s
	if on.flags&fSlime == 0 {
		return
	}
	d := math.Abs(s.Vel.Y)
	if d < 0.1 && !t.c.Sneak {
		e := 0.4 + d*0.2
		s.Vel.X *= e
		s.Vel.Z *= e
	}
}

// backOffFromEdge is Player.maybeBackOffFromEdge: a sneaking player on
// ground does not walk off a ledge higher than its step height.
func (t *tick) backOffFromEdge(delta Vec3) Vec3 {
	f := float32(t.a.StepHeight)
	if delta.Y > 0 || !t.c.Sneak || !t.aboveGround(f) {
		return delta
	}
	dx, dz := delta.X, delta.Z
	const step = 0.05
	sx, sz := math.Copysign(step, dx), math.Copysign(step, dz)
	if dx == 0 {
		sx = 0
	}
	if dz == 0 {
		sz = 0
	}
	for ; dx != 0 && t.canFallAtLeast(dx, 0, f); dx -= sx {
		if math.Abs(dx) <= step {
			dx = 0
			break
		}
	}
	for dz != 0 && t.canFallAtLeast(0, dz, f) {
		if math.Abs(dz) <= step {
			dz = 0
			break
		}
		dz -= sz
	}
	for dx != 0 && dz != 0 && t.canFallAtLeast(dx, dz, f) {
		if math.Abs(dx) <= step {
			dx = 0
		} else {
			dx -= sx
		}
		if math.Abs(dz) <= step {
			dz = 0
		} else {
			dz -= sz
		}
	}
	return Vec3{dx, delta.Y, dz}
}

func (t *tick) aboveGround(f float32) bool {
	s := &t.s
	if s.OnGround {
		return true
	}
	if t.rules.fallDouble {
		return s.FallDistance < float64(f) && !t.canFallAtLeastBy(0, 0, float64(f)-s.FallDistance)
	}
	fd := float32(s.FallDistance)
	return fd < f && !t.canFallAtLeastBy(0, 0, float64(f-fd))
}

func (t *tick) canFallAtLeast(dx, dz float64, f float32) bool {
	return t.canFallAtLeastBy(dx, dz, float64(f))
}

// canFallAtLeastBy is Player.canFallAtLeast: nothing under the box, moved
// by (dx, dz), for depth blocks.
func (t *tick) canFallAtLeastBy(dx, dz, depth float64) bool {
	b := t.box()
	var q AABB
	if t.rules.fallDouble {
		q = AABB{b.MinX + 1e-7 + dx, b.MinY - depth - 1e-7, b.MinZ + 1e-7 + dz, b.MaxX - 1e-7 + dx, b.MinY, b.MaxZ - 1e-7 + dz}
	} else {
		q = AABB{b.MinX + dx, b.MinY - depth - f32(1e-5), b.MinZ + dz, b.MaxX + dx, b.MinY, b.MaxZ + dz}
	}
	c := t.ctx()
	return t.r.noCollision(q, &c)
}

// collide is Entity.collide: clip the movement against the blocks, and step
// up a block edge no higher than the step height when that gets further.
func (t *tick) collide(delta Vec3) Vec3 {
	s := &t.s
	box := t.box()
	c := t.ctx()
	moved := delta
	var colls []AABB
	if delta.LengthSqr() != 0 {
		colls = t.r.colliders(t.buf[:0], box.ExpandTowards(delta.X, delta.Y, delta.Z), &c)
		moved = collideWithShapes(delta, box, colls)
	}
	xc, yc, zc := delta.X != moved.X, delta.Y != moved.Y, delta.Z != moved.Z
	below := yc && delta.Y < 0
	step := float32(t.a.StepHeight)
	if !(step > 0) || !(below || s.OnGround) || !(xc || zc) {
		return moved
	}
	grounded := box
	if below {
		grounded = box.Move(0, moved.Y, 0)
	}
	stepBox := grounded.ExpandTowards(delta.X, float64(step), delta.Z)
	if !below {
		stepBox = stepBox.ExpandTowards(0, f32(-1e-5), 0)
	}
	colls2 := t.r.colliders(t.buf2[:0], stepBox, &c)
	var heights [16]float32
	for _, h := range stepHeights(heights[:0], grounded, colls2, step, float32(moved.Y)) {
		v := collideWithShapes(Vec3{delta.X, float64(h), delta.Z}, grounded, colls2)
		if v.X*v.X+v.Z*v.Z > moved.X*moved.X+moved.Z*moved.Z {
			return v.Add(Vec3{0, -(box.MinY - grounded.MinY), 0})
		}
	}
	return moved
}

// stepHeights is Entity.collectCandidateStepUpHeights: the heights of the
// colliders' horizontal faces above the box's bottom, up to the step
// height, ascending, without the height already reached.
func stepHeights(dst []float32, box AABB, colls []AABB, maxStep, skip float32) []float32 {
	out := dst[:0]
	for i := range colls {
		for _, y := range [2]float64{colls[i].MinY, colls[i].MaxY} {
			h := float32(y - box.MinY)
			if h < 0 || h == skip || h > maxStep || slices.Contains(out, h) {
				continue
			}
			out = append(out, h)
		}
	}
	slices.Sort(out)
	return out
}

// clipResetsFall is the fall-damage reset of a fast move (Entity.move: a
// clip along the movement hitting water or a #fall_damage_resetting block):
// whether the segment from p along d passes through such a block.
func (t *tick) clipResetsFall(p, d Vec3) bool {
	n := int(math.Ceil(d.Length()*4)) + 1
	last := world.BlockPos{X: math.MinInt32}
	for i := 0; i <= n; i++ {
		f := float64(i) / float64(n)
		b := Vec3{p.X + d.X*f, p.Y + d.Y*f, p.Z + d.Z*f}.Block()
		if b == last {
			continue
		}
		last = b
		in := t.at(b)
		if in.fluidKind == mcdata.Water || in.flags&fResetFall != 0 {
			return true
		}
	}
	return false
}
