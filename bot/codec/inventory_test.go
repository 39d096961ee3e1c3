package codec

import (
	"bytes"
	"os"
	"testing"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// stackOf writes a plain stack (no components) of the named item.
func stackOf(t *testing.T, w *wire.Writer, p int32, name string, count int32) {
	t.Helper()
	it := mcdata.Game(p).ItemByName(name)
	if it == nil {
		t.Fatalf("protocol %d has no %s", p, name)
	}
	w.VarInt(count)
	w.VarInt(int32(it.ID))
	w.VarInt(0)
	w.VarInt(0)
}

// TestInventoryLayouts decodes hand-written inventory packets in each
// version's layout: container ids are bytes in 767 (set_slot's signed, so
// -1 and -2 reach the bot) and VarInts from 768; nothing else changed
// through 26.1 but the stacks' components (bot/item).
func TestInventoryLayouts(t *testing.T) {
	for _, p := range Defined() {
		c := For(p)
		window := func(w *wire.Writer, id int32) {
			if p == 767 {
				w.Byte(byte(id))
			} else {
				w.VarInt(id)
			}
		}

		r := reader(func(w *wire.Writer) {
			window(w, 0)
			w.VarInt(7)
			w.VarInt(3)
			w.VarInt(0)
			stackOf(t, w, p, "oak_log", 5)
			w.VarInt(0)
			stackOf(t, w, p, "stick", 2)
		})
		wi := c.WindowItems(r)
		if r.Err() != nil || r.Remaining() != 0 || wi.Window != 0 || wi.StateID != 7 || len(wi.Items) != 3 ||
			!wi.Items[0].Empty() || wi.Items[1].Name != "oak_log" || wi.Items[1].Count != 5 || wi.Carried.Name != "stick" {
			t.Errorf("%d window_items: %+v, %v, %d left", p, wi, r.Err(), r.Remaining())
		}

		r = reader(func(w *wire.Writer) {
			if p == 767 {
				w.Int8(-2)
			} else {
				w.VarInt(-2)
			}
			w.VarInt(0)
			w.Int16(40)
			stackOf(t, w, p, "shield", 1)
		})
		if s := c.SetSlot(r); r.Err() != nil || r.Remaining() != 0 || s.Window != WindowInventory || s.Slot != 40 || s.Item.Name != "shield" {
			t.Errorf("%d set_slot -2: %+v, %v", p, s, r.Err())
		}
		r = reader(func(w *wire.Writer) {
			window(w, 3)
			w.VarInt(300)
			w.Int16(-1)
			w.VarInt(0)
		})
		if s := c.SetSlot(r); r.Err() != nil || r.Remaining() != 0 || s.Window != 3 || s.StateID != 300 || s.Slot != -1 || !s.Item.Empty() {
			t.Errorf("%d set_slot: %+v, %v", p, s, r.Err())
		}

		r = reader(func(w *wire.Writer) { window(w, 200); w.Int16(2); w.Int16(-150) })
		if wp := c.WindowProperty(r); r.Err() != nil || r.Remaining() != 0 || wp != (WindowProperty{200, 2, -150}) {
			t.Errorf("%d property: %+v, %v", p, wp, r.Err())
		}
		r = reader(func(w *wire.Writer) { window(w, 200) })
		if id := c.CloseWindow(r); r.Err() != nil || r.Remaining() != 0 || id != 200 {
			t.Errorf("%d close: %d, %v", p, id, r.Err())
		}

		// open_window has VarInts in every version.
		r = reader(func(w *wire.Writer) {
			w.VarInt(130)
			w.VarInt(2)
			w.Byte(8)
			w.Uint16(5)
			w.Raw([]byte("Chest"))
		})
		if o := c.OpenWindow(r); r.Err() != nil || r.Remaining() != 0 || o.Window != 130 || o.MenuType != 2 || o.Title != "Chest" {
			t.Errorf("%d open: %+v, %v", p, o, r.Err())
		}

		r = reader(func(w *wire.Writer) { w.VarInt(40); stackOf(t, w, p, "bread", 3) })
		if s := c.SetPlayerInventory(r); r.Err() != nil || r.Remaining() != 0 || s.Slot != 40 || s.Item.Name != "bread" {
			t.Errorf("%d player inventory: %+v, %v", p, s, r.Err())
		}
		r = reader(func(w *wire.Writer) { stackOf(t, w, p, "bread", 3) })
		if s := c.SetCursorItem(r); r.Err() != nil || r.Remaining() != 0 || s.Name != "bread" || s.Count != 3 {
			t.Errorf("%d cursor: %+v, %v", p, s, r.Err())
		}
	}
}

// TestWriteWindowClick: the click in each version's form, written out by
// hand: a signed byte window id in 767, a VarInt from 768; the changed
// slots and the cursor as Slots.
func TestWriteWindowClick(t *testing.T) {
	for _, p := range []int32{767, 768, 769} {
		c := For(p)
		var sw wire.Writer
		stackOf(t, &sw, p, "oak_log", 5)
		r := wire.NewReader(sw.Bytes())
		logs := item.ReadSlot(r, p)

		var got wire.Writer
		err := c.WriteWindowClick(&got, WindowClick{Window: 2, StateID: 300, Slot: 36, Button: 1, Mode: ClickPickup,
			Changed: []ChangedSlot{{Slot: 36, Item: item.Stack{}}}, Carried: logs})
		var want wire.Writer
		if p == 767 {
			want.Byte(2)
		} else {
			want.VarInt(2)
		}
		want.VarInt(300)
		want.Int16(36)
		want.Int8(1)
		want.VarInt(0)
		want.VarInt(1)
		want.Int16(36)
		want.VarInt(0)
		stackOf(t, &want, p, "oak_log", 5)
		if err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d click: % x, %v; want % x", p, got.Bytes(), err, want.Bytes())
		}

		var close wire.Writer
		c.WriteCloseWindow(&close, 130)
		if wantClose := map[bool][]byte{true: {130}, false: {0x82, 0x01}}[p == 767]; !bytes.Equal(close.Bytes(), wantClose) {
			t.Errorf("%d close: % x", p, close.Bytes())
		}

		too := make([]ChangedSlot, 129)
		if err := c.WriteWindowClick(&wire.Writer{}, WindowClick{Changed: too}); err == nil {
			t.Errorf("%d: a click with 129 changed slots was written", p)
		}
		// A stack read from another protocol cannot be written.
		foreign := logs
		foreign.Components = []item.Component{{ID: 9999, Name: "nonsense"}}
		if err := c.WriteWindowClick(&wire.Writer{}, WindowClick{Carried: foreign}); err == nil {
			t.Errorf("%d: a stack with a foreign component was written", p)
		}
	}
}

