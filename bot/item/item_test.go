package item_test

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

func comp(t testing.TB, p int32, name string) int32 {
	t.Helper()
	id, ok := item.ComponentID(p, name)
	if !ok {
		t.Fatalf("protocol %d has no component %s", p, name)
	}
	return id
}

// TestEmptyAndNegativeCounts: a count of 0 or below is an empty stack and
// nothing more is read, as the game reads it (ItemStack.OPTIONAL_STREAM_CODEC).
func TestEmptyAndNegativeCounts(t *testing.T) {
	for _, p := range mcdata.SchemaProtocols() {
		for _, count := range []int32{0, -1, -200} {
			var w wire.Writer
			w.VarInt(count)
			w.Byte(0x77) // the next field
			r := wire.NewReader(w.Bytes())
			s := item.ReadSlot(r, p)
			if r.Err() != nil || !s.Empty() || r.Remaining() != 1 {
				t.Errorf("protocol %d, count %d: %+v, %v, %d left", p, count, s, r.Err(), r.Remaining())
			}
		}
	}
}

// TestUnknownComponent: a component type the version does not have is an
// error that names it, and nothing is returned.
func TestUnknownComponent(t *testing.T) {
	names, _ := item.ComponentNames(775)
	var w wire.Writer
	w.VarInt(1)
	w.VarInt(5)
	w.VarInt(1)
	w.VarInt(0)
	w.VarInt(int32(len(names)))
	r := wire.NewReader(w.Bytes())
	s := item.ReadSlot(r, 775)
	if r.Err() == nil || !strings.Contains(r.Err().Error(), "unknown item component type") || !s.Empty() {
		t.Errorf("%+v, %v", s, r.Err())
	}
	r = wire.NewReader([]byte{1})
	item.ReadSlot(r, 766)
	if r.Err() == nil || !strings.Contains(r.Err().Error(), "no item stack layouts") {
		t.Errorf("protocol 766: %v", r.Err())
	}
}

// TestRemovedAndDuplicated: the patch's removals hide a component, and of
// two components of one type the last wins, as in the game's map.
func TestRemovedAndDuplicated(t *testing.T) {
	const p = 772
	var w wire.Writer
	w.VarInt(1)
	w.VarInt(850)
	w.VarInt(2)
	w.VarInt(1)
	w.VarInt(comp(t, p, "damage"))
	w.VarInt(3)
	w.VarInt(comp(t, p, "damage"))
	w.VarInt(9)
	w.VarInt(comp(t, p, "max_stack_size"))
	r := wire.NewReader(w.Bytes())
	s := item.ReadSlot(r, p)
	d, ok := s.Damage()
	if r.Err() != nil || !ok || d != 9 || !s.RemovesDefault("max_stack_size") || s.Has("max_stack_size") {
		t.Errorf("%+v: damage %d %v, %v", s, d, ok, r.Err())
	}
	var out wire.Writer
	if err := item.WriteSlot(&out, p, s); err != nil || !bytes.Equal(out.Bytes(), w.Bytes()) {
		t.Errorf("round trip %x (%v), want %x", out.Bytes(), err, w.Bytes())
	}
}

// TestWriteForms: the three forms a stack is written in, and the errors.
func TestWriteForms(t *testing.T) {
	const p = 770
	var w wire.Writer
	w.VarInt(2)
	w.VarInt(850)
	w.VarInt(1)
	w.VarInt(1)
	w.VarInt(comp(t, p, "damage"))
	w.VarInt(300)
	w.VarInt(comp(t, p, "tool"))
	s := item.ReadSlot(wire.NewReader(w.Bytes()), p)

	var u wire.Writer
	if err := item.WriteUntrustedSlot(&u, p, s); err != nil {
		t.Fatal(err)
	}
	want := []byte{2, 0xd2, 0x06, 1, 1, byte(comp(t, p, "damage")), 2, 0xac, 0x02, byte(comp(t, p, "tool"))}
	if !bytes.Equal(u.Bytes(), want) {
		t.Errorf("untrusted %x, want %x (each value length-prefixed)", u.Bytes(), want)
	}
	var h wire.Writer
	if err := item.WriteHashedStack(&h, p, s); err != nil {
		t.Fatal(err)
	}
	want = []byte{1, 0xd2, 0x06, 2, 0, 1, byte(comp(t, p, "tool"))}
	if !bytes.Equal(h.Bytes(), want) {
		t.Errorf("hashed %x, want %x (present, item, count, no hashes, the removal)", h.Bytes(), want)
	}
	h = wire.Writer{}
	if err := item.WriteHashedStack(&h, p, item.Stack{}); err != nil || !bytes.Equal(h.Bytes(), []byte{0}) {
		t.Errorf("empty hashed stack %x (%v)", h.Bytes(), err)
	}
	if err := item.WriteHashedStack(&h, 769, s); err == nil || !strings.Contains(err.Error(), "1.21.5") {
		t.Errorf("hashed stack at 769: %v", err)
	}
	// A stack read on one version cannot be written for another whose ids differ.
	if err := item.WriteSlot(&h, 767, s); err == nil || !strings.Contains(err.Error(), "not a component of protocol 767") {
		t.Errorf("770 stack written for 767: %v", err)
	}
}

