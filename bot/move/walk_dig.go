package move

import (
	"context"
	"fmt"
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/path"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/geom"
)

// Digging and bridging steps (issue 11). A walk with Target.Dig or
// Target.Bridge plans with path.Digger and path.Bridger, costed with the
// hands' break times and the blocks the bot carries. When the tick comes
// to a step that breaks or places blocks still to be broken or placed, it
// stops steering and hands the step to the walk's task goroutine (the
// walk's replanWork): the hands (bot/dig) equip the best tool, look, dig
// and wait for the server's block change, or look at the face and place a
// block, exactly as mc_dig and mc_place do, and never from the tick (a
// look waits for the tick). Then the walk goes on from the same step, on
// the world with those blocks changed; a refused break or placement makes
// the walk plan again.

// worker is the part of the body's Hands (walk_open.go) that digs and
// bridges: bot/dig's *dig.Dig.
type worker interface {
	// Break breaks the block at p from where the bot stands.
	Break(ctx context.Context, p world.BlockPos) error
	// PlaceUnder places a throwaway block at p from where the bot stands.
	PlaceUnder(ctx context.Context, p world.BlockPos) error
	// BreakCost is the planner's break time with the tools carried now.
	BreakCost() func(mcdata.StateID) (int, bool)
	// Throwaway is how many blocks the bot carries to bridge with.
	Throwaway() int
}

// replanWork: the step at the cursor has blocks to break or place; the
// task goroutine does it and the walk goes on.
const replanWork replan = 100

// plannerFor is the planner of a walk: the body's own, or one that also
// digs and bridges when the target asks for it and the body has hands.
func (m *Mover) plannerFor(t Target) *path.Planner {
	m.mu.Lock()
	h := m.hands
	m.mu.Unlock()
	if h == nil || !t.Dig && !t.Bridge || m.eng == nil {
		return m.planner
	}
	opts := m.planner.Options()
	opts.Movers = nil
	if t.Dig {
		opts.Movers = append(opts.Movers, &path.Digger{BreakTicks: h.BreakCost()})
	}
	if t.Bridge {
		if n := h.Throwaway(); n > 0 {
			opts.Movers = append(opts.Movers, &path.Bridger{Blocks: n})
		}
	}
	return path.New(m.eng.Game(), opts)
}

// noPathNext is what to try after no path was found: the planner's
// advice, or, when the walk already digs or bridges, what stood in the
// way of that (nothing to build with; walls it may not or cannot dig).
func (m *Mover) noPathNext(t Target, r path.Reason) string {
	m.mu.Lock()
	h := m.hands
	m.mu.Unlock()
	if h == nil {
		return r.NextStep()
	}
	var why []string
	switch r {
	case path.ReasonNeedsDigging, path.ReasonLongFall, path.ReasonTooMuchWater:
		// A bridge would have crossed the gap or the water.
		if t.Bridge && h.Throwaway() == 0 {
			why = append(why, "the bot carries no blocks to bridge with (dirt, cobblestone, netherrack, stone …): give it some")
		}
	}
	switch r {
	case path.ReasonNeedsDigging, path.ReasonGoalEnclosed, path.ReasonStartEnclosed:
		if t.Dig {
			why = append(why, "digging is on, but every way is through blocks it must not dig (beside water or lava, under sand or gravel) or cannot (bedrock, or over 10 s with the tools it carries): give it a better tool or choose another goal")
		}
	}
	if len(why) == 0 {
		return r.NextStep()
	}
	return strings.Join(why, "; ")
}

// workLeft says whether a step has a block still to break (not air yet)
// or to place (air or water still) in the body's view. Callers hold m.mu.
func (m *Mover) workLeft(st *path.Step) bool {
	if len(st.Break) == 0 && len(st.Place) == 0 || m.view == nil {
		return false
	}
	g := m.eng.Game()
	for _, p := range st.Break {
		if s, ok := m.view.BlockAt(p); ok && !g.IsAir(s) {
			return true
		}
	}
	for _, p := range st.Place {
		if s, ok := m.view.BlockAt(p); ok && placeable(g, s) {
			return true
		}
	}
	return false
}

// placeable says whether a placed block would go into a state: air or
// water.
func placeable(g *mcdata.GameData, s mcdata.StateID) bool {
	if g.IsAir(s) {
		return true
	}
	b := g.BlockOf(s)
	return b != nil && b.Name == "water"
}

// stepWork is the tick's hook for the step being walked: it says whether
// the step waits for the hands (the walk then steers nothing: the bot
// stops where it is, at the step's start). Callers hold m.mu.
func (w *walk) stepWork(m *Mover, st *path.Step) bool {
	if !m.workLeft(st) {
		return false
	}
	w.need(replanWork)
	return true
}

// awaitSteps is await for a walk whose steps may need the hands: each
// time the tick hands over a step, the blocks are broken and placed here,
// on the task's goroutine, and the walk goes on; a refusal ends the wait
// with a new plan wanted.
func (m *Mover) awaitSteps(ctx context.Context, w *walk, t Target, aimed geom.Vec3, walkedBefore int) error {
	for {
		if err := m.await(ctx, w, t, aimed, walkedBefore); err != nil {
			return err
		}
		m.mu.Lock()
		working := w.why == replanWork && w.cursor < len(w.path.Steps)
		var st path.Step
		if working {
			st = w.path.Steps[w.cursor]
		}
		h := m.hands
		m.mu.Unlock()
		if !working {
			return nil
		}
		err := m.work(ctx, h, &st)
		m.mu.Lock()
		if err != nil {
			w.why = replanBlocks
			m.mu.Unlock()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			m.s.Log.Info("a digging or bridging step was refused; planning again", "step", st.To, "err", err)
			return nil
		}
		// The walk goes on from the same step, comparing later changes with
		// the world its own blocks are in.
		w.why = replanNone
		w.view = m.blocks.View()
		w.ticksOnStep = 0
		m.holdLocked(true)
		m.mu.Unlock()
		w.events.Broadcast()
	}
}

// work breaks and places a step's blocks, skipping what is done already.
func (m *Mover) work(ctx context.Context, h worker, st *path.Step) error {
	if h == nil {
		return fmt.Errorf("the body has no hands to dig or build with")
	}
	g := m.eng.Game()
	for _, p := range st.Break {
		if s, ok := m.blocks.View().BlockAt(p); ok && g.IsAir(s) {
			continue
		}
		if err := h.Break(ctx, p); err != nil {
			return fmt.Errorf("breaking %d %d %d: %w", p.X, p.Y, p.Z, err)
		}
	}
	for _, p := range st.Place {
		if s, ok := m.blocks.View().BlockAt(p); ok && !placeable(g, s) {
			continue
		}
		if err := h.PlaceUnder(ctx, p); err != nil {
			return fmt.Errorf("placing at %d %d %d: %w", p.X, p.Y, p.Z, err)
		}
	}
	return nil
}
