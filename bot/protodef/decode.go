package protodef

import (
	"errors"
	"fmt"

	"github.com/blockmate/blockmate/bot/wire"
)

// MaxDepth bounds how deeply types may nest while one value is read
// (containers, arrays, options, switches and named types each count one
// level). Legitimate item stacks nest about six levels per stack inside a
// bundle or shulker box; hostile nesting fails instead of exhausting the
// stack.
const MaxDepth = 512

// MaxValues bounds how many Values one Decode builds, so that a packet of
// tiny values cannot turn 2 MiB into gigabytes of tree. Skip builds none.
const MaxValues = 1 << 18

// maxString is the longest string Skip and Decode accept, in characters:
// the game's own limits are lower (32767 for most), and a packet can hold
// no more than 2 MiB anyway.
const maxString = 1 << 20

// Hook lets a caller read some named types itself: it is called for every
// reference to a named type (t.Kind == Ref, t.Name the type's name). If it
// handles the value it returns handled = true and, when build is true, the
// value (it becomes Value.Ext); it reads through d, so that depth and
// budgets carry over. Package item reads every Slot this way, with the
// game's rules for empty stacks.
type Hook func(d *Decoder, t *Type, build bool) (v any, handled bool)

// Decoder reads values of one schema from one reader. The zero value is not
// usable; use NewDecoder. A Decoder is cheap and meant for one packet.
type Decoder struct {
	R    *wire.Reader
	Hook Hook

	depth  int
	values int
	// vals holds, for each container being read, its fields' scalar values
	// (integers, booleans, enum ids), which switches and array counts
	// refer to by index.
	vals  []int64
	local [32]int64
}

// NewDecoder returns a decoder over r with an optional hook.
func NewDecoder(r *wire.Reader, hook Hook) *Decoder {
	d := &Decoder{R: r, Hook: hook}
	d.vals = d.local[:0]
	return d
}

// Reset points the decoder at another reader, keeping its hook and buffers.
func (d *Decoder) Reset(r *wire.Reader) {
	d.R, d.depth, d.values, d.vals = r, 0, 0, d.vals[:0]
}

// errDepth is the error for nesting beyond MaxDepth.
var errDepth = fmt.Errorf("values nest deeper than %d levels", MaxDepth)

// Enter counts one level of nesting; it returns false (and fails the
// reader) beyond MaxDepth. A hook that reads nested values calls Enter and
// Leave around them.
func (d *Decoder) Enter() bool {
	d.depth++
	if d.depth > MaxDepth {
		d.R.Fail(errDepth)
		return false
	}
	return true
}

// Leave ends a level Enter began.
func (d *Decoder) Leave() { d.depth-- }

// Skip reads a value of type t and discards it, allocating nothing (apart
// from what a hook does). It returns the value's scalar (integers,
// booleans as 0/1, enum ids, an option's presence, a holder's n).
func (d *Decoder) Skip(t *Type) int64 { return d.skip(t, len(d.vals)) }

func (d *Decoder) skip(t *Type, base int) int64 {
	r := d.R
	if r.Err() != nil {
		return 0
	}
	switch t.Kind {
	case Void:
		return 0
	case Bool:
		if r.Byte() != 0 {
			return 1
		}
		return 0
	case I8:
		return int64(r.Int8())
	case U8:
		return int64(r.Byte())
	case I16:
		return int64(r.Int16())
	case U16:
		return int64(r.Uint16())
	case I32:
		return int64(r.Int32())
	case U32:
		return int64(uint32(r.Int32()))
	case I64, U64:
		return r.Int64()
	case F32:
		r.Bytes(4)
		return 0
	case F64:
		r.Bytes(8)
		return 0
	case VarInt, OptVarInt, Enum:
		return int64(r.VarInt())
	case VarLong:
		return r.VarLong()
	case String:
		d.rawString()
		return 0
	case Bytes:
		n := r.VarInt()
		if n < 0 {
			r.Failf("byte array of negative length %d", n)
			return 0
		}
		r.Bytes(int(n))
		return 0
	case UUID:
		r.Bytes(16)
		return 0
	case Position:
		return r.Int64()
	case Fixed:
		r.Bytes(t.Size)
		return 0
	case NBT:
		skipNBT(r)
		return 0
	}
	if !d.Enter() {
		return 0
	}
	v := d.skipComposite(t, base)
	d.Leave()
	return v
}

