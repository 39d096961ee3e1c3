package wire

import (
	"encoding/binary"
	"math"
)

// Writer builds one packet's payload.
type Writer struct{ B []byte }

// Bytes is what was written.
func (w *Writer) Bytes() []byte { return w.B }

func (w *Writer) Byte(b byte)       { w.B = append(w.B, b) }
func (w *Writer) Int8(v int8)       { w.B = append(w.B, byte(v)) }
func (w *Writer) Uint16(v uint16)   { w.B = binary.BigEndian.AppendUint16(w.B, v) }
func (w *Writer) Int16(v int16)     { w.Uint16(uint16(v)) }
func (w *Writer) Int32(v int32)     { w.B = binary.BigEndian.AppendUint32(w.B, uint32(v)) }
func (w *Writer) Int64(v int64)     { w.B = binary.BigEndian.AppendUint64(w.B, uint64(v)) }
func (w *Writer) Float32(v float32) { w.Int32(int32(math.Float32bits(v))) }
func (w *Writer) Float64(v float64) { w.Int64(int64(math.Float64bits(v))) }
func (w *Writer) Raw(b []byte)      { w.B = append(w.B, b...) }

// Bool writes 1 or 0.
func (w *Writer) Bool(v bool) {
	if v {
		w.Byte(1)
	} else {
		w.Byte(0)
	}
}

// VarInt writes a variable-length int.
func (w *Writer) VarInt(v int32) {
	u := uint32(v)
	for u >= 0x80 {
		w.B = append(w.B, byte(u)|0x80)
		u >>= 7
	}
	w.B = append(w.B, byte(u))
}

// VarLong writes a variable-length long.
func (w *Writer) VarLong(v int64) {
	u := uint64(v)
	for u >= 0x80 {
		w.B = append(w.B, byte(u)|0x80)
		u >>= 7
	}
	w.B = append(w.B, byte(u))
}

// String writes a VarInt-prefixed UTF-8 string.
func (w *Writer) String(s string) {
	w.VarInt(int32(len(s)))
	w.B = append(w.B, s...)
}

// ByteArray writes a VarInt-prefixed byte array.
func (w *Writer) ByteArray(b []byte) {
	w.VarInt(int32(len(b)))
	w.B = append(w.B, b...)
}

// UUID writes 16 bytes.
func (w *Writer) UUID(u [16]byte) { w.B = append(w.B, u[:]...) }
