package wire

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// NBT tag types.
const (
	tagEnd byte = iota
	tagByte
	tagShort
	tagInt
	tagLong
	tagFloat
	tagDouble
	tagByteArray
	tagString
	tagList
	tagCompound
	tagIntArray
	tagLongArray
)

// maxNBTDepth is how deeply compounds and lists may nest; vanilla's limit
// is 512.
const maxNBTDepth = 512

// NBT reads network NBT (a type byte and a nameless payload, as sent since
// 1.20.2) into plain Go values: int8, int16, int32, int64, float32,
// float64, []byte, string, []any, map[string]any, []int32 and []int64. A
// TAG_End root reads as nil.
//
// Every length is checked against the bytes left before anything is
// allocated, and nesting is bounded, so hostile NBT fails to decode rather
// than exhausting memory or the stack.
func (r *Reader) NBT() any {
	t := r.Byte()
	if r.err != nil || t == tagEnd {
		return nil
	}
	r.nbtNodes = 0
	return r.nbtPayload(t, 0)
}

// maxNBTNodes bounds the values one NBT read makes, so a packet of tiny
// empty compounds cannot turn 2 MiB into gigabytes of maps.
const maxNBTNodes = 1 << 18

// OptionalNBT reads a boolean and, if it is true, NBT.
func (r *Reader) OptionalNBT() any {
	if r.Bool() {
		return r.NBT()
	}
	return nil
}

func (r *Reader) nbtString() string {
	n := int(r.Uint16())
	s := r.take(n)
	if s == nil {
		return ""
	}
	return mutf8(s)
}

func (r *Reader) nbtLen(elemSize int) int {
	n := r.Int32()
	if r.err != nil {
		return 0
	}
	if n < 0 || int(n) > r.Remaining()/elemSize {
		r.Failf("NBT array of %d elements does not fit in the %d bytes left", n, r.Remaining())
		return 0
	}
	return int(n)
}

func (r *Reader) nbtPayload(t byte, depth int) any {
	if r.err != nil {
		return nil
	}
	r.nbtNodes++
	if r.nbtNodes > maxNBTNodes {
		r.Failf("NBT holds more than %d values", maxNBTNodes)
		return nil
	}
	switch t {
	case tagByte:
		return r.Int8()
	case tagShort:
		return r.Int16()
	case tagInt:
		return r.Int32()
	case tagLong:
		return r.Int64()
	case tagFloat:
		return r.Float32()
	case tagDouble:
		return r.Float64()
	case tagByteArray:
		n := r.nbtLen(1)
		return append([]byte(nil), r.take(n)...)
	case tagString:
		return r.nbtString()
	case tagIntArray:
		n := r.nbtLen(4)
		out := make([]int32, n)
		for i := range out {
			out[i] = r.Int32()
		}
		return out
	case tagLongArray:
		n := r.nbtLen(8)
		out := make([]int64, n)
		for i := range out {
			out[i] = r.Int64()
		}
		return out
	case tagList:
		if depth >= maxNBTDepth {
			r.Failf("NBT nests deeper than %d", maxNBTDepth)
			return nil
		}
		et := r.Byte()
		n := r.Int32()
		if r.err != nil {
			return nil
		}
		size, ok := nbtMinSize(et)
		if !ok {
			r.Failf("NBT list of unknown tag type %d", et)
			return nil
		}
		if et == tagEnd && n > 0 {
			r.Failf("NBT list of %d TAG_End elements", n)
			return nil
		}
		if n < 0 || int(n) > r.Remaining()/size {
			if n <= 0 {
				return []any{}
			}
			r.Failf("NBT list of %d elements does not fit in the %d bytes left", n, r.Remaining())
			return nil
		}
		out := make([]any, 0, n)
		for i := int32(0); i < n && r.err == nil; i++ {
			out = append(out, r.nbtPayload(et, depth+1))
		}
		return out
	case tagCompound:
		if depth >= maxNBTDepth {
			r.Failf("NBT nests deeper than %d", maxNBTDepth)
			return nil
		}
		out := map[string]any{}
		for r.err == nil {
			et := r.Byte()
			if et == tagEnd || r.err != nil {
				break
			}
			if _, ok := nbtMinSize(et); !ok {
				r.Failf("NBT compound entry of unknown tag type %d", et)
				break
			}
			name := r.nbtString()
			out[name] = r.nbtPayload(et, depth+1)
		}
		return out
	}
	r.Failf("unknown NBT tag type %d", t)
	return nil
}

// nbtMinSize is the fewest bytes a payload of type t takes, so a list's
// length can be checked before it is allocated.
func nbtMinSize(t byte) (int, bool) {
	switch t {
	case tagEnd:
		return 1, true
	case tagByte:
		return 1, true
	case tagShort, tagString:
		return 2, true
	case tagInt, tagFloat, tagByteArray, tagList, tagIntArray, tagLongArray:
		return 4, true
	case tagLong, tagDouble:
		return 8, true
	case tagCompound:
		return 1, true
	}
	return 0, false
}

// mutf8 decodes Java's modified UTF-8 (NUL as C0 80, characters beyond the
// BMP as surrogate pairs). Plain UTF-8 without those passes through as is.
func mutf8(b []byte) string {
	plain := utf8.Valid(b)
	for i := 0; plain && i < len(b); i++ {
		if b[i] == 0xC0 || b[i] == 0xED {
			plain = false
		}
	}
	if plain {
		return string(b)
	}
	units := make([]uint16, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c < 0x80:
			units = append(units, uint16(c))
			i++
		case c&0xE0 == 0xC0 && i+1 < len(b):
			units = append(units, uint16(c&0x1F)<<6|uint16(b[i+1]&0x3F))
			i += 2
		case c&0xF0 == 0xE0 && i+2 < len(b):
			units = append(units, uint16(c&0x0F)<<12|uint16(b[i+1]&0x3F)<<6|uint16(b[i+2]&0x3F))
			i += 3
		default:
			units = append(units, utf8.RuneError)
			i++
		}
	}
	return strings.ToValidUTF8(string(utf16.Decode(units)), "\uFFFD")
}
