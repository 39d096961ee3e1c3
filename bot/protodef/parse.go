package protodef

// The schema grammar. The generator prints each named type of a version in
// it (bot/mcdata/schema_gen.go); Parse reads a whole version back.
//
//	type      = prim | "@" name                        a named type
//	          | "{" { field } "}"                      container
//	          | "[" [ "#" field-name ] type "]"        array: VarInt count, or the sibling field's value
//	          | "?" type                               option
//	          | "enum(" { int "=" name } ")"           VarInt enum
//	          | "switch(" field-name { int "=" type } [ "_=" type ] ")"
//	          | "holder(" name name type ")"           registry id + 1, or 0 and an inline type
//	          | "holderset(" name type name type ")"   0 and a tag, or count + 1 and entries
//	          | "fixed(" int ")"                       that many bytes
//	field     = field-name ":" type                    "_" is an anonymous field
//	prim      = void bool i8 u8 i16 u16 i32 u32 i64 u64 f32 f64 varint varlong optvarint
//	            string bytes uuid nbt position
//
// Tokens are separated by spaces where they would otherwise run together.
// Switch discriminants and array counts name an earlier field of the same
// container.

import (
	"fmt"
	"strconv"
)

var primKinds = map[string]Kind{
	"void": Void, "bool": Bool, "i8": I8, "u8": U8, "i16": I16, "u16": U16, "i32": I32, "u32": U32,
	"i64": I64, "u64": U64, "f32": F32, "f64": F64, "varint": VarInt, "varlong": VarLong,
	"optvarint": OptVarInt, "string": String, "bytes": Bytes, "uuid": UUID, "nbt": NBT, "position": Position,
}

// primSize is each primitive's fixed or fewest wire size.
var primSize = map[Kind]int{
	Void: 0, Bool: 1, I8: 1, U8: 1, I16: 2, U16: 2, I32: 4, U32: 4, I64: 8, U64: 8, F32: 4, F64: 8,
	VarInt: 1, VarLong: 1, OptVarInt: 1, String: 1, Bytes: 1, UUID: 16, NBT: 1, Position: 8,
}

// maxSwitchKey bounds switch case keys and enum ids, which index slices.
const maxSwitchKey = 1 << 12

// Parse builds a schema from named type definitions (name → definition in
// the grammar above). Every @reference must name one of them.
func Parse(defs map[string]string) (map[string]*Type, error) {
	types := make(map[string]*Type, len(defs))
	for name, def := range defs {
		p := parser{s: def}
		t, err := p.typ()
		if err == nil && p.skipSpace() < len(p.s) {
			err = p.errorf("unexpected text after the type")
		}
		if err != nil {
			return nil, fmt.Errorf("protodef: type %s: %w", name, err)
		}
		if t.Kind != Ref { // a bare reference keeps the name it refers to
			t.Name = name
		}
		types[name] = t
	}
	l := linker{types: types}
	for name, t := range types {
		if err := l.link(t, nil); err != nil {
			return nil, fmt.Errorf("protodef: type %s: %w", name, err)
		}
	}
	// Minimum sizes of recursive types (Slot holds components that hold
	// Slots) are found by relaxation from 0: each round can only raise them,
	// and every cycle passes through an array or option, so they settle.
	for round := 0; round < 64; round++ {
		changed := false
		for _, t := range types {
			changed = l.sizes(t) || changed
		}
		if !changed {
			break
		}
	}
	return types, nil
}

type parser struct {
	s   string
	pos int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("at offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *parser) skipSpace() int {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\n' || p.s[p.pos] == '\t') {
		p.pos++
	}
	return p.pos
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '/' || c == '.' || c == '-'
}

// name reads a run of name bytes.
func (p *parser) name() (string, error) {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.s) && isNameByte(p.s[p.pos]) {
		p.pos++
	}
	if start == p.pos {
		return "", p.errorf("expected a name")
	}
	return p.s[start:p.pos], nil
}

