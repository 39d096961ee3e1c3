package inventory

import (
	"fmt"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
)

const predictProto = 769

func named(name string, n int32) item.Stack {
	g := mcdata.Game(predictProto)
	it := g.ItemByName(name)
	if it == nil {
		panic("no item " + name)
	}
	return item.Stack{ID: int32(it.ID), Name: it.Name, Count: n}
}

// render lists a predictor's non-empty slots and cursor: "36:5 oak_log
// cursor:3 stick".
func render(p *predictor) string {
	var parts []string
	for i, s := range p.slots {
		if !s.Empty() {
			parts = append(parts, fmt.Sprintf("%d:%d %s", i, s.Count, s.Name))
		}
	}
	if !p.cursor.Empty() {
		parts = append(parts, fmt.Sprintf("cursor:%d %s", p.cursor.Count, p.cursor.Name))
	}
	if p.offhandChanged {
		parts = append(parts, fmt.Sprintf("offhand:%d %s", p.offhand.Count, p.offhand.Name))
	}
	return strings.Join(parts, " ")
}

func window0(slots map[int]item.Stack, cursor item.Stack) *predictor {
	p := &predictor{g: mcdata.Game(predictProto), slots: make([]item.Stack, PlayerSlots), cursor: cursor}
	for i, s := range slots {
		p.slots[i] = s
	}
	return p
}

// TestPredictClicks: the predictor plays clicks as the game's click code
// does (AbstractContainerMenu.doClick and the menus' quickMoveStack,
// 1.21.4); each case is worked out by hand from that code.
func TestPredictClicks(t *testing.T) {
	log := func(n int32) item.Stack { return named("oak_log", n) }
	helmet := named("iron_helmet", 1)
	cases := []struct {
		name   string
		p      *predictor
		click  Click
		expect string
	}{
		{"pick up all", window0(map[int]item.Stack{36: log(5)}, item.Stack{}), LeftClick(0, 36), "cursor:5 oak_log"},
		{"pick up half, rounding up", window0(map[int]item.Stack{36: log(5)}, item.Stack{}), RightClick(0, 36), "36:2 oak_log cursor:3 oak_log"},
		{"put one down", window0(nil, log(5)), RightClick(0, 10), "10:1 oak_log cursor:4 oak_log"},
		{"merge up to the stack size", window0(map[int]item.Stack{10: log(60)}, log(10)), LeftClick(0, 10), "10:64 oak_log cursor:6 oak_log"},
		{"swap different items", window0(map[int]item.Stack{10: named("stick", 2)}, log(3)), LeftClick(0, 10), "10:3 oak_log cursor:2 stick"},
		{"an armour slot refuses logs", window0(nil, log(3)), LeftClick(0, SlotHead), "cursor:3 oak_log"},
		{"an armour slot takes a helmet", window0(nil, helmet), LeftClick(0, SlotHead), "5:1 iron_helmet"},
		{"a helmet does not go on the feet", window0(nil, helmet), LeftClick(0, SlotFeet), "cursor:1 iron_helmet"},
		{"nothing goes into the result", window0(map[int]item.Stack{0: named("oak_planks", 4)}, named("stick", 1)), LeftClick(0, 0), "0:4 oak_planks cursor:1 stick"},
		{"a result joins the same item on the cursor", window0(map[int]item.Stack{0: named("oak_planks", 4)}, named("oak_planks", 60)), LeftClick(0, 0), "cursor:64 oak_planks"},
		{"a result that does not fit stays", window0(map[int]item.Stack{0: named("oak_planks", 4)}, named("oak_planks", 61)), LeftClick(0, 0), "0:4 oak_planks cursor:61 oak_planks"},
		{"a right click takes the whole result", window0(map[int]item.Stack{0: named("oak_planks", 4)}, item.Stack{}), RightClick(0, 0), "cursor:4 oak_planks"},
		{"drop the cursor", window0(nil, log(5)), DropCursor(0, true), ""},
		{"drop one of the cursor", window0(nil, log(5)), DropCursor(0, false), "cursor:4 oak_log"},
		{"throw one", window0(map[int]item.Stack{9: log(5)}, item.Stack{}), Throw(0, 9, false), "9:4 oak_log"},
		{"throw the stack", window0(map[int]item.Stack{9: log(5)}, item.Stack{}), Throw(0, 9, true), ""},
		{"no throw with a full cursor", window0(map[int]item.Stack{9: log(5)}, named("stick", 1)), Throw(0, 9, true), "9:5 oak_log cursor:1 stick"},
		{"number key: into an empty hotbar slot", window0(map[int]item.Stack{9: log(5)}, item.Stack{}), SwapHotbar(0, 9, 2), "38:5 oak_log"},
		{"number key: trade places", window0(map[int]item.Stack{9: log(5), 38: named("stick", 1)}, item.Stack{}), SwapHotbar(0, 9, 2), "9:1 stick 38:5 oak_log"},
		{"F over a slot: to the off-hand", window0(map[int]item.Stack{9: named("torch", 8)}, item.Stack{}), SwapOffhand(0, 9), "45:8 torch"},
		{"number key: logs cannot go on the head", window0(map[int]item.Stack{36: log(5)}, item.Stack{}), SwapHotbar(0, SlotHead, 0), "36:5 oak_log"},
		{"shift: main to hotbar, merging first", window0(map[int]item.Stack{9: log(10), 40: log(60)}, item.Stack{}), ShiftClick(0, 9), "36:6 oak_log 40:64 oak_log"},
		{"shift: hotbar to main", window0(map[int]item.Stack{36: log(10)}, item.Stack{}), ShiftClick(0, 36), "9:10 oak_log"},
		{"shift: armour to where it is worn", window0(map[int]item.Stack{12: helmet}, item.Stack{}), ShiftClick(0, 12), "5:1 iron_helmet"},
		{"shift: armour when the slot is taken", window0(map[int]item.Stack{12: helmet, 5: named("leather_helmet", 1)}, item.Stack{}), ShiftClick(0, 12), "5:1 leather_helmet 36:1 iron_helmet"},
		{"shift: the result goes to the end first, the grid is used", window0(map[int]item.Stack{0: named("oak_planks", 4), 1: log(2)}, item.Stack{}), ShiftClick(0, 0), "1:1 oak_log 44:4 oak_planks"},
	}
	for _, c := range cases {
		c.p.click(c.click.Slot, c.click.Button, c.click.Mode)
		if got := render(c.p); got != c.expect {
			t.Errorf("%s: %s, want %s", c.name, got, c.expect)
		}
	}
}