func (d *Decoder) skipComposite(t *Type, base int) int64 {
	r := d.R
	switch t.Kind {
	case Ref:
		if d.Hook != nil {
			if _, ok := d.Hook(d, t, false); ok {
				return 0
			}
		}
		return d.skip(t.Target, base)
	case Container:
		nb := len(d.vals)
		for range t.Fields {
			d.vals = append(d.vals, 0)
		}
		for i, f := range t.Fields {
			v := d.skip(f.Type, nb)
			if r.Err() != nil {
				break
			}
			d.vals[nb+i] = v
		}
		d.vals = d.vals[:nb]
		return 0
	case Array:
		n := d.arrayLen(t, base)
		for i := 0; i < n && r.Err() == nil; i++ {
			d.skip(t.Elem, base)
		}
		return int64(n)
	case Option:
		if r.Byte() == 0 {
			return 0
		}
		d.skip(t.Elem, base)
		return 1
	case Switch:
		c, ok := d.switchCase(t, base)
		if !ok || c == nil {
			return 0
		}
		return d.skip(c, base)
	case Holder:
		n := r.VarInt()
		if n < 0 {
			r.Failf("registry reference %d is negative", n)
			return 0
		}
		if n == 0 {
			d.skip(t.Elem, base)
		}
		return int64(n)
	case HolderSet:
		n := r.VarInt()
		if n < 0 {
			r.Failf("registry set of negative size %d", n)
			return 0
		}
		if n == 0 {
			d.skip(t.Base, base)
			return 0
		}
		if int(n-1) > r.Remaining()/max(1, t.Elem.minSize) {
			r.Failf("registry set of %d entries does not fit in the %d bytes left", n-1, r.Remaining())
			return 0
		}
		for i := int32(0); i < n-1 && r.Err() == nil; i++ {
			d.skip(t.Elem, base)
		}
		return int64(n)
	}
	r.Failf("protodef: cannot read a %v", t.Kind)
	return 0
}

// rawString reads a string without copying or checking its UTF-8.
func (d *Decoder) rawString() []byte {
	r := d.R
	n := r.VarInt()
	if r.Err() != nil {
		return nil
	}
	if n < 0 || int64(n) > maxString*3 {
		r.Failf("string of %d bytes is not a valid length", n)
		return nil
	}
	return r.Bytes(int(n))
}

// arrayLen reads or looks up an array's length and checks that so many
// elements can fit in the bytes left.
func (d *Decoder) arrayLen(t *Type, base int) int {
	r := d.R
	var n int64
	if t.Count < 0 {
		n = int64(r.VarInt())
	} else {
		n = d.vals[base+t.Count]
	}
	if r.Err() != nil {
		return 0
	}
	if n < 0 || n > int64(r.Remaining()/max(1, t.Elem.minSize)) {
		r.Failf("array of %d elements does not fit in the %d bytes left", n, r.Remaining())
		return 0
	}
	return int(n)
}

// switchCase picks a switch's case from its discriminant. A value its
// enum does not name is an error: the game fails on an unknown registry
// id, and falling to the default would misread the rest of the packet.
func (d *Decoder) switchCase(t *Type, base int) (*Type, bool) {
	v := d.vals[base+t.Disc]
	if t.DiscEnum != nil && t.DiscEnum.EnumName(v) == "" {
		d.R.Failf("unknown %s id %d", enumLabel(t.DiscEnum), v)
		return nil, false
	}
	return t.Case(v), true
}

func enumLabel(t *Type) string {
	if t.Name != "" {
		return t.Name
	}
	return "enum"
}

// Value is a decoded value. Which fields are set depends on Type.Kind:
//
//	Bool, integers, VarInt, Enum, OptVarInt   Int (a Bool is 0 or 1; an Enum is its id)
//	Position                                  Int (packed; see Position)
//	F32, F64                                  Float
//	String                                    Str
//	Bytes, Fixed, UUID                        Bytes (a copy)
//	NBT                                       NBT (wire.Reader.NBT's form; nil for TAG_End)
//	Container                                 Items, one per field
//	Array                                     Items
//	Option                                    Int 0 or 1, Items[0] when present
//	Holder                                    Int = registry id (n-1), or -1 with Items[0] inline
//	HolderSet                                 Int = -1 and Items[0] the tag, or Int = count and Items the entries
//	Void                                      nothing
//
// A Switch reads as its chosen case and a Ref as its target, so Type is
// never a Switch or a Ref, except for a named type a Hook handled: then
// Type is the Ref and Ext holds what the hook returned.
type Value struct {
	Type  *Type
	Int   int64
	Float float64
	Str   string
	Bytes []byte
	NBT   any
	Items []Value
	Ext   any
}

// errBudget is the error for a Decode that would build more than MaxValues.
var errBudget = fmt.Errorf("more than %d values in one item or entry", MaxValues)

// Decode reads a value of type t into a Value tree.
func (d *Decoder) Decode(t *Type) Value { return d.decode(t, len(d.vals)) }

