package build

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Turning a structure turns its blocks: stairs face another way, logs lie
// along another axis, signs point elsewhere, fences connect to other
// sides. The game does it in each block class's rotate method; every one
// of them reduces to the properties below, so one table does it for
// every block of every version (a test turns every state four times
// and checks it comes back, and that each turn is a real state).
//
// One quarter turn is clockwise seen from above: north → east → south →
// west, x → −z … as the game's Rotation.CLOCKWISE_90, which maps a
// position (x, y, z) to (−z, y, x).

var horizontal = []string{"north", "east", "south", "west"}

func turnDirection(d string, q int) (string, bool) {
	for i, h := range horizontal {
		if h == d {
			return horizontal[(i+q)%4], true
		}
	}
	return d, d == "up" || d == "down"
}

// turnRules say how each property's value turns, by property name.
var turnRules = map[string]func(p *mcdata.Property, v string, q int) (string, bool){
	// facing: the six directions (up and down stay).
	"facing": turnWords,
	// orientation: jigsaws and crafters, "north_up", "up_east".
	"orientation": turnWords,
	// shape: rails ("north_east", "ascending_west"); stairs' shapes
	// (straight, inner_left …) name no direction and stay.
	"shape": turnWords,
	// axis: x and z swap on a quarter turn.
	"axis": func(_ *mcdata.Property, v string, q int) (string, bool) {
		if q%2 == 1 {
			switch v {
			case "x":
				return "z", true
			case "z":
				return "x", true
			}
		}
		return v, true
	},
	// rotation: signs, banners, heads, 16 steps to a full turn.
	"rotation": func(_ *mcdata.Property, v string, q int) (string, bool) {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 15 {
			return v, false
		}
		return strconv.Itoa((n + 4*q) % 16), true
	},
}

// turnWords turns every direction word in a value, keeping the words
// that name none ("ascending", "up"), and takes the order of words the
// property has ("east_south" is written "south_east").
func turnWords(p *mcdata.Property, v string, q int) (string, bool) {
	words := strings.Split(v, "_")
	for i, w := range words {
		if t, ok := turnDirection(w, q); ok {
			words[i] = t
		}
	}
	turned := strings.Join(words, "_")
	if has(p, turned) {
		return turned, true
	}
	if len(words) == 2 {
		if swapped := words[1] + "_" + words[0]; has(p, swapped) {
			return swapped, true
		}
	}
	return v, false
}

func has(p *mcdata.Property, v string) bool {
	for _, x := range p.Values {
		if x == v {
			return true
		}
	}
	return false
}

// RotateState turns a state by q clockwise quarter turns. It fails only
// when a property's turned value is not one the block has, which the tests
// rule out for every state of every version.
func RotateState(s mcdata.BlockState, q int) (mcdata.BlockState, error) {
	q = ((q % 4) + 4) % 4
	if q == 0 || len(s.Block.Props) == 0 {
		return s, nil
	}
	out := s
	// Sides named by direction (fences, walls, panes, vines, redstone
	// wire): the value of north moves to east, and so on.
	var sides [4]string
	hasSides := true
	for i, d := range horizontal {
		v, ok := s.Value(d)
		if !ok {
			hasSides = false
			break
		}
		sides[i] = v
	}
	if hasSides {
		for i, d := range horizontal {
			var ok bool
			if out, ok = out.WithValue(horizontal[(i+q)%4], sides[i]); !ok {
				return s, fmt.Errorf("%s cannot turn: its %s cannot be %q", s, d, sides[i])
			}
		}
	}
	for i := range s.Block.Props {
		p := &s.Block.Props[i]
		rule, ok := turnRules[p.Name]
		if !ok {
			continue
		}
		v := p.Values[s.ValueIndex(i)]
		t, ok := rule(p, v, q)
		if !ok {
			return s, fmt.Errorf("%s cannot turn: its %s %q has no turned value", s, p.Name, v)
		}
		if out, ok = out.WithValue(p.Name, t); !ok {
			return s, fmt.Errorf("%s cannot turn: its %s cannot be %q", s, p.Name, t)
		}
	}
	return out, nil
}

// RotatePos turns a position by q clockwise quarter turns around the
// origin: (x, z) → (−z, x) per turn.
func RotatePos(p Pos, q int) Pos {
	for range ((q % 4) + 4) % 4 {
		p = Pos{-p.Z, p.Y, p.X}
	}
	return p
}
