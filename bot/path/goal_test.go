package path

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/blockmate/blockmate/bot/world"
)

func TestReachABlock(t *testing.T) {
	w := flat(t, 2)
	w.set(12, 64, 0, "chest[facing=north]")
	v := w.view()
	g := Reach{Block: pos(12, 64, 0)}
	r := plan(t, v, pos(0, 64, 0), g, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	end := r.Path.End()
	dx, dy, dz := eyeOffset(end, g.Block)
	if d := math.Sqrt(dx*dx + dy*dy + dz*dz); d > reachDistance || d < reachDistance-1.5 {
		t.Errorf("stops %.2f from the chest (eyes to its nearest point); want within 4.5 and no nearer than needed", d)
	}
	if end.X >= 12 {
		t.Errorf("walked past the chest: %v", end)
	}
	// A block high up is reached from below when the eyes get within
	// reach: 1.62 + 4.5 covers a block 5 above the feet.
	w.set(20, 69, 20, "stone")
	r = plan(t, w.view(), pos(0, 64, 0), Reach{Block: pos(20, 69, 20)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	// A block inside a closed box: the goal is shut in.
	w.fill(-10, 64, -10, -6, 68, -6, "stone")
	w.fill(-9, 65, -9, -7, 67, -7, "air")
	w.set(-8, 65, -8, "gold_block")
	r = plan(t, w.view(), pos(0, 64, 0), Reach{Block: pos(-8, 65, -8), Range: 2}, Options{})
	if r.Status != NoPath || r.Reason != ReasonGoalEnclosed {
		t.Fatalf("a block in a closed box:\n%s", describe(r))
	}
}

func TestReachNearestOfFoundBlocks(t *testing.T) {
	w := flat(t, 3)
	for _, p := range []world.BlockPos{pos(25, 64, 0), pos(-20, 64, 3), pos(0, 64, -30)} {
		w.fill(p.X, p.Y, p.Z, p.X, p.Y+4, p.Z, "oak_log[axis=y]")
	}
	// The nearest log as the crow flies is in a closed pen with walls
	// three thick (out of reach from outside): the one east is the goal.
	w.fill(-26, 64, -3, -14, 70, 9, "stone")
	w.fill(-23, 64, 0, -17, 70, 6, "air")
	w.fill(-20, 64, 3, -20, 68, 3, "oak_log[axis=y]")
	v := w.view()
	set, err := game.MatchStates("oak_log")
	if err != nil {
		t.Fatal(err)
	}
	found := v.FindBlocks(pos(0, 64, 0), 40, 16, set.Has)
	if len(found) == 0 || found[0].Pos.X != -20 {
		t.Fatalf("FindBlocks: %v", found)
	}
	r := plan(t, v, pos(0, 64, 0), ReachFound(found), Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	if end := r.Path.End(); end.X < 15 {
		t.Errorf("went for the log behind the wall (ends at %v), not the one east, quicker to reach", end)
	}
	if (ReachAny{}).Heuristic(pos(0, 0, 0)) != 0 || (ReachAny{}).Done(pos(0, 0, 0)) {
		t.Errorf("an empty ReachAny is never done and estimates nothing")
	}
}

func TestGetAway(t *testing.T) {
	w := flat(t, 2)
	w.fill(-32, 64, 5, 31, 66, 5, "stone") // a wall north of the start
	r := plan(t, w.view(), pos(0, 64, 0), Away{From: pos(0, 64, 3), Distance: 10}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	end := r.Path.End()
	if d := math.Hypot(float64(end.X), float64(end.Z-3)); d < 10 || end.Z >= 5 {
		t.Errorf("ends at %v, %.1f away", end, d)
	}
}

func TestFollowReplansWhenTheTargetMoves(t *testing.T) {
	v := flat(t, 2).view()
	f := NewFollow(pos(10, 64, 0), 2, 3)
	if !f.Stale() {
		t.Fatal("no plan yet: stale")
	}
	g := f.Goal()
	if g.Pos != pos(10, 64, 0) || g.Range != 2 || f.Stale() {
		t.Fatalf("goal %+v, stale %v", g, f.Stale())
	}
	r := plan(t, v, pos(0, 64, 0), g, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	if f.Move(pos(11, 64, 1)) {
		t.Error("a move of 1.4 blocks, under the threshold of 3, asked for a re-plan")
	}
	if !f.Move(pos(14, 64, 1)) || !f.Stale() {
		t.Error("a move of 4.1 blocks from where the plan aims asked for none")
	}
	if f.Target() != pos(14, 64, 1) {
		t.Errorf("target %v", f.Target())
	}
	// Planning ahead: the next plan starts where the current path ends.
	next := plan(t, v, r.Path.End(), f.Goal(), Options{})
	if next.Status != Complete || next.Path.Start != r.Path.End() {
		t.Fatalf("planning from the end of the last path:\n%s", describe(next))
	}
	if f.Stale() {
		t.Error("stale right after planning")
	}
	// Move and Goal from two goroutines (-race checks the locking).
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 200 {
			f.Move(pos(i, 64, 0))
		}
	}()
	go func() {
		defer wg.Done()
		for range 200 {
			_ = f.Goal()
		}
	}()
	wg.Wait()
}

func TestAffected(t *testing.T) {
	w := flat(t, 2)
	w.fill(5, 64, -32, 5, 64, 31, "stone") // a low wall to jump
	v := w.view()
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	p := &r.Path
	// Each step's own blocks: the floor under its end, its body, the
	// block over its head.
	for i, st := range p.Steps {
		for _, q := range []world.BlockPos{st.Support, st.To, {X: st.To.X, Y: st.To.Y + 1, Z: st.To.Z}, {X: st.To.X, Y: st.To.Y + 2, Z: st.To.Z}} {
			if !p.Affected(q, i) {
				t.Errorf("a change at %v (step %d's) does not affect the path", q, i)
			}
		}
	}
	// Far away, or under a step already walked: not affected.
	if p.Affected(pos(0, 64, 20), 0) || p.Affected(pos(3, 80, 0), 0) || p.Affected(pos(0, 63, 0), len(p.Steps)) {
		t.Error("an unrelated change affects the path")
	}
	// A change under the wall-top step, after it was walked.
	jump := -1
	for i, st := range p.Steps {
		if st.Jump {
			jump = i
			break
		}
	}
	if jump < 0 {
		t.Fatalf("no jump over the wall:\n%s", describe(r))
	}
	if !p.Affected(p.Steps[jump].Support, jump) || p.Affected(p.Steps[jump].Support, jump+3) {
		t.Errorf("the wall's top block matters until the step onto it is walked, then not")
	}
	// A block over a jump's arc counts too (conservatively: a jump over a
	// gap needs room there).
	arc := world.BlockPos{X: p.Steps[jump].From.X, Y: p.Steps[jump].From.Y + 3, Z: p.Steps[jump].From.Z}
	if !p.Affected(arc, jump) {
		t.Errorf("a block in the jump's arc at %v does not affect it", arc)
	}
	changes := []world.BlockChange{{Pos: pos(0, 64, 20)}, {Pos: p.Steps[len(p.Steps)-1].Support}}
	if !p.AffectedBy(changes, 0) || p.AffectedBy(changes[:1], 0) {
		t.Error("AffectedBy")
	}
	// The planner agrees: replacing an affected block changes the plan.
	w.set(p.Steps[jump].Support.X, p.Steps[jump].Support.Y, p.Steps[jump].Support.Z, "air")
	r2 := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{})
	if r2.Status != Complete || r2.Cost >= r.Cost {
		t.Errorf("a gap in the wall should make a cheaper path: %.1f then %.1f", r.Cost, r2.Cost)
	}
}

func TestNextWaypoint(t *testing.T) {
	v := flat(t, 2).view()
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(5, 64, 0)}, Options{})
	p := &r.Path
	if len(p.Steps) != 5 {
		t.Fatal(describe(r))
	}
	wp, ok := p.Next(0, 0.5, 64, 0.5)
	if !ok || wp.Index != 0 || wp.X != 1.5 || wp.Z != 0.5 || wp.Y != 64 {
		t.Fatalf("at the start: %+v %v", wp, ok)
	}
	// Halfway to the first step: still heading for it.
	if wp, _ = p.Next(0, 1.0, 64, 0.5); wp.Index != 0 {
		t.Errorf("halfway: %+v", wp)
	}
	// At the first step's block centre: on to the second.
	if wp, _ = p.Next(0, 1.6, 64, 0.4); wp.Index != 1 || wp.X != 2.5 {
		t.Errorf("arrived at step 0: %+v", wp)
	}
	// Pushed ahead two blocks: it skips what was reached.
	if wp, _ = p.Next(1, 3.5, 64, 0.5); wp.Index != 3 {
		t.Errorf("pushed ahead: %+v", wp)
	}
	// Too high above the step (still in the air) has not arrived.
	if wp, _ = p.Next(0, 1.5, 65.2, 0.5); wp.Index != 0 {
		t.Errorf("in the air: %+v", wp)
	}
	if _, ok = p.Next(4, 5.5, 64, 0.5); ok {
		t.Error("at the end: want false")
	}
}

// digThrough is a Mover as the skills issue might write one: it digs
// straight through solid blocks in the way, at a fixed cost, and walks out
// of the tunnel it dug. The built-in moves read the world as it is, so a
// Mover whose steps change blocks offers the moves out of the places it
// makes too.
type digThrough struct{ cost float64 }

func (d digThrough) Moves(t *Terrain, from Node, add func(Step)) {
	_, standing := t.Stand(from.Pos)
	for _, dir := range cardinals {
		to := world.BlockPos{X: from.Pos.X + dir[0], Y: from.Pos.Y, Z: from.Pos.Z + dir[1]}
		below := world.BlockPos{X: to.X, Y: to.Y - 1, Z: to.Z}
		if _, ok := t.Stand(to); ok {
			if !standing { // out of the tunnel
				add(Step{Move: Dig, To: to, Floor: float64(to.Y), Support: below, Cost: walkTicks})
			}
			continue
		}
		if st, ok := t.State(below); !ok || game.IsAir(st) {
			continue
		}
		head := world.BlockPos{X: to.X, Y: to.Y + 1, Z: to.Z}
		add(Step{Move: Dig, To: to, Floor: float64(to.Y), Support: below, Break: []world.BlockPos{to, head}, Cost: d.cost})
	}
}

func TestMoversExtendTheSearch(t *testing.T) {
	w := flat(t, 2)
	w.fill(4, 64, -32, 6, 70, 31, "stone") // a thick wall across the world
	v := w.view()
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonNeedsDigging {
		t.Fatalf("without digging:\n%s", describe(r))
	}
	r = plan(t, v, pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{Movers: []Mover{digThrough{cost: 40}}})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	digs := 0
	for _, st := range r.Path.Steps {
		if st.Move == Dig && len(st.Break) > 0 {
			digs++
			if len(st.Break) != 2 || st.Cost != 40 || st.From.X+1 != st.To.X {
				t.Errorf("dig step %+v", st)
			}
		}
	}
	if digs != 3 {
		t.Errorf("%d digs through a wall 3 thick:\n%s", digs, describe(r))
	}
	// A Mover's step that costs nothing is refused: it could loop.
	r = New(game, Options{Movers: []Mover{digThrough{cost: 0}}}).Plan(context.Background(), v, pos(0, 64, 0), Near{Pos: pos(10, 64, 0)})
	if r.Status == Complete {
		t.Errorf("a free dig was taken:\n%s", describe(r))
	}
}
