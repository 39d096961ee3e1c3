package inventory

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/menu"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

type it = fakeserver.Item

func stack(name string, count int32) it { return it{Name: name, Count: count} }

// TestContents: the server's window_items, set_slot (window 0, the
// cursor and inventory forms), set_cursor_item, set_player_inventory and
// held slot land where the game puts them, in every version's layout; a
// slot of a window that is not open is ignored, as the game ignores it.
func TestContents(t *testing.T) {
	for _, p := range protocols() {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			w := join(t, p, false)
			if v := w.inv.View(); v.Synced {
				t.Fatal("synced before the server sent anything")
			}
			w.srv.WindowItems(0, 3, items(PlayerSlots, map[int]it{
				36: stack("oak_log", 5), 9: stack("oak_planks", 12), SlotHead: stack("iron_helmet", 1), SlotOffhand: stack("shield", 1), SlotCraftFirst: stack("stick", 2),
			}), it{})
			v := w.wait("the contents", func(v View) bool { return v.Synced })
			if v.StateID != 3 || !has(v, 36, "oak_log", 5) || !has(v, 9, "oak_planks", 12) || v.Worn(Head).Name != "iron_helmet" ||
				v.Offhand().Name != "shield" || v.Held().Name != "oak_log" || v.Count("oak_log") != 5 || v.UsedSlots() != 2 || !has(v, SlotCraftFirst, "stick", 2) {
				t.Errorf("contents: state %d,%s", v.StateID, dump(v))
			}
			if got := v.Find("oak_planks"); len(got) != 1 || got[0] != 9 {
				t.Errorf("Find(oak_planks) = %v", got)
			}

			w.srv.SetSlot(0, 4, 37, stack("stick", 3))
			w.srv.PlayerInventory(40, stack("torch", 2)) // the off-hand, by the inventory's numbering
			w.srv.PlayerInventory(36, stack("iron_boots", 1))
			w.srv.Cursor(5, stack("bread", 1))
			w.srv.HeldSlot(1)
			// Nothing is open as window 9; the game ignores this.
			w.srv.SetSlot(9, 6, 0, stack("diamond", 1))
			w.srv.SetSlot(0, 7, 10, stack("dirt", 1)) // a marker: applied after the ignored one
			v = w.wait("the updates", func(v View) bool { return v.Slots[10].Name == "dirt" })
			if !has(v, 37, "stick", 3) || v.Offhand().Name != "torch" || v.Worn(Feet).Name != "iron_boots" || v.Cursor.Name != "bread" ||
				v.HeldSlot != 1 || v.Held().Name != "stick" || v.StateID != 7 || v.Count("diamond") != 0 {
				t.Errorf("updates: state %d, held %d,%s", v.StateID, v.HeldSlot, dump(v))
			}
			// The first contents are not news; what came after is.
			w.rec.WaitCount(t, "mc_item_picked_up", 5)
			got := map[string]int32{}
			for _, e := range w.rec.Events() {
				if e.Name == "mc_item_picked_up" {
					got[e.SubKey] += e.Payload.(struct {
						Item  string `json:"item"`
						Count int32  `json:"count"`
					}).Count
				}
			}
			want := map[string]int32{"stick": 3, "torch": 2, "iron_boots": 1, "bread": 1, "dirt": 1}
			for name, n := range want {
				if got[name] != n {
					t.Errorf("picked up %v; want %v", got, want)
					break
				}
			}
			if got["oak_log"] != 0 || got["shield"] != 0 {
				t.Errorf("events for the first contents: %v", got)
			}
		})
	}
}

// synced joins and sends window 0 with the given slots (state id 3).
func synced(t *testing.T, p int32, manual bool, m map[int]it) *world {
	t.Helper()
	w := join(t, p, manual)
	w.srv.WindowItems(0, 3, items(PlayerSlots, m), it{})
	w.wait("the contents", func(v View) bool { return v.Synced })
	return w
}

