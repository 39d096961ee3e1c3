package move

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/path"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/geom"
)

// Failure is a walk that did not arrive: why (a sentence), what to try,
// where the bot got to and how far it still was. errors.As finds it in
// every error GoNear and Go return for a walk that ended short.
type Failure struct {
	// Code names the reason for programs: a path reason ("goal_enclosed",
	// "goal_unloaded" …), "stuck", "target_gone", "died", "cannot_get_closer".
	Code     string
	Reason   string
	NextStep string
	// Position is where the bot stood when the walk ended; DistanceLeft
	// how far the goal still was (as the goal measures it), Walked how many
	// steps of paths it walked.
	Position     geom.Vec3
	DistanceLeft float64
	Walked       int
	// Stuck is set when the walk could not make progress (the bot moved
	// no nearer over several plans), as opposed to no path existing.
	Stuck bool
}

func (f *Failure) Error() string {
	if f.NextStep == "" {
		return f.Reason
	}
	return f.Reason + "; " + f.NextStep
}

// Target is where a walk goes: a point, maybe moving, and how near is
// near enough.
type Target struct {
	// Kind names the task for the console and mc_status: "goto",
	// "goto_player", "follow", "go_near".
	Kind string
	// Point returns the goal's position now, and false when it is gone (a
	// player out of sight). It is called on the task's goroutine.
	Point func() (geom.Vec3, bool)
	// Within is the range; Eyes measures it from the bot's eyes (reaching
	// a block), else from its feet.
	Within float64
	Eyes   bool
	// Moved, when not nil, is a channel closed when Point may have changed
	// (the entity store's change notification), and says the point moves:
	// the walk re-plans when it moved more than ReplanAfter blocks from
	// where the plan aims (the body's tick asks Point while it walks; Moved
	// wakes Follow while it waits near the target).
	Moved       func() <-chan struct{}
	ReplanAfter float64
	// Progress, when not nil, is told the steps walked and left whenever
	// the walk advances.
	Progress func(walked, left int)
	// Dig lets the walk dig through what is in its way, Bridge build over
	// gaps and water with blocks the bot carries (walk_dig.go); both off
	// unless asked for.
	Dig, Bridge bool
}

// Arrival is a walk that ended within range.
type Arrival struct {
	Position geom.Vec3
	Distance float64
	Walked   int
}

// Task is what the body is doing, for the console, mc_status and the map:
// its kind, its goal, the blocks of the path still to walk (the feet's
// blocks, in order), and the steps walked and left.
type Task struct {
	Kind   string           `json:"kind"`
	Goal   geom.Vec3        `json:"goal"`
	Path   []world.BlockPos `json:"path,omitempty"`
	Walked int              `json:"walked"`
	Left   int              `json:"left"`
}

// maxTaskPath bounds the path a Task view copies.
const maxTaskPath = 512

// Task returns the current movement task, and false when there is none.
func (m *Mover) Task() (Task, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.task == nil {
		return Task{}, false
	}
	t := *m.task
	t.Path = nil
	if w := m.walk; w != nil && !w.done {
		rest := w.path.Steps[min(w.cursor, len(w.path.Steps)):]
		t.Left = len(rest)
		t.Walked += w.walked
		for i := range rest[:min(len(rest), maxTaskPath)] {
			t.Path = append(t.Path, rest[i].To)
		}
	}
	return t, true
}

// GoNear walks until the bot's eyes are within `within` blocks of p
// (straight-line distance), or fails with an error whose text is a
// sentence (reason + what to try); errors.As(err, *move.Failure) gives
// Reason, NextStep and the position reached.
func (m *Mover) GoNear(ctx context.Context, p geom.Vec3, within float64) error {
	_, err := m.Go(ctx, Target{Kind: "go_near", Point: func() (geom.Vec3, bool) { return p, true }, Within: within, Eyes: true})
	return err
}