func (p *parser) expect(c byte) error {
	p.skipSpace()
	if p.pos >= len(p.s) || p.s[p.pos] != c {
		return p.errorf("expected %q", c)
	}
	p.pos++
	return nil
}

func (p *parser) peek() byte {
	p.skipSpace()
	if p.pos >= len(p.s) {
		return 0
	}
	return p.s[p.pos]
}

func (p *parser) int() (int64, error) {
	s, err := p.name()
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v >= maxSwitchKey {
		return 0, p.errorf("%q is not a key from 0 to %d", s, maxSwitchKey-1)
	}
	return v, nil
}

func (p *parser) typ() (*Type, error) {
	switch p.peek() {
	case '@':
		p.pos++
		n, err := p.name()
		return &Type{Kind: Ref, Name: n}, err
	case '{':
		p.pos++
		t := &Type{Kind: Container}
		for p.peek() != '}' {
			if p.peek() == 0 {
				return nil, p.errorf("unterminated container")
			}
			n, err := p.name()
			if err != nil {
				return nil, err
			}
			if err := p.expect(':'); err != nil {
				return nil, err
			}
			ft, err := p.typ()
			if err != nil {
				return nil, err
			}
			if n == "_" {
				n = ""
			}
			t.Fields = append(t.Fields, Field{Name: n, Type: ft})
		}
		p.pos++
		return t, nil
	case '[':
		p.pos++
		t := &Type{Kind: Array, Count: -1}
		if p.peek() == '#' {
			p.pos++
			n, err := p.name()
			if err != nil {
				return nil, err
			}
			t.Name = n // resolved to Count by the linker, then cleared
			t.Count = -2
		}
		elem, err := p.typ()
		if err != nil {
			return nil, err
		}
		t.Elem = elem
		return t, p.expect(']')
	case '?':
		p.pos++
		elem, err := p.typ()
		return &Type{Kind: Option, Elem: elem}, err
	}
	word, err := p.name()
	if err != nil {
		return nil, err
	}
	if k, ok := primKinds[word]; ok {
		return &Type{Kind: k}, nil
	}
	if err := p.expect('('); err != nil {
		return nil, p.errorf("unknown type %q", word)
	}
	switch word {
	case "enum":
		t := &Type{Kind: Enum}
		for p.peek() != ')' {
			id, err := p.int()
			if err != nil {
				return nil, err
			}
			if err := p.expect('='); err != nil {
				return nil, err
			}
			n, err := p.name()
			if err != nil {
				return nil, err
			}
			for int64(len(t.Names)) <= id {
				t.Names = append(t.Names, "")
			}
			t.Names[id] = n
		}
		p.pos++
		return t, nil
	case "switch":
		disc, err := p.name()
		if err != nil {
			return nil, err
		}
		t := &Type{Kind: Switch, Name: disc, Disc: -1} // Name: resolved to Disc by the linker, then cleared
		for p.peek() != ')' {
			if p.peek() == '_' {
				p.pos++
				if err := p.expect('='); err != nil {
					return nil, err
				}
				if t.Default, err = p.typ(); err != nil {
					return nil, err
				}
				continue
			}
			key, err := p.int()
			if err != nil {
				return nil, err
			}
			if err := p.expect('='); err != nil {
				return nil, err
			}
			c, err := p.typ()
			if err != nil {
				return nil, err
			}
			for int64(len(t.Cases)) <= key {
				t.Cases = append(t.Cases, nil)
			}
			t.Cases[key] = c
		}
		p.pos++
		return t, nil
	case "holder":
		t := &Type{Kind: Holder}
		if t.BaseName, err = p.name(); err != nil {
			return nil, err
		}
		if t.ElemName, err = p.name(); err != nil {
			return nil, err
		}
		if t.Elem, err = p.typ(); err != nil {
			return nil, err
		}
		return t, p.expect(')')
	case "holderset":
		t := &Type{Kind: HolderSet}
		if t.BaseName, err = p.name(); err != nil {
			return nil, err
		}
		if t.Base, err = p.typ(); err != nil {
			return nil, err
		}
		if t.ElemName, err = p.name(); err != nil {
			return nil, err
		}
		if t.Elem, err = p.typ(); err != nil {
			return nil, err
		}
		return t, p.expect(')')
	case "fixed":
		n, err := p.int()
		if err != nil {
			return nil, err
		}
		return &Type{Kind: Fixed, Size: int(n)}, p.expect(')')
	}
	return nil, p.errorf("unknown type %q", word)
}