// TestClicks: a click carries the window's latest state id, no changed
// slots and the cursor as the bot has it; it returns once the server has
// answered the slots it changes, and the model is what the server said.
func TestClicks(t *testing.T) {
	ctx := context.Background()
	for _, p := range protocols() {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			w := synced(t, p, false, map[int]it{36: stack("oak_log", 5)})

			ch := async(func() (ClickResult, error) { return w.inv.Click(ctx, LeftClick(0, 36)) })
			c := w.click()
			if c.Window != 0 || c.StateID != 3 || c.Slot != 36 || c.Button != 0 || c.Mode != 0 || len(c.Changed) != 0 || c.Carried.Count != 0 {
				t.Errorf("pick up sent %+v", c)
			}
			w.srv.SetSlot(0, 4, 36, it{})
			w.srv.Cursor(5, stack("oak_log", 5))
			r, err := get(t, ch)
			if err != nil || !r.Confirmed() || r.Expected != 2 || !r.View.Slots[36].Empty() || r.View.Cursor.Name != "oak_log" || r.View.Cursor.Count != 5 {
				t.Errorf("pick up: %+v (%s), %v", r, dump(r.View), err)
			}

			ch = async(func() (ClickResult, error) { return w.inv.Click(ctx, RightClick(0, 10)) })
			c = w.click()
			if c.StateID != 4 || c.Slot != 10 || c.Button != 1 || c.Carried.Name != "oak_log" || c.Carried.Count != 5 || len(c.Changed) != 0 {
				t.Errorf("put one down sent %+v", c)
			}
			w.srv.SetSlot(0, 5, 10, stack("oak_log", 1))
			w.srv.Cursor(6, stack("oak_log", 4))
			r, err = get(t, ch)
			if err != nil || !r.Confirmed() || !has(r.View, 10, "oak_log", 1) || r.View.Cursor.Count != 4 {
				t.Errorf("put one down: %+v (%s), %v", r, dump(r.View), err)
			}

			ch = async(func() (ClickResult, error) { return w.inv.Click(ctx, LeftClick(0, 10)) })
			c = w.click()
			if c.StateID != 5 || c.Carried.Count != 4 {
				t.Errorf("merge sent %+v", c)
			}
			w.srv.SetSlot(0, 6, 10, stack("oak_log", 5))
			w.srv.Cursor(7, it{})
			r, err = get(t, ch)
			if err != nil || !r.Confirmed() || !has(r.View, 10, "oak_log", 5) || !r.View.Cursor.Empty() || r.View.StateID != 6 {
				t.Errorf("merge: %+v (%s), %v", r, dump(r.View), err)
			}

			// A click the window cannot have sends nothing.
			for _, bad := range []Click{LeftClick(0, 46), LeftClick(0, -2), LeftClick(3, 0), {Window: 0, Slot: 1, Mode: 9}} {
				if _, err := w.inv.Click(ctx, bad); err == nil {
					t.Errorf("%+v was accepted", bad)
				}
			}
			// The server still sees the next real click as the next packet.
			ch = async(func() (ClickResult, error) { return w.inv.Click(ctx, ShiftClick(0, 10)) })
			if next, _ := w.srv.Next(); next != mcdata.ServerboundPlayWindowClick {
				t.Errorf("after refused clicks the bot sent %v", next)
			}
			w.srv.SetSlot(0, 7, 10, it{})
			w.srv.SetSlot(0, 8, 36, stack("oak_log", 5))
			if r, err := get(t, ch); err != nil || !r.Confirmed() || !has(r.View, 36, "oak_log", 5) {
				t.Errorf("shift-click to the hotbar: %+v (%s), %v", r, dump(r.View), err)
			}
		})
	}
}

