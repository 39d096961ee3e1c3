package worldmap

import (
	"math"

	"github.com/blockmate/blockmate/bot/world"
)

// MaxRadius bounds a grid's radius: 129×129 columns, the most a view
// distance of 10 holds around the bot with room to spare.
const MaxRadius = 64

// Grid is the world seen from above: (2·Radius+1)² columns around CX, CZ,
// row by row from the north (smallest z), each row from the west
// (smallest x).
type Grid struct {
	CX, CZ, Radius int
	Cells          []Class
}

// Side is how many columns a row holds.
func (g *Grid) Side() int { return 2*g.Radius + 1 }

// At is the class at an offset from the centre (dx east, dz south), and
// Unknown outside the grid.
func (g *Grid) At(dx, dz int) Class {
	if dx < -g.Radius || dx > g.Radius || dz < -g.Radius || dz > g.Radius {
		return Unknown
	}
	return g.Cells[(dz+g.Radius)*g.Side()+dx+g.Radius]
}

// Scanner reads maps from views and remembers, per column, the classes
// it read: columns are immutable (a block change makes a new one), so a
// column seen by the last scan is not read again. It keeps only the
// columns of its last scan. A Scanner is safe for one goroutine at a time.
type Scanner struct {
	table *Table
	last  map[*world.Column]*[256]Class
}

// NewScanner returns a scanner for a version's classes.
func NewScanner(t *Table) *Scanner { return &Scanner{table: t} }

// Scan reads the top block of every column within radius (a square) of
// cx, cz from the view. Each chunk column is read once, for all its 256
// columns of blocks, and remembered for the next scan: from the top, the
// sections that are all air (or all see-through) are skipped with one
// check each, and blocks are read only from the surface down to the first
// that shows.
func (s *Scanner) Scan(v *world.View, cx, cz, radius int) Grid {
	radius = min(max(radius, 0), MaxRadius)
	g := Grid{CX: cx, CZ: cz, Radius: radius, Cells: make([]Class, (2*radius+1)*(2*radius+1))}
	side := g.Side()
	x0, z0 := cx-radius, cz-radius
	x1, z1 := cx+radius, cz+radius
	next := make(map[*world.Column]*[256]Class, len(s.last))
	for chz := z0 >> 4; chz <= z1>>4; chz++ {
		for chx := x0 >> 4; chx <= x1>>4; chx++ {
			col := v.Column(world.ChunkPos{X: int32(chx), Z: int32(chz)})
			if col == nil {
				continue // Unknown, the zero class
			}
			tops := s.last[col]
			if tops == nil {
				tops = s.read(col, v.Layout().Sections())
			}
			next[col] = tops
			for z := max(z0, chz<<4); z <= min(z1, chz<<4|15); z++ {
				row := (z - z0) * side
				for x := max(x0, chx<<4); x <= min(x1, chx<<4|15); x++ {
					g.Cells[row+x-x0] = tops[(z&15)<<4|x&15]
				}
			}
		}
	}
	s.last = next
	return g
}

// read classifies the top of each of a column's 256 columns of blocks.
func (s *Scanner) read(col *world.Column, sections int) *[256]Class {
	var tops [256]Class
	top := topSection(col, s.table, sections)
	for i := range tops {
		tops[i] = topClass(col, s.table, top, i&15, i>>4)
	}
	return &tops
}

// Scan reads a map without remembering anything (see Scanner.Scan).
func Scan(v *world.View, t *Table, cx, cz, radius int) Grid {
	return NewScanner(t).Scan(v, cx, cz, radius)
}

// topSection is the index of the highest section that is not all one
// see-through state, or -1.
func topSection(col *world.Column, t *Table, sections int) int {
	for i := sections - 1; i >= 0; i-- {
		sec := col.Section(i)
		if sec == nil {
			continue
		}
		if st, single := sec.Single(); single && t.of(st) == through {
			continue
		}
		return i
	}
	return -1
}

// topClass is the class of the highest block of a column (local x, z)
// that is not see-through, looking down from section top. Leaves with a
// trunk under them are the trunk: seen from above a forest is all canopy,
// and the trees (what a player walks between and the bot digs) would
// vanish from the map.
func topClass(col *world.Column, t *Table, top, x, z int) Class {
	for i := top; i >= 0; i-- {
		sec := col.Section(i)
		if sec == nil {
			continue
		}
		if st, single := sec.Single(); single {
			if c := t.of(st); c != through {
				if c == Leaves {
					return underCanopy(col, t, i*16+15, x, z)
				}
				return c
			}
			continue
		}
		for y := 15; y >= 0; y-- {
			if c := t.of(sec.Block(x, y, z)); c != through {
				if c == Leaves {
					return underCanopy(col, t, i*16+y, x, z)
				}
				return c
			}
		}
	}
	return Empty
}

// canopyDepth bounds the look through leaves for a trunk: deeper than the
// crown of any tree the game grows over its trunk (a dark oak's or a
// jungle tree's is a few blocks; a mangrove's roots are no trunk).
const canopyDepth = 12

// underCanopy looks down from leaves at local height y (from the
// column's bottom section) through leaves and see-through blocks: Wood
// when a trunk is under them, else Leaves.
func underCanopy(col *world.Column, t *Table, y, x, z int) Class {
	for d := 1; d <= canopyDepth && y-d >= 0; d++ {
		sec := col.Section((y - d) >> 4)
		if sec == nil {
			continue
		}
		switch t.of(sec.Block(x, (y-d)&15, z)) {
		case Leaves, through:
		case Wood:
			return Wood
		default:
			return Leaves // the ground, or a block on it
		}
	}
	return Leaves
}

// Facing names the compass direction of a yaw in degrees (the game's: 0
// looks south, +z; 90 west), to the nearest of eight; "" for a yaw that
// is not a number.
func Facing(yaw float32) string {
	y := float64(yaw)
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return ""
	}
	i := int(math.Floor(math.Mod(y/45+0.5, 8)+8)) % 8
	return [...]string{"south", "south-west", "west", "north-west", "north", "north-east", "east", "south-east"}[i]
}
