package mcdata

import (
	"fmt"
	"strings"
)

// The block-state syntax, one reader for every place a block is named:
// "oak_stairs", "minecraft:oak_stairs[facing=south,half=bottom]". The
// game's own parser (BlockStateParser) is the model: an optional
// minecraft: namespace, a registry name, then optionally properties in
// brackets, whitespace allowed around each token, each property at most
// once. Names and values are the game's lowercase identifiers, so the
// reader lowers ASCII letters first: "Oak_Stairs[Facing=South]" means what
// a person meant, and nothing else could match it.
//
// The canonical form of a state is BlockState.String: the bare block name
// and every property in the game's order ("oak_stairs[facing=south,
// half=bottom,shape=straight,waterlogged=false]"). It is the longest form,
// and that is why it was chosen: it names the state without reference to
// any version's defaults, so two states compare equal as text exactly when
// they are the same state, plan hashes and journals stay meaningful if a
// default ever changes, and it is the notation the game's debug screen and
// /setblock read.

// MaxStateText is the longest block-state text the reader accepts. The
// longest canonical state of any version is about 130 characters; the
// bound keeps a hostile argument from costing more than a glance.
const MaxStateText = 1024

// stateTextChar says whether c may stand in a name or value: the game's
// resource-location characters less the path separator, which cover every
// block name and property value.
func stateTextChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// StateText is block-state text cut into its parts, not yet checked
// against any version's blocks.
type StateText struct {
	// Name is the block name without the namespace: "oak_stairs".
	Name string
	// Props are the properties as written, in the order written.
	Props []PropValue
}

// PropValue is one property=value pair.
type PropValue struct {
	Name, Value string
}

// ParseStateText cuts block-state text into a name and properties. It
// checks only the syntax: the characters, the brackets, each property
// once; whether the block, properties and values exist is GameData's
// concern (ParseState, MatchStates).
func ParseStateText(text string) (StateText, error) {
	if len(text) > MaxStateText {
		return StateText{}, fmt.Errorf("the block state is %d characters long; at most %d are accepted, and a real one is under 200", len(text), MaxStateText)
	}
	lower := strings.ToLower(strings.TrimSpace(text))
	name, rest, hasProps := strings.Cut(lower, "[")
	name = strings.TrimSpace(name)
	if ns, path, ok := strings.Cut(name, ":"); ok {
		if ns != "minecraft" {
			return StateText{}, fmt.Errorf("block %q is not a Minecraft block (namespace %q); write a vanilla name such as oak_planks or minecraft:oak_planks", text, ns)
		}
		name = path
	}
	if name == "" {
		return StateText{}, fmt.Errorf("block pattern %q names no block; write a name such as oak_log or oak_log[axis=y]", text)
	}
	if err := checkStateToken(text, "block name", "", name); err != nil {
		return StateText{}, err
	}
	out := StateText{Name: name}
	if !hasProps {
		return out, nil
	}
	body, after, closed := strings.Cut(rest, "]")
	if !closed {
		return StateText{}, fmt.Errorf("block pattern %q has no closing ]; write it as oak_log[axis=y]", text)
	}
	if strings.TrimSpace(after) != "" {
		return StateText{}, fmt.Errorf("block state %q goes on after its closing ]; write one state such as oak_log[axis=y]", text)
	}
	for _, part := range strings.Split(body, ",") {
		if strings.TrimSpace(part) == "" {
			continue // "[]" and a trailing comma say nothing, as in the game
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return StateText{}, fmt.Errorf("block pattern %q: %q is not property=value", text, strings.TrimSpace(part))
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if err := checkStateToken(text, "property name", "", k); err != nil {
			return StateText{}, err
		}
		if err := checkStateToken(text, "value of ", k, v); err != nil {
			return StateText{}, err
		}
		for _, p := range out.Props {
			if p.Name == k {
				return StateText{}, fmt.Errorf("block state %q sets %s twice; give each property once", text, k)
			}
		}
		out.Props = append(out.Props, PropValue{k, v})
	}
	return out, nil
}

// checkStateToken checks one name or value; what and of name it in the
// error ("value of " + "facing"), joined only when there is one.
func checkStateToken(text, what, of, tok string) error {
	if tok == "" || !validToken(tok) {
		what += of
	}
	if tok == "" {
		return fmt.Errorf("block state %q has an empty %s; write it as oak_log[axis=y]", text, what)
	}
	for i := 0; i < len(tok); i++ {
		if !stateTextChar(tok[i]) {
			return fmt.Errorf("block state %q: the %s %q has the character %q; names and values use a-z, 0-9 and _", text, what, tok, tok[i])
		}
	}
	return nil
}

func validToken(tok string) bool {
	for i := 0; i < len(tok); i++ {
		if !stateTextChar(tok[i]) {
			return false
		}
	}
	return true
}

// ParseState reads one exact block state of this version: the block, and
// the properties written; the properties not written take the block's
// default state's values, as /setblock does. An unknown block, property or
// value is an error that says what exists instead (the block's properties,
// the property's values). The state's String is its canonical form.
func (g *GameData) ParseState(text string) (BlockState, error) {
	st, err := ParseStateText(text)
	if err != nil {
		return BlockState{}, err
	}
	return g.resolveState(st)
}

func (g *GameData) resolveState(st StateText) (BlockState, error) {
	b := g.BlockByName(st.Name)
	if b == nil {
		return BlockState{}, g.unknownBlock(st.Name)
	}
	s := b.DefaultState
	for _, kv := range st.Props {
		p, _ := b.Prop(kv.Name)
		if p == nil {
			if len(b.Props) == 0 {
				return BlockState{}, fmt.Errorf("%s has no properties; write it as %s", b.Name, b.Name)
			}
			return BlockState{}, fmt.Errorf("%s has no property %q; it has %s", b.Name, kv.Name, b.propNames())
		}
		vi := p.valueIndex(kv.Value)
		if vi < 0 {
			return BlockState{}, fmt.Errorf("%s's %s cannot be %q; it is one of %s", b.Name, kv.Name, kv.Value, strings.Join(p.Values, ", "))
		}
		cur := (int32(s-b.MinState) / p.stride) % int32(len(p.Values))
		s += StateID((int32(vi) - cur) * p.stride)
	}
	return BlockState{ID: s, Block: b}, nil
}

// CanonicalState returns text's canonical form in this version (see
// ParseState), or the error that says why it names no state.
func (g *GameData) CanonicalState(text string) (string, error) {
	s, err := g.ParseState(text)
	if err != nil {
		return "", err
	}
	return s.String(), nil
}

// WithValue returns the state with one property changed, and false
// when the block has no such property or value.
func (s BlockState) WithValue(prop, value string) (BlockState, bool) {
	p, i := s.Block.Prop(prop)
	if p == nil {
		return s, false
	}
	vi := p.valueIndex(value)
	if vi < 0 {
		return s, false
	}
	cur := s.ValueIndex(i)
	return BlockState{ID: s.ID + StateID(int32(vi-cur)*p.stride), Block: s.Block}, true
}