// TestStaleStateResync: when the server's state id has moved on (its
// answers to something else were in flight), it performs the click and
// sends the whole window back; the bot takes all of it, slots the click
// did not touch included, and its next click carries the new state id.
func TestStaleStateResync(t *testing.T) {
	ctx := context.Background()
	for _, p := range protocols() {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			w := synced(t, p, false, map[int]it{36: stack("oak_log", 5), 20: stack("dirt", 7)})
			ch := async(func() (ClickResult, error) { return w.inv.Click(ctx, ShiftClick(0, 36)) })
			if c := w.click(); c.StateID != 3 || c.Mode != 1 {
				t.Errorf("sent %+v", c)
			}
			// The server was at state 8: the shift-click moved the logs to
			// slot 9, and the dirt had been used meanwhile.
			w.srv.WindowItems(0, 9, items(PlayerSlots, map[int]it{9: stack("oak_log", 5)}), it{})
			r, err := get(t, ch)
			if err != nil || !r.Confirmed() || !has(r.View, 9, "oak_log", 5) || !r.View.Slots[36].Empty() || !r.View.Slots[20].Empty() || r.View.StateID != 9 {
				t.Errorf("resync: %+v (%s), %v", r, dump(r.View), err)
			}
			ch = async(func() (ClickResult, error) { return w.inv.Click(ctx, ShiftClick(0, 9)) })
			if c := w.click(); c.StateID != 9 {
				t.Errorf("the click after the resync carries state %d", c.StateID)
			}
			w.srv.SetSlot(0, 10, 9, it{})
			w.srv.SetSlot(0, 11, 36, stack("oak_log", 5))
			if _, err := get(t, ch); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestUnansweredClick: a server that ignores a click leaves the bot's view
// as it was: the click gives up after AnswerTicks ticks (driven by hand)
// and says how much of it the server answered.
func TestUnansweredClick(t *testing.T) {
	w := synced(t, 769, true, map[int]it{36: stack("oak_log", 5)})
	// Every tick at its moment, so that the session's count is the ticks
	// the click waits (a wait counts only ticks run on time).
	t.Cleanup(w.s.HoldRealTime())
	start := w.s.Tick()
	ch := async(func() (ClickResult, error) { return w.inv.Click(context.Background(), LeftClick(0, 36)) })
	w.click()
	// Until AnswerTicks ticks have passed the click waits; then it gives up.
	for w.s.Tick() < start+AnswerTicks-1 {
		select {
		case r := <-ch:
			t.Fatalf("the click returned after %d ticks: %+v", w.s.Tick()-start, r)
		default:
		}
		w.clock.Tick()
	}
	var r ClickResult
	for r.Expected == 0 {
		select {
		case res := <-ch:
			if res.err != nil {
				t.Fatal(res.err)
			}
			r = res.v
		default:
			w.clock.Tick()
		}
	}
	if r.Confirmed() || r.Expected != 2 || r.Answered != 0 || !has(r.View, 36, "oak_log", 5) || !r.View.Cursor.Empty() {
		t.Errorf("%+v (%s)", r, dump(r.View))
	}
}

// TestHands: selecting a hotbar slot and dropping from the hand are
// recorded at once (the server never answers them, as for the game's
// client); swapping hands waits for the server's two slots.
func TestHands(t *testing.T) {
	ctx := context.Background()
	for _, p := range protocols() {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			w := synced(t, p, false, map[int]it{36: stack("oak_log", 5), 37: stack("stick", 3), SlotOffhand: stack("shield", 1)})
			if err := w.inv.SelectHotbar(1); err != nil {
				t.Fatal(err)
			}
			_, r := w.next(mcdata.ServerboundPlayHeldItemSlot)
			if slot := r.Int16(); slot != 1 || r.Remaining() != 0 {
				t.Errorf("held_item_slot %d", slot)
			}
			if v := w.inv.View(); v.HeldSlot != 1 || v.Held().Name != "stick" {
				t.Errorf("held %d %s", v.HeldSlot, v.Held().Name)
			}
			if err := w.inv.SelectHotbar(9); err == nil {
				t.Error("hotbar slot 9 accepted")
			}

			dropped, err := w.inv.DropHeld(false)
			if err != nil || dropped.Name != "stick" || dropped.Count != 1 {
				t.Errorf("drop one: %+v, %v", dropped, err)
			}
			_, r = w.next(mcdata.ServerboundPlayBlockDig)
			a := w.srv.ReadPlayerAction(r)
			if a.Status != 4 || a.X != 0 || a.Y != 0 || a.Z != 0 || a.Face != 0 || a.Sequence != 0 {
				t.Errorf("drop one sent %+v", a)
			}
			if v := w.inv.View(); !has(v, 37, "stick", 2) {
				t.Errorf("after dropping one:%s", dump(v))
			}
			if _, err := w.inv.DropHeld(true); err != nil {
				t.Fatal(err)
			}
			_, r = w.next(mcdata.ServerboundPlayBlockDig)
			if a2 := w.srv.ReadPlayerAction(r); a2.Status != 3 || a2.Sequence != 0 {
				t.Errorf("drop the stack sent %+v", a2)
			}
			if v := w.inv.View(); !v.Slots[37].Empty() {
				t.Errorf("after dropping the stack:%s", dump(v))
			}
			if _, err := w.inv.DropHeld(true); err == nil {
				t.Error("an empty hand dropped something")
			}

			if err := w.inv.SelectHotbar(0); err != nil {
				t.Fatal(err)
			}
			ch := async(func() (ClickResult, error) { return w.inv.SwapHands(ctx) })
			_, r = w.next(mcdata.ServerboundPlayBlockDig)
			if a := w.srv.ReadPlayerAction(r); a.Status != 6 {
				t.Errorf("swap hands sent %+v", a)
			}
			w.srv.SetSlot(0, 4, 36, stack("shield", 1))
			w.srv.SetSlot(0, 5, SlotOffhand, stack("oak_log", 5))
			res, err := get(t, ch)
			if err != nil || !res.Confirmed() || res.View.Held().Name != "shield" || res.View.Offhand().Name != "oak_log" {
				t.Errorf("swap hands: %+v (%s), %v", res, dump(res.View), err)
			}
		})
	}
}