var voidType = &Type{Kind: Void}

func (d *Decoder) decode(t *Type, base int) Value {
	r := d.R
	if r.Err() != nil {
		return Value{Type: t}
	}
	d.values++
	if d.values > MaxValues {
		r.Fail(errBudget)
		return Value{Type: t}
	}
	v := Value{Type: t}
	switch t.Kind {
	case Void:
	case Bool, I8, U8, I16, U16, I32, U32, I64, U64, VarInt, VarLong, OptVarInt, Enum, Position:
		v.Int = d.skip(t, base)
	case F32:
		v.Float = float64(r.Float32())
	case F64:
		v.Float = r.Float64()
	case String:
		v.Str = r.String(maxString)
	case Bytes:
		n := r.VarInt()
		if n < 0 {
			r.Failf("byte array of negative length %d", n)
			break
		}
		v.Bytes = append([]byte(nil), r.Bytes(int(n))...)
	case UUID:
		v.Bytes = append([]byte(nil), r.Bytes(16)...)
	case Fixed:
		v.Bytes = append([]byte(nil), r.Bytes(t.Size)...)
	case NBT:
		v.NBT = r.NBT()
	default:
		if !d.Enter() {
			return v
		}
		v = d.decodeComposite(t, base)
		d.Leave()
	}
	if r.Err() != nil {
		return Value{Type: t}
	}
	return v
}

func (d *Decoder) decodeComposite(t *Type, base int) Value {
	r := d.R
	v := Value{Type: t}
	switch t.Kind {
	case Ref:
		if d.Hook != nil {
			if x, ok := d.Hook(d, t, true); ok {
				v.Ext = x
				return v
			}
		}
		return d.decode(t.Target, base)
	case Container:
		nb := len(d.vals)
		for range t.Fields {
			d.vals = append(d.vals, 0)
		}
		v.Items = make([]Value, len(t.Fields))
		for i, f := range t.Fields {
			v.Items[i] = d.decode(f.Type, nb)
			if r.Err() != nil {
				break
			}
			d.vals[nb+i] = v.Items[i].scalar()
		}
		d.vals = d.vals[:nb]
	case Array:
		n := d.arrayLen(t, base)
		if n > MaxValues-d.values {
			r.Fail(errBudget)
			return v
		}
		v.Items = make([]Value, 0, n)
		for i := 0; i < n && r.Err() == nil; i++ {
			v.Items = append(v.Items, d.decode(t.Elem, base))
		}
	case Option:
		if r.Byte() != 0 {
			v.Int = 1
			v.Items = []Value{d.decode(t.Elem, base)}
		}
	case Switch:
		c, ok := d.switchCase(t, base)
		if !ok {
			return v
		}
		if c == nil {
			return Value{Type: voidType}
		}
		return d.decode(c, base)
	case Holder:
		n := r.VarInt()
		switch {
		case n < 0:
			r.Failf("registry reference %d is negative", n)
		case n == 0:
			v.Int = -1
			v.Items = []Value{d.decode(t.Elem, base)}
		default:
			v.Int = int64(n) - 1
		}
	case HolderSet:
		n := r.VarInt()
		switch {
		case n < 0:
			r.Failf("registry set of negative size %d", n)
		case n == 0:
			v.Int = -1
			v.Items = []Value{d.decode(t.Base, base)}
		default:
			if int(n-1) > r.Remaining()/max(1, t.Elem.minSize) || int(n-1) > MaxValues-d.values {
				r.Failf("registry set of %d entries does not fit in the %d bytes left", n-1, r.Remaining())
				return v
			}
			v.Int = int64(n) - 1
			v.Items = make([]Value, 0, n-1)
			for i := int32(0); i < n-1 && r.Err() == nil; i++ {
				v.Items = append(v.Items, d.decode(t.Elem, base))
			}
		}
	default:
		r.Failf("protodef: cannot read a %v", t.Kind)
	}
	return v
}

// scalar is the value a switch or an array count sees.
func (v Value) scalar() int64 {
	switch v.Type.Kind {
	case Option:
		return v.Int
	case Container, Array, Holder, HolderSet, String, Bytes, UUID, Fixed, NBT, F32, F64, Void, Ref:
		return 0
	}
	return v.Int
}

// skipNBT reads one network NBT value (a type byte and a nameless payload)
// without building it. It mirrors wire.Reader.NBT's checks, so that Skip
// and Decode fail on the same bytes.
func skipNBT(r *wire.Reader) {
	t := r.Byte()
	if r.Err() != nil || t == 0 {
		return
	}
	skipNBTPayload(r, t, 0)
}

