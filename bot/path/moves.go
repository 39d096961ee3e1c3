package path

import (
	"math"

	"github.com/blockmate/blockmate/bot/world"
)

// MoveKind is how the bot gets from one node of a path to the next. Each
// built-in kind lives in its own file (move_*.go), as Azalea's pathfinder
// keeps its moves.
type MoveKind uint8

const (
	// Walk is one block straight (north, south, east or west) on the
	// level, or up a step the player walks up without jumping (a slab, a
	// carpet, a snow layer): move_walk.go. Doors and gates on the way are
	// opened (Step.Open).
	Walk MoveKind = iota + 1
	// Diagonal is one block diagonally, on the level, a jump up or a drop:
	// move_diagonal.go.
	Diagonal
	// Ascend is a jump up onto a block up to 1.25 higher: move_ascend.go.
	Ascend
	// Descend is a step off a ledge and a fall to the first floor below,
	// no more than the fall the options allow: move_descend.go.
	Descend
	// Parkour is a running jump over a gap of one block (two when
	// sprinting) to a floor on the same level: move_parkour.go.
	Parkour
	// Swim is a move in water with nothing to stand on: move_swim.go.
	Swim
	// Climb is a block up or down a ladder or vine: move_climb.go.
	Climb
	// Dig and Bridge are for the moves a Mover adds (the skills issue
	// digs through and builds over); the planner makes none itself.
	Dig
	Bridge
)

var moveNames = [...]string{"", "walk", "diagonal", "ascend", "descend", "parkour", "swim", "climb", "dig", "bridge"}

// String is the kind's name, as results and logs show it.
func (k MoveKind) String() string {
	if int(k) < len(moveNames) && k != 0 {
		return moveNames[k]
	}
	return "unknown"
}

// Step is one move of a path: what the executor does to get from From to
// To.
type Step struct {
	Move MoveKind
	// From is where the step starts (the previous step's To, or the
	// path's start) and To where it ends: the blocks the feet are in.
	From, To world.BlockPos
	// Floor is the height of the feet at To: To.Y, or more on a slab,
	// carpet, snow layer or soul sand.
	Floor float64
	// Support is the block the bot stands on at To: the block below To,
	// or To itself for a block lower than a full one. For a node held by
	// water or a ladder it is To.
	Support world.BlockPos
	// Jump is set when the step needs a jump, taken at From.
	Jump bool
	// Sprint is set when the step may be sprinted.
	Sprint bool
	// Water is set when the feet are in water at To; Climbing when the
	// bot hangs on a ladder or vine there.
	Water, Climbing bool
	// Open are the doors and fence gates to open before the step (one
	// block per door).
	Open []world.BlockPos
	// Break and Place are the blocks a digging or bridging move (a Mover)
	// breaks and places; the built-in moves have none.
	Break, Place []world.BlockPos
	// Cost is the step's estimated time, in ticks.
	Cost float64
}

// A Mover adds moves of its own to the search: the extension point for
// digging through and bridging over (the skills issue), off unless
// Options.Movers names one. For each node the search expands it calls
// Moves with the node, and Moves calls add once per step it offers (with
// To, Floor, Move and a Cost in ticks; Break and Place say what it
// changes). The Terrain answers what the world holds.
type Mover interface {
	Moves(t *Terrain, from Node, add func(Step))
}

// from is the node being expanded.
type from struct {
	x, y, z int
	sp      spot
	floor   float64 // absolute feet height
}

func (f *from) node() Node { return f.sp.node(world.BlockPos{X: f.x, Y: f.y, Z: f.z}) }

// edge is one move the search may take from a node.
type edge struct {
	x, y, z int
	sp      spot
	kind    MoveKind
	cost    float64
	jump    bool
	opened  bool
	ext     *Step // a Mover's step, as it gave it
}

// add records a move.
func (s *search) add(x, y, z int, sp spot, kind MoveKind, cost float64, jump, opened bool) {
	opened = opened || sp.door
	if opened {
		cost += openTicks
	}
	if sp.kind == spotSwim && kind != Climb {
		kind = Swim
	}
	s.edges = append(s.edges, edge{x: x, y: y, z: z, sp: sp, kind: kind, cost: cost, jump: jump, opened: opened})
}

// perBlock is the time to cross one block between two nodes: sprinting
// (or walking, without sprint) divided by the speed factor of what they
// stand on, or swimming when either is in water.
func (s *search) perBlock(a, b spot) float64 {
	if a.water() || b.water() {
		return swimTicks
	}
	t := s.groundTicks
	if f := (a.speed + b.speed) / 2; f < 1 && f > 0 {
		t /= float64(f)
	}
	return t
}

// sprints says whether a step between two nodes may be sprinted.
func (s *search) sprints(a, b spot) bool {
	return s.sprint && !a.water() && !b.water() && a.speed >= 1 && b.speed >= 1
}

var cardinals = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
var diagonals = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// neighbours fills s.edges with every move from f.
func (s *search) neighbours(f *from) {
	s.edges = s.edges[:0]
	for _, d := range cardinals {
		dx, dz := d[0], d[1]
		// What is next door at the feet's level decides the candidates:
		// a place to stand (a walk), a block in the way (a jump up), or
		// open space (a drop, or a jump over the gap).
		x, z := f.x+dx, f.z+dz
		if next := s.t.stand(x, f.y, z); next.kind != spotNone {
			s.walk(f, dx, dz, next)
			continue
		}
		if s.t.bodyClear(x, z, sweep(-dx, -dz), f.floor, f.floor+playerHeight, s.doors) {
			s.descend(f, dx, dz)
			s.parkour(f, dx, dz)
		} else {
			s.ascend(f, dx, dz)
		}
	}
	for _, d := range diagonals {
		s.diagonal(f, d[0], d[1])
	}
	s.climb(f)
	s.swimVertical(f)
	for _, m := range s.movers {
		m.Moves(&s.t, f.node(), s.addStep)
	}
}

// addStep takes a Mover's step.
func (s *search) addStep(st Step) {
	if !(st.Cost > 0) || math.IsInf(st.Cost, 0) {
		return // a step must cost something, or the search could loop on it
	}
	fl := st.Floor - float64(st.To.Y)
	if fl < 0 || fl >= 1 {
		fl = 0
	}
	cp := st
	s.edges = append(s.edges, edge{x: st.To.X, y: st.To.Y, z: st.To.Z, sp: spot{kind: spotGround, floor: float32(fl), speed: 1},
		kind: st.Move, cost: st.Cost, jump: st.Jump, ext: &cp})
}
