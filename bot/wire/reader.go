// Package wire reads and writes the fields of Java Edition packets. Its
// Reader works on one packet's bytes and never panics or allocates from a
// length it has not checked against the bytes left: a hostile server can
// make a decode fail, not crash the bot or exhaust its memory. Errors are
// sticky, so a decoder reads every field and checks Err once at the end.
package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"
)

// ErrShort means the packet ended before a field did.
var ErrShort = errors.New("packet ended early")

// Reader reads fields from one packet's payload.
type Reader struct {
	b        []byte
	off      int
	err      error
	nbtNodes int
}

// NewReader reads from b, which it does not copy.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Err is the first problem met, or nil.
func (r *Reader) Err() error { return r.err }

// Remaining is how many bytes are left.
func (r *Reader) Remaining() int { return len(r.b) - r.off }

// Fail records err if none is recorded yet.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Failf records a formatted problem.
func (r *Reader) Failf(format string, args ...any) { r.Fail(fmt.Errorf(format, args...)) }

func (r *Reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > r.Remaining() {
		r.err = ErrShort
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

// Byte reads an unsigned byte.
func (r *Reader) Byte() byte {
	s := r.take(1)
	if s == nil {
		return 0
	}
	return s[0]
}

// Int8 reads a signed byte.
func (r *Reader) Int8() int8 { return int8(r.Byte()) }

// Bool reads a boolean byte; anything but 0 or 1 is an error.
func (r *Reader) Bool() bool {
	b := r.Byte()
	if b > 1 {
		r.Failf("boolean byte is %d", b)
	}
	return b == 1
}

// Uint16 reads a big-endian unsigned short.
func (r *Reader) Uint16() uint16 {
	s := r.take(2)
	if s == nil {
		return 0
	}
	return binary.BigEndian.Uint16(s)
}

// Int16 reads a big-endian short.
func (r *Reader) Int16() int16 { return int16(r.Uint16()) }

// Int32 reads a big-endian int.
func (r *Reader) Int32() int32 {
	s := r.take(4)
	if s == nil {
		return 0
	}
	return int32(binary.BigEndian.Uint32(s))
}

// Int64 reads a big-endian long.
func (r *Reader) Int64() int64 {
	s := r.take(8)
	if s == nil {
		return 0
	}
	return int64(binary.BigEndian.Uint64(s))
}

// Float32 reads a big-endian float.
func (r *Reader) Float32() float32 { return math.Float32frombits(uint32(r.Int32())) }

// Float64 reads a big-endian double.
func (r *Reader) Float64() float64 { return math.Float64frombits(uint64(r.Int64())) }

// VarInt reads a variable-length int of at most 5 bytes.
func (r *Reader) VarInt() int32 {
	var v uint32
	for i := 0; i < 5; i++ {
		b := r.Byte()
		if r.err != nil {
			return 0
		}
		v |= uint32(b&0x7f) << (7 * i)
		if b&0x80 == 0 {
			return int32(v)
		}
	}
	r.Fail(errors.New("VarInt is longer than 5 bytes"))
	return 0
}

// VarLong reads a variable-length long of at most 10 bytes.
func (r *Reader) VarLong() int64 {
	var v uint64
	for i := 0; i < 10; i++ {
		b := r.Byte()
		if r.err != nil {
			return 0
		}
		v |= uint64(b&0x7f) << (7 * i)
		if b&0x80 == 0 {
			return int64(v)
		}
	}
	r.Fail(errors.New("VarLong is longer than 10 bytes"))
	return 0
}

// Count reads a VarInt array length and checks that that many elements of
// at least minSize bytes each can still fit, so a caller may allocate it.
func (r *Reader) Count(minSize int) int {
	n := r.VarInt()
	if r.err != nil {
		return 0
	}
	if minSize < 1 {
		minSize = 1
	}
	if n < 0 || int(n) > r.Remaining()/minSize {
		r.Failf("array of %d elements does not fit in the %d bytes left", n, r.Remaining())
		return 0
	}
	return int(n)
}

// String reads a VarInt-prefixed UTF-8 string of at most maxChars
// characters (the protocol counts UTF-16 units; 3 bytes each at most).
func (r *Reader) String(maxChars int) string {
	n := r.VarInt()
	if r.err != nil {
		return ""
	}
	if n < 0 || int64(n) > int64(maxChars)*3 {
		r.Failf("string of %d bytes is longer than the %d characters allowed", n, maxChars)
		return ""
	}
	s := r.take(int(n))
	if s == nil {
		return ""
	}
	if !utf8.Valid(s) {
		r.Fail(errors.New("string is not UTF-8"))
		return ""
	}
	return string(s)
}

// Bytes reads n raw bytes; the slice aliases the packet.
func (r *Reader) Bytes(n int) []byte { return r.take(n) }

// ByteArray reads a VarInt-prefixed byte array; the slice aliases the packet.
func (r *Reader) ByteArray() []byte {
	n := r.VarInt()
	if r.err != nil {
		return nil
	}
	return r.take(int(n))
}

// Rest reads every byte left.
func (r *Reader) Rest() []byte { return r.take(r.Remaining()) }

// UUID reads 16 bytes.
func (r *Reader) UUID() (u [16]byte) {
	copy(u[:], r.take(16))
	return u
}

// Position reads a packed block position.
func (r *Reader) Position() (x, y, z int) {
	v := r.Int64()
	x = int(v >> 38)
	y = int(v << 52 >> 52)
	z = int(v << 26 >> 38)
	return
}

// Optional reads the boolean that precedes an optional field.
func (r *Reader) Optional() bool { return r.Bool() }