// goal is a walk's goal for the planner: a block position whose middle (at
// the feet, or the eyes) is within range of the point. The range is
// shrunk by the distance a bot may stand off a block's middle when it
// arrives, so that arriving at the block means being within range.
type goal struct {
	p      geom.Vec3
	within float64
	eyes   bool
}

func (g goal) offset(b world.BlockPos) (dx, dy, dz float64) {
	y := float64(b.Y)
	if g.eyes {
		y += physics.EyeHeight
	}
	return g.p.X - (float64(b.X) + 0.5), g.p.Y - y, g.p.Z - (float64(b.Z) + 0.5)
}

func (g goal) Done(b world.BlockPos) bool {
	dx, dy, dz := g.offset(b)
	return dx*dx+dy*dy+dz*dz <= g.within*g.within
}

func (g goal) Heuristic(b world.BlockPos) float64 {
	dx, dy, dz := g.offset(b)
	d := math.Sqrt(dx*dx + dy*dy + dz*dz)
	if d <= g.within {
		return 0
	}
	k := (d - g.within) / d
	return path.Estimate(dx*k, dy*k, dz*k)
}

func (g goal) Target() world.BlockPos {
	return world.BlockPos{X: int(math.Floor(g.p.X)), Y: int(math.Floor(g.p.Y)), Z: int(math.Floor(g.p.Z))}
}

// planRange is the range the planner aims for: the asked range less the
// 0.45 blocks a bot may stand off its block's middle, where that leaves a
// range of at least a block (the final approach closes what is left).
func planRange(within float64) float64 {
	if within-0.45 >= 1 {
		return within - 0.45
	}
	return max(within, 1)
}

// stuckRounds is how many plans in a row may end without bringing the bot
// nearer before the walk gives up as stuck.
const stuckRounds = 3

// noProgressTicks is how long, in game ticks (30 s), a walk may go on
// planning without coming half a block nearer its goal than it has been.
// The bot moving is no progress by itself: a digging or bridging walk
// that falls back into its pit, or steps to and fro, moves every round.
const noProgressTicks = 600

// progressWatch tells a walk that comes no nearer its goal from one that
// is on its way, on the session's tick numbers (the one tick service).
type progressWatch struct {
	started bool
	best    float64   // the nearest the walk has come
	since   uint64    // the tick it came that near
	point   geom.Vec3 // where the goal was then
	rounds  int       // plans since
}

// stalled takes the distance left at the start of a plan, where the goal
// is and the tick now, and says whether the walk has come no half block
// nearer in stuckRounds plans and noProgressTicks. A goal that moved
// half a block starts the count again.
func (p *progressWatch) stalled(d float64, point geom.Vec3, tick uint64) bool {
	if !p.started || d < p.best-0.5 || dist(point, p.point) >= 0.5 {
		*p = progressWatch{started: true, best: d, since: tick, point: point}
		return false
	}
	p.rounds++
	return p.rounds >= stuckRounds && tick-p.since >= noProgressTicks
}

