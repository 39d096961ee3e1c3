package rules

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/menu"
)

// slots is a window's contents in a test: slot → "name*count"; slot -1 is
// the cursor.
type slots map[int]string

func (s slots) stack(t testing.TB, g *mcdata.GameData, slot int) item.Stack {
	v, ok := s[slot]
	if !ok {
		return item.Stack{}
	}
	name, n, _ := strings.Cut(v, "*")
	count := 1
	if n != "" {
		count, _ = strconv.Atoi(n)
	}
	return st(t, g, name, count)
}

func show(s item.Stack) string {
	if s.Empty() {
		return "empty"
	}
	return fmt.Sprintf("%s*%d", s.Name, s.Count)
}

// setup builds a window: kind "" is the player's inventory, else a menu
// name; the slots are in that window's numbering.
func setup(t testing.TB, g *mcdata.GameData, kind string, in slots) (*Window, *Inventory) {
	t.Helper()
	inv := &Inventory{}
	var w *Window
	if kind == "" {
		w = PlayerWindow(g, inv)
	} else {
		m, _ := menu.ByName(kind)
		var err error
		w, err = OpenWindow(g, 1, kind, inv, make([]item.Stack, m.Slots))
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := range w.Size() {
		w.Set(i, in.stack(t, g, i))
	}
	inv.Cursor = in.stack(t, g, -1)
	w.updateResult()
	return w, inv
}

func check(t *testing.T, what string, g *mcdata.GameData, w *Window, want slots) {
	t.Helper()
	for i := -1; i < w.Size(); i++ {
		got := w.Slot(i)
		if i == -1 {
			got = w.Cursor()
		}
		if exp := want.stack(t, g, i); !menu.EqualStacks(got, exp) {
			t.Errorf("%s: slot %d holds %s, want %s", what, i, show(got), show(exp))
		}
	}
}

// TestClickRules: one click of each mode, as the game's doClick plays it.
func TestClickRules(t *testing.T) {
	_, g := newest(t)
	hb := menu.SlotHotbarFirst
	cases := []struct {
		name               string
		window             string
		before             slots
		slot, button, mode int
		after              slots
		dropped            string
		crafted, consumed  int
		refused            bool
	}{
		{name: "left click picks up a stack", before: slots{hb: "oak_planks*10"}, slot: hb, mode: 0,
			after: slots{-1: "oak_planks*10"}},
		{name: "right click picks up the bigger half", before: slots{hb: "oak_planks*7"}, slot: hb, button: 1, mode: 0,
			after: slots{-1: "oak_planks*4", hb: "oak_planks*3"}},
		{name: "right click puts one down", before: slots{-1: "oak_planks*7"}, slot: 9, button: 1, mode: 0,
			after: slots{-1: "oak_planks*6", 9: "oak_planks"}},
		{name: "left click merges up to the stack size", before: slots{-1: "ender_pearl*10", 9: "ender_pearl*10"}, slot: 9, mode: 0,
			after: slots{-1: "ender_pearl*4", 9: "ender_pearl*16"}},
		{name: "left click swaps different items", before: slots{-1: "dirt*3", 9: "stone*5"}, slot: 9, mode: 0,
			after: slots{-1: "stone*5", 9: "dirt*3"}},
		{name: "a click outside drops the cursor", before: slots{-1: "dirt*3"}, slot: menu.SlotOutside, mode: 0,
			after: slots{}, dropped: "dirt*3"},
		{name: "a right click outside drops one", before: slots{-1: "dirt*3"}, slot: menu.SlotOutside, button: 1, mode: 0,
			after: slots{-1: "dirt*2"}, dropped: "dirt*1"},
		{name: "armour goes only where it is worn", before: slots{-1: "dirt"}, slot: menu.SlotHead, mode: 0,
			after: slots{-1: "dirt"}},
		{name: "a helmet goes on the head", before: slots{-1: "iron_helmet"}, slot: menu.SlotHead, mode: 0,
			after: slots{menu.SlotHead: "iron_helmet"}},
		{name: "shift-click moves the hotbar to the main inventory", before: slots{hb: "dirt*64", 20: "dirt*60"}, slot: hb, mode: 1,
			after: slots{20: "dirt*64", 9: "dirt*60"}},
		{name: "shift-click moves the main inventory to the hotbar", before: slots{9: "dirt*5"}, slot: 9, mode: 1,
			after: slots{hb: "dirt*5"}},
		{name: "shift-click puts on armour", before: slots{hb: "iron_boots"}, slot: hb, mode: 1,
			after: slots{menu.SlotFeet: "iron_boots"}},
		{name: "shift-click moves a shield to the off-hand", before: slots{hb: "shield"}, slot: hb, mode: 1,
			after: slots{menu.SlotOffhand: "shield"}},
		{name: "a number key swaps with the hotbar", before: slots{9: "dirt*5", hb + 3: "stone"}, slot: 9, button: 3, mode: 2,
			after: slots{9: "stone", hb + 3: "dirt*5"}},
		{name: "button 40 swaps with the off-hand", before: slots{9: "torch*5"}, slot: 9, button: 40, mode: 2,
			after: slots{menu.SlotOffhand: "torch*5"}},
		{name: "a middle click is refused in survival", before: slots{9: "torch*5"}, slot: 9, button: 2, mode: 3,
			after: slots{9: "torch*5"}, refused: true},
		{name: "Q throws one", before: slots{9: "torch*5"}, slot: 9, mode: 4,
			after: slots{9: "torch*4"}, dropped: "torch*1"},
		{name: "ctrl+Q throws the stack", before: slots{9: "torch*5"}, slot: 9, button: 1, mode: 4,
			after: slots{}, dropped: "torch*5"},
		{name: "Q with a cursor does nothing", before: slots{-1: "dirt", 9: "torch*5"}, slot: 9, mode: 4,
			after: slots{-1: "dirt", 9: "torch*5"}},
		{name: "a double click gathers the item, partial stacks first", before: slots{-1: "dirt*1", 9: "dirt*64", 12: "dirt*30", hb: "dirt*20"}, slot: 10, mode: 6,
			after: slots{-1: "dirt*64", 9: "dirt*51"}},
		{name: "taking the 2x2 result uses one of each ingredient", before: slots{1: "oak_log*3"}, slot: 0, mode: 0,
			after: slots{-1: "oak_planks*4", 1: "oak_log*2", 0: "oak_planks*4"}, crafted: 4, consumed: 1},
		{name: "a right click takes the whole result", before: slots{1: "oak_log*3"}, slot: 0, button: 1, mode: 0,
			after: slots{-1: "oak_planks*4", 1: "oak_log*2", 0: "oak_planks*4"}, crafted: 4, consumed: 1},
		{name: "the result stacks onto the cursor", before: slots{-1: "oak_planks*4", 1: "oak_log*3"}, slot: 0, mode: 0,
			after: slots{-1: "oak_planks*8", 1: "oak_log*2", 0: "oak_planks*4"}, crafted: 4, consumed: 1},
		{name: "the result never lands on another cursor item", before: slots{-1: "dirt", 1: "oak_log*3"}, slot: 0, mode: 0,
			after: slots{-1: "dirt", 1: "oak_log*3", 0: "oak_planks*4"}},
		{name: "shift-click on the result crafts as many as there are", before: slots{1: "oak_log*3"}, slot: 0, mode: 1,
			after: slots{44: "oak_planks*12"}, crafted: 12, consumed: 3},
		{name: "a crafting table crafts a pickaxe as often as the grid allows", window: MenuCrafting,
			before: slots{1: "oak_planks*2", 2: "oak_planks*2", 3: "oak_planks*2", 5: "stick*2", 8: "stick*2"}, slot: 0, mode: 1,
			after: slots{45: "wooden_pickaxe", 44: "wooden_pickaxe"}, crafted: 2, consumed: 10},
		{name: "shift-click into a crafting table fills the grid", window: MenuCrafting, before: slots{10: "oak_log*5"}, slot: 10, mode: 1,
			after: slots{1: "oak_log*5", 0: "oak_planks*4"}},
		{name: "shift-click out of a chest fills the hotbar from the right", window: MenuChest, before: slots{0: "dirt*5"}, slot: 0, mode: 1,
			after: slots{62: "dirt*5"}},
		{name: "shift-click into a chest", window: MenuChest, before: slots{30: "dirt*5", 2: "dirt*60"}, slot: 30, mode: 1,
			after: slots{2: "dirt*64", 0: "dirt*1"}},
		{name: "shift-click sends ore to the furnace's input", window: MenuFurnace, before: slots{10: "raw_iron*5"}, slot: 10, mode: 1,
			after: slots{0: "raw_iron*5"}},
		{name: "shift-click sends coal to the furnace's fuel", window: MenuFurnace, before: slots{10: "coal*5", 0: "raw_iron"}, slot: 10, mode: 1,
			after: slots{1: "coal*5", 0: "raw_iron"}},
		{name: "the furnace's fuel slot refuses dirt", window: MenuFurnace, before: slots{-1: "dirt"}, slot: 1, mode: 0,
			after: slots{-1: "dirt"}},
		{name: "the furnace's output takes nothing", window: MenuFurnace, before: slots{-1: "iron_ingot", 2: "iron_ingot*3"}, slot: 2, mode: 0,
			after: slots{-1: "iron_ingot*4"}},
		{name: "a right click takes half of the furnace's output", window: MenuFurnace, before: slots{2: "iron_ingot*3"}, slot: 2, button: 1, mode: 0,
			after: slots{-1: "iron_ingot*2", 2: "iron_ingot*1"}},
	}
	for _, tc := range cases {
		w, _ := setup(t, g, tc.window, tc.before)
		o := w.Click(codec.WindowClick{Window: w.ID, StateID: w.StateID, Slot: int16(tc.slot), Button: int8(tc.button), Mode: int32(tc.mode)}, nil)
		check(t, tc.name, g, w, tc.after)
		var dropped []string
		for _, d := range o.Dropped {
			dropped = append(dropped, show(d))
		}
		if got := strings.Join(dropped, ","); got != tc.dropped {
			t.Errorf("%s: dropped %q, want %q", tc.name, got, tc.dropped)
		}
		if o.Crafted != tc.crafted || o.Consumed != tc.consumed {
			t.Errorf("%s: crafted %d from %d ingredients, want %d from %d", tc.name, o.Crafted, o.Consumed, tc.crafted, tc.consumed)
		}
		if (o.Refused != "") != tc.refused {
			t.Errorf("%s: refused %q", tc.name, o.Refused)
		}
	}
}

// TestDrag: a left drag shares the cursor evenly, a right drag puts one
// in each slot; a drag over one slot is a click; another click ends a
// drag without doing anything.
func TestDrag(t *testing.T) {
	_, g := newest(t)
	drag := func(w *Window, typ int, over ...int) {
		click := func(slot, stage int) {
			w.Click(codec.WindowClick{Window: w.ID, StateID: w.StateID, Slot: int16(slot), Button: int8(typ<<2 | stage), Mode: codec.ClickQuickCraft}, nil)
		}
		click(menu.SlotOutside, 0)
		for _, s := range over {
			click(s, 1)
		}
		click(menu.SlotOutside, 2)
	}
	w, _ := setup(t, g, "", slots{-1: "dirt*10", 11: "dirt*62"})
	drag(w, 0, 9, 10, 11)
	check(t, "left drag over three", g, w, slots{-1: "dirt*2", 9: "dirt*3", 10: "dirt*3", 11: "dirt*64"})
	w, _ = setup(t, g, "", slots{-1: "dirt*10"})
	drag(w, 1, 9, 10, 9)
	check(t, "right drag over two", g, w, slots{-1: "dirt*8", 9: "dirt", 10: "dirt"})
	w, _ = setup(t, g, "", slots{-1: "dirt*10"})
	drag(w, 0, 9)
	check(t, "left drag over one", g, w, slots{9: "dirt*10"})
	w, _ = setup(t, g, "", slots{-1: "dirt*2"})
	drag(w, 0, 9, 10, 11)
	check(t, "a drag over more slots than items", g, w, slots{9: "dirt", 10: "dirt"})
	w, _ = setup(t, g, "", slots{-1: "dirt*10"})
	w.Click(codec.WindowClick{Slot: menu.SlotOutside, Button: 0, Mode: codec.ClickQuickCraft}, nil)
	w.Click(codec.WindowClick{Slot: 9, Button: 1, Mode: codec.ClickQuickCraft}, nil)
	w.Click(codec.WindowClick{Slot: 9, Mode: codec.ClickPickup}, nil)
	check(t, "a click inside a drag", g, w, slots{-1: "dirt*10"})
}

// TestClickAnswer: the server answers a click the client predicted right
// with nothing, a wrong claim with the truth of that slot, and a stale
// state id with the whole window.
func TestClickAnswer(t *testing.T) {
	_, g := newest(t)
	w, _ := setup(t, g, "", slots{9: "dirt*10"})
	w.StateID = 7
	right := codec.WindowClick{StateID: 7, Slot: 9, Mode: codec.ClickPickup, Changed: []codec.ChangedSlot{{Slot: 9}}, Carried: st(t, g, "dirt", 10)}
	if o := w.Click(right, nil); o.Resync || len(o.Send) != 0 || o.SendCursor || len(o.Changed) != 1 || !o.CursorChanged {
		t.Errorf("a right prediction: %+v", o)
	}
	wrong := codec.WindowClick{StateID: 7, Slot: 10, Button: 1, Mode: codec.ClickPickup, Changed: []codec.ChangedSlot{{Slot: 10, Item: st(t, g, "dirt", 5)}, {Slot: 12, Item: st(t, g, "stone", 1)}}, Carried: st(t, g, "dirt", 5)}
	if o := w.Click(wrong, nil); o.Resync || fmt.Sprint(o.Send) != "[10 12]" || !o.SendCursor {
		t.Errorf("a wrong prediction (the truth is one dirt in slot 10): %+v", o)
	}
	stale := codec.WindowClick{StateID: 3, Slot: 11, Mode: codec.ClickPickup}
	if o := w.Click(stale, nil); !o.Resync {
		t.Errorf("a stale state id: %+v", o)
	}
	if o := w.Click(codec.WindowClick{StateID: 7, Slot: 99}, nil); o.Refused == "" || !o.Resync {
		t.Errorf("a slot the window lacks: %+v", o)
	}
	if o := w.Click(codec.WindowClick{Window: 3, StateID: 7, Slot: 9}, nil); o.Refused == "" {
		t.Errorf("another window's click: %+v", o)
	}
	if got := w.NextState(); got != 8 {
		t.Errorf("NextState = %d, want 8", got)
	}
	w.StateID = 32767
	if got := w.NextState(); got != 0 {
		t.Errorf("the state id wraps at 15 bits as the game's does: %d", got)
	}
}

// refWindow is prismarine-windows' window after a click.
type refWindow struct {
	Slots []*struct {
		ID    int32 `json:"id"`
		Count int32 `json:"count"`
	} `json:"slots"`
	Cursor *struct {
		ID    int32 `json:"id"`
		Count int32 `json:"count"`
	} `json:"cursor"`
}

// TestClicksMatchPrismarineWindows plays a few hundred random clicks in a
// chest window with the rules and with prismarine-windows' acceptClick
// (the server-side click model flying-squid uses) and compares the window
// after each. Only the clicks both model the game's way are drawn: left
// and right clicks on slots and outside, Q and ctrl+Q, and number keys with
// an empty cursor (prismarine-windows' shift-click fills ranges its own
// way; drags and double clicks it does not implement).
func TestClicksMatchPrismarineWindows(t *testing.T) {
	r, g := newest(t)
	rng := rand.New(rand.NewPCG(25, 3))
	items := []string{"oak_planks", "ender_pearl", "iron_sword", "dirt"}
	before := slots{}
	type refSlot struct {
		ID    int32 `json:"id"`
		Count int32 `json:"count"`
	}
	in := struct {
		Slots  []*refSlot `json:"slots"`
		Clicks []struct {
			Mode        int `json:"mode"`
			Slot        int `json:"slot"`
			MouseButton int `json:"mouseButton"`
		} `json:"clicks"`
	}{Slots: make([]*refSlot, 63)}
	for i := range 63 {
		if rng.IntN(3) == 0 {
			name := items[rng.IntN(len(items))]
			n := 1 + rng.IntN(int(g.ItemByName(name).StackSize))
			before[i] = fmt.Sprintf("%s*%d", name, n)
			in.Slots[i] = &refSlot{ID: int32(g.ItemByName(name).ID), Count: int32(n)}
		}
	}
	w, _ := setup(t, g, MenuChest, before)
	var ours []refWindow
	record := func() {
		var rw refWindow
		rw.Slots = make([]*struct {
			ID    int32 `json:"id"`
			Count int32 `json:"count"`
		}, 63)
		for i := range 63 {
			if s := w.Slot(i); !s.Empty() {
				rw.Slots[i] = &struct {
					ID    int32 `json:"id"`
					Count int32 `json:"count"`
				}{s.ID, s.Count}
			}
		}
		if c := w.Cursor(); !c.Empty() {
			rw.Cursor = &struct {
				ID    int32 `json:"id"`
				Count int32 `json:"count"`
			}{c.ID, c.Count}
		}
		ours = append(ours, rw)
	}
	for range 300 {
		var mode, slot, button int
		switch k := rng.IntN(10); {
		case k < 6:
			mode, slot, button = codec.ClickPickup, rng.IntN(63), rng.IntN(2)
			if rng.IntN(20) == 0 && !w.Cursor().Empty() { // prismarine-windows fails on an empty one
				slot = menu.SlotOutside
			}
		case k < 8:
			mode, slot, button = codec.ClickThrow, rng.IntN(63), rng.IntN(2)
		default:
			if !w.Cursor().Empty() {
				mode, slot, button = codec.ClickPickup, rng.IntN(63), 0
			} else {
				mode, slot, button = codec.ClickSwap, rng.IntN(63), rng.IntN(9)
			}
		}
		in.Clicks = append(in.Clicks, struct {
			Mode        int `json:"mode"`
			Slot        int `json:"slot"`
			MouseButton int `json:"mouseButton"`
		}{mode, slot, button})
		w.Click(codec.WindowClick{Window: w.ID, StateID: w.StateID, Slot: int16(slot), Button: int8(button), Mode: int32(mode)}, nil)
		record()
	}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	theirs := runNode[refWindow](t, "clicks", r.Names[len(r.Names)-1], string(raw))
	if len(theirs) != len(ours) {
		t.Fatalf("prismarine-windows played %d clicks of %d", len(theirs), len(ours))
	}
	for i := range ours {
		a, _ := json.Marshal(ours[i])
		b, _ := json.Marshal(theirs[i])
		if string(a) != string(b) {
			t.Fatalf("after click %d (%+v) the windows differ:\nrules:              %s\nprismarine-windows: %s", i, in.Clicks[i], a, b)
		}
	}
}

// realItems counts the items a window's player holds and its container
// keeps, the cursor included, but not a crafting result (which is shown,
// not held).
func realItems(w *Window) int {
	n := int(max(w.inv.Cursor.Count, 0))
	for i, s := range w.inv.Slots {
		if i != menu.SlotCraftResult {
			n += int(max(s.Count, 0))
		}
	}
	for i, s := range w.own {
		if w.kind(i) != slotCraftResult {
			n += int(max(s.Count, 0))
		}
	}
	return n
}

// FuzzClicks: any sequence of clicks in any of the windows never panics,
// never overfills a slot, and keeps the items: what is held after, plus
// what was dropped, is what was held before plus what crafting made minus
// what it used up.
func FuzzClicks(f *testing.F) {
	f.Add([]byte{0, 9, 0, 0, 1, 0, 1, 0, 36, 1, 0, 5, 0, 0, 0})
	f.Add([]byte{1, 1, 0, 0, 0, 1, 0, 0, 0, 5, 200, 0, 5, 201, 5, 200, 2, 5})
	f.Add([]byte{2, 0, 1, 1, 30, 4, 2, 3, 6, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		_, g := newest(t)
		if len(data) == 0 {
			return
		}
		kinds := []string{"", MenuCrafting, MenuChest, MenuFurnace}
		names := []string{"oak_log", "oak_planks", "stick", "coal", "raw_iron", "iron_helmet", "ender_pearl", "shield", "cobblestone"}
		kind := kinds[int(data[0])%len(kinds)]
		w, _ := setup(t, g, kind, slots{})
		rng := rand.New(rand.NewPCG(uint64(len(data)), uint64(data[0])))
		for i := range w.Size() {
			if rng.IntN(3) == 0 && w.kind(i) != slotCraftResult {
				s := st(t, g, names[rng.IntN(len(names))], 1)
				s.Count = 1 + rng.Int32N(menu.MaxStack(g, s))
				if w.mayPlace(i, s) {
					w.Set(i, menu.WithCount(s, min(s.Count, w.slotMax(i, s))))
				}
			}
		}
		w.updateResult()
		held := realItems(w)
		for p := data[1:]; len(p) >= 3; p = p[3:] {
			slot := int(p[0]) - 1
			if p[0] == 255 {
				slot = menu.SlotOutside
			}
			o := w.Click(codec.WindowClick{Window: w.ID, StateID: w.StateID, Slot: int16(slot), Button: int8(p[1] % 48), Mode: int32(p[2] % 8)}, nil)
			for _, d := range o.Dropped {
				held -= int(d.Count)
			}
			held += o.Crafted - o.Consumed
			if got := realItems(w); got != held {
				t.Fatalf("after clicking slot %d (button %d, mode %d) the window holds %d items, want %d", slot, p[1]%48, p[2]%8, got, held)
			}
			for i := range w.Size() {
				if s := w.Slot(i); !s.Empty() && s.Count > w.slotMax(i, s) {
					t.Fatalf("slot %d holds %s, more than it takes", i, show(s))
				}
			}
		}
		for _, d := range w.Close() {
			held -= int(d.Count)
		}
		if got := realItems(w); got != held {
			t.Fatalf("closing the window left %d items, want %d", got, held)
		}
	})
}