// TestContainer: a container opened by the server, its contents and
// properties, clicks in its window (whose player part is the inventory),
// closing from both sides.
func TestContainer(t *testing.T) {
	ctx := context.Background()
	for _, p := range protocols() {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			w := synced(t, p, false, map[int]it{36: stack("oak_log", 5)})
			chest, _ := MenuByName("generic_9x3")
			exp := w.inv.ExpectContainer()
			w.srv.OpenWindow(5, chest.ID, "Chest")
			w.srv.WindowItems(5, 1, items(chest.Size(), map[int]it{0: stack("cobblestone", 10), 54: stack("oak_log", 5)}), it{})
			w.srv.WindowProperty(5, 0, 100)
			c, err := exp.Wait(ctx)
			if err != nil || c.Window != 5 || c.Menu.Name != "generic_9x3" || c.Title != "Chest" || len(c.Slots) != 27 || c.Slots[0].Name != "cobblestone" || c.StateID != 1 {
				t.Fatalf("container %+v, %v", c, err)
			}
			v := w.wait("the property", func(v View) bool { return v.Container.Properties[0] == 100 })
			if got := v.FindIn(5, "oak_log"); len(got) != 1 || got[0] != 54 {
				t.Errorf("FindIn = %v", got)
			}
			if len(v.Window(5)) != 63 || v.Window(5)[54].Name != "oak_log" {
				t.Errorf("the chest's window: %d slots", len(v.Window(5)))
			}

			ch := async(func() (ClickResult, error) { return w.inv.Click(ctx, ShiftClick(5, 0)) })
			cl := w.click()
			if cl.Window != 5 || cl.StateID != 1 || cl.Slot != 0 || cl.Mode != 1 {
				t.Errorf("shift-click sent %+v", cl)
			}
			// The game moves a container's stack to the player's slots from
			// the end: the last hotbar slot.
			w.srv.SetSlot(5, 2, 0, it{})
			w.srv.SetSlot(5, 3, 62, stack("cobblestone", 10))
			r, err := get(t, ch)
			if err != nil || !r.Confirmed() || !has(r.View, 44, "cobblestone", 10) || !r.View.Container.Slots[0].Empty() || r.View.Container.StateID != 3 {
				t.Errorf("shift-click: %+v (%s), %v", r, dump(r.View), err)
			}

			if err := w.inv.CloseContainer(); err != nil {
				t.Fatal(err)
			}
			_, rd := w.next(mcdata.ServerboundPlayCloseWindow)
			var id int32
			if p < 768 {
				id = int32(rd.Byte())
			} else {
				id = rd.VarInt()
			}
			if id != 5 || rd.Remaining() != 0 {
				t.Errorf("close_window %d", id)
			}
			if v := w.inv.View(); v.Container != nil {
				t.Error("still open after closing")
			}
			if _, err := w.inv.Click(ctx, LeftClick(5, 0)); !errors.Is(err, ErrNoWindow) {
				t.Errorf("a click on the closed window: %v", err)
			}

			// The server opens a crafting table and closes it itself.
			exp = w.inv.ExpectContainer()
			crafting, _ := MenuByName("crafting")
			w.srv.OpenWindow(6, crafting.ID, "Crafting")
			w.srv.WindowItems(6, 1, items(crafting.Size(), nil), it{})
			if c, err := exp.Wait(ctx); err != nil || c.Menu.Name != "crafting" || len(c.Slots) != 10 {
				t.Fatalf("crafting %+v, %v", c, err)
			}
			w.srv.CloseWindow(6)
			w.wait("the server's close", func(v View) bool { return v.Container == nil })
		})
	}
}