type linker struct{ types map[string]*Type }

// link resolves references: Refs to their targets, switch discriminants and
// array counts to sibling field indexes (siblings are the fields of the
// container the node sits in, up to the node's own field).
func (l *linker) link(t *Type, siblings []Field) error {
	switch t.Kind {
	case Ref:
		target, ok := l.types[t.Name]
		if !ok {
			return fmt.Errorf("reference to unknown type %s", t.Name)
		}
		t.Target = target
	case Container:
		for i, f := range t.Fields {
			if err := l.link(f.Type, t.Fields[:i]); err != nil {
				return fmt.Errorf("field %s: %w", f.Name, err)
			}
		}
	case Array:
		if t.Count == -2 {
			i := fieldIndex(siblings, t.Name)
			if i < 0 {
				return fmt.Errorf("array count %s is not an earlier field", t.Name)
			}
			t.Count, t.Name = i, ""
		}
		return l.link(t.Elem, nil)
	case Option:
		return l.link(t.Elem, siblings)
	case Switch:
		if t.Disc == -1 {
			i := fieldIndex(siblings, t.Name)
			if i < 0 {
				return fmt.Errorf("switch on %s, which is not an earlier field", t.Name)
			}
			t.Disc, t.Name = i, ""
			if d := siblings[i].Type; d.Kind == Enum {
				t.DiscEnum = d
			} else if d.Kind == Ref {
				if target := l.types[d.Name]; target != nil && target.Kind == Enum {
					t.DiscEnum = target
				}
			}
		}
		for key, c := range t.Cases {
			if c != nil {
				if err := l.link(c, nil); err != nil {
					return fmt.Errorf("case %d: %w", key, err)
				}
			}
		}
		if t.Default != nil {
			return l.link(t.Default, nil)
		}
	case Holder:
		return l.link(t.Elem, nil)
	case HolderSet:
		if err := l.link(t.Base, nil); err != nil {
			return err
		}
		return l.link(t.Elem, nil)
	}
	return nil
}

func fieldIndex(fields []Field, name string) int {
	for i, f := range fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// sizes recomputes minSize for t and everything under it; it reports
// whether anything grew.
func (l *linker) sizes(t *Type) bool {
	old := t.minSize
	changed := false
	switch t.Kind {
	case Ref:
		t.minSize = t.Target.minSize
	case Container:
		n := 0
		for _, f := range t.Fields {
			changed = l.sizes(f.Type) || changed
			n += f.Type.minSize
		}
		t.minSize = n
	case Array:
		changed = l.sizes(t.Elem)
		if t.Count < 0 {
			t.minSize = 1
		} else {
			t.minSize = 0
		}
	case Option:
		changed = l.sizes(t.Elem)
		t.minSize = 1
	case Enum:
		t.minSize = 1
	case Switch:
		m := -1
		for _, c := range t.Cases {
			if c != nil {
				changed = l.sizes(c) || changed
				if m < 0 || c.minSize < m {
					m = c.minSize
				}
			}
		}
		if t.Default != nil {
			changed = l.sizes(t.Default) || changed
			if m < 0 || t.Default.minSize < m {
				m = t.Default.minSize
			}
		} else {
			m = 0 // no case matched: nothing is read
		}
		t.minSize = max(m, 0)
	case Holder:
		changed = l.sizes(t.Elem)
		t.minSize = 1
	case HolderSet:
		changed = l.sizes(t.Base)
		changed = l.sizes(t.Elem) || changed
		t.minSize = 1
	case Fixed:
		t.minSize = t.Size
	default:
		t.minSize = primSize[t.Kind]
	}
	return changed || t.minSize != old
}
