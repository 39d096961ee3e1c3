package move

import (
	"math"

	"github.com/blockmate/blockmate/bot/path"
	"github.com/blockmate/blockmate/bot/physics"
)

// Jumps over gaps (path.Parkour). The planner offers a jump over a one-
// block gap, or two when the bot may sprint, only where falling into the
// gap is safe; the executor has to take off at the right moment, which a
// fixed rule ("jump at the edge") gets wrong as often as not: a sprinting
// bot jumping at the edge of a one-block gap flies past a one-block
// landing, a bot that starts from a standstill needs the whole run-up.
// So the body asks its own physics, every tick of the run-up: "if I jump
// now and steer for the landing block as I will, do I come to rest on
// it?" (the same Step the tick runs, on the same world view). It jumps on
// the first tick the answer is yes; on the last tick before the feet
// leave the edge it jumps anyway (falling in would happen without it).
// In the air it steers for the landing block's middle; a landing lower
// than the block is a missed jump, and the walk re-plans from the bottom
// of the gap.

// jumpPhase is where a parkour step is.
type jumpPhase uint8

const (
	// jumpRunUp: on the ground at the take-off side, running at the gap.
	jumpRunUp jumpPhase = iota
	// jumpAir: the feet left the ground (a jump, or a step off the edge).
	jumpAir
	// jumpLanded: back on the ground; the usual steering takes over.
	jumpLanded
)

// jumpState is the walk's memory of the parkour step it is on.
type jumpState struct {
	// step is the step's index plus one (0: none yet).
	step  int
	phase jumpPhase
	// jumped says the take-off was a jump (not a walk off the edge);
	// air counts the ticks off the ground since.
	jumped bool
	air    int
}

// jumpLookTicks bounds the physics look-ahead of one take-off: a jump on
// the level lasts 12 ticks, and the follow-through to the landing block's
// middle a few more.
const jumpLookTicks = 40

// missedBy is how far below the landing floor the feet may come down
// before the jump counts as missed.
const missedBy = 0.5

// parkour adjusts the keys the walk chose for a parkour step: sprint as
// the step says, jump at the tick the physics says lands on the block,
// nothing held in the air but the steering; a missed landing asks for a
// new plan. Other steps pass through unchanged. Callers hold m.mu.
func (w *walk) parkour(m *Mover, wp path.Waypoint, ctl physics.Controls) physics.Controls {
	if wp.Step.Move != path.Parkour || w.finished() {
		return ctl
	}
	j := &w.jump
	if j.step != wp.Index+1 {
		*j = jumpState{step: wp.Index + 1}
	}
	st := &m.st
	ctl.Jump = false
	if j.phase != jumpLanded {
		// The same keys lands simulates: sprint as the step says until
		// over the landing block, even on a path's last step.
		h := math.Hypot(wp.X-st.Pos.X, wp.Z-st.Pos.Z)
		ctl.Sprint = wp.Step.Sprint && !st.InWater && h > 0.5
	}
	switch j.phase {
	case jumpRunUp:
		if !st.OnGround {
			// Off the edge without a jump (or pushed).
			j.phase = jumpAir
			return ctl
		}
		ctl.Forward = true
		if m.takeOffNowLocked(wp, ctl) {
			ctl.Jump = true
			j.phase, j.jumped, j.air = jumpAir, true, 0
		}
	case jumpAir:
		if !st.OnGround {
			j.air++
			return ctl
		}
		if j.air == 0 {
			// The jump did not lift the feet (a ceiling, a jump delay):
			// run up again.
			j.phase, j.jumped = jumpRunUp, false
			return ctl
		}
		switch {
		case st.Pos.Y < wp.Step.Floor-missedBy:
			// Down in the gap: a missed jump. The planner, which knows the
			// gap's floor is safe, takes it from there.
			j.phase = jumpLanded
			w.need(replanSlow)
		case across(wp.Step, st.Pos) < float64(gapOf(wp.Step)):
			// Back on the take-off side (pushed back): run up again.
			j.phase, j.jumped = jumpRunUp, false
		default:
			j.phase = jumpLanded
		}
	}
	return ctl
}

// across is how far the feet are from the middle of the step's take-off
// block along the way it jumps.
func across(st path.Step, p physics.Vec3) float64 {
	dx, dz := st.To.X-st.From.X, st.To.Z-st.From.Z
	n := math.Hypot(float64(dx), float64(dz))
	if n == 0 {
		return 0
	}
	return ((p.X-(float64(st.From.X)+0.5))*float64(dx) + (p.Z-(float64(st.From.Z)+0.5))*float64(dz)) / n
}

// gapOf is how many blocks wide the step's gap is.
func gapOf(st path.Step) int {
	return max(abs(st.To.X-st.From.X), abs(st.To.Z-st.From.Z)) - 1
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// takeOffNowLocked says whether to jump this tick: a jump now, steered
// as the walk will steer it, comes to rest on the landing block; or the
// feet leave the edge next tick without one. Callers hold m.mu.
func (m *Mover) takeOffNowLocked(wp path.Waypoint, ctl physics.Controls) bool {
	attrs := m.attrsLocked()
	jump := ctl
	jump.Jump = true
	if lands(m.eng, m.view, m.st, jump, attrs, wp) {
		return true
	}
	next := m.eng.Step(m.view, m.st, ctl, attrs)
	return !next.OnGround
}

// lands simulates a take-off with the keys ctl (jump held for the first
// tick only) and the steering the walk does after it (toward the
// waypoint, forward until over its middle), and says whether the feet
// come to the landing block's middle at its floor.
func lands(e *physics.Engine, view physics.World, s physics.State, ctl physics.Controls, attrs physics.Attributes, wp path.Waypoint) bool {
	left := false
	for i := 0; i < jumpLookTicks; i++ {
		s = e.Step(view, s, ctl, attrs)
		ctl.Jump = false
		if !s.OnGround {
			left = true
		}
		if s.Pos.Y < wp.Step.Floor-missedBy {
			return false
		}
		dx, dz := wp.X-s.Pos.X, wp.Z-s.Pos.Z
		h := math.Hypot(dx, dz)
		if left && s.OnGround && h <= arrivedWithin && math.Abs(s.Pos.Y-wp.Step.Floor) < missedBy {
			return true
		}
		ctl.Yaw, _ = lookAngles(dx, 0, dz, s.Yaw)
		ctl.Forward = h > 0.05
		ctl.Sprint = ctl.Sprint && h > 0.5
	}
	return false
}

// arrivedWithin is how near the landing block's middle the feet must come
// to count as arrived (path.Step's own rule for reaching a step's end).
const arrivedWithin = 0.35

// attrsLocked are the attributes the tick steps with. Callers hold m.mu;
// self's lock is a leaf (self never calls into the body while holding it).
func (m *Mover) attrsLocked() physics.Attributes {
	attrs := physics.DefaultAttributes()
	if me := m.self.Snapshot(); me.HasHealth {
		attrs.FoodLevel = me.Food
	}
	return attrs
}
