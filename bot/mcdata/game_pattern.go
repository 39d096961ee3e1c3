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

// MatchStates parses a block-state pattern in the game's notation — a block
// name, optionally with "minecraft:", optionally followed by properties:
// "oak_log", "oak_log[axis=y]", "minecraft:oak_stairs[half=top,facing=east]"
// — and returns every state it matches (properties not named may take any
// value). An unknown block, property or value is an error that says what
// exists instead.
func (g *GameData) MatchStates(pattern string) (*StateSet, error) {
	name, props, err := splitPattern(pattern)
	if err != nil {
		return nil, err
	}
	b := g.BlockByName(name)
	if b == nil {
		return nil, g.unknownBlock(name)
	}
	type want struct{ prop, value int }
	var wants []want
	for _, kv := range props {
		p, pi := b.Prop(kv[0])
		if p == nil {
			return nil, fmt.Errorf("%s has no property %q; it has %s", b.Name, kv[0], b.propNames())
		}
		vi := p.valueIndex(kv[1])
		if vi < 0 {
			return nil, fmt.Errorf("%s's %s cannot be %q; it is one of %s", b.Name, kv[0], kv[1], strings.Join(p.Values, ", "))
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

// splitPattern cuts "name[k=v,k=v]" into the name and its pairs.
func splitPattern(pattern string) (string, [][2]string, error) {
	p := strings.TrimSpace(pattern)
	name, rest, hasProps := strings.Cut(p, "[")
	name = strings.TrimPrefix(strings.TrimSpace(name), "minecraft:")
	if name == "" {
		return "", nil, fmt.Errorf("block pattern %q names no block; write a name such as oak_log or oak_log[axis=y]", pattern)
	}
	if !hasProps {
		return name, nil, nil
	}
	body, ok := strings.CutSuffix(strings.TrimSpace(rest), "]")
	if !ok {
		return "", nil, fmt.Errorf("block pattern %q has no closing ]; write it as oak_log[axis=y]", pattern)
	}
	var pairs [][2]string
	for _, part := range strings.Split(body, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return "", nil, fmt.Errorf("block pattern %q: %q is not property=value", pattern, part)
		}
		pairs = append(pairs, [2]string{strings.TrimSpace(k), strings.TrimSpace(v)})
	}
	return name, pairs, nil
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
		return fmt.Errorf("%s has no block named %q; block names look like oak_log or stone", g.Version, name)
	}
	return fmt.Errorf("%s has no block named %q; did you mean %s?", g.Version, name, strings.Join(near, ", "))
}
