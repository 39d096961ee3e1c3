package protodef

import (
	"errors"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/wire"
)

func mustParse(t *testing.T, defs map[string]string) map[string]*Type {
	t.Helper()
	types, err := Parse(defs)
	if err != nil {
		t.Fatal(err)
	}
	return types
}

// TestParseErrors: a schema that does not follow the grammar, or refers to
// what does not exist, fails with the type's name in the error.
func TestParseErrors(t *testing.T) {
	for def, want := range map[string]string{
		"{a:varint":                     "unterminated container",
		"@Missing":                      "unknown type Missing",
		"{n:varint x:[#m varint]}":      "array count m is not an earlier field",
		"{x:switch(k 0=varint) k:bool}": "switch on k, which is not an earlier field",
		"banana":                        `unknown type "banana"`,
		"enum(99999=x)":                 "is not a key",
		"{a:varint} trailing":           "unexpected text",
	} {
		_, err := Parse(map[string]string{"T": def})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "type T") {
			t.Errorf("%q: error %v, want one containing %q", def, err, want)
		}
	}
}

// TestDecodeBasics reads each construct of the grammar from hand-made
// bytes, with Skip and Decode agreeing on where each value ends.
func TestDecodeBasics(t *testing.T) {
	types := mustParse(t, map[string]string{
		"Kind": "enum(0=a 1=b 2=c)",
		"T": "{n:varint kind:@Kind name:?string list:[#n i16] sw:switch(kind 0=f32 1={x:u8 y:bool} 2=void) " +
			"h:holder(id data {s:string}) hs:holderset(tag string ids varint) pos:position u:uuid f:fixed(3) tail:u8}",
	})
	var w wire.Writer
	w.VarInt(2)                               // n
	w.VarInt(1)                               // kind b
	w.Bool(true)                              // name present
	w.String("hé")                            // name
	w.Uint16(0xfffe)                          // list[0] = -2
	w.Uint16(7)                               // list[1]
	w.Byte(9)                                 // sw.x
	w.Byte(2)                                 // sw.y: any non-zero byte is true, as the game reads it
	w.VarInt(0)                               // inline holder
	w.String("inline")                        //
	w.VarInt(3)                               // holder set of 2 ids
	w.VarInt(5)                               //
	w.VarInt(6)                               //
	w.Int64(int64(-5)<<38 | 70&0xfff | 3<<12) // x -5, y 70, z 3
	w.Raw(make([]byte, 16))                   // uuid
	w.Raw([]byte{1, 2, 3})                    // fixed
	w.Byte(0xee)                              // tail
	b := w.Bytes()

	r := wire.NewReader(b)
	NewDecoder(r, nil).Skip(types["T"])
	if r.Err() != nil || r.Remaining() != 0 {
		t.Fatalf("Skip: %v, %d left", r.Err(), r.Remaining())
	}
	r = wire.NewReader(b)
	v := NewDecoder(r, nil).Decode(types["T"])
	if r.Err() != nil || r.Remaining() != 0 {
		t.Fatalf("Decode: %v, %d left", r.Err(), r.Remaining())
	}
	get := func(path ...string) Value {
		t.Helper()
		x, ok := v.Path(path...)
		if !ok {
			t.Fatalf("no %v", path)
		}
		return x
	}
	list := get("list")
	x, y, z := get("pos").Position()
	hs := get("hs")
	inline, _ := get("h").Elem()
	switch {
	case get("kind").Name() != "b", get("name", "?").Str != "hé":
		t.Errorf("kind/name: %v", v.Plain())
	case len(list.Items) != 2 || list.Items[0].Int != -2 || list.Items[1].Int != 7:
		t.Errorf("list: %v", list.Plain())
	case get("sw", "x").Int != 9 || !get("sw", "y").Bool():
		t.Errorf("switch: %v", get("sw").Plain())
	case get("h").Int != -1 || inline.Items[0].Str != "inline":
		t.Errorf("holder: %v", get("h").Plain())
	case hs.Int != 2 || len(hs.Items) != 2 || hs.Items[1].Int != 6:
		t.Errorf("holder set: %v", hs.Plain())
	case x != -5 || y != 70 || z != 3:
		t.Errorf("position %d %d %d", x, y, z)
	case get("tail").Int != 0xee:
		t.Errorf("tail: %v", v.Plain())
	}
}

