package move

import "github.com/blockmate/blockmate/geom"

// movingTarget is a walk's goal that moves (a player followed or met):
// where it is now, where the walk's plan aims, and how far it may go from
// there before the plan is made again.
//
// The body's tick asks where the target is, once a tick while the walk
// runs, instead of the walk's task waking at every change of every entity
// the bot sees: a player walking sends about 20 moves a second, and each
// used to wake the task's goroutine (and the scheduler with it) only for
// it to find that the player had not gone far enough to matter. The tick
// runs anyway while the bot walks, so the question costs a map lookup.
type movingTarget struct {
	point       func() (geom.Vec3, bool)
	aimed       geom.Vec3
	replanAfter float64
}

// stale says whether the target is gone or farther than replanAfter from
// where the plan aims.
func (t *movingTarget) stale() bool {
	p, ok := t.point()
	return !ok || dist(p, t.aimed) > t.replanAfter
}

// checkTarget asks the walk in progress, when its goal moves, whether the
// goal has gone too far for the plan, and if so asks for a new plan. The
// target is asked off the body's lock: Point reads the entity store.
func (m *Mover) checkTarget() {
	m.mu.Lock()
	w := m.walk
	var t *movingTarget
	if w != nil && !w.finished() {
		t = w.moving
	}
	m.mu.Unlock()
	if t == nil || !t.stale() {
		return
	}
	m.mu.Lock()
	if m.walk == w {
		w.need(replanTarget)
	}
	m.mu.Unlock()
}