// TestPickupEvents: items that enter the inventory from the server are
// reported once, keyed by item; what the bot's own clicks move (even a
// crafted result landing on the cursor) is not a pick-up.
func TestPickupEvents(t *testing.T) {
	ctx := context.Background()
	w := synced(t, 768, false, map[int]it{36: stack("oak_log", 5), SlotCraftResult: stack("oak_planks", 4), SlotCraftFirst: stack("oak_log", 1)})
	ch := async(func() (ClickResult, error) { return w.inv.Click(ctx, LeftClick(0, SlotCraftResult)) })
	w.click()
	w.srv.SetSlot(0, 4, SlotCraftResult, it{})
	w.srv.SetSlot(0, 5, SlotCraftFirst, it{})
	w.srv.Cursor(6, stack("oak_planks", 4))
	if r, err := get(t, ch); err != nil || !r.Confirmed() || r.View.Cursor.Name != "oak_planks" {
		t.Fatalf("take the result: %+v, %v", r, err)
	}
	w.srv.SetSlot(0, 7, 36, stack("oak_log", 8))
	w.srv.SetSlot(0, 8, 37, stack("cobblestone", 1))
	w.wait("the pick-ups", func(v View) bool { return v.Slots[37].Name == "cobblestone" })
	w.rec.WaitCount(t, "mc_item_picked_up", 2)
	var got []string
	for _, e := range w.rec.Events() {
		if e.Name == "mc_item_picked_up" {
			got = append(got, fakeserver.JSON(e.Payload))
		}
	}
	if len(got) != 2 || got[0] != `{"item":"oak_log","count":3}` || got[1] != `{"item":"cobblestone","count":1}` {
		t.Errorf("events %v", got)
	}
}

