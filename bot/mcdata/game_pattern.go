package mcdata

import (
	"fmt"
	"sort"
	"strings"
)

// StateSet is a set of block states, one bit per state id: membership is a
// shift and a mask, fit for scanning a world.
type StateSet struct {
	bits []uint64
	// Blocks are the blocks with at least one state in the set.
	Blocks []*Block
}

// Has says whether the state is in the set.
func (s *StateSet) Has(id StateID) bool {
	i := uint32(id) >> 6
	return i < uint32(len(s.bits)) && s.bits[i]&(1<<(uint32(id)&63)) != 0
}

// Len is how many states the set holds.
func (s *StateSet) Len() int {
	n := 0
	for _, w := range s.bits {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

func (g *GameData) newStateSet() *StateSet {
	return &StateSet{bits: make([]uint64, (len(g.stateBlock)+63)/64)}
}

func (s *StateSet) add(id StateID) { s.bits[id>>6] |= 1 << (uint32(id) & 63) }

// MatchStates parses a block-state pattern in the game's notation (the
// syntax of ParseStateText) — a block name, optionally with "minecraft:",
// optionally followed by properties:
// "oak_log", "oak_log[axis=y]", "minecraft:oak_stairs[half=top,facing=east]"
// — and returns every state it matches (properties not named may take any
// value). An unknown block, property or value is an error that says what
// exists instead.
func (g *GameData) MatchStates(pattern string) (*StateSet, error) {
	st, err := ParseStateText(pattern)
	if err != nil {
		return nil, err
	}
	b := g.BlockByName(st.Name)
	if b == nil {
		return nil, g.unknownBlock(st.Name)
	}
	type want struct{ prop, value int }
	var wants []want
	for _, kv := range st.Props {
		p, pi := b.Prop(kv.Name)
		if p == nil {
			return nil, fmt.Errorf("%s has no property %q; it has %s", b.Name, kv.Name, b.propNames())
		}
		vi := p.valueIndex(kv.Value)
		if vi < 0 {
			return nil, fmt.Errorf("%s's %s cannot be %q; it is one of %s", b.Name, kv.Name, kv.Value, strings.Join(p.Values, ", "))
		}
		wants = append(wants, want{pi, vi})
	}
	set := g.newStateSet()
	set.Blocks = []*Block{b}
	for s := b.MinState; s <= b.MaxState; s++ {
		st := BlockState{s, b}
		ok := true
		for _, w := range wants {
			if st.ValueIndex(w.prop) != w.value {
				ok = false
				break
			}
		}
		if ok {
			set.add(s)
		}
	}
	return set, nil
}

// StatesOf returns every state of the blocks for which keep says true, e.g.
// every log: StatesOf(func(b *Block) bool { return strings.HasSuffix(b.Name, "_log") }).
func (g *GameData) StatesOf(keep func(*Block) bool) *StateSet {
	set := g.newStateSet()
	for i := range g.Blocks {
		b := &g.Blocks[i]
		if !keep(b) {
			continue
		}
		set.Blocks = append(set.Blocks, b)
		for s := b.MinState; s <= b.MaxState; s++ {
			set.add(s)
		}
	}
	return set
}

// StatesWhere returns every state for which keep says true, e.g. every
// waterlogged state: StatesWhere(func(s BlockState) bool { v, _ := s.Value("waterlogged"); return v == "true" }).
func (g *GameData) StatesWhere(keep func(BlockState) bool) *StateSet {
	set := g.newStateSet()
	for i := range g.Blocks {
		b := &g.Blocks[i]
		added := false
		for s := b.MinState; s <= b.MaxState; s++ {
			if keep(BlockState{s, b}) {
				set.add(s)
				if !added {
					set.Blocks = append(set.Blocks, b)
					added = true
				}
			}
		}
	}
	return set
}

// unknownBlock says a name is not a block and offers up to three that
// contain it.
func (g *GameData) unknownBlock(name string) error {
	var near []string
	for i := range g.Blocks {
		if strings.Contains(g.Blocks[i].Name, name) {
			near = append(near, g.Blocks[i].Name)
		}
	}
	sort.Slice(near, func(i, j int) bool {
		return len(near[i]) < len(near[j]) || len(near[i]) == len(near[j]) && near[i] < near[j]
	})
	if len(near) > 3 {
		near = near[:3]
	}
	if len(near) == 0 {
		// No block contains the name: offer those a typo or two away.
		best := 3
		for i := range g.Blocks {
			d := editDistance(name, g.Blocks[i].Name, best)
			if d < best {
				best, near = d, near[:0]
			}
			if d < 3 && d == best && len(near) < 3 {
				near = append(near, g.Blocks[i].Name)
			}
		}
	}
	if len(near) == 0 {
		return fmt.Errorf("%s has no block named %q; block names look like oak_log or stone", g.Version, name)
	}
	return fmt.Errorf("%s has no block named %q; did you mean %s?", g.Version, name, strings.Join(near, ", "))
}

// editDistance is the Levenshtein distance of a and b, or limit when it is
// limit or more (the rows stop early, so a scan of every block name costs
// little).
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
