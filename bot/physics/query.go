package physics

import (
	"math"
)

// Queries for planners: cheap questions about where a player fits and
// stands, and multi-tick simulation for "where do I land if I hold these
// keys". All are pure and safe for concurrent use.

// Collides says whether any block's collision shape overlaps box (with
// positive volume), for a player in the default context (not sneaking, not
// falling, no leather boots).
func (e *Engine) Collides(w World, box AABB) bool {
	r := newReader(e, w, true)
	c := ctx{bottom: box.MinY}
	return !r.noCollision(box, &c)
}

// Fits says whether a player in pose p fits with its feet at pos: no
// block's collision shape overlaps its box.
func (e *Engine) Fits(w World, pos Vec3, p Pose) bool {
	return !e.Collides(w, p.BoxAt(pos).Inflate(-1e-7, -1e-7, -1e-7))
}

// CanStandAt says whether a standing player fits at pos and would be on
// ground there: something solid is at most 1.0E-6 below its feet (the
// game's supporting-block test), and the feet are not in lava. Water does
// not count as ground.
func (e *Engine) CanStandAt(w World, pos Vec3) bool {
	if !e.Fits(w, pos, Standing) {
		return false
	}
	b := Standing.BoxAt(pos)
	below := AABB{b.MinX, b.MinY - 1e-6, b.MinZ, b.MaxX, b.MinY, b.MaxZ}
	if !e.Collides(w, below) {
		return false
	}
	r := newReader(e, w, true)
	return r.info(floorInt(pos.X), floorInt(pos.Y), floorInt(pos.Z)).fluidKind != 2
}

// FloorBelow is the height the feet of a standing player at pos come to
// rest on when dropped straight down at most maxDrop blocks (the top of the
// highest collision shape under its box), and false when nothing is within
// reach.
func (e *Engine) FloorBelow(w World, pos Vec3, maxDrop float64) (float64, bool) {
	if !(maxDrop > 0) || maxDrop > maxSpan/2 {
		maxDrop = min(max(maxDrop, 0), maxSpan/2)
	}
	r := newReader(e, w, true)
	c := ctx{bottom: pos.Y}
	b := Standing.BoxAt(pos)
	var buf [32]AABB
	colls := r.colliders(buf[:0], b.ExpandTowards(0, -maxDrop, 0), &c)
	d := collideAxis(1, colls, b, -maxDrop)
	if d == -maxDrop {
		return 0, false
	}
	return pos.Y + d, true
}

// StandingState is the state of a player standing still at pos (a pose
// that fits, on ground if something is under it, with the small downward
// motion a standing player keeps under the default gravity: (0 − 0.08) ×
// 0.98), for starting a simulation from a planned position.
func (e *Engine) StandingState(w World, pos Vec3, yaw float32) State {
	s := State{Pos: pos, Yaw: yaw}
	if !e.Fits(w, pos, Standing) {
		s.Pose = Crouching
		if !e.Fits(w, pos, Crouching) {
			s.Pose = Swimming
		}
	}
	b := s.Pose.BoxAt(pos)
	if e.Collides(w, AABB{b.MinX, b.MinY - 1e-6, b.MinZ, b.MaxX, b.MinY, b.MaxZ}) {
		s.OnGround = true
		s.Vel.Y = -0.08 * f32(0.98)
		r := newReader(e, w, true)
		c := ctx{bottom: pos.Y}
		s.Support, s.HasSupport = r.supportingBlock(AABB{b.MinX, b.MinY - 1e-6, b.MinZ, b.MaxX, b.MinY, b.MaxZ}, pos, &c)
	}
	return s
}

// Simulate steps the player n ticks holding the same controls and returns
// the final state and how many ticks it ran. When stop is not nil it is
// called after every tick with the tick number (1-based) and the state,
// and the simulation ends early when it returns true.
func (e *Engine) Simulate(w World, s State, c Controls, a Attributes, n int, stop func(tick int, s *State) bool) (State, int) {
	for i := 1; i <= n; i++ {
		s = e.Step(w, s, c, a)
		if stop != nil && stop(i, &s) {
			return s, i
		}
	}
	return s, n
}

// Landing is the outcome of Land.
type Landing struct {
	// State is the player's state on the tick it landed (or when the
	// simulation gave up).
	State State
	// Ticks is how many ticks it took.
	Ticks int
	// Landed is set when the player came to ground (or into water) within
	// the ticks allowed.
	Landed bool
	// FallDistance is the fall distance the landing ended (State.ImpactFall;
	// 0 for a landing in water), and Damage the fall damage it does on a
	// plain block (see Engine.FallDamage).
	FallDistance float64
	Damage       float64
}

// Land simulates holding c from s until the player is on ground again after
// leaving it (a jump, or a walk off a ledge), or lands in water, for at most
// maxTicks: "if I hold forward and jump from here, where do I land, and
// does it hurt".
func (e *Engine) Land(w World, s State, c Controls, a Attributes, maxTicks int) Landing {
	left := !s.OnGround
	for i := 1; i <= maxTicks; i++ {
		wasIn := s.InWater
		s = e.Step(w, s, c, a)
		if !s.OnGround && !s.InWater {
			left = true
			continue
		}
		if left && (s.OnGround || s.InWater && !wasIn) {
			var dmg float64
			if s.ImpactFall > 0 {
				dmg = e.FallDamage(s.ImpactFall, a)
			}
			return Landing{State: s, Ticks: i, Landed: true, FallDistance: s.ImpactFall, Damage: dmg}
		}
	}
	return Landing{State: s, Ticks: maxTicks}
}

// FallDamage is the damage (in half hearts) a fall of the given distance
// does on landing on an ordinary block (LivingEntity.calculateFallDamage):
// nothing up to the safe fall distance, then one point per block,
// times the fall damage multiplier. Water, slime, hay, beds, honey and
// powder snow soften or cancel it; the planner should treat those apart.
func (e *Engine) FallDamage(fallDistance float64, a Attributes) float64 {
	if e.rules.fallDouble {
		// 1.21.5 on: calculateFallPower = d + 1.0E-6 − safe; floor(power × multiplier).
		p := fallDistance + 1e-6 - a.SafeFallDistance
		return max(0, math.Floor(p*1*a.FallDamageMultiplier))
	}
	// Before: ceil((float)(d − (float)safe) × multiplier).
	p := float32(float32(fallDistance) - float32(a.SafeFallDistance))
	return max(0, math.Ceil(float64(p*1)*a.FallDamageMultiplier))
}