// TestWindowItemsFixture: window_items as minecraft-protocol writes them
// for 46 varied stacks (enchanted tools, a named sword, potions, a shulker
// box with contents …; bot/item/testdata) land slot by slot as the item
// package reads them.
func TestWindowItemsFixture(t *testing.T) {
	for _, p := range []int32{767, 775} {
		if !containsProto(p) {
			continue // the codec for this version is not in yet
		}
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			raw, err := os.ReadFile(fmt.Sprintf("../item/testdata/window_items_%d.bin", p))
			if err != nil {
				t.Fatal(err)
			}
			r := wire.NewReader(raw)
			if p < 768 {
				r.Byte()
			} else {
				r.VarInt()
			}
			r.VarInt()
			want := item.ReadSlots(r, p)
			if r.Err() != nil || len(want) != PlayerSlots {
				t.Fatalf("fixture: %d stacks, %v", len(want), r.Err())
			}
			w := join(t, p, false)
			// The fixture's window id is 0: send it as window 0's contents.
			w.srv.Send(mcdata.ClientboundPlayWindowItems, func(out *wire.Writer) { out.Raw(raw) })
			v := w.wait("the contents", func(v View) bool { return v.Synced })
			for i, s := range want {
				if !menu.EqualStacks(v.Slots[i], s) || v.Slots[i].Name != s.Name || len(v.Slots[i].Components) != len(s.Components) {
					t.Errorf("slot %d: %d×%s, want %d×%s", i, v.Slots[i].Count, v.Slots[i].Name, s.Count, s.Name)
				}
			}
		})
	}
}

func containsProto(p int32) bool {
	for _, q := range protocols() {
		if q == p {
			return true
		}
	}
	return false
}

// TestPickupWithoutContents: a server that never sends the whole inventory
// (flying-squid sends only the slots that hold something) has the bot
// start empty, as the game's client does, so what it adds after the spawn
// is picked up.
func TestPickupWithoutContents(t *testing.T) {
	w := join(t, 769, false)
	w.srv.SetSlot(0, 0, 36, stack("oak_log", 5))
	w.rec.WaitCount(t, "mc_item_picked_up", 1)
	if got := fakeserver.JSON(w.rec.Events()[len(w.rec.Events())-1].Payload); got != `{"item":"oak_log","count":5}` {
		t.Errorf("event %s", got)
	}
	if v := w.inv.View(); v.Synced || !has(v, 36, "oak_log", 5) {
		t.Errorf("synced %v,%s", v.Synced, dump(v))
	}
}

// TestEquipPutsTheCursorDownFirst: a stack left on the cursor by an
// unfinished move goes onto a stack of its kind before the equip's own
// clicks, each answered by the server.
func TestEquipPutsTheCursorDownFirst(t *testing.T) {
	ctx := context.Background()
	w := join(t, 769, false)
	w.srv.WindowItems(0, 3, items(PlayerSlots, map[int]it{12: stack("oak_log", 10), 20: stack("iron_axe", 1)}), stack("oak_log", 5))
	w.wait("the contents", func(v View) bool { return v.Synced })
	ch := async(func() (EquipResult, error) { return w.inv.Equip(ctx, "iron_axe", Hand) })
	if c := w.click(); c.Slot != 12 || c.Mode != 0 || c.Carried.Name != "oak_log" || c.Carried.Count != 5 {
		t.Errorf("putting the cursor down sent %+v", c)
	}
	w.srv.SetSlot(0, 4, 12, stack("oak_log", 15))
	w.srv.Cursor(5, it{})
	if c := w.click(); c.Slot != 20 || c.Mode != 2 || c.Button != 0 || c.StateID != 4 {
		t.Errorf("the equip sent %+v", c)
	}
	w.srv.SetSlot(0, 5, 20, it{})
	w.srv.SetSlot(0, 6, 36, stack("iron_axe", 1))
	r, err := get(t, ch)
	if err != nil || !r.Equipped || r.Slot != 36 || !r.View.Cursor.Empty() || !has(r.View, 12, "oak_log", 15) {
		t.Errorf("%+v (%s), %v", r, dump(r.View), err)
	}
}

