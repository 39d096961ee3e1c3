package path

import "github.com/blockmate/blockmate/bot/world"

// Bridger is a Mover that builds its way: one block straight ahead on the
// level, over a gap, the void or water, by placing a block the bot carries
// under the next step against the block the bot stands on (which may be
// the last one it placed). Each block placed costs the time to place it
// and a Penalty, and a path places no more than Blocks in all (the search
// counts them along each path).
//
// It bridges only where the player could not stand otherwise, with room
// for the body above, and never over lava or where the step's blocks hold
// water.
type Bridger struct {
	// Blocks is how many blocks the bot carries to build with (dirt,
	// cobblestone, netherrack …): the most one path places.
	Blocks int
	// Penalty is added per block placed (DefaultBridgePenalty when 0).
	Penalty float64
}

const (
	// DefaultBridgePenalty is a placed block's cost beyond the placing:
	// the player's preference for a world left as it was, and a block
	// spent.
	DefaultBridgePenalty = 10.0
	// placeTicks is placing a block: a stop, a turn of the head down to
	// the face, the click and the server's answer.
	placeTicks = 6.0
)

// Moves adds the bridging steps from a node.
func (b *Bridger) Moves(t *Terrain, from Node, add func(Step)) {
	if b.Blocks <= 0 || from.Water || from.Climbing || from.Floor != float64(from.Pos.Y) {
		return
	}
	p := from.Pos
	// The block to click: the one under the bot, solid with a full top, or
	// air or water where an earlier step of the path placed one (the world
	// does not show it yet; only a bridging step leaves a ground node over
	// air or water).
	under := t.facts(p.X, p.Y-1, p.Z)
	if under.flags&fLoaded == 0 || under.flags&(fLava|fHazard|fOpenable) != 0 {
		return
	}
	if !t.bridgeable(world.BlockPos{X: p.X, Y: p.Y - 1, Z: p.Z}) {
		if u := t.spans(under.shape, fpCenter); u.empty() || u.hi < 1-eps || u.hi > 1+eps || u.lo > eps || under.flags&fWater != 0 {
			return
		}
	}
	penalty := b.Penalty
	if !(penalty > 0) {
		penalty = DefaultBridgePenalty
	}
	for _, c := range cardinals {
		dx, dz := c[0], c[1]
		to := world.BlockPos{X: p.X + dx, Y: p.Y, Z: p.Z + dz}
		if t.stand(to.X, to.Y, to.Z).kind != spotNone {
			continue // the ground is there: a walk
		}
		if t.facts(to.X, to.Y-1, to.Z).flags&fLoaded == 0 {
			t.metUnloaded = true
			continue
		}
		if !t.bridgeable(world.BlockPos{X: to.X, Y: to.Y - 1, Z: to.Z}) {
			continue
		}
		if t.facts(to.X, to.Y, to.Z).flags&fWater != 0 || t.facts(to.X, to.Y+1, to.Z).flags&fWater != 0 {
			continue
		}
		if !t.bodyClear(to.X, to.Z, sweep(-dx, -dz), float64(to.Y), float64(to.Y)+playerHeight, false) ||
			!t.bodyClear(to.X, to.Z, fpCenter, float64(to.Y), float64(to.Y)+playerHeight, false) {
			continue
		}
		place := world.BlockPos{X: to.X, Y: to.Y - 1, Z: to.Z}
		add(Step{Move: Bridge, To: to, Floor: float64(to.Y), Support: place, Place: []world.BlockPos{place},
			Cost: walkTicks + placeTicks + penalty})
	}
}

// bridgeable says whether a placed block may go at p: it holds air or
// water (which the block replaces), nothing else.
func (t *Terrain) bridgeable(p world.BlockPos) bool {
	f := t.facts(p.X, p.Y, p.Z)
	if f.flags&fLoaded == 0 || f.flags&(fLava|fHazard) != 0 || !t.spans(f.shape, fpCenter).empty() {
		return false
	}
	st, _ := t.State(p)
	if t.tab.game.IsAir(st) {
		return true
	}
	b := t.tab.game.BlockOf(st)
	return b != nil && b.Name == "water"
}
