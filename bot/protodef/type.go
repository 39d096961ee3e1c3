// Package protodef reads values whose layout comes from minecraft-data's
// protocol.json: item stacks and their data components, entity metadata
// values and particles. Their layouts change with every version and
// clientbound item stacks are not delimited, so one component read wrongly
// loses the rest of the packet; typing ~100 layouts per version by hand is
// what this package avoids.
//
// The generator (bot/mcdata/internal/gen/protodef.go) turns each version's
// protocol.json types, with the corrections of corrections.go applied, into
// a compact schema (mcdata.Schema). This package parses a version's schema
// once, on first use, into a graph of Types, and a Decoder walks that graph
// over a *wire.Reader: Skip consumes a value without building anything (the
// fast path for what the bot does not look at), Decode builds a small
// generic Value tree.
//
// Hostile input is expected. The reader's errors are sticky, every length
// is checked against the bytes left before anything is allocated, nesting
// is bounded (MaxDepth) and so is the number of values one Decode builds
// (MaxValues).
package protodef

import "fmt"

// Kind is what a Type is.
type Kind uint8

// The kinds. The primitives read as protodef reads them: Bool is one byte
// (any non-zero byte is true, as the game reads it), String and Bytes have
// a VarInt length, UUID is 16 bytes, NBT is network NBT (a TAG_End type byte
// is no value), Position is a packed i64, OptVarInt is a VarInt whose
// meaning (0 = none, else n-1) is left to the caller, Fixed is Size bytes.
const (
	Void Kind = iota
	Bool
	I8
	U8
	I16
	U16
	I32
	U32
	I64
	U64
	F32
	F64
	VarInt
	VarLong
	OptVarInt
	String
	Bytes
	UUID
	NBT
	Position
	Fixed
	Container // Fields in order; an anonymous field's fields read as the container's own
	Array     // Elem × a VarInt count, or × the value of the sibling field Count
	Option    // a boolean, then Elem if it is true
	Enum      // a VarInt with Names
	Switch    // Cases[value of the sibling field Disc], else Default, else nothing
	Holder    // a VarInt n: n > 0 is registry entry n-1, 0 is an inline Elem
	HolderSet // a VarInt n: 0 is a Base (a tag name), n > 0 is n-1 × Elem
	Ref       // the named type Target
	numKinds
)

var kindNames = [numKinds]string{
	"void", "bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64", "varint", "varlong",
	"optvarint", "string", "bytes", "uuid", "nbt", "position", "fixed", "container", "array", "option", "enum",
	"switch", "holder", "holderset", "ref",
}

func (k Kind) String() string {
	if k >= numKinds {
		return fmt.Sprintf("kind(%d)", k)
	}
	return kindNames[k]
}

// Type is one node of a schema. Types are shared and read-only once the
// schema is built.
type Type struct {
	Kind Kind
	// Name is the named type this node defines ("Slot",
	// "SlotComponent.food"), or for a Ref the named type it refers to; ""
	// for an unnamed node.
	Name string
	// Target is the named type a Ref refers to.
	Target *Type
	// Fields are a Container's fields.
	Fields []Field
	// Elem is an Array's or Option's element, a Holder's inline value or a
	// HolderSet's entry.
	Elem *Type
	// Base is a HolderSet's tag (n = 0) value.
	Base *Type
	// BaseName and ElemName are minecraft-data's names for the two forms of
	// a Holder (registry id, inline) or HolderSet (tag, ids).
	BaseName, ElemName string
	// Count is the index of the sibling field an Array's length comes from,
	// or -1 for a VarInt prefix.
	Count int
	// Size is a Fixed's byte count.
	Size int
	// Names are an Enum's value names by id ("" where an id has no name).
	Names []string
	// Disc is the index of the sibling field a Switch switches on, and
	// DiscEnum that field's Enum when it is one: a value outside the enum is
	// an error rather than a silent fall to Default.
	Disc     int
	DiscEnum *Type
	// Cases are a Switch's types by discriminant value (nil: no case);
	// Default is taken when no case matches (nil: nothing is read).
	Cases   []*Type
	Default *Type

	// minSize is the fewest bytes a value of this type takes on the wire,
	// so that an array's count can be checked before it is allocated.
	minSize int
}

// Field is one field of a Container.
type Field struct {
	// Name is "" for an anonymous field, whose container's fields read as
	// the enclosing container's own.
	Name string
	Type *Type
}

// Resolve follows Refs to the named type's definition.
func (t *Type) Resolve() *Type {
	for i := 0; t != nil && t.Kind == Ref && i < 64; i++ {
		t = t.Target
	}
	return t
}

// Field returns the index of the container field with the given name, or
// -1. Anonymous fields are not searched (Value.Field does that).
func (t *Type) Field(name string) int {
	for i, f := range t.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Case is the type a Switch reads for a discriminant value: its case,
// else its default, else nil (nothing is read).
func (t *Type) Case(v int64) *Type {
	if v >= 0 && v < int64(len(t.Cases)) && t.Cases[v] != nil {
		return t.Cases[v]
	}
	return t.Default
}

// EnumName is the name of an Enum value, or "".
func (t *Type) EnumName(v int64) string {
	if v >= 0 && v < int64(len(t.Names)) {
		return t.Names[v]
	}
	return ""
}

// EnumValue is the id of a named Enum value, or -1.
func (t *Type) EnumValue(name string) int64 {
	for i, n := range t.Names {
		if n == name {
			return int64(i)
		}
	}
	return -1
}

// MinSize is the fewest bytes a value of the type takes on the wire.
func (t *Type) MinSize() int { return t.minSize }