// Go walks to a target and returns once within range, or fails with a
// *Failure (or the context's error when cancelled; the bot stops at the
// next tick either way).
func (m *Mover) Go(outer context.Context, t Target) (arrival Arrival, err error) {
	ctx, release := m.claim(outer, t.Kind)
	defer release()
	walked := 0
	defer func() {
		// A walk another call took over answers so, whatever it was doing
		// when its context ended; the caller's own cancel (mc_stop) stays
		// the context's error.
		if err != nil && outer.Err() == nil {
			if f := m.tookOver(ctx, walked); f != nil {
				arrival, err = Arrival{}, f
			}
		}
	}()
	if m.planner == nil {
		return Arrival{}, fmt.Errorf("blockmate has no movement data for protocol %d", m.c.Protocol)
	}
	if !(t.Within >= 0) || math.IsInf(t.Within, 0) {
		return Arrival{}, fmt.Errorf("the range %v is not a distance; give a number of blocks of 0 or more", t.Within)
	}
	m.mu.Lock()
	if !m.known {
		m.mu.Unlock()
		return Arrival{}, ErrNotPlaced
	}
	task := &Task{Kind: t.Kind}
	m.task = task
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		if m.task == task {
			m.task = nil
		}
		m.mu.Unlock()
	}()

	// noGain counts the plans in a row after which the bot stood where it
	// stood before.
	noGain := 0
	var last, lastPoint geom.Vec3
	first := true
	var watch progressWatch
	for {
		if err := ctx.Err(); err != nil {
			return Arrival{}, err
		}
		pos := m.measurePos(t.Eyes)
		feet, _ := m.Position()
		me := m.self.Snapshot()
		point, ok := t.Point()
		fail := func(code, reason, next string, stuck bool) error {
			return &Failure{Code: code, Reason: reason, NextStep: next, Position: feet, DistanceLeft: dist(pos, point), Walked: walked, Stuck: stuck}
		}
		switch {
		case me.Dead:
			return Arrival{}, fail("died", "the bot died on the way", "call mc_respawn, then try again", false)
		case !ok:
			return Arrival{}, fail("target_gone", "the target is out of sight (the player left or is too far to see)", "ask where the player is, or go to a position with mc_goto", false)
		}
		d := dist(pos, point)
		m.mu.Lock()
		task.Goal = point
		task.Walked = walked
		m.mu.Unlock()
		if d <= t.Within {
			return Arrival{Position: feet, Distance: d, Walked: walked}, nil
		}
		// Stuck is neither the bot nor its goal moving: a plan made again
		// because a followed player walked on is not a failed one.
		if first || dist(feet, last) >= 0.5 || dist(point, lastPoint) >= 0.5 {
			noGain = 0
		} else if noGain++; noGain >= stuckRounds {
			return Arrival{}, fail("stuck", fmt.Sprintf("the bot cannot get nearer than %.1f blocks: its way is blocked", d),
				"clear the way or choose another goal; mc_nearby shows what is around the bot", true)
		}

		if watch.stalled(d, point, m.s.Tick()) {
			return Arrival{}, fail("stuck", fmt.Sprintf("the bot has come no nearer than %.1f blocks to the goal in %d plans and %d s of game time (it walks, digs or builds round in circles)", watch.best, watch.rounds, noProgressTicks/20),
				"choose another goal or way (mc_goto without dig or bridge, or a place beside it); mc_nearby shows what is around the bot", true)
		}

		first, last, lastPoint = false, feet, point
		view := m.blocks.View()
		g := goal{p: point, within: planRange(t.Within), eyes: t.Eyes}
		res := m.plannerFor(t).Plan(ctx, view, path.FeetBlock(feet.X, feet.Y, feet.Z), g)
		if err := ctx.Err(); err != nil {
			return Arrival{}, err
		}
		if res.Status == path.NoPath {
			return Arrival{}, fail(res.Reason.String(), "no path: "+res.Reason.Explain(), m.noPathNext(t, res.Reason), false)
		}
		w := &walk{path: res.Path, goal: point, within: t.Within, eyes: t.Eyes, view: view}
		aimed := point
		if t.Moved != nil {
			w.moving = &movingTarget{point: t.Point, aimed: aimed, replanAfter: t.ReplanAfter}
		}
		m.mu.Lock()
		m.walk = w
		m.holdLocked(true)
		m.mu.Unlock()
		err := m.awaitSteps(ctx, w, t, aimed, walked)
		m.mu.Lock()
		if m.walk == w {
			m.walk = nil
		}
		walked += w.walked
		m.mu.Unlock()
		if err != nil {
			return Arrival{}, err
		}
		if res.Status == path.Partial && len(res.Path.Steps) == 0 {
			// Nothing to walk toward the goal for a reason a plan cannot
			// change by walking.
			return Arrival{}, fail(res.Reason.String(), "no path: "+res.Reason.Explain(), res.Reason.NextStep(), false)
		}
	}
}

