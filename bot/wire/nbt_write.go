package wire

import (
	"fmt"
	"sort"
	"unicode/utf16"
)

// NBT writes v as network NBT (a type byte and a nameless payload), the
// inverse of Reader.NBT: int8, int16, int32, int64, float32, float64,
// []byte, string, []any (a list: every element of one type), map[string]any
// (a compound, its keys written in sorted order), []int32 and []int64; nil
// writes TAG_End (no value). A value of another type, or a list mixing
// types, is an error and nothing is written. Strings are written in Java's
// modified UTF-8, as the game reads them.
func (w *Writer) NBT(v any) error {
	if v == nil {
		w.Byte(tagEnd)
		return nil
	}
	var body Writer
	t, err := body.nbtPayload(v, 0)
	if err != nil {
		return err
	}
	w.Byte(t)
	w.Raw(body.B)
	return nil
}

// nbtPayload writes v's payload and returns its tag type.
func (w *Writer) nbtPayload(v any, depth int) (byte, error) {
	if depth > maxNBTDepth {
		return 0, fmt.Errorf("NBT nests deeper than %d", maxNBTDepth)
	}
	switch x := v.(type) {
	case int8:
		w.Int8(x)
		return tagByte, nil
	case int16:
		w.Uint16(uint16(x))
		return tagShort, nil
	case int32:
		w.Int32(x)
		return tagInt, nil
	case int64:
		w.Int64(x)
		return tagLong, nil
	case float32:
		w.Float32(x)
		return tagFloat, nil
	case float64:
		w.Float64(x)
		return tagDouble, nil
	case []byte:
		w.Int32(int32(len(x)))
		w.Raw(x)
		return tagByteArray, nil
	case string:
		return tagString, w.nbtString(x)
	case []int32:
		w.Int32(int32(len(x)))
		for _, e := range x {
			w.Int32(e)
		}
		return tagIntArray, nil
	case []int64:
		w.Int32(int32(len(x)))
		for _, e := range x {
			w.Int64(e)
		}
		return tagLongArray, nil
	case []any:
		var elems Writer
		elemType := tagEnd
		for i, e := range x {
			t, err := elems.nbtPayload(e, depth+1)
			if err != nil {
				return 0, err
			}
			if i > 0 && t != elemType {
				return 0, fmt.Errorf("NBT list mixes tag types %d and %d", elemType, t)
			}
			elemType = t
		}
		w.Byte(elemType)
		w.Int32(int32(len(x)))
		w.Raw(elems.B)
		return tagList, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if x[k] == nil {
				return 0, fmt.Errorf("NBT compound entry %q has no value", k)
			}
			var entry Writer
			t, err := entry.nbtPayload(x[k], depth+1)
			if err != nil {
				return 0, err
			}
			w.Byte(t)
			if err := w.nbtString(k); err != nil {
				return 0, err
			}
			w.Raw(entry.B)
		}
		w.Byte(tagEnd)
		return tagCompound, nil
	}
	return 0, fmt.Errorf("%T is not an NBT value", v)
}

// nbtString writes a u16-length modified UTF-8 string: NUL as C0 80 and
// characters beyond the BMP as two encoded surrogates.
func (w *Writer) nbtString(s string) error {
	var b []byte
	for _, r := range s {
		switch {
		case r == 0:
			b = append(b, 0xc0, 0x80)
		case r >= 0x10000:
			hi, lo := utf16.EncodeRune(r)
			b = appendMUTF8Unit(b, hi)
			b = appendMUTF8Unit(b, lo)
		default:
			b = appendMUTF8Unit(b, r)
		}
	}
	if len(b) > 0xffff {
		return fmt.Errorf("NBT string of %d bytes is longer than 65535", len(b))
	}
	w.Uint16(uint16(len(b)))
	w.Raw(b)
	return nil
}

// appendMUTF8Unit encodes one UTF-16 unit in one to three bytes.
func appendMUTF8Unit(b []byte, u rune) []byte {
	switch {
	case u < 0x80:
		return append(b, byte(u))
	case u < 0x800:
		return append(b, 0xc0|byte(u>>6), 0x80|byte(u&0x3f))
	}
	return append(b, 0xe0|byte(u>>12), 0x80|byte((u>>6)&0x3f), 0x80|byte(u&0x3f))
}