// fullBut fills every slot of window 0 from 9 to 44 with dirt except the
// named ones, and puts s in the first of them.
func fullBut(s item.Stack, first int, free ...int) map[int]item.Stack {
	m := map[int]item.Stack{}
	skip := map[int]bool{}
	for _, f := range free {
		skip[f] = true
	}
	for i := SlotMainFirst; i < SlotOffhand; i++ {
		if !skip[i] && i != first {
			m[i] = named("dirt", 64)
		}
	}
	m[first] = s
	return m
}

// TestPredictQuickMoveSpreads: a shift-click moves a big stack across as
// many slots as it needs, merging into partial stacks first.
func TestPredictQuickMoveSpreads(t *testing.T) {
	m := fullBut(named("oak_log", 64), 9, 36, 40)
	m[36] = named("oak_log", 60)
	delete(m, 40)
	p := window0(m, item.Stack{})
	p.click(9, 0, codec.ClickQuickMove)
	if !p.slots[9].Empty() || p.slots[36].Count != 64 || p.slots[40].Count != 60 {
		t.Errorf("9: %d, 36: %d, 40: %d", p.slots[9].Count, p.slots[36].Count, p.slots[40].Count)
	}
	// With nowhere to go, nothing moves.
	p = window0(fullBut(named("oak_log", 64), 9), item.Stack{})
	p.click(9, 0, codec.ClickQuickMove)
	if p.slots[9].Count != 64 {
		t.Errorf("a full inventory took the logs: %s", render(p))
	}
}

// TestPredictContainers: shift-clicks in a chest go to the player's slots
// from the end (the last hotbar slot first) and back into the chest from
// its start; a crafting table takes items into its grid first.
func TestPredictContainers(t *testing.T) {
	chest, _ := MenuByName("generic_9x3")
	p := &predictor{g: mcdata.Game(predictProto), window: 5, menu: chest, slots: make([]item.Stack, chest.Size())}
	p.slots[0] = named("cobblestone", 10)
	p.click(0, 0, codec.ClickQuickMove)
	if !p.slots[0].Empty() || p.slots[62].Count != 10 {
		t.Errorf("chest to player: %s", render(p))
	}
	p.click(62, 0, codec.ClickQuickMove)
	if p.slots[0].Count != 10 || !p.slots[62].Empty() {
		t.Errorf("player to chest: %s", render(p))
	}
	crafting, _ := MenuByName("crafting")
	p = &predictor{g: mcdata.Game(predictProto), window: 6, menu: crafting, slots: make([]item.Stack, crafting.Size())}
	p.slots[10] = named("oak_planks", 3)
	p.click(10, 0, codec.ClickQuickMove)
	if p.slots[1].Count != 3 || !p.slots[10].Empty() {
		t.Errorf("player to grid: %s", render(p))
	}
	// A number key in a container window swaps with the hotbar slot of
	// that window; button 40 touches the off-hand, which it does not show.
	p = &predictor{g: mcdata.Game(predictProto), window: 5, menu: chest, slots: make([]item.Stack, chest.Size())}
	p.slots[3] = named("torch", 4)
	p.click(3, 0, codec.ClickSwap)
	if p.slots[chest.Slots+27].Count != 4 || !p.slots[3].Empty() {
		t.Errorf("number key in a chest: %s", render(p))
	}
	p.click(chest.Slots+27, 40, codec.ClickSwap)
	if !p.offhandChanged || p.offhand.Count != 4 {
		t.Errorf("F in a chest: %s", render(p))
	}
}

// TestMenus: the menu table's sizes are the game's for the windows the
// bot uses.
func TestMenus(t *testing.T) {
	for name, size := range map[string]int{"generic_9x3": 63, "generic_9x6": 90, "crafting": 46, "furnace": 39, "lectern": 1, "crafter_3x3": 46, "smithing": 40} {
		if m, ok := MenuByName("minecraft:" + name); !ok || m.Size() != size {
			t.Errorf("%s: %+v size %d, want %d", name, m, m.Size(), size)
		}
	}
	if _, ok := MenuByID(25); ok {
		t.Error("menu 25 exists")
	}
}