// await waits until the tick has finished with the walk (done, or wanting
// a new plan, which includes a moving target gone too far from where the
// plan aims: the tick watches it), the context ended or the session did.
func (m *Mover) await(ctx context.Context, w *walk, t Target, aimed geom.Vec3, walkedBefore int) error {
	lastWalked := -1
	for {
		events := w.events.Wait()
		m.mu.Lock()
		finished, n, left := w.finished(), w.walked, len(w.path.Steps)-w.cursor
		m.mu.Unlock()
		if t.Progress != nil && n != lastWalked {
			lastWalked = n
			t.Progress(walkedBefore+n, max(left, 0))
		}
		if finished {
			return nil
		}
		if t.Moved != nil {
			if p, ok := t.Point(); !ok || dist(p, aimed) > t.ReplanAfter {
				return nil
			}
		}
		select {
		case <-events:
		case <-ctx.Done():
			return ctx.Err()
		case <-m.s.Done():
			return core.ErrEnded
		}
	}
}

// measurePos is the feet or the eyes.
func (m *Mover) measurePos(eyes bool) geom.Vec3 {
	if eyes {
		return m.EyePosition()
	}
	p, _ := m.Position()
	return p
}

func dist(a, b geom.Vec3) float64 {
	dx, dy, dz := a.X-b.X, a.Y-b.Y, a.Z-b.Z
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

// Follow keeps within `t.Within` of a moving target until the context
// ends or the target is gone: it walks whenever the target is farther than
// the range and a block, and waits on t.Moved otherwise. A walk that
// fails is reported to onFail (mc_stuck) and tried again once the target
// has moved a few blocks.
func (m *Mover) Follow(outer context.Context, t Target, onFail func(*Failure)) (err error) {
	if t.Moved == nil {
		return fmt.Errorf("follow needs a moving target")
	}
	ctx, release := m.claim(outer, t.Kind)
	defer release()
	defer func() {
		if err != nil && outer.Err() == nil {
			if f := m.tookOver(ctx, 0); f != nil {
				err = f
			}
		}
	}()
	for {
		moved := t.Moved()
		p, ok := t.Point()
		if !ok {
			feet, _ := m.Position()
			return &Failure{Code: "target_gone", Reason: "the player is out of sight (left the world or went too far)", NextStep: "call mc_follow again when the player is back", Position: feet}
		}
		if dist(m.measurePos(t.Eyes), p) > t.Within+1 {
			_, err := m.Go(ctx, t)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			var f *Failure
			if err != nil {
				if !asFailure(err, &f) || f.Code == "target_gone" || f.Code == "died" {
					return err
				}
				if onFail != nil {
					onFail(f)
				}
				if err := m.waitMoved(ctx, t, p, 3); err != nil {
					return err
				}
			}
			continue
		}
		select {
		case <-moved:
		case <-ctx.Done():
			return ctx.Err()
		case <-m.s.Done():
			return core.ErrEnded
		}
	}
}

// waitMoved waits until the target is more than d blocks from from, or
// gone.
func (m *Mover) waitMoved(ctx context.Context, t Target, from geom.Vec3, d float64) error {
	for {
		moved := t.Moved()
		if p, ok := t.Point(); !ok || dist(p, from) > d {
			return nil
		}
		select {
		case <-moved:
		case <-ctx.Done():
			return ctx.Err()
		case <-m.s.Done():
			return core.ErrEnded
		}
	}
}

func asFailure(err error, f **Failure) bool { return errors.As(err, f) }

// Ground is where a walk to the column x, z should end: the ground there
// when hasY is false, else the place nearest the guessed feet y that a
// player can stand on (path.Planner.Ground), on the world as the bot
// sees it now.
func (m *Mover) Ground(x, z, y int, hasY bool) path.GroundAnswer {
	if m.planner == nil {
		return path.GroundAnswer{}
	}
	return m.planner.Ground(m.blocks.View(), x, z, y, hasY)
}
