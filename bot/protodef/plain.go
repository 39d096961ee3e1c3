package protodef

import "fmt"

// Plainer is implemented by what a Hook returns when it has a plain form of
// its own (item.Stack does).
type Plainer interface{ Plain() any }

// Plain returns the value in the shape minecraft-protocol gives it in
// JavaScript, for tests against it and for showing a component as JSON:
// containers are map[string]any with anonymous fields merged and void,
// absent optional and TAG_End NBT fields left out; enums are their names (an unnamed id
// stays a number); options are nil or their value; holders are
// {baseName: id} or {elemName: value}; holder sets {baseName: tag} or
// {elemName: [entries]}; UUIDs are 8-4-4-4-12 hex; positions {x, y, z};
// NBT is wire.Reader.NBT's form; byte arrays are []byte; 64-bit integers are
// int64, other integers int64 too, floats float64.
func (v Value) Plain() any {
	t := v.Type
	if t == nil {
		return nil
	}
	switch t.Kind {
	case Void:
		return nil
	case Bool:
		return v.Int != 0
	case Enum:
		if n := t.EnumName(v.Int); n != "" {
			return n
		}
		return v.Int
	case I8, U8, I16, U16, I32, U32, I64, U64, VarInt, VarLong, OptVarInt:
		return v.Int
	case F32, F64:
		return v.Float
	case String:
		return v.Str
	case Bytes, Fixed:
		return v.Bytes
	case UUID:
		b := v.Bytes
		if len(b) != 16 {
			return nil
		}
		return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
	case NBT:
		return v.NBT
	case Position:
		x, y, z := v.Position()
		return map[string]any{"x": int64(x), "y": int64(y), "z": int64(z)}
	case Container:
		m := map[string]any{}
		v.plainInto(m)
		return m
	case Array:
		out := make([]any, len(v.Items))
		for i, it := range v.Items {
			out[i] = it.Plain()
		}
		return out
	case Option:
		if e, ok := v.Elem(); ok {
			return e.Plain()
		}
		return nil
	case Holder:
		if e, ok := v.Elem(); ok {
			return map[string]any{t.ElemName: e.Plain()}
		}
		return map[string]any{t.BaseName: v.Int}
	case HolderSet:
		if v.Int == -1 && len(v.Items) == 1 {
			return map[string]any{t.BaseName: v.Items[0].Plain()}
		}
		ids := make([]any, len(v.Items))
		for i, it := range v.Items {
			ids[i] = it.Plain()
		}
		return map[string]any{t.ElemName: ids}
	case Ref:
		if p, ok := v.Ext.(Plainer); ok {
			return p.Plain()
		}
		return v.Ext
	}
	return nil
}

// plainInto adds a container's fields to m, merging anonymous ones.
func (v Value) plainInto(m map[string]any) {
	for i, f := range v.Type.Fields {
		if i >= len(v.Items) {
			return
		}
		it := v.Items[i]
		if it.Type == nil || it.Type.Kind == Void || it.Type.Kind == Option && it.Int == 0 || it.Type.Kind == NBT && it.NBT == nil {
			continue
		}
		if f.Name == "" {
			if it.Type.Kind == Container {
				it.plainInto(m)
			} else if inner, ok := it.Plain().(map[string]any); ok {
				for k, x := range inner {
					m[k] = x
				}
			}
			continue
		}
		m[f.Name] = it.Plain()
	}
}
