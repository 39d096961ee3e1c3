package item_test

import (
	"bytes"
	"testing"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// FuzzReadSlot feeds arbitrary bytes to ReadSlot for every protocol: it
// must not panic; what it reads must write back to bytes that read as the
// same stack; and every component must decode or fail cleanly, through the
// accessors too.
func FuzzReadSlot(f *testing.F) {
	for _, seed := range seedSlots(f) {
		f.Add(seed)
	}
	for _, seed := range nestedStackSeeds(f) {
		f.Add(seed)
	}
	for _, seed := range components777Seeds(f) {
		f.Add(seed)
	}
	protocols := mcdata.SchemaProtocols()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range protocols {
			r := wire.NewReader(data)
			s := item.ReadSlot(r, p)
			if r.Err() != nil {
				continue
			}
			var w wire.Writer
			if err := item.WriteSlot(&w, p, s); err != nil {
				t.Fatalf("protocol %d: a stack read cannot be written: %v", p, err)
			}
			r2 := wire.NewReader(w.Bytes())
			s2 := item.ReadSlot(r2, p)
			var w2 wire.Writer
			if r2.Err() != nil || r2.Remaining() != 0 || item.WriteSlot(&w2, p, s2) != nil || !bytes.Equal(w.Bytes(), w2.Bytes()) {
				t.Fatalf("protocol %d: written %x reads back as %x (%v)", p, w.Bytes(), w2.Bytes(), r2.Err())
			}
			for _, c := range s.Components {
				c.Decode()
			}
			s.Plain()
			s.Damage()
			s.Enchantments()
			s.Food()
			s.Tool()
			s.Container()
			s.BundleContents()
			s.Potion()
			s.DisplayName()
			var u wire.Writer
			item.WriteUntrustedSlot(&u, p, s)
			if p >= 770 {
				item.WriteHashedStack(&u, p, s)
			}
		}
	})
}

// seedSlots are a few real stacks for each protocol: empty, plain,
// damaged and enchanted, named, a shulker box holding a damaged pickaxe.
func seedSlots(t testing.TB) [][]byte {
	var out [][]byte
	for _, p := range mcdata.SchemaProtocols() {
		out = append(out, []byte{0}, []byte{64, 35, 0, 0})
		patch := func(w *wire.Writer) { // damage 37, efficiency V
			w.VarInt(2)
			w.VarInt(0)
			w.VarInt(comp(t, p, "damage"))
			w.VarInt(37)
			w.VarInt(comp(t, p, "enchantments"))
			w.VarInt(1)
			w.VarInt(12)
			w.VarInt(5)
			if p < 770 {
				w.Bool(true)
			}
		}
		var w wire.Writer
		w.VarInt(1)
		w.VarInt(850)
		patch(&w)
		out = append(out, append([]byte(nil), w.Bytes()...))
		w = wire.Writer{}
		w.VarInt(1)
		w.VarInt(600)
		w.VarInt(2)
		w.VarInt(0)
		w.VarInt(comp(t, p, "custom_name"))
		w.Raw([]byte{8, 0, 3, 'B', 'o', 'x'})
		w.VarInt(comp(t, p, "container"))
		w.VarInt(2)
		if p >= 775 { // Opt<ItemStackTemplate>: item id, then count
			w.Bool(false)
			w.Bool(true)
			w.VarInt(850)
			w.VarInt(1)
		} else {
			w.VarInt(0)
			w.VarInt(1)
			w.VarInt(850)
		}
		patch(&w)
		out = append(out, w.Bytes())
	}
	return out
}

// nestedStackSeeds are, per protocol from 776 (26.2) on, a stack whose
// sulfur_cube_content holds a whole stack (a Slot, not a template) that
// holds components of its own: a cube holding a cube holding a damaged
// stack.
func nestedStackSeeds(t testing.TB) map[int32][]byte {
	out := map[int32][]byte{}
	for _, p := range mcdata.SchemaProtocols() {
		if p < 776 {
			continue
		}
		var w wire.Writer
		w.VarInt(1)
		w.VarInt(600)
		w.VarInt(1)
		w.VarInt(0)
		w.VarInt(comp(t, p, "sulfur_cube_content"))
		w.VarInt(1)
		w.VarInt(600)
		w.VarInt(1)
		w.VarInt(0)
		w.VarInt(comp(t, p, "sulfur_cube_content"))
		w.VarInt(2)
		w.VarInt(1)
		w.VarInt(1)
		w.VarInt(0)
		w.VarInt(comp(t, p, "damage"))
		w.VarInt(3)
		out[p] = w.Bytes()
	}
	return out
}

// components777Seeds are, per protocol from 777 (26.3) on, a stack with
// some of 26.3's new and changed components: a sign's front text (four
// texts, no filtered ones, black, not glowing), a cooking fuel (a constant
// burn time and a speed by key), a pot's decorations (a back of one brick
// template, the rest none), a mob visibility (a tag of entity types and a
// float), waxed and a cushion colour.
func components777Seeds(t testing.TB) map[int32][]byte {
	out := map[int32][]byte{}
	for _, p := range mcdata.SchemaProtocols() {
		if p < 777 {
			continue
		}
		var w wire.Writer
		w.VarInt(1)
		w.VarInt(850)
		w.VarInt(6)
		w.VarInt(0)
		w.VarInt(comp(t, p, "sign_text_front"))
		for range 4 {
			w.Raw([]byte{8, 0, 2, 'h', 'i'})
		}
		w.Bool(false)
		w.VarInt(15)
		w.Bool(false)
		w.VarInt(comp(t, p, "cooking_fuel"))
		w.Bool(true)
		w.Int32(200)
		w.Bool(false)
		w.String("minecraft:fast")
		w.VarInt(comp(t, p, "pot_decorations"))
		w.Bool(true)
		w.VarInt(900)
		w.VarInt(1)
		w.VarInt(0)
		w.VarInt(0)
		w.Bool(false)
		w.Bool(false)
		w.Bool(false)
		w.VarInt(comp(t, p, "mob_visibility"))
		w.VarInt(0)
		w.String("minecraft:skeletons")
		w.Float32(0.5)
		w.VarInt(comp(t, p, "waxed"))
		w.VarInt(comp(t, p, "cushion/color"))
		w.VarInt(3)
		out[p] = w.Bytes()
	}
	return out
}
