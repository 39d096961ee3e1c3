package wire

import (
	"bytes"
	"math"
	"reflect"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var w Writer
	w.VarInt(0)
	w.VarInt(-1)
	w.VarInt(300)
	w.VarLong(math.MinInt64)
	w.String("héllo")
	w.Bool(true)
	w.Int64(-5)
	w.Float32(1.5)
	w.Float64(-2.25)
	w.UUID([16]byte{1, 2, 3})
	w.ByteArray([]byte{9, 8})
	r := NewReader(w.Bytes())
	if r.VarInt() != 0 || r.VarInt() != -1 || r.VarInt() != 300 || r.VarLong() != math.MinInt64 {
		t.Fatal("varints")
	}
	if r.String(16) != "héllo" || !r.Bool() || r.Int64() != -5 || r.Float32() != 1.5 || r.Float64() != -2.25 {
		t.Fatal("fields")
	}
	if u := r.UUID(); u[2] != 3 {
		t.Fatal("uuid")
	}
	if !bytes.Equal(r.ByteArray(), []byte{9, 8}) || r.Err() != nil || r.Remaining() != 0 {
		t.Fatal("tail", r.Err())
	}
}

func TestBadLengthsFail(t *testing.T) {
	cases := map[string][]byte{
		"huge string":         {0xff, 0xff, 0xff, 0xff, 0x07},
		"negative string":     {0xff, 0xff, 0xff, 0xff, 0x0f},
		"varint too long":     {0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		"string past the end": {5, 'a'},
	}
	for name, b := range cases {
		r := NewReader(b)
		_ = r.String(32767)
		if r.Err() == nil {
			t.Errorf("%s: no error", name)
		}
	}
	r := NewReader([]byte{0x80, 0x80, 0x80, 0x80, 0x04})
	if r.Count(1); r.Err() == nil {
		t.Error("count past the end accepted")
	}
}

func TestNBT(t *testing.T) {
	// {"text": "hi", "bold": 1b, "extra": ["a"], "n": [I; 1, 2]}
	b := []byte{10,
		8, 0, 4, 't', 'e', 'x', 't', 0, 2, 'h', 'i',
		1, 0, 4, 'b', 'o', 'l', 'd', 1,
		9, 0, 5, 'e', 'x', 't', 'r', 'a', 8, 0, 0, 0, 1, 0, 1, 'a',
		11, 0, 1, 'n', 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2,
		0}
	r := NewReader(b)
	v, ok := r.NBT().(map[string]any)
	if !ok || r.Err() != nil {
		t.Fatal(r.Err())
	}
	if v["text"] != "hi" || v["bold"] != int8(1) || v["extra"].([]any)[0] != "a" || v["n"].([]int32)[1] != 2 {
		t.Errorf("%#v", v)
	}
	// A list claiming 2^31-1 compounds in a few bytes fails before allocating.
	r = NewReader([]byte{9, 10, 0x7f, 0xff, 0xff, 0xff, 0})
	if r.NBT(); r.Err() == nil {
		t.Error("oversized list accepted")
	}
	// Nesting past the limit fails instead of overflowing the stack.
	deep := bytes.Repeat([]byte{9, 9, 0, 0, 0, 1}, 1000)
	r = NewReader(append([]byte{9}, deep[1:]...))
	if r.NBT(); r.Err() == nil {
		t.Error("deep nesting accepted")
	}
	if got := mutf8([]byte{'a', 0xC0, 0x80, 'b', 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}); got != "a\x00b😀" {
		t.Errorf("mutf8: %q", got)
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte{10, 8, 0, 1, 'a', 0, 1, 'b', 0})
	f.Add([]byte{9, 10, 0, 0, 0, 2, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewReader(b)
		_ = r.NBT()
		r = NewReader(b)
		_ = r.String(32767)
		_ = r.VarLong()
		_ = r.Count(1)
		_, _, _ = r.Position()
		_ = r.ByteArray()
	})
}

// TestSince: Since returns exactly the bytes read after a Pos, and nothing
// after an error or for a position that was never reached.
func TestSince(t *testing.T) {
	r := NewReader([]byte{1, 0x80, 0x01, 7})
	r.Byte()
	p := r.Pos()
	if v := r.VarInt(); v != 128 {
		t.Fatalf("VarInt %d", v)
	}
	if got := r.Since(p); len(got) != 2 || got[0] != 0x80 || got[1] != 0x01 || cap(got) != 2 {
		t.Errorf("Since = %x (cap %d), want 8001", got, cap(got))
	}
	if r.Since(r.Pos()+1) != nil {
		t.Error("Since a position not yet reached is not nil")
	}
	r.Bytes(5)
	if r.Since(p) != nil {
		t.Error("Since after an error is not nil")
	}
}

// TestNBTWriteRoundTrip: what Writer.NBT writes, Reader.NBT reads back as
// the same value, modified UTF-8 strings (NUL, a character beyond the BMP)
// included; a value NBT cannot hold is an error that writes nothing.
func TestNBTWriteRoundTrip(t *testing.T) {
	v := map[string]any{
		"b": int8(-1), "s": int16(300), "i": int32(-70000), "l": int64(1 << 40), "f": float32(1.5), "d": 2.25,
		"ba": []byte{1, 2}, "str": "a\x00é😀", "ia": []int32{1, -2}, "la": []int64{3},
		"list": []any{"x", "y"}, "empty": []any{}, "nested": map[string]any{"k": []any{map[string]any{"z": int8(1)}}},
	}
	var w Writer
	if err := w.NBT(v); err != nil {
		t.Fatal(err)
	}
	r := NewReader(w.Bytes())
	got := r.NBT()
	if r.Err() != nil || r.Remaining() != 0 || !reflect.DeepEqual(got, v) {
		t.Errorf("NBT round trip: %#v, err %v, %d left", got, r.Err(), r.Remaining())
	}
	// NUL is C0 80 in modified UTF-8, never a zero byte.
	var s Writer
	if err := s.NBT("\x00"); err != nil || !bytes.Equal(s.Bytes(), []byte{8, 0, 2, 0xc0, 0x80}) {
		t.Errorf("NUL string: % x, %v", s.Bytes(), err)
	}
	var none Writer
	if err := none.NBT(nil); err != nil || !bytes.Equal(none.Bytes(), []byte{0}) {
		t.Errorf("nil: % x, %v", none.Bytes(), err)
	}
	for _, bad := range []any{struct{}{}, []any{int8(1), "x"}, map[string]any{"k": nil}, uint8(1)} {
		var b Writer
		if err := b.NBT(bad); err == nil || len(b.Bytes()) != 0 {
			t.Errorf("NBT(%#v) = % x, %v; want an error and nothing written", bad, b.Bytes(), err)
		}
	}
}

// FuzzNBTWrite: whatever NBT the reader accepts, the writer writes back,
// and reading that again gives the same bytes when written once more (a
// fixed point after one round, whatever modified UTF-8 the input held).
func FuzzNBTWrite(f *testing.F) {
	var seed Writer
	_ = seed.NBT(map[string]any{"a": []any{int8(1), int8(2)}, "s": "x\x00", "n": map[string]any{"l": []int64{1}}})
	f.Add(seed.Bytes())
	f.Add([]byte{9, 0, 0, 0, 0, 0, 0}) // an empty list of TAG_End
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewReader(b)
		v := r.NBT()
		if r.Err() != nil {
			return
		}
		var w1 Writer
		if err := w1.NBT(v); err != nil {
			t.Fatalf("cannot write back what was read (%#v): %v", v, err)
		}
		r2 := NewReader(w1.Bytes())
		v2 := r2.NBT()
		if r2.Err() != nil || r2.Remaining() != 0 {
			t.Fatalf("cannot read back what was written: %v, %d left", r2.Err(), r2.Remaining())
		}
		var w2 Writer
		if err := w2.NBT(v2); err != nil || !bytes.Equal(w1.Bytes(), w2.Bytes()) {
			t.Fatalf("writing is not stable: % x then % x (%v)", w1.Bytes(), w2.Bytes(), err)
		}
	})
}
