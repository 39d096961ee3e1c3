package wire

import (
	"bytes"
	"testing"
)

func TestNBTRaw(t *testing.T) {
	doc := []byte{10,
		8, 0, 4, 't', 'e', 'x', 't', 0, 2, 'h', 'i',
		9, 0, 5, 'e', 'x', 't', 'r', 'a', 8, 0, 0, 0, 1, 0, 1, 'a',
		12, 0, 1, 'l', 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 7,
		0}
	r := NewReader(append(append([]byte(nil), doc...), 0x2a))
	raw := r.NBTRaw()
	if r.Err() != nil || !bytes.Equal(raw, doc) || r.Byte() != 0x2a {
		t.Fatalf("raw %v, err %v", raw, r.Err())
	}
	if r := NewReader([]byte{0, 5}); r.NBTRaw() != nil || r.Err() != nil || r.Remaining() != 1 {
		t.Error("TAG_End root is not an empty value")
	}
	for name, b := range map[string][]byte{
		"oversized list":   {9, 10, 0x7f, 0xff, 0xff, 0xff, 0},
		"deep nesting":     append([]byte{9}, bytes.Repeat([]byte{9, 9, 0, 0, 0, 1}, 1000)[1:]...),
		"short long array": {12, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1},
		"unknown tag":      {10, 99, 0, 0},
		"end list":         {9, 0, 0, 0, 0, 3},
	} {
		r := NewReader(b)
		if r.NBTRaw(); r.Err() == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

// FuzzNBTRaw: whatever NBT reads, NBTRaw skips exactly, and what NBTRaw
// rejects, NBT rejects too.
func FuzzNBTRaw(f *testing.F) {
	f.Add([]byte{10, 8, 0, 1, 'a', 0, 1, 'b', 0})
	f.Add([]byte{9, 10, 0, 0, 0, 2, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		full := NewReader(b)
		_ = full.NBT()
		raw := NewReader(b)
		got := raw.NBTRaw()
		if full.Err() == nil && (raw.Err() != nil || raw.Remaining() != full.Remaining()) {
			t.Fatalf("NBT read %d bytes, NBTRaw %d (%v)", len(b)-full.Remaining(), len(got), raw.Err())
		}
		if raw.Err() != nil && full.Err() == nil {
			t.Fatalf("NBTRaw rejects what NBT reads: %v", raw.Err())
		}
	})
}
