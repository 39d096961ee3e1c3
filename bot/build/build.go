// Package build is the pure core of blockmate's building tools: a recipe
// or a schematic becomes a bounded set of target blocks, a plan of the
// writes that change the world (checked against what is there, ordered
// so that what is placed stands, hashed, with the materials it takes), the
// reverse plan that undoes an apply, the region inspection and the
// schematic export. Nothing here touches the network or the disk: the
// world comes in as a Reader, a function from a position to the state
// there, so the tools pass a world.View's BlockAt and the tests a map.
package build

import (
	"fmt"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// MaxPositions is the most positions a plan, an inspection or an export
// covers: the seed builder's limit, a few minutes of placing by hand.
const MaxPositions = 4096

// Pos is a block position, as results carry it.
type Pos struct {
	X int `json:"x"`
	Y int `json:"y"`
	Z int `json:"z"`
}

func (p Pos) add(q Pos) Pos { return Pos{p.X + q.X, p.Y + q.Y, p.Z + q.Z} }

// BlockPos is the position in the world package's type.
func (p Pos) BlockPos() world.BlockPos { return world.BlockPos{X: p.X, Y: p.Y, Z: p.Z} }

func (p Pos) String() string { return fmt.Sprintf("%d %d %d", p.X, p.Y, p.Z) }

// Region is an inclusive box.
type Region struct {
	Min Pos `json:"min"`
	Max Pos `json:"max"`
}

// Size is the box's extent along each axis.
func (r Region) Size() (w, h, l int) {
	return r.Max.X - r.Min.X + 1, r.Max.Y - r.Min.Y + 1, r.Max.Z - r.Min.Z + 1
}

// Reader reads the world: the state at a position, and false where it is
// not known (the chunk is not loaded, or y is outside the dimension).
// world.View.BlockAt is one, through ViewReader.
type Reader func(Pos) (mcdata.StateID, bool)

// ViewReader reads a world snapshot.
func ViewReader(v *world.View) Reader {
	return func(p Pos) (mcdata.StateID, bool) { return v.BlockAt(p.BlockPos()) }
}

// coordLimit bounds every coordinate a recipe or a region names: the
// world border is 30 million blocks out, and y is far smaller; beyond it
// a number is a mistake, and arithmetic on it must not overflow.
const coordLimit = 30_000_000

func checkPos(what string, p Pos) error {
	if p.X < -coordLimit || p.X > coordLimit || p.Z < -coordLimit || p.Z > coordLimit || p.Y < -4096 || p.Y > 4096 {
		return fmt.Errorf("%s %v is outside the world; x and z lie within ±30000000 and y within ±4096", what, p)
	}
	return nil
}

// NewRegion makes the box spanned by two corners in any order, refusing
// one of more than MaxPositions positions.
func NewRegion(a, b Pos) (Region, error) {
	if err := checkPos("corner", a); err != nil {
		return Region{}, err
	}
	if err := checkPos("corner", b); err != nil {
		return Region{}, err
	}
	r := Region{
		Min: Pos{min(a.X, b.X), min(a.Y, b.Y), min(a.Z, b.Z)},
		Max: Pos{max(a.X, b.X), max(a.Y, b.Y), max(a.Z, b.Z)},
	}
	w, h, l := r.Size()
	if n := int64(w) * int64(h) * int64(l); n > MaxPositions {
		return Region{}, fmt.Errorf("the region %v to %v is %d×%d×%d, %d positions; at most %d are read at once, so split it", r.Min, r.Max, w, h, l, n, MaxPositions)
	}
	return r, nil
}

// each calls f for every position of the region, y outermost, then z, then
// x: the order of a schematic's blocks.
func (r Region) each(f func(Pos)) {
	for y := r.Min.Y; y <= r.Max.Y; y++ {
		for z := r.Min.Z; z <= r.Max.Z; z++ {
			for x := r.Min.X; x <= r.Max.X; x++ {
				f(Pos{x, y, z})
			}
		}
	}
}

// stateNames caches canonical state text per state id, so a plan or an
// inspection of 4096 positions formats each distinct state once.
type stateNames struct {
	g     *mcdata.GameData
	names map[mcdata.StateID]string
}

func newStateNames(g *mcdata.GameData) *stateNames {
	return &stateNames{g: g, names: map[mcdata.StateID]string{}}
}

func (n *stateNames) of(id mcdata.StateID) string {
	if s, ok := n.names[id]; ok {
		return s
	}
	st, ok := n.g.StateByID(id)
	s := st.String()
	if !ok {
		s = fmt.Sprintf("unknown state %d", id)
	}
	n.names[id] = s
	return s
}