func skipNBTPayload(r *wire.Reader, t byte, depth int) {
	if r.Err() != nil {
		return
	}
	switch t {
	case 1:
		r.Bytes(1)
	case 2:
		r.Bytes(2)
	case 3, 5:
		r.Bytes(4)
	case 4, 6:
		r.Bytes(8)
	case 7:
		r.Bytes(nbtLen(r, 1))
	case 8:
		r.Bytes(int(r.Uint16()))
	case 11:
		r.Bytes(4 * nbtLen(r, 4))
	case 12:
		r.Bytes(8 * nbtLen(r, 8))
	case 9:
		if depth >= nbtMaxDepth {
			r.Failf("NBT nests deeper than %d", nbtMaxDepth)
			return
		}
		et := r.Byte()
		n := r.Int32()
		if r.Err() != nil || n <= 0 {
			return
		}
		size, ok := nbtMinSize(et)
		if !ok || et == 0 {
			r.Failf("NBT list of %d elements of tag type %d", n, et)
			return
		}
		if int(n) > r.Remaining()/size {
			r.Failf("NBT list of %d elements does not fit in the %d bytes left", n, r.Remaining())
			return
		}
		for i := int32(0); i < n && r.Err() == nil; i++ {
			skipNBTPayload(r, et, depth+1)
		}
	case 10:
		if depth >= nbtMaxDepth {
			r.Failf("NBT nests deeper than %d", nbtMaxDepth)
			return
		}
		for r.Err() == nil {
			et := r.Byte()
			if et == 0 || r.Err() != nil {
				return
			}
			if _, ok := nbtMinSize(et); !ok {
				r.Failf("NBT compound entry of unknown tag type %d", et)
				return
			}
			r.Bytes(int(r.Uint16()))
			skipNBTPayload(r, et, depth+1)
		}
	default:
		r.Failf("unknown NBT tag type %d", t)
	}
}

// nbtMaxDepth is wire's NBT nesting limit (vanilla's is 512).
const nbtMaxDepth = 512

func nbtLen(r *wire.Reader, elemSize int) int {
	n := r.Int32()
	if r.Err() != nil {
		return 0
	}
	if n < 0 || int(n) > r.Remaining()/elemSize {
		r.Failf("NBT array of %d elements does not fit in the %d bytes left", n, r.Remaining())
		return 0
	}
	return int(n)
}

func nbtMinSize(t byte) (int, bool) {
	switch t {
	case 0, 1, 10:
		return 1, true
	case 2, 8:
		return 2, true
	case 3, 5, 7, 9, 11, 12:
		return 4, true
	case 4, 6:
		return 8, true
	}
	return 0, false
}

// Position unpacks a Position value into block coordinates.
func (v Value) Position() (x, y, z int) {
	p := v.Int
	return int(p >> 38), int(p << 52 >> 52), int(p << 26 >> 38)
}

// Bool is a Bool value as a Go bool.
func (v Value) Bool() bool { return v.Int != 0 }

// Name is an Enum value's name, or "" for an id its enum does not name.
func (v Value) Name() string {
	if v.Type == nil || v.Type.Kind != Enum {
		return ""
	}
	return v.Type.EnumName(v.Int)
}

// Present reports whether an Option holds a value.
func (v Value) Present() bool { return v.Type != nil && v.Type.Kind == Option && v.Int == 1 }

// Elem is an Option's value when present, or a Holder's inline value.
func (v Value) Elem() (Value, bool) {
	if len(v.Items) == 1 && v.Type != nil && (v.Type.Kind == Option || v.Type.Kind == Holder && v.Int == -1) {
		return v.Items[0], true
	}
	return Value{}, false
}

// Field finds a container field by name, looking into anonymous fields as
// protodef does (their fields read as the container's own).
func (v Value) Field(name string) (Value, bool) {
	if v.Type == nil || v.Type.Kind != Container {
		return Value{}, false
	}
	for i, f := range v.Type.Fields {
		if i >= len(v.Items) {
			break
		}
		if f.Name == name {
			return v.Items[i], true
		}
		if f.Name == "" {
			if inner, ok := v.Items[i].Field(name); ok {
				return inner, true
			}
		}
	}
	return Value{}, false
}

// Path follows field names (and "?" into a present option) from v.
func (v Value) Path(names ...string) (Value, bool) {
	for _, n := range names {
		var ok bool
		if n == "?" {
			v, ok = v.Elem()
		} else {
			v, ok = v.Field(n)
		}
		if !ok {
			return Value{}, false
		}
	}
	return v, true
}

// Float32 is an F32 value as read.
func (v Value) Float32() float32 { return float32(v.Float) }

// ErrNoSchema is returned for a protocol the generated schemas do not cover.
var ErrNoSchema = errors.New("no item and metadata schema for this protocol")