// TestWriteHashedClick: from 1.21.5 the click's stacks are hashed: a
// presence flag, item id, count, no component hashes (the bot sends none)
// and the removed component types.
func TestWriteHashedClick(t *testing.T) {
	for _, p := range Defined() {
		if p < 770 {
			continue
		}
		c := For(p)
		var sw wire.Writer
		stackOf(t, &sw, p, "oak_log", 5)
		logs := item.ReadSlot(wire.NewReader(sw.Bytes()), p)
		var got wire.Writer
		err := c.WriteWindowClick(&got, WindowClick{Window: 130, StateID: 7, Slot: 45, Button: 40, Mode: ClickSwap, Carried: logs})
		var want wire.Writer
		want.VarInt(130)
		want.VarInt(7)
		want.Int16(45)
		want.Int8(40)
		want.VarInt(ClickSwap)
		want.VarInt(0)
		want.Bool(true)
		want.VarInt(int32(mcdata.Game(p).ItemByName("oak_log").ID))
		want.VarInt(5)
		want.VarInt(0)
		want.VarInt(0)
		if err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d: % x, %v; want % x", p, got.Bytes(), err, want.Bytes())
		}
		got = wire.Writer{}
		if err := c.WriteWindowClick(&got, WindowClick{Window: 1, Slot: 0, Changed: []ChangedSlot{{Slot: 3}}}); err != nil || !bytes.HasSuffix(got.Bytes(), []byte{1, 0, 3, 0, 0}) {
			t.Errorf("%d: an empty changed slot and cursor: % x, %v", p, got.Bytes(), err)
		}
	}
}

// TestWritePlayerAction: drop and swap-hands actions (status, the packed
// position, face, sequence) and the held slot.
func TestWritePlayerAction(t *testing.T) {
	c := For(769)
	var w wire.Writer
	c.WritePlayerAction(&w, PlayerAction{Status: ActionDropStack, Pos: BlockPos{X: -1, Y: -64, Z: 3}, Face: 1, Sequence: 9})
	r := wire.NewReader(w.Bytes())
	if s := r.VarInt(); s != ActionDropStack {
		t.Errorf("status %d", s)
	}
	if x, y, z := r.Position(); x != -1 || y != -64 || z != 3 {
		t.Errorf("position %d %d %d", x, y, z)
	}
	if f, seq := r.Int8(), r.VarInt(); f != 1 || seq != 9 || r.Remaining() != 0 {
		t.Errorf("face %d sequence %d", f, seq)
	}
	w = wire.Writer{}
	c.WriteHeldItem(&w, 7)
	if !bytes.Equal(w.Bytes(), []byte{0, 7}) {
		t.Errorf("held item % x", w.Bytes())
	}
}

// TestWindowItemsFixture: the 767 window_items captured from
// minecraft-protocol (46 varied stacks; bot/item/testdata) decodes whole.
func TestWindowItemsFixture(t *testing.T) {
	b, err := os.ReadFile("../item/testdata/window_items_767.bin")
	if err != nil {
		t.Fatal(err)
	}
	r := wire.NewReader(b)
	wi := For(767).WindowItems(r)
	named := 0
	for _, s := range wi.Items {
		if !s.Empty() && s.Name != "" {
			named++
		}
	}
	if r.Err() != nil || r.Remaining() != 0 || len(wi.Items) != 46 || named < 20 {
		t.Errorf("%d items (%d named), %v, %d left", len(wi.Items), named, r.Err(), r.Remaining())
	}
}

// TestWindowItemsBound: a window of more slots than any has is refused
// before the bot allocates them.
func TestWindowItemsBound(t *testing.T) {
	r := reader(func(w *wire.Writer) {
		w.VarInt(0)
		w.VarInt(1)
		w.VarInt(100000)
		w.Raw(make([]byte, 100001))
	})
	if wi := For(768).WindowItems(r); r.Err() == nil || len(wi.Items) != 0 {
		t.Errorf("%d items, %v", len(wi.Items), r.Err())
	}
}
