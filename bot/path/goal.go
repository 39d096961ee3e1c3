package path

import (
	"math"

	"github.com/blockmate/blockmate/bot/world"
)

// Goal is where a path should end. Positions are the blocks the bot's
// feet are in.
type Goal interface {
	// Done says whether standing at p fulfils the goal.
	Done(p world.BlockPos) bool
	// Heuristic estimates the time from p to the goal in ticks, never
	// more than the real cost for the planner to find the cheapest path
	// (Estimate gives the lower bound for an offset).
	Heuristic(p world.BlockPos) float64
}

// Targeter is a goal with one block at its heart. The planner uses it to
// tell why it found no path: the target's chunk is not loaded, or the
// target is shut in.
type Targeter interface {
	Target() world.BlockPos
}

// Near is standing within Range blocks of Pos (the distance between the
// feet's block and Pos); Range 0 is standing at Pos.
type Near struct {
	Pos   world.BlockPos
	Range float64
}

// Done says whether p is within the range.
func (g Near) Done(p world.BlockPos) bool {
	dx, dy, dz := float64(p.X-g.Pos.X), float64(p.Y-g.Pos.Y), float64(p.Z-g.Pos.Z)
	return dx*dx+dy*dy+dz*dz <= g.Range*g.Range+1e-9
}

// Heuristic estimates the time to the sphere around Pos.
func (g Near) Heuristic(p world.BlockPos) float64 {
	return shrunk(float64(g.Pos.X-p.X), float64(g.Pos.Y-p.Y), float64(g.Pos.Z-p.Z), g.Range)
}

// Target is Pos.
func (g Near) Target() world.BlockPos { return g.Pos }

// shrunk is the estimate for an offset less a range along it: the
// distance to the nearest point of the sphere around the goal.
func shrunk(dx, dy, dz, r float64) float64 {
	d := math.Sqrt(dx*dx + dy*dy + dz*dz)
	if d <= r {
		return 0
	}
	k := (d - r) / d
	return Estimate(dx*k, dy*k, dz*k)
}

// NearXZ is standing within Range blocks of the column at X, Z,
// horizontally, at any height.
type NearXZ struct {
	X, Z  int
	Range float64
}

// Done says whether p is within the range horizontally.
func (g NearXZ) Done(p world.BlockPos) bool {
	dx, dz := float64(p.X-g.X), float64(p.Z-g.Z)
	return dx*dx+dz*dz <= g.Range*g.Range+1e-9
}

// Heuristic estimates the time to the circle around the column.
func (g NearXZ) Heuristic(p world.BlockPos) float64 {
	return shrunk(float64(g.X-p.X), 0, float64(g.Z-p.Z), g.Range)
}

// Reach is standing where the block at Block is within reach to use or
// break it: the eyes (1.62 above the feet) within Range (default 4.5, the
// game's block interaction range) of the nearest point of the block. It
// does not check the line of sight.
type Reach struct {
	Block world.BlockPos
	Range float64
}

func (g Reach) reach() float64 {
	if g.Range > 0 {
		return g.Range
	}
	return reachDistance
}

// eyeOffset is the offset from a bot standing at p's eyes to the nearest
// point of block b.
func eyeOffset(p, b world.BlockPos) (dx, dy, dz float64) {
	ex, ey, ez := float64(p.X)+0.5, float64(p.Y)+eyeHeight, float64(p.Z)+0.5
	axis := func(e float64, lo int) float64 {
		switch {
		case e < float64(lo):
			return float64(lo) - e
		case e > float64(lo+1):
			return float64(lo+1) - e
		}
		return 0
	}
	return axis(ex, b.X), axis(ey, b.Y), axis(ez, b.Z)
}

// Done says whether the block is within reach from p.
func (g Reach) Done(p world.BlockPos) bool {
	dx, dy, dz := eyeOffset(p, g.Block)
	r := g.reach()
	return dx*dx+dy*dy+dz*dz <= r*r
}

// Heuristic estimates the time to a place within reach.
func (g Reach) Heuristic(p world.BlockPos) float64 {
	dx, dy, dz := eyeOffset(p, g.Block)
	return shrunk(dx, dy, dz, g.reach())
}

// Target is the block.
func (g Reach) Target() world.BlockPos { return g.Block }

// ReachAny is reaching any of several blocks, as Reach: "go to the
// nearest oak log" is ReachAny of the logs FindBlocks found. The search
// ends at whichever is cheapest to reach. Keep the list short (FindBlocks'
// nearest few): each position asks every block.
type ReachAny struct {
	Blocks []world.BlockPos
	Range  float64
}

// ReachFound is ReachAny of the blocks a FindBlocks search returned.
func ReachFound(found []world.Found) ReachAny {
	g := ReachAny{Blocks: make([]world.BlockPos, len(found))}
	for i, f := range found {
		g.Blocks[i] = f.Pos
	}
	return g
}

// Done says whether any of the blocks is within reach from p.
func (g ReachAny) Done(p world.BlockPos) bool {
	for _, b := range g.Blocks {
		if (Reach{b, g.Range}).Done(p) {
			return true
		}
	}
	return false
}

// Heuristic is the least estimate over the blocks.
func (g ReachAny) Heuristic(p world.BlockPos) float64 {
	best := math.Inf(1)
	for _, b := range g.Blocks {
		best = min(best, Reach{b, g.Range}.Heuristic(p))
	}
	if math.IsInf(best, 1) {
		return 0
	}
	return best
}

// Away is being at least Distance blocks (horizontally) from From: to
// flee a mob or clear a spot. Its heuristic favours moving straight away.
type Away struct {
	From     world.BlockPos
	Distance float64
}

// Done says whether p is far enough away.
func (g Away) Done(p world.BlockPos) bool {
	dx, dz := float64(p.X-g.From.X), float64(p.Z-g.From.Z)
	return dx*dx+dz*dz >= g.Distance*g.Distance
}

// Heuristic estimates the time to get far enough straight away.
func (g Away) Heuristic(p world.BlockPos) float64 {
	dx, dz := float64(p.X-g.From.X), float64(p.Z-g.From.Z)
	d := math.Sqrt(dx*dx + dz*dz)
	if d >= g.Distance {
		return 0
	}
	return (g.Distance - d) * sprintTicks
}