// TestReadSlots reads a window_items list and rejects a count that cannot
// fit.
func TestReadSlots(t *testing.T) {
	var w wire.Writer
	w.VarInt(3)
	w.VarInt(0)
	w.VarInt(64)
	w.VarInt(35)
	w.VarInt(0)
	w.VarInt(0)
	w.VarInt(0)
	list := item.ReadSlots(wire.NewReader(w.Bytes()), 767)
	if len(list) != 3 || !list[0].Empty() || list[1].Count != 64 || !list[2].Empty() {
		t.Errorf("%+v", list)
	}
	var big wire.Writer
	big.VarInt(1 << 28)
	r := wire.NewReader(big.Bytes())
	if list := item.ReadSlots(r, 767); list != nil || r.Err() == nil {
		t.Errorf("a count of 2^28: %v, %v", list, r.Err())
	}
}

// TestHostileNesting: stacks nested in containers beyond the depth limit
// fail cleanly, and reading a packet of hostile counts allocates far less
// than the counts claim.
func TestHostileNesting(t *testing.T) {
	for _, p := range []int32{767, 775} {
		container := comp(t, p, "container")
		var w wire.Writer
		const levels = 1000
		for i := 0; i < levels; i++ {
			if p < 775 {
				w.VarInt(1) // a Slot: count, item
				w.VarInt(600)
			} else if i == 0 {
				w.VarInt(1)
				w.VarInt(600)
			} else {
				w.Bool(true) // Opt<ItemStackTemplate>: item, count
				w.VarInt(600)
				w.VarInt(1)
			}
			w.VarInt(1)
			w.VarInt(0)
			w.VarInt(container)
			w.VarInt(1) // one slot in the container
		}
		w.VarInt(0)
		for _, read := range []func(*wire.Reader){
			func(r *wire.Reader) { item.SkipSlot(r, p) },
			func(r *wire.Reader) {
				s := item.ReadSlot(r, p)
				if r.Err() == nil {
					s.Container()
				}
			},
		} {
			r := wire.NewReader(w.Bytes())
			read(r)
			if r.Err() == nil || !strings.Contains(r.Err().Error(), "nest deeper") {
				t.Errorf("protocol %d: %d nested shulker boxes read: %v", p, levels, r.Err())
			}
		}
	}

	// Claimed lengths far beyond the packet allocate nothing from the claim.
	var w wire.Writer
	for i := 0; i < 2000; i++ {
		w.VarInt(1)
		w.VarInt(1)
		w.VarInt(1 << 28) // components claimed
		w.VarInt(1 << 28)
	}
	b := w.Bytes()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < 2000; i++ {
		r := wire.NewReader(b[i*len(b)/2000:])
		item.ReadSlot(r, 775)
		if r.Err() == nil {
			t.Fatal("a stack claiming 2^28 components read")
		}
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<20 {
		t.Errorf("2000 hostile stacks allocated %d bytes", grew)
	}
}

// TestSeedsRead: the fuzz seeds are real stacks that read without error on
// their protocol (so the fuzzer starts from valid input).
func TestSeedsRead(t *testing.T) {
	seeds := seedSlots(t)
	for i, p := range mcdata.SchemaProtocols() {
		for _, b := range seeds[i*4 : i*4+4] {
			r := wire.NewReader(b)
			item.ReadSlot(r, p)
			if r.Err() != nil || r.Remaining() != 0 {
				t.Errorf("protocol %d seed %x: %v, %d left", p, b, r.Err(), r.Remaining())
			}
		}
		r := wire.NewReader(seeds[i*4+3])
		c, ok := item.ReadSlot(r, p).Container()
		if d, _ := c[1].Damage(); !ok || len(c) != 2 || !c[0].Empty() || d != 37 {
			t.Errorf("protocol %d: shulker box %+v", p, c)
		}
	}
	nested := nestedStackSeeds(t)
	if len(nested) == 0 {
		t.Error("no protocol has a nested stack seed (sulfur_cube_content, 26.2+)")
	}
	for p, b := range nested {
		r := wire.NewReader(b)
		s := item.ReadSlot(r, p)
		if r.Err() != nil || r.Remaining() != 0 || len(s.Components) != 1 {
			t.Errorf("protocol %d nested seed %x: %+v, %v, %d left", p, b, s, r.Err(), r.Remaining())
		}
	}
}

// TestComponents777: 26.3's new and changed components read to the end of
// the stack and write back to the same bytes.
func TestComponents777(t *testing.T) {
	for p, raw := range components777Seeds(t) {
		r := wire.NewReader(raw)
		s := item.ReadSlot(r, p)
		if r.Err() != nil || r.Remaining() != 0 || len(s.Components) != 6 {
			t.Fatalf("protocol %d: %+v, %v, %d left", p, s, r.Err(), r.Remaining())
		}
		var w wire.Writer
		if err := item.WriteSlot(&w, p, s); err != nil || !bytes.Equal(w.Bytes(), raw) {
			t.Errorf("protocol %d: written % x, %v; read % x", p, w.Bytes(), err, raw)
		}
		for _, c := range s.Components {
			if _, err := c.Decode(); err != nil {
				t.Errorf("protocol %d: %s does not decode: %v", p, c.Name, err)
			}
		}
	}
}
