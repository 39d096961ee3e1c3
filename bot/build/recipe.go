package build

import (
	"fmt"
	"sort"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Recipe limits. Every number a recipe carries is checked against them
// before anything is allocated or looped over, so a recipe of a few bytes
// cannot ask for a billion positions.
const (
	// RecipeVersion is the recipe format this package reads.
	RecipeVersion = 1
	// MaxOperations is the most operations a recipe holds, nested ones
	// counted.
	MaxOperations = 256
	// MaxRepeatDepth is how deeply repeats nest.
	MaxRepeatDepth = 4
	// MaxWrites is the most single-position writes the expansion makes,
	// overwrites included (a repeat with offset 0 writes the same blocks
	// again; the budget ends it).
	MaxWrites = 16 * MaxPositions
	// MaxRadius is the largest cylinder radius (a disc 129 blocks wide).
	MaxRadius = 64
)

// Recipe is mc_build_prepare's recipe: operations applied in order, a
// later one overwriting what an earlier one wrote at the same position (a
// box of planks, then a line of air for the door).
type Recipe struct {
	Version    int         `json:"version"`
	Operations []Operation `json:"operations"`
}

// Operation is one recipe step. Op names it; the fields it uses:
//
//	box       min, max, block, hollow? (only the outer shell), walls? (only the four sides)
//	line      from, to, block
//	cylinder  center (the bottom centre), radius, height, block, hollow?, walls?
//	repeat    count, offset, operations (copy k is shifted by k × offset)
//
// Coordinates are the world's, inclusive. A block is a state in the
// game's syntax ("oak_stairs[facing=south]"); properties not named take
// the default.
type Operation struct {
	Op         string      `json:"op"`
	Min        *Pos        `json:"min,omitempty"`
	Max        *Pos        `json:"max,omitempty"`
	From       *Pos        `json:"from,omitempty"`
	To         *Pos        `json:"to,omitempty"`
	Center     *Pos        `json:"center,omitempty"`
	Radius     int         `json:"radius,omitempty"`
	Height     int         `json:"height,omitempty"`
	Block      string      `json:"block,omitempty"`
	Hollow     bool        `json:"hollow,omitempty"`
	Walls      bool        `json:"walls,omitempty"`
	Count      int         `json:"count,omitempty"`
	Offset     *Pos        `json:"offset,omitempty"`
	Operations []Operation `json:"operations,omitempty"`
}

// Target is the blocks a recipe or schematic asks for: one state per
// position, in the order the positions were first written.
type Target struct {
	Blocks []TargetBlock
	index  map[Pos]int
	// writes counts every write, overwrites included, against MaxWrites.
	writes int
}

// TargetBlock is one wanted block.
type TargetBlock struct {
	Pos   Pos
	State mcdata.StateID
}

// Region is the box around the target's positions.
func (t *Target) Region() Region {
	if len(t.Blocks) == 0 {
		return Region{}
	}
	r := Region{Min: t.Blocks[0].Pos, Max: t.Blocks[0].Pos}
	for _, b := range t.Blocks[1:] {
		p := b.Pos
		r.Min = Pos{min(r.Min.X, p.X), min(r.Min.Y, p.Y), min(r.Min.Z, p.Z)}
		r.Max = Pos{max(r.Max.X, p.X), max(r.Max.Y, p.Y), max(r.Max.Z, p.Z)}
	}
	return r
}

// put sets one position, the last write winning.
func (t *Target) put(p Pos, s mcdata.StateID) error {
	t.writes++
	if t.writes > MaxWrites {
		return fmt.Errorf("the recipe writes more than %d blocks, overwrites counted; write each part once", MaxWrites)
	}
	if t.index == nil {
		t.index = map[Pos]int{}
	}
	if i, ok := t.index[p]; ok {
		t.Blocks[i].State = s
		return nil
	}
	if len(t.Blocks) == MaxPositions {
		return fmt.Errorf("the recipe covers more than %d positions; a plan places at most %d blocks, so build it in parts", MaxPositions, MaxPositions)
	}
	if err := checkPos("a position of the recipe", p); err != nil {
		return err
	}
	t.index[p] = len(t.Blocks)
	t.Blocks = append(t.Blocks, TargetBlock{p, s})
	return nil
}

// Expand turns a recipe into its target blocks in version g. Every block
// state is read with mcdata's state syntax; every size is checked before
// it is iterated. Errors name the operation ("operation 2 (box)", "operation
// 1 (repeat) > operation 3 (line)") and say what to change.
func Expand(g *mcdata.GameData, r Recipe) (*Target, error) {
	if r.Version != RecipeVersion {
		return nil, fmt.Errorf("recipe version %d is not known; write \"version\": %d", r.Version, RecipeVersion)
	}
	if len(r.Operations) == 0 {
		return nil, fmt.Errorf("the recipe has no operations; give at least one, such as {\"op\": \"box\", \"min\": …, \"max\": …, \"block\": \"oak_planks\"}")
	}
	n, err := countOps(r.Operations, 0)
	if err != nil {
		return nil, err
	}
	if n > MaxOperations {
		return nil, fmt.Errorf("the recipe has %d operations; at most %d are accepted", n, MaxOperations)
	}
	cost, err := writeCost(r.Operations, "")
	if err != nil {
		return nil, err
	}
	if cost > MaxWrites {
		return nil, fmt.Errorf("the recipe writes %d blocks, overwrites counted; at most %d are accepted, and a plan places at most %d", cost, MaxWrites, MaxPositions)
	}
	t := &Target{}
	e := expander{g: g, t: t, states: map[string]mcdata.StateID{}}
	if err := e.run(r.Operations, Pos{}, ""); err != nil {
		return nil, err
	}
	return t, nil
}

func countOps(ops []Operation, depth int) (int, error) {
	if depth > MaxRepeatDepth {
		return 0, fmt.Errorf("repeats nest deeper than %d; flatten the recipe", MaxRepeatDepth)
	}
	n := 0
	for _, op := range ops {
		n++
		if n > MaxOperations {
			return n, nil
		}
		if len(op.Operations) > 0 {
			m, err := countOps(op.Operations, depth+1)
			if err != nil {
				return 0, err
			}
			n += m
		}
	}
	return n, nil
}

func opName(path string, i int, op Operation) string {
	name := fmt.Sprintf("operation %d (%s)", i+1, op.Op)
	if path != "" {
		return path + " > " + name
	}
	return name
}

// writeCost is how many writes the operations make, computed from their
// numbers alone (saturating at MaxWrites+1), and the first operation whose
// shape is impossible.
func writeCost(ops []Operation, path string) (int64, error) {
	var total int64
	for i, op := range ops {
		name := opName(path, i, op)
		var c int64
		switch op.Op {
		case "box":
			if op.Min == nil || op.Max == nil {
				return 0, fmt.Errorf("%s needs min and max, such as {\"x\":0,\"y\":64,\"z\":0}", name)
			}
			if err := checkCorners(name, *op.Min, *op.Max); err != nil {
				return 0, err
			}
			c = boxCount(*op.Min, *op.Max, op.Hollow, op.Walls)
		case "line":
			if op.From == nil || op.To == nil {
				return 0, fmt.Errorf("%s needs from and to", name)
			}
			if err := checkCorners(name, *op.From, *op.To); err != nil {
				return 0, err
			}
			d := max(abs(op.To.X-op.From.X), abs(op.To.Y-op.From.Y), abs(op.To.Z-op.From.Z))
			c = int64(d) + 1
		case "cylinder":
			if op.Center == nil {
				return 0, fmt.Errorf("%s needs center (the bottom centre)", name)
			}
			if err := checkPos(name+"'s center", *op.Center); err != nil {
				return 0, err
			}
			if op.Radius < 0 || op.Radius > MaxRadius {
				return 0, fmt.Errorf("%s has radius %d; it must be 0–%d", name, op.Radius, MaxRadius)
			}
			if op.Height < 1 || op.Height > MaxPositions {
				return 0, fmt.Errorf("%s has height %d; it must be 1–%d", name, op.Height, MaxPositions)
			}
			full, rim := int64(len(discCells(op.Radius, false))), int64(len(discCells(op.Radius, true)))
			switch h := int64(op.Height); {
			case op.Walls:
				c = rim * h
			case op.Hollow && h == 1:
				c = full
			case op.Hollow:
				c = rim*(h-2) + 2*full // the floor and the roof are whole discs
			default:
				c = full * h
			}
		case "repeat":
			if op.Count < 1 || op.Count > MaxPositions {
				return 0, fmt.Errorf("%s has count %d; it must be 1–%d", name, op.Count, MaxPositions)
			}
			if op.Offset == nil {
				return 0, fmt.Errorf("%s needs offset, the shift between copies, such as {\"x\":4,\"y\":0,\"z\":0}", name)
			}
			if err := checkPos(name+"'s offset", *op.Offset); err != nil {
				return 0, err
			}
			if len(op.Operations) == 0 {
				return 0, fmt.Errorf("%s repeats no operations; put them in its operations", name)
			}
			inner, err := writeCost(op.Operations, name)
			if err != nil {
				return 0, err
			}
			c = mulSat(inner, int64(op.Count))
		case "":
			return 0, fmt.Errorf("%s has no op; it is one of box, line, cylinder, repeat", name)
		default:
			return 0, fmt.Errorf("%s: op %q is not one of box, line, cylinder, repeat", name, op.Op)
		}
		if op.Op != "repeat" && op.Block == "" {
			return 0, fmt.Errorf("%s needs a block, such as \"oak_planks\" or \"oak_stairs[facing=south]\"", name)
		}
		total += c
		if total > MaxWrites {
			return MaxWrites + 1, nil
		}
	}
	return total, nil
}

func checkCorners(name string, a, b Pos) error {
	if err := checkPos(name+"'s corner", a); err != nil {
		return err
	}
	return checkPos(name+"'s corner", b)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// boxCount is how many positions a box writes, saturating at
// MaxWrites+1 so that corners far apart cannot overflow.
func boxCount(a, b Pos, hollow, walls bool) int64 {
	w, h, l := int64(abs(b.X-a.X)+1), int64(abs(b.Y-a.Y)+1), int64(abs(b.Z-a.Z)+1)
	all := mulSat(mulSat(w, h), l)
	if all > MaxWrites {
		return all // a shell of such a box is larger than the budget too
	}
	switch {
	case walls:
		if w <= 2 || l <= 2 {
			return all
		}
		return all - (w-2)*h*(l-2)
	case hollow:
		if w <= 2 || h <= 2 || l <= 2 {
			return all
		}
		return all - (w-2)*(h-2)*(l-2)
	}
	return all
}

// mulSat multiplies positive counts, saturating at MaxWrites+1.
func mulSat(a, b int64) int64 {
	if a > MaxWrites || b > MaxWrites || a*b > MaxWrites {
		return MaxWrites + 1
	}
	return a * b
}

// discCells are the (dx, dz) of a disc of radius r: dx² + dz² ≤ r² + r,
// the cells whose centres lie within r + ½ of the centre's, which draws
// round discs at small radii. Rim only keeps the cells with a side
// neighbour outside the disc.
func discCells(r int, rimOnly bool) [][2]int {
	in := func(dx, dz int) bool { return dx*dx+dz*dz <= r*r+r }
	var out [][2]int
	for dz := -r; dz <= r; dz++ {
		for dx := -r; dx <= r; dx++ {
			if !in(dx, dz) {
				continue
			}
			if rimOnly && in(dx+1, dz) && in(dx-1, dz) && in(dx, dz+1) && in(dx, dz-1) {
				continue
			}
			out = append(out, [2]int{dx, dz})
		}
	}
	return out
}

type expander struct {
	g      *mcdata.GameData
	t      *Target
	states map[string]mcdata.StateID
}

func (e *expander) state(name, text string) (mcdata.StateID, error) {
	if s, ok := e.states[text]; ok {
		return s, nil
	}
	st, err := e.g.ParseState(text)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", name, err)
	}
	e.states[text] = st.ID
	return st.ID, nil
}

func (e *expander) run(ops []Operation, shift Pos, path string) error {
	for i, op := range ops {
		name := opName(path, i, op)
		if op.Op == "repeat" {
			for k := 0; k < op.Count; k++ {
				s := shift.add(Pos{k * op.Offset.X, k * op.Offset.Y, k * op.Offset.Z})
				if err := e.run(op.Operations, s, name); err != nil {
					return err
				}
			}
			continue
		}
		st, err := e.state(name, op.Block)
		if err != nil {
			return err
		}
		put := func(p Pos) error {
			if err := e.t.put(p.add(shift), st); err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
			return nil
		}
		switch op.Op {
		case "box":
			if err := eachBox(*op.Min, *op.Max, op.Hollow, op.Walls, put); err != nil {
				return err
			}
		case "line":
			if err := eachLine(*op.From, *op.To, put); err != nil {
				return err
			}
		case "cylinder":
			if err := eachCylinder(*op.Center, op.Radius, op.Height, op.Hollow, op.Walls, put); err != nil {
				return err
			}
		}
	}
	return nil
}

func eachBox(a, b Pos, hollow, walls bool, f func(Pos) error) error {
	lo := Pos{min(a.X, b.X), min(a.Y, b.Y), min(a.Z, b.Z)}
	hi := Pos{max(a.X, b.X), max(a.Y, b.Y), max(a.Z, b.Z)}
	for y := lo.Y; y <= hi.Y; y++ {
		for z := lo.Z; z <= hi.Z; z++ {
			for x := lo.X; x <= hi.X; x++ {
				side := x == lo.X || x == hi.X || z == lo.Z || z == hi.Z
				if walls && !side || hollow && !walls && !side && y != lo.Y && y != hi.Y {
					continue
				}
				if err := f(Pos{x, y, z}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// eachLine walks the blocks of a straight line from a to b, both
// included: one block per step along the longest axis, the others
// rounded to the nearest block (halves away from a).
func eachLine(a, b Pos, f func(Pos) error) error {
	d := Pos{b.X - a.X, b.Y - a.Y, b.Z - a.Z}
	n := max(abs(d.X), abs(d.Y), abs(d.Z))
	if n == 0 {
		return f(a)
	}
	step := func(delta, i int) int { return roundDiv(delta*i, n) }
	for i := 0; i <= n; i++ {
		if err := f(Pos{a.X + step(d.X, i), a.Y + step(d.Y, i), a.Z + step(d.Z, i)}); err != nil {
			return err
		}
	}
	return nil
}

// roundDiv is num/den rounded to the nearest integer, halves away from
// zero, for den > 0.
func roundDiv(num, den int) int {
	if num >= 0 {
		return (2*num + den) / (2 * den)
	}
	return -((-2*num + den) / (2 * den))
}

func eachCylinder(c Pos, r, height int, hollow, walls bool, f func(Pos) error) error {
	rim := discCells(r, true)
	full := discCells(r, false)
	for dy := 0; dy < height; dy++ {
		cells := full
		if (hollow || walls) && !(hollow && !walls && (dy == 0 || dy == height-1)) {
			cells = rim
		}
		for _, cell := range cells {
			if err := f(Pos{c.X + cell[0], c.Y + dy, c.Z + cell[1]}); err != nil {
				return err
			}
		}
	}
	return nil
}

// FromSchematic places a schematic's blocks (already resolved to states,
// one per palette entry) with its origin at target, turned clockwise (seen
// from above) by quarterTurns × 90° around target, the blocks' directions
// turned with it. Every position is part of the target, air included: a
// schematic says what the whole box holds.
func FromSchematic(g *mcdata.GameData, w, h, l int, offset [3]int, palette []mcdata.BlockState, blocks []int, target Pos, quarterTurns int) (*Target, error) {
	if err := checkPos("the target", target); err != nil {
		return nil, err
	}
	if int64(w)*int64(h)*int64(l) > MaxPositions || len(blocks) != w*h*l {
		return nil, fmt.Errorf("the schematic is %d×%d×%d; at most %d positions are placed", w, h, l, MaxPositions)
	}
	q := ((quarterTurns % 4) + 4) % 4
	turned := make([]mcdata.StateID, len(palette))
	for i, st := range palette {
		r, err := RotateState(st, q)
		if err != nil {
			return nil, err
		}
		turned[i] = r.ID
	}
	t := &Target{}
	i := 0
	for y := 0; y < h; y++ {
		for z := 0; z < l; z++ {
			for x := 0; x < w; x++ {
				local := RotatePos(Pos{x + offset[0], y + offset[1], z + offset[2]}, q)
				if blocks[i] < 0 || blocks[i] >= len(turned) {
					return nil, fmt.Errorf("a block of the schematic uses palette index %d of %d", blocks[i], len(turned))
				}
				if err := t.put(target.add(local), turned[blocks[i]]); err != nil {
					return nil, err
				}
				i++
			}
		}
	}
	return t, nil
}

// QuarterTurns reads a rotation in degrees (0, 90, 180, 270, clockwise
// seen from above) as the quarter turns FromSchematic takes.
func QuarterTurns(degrees int) (int, error) {
	switch degrees {
	case 0, 90, 180, 270:
		return degrees / 90, nil
	}
	return 0, fmt.Errorf("rotation %d is not one of 0, 90, 180, 270 (clockwise, seen from above)", degrees)
}

// sortedPositions lists the target's positions in y, z, x order, for
// stable output.
func sortedPositions(blocks []TargetBlock) []TargetBlock {
	out := append([]TargetBlock(nil), blocks...)
	sort.Slice(out, func(i, j int) bool { return posLess(out[i].Pos, out[j].Pos) })
	return out
}

func posLess(a, b Pos) bool {
	if a.Y != b.Y {
		return a.Y < b.Y
	}
	if a.Z != b.Z {
		return a.Z < b.Z
	}
	return a.X < b.X
}