// TestClosingReturnsAreNotPickups: what a closed crafting table's grid and
// the cursor held go back into the inventory; that is the bot's own, not
// a pick-up; a real pick-up after it still is one.
func TestClosingReturnsAreNotPickups(t *testing.T) {
	ctx := context.Background()
	w := synced(t, 768, false, map[int]it{36: stack("stick", 2)})
	crafting, _ := MenuByName("crafting")
	exp := w.inv.ExpectContainer()
	w.srv.OpenWindow(2, crafting.ID, "Crafting")
	w.srv.WindowItems(2, 1, items(crafting.Size(), map[int]it{0: stack("oak_planks", 4), 1: stack("oak_log", 1), 37: stack("stick", 2)}), it{})
	if _, err := exp.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	// The sticks onto the cursor (hotbar slot 0 is the crafting window's 37).
	ch := async(func() (ClickResult, error) { return w.inv.Click(ctx, LeftClick(2, 37)) })
	w.click()
	w.srv.SetSlot(2, 2, 37, it{})
	w.srv.Cursor(3, stack("stick", 2))
	if r, err := get(t, ch); err != nil || !r.Confirmed() {
		t.Fatalf("%+v, %v", r, err)
	}
	if err := w.inv.CloseContainer(); err != nil {
		t.Fatal(err)
	}
	w.srv.PlayerInventory(0, stack("oak_log", 1))
	w.srv.PlayerInventory(1, stack("stick", 2))
	w.srv.PlayerInventory(2, stack("cobblestone", 3)) // picked up
	w.wait("the returns", func(v View) bool { return v.Slots[38].Name == "cobblestone" })
	w.rec.WaitCount(t, "mc_item_picked_up", 1)
	var got []string
	for _, e := range w.rec.Events() {
		if e.Name == "mc_item_picked_up" {
			got = append(got, fakeserver.JSON(e.Payload))
		}
	}
	if len(got) != 1 || got[0] != `{"item":"cobblestone","count":3}` {
		t.Errorf("events %v", got)
	}
}

// TestLateAnswerAfterClose: a shift-click out of a furnace is answered for
// its source first and its destination after; when the bot has closed the
// window in between, the destination's answer (the player's own slot, in
// the closed window's numbering) still lands in the inventory, without a
// pick-up event. Answers about the closed window's own slots are dropped.
func TestLateAnswerAfterClose(t *testing.T) {
	ctx := context.Background()
	w := synced(t, 769, false, nil)
	furnace, _ := MenuByName("furnace")
	exp := w.inv.ExpectContainer()
	w.srv.OpenWindow(4, furnace.ID, "Furnace")
	w.srv.WindowItems(4, 1, items(furnace.Size(), map[int]it{0: stack("oak_log", 2)}), it{})
	if _, err := exp.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	ch := async(func() (ClickResult, error) { return w.inv.Click(ctx, ShiftClick(4, 0)) })
	w.click()
	w.srv.SetSlot(4, 2, 0, it{})
	if _, err := get(t, ch); err != nil {
		t.Fatal(err)
	}
	if err := w.inv.CloseContainer(); err != nil {
		t.Fatal(err)
	}
	// Furnace slot 3 is the first slot of the main inventory (window 0's 9).
	w.srv.SetSlot(4, 3, 3, stack("oak_log", 2))
	w.srv.SetSlot(4, 3, 1, stack("coal", 1))
	w.srv.PlayerInventory(2, stack("cobblestone", 3)) // a pick-up, after the late answer
	v := w.wait("the cobblestone", func(v View) bool { return v.Slots[38].Name == "cobblestone" })
	if !has(v, 9, "oak_log", 2) || v.Count("coal") != 0 {
		t.Errorf("after the late answers: %s", dump(v))
	}
	w.rec.WaitCount(t, "mc_item_picked_up", 1)
	for _, e := range w.rec.Events() {
		if e.Name == "mc_item_picked_up" && fakeserver.JSON(e.Payload) != `{"item":"cobblestone","count":3}` {
			t.Errorf("a late answer counted as a pick-up: %s", fakeserver.JSON(e.Payload))
		}
	}
}
