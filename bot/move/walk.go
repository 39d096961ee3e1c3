package move

import (
	"math"

	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/path"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/geom"
)

// replan says why the tick wants a new plan.
type replan uint8

const (
	replanNone replan = iota
	// replanSync: the server moved the bot.
	replanSync
	// replanBlocks: a block on the rest of the path changed.
	replanBlocks
	// replanSlow: a step took far longer than planned (a mob in the way, a
	// missed jump, a slip).
	replanSlow
	// replanHalted: the body stopped (the bot died, or is respawning).
	replanHalted
	// replanTarget: a moving goal went too far from where the plan aims
	// (movingTarget), or out of sight.
	replanTarget
)

// Approach bounds: after the path's last step the body walks straight at
// the goal for at most approachTicks while it is not yet within range.
const approachTicks = 30

// walk is a path handed to the tick. The tick alone writes its fields
// (under the body's lock); the task reads them under the same lock and
// waits on events.
type walk struct {
	path   path.Path
	cursor int
	// goal is the point to end within reach of (the final approach), and
	// within the range: feet or eyes, as eyes says.
	goal   geom.Vec3
	within float64
	eyes   bool

	// ticksOnStep counts the ticks spent on the current step.
	ticksOnStep int
	approach    int
	done        bool
	why         replan
	// walked counts the steps passed since the walk began.
	walked int
	// view is the snapshot the path was planned on, to tell which block
	// changes touch it.
	view *world.View
	// moving, for a goal that moves, is where the plan aims and how far
	// the goal may go from there; the tick watches it (checkTarget).
	moving *movingTarget

	// door and jump are the step handlers' memory (walk_open.go,
	// walk_jump.go); out holds the packets a handler queued for this
	// tick's batch, sent after the movement.
	door doorState
	jump jumpState
	out  []core.Out

	events core.Notify
}

func (w *walk) need(why replan) {
	if w.why == replanNone && !w.done {
		w.why = why
		w.events.Broadcast()
	}
}

// finished says the tick has nothing more to do with the walk.
func (w *walk) finished() bool { return w.done || w.why != replanNone }

// slowAfter is how many ticks a step may take before the walk re-plans:
// three times its planned cost and a second more.
func slowAfter(st path.Step) int { return int(3*st.Cost) + 20 }

// distanceTo is how far the goal is from the body in st, by feet or eyes.
func (w *walk) distanceTo(st *physics.State) float64 {
	p := st.Pos
	if w.eyes {
		p = st.EyePos()
	}
	dx, dy, dz := w.goal.X-p.X, w.goal.Y-p.Y, w.goal.Z-p.Z
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

// steer chooses the keys for this tick: toward the path's next waypoint,
// then straight at the goal until within range.
func (w *walk) steer(m *Mover, ctl physics.Controls) physics.Controls {
	if w.finished() {
		return ctl
	}
	st := &m.st
	if m.changedOnPathLocked(w) {
		w.need(replanBlocks)
		return ctl
	}
	wp, ok := w.path.Next(w.cursor, st.Pos.X, st.Pos.Y, st.Pos.Z)
	if wp.Index != w.cursor {
		w.walked += wp.Index - w.cursor
		w.cursor, w.ticksOnStep = wp.Index, 0
		w.events.Broadcast()
	}
	if !ok {
		// The path is walked: close in on the goal itself.
		if w.distanceTo(st) <= w.within || w.approach >= approachTicks {
			w.done = true
			w.events.Broadcast()
			return ctl
		}
		w.approach++
		dx, dz := w.goal.X-st.Pos.X, w.goal.Z-st.Pos.Z
		if math.Hypot(dx, dz) < 0.1 || (st.HorizontalCollision && w.approach > 2) {
			w.done = true
			w.events.Broadcast()
			return ctl
		}
		ctl.Yaw, _ = lookAngles(dx, 0, dz, st.Yaw)
		ctl.Pitch = 0
		ctl.Forward = true
		return ctl
	}
	if w.stepWork(m, &wp.Step) {
		return ctl // the hands break or place the step's blocks first (walk_dig.go)
	}
	w.ticksOnStep++
	if w.ticksOnStep > slowAfter(wp.Step) {
		w.need(replanSlow)
		return ctl
	}
	if c, waiting := w.openDoors(m, wp, ctl); waiting {
		return c
	}
	dx, dz := wp.X-st.Pos.X, wp.Z-st.Pos.Z
	h := math.Hypot(dx, dz)
	ctl.Yaw, _ = lookAngles(dx, 0, dz, st.Yaw)
	ctl.Pitch = 0
	ctl.Forward = h > 0.05
	last := wp.Index == len(w.path.Steps)-1
	ctl.Sprint = wp.Step.Sprint && !last && !st.InWater && h > 0.5
	up := wp.Y - st.Pos.Y
	switch {
	case st.InWater || st.InLava:
		// Swim up to the surface and over the edge out.
		ctl.Jump = up > -0.2 || st.HorizontalCollision
	case wp.Step.Climbing || st.HorizontalCollision && up > 0.6:
		ctl.Jump = up > 0.1
	case wp.Step.Jump:
		ctl.Jump = st.OnGround && up > 0.5 && (h < 1.2 || st.HorizontalCollision)
	}
	return w.parkour(m, wp, ctl)
}

// changedOnPathLocked says whether a block the rest of the path needs
// changed since it was planned: the view the body steps on is newer, and a
// block on the remaining steps differs. Callers hold m.mu.
func (m *Mover) changedOnPathLocked(w *walk) bool {
	if w.view == nil || m.view == w.view {
		return false
	}
	old := w.view
	for i := w.cursor; i < len(w.path.Steps) && i < w.cursor+8; i++ {
		st := &w.path.Steps[i]
		lo, hi := st.From, st.To
		for x := min(lo.X, hi.X); x <= max(lo.X, hi.X); x++ {
			for z := min(lo.Z, hi.Z); z <= max(lo.Z, hi.Z); z++ {
				for y := min(lo.Y, hi.Y) - 1; y <= max(lo.Y, hi.Y)+2; y++ {
					p := world.BlockPos{X: x, Y: y, Z: z}
					a, _ := old.BlockAt(p)
					b, _ := m.view.BlockAt(p)
					if a != b && !m.openedOnPathLocked(w, p, a, b) {
						return true
					}
				}
			}
		}
	}
	// The path still holds on the newer world: compare with it from now.
	w.view = m.view
	return false
}
