package path

import (
	"sync"

	"github.com/blockmate/blockmate/bot/world"
)

// Follow is a goal that moves: a player to meet or follow. The entity
// tracker reports where the target is (Move); the executor plans toward a
// snapshot of it (Goal) and re-plans when Move says the target has moved
// more than the threshold since that snapshot. A search never sees the
// target move under it. Follow is safe for concurrent use: Move is called
// from the read loop, Goal from the planner's goroutine.
type Follow struct {
	// Range is how near the bot should come (as Near); Replan is how far
	// the target may move from where the current plan aims before the
	// plan is made again.
	Range, Replan float64

	mu      sync.Mutex
	target  world.BlockPos
	planned world.BlockPos
	hasPlan bool
}

// NewFollow starts following a target at a position.
func NewFollow(target world.BlockPos, within, replanAfter float64) *Follow {
	return &Follow{Range: within, Replan: replanAfter, target: target}
}

// Move records the target's new position and says whether the current
// plan should be made again: true when it has moved more than Replan
// blocks from where the plan aims (or no plan was made yet).
func (f *Follow) Move(to world.BlockPos) (replan bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.target = to
	return f.stale()
}

func (f *Follow) stale() bool {
	if !f.hasPlan {
		return true
	}
	dx, dy, dz := float64(f.target.X-f.planned.X), float64(f.target.Y-f.planned.Y), float64(f.target.Z-f.planned.Z)
	return dx*dx+dy*dy+dz*dz > f.Replan*f.Replan
}

// Stale says whether the target has moved more than Replan from where the
// current plan aims.
func (f *Follow) Stale() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stale()
}

// Goal returns the goal to plan toward now: near the target where it is,
// remembered as where the plan aims.
func (f *Follow) Goal() Near {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.planned, f.hasPlan = f.target, true
	return Near{Pos: f.target, Range: f.Range}
}

// Target is where the target was last seen.
func (f *Follow) Target() world.BlockPos {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.target
}
