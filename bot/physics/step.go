package physics

import (
	"math"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// Step advances the player one game tick, as the game's client computes it
// for its own player (LocalPlayer.tick: Entity.baseTick, LocalPlayer.aiStep,
// LivingEntity.aiStep and travel, Player.updatePlayerPose), and returns the
// new state. It is a pure function of its arguments: it reads the world
// through w and changes nothing else, so any number of goroutines may step
// players (or plans) at once.
//
// The returned state carries what the movement packets need (Pos, Yaw,
// Pitch, OnGround, HorizontalCollision via MovementFlags) and what the
// entity-action and player-input packets need (Sprinting, ShiftKey,
// Controls.PlayerInput).
func (e *Engine) Step(w World, s State, c Controls, a Attributes) State {
	t := tick{s: s, c: c, a: a, rules: &e.rules}
	t.r.e, t.r.w, t.r.cached = e, w, true
	t.r.init()
	t.run()
	return t.s
}

// tick is one Step in progress.
type tick struct {
	r     reader
	rules *rules
	// s, c and a are held by value so that nothing of the caller's escapes
	// to the heap (the world interface's calls make the tick's contents
	// escape).
	s State
	c Controls
	a Attributes

	// xxa and zza are the strafe and forward inputs travel sees; jumping is
	// the jump key.
	xxa, zza float32
	jumping  bool
	// start is where the tick began (the game's old position).
	start Vec3

	buf, buf2 [48]AABB
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func (t *tick) run() {
	s, c := &t.s, &t.c
	if !finite(s.Pos.X) || !finite(s.Pos.Y) || !finite(s.Pos.Z) {
		s.Frozen = true
		return
	}
	s.Vel = sane(s.Vel)
	s.Stuck = sane(s.Stuck)
	if !finite(s.FallDistance) {
		s.FallDistance = 0
	}
	// The look changes between ticks, as the mouse turns the player
	// (Entity.setYRot ignores a non-finite angle; setXRot clamps pitch).
	if !math.IsNaN(float64(c.Yaw)) && !math.IsInf(float64(c.Yaw), 0) {
		s.Yaw = c.Yaw
	}
	if !math.IsNaN(float64(c.Pitch)) && !math.IsInf(float64(c.Pitch), 0) {
		s.Pitch = min(max(c.Pitch, -90), 90)
	}
	// LocalPlayer.tick does nothing while the player's column is not loaded.
	if !t.r.loaded(floorInt(s.Pos.X), floorInt(s.Pos.Z)) {
		s.Frozen = true
		return
	}
	s.Frozen = false
	s.ImpactFall = 0
	t.start = s.Pos
	t.baseTick()
	t.aiStep()
	t.updatePose()
}

// sane keeps a velocity finite and within maxSpeed per axis.
func sane(v Vec3) Vec3 {
	clamp := func(f float64) float64 {
		if math.IsNaN(f) {
			return 0
		}
		return min(max(f, -maxSpeed), maxSpeed)
	}
	return Vec3{clamp(v.X), clamp(v.Y), clamp(v.Z)}
}

func (t *tick) box() AABB { return t.s.Pose.BoxAt(t.s.Pos) }

// ctx is the collision context of the player as it is now.
func (t *tick) ctx() ctx {
	return ctx{bottom: t.s.Pos.Y, descending: t.c.Sneak, fallDistance: t.s.FallDistance, leatherBoots: t.a.LeatherBoots}
}

func (t *tick) blockPos() world.BlockPos { return t.s.Pos.Block() }

func (t *tick) at(p world.BlockPos) *stateInfo { return t.r.info(p.X, p.Y, p.Z) }

// inBlock is Entity.getInBlockState: the block at the player's position.
func (t *tick) inBlock() *stateInfo { return t.at(t.blockPos()) }

func (t *tick) setFall(d float64) {
	if !t.rules.fallDouble {
		d = float64(float32(d))
	}
	t.s.FallDistance = d
}

func (t *tick) underWater() bool { return t.s.WasEyeInWater && t.s.InWater }

// speed is Player.getSpeed: the movement speed attribute with the sprint
// modifier (+30%, ADD_MULTIPLIED_TOTAL 0.3F) while sprinting, as a float.
func (t *tick) speed() float32 {
	v := t.a.MovementSpeed
	if t.s.Sprinting {
		v *= 1.0 + f32(0.3)
	}
	return float32(min(max(v, 0), 1024))
}

// baseTick is Entity.baseTick's share of movement: fluid contact and
// currents, eyes under water, swimming, lava halving the fall distance.
func (t *tick) baseTick() {
	s := &t.s
	s.WasInPowderSnow = s.InPowderSnow
	s.InPowderSnow = false
	if t.rules.fluidTracker {
		s.WasEyeInWater = s.EyeInWater
		t.updateFluidInteraction()
	} else {
		s.WaterHeight, s.LavaHeight = 0, 0
		t.updateWaterState()
		scale := 0.0023333333333333335
		if t.a.FastLava {
			scale = 0.007
		}
		t.fluidPush(mcdata.Lava, scale)
		s.InLava = s.LavaHeight > 0
		t.updateEyes()
	}
	t.updateSwimming()
	if s.InLava {
		t.setFall(s.FallDistance * 0.5)
	}
}

func (t *tick) updateSwimming() {
	s := &t.s
	if s.Swimming {
		s.Swimming = s.Sprinting && s.InWater
	} else {
		s.Swimming = s.Sprinting && t.underWater() && t.inBlock().fluidKind == mcdata.Water
	}
}

// canFit is Player.canPlayerFitWithinBlocksAndEntitiesWhen (blocks only).
func (t *tick) canFit(p Pose) bool {
	c := t.ctx()
	return t.r.noCollision(p.BoxAt(t.s.Pos).Inflate(-1e-7, -1e-7, -1e-7), &c)
}

func impulse(pos, neg bool) float32 {
	switch {
	case pos == neg:
		return 0
	case pos:
		return 1
	}
	return -1
}

func (t *tick) hasFood() bool { return t.a.FoodLevel > 6 || t.a.MayFly }

// aiStep is LocalPlayer.aiStep and LivingEntity.aiStep: input, sprinting,
// sinking, jumping, then travel.
func (t *tick) aiStep() {
	s, c, a, r := &t.s, &t.c, &t.a, t.rules
	if s.SprintTriggerTime > 0 {
		s.SprintTriggerTime--
	}
	prevShift := s.ShiftKey
	prevForward := s.ForwardImpulse
	// hasEnoughImpulseToStartSprinting before the input ticks (1.21.1–1.21.4).
	prevEnough := float64(prevForward) >= 0.8
	if t.underWater() {
		prevEnough = prevForward > 1e-5
	}
	s.Crouching = !s.Swimming && (prevShift || !t.canFit(Standing)) && t.canFit(Crouching)
	movingSlowly := s.Crouching || s.Pose == Swimming && !s.InWater

	// The input ticks: this tick's keys.
	s.ShiftKey = c.Sneak
	fwd, left := impulse(c.Forward, c.Back), impulse(c.Left, c.Right)
	var move [2]float32 // 1.21.5's normalised move vector (left, forward)
	if r.squareInput {
		move = normalized2(left, fwd)
		s.ForwardImpulse = move[1]
	} else {
		if r.sprint == sprint1214 && (t.a.Blindness || movingSlowly) {
			// LocalPlayer.shouldStopSprinting (1.21.4).
			s.Sprinting = false
		}
		if movingSlowly {
			f := float32(a.SneakingSpeed)
			fwd *= f
			left *= f
		}
		s.ForwardImpulse = fwd
	}
	t.sprinting(prevShift, prevForward, prevEnough, movingSlowly)
	if s.InWater && c.Sneak {
		s.Vel.Y += f32(-0.04) // LivingEntity.goDownInWater
	}

	// LivingEntity.aiStep.
	if s.NoJumpDelay > 0 {
		s.NoJumpDelay--
	}
	if r.horizontalDeadzone {
		if s.Vel.X*s.Vel.X+s.Vel.Z*s.Vel.Z < 9.0e-6 {
			s.Vel.X, s.Vel.Z = 0, 0
		}
	} else {
		if abs(s.Vel.X) < 0.003 {
			s.Vel.X = 0
		}
		if abs(s.Vel.Z) < 0.003 {
			s.Vel.Z = 0
		}
	}
	if abs(s.Vel.Y) < 0.003 {
		s.Vel.Y = 0
	}
	if r.squareInput {
		t.xxa, t.zza = modifyInput(move, movingSlowly, float32(a.SneakingSpeed))
	} else {
		t.xxa, t.zza = left, fwd
	}
	t.jumping = c.Jump
	t.jump()
	if !r.squareInput {
		t.xxa *= 0.98
		t.zza *= 0.98
	}
	if a.SlowFalling || a.Levitation > 0 {
		s.FallDistance = 0
	}
	t.travel()
	if r.effectsAfterTravel {
		t.applyEffectsFromBlocks()
	}
}

// normalized2 is Vec2.normalized: the zero vector below a length of 1.0E-4.
func normalized2(x, y float32) [2]float32 {
	l := float32(math.Sqrt(float64(x*x + y*y)))
	if l < 1.0e-4 {
		return [2]float32{}
	}
	return [2]float32{x / l, y / l}
}

// modifyInput is LocalPlayer.modifyInput (1.21.5 on): scale by 0.98 and
// the sneak speed, then stretch the vector so a diagonal reaches the unit
// square's corner (modifyInputSpeedForSquareMovement).
func modifyInput(v [2]float32, movingSlowly bool, sneak float32) (float32, float32) {
	if v[0]*v[0]+v[1]*v[1] == 0 {
		return 0, 0
	}
	x, y := v[0]*0.98, v[1]*0.98
	if movingSlowly {
		x, y = x*sneak, y*sneak
	}
	l := float32(math.Sqrt(float64(x*x + y*y)))
	if l <= 0 {
		return x, y
	}
	inv := 1.0 / l
	nx, ny := x*inv, y*inv
	ax, ay := float32(math.Abs(float64(nx))), float32(math.Abs(float64(ny)))
	var ratio float32
	if ay > ax {
		ratio = ax / ay
	} else {
		ratio = ay / ax
	}
	dist := float32(math.Sqrt(float64(1.0 + ratio*ratio)))
	f := min(l*dist, 1.0)
	return nx * f, ny * f
}

// sprinting is the sprint part of LocalPlayer.aiStep for the version's
// rules.
func (t *tick) sprinting(prevShift bool, prevForward float32, prevEnough, movingSlowly bool) {
	s, c, a := &t.s, &t.c, &t.a
	under := t.underWater()
	if t.rules.sprint == sprint1215 {
		hasForward := s.ForwardImpulse > 1e-5
		if prevShift || c.Back {
			s.SprintTriggerTime = 0
		}
		canStart := !s.Sprinting && hasForward && t.hasFood() && !a.Blindness &&
			(!movingSlowly || under) && (!s.InWater || under)
		if canStart {
			if !(prevForward > 1e-5) {
				if s.SprintTriggerTime > 0 {
					s.Sprinting = true
				} else {
					s.SprintTriggerTime = 7
				}
			}
			if c.Sprint {
				s.Sprinting = true
			}
		}
		if s.Sprinting {
			if s.Swimming {
				if a.Blindness || !s.InWater || !hasForward && !s.OnGround && !c.Sneak || !t.hasFood() {
					s.Sprinting = false
				}
			} else if a.Blindness || !hasForward || !t.hasFood() || s.HorizontalCollision && !s.MinorHorizontalCollision || s.InWater && !under {
				s.Sprinting = false
			}
		}
		return
	}
	// 1.21.1–1.21.4.
	if prevShift {
		s.SprintTriggerTime = 0
	}
	enough := float64(s.ForwardImpulse) >= 0.8
	if under {
		enough = s.ForwardImpulse > 1e-5
	}
	canStart := !s.Sprinting && enough && t.hasFood() && !a.Blindness
	if t.rules.sprint == sprint1214 {
		canStart = canStart && (!movingSlowly || under)
	}
	if (s.OnGround || under) && !prevShift && !prevEnough && canStart {
		if s.SprintTriggerTime <= 0 && !c.Sprint {
			s.SprintTriggerTime = 7
		} else {
			s.Sprinting = true
		}
	}
	if (!s.InWater || under) && canStart && c.Sprint {
		s.Sprinting = true
	}
	if s.Sprinting {
		stop := !(s.ForwardImpulse > 1e-5) || !t.hasFood()
		if s.Swimming {
			if !s.OnGround && !c.Sneak && stop || !s.InWater {
				s.Sprinting = false
			}
		} else if stop || s.HorizontalCollision && !s.MinorHorizontalCollision || s.InWater && !under {
			s.Sprinting = false
		}
	}
}

// fluidJumpThreshold is Entity.getFluidJumpThreshold.
func (t *tick) fluidJumpThreshold() float64 {
	if float64(poseSize[t.s.Pose%3].eye) < 0.4 {
		return 0
	}
	return 0.4
}

// jump is the jump part of LivingEntity.aiStep.
func (t *tick) jump() {
	s := &t.s
	if !t.jumping {
		s.NoJumpDelay = 0
		return
	}
	g := s.WaterHeight
	if s.InLava {
		g = s.LavaHeight
	}
	inWater := s.InWater && g > 0
	h := t.fluidJumpThreshold()
	switch {
	case inWater && (!s.OnGround || g > h):
		s.Vel.Y += f32(0.04) // jumpInLiquid
	case s.InLava && (!s.OnGround || g > h):
		s.Vel.Y += f32(0.04)
	case (s.OnGround || inWater && g <= h) && s.NoJumpDelay == 0:
		t.jumpFromGround()
		s.NoJumpDelay = 10
	}
}

// jumpFromGround is LivingEntity.jumpFromGround.
func (t *tick) jumpFromGround() {
	s := &t.s
	power := float32(t.a.JumpStrength) * 1.0 * t.jumpFactor()
	if t.a.JumpBoost > 0 {
		power += 0.1 * float32(t.a.JumpBoost)
	}
	if power <= 1e-5 {
		return
	}
	if t.rules.jumpKeepsFaster {
		s.Vel.Y = max(float64(power), s.Vel.Y)
	} else {
		s.Vel.Y = float64(power)
	}
	if s.Sprinting {
		rad := s.Yaw * degToRad
		s.Vel.X += float64(-t.r.e.trig.sin(rad)) * 0.2
		s.Vel.Z += float64(t.r.e.trig.cos(rad)) * 0.2
	}
}

// jumpFactor is Entity.getBlockJumpFactor.
func (t *tick) jumpFactor() float32 {
	f := t.inBlock().jump
	if f == 1 {
		return t.at(t.onPos(0.500001)).jump
	}
	return f
}

// speedFactor is LivingEntity.getBlockSpeedFactor.
func (t *tick) speedFactor() float32 {
	in := t.inBlock()
	f := in.speed
	if in.flags&(fWater|fBubble) == 0 && f == 1 {
		f = t.at(t.onPos(0.500001)).speed
	}
	e := float32(t.a.MovementEfficiency)
	return f + e*(1.0-f)
}

// onPos is Entity.getOnPos(offset): the block under the supporting block's
// column at offset below the feet, or the supporting block itself when it
// is a wall, a fence gate or (for small offsets) a fence.
func (t *tick) onPos(offset float32) world.BlockPos {
	s := &t.s
	if s.HasSupport {
		if !(offset > 1e-5) {
			return s.Support
		}
		in := t.at(s.Support)
		if float64(offset) <= 0.5 && in.flags&fFence != 0 || in.flags&fWallGate != 0 {
			return s.Support
		}
		p := s.Support
		p.Y = floorInt(s.Pos.Y - float64(offset))
		return p
	}
	return world.BlockPos{X: floorInt(s.Pos.X), Y: floorInt(s.Pos.Y - float64(offset)), Z: floorInt(s.Pos.Z)}
}

// updatePose is Player.updatePlayerPose, at the end of the tick.
func (t *tick) updatePose() {
	s := &t.s
	want := Standing
	switch {
	case s.Swimming:
		want = Swimming
	case t.c.Sneak:
		want = Crouching
	}
	// Every pose's box holds the swimming box, so a pose that fits settles
	// the game's first test (the swimming box fits) as well.
	switch {
	case t.canFit(want):
		s.Pose = want
	case !t.canFit(Swimming):
		// Nothing fits: the game leaves the pose alone.
	case t.canFit(Crouching):
		s.Pose = Crouching
	default:
		s.Pose = Swimming
	}
}
