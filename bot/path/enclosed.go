package path

import "github.com/blockmate/blockmate/bot/world"

// When a search has reached every place it can without reaching the goal,
// the caller needs to know why, to say what to try. The first question is
// whether the bot or the goal is shut in: a flood six ways from the start
// or the goal through every block a player might pass part of (see
// roomy: wooden doors and gates count as open, lava does not), across
// faces no shape closes (a closed iron door does). It must over-estimate
// where a player can go, never under-estimate it. If it runs out of blocks
// before floodLimit, and never meets an unloaded block, the place is
// closed: no way in or out without digging, whatever the moves.

// floodLimit bounds the flood: a room, a box or a small cave is far
// smaller; anything larger counts as open.
const floodLimit = 8192

// flood fills open blocks from the seeds and reports whether the fill was
// bounded (closed) and whether any block it reached satisfies hit.
func (s *search) flood(seeds []world.BlockPos, hit func(world.BlockPos) bool) (closed, found bool) {
	seen := make(map[world.BlockPos]bool, 256)
	queue := make([]world.BlockPos, 0, 256)
	for _, p := range seeds {
		if !seen[p] {
			seen[p] = true
			queue = append(queue, p)
		}
	}
	for len(queue) > 0 {
		p := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if hit(p) {
			found = true
		}
		for _, d := range [6][3]int{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
			q := world.BlockPos{X: p.X + d[0], Y: p.Y + d[1], Z: p.Z + d[2]}
			if seen[q] {
				continue
			}
			// Across a face: both blocks leave room over the strip by
			// that face; up or down: both leave room in the middle.
			out, in := sweep(d[0], d[2]), sweep(-d[0], -d[2])
			roomyHere, _ := s.t.roomy(p.X, p.Y, p.Z, out)
			roomyThere, loaded := s.t.roomy(q.X, q.Y, q.Z, in)
			if !loaded {
				return false, found
			}
			if !roomyHere || !roomyThere {
				continue
			}
			if len(seen) >= floodLimit {
				return false, found
			}
			seen[q] = true
			queue = append(queue, q)
		}
	}
	return true, found
}

// enclosedStart says whether the bot is shut in, away from the goal.
func (s *search) enclosedStart(start world.BlockPos) bool {
	closed, found := s.flood([]world.BlockPos{start}, s.goal.Done)
	return closed && !found
}

// enclosedGoal says whether the goal is shut in (or buried: no open block
// at it or beside it), away from the bot.
func (s *search) enclosedGoal(target world.BlockPos) bool {
	var seeds []world.BlockPos
	for _, d := range [7][3]int{{0, 0, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
		q := world.BlockPos{X: target.X + d[0], Y: target.Y + d[1], Z: target.Z + d[2]}
		if roomy, _ := s.t.roomy(q.X, q.Y, q.Z, fpCenter); roomy {
			seeds = append(seeds, q)
		}
	}
	if len(seeds) == 0 {
		return true
	}
	head := world.BlockPos{X: s.startPos.X, Y: s.startPos.Y + 1, Z: s.startPos.Z}
	closed, found := s.flood(seeds, func(p world.BlockPos) bool { return p == s.startPos || p == head })
	return closed && !found
}