// TestHostileInput: lengths that do not fit, an enum value a switch does
// not know, nesting beyond MaxDepth and values beyond MaxValues fail with
// a clear error and without allocating from the lengths.
func TestHostileInput(t *testing.T) {
	types := mustParse(t, map[string]string{
		"Arr":    "[u8]",
		"Str":    "string",
		"Kind":   "enum(0=a 1=b)",
		"Sw":     "{k:@Kind v:switch(k 0=u8 1=u16)}",
		"Nest":   "{more:bool next:switch(more 1=@Nest)}",
		"Voids":  "[void]",
		"Set":    "holderset(tag string ids varint)",
		"Holder": "holder(id data u8)",
	})
	huge := func(n int32) []byte { var w wire.Writer; w.VarInt(n); return w.Bytes() }
	deep := func(levels int) []byte {
		b := make([]byte, 0, levels+1)
		for i := 0; i < levels; i++ {
			b = append(b, 1)
		}
		return append(b, 0)
	}
	for _, c := range []struct {
		name, typ string
		b         []byte
		want      string
	}{
		{"array longer than the packet", "Arr", huge(1 << 30), "does not fit"},
		{"negative array", "Arr", huge(-1), "does not fit"},
		{"string longer than the packet", "Str", huge(1 << 20), "packet ended early"},
		{"unknown enum in a switch", "Sw", []byte{5, 0}, "unknown"},
		{"nesting beyond the limit", "Nest", deep(MaxDepth + 10), "nest deeper"},
		{"holder set longer than the packet", "Set", huge(1 << 30), "does not fit"},
		{"negative holder", "Holder", huge(-3), "negative"},
	} {
		for _, build := range []bool{false, true} {
			r := wire.NewReader(c.b)
			d := NewDecoder(r, nil)
			if build {
				d.Decode(types[c.typ])
			} else {
				d.Skip(types[c.typ])
			}
			if r.Err() == nil || !strings.Contains(r.Err().Error(), c.want) {
				t.Errorf("%s (build %v): error %v, want %q", c.name, build, r.Err(), c.want)
			}
		}
	}
	// Legitimate nesting below the limit reads (each level of Nest is a
	// named type, a container and a switch: three levels).
	r := wire.NewReader(deep(MaxDepth/3 - 1))
	NewDecoder(r, nil).Decode(types["Nest"])
	if r.Err() != nil {
		t.Errorf("nesting of %d levels: %v", MaxDepth/3-1, r.Err())
	}
	// A packet of empty values cannot build more than MaxValues.
	b := append(huge(MaxValues+5), make([]byte, MaxValues+5)...)
	r = wire.NewReader(b)
	NewDecoder(r, nil).Decode(types["Voids"])
	if !errors.Is(r.Err(), errBudget) {
		t.Errorf("%d void values: %v, want the value budget error", MaxValues+5, r.Err())
	}
}

// TestSkipAllocatesNothing: skipping values (NBT, strings, arrays) costs no
// allocation, so the read loop can pass over what it does not need.
func TestSkipAllocatesNothing(t *testing.T) {
	types := mustParse(t, map[string]string{"T": "{a:[{s:string n:nbt}] o:?varint}"})
	var w wire.Writer
	w.VarInt(3)
	for i := 0; i < 3; i++ {
		w.String("minecraft:stone")
		w.Raw([]byte{10, 8, 0, 1, 'x', 0, 2, 'h', 'i', 9, 0, 1, 'l', 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0})
	}
	w.Bool(true)
	w.VarInt(300)
	b := w.Bytes()
	r := wire.NewReader(b)
	d := NewDecoder(r, nil)
	allocs := testing.AllocsPerRun(100, func() {
		*r = *wire.NewReader(b)
		d.Reset(r)
		d.Skip(types["T"])
		if r.Err() != nil || r.Remaining() != 0 {
			t.Fatalf("skip: %v, %d left", r.Err(), r.Remaining())
		}
	})
	if allocs != 0 {
		t.Errorf("Skip allocated %v times", allocs)
	}
}
