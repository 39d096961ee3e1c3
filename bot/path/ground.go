package path

import (
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// Where a walk goes when people name only x and z ("go to 100 -40"), or
// guess a y that is under the ground: the place a player would stand
// there, found with the planner's own question (Terrain.Stand), so that
// the goal is a place the search can end at.

// GroundAnswer is what Ground found in one column.
type GroundAnswer struct {
	// Node is where to stand; Found says there is such a place.
	Node  Node
	Found bool
	// Unloaded says the column's chunk is not loaded: nothing is known.
	Unloaded bool
}

// Ground finds where to stand in the column x, z of view. Without a guess
// (hasY false) it is the ground: the highest place a player can stand
// whose floor is not part of a tree (leaves, logs: under a forest canopy
// the ground is the forest floor, not the top of the leaves), or the
// highest place at all when every one is on a tree. With a guessed feet y
// it is that place when a player can stand there; else, when the guess is
// inside blocks (under the ground), the first place above it, and when it
// is in the air, the ground below it as without a guess (the other way
// when there is none that way).
func (p *Planner) Ground(view *world.View, x, z int, y int, hasY bool) GroundAnswer {
	s, _ := p.scratch.Get().(*search)
	if s == nil {
		s = &search{}
	}
	defer p.scratch.Put(s)
	t := &s.t
	t.reset(view, p.tab)
	if !t.Loaded(world.BlockPos{X: x, Y: 0, Z: z}) {
		return GroundAnswer{Unloaded: true}
	}
	stand := func(y int) (Node, bool) { return t.Stand(world.BlockPos{X: x, Y: y, Z: z}) }
	lo, hi := t.minY+1, t.maxY-1
	tree := p.treeBlocks()
	// groundBelow is the first place down from y whose floor is not part
	// of a tree, or else the first place at all.
	groundBelow := func(y int) GroundAnswer {
		var top GroundAnswer
		for ; y >= lo; y-- {
			n, ok := stand(y)
			if !ok {
				continue
			}
			st, _ := view.BlockAt(world.BlockPos{X: x, Y: y - 1, Z: z})
			if !tree(st) {
				return GroundAnswer{Node: n, Found: true}
			}
			if !top.Found {
				top = GroundAnswer{Node: n, Found: true}
			}
		}
		return top
	}
	if !hasY {
		return groundBelow(hi)
	}
	y = min(max(y, lo), hi)
	if n, ok := stand(y); ok {
		return GroundAnswer{Node: n, Found: true}
	}
	above := func() GroundAnswer {
		for up := y + 1; up <= hi; up++ {
			if n, ok := stand(up); ok {
				return GroundAnswer{Node: n, Found: true}
			}
		}
		return GroundAnswer{}
	}
	// Inside blocks the guess was under the ground: the surface above it
	// first. In the air: the ground below it first (a guess over a tree
	// is the forest floor, not the leaves).
	if !t.tab.spans[t.facts(x, y, z).shape][fpCenter].empty() {
		if g := above(); g.Found {
			return g
		}
		return groundBelow(y - 1)
	}
	if g := groundBelow(y - 1); g.Found {
		return g
	}
	return above()
}

// treeBlocks says whether a state is part of a tree: the blocks of the
// items the game's leaves and logs tags hold.
func (p *Planner) treeBlocks() func(mcdata.StateID) bool {
	p.treeOnce.Do(func() {
		var names []*mcdata.Block
		for _, tag := range []string{"leaves", "logs"} {
			for _, id := range p.game.ItemTag(tag) {
				if it := p.game.Item(id); it != nil {
					if b := p.game.BlockByName(it.Name); b != nil {
						names = append(names, b)
					}
				}
			}
		}
		p.tree = p.game.StatesOf(func(b *mcdata.Block) bool {
			for _, n := range names {
				if n == b {
					return true
				}
			}
			return false
		})
	})
	return p.tree.Has
}
