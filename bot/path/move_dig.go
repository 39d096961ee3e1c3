package path

import (
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// Digger is a Mover that digs its way: one block straight ahead through
// what fills the feet's and the head's blocks there, or a block up or down
// breaking what is in the body's way (and, going up, the block over the
// bot's own head that the jump needs). Each step costs the real break
// time of every block it breaks, with the best tool the bot holds, plus a
// Penalty, so the planner digs only where walking around takes longer.
//
// It never breaks: the block the bot stands on or will stand on; a block
// it cannot break (bedrock, barriers; BreakTicks says false) or would take
// longer than MaxTicks on; a block beside water or lava (or holding some:
// breaking it would let the fluid in onto the path); a door or gate; a
// block under one that falls (sand, gravel: it would drop into the
// hole). It refuses a target with something harmful in it (fire, a
// cobweb). The planner does not track what a path changed, so a step out
// of a dug block (which the world still shows solid) is this Mover's too:
// it breaks nothing when the way ahead is open.
type Digger struct {
	// BreakTicks is how many ticks breaking a block state takes with the
	// best tool the bot holds, and false when the bot cannot break it. The
	// caller passes bot/dig's computation in (the planner knows nothing of
	// tools). It is called from the planning goroutine only.
	BreakTicks func(mcdata.StateID) (int, bool)
	// Penalty is added per block broken (DefaultDigPenalty when 0): the
	// turn of the head, the swing, the wait for the server, and the
	// player's preference for a world left as it was.
	Penalty float64
	// MaxTicks is the longest break the Digger takes on, per block
	// (DefaultDigMaxTicks when 0).
	MaxTicks int
}

const (
	// DefaultDigPenalty is a dug block's cost beyond its break time: about
	// as long as sprinting five blocks.
	DefaultDigPenalty = 20.0
	// DefaultDigMaxTicks is the slowest block a path digs through: ten
	// seconds. Stone by hand (150 ticks; 23 with a wooden pickaxe) is dug
	// when nothing else leads on; obsidian without a diamond pickaxe, or a
	// wrong tool on a hard block, is not a way.
	DefaultDigMaxTicks = 200
)

// Moves adds the digging steps from a node: straight, up and down in the
// four directions.
func (d *Digger) Moves(t *Terrain, from Node, add func(Step)) {
	if d.BreakTicks == nil || from.Swimming || from.Climbing || from.Floor != float64(from.Pos.Y) {
		return
	}
	// A node the world still shows solid was dug by the step that reached
	// it: walking on from it is this Mover's to offer.
	dug := !t.Clear(from.Pos, from.Floor, from.Floor+playerHeight)
	for _, c := range cardinals {
		dx, dz := c[0], c[1]
		for dy := -1; dy <= 1; dy++ {
			d.move(t, from, dx, dy, dz, dug, add)
		}
	}
}

// move offers one step dy blocks up or down toward (dx, dz).
func (d *Digger) move(t *Terrain, from Node, dx, dy, dz int, dug bool, add func(Step)) {
	p := from.Pos
	to := world.BlockPos{X: p.X + dx, Y: p.Y + dy, Z: p.Z + dz}
	// What the body passes through: the target's two blocks, the block
	// above them when stepping down (the head leaves at the old height),
	// and the block over the bot's own head when jumping up. Top first:
	// the order the executor breaks them in.
	var cells []world.BlockPos
	switch dy {
	case 1:
		cells = []world.BlockPos{{X: p.X, Y: p.Y + 2, Z: p.Z}, {X: to.X, Y: to.Y + 1, Z: to.Z}, to}
	case 0:
		cells = []world.BlockPos{{X: to.X, Y: to.Y + 1, Z: to.Z}, to}
	case -1:
		cells = []world.BlockPos{{X: to.X, Y: to.Y + 2, Z: to.Z}, {X: to.X, Y: to.Y + 1, Z: to.Z}, to}
	}
	// The target must stand on a whole block's top, which stays.
	below := t.facts(to.X, to.Y-1, to.Z)
	if below.flags&fLoaded == 0 || below.flags&fHazard != 0 || below.flags&(fWater|fLava) != 0 {
		return
	}
	if u := t.spans(below.shape, fpCenter); u.empty() || u.hi < 1-eps || u.hi > 1+eps {
		return
	}
	var breaks []world.BlockPos
	cost := 0.0
	penalty := d.Penalty
	if !(penalty > 0) {
		penalty = DefaultDigPenalty
	}
	maxTicks := d.MaxTicks
	if maxTicks <= 0 {
		maxTicks = DefaultDigMaxTicks
	}
	for _, c := range cells {
		f := t.facts(c.X, c.Y, c.Z)
		if f.flags&fLoaded == 0 {
			t.metUnloaded = true
			return
		}
		if f.flags&(fWater|fLava) != 0 {
			return // a fluid in the way (or a waterlogged block) is not dug
		}
		if t.spans(f.shape, fpCenter).empty() && t.spans(f.shape, sweep(-dx, -dz)).empty() {
			if f.flags&fHazard != 0 {
				t.metHazard = true
				return // fire, a cobweb, a berry bush: not walked into
			}
			continue // nothing to break
		}
		if f.flags&fOpenable != 0 {
			return
		}
		st, _ := t.State(c)
		ticks, ok := d.BreakTicks(st)
		if !ok || ticks > maxTicks {
			return
		}
		if t.nearFluid(c) {
			return
		}
		breaks = append(breaks, c)
		cost += float64(ticks) + penalty
	}
	if len(breaks) == 0 && !dug {
		return // the planner's own moves walk where nothing is in the way
	}
	// A falling block over a broken one would drop into the hole: the
	// block above the highest broken block of each column must not fall.
	for i, b := range breaks {
		if i > 0 && breaks[i-1].X == b.X && breaks[i-1].Z == b.Z {
			continue // not the top of its column
		}
		if t.facts(b.X, b.Y+1, b.Z).flags&fFalls != 0 {
			return
		}
	}
	st := Step{Move: Dig, To: to, Floor: float64(to.Y), Support: world.BlockPos{X: to.X, Y: to.Y - 1, Z: to.Z}, Break: breaks}
	switch dy {
	case 1:
		st.Jump = true
		cost += walkTicks + jumpUpExtra
	case 0:
		cost += walkTicks
	case -1:
		cost += descendTicks(walkTicks, 1)
	}
	st.Cost = cost
	add(st)
}

// nearFluid says whether water or lava touches block c on any of its six
// faces: breaking c would let it flow in.
func (t *Terrain) nearFluid(c world.BlockPos) bool {
	for _, d := range [6][3]int{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
		if t.facts(c.X+d[0], c.Y+d[1], c.Z+d[2]).flags&(fWater|fLava) != 0 {
			return true
		}
	}
	return false
}
