// Package rules is the practice server's game rules as pure functions and
// plain state: the inventory windows and their clicks, crafting, the
// furnace, hunger and health, break times, drops, item entities, doors,
// beds and block placement. Nothing here talks to the network or starts a
// goroutine; the server (package practice) holds the state, calls these
// rules on its tick and on each packet, and sends what they say changed.
//
// Every fact comes from the generated tables (bot/mcdata) or from the
// packages the bot reads the same facts from (bot/menu's window layouts,
// bot/dig's break times), so the server and the bot cannot disagree.
package rules

import (
	"fmt"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/menu"
)

// Inventory is one player's own slots, in window 0's numbering
// (menu.SlotCraftResult … menu.SlotOffhand), and the stack on the cursor.
// The 2×2 crafting grid is part of it, as in the game's InventoryMenu.
type Inventory struct {
	Slots  [menu.PlayerSlots]item.Stack
	Cursor item.Stack
	// Selected is the hotbar position (0–8) the player holds.
	Selected int
}

// Held is the stack in the selected hotbar slot.
func (inv *Inventory) Held() item.Stack {
	return inv.Slots[menu.SlotHotbarFirst+min(max(inv.Selected, 0), 8)]
}

// Add puts a stack into the inventory as picking up an item does (the
// game's Inventory.add): first onto stacks of the same item in the
// selected slot, the off-hand, the hotbar and the main inventory, then into
// the first empty hotbar or main slot. It returns what did not fit.
func (inv *Inventory) Add(g *mcdata.GameData, s item.Stack) item.Stack {
	if s.Empty() {
		return item.Stack{}
	}
	order := make([]int, 0, 38)
	sel := menu.SlotHotbarFirst + min(max(inv.Selected, 0), 8)
	order = append(order, sel, menu.SlotOffhand)
	for i := menu.SlotHotbarFirst; i < menu.SlotOffhand; i++ {
		if i != sel {
			order = append(order, i)
		}
	}
	for i := menu.SlotMainFirst; i < menu.SlotHotbarFirst; i++ {
		order = append(order, i)
	}
	limit := menu.MaxStack(g, s)
	for _, i := range order {
		d := inv.Slots[i]
		if !menu.SameItem(d, s) || d.Count >= limit {
			continue
		}
		n := min(limit-d.Count, s.Count)
		inv.Slots[i] = menu.WithCount(d, d.Count+n)
		s = menu.WithCount(s, s.Count-n)
		if s.Empty() {
			return item.Stack{}
		}
	}
	for _, i := range freeOrder {
		if inv.Slots[i].Empty() {
			n := min(limit, s.Count)
			inv.Slots[i] = menu.WithCount(s, n)
			s = menu.WithCount(s, s.Count-n)
			if s.Empty() {
				return item.Stack{}
			}
		}
	}
	return s
}

// freeOrder is where Inventory.getFreeSlot looks for an empty slot: the
// hotbar from the left, then the main inventory.
var freeOrder = func() []int {
	var out []int
	for i := menu.SlotHotbarFirst; i < menu.SlotOffhand; i++ {
		out = append(out, i)
	}
	for i := menu.SlotMainFirst; i < menu.SlotHotbarFirst; i++ {
		out = append(out, i)
	}
	return out
}()

// slotKind is what a slot accepts and gives, the game's Slot subclasses.
type slotKind uint8

const (
	slotPlain slotKind = iota
	// slotCraftResult is a crafting grid's result (ResultSlot): made, not
	// stored; taking it takes the whole stack and uses up the grid.
	slotCraftResult
	// slotOutput is a furnace's output (FurnaceResultSlot): real items
	// nothing can be placed on, taken only whole or by half.
	slotOutput
	// slotFuel is a furnace's fuel slot (FurnaceFuelSlot).
	slotFuel
	// slotArmour is one armour slot of window 0 (ArmorSlot).
	slotArmour
)

// Window is one open window: the player's inventory (ID 0) or a container
// shown with the player's main inventory and hotbar after its own slots.
// It holds the state id the game's container menus keep, and the drag in
// progress. Its slots are pointers into the Inventory and the container's
// own slice, so a click changes them where the server keeps them.
type Window struct {
	ID int32
	// Menu is the container's layout; for window 0 it is the zero Menu
	// with Slots 0.
	Menu menu.Menu
	// StateID is the window's state id, which every window_items and
	// set_slot carries and every click echoes (the game's
	// AbstractContainerMenu.stateId, 15 bits).
	StateID int32
	// Creative lets a middle click copy a stack (mode 3) and a drag clone.
	Creative bool

	g   *mcdata.GameData
	inv *Inventory
	own []item.Stack

	// drag is the drag in progress (mode 5): its stage (0 none, 1 adding
	// slots), its type and the slots collected so far.
	dragStage int
	dragType  int
	dragSlots []int
}

// PlayerWindow is window 0 over a player's inventory.
func PlayerWindow(g *mcdata.GameData, inv *Inventory) *Window {
	return &Window{ID: 0, Menu: menu.Menu{Result: menu.SlotCraftResult}, g: g, inv: inv}
}

// Menus the practice server opens, by the game's registry names.
const (
	MenuChest    = "generic_9x3"
	MenuCrafting = "crafting"
	MenuFurnace  = "furnace"
)

// OpenWindow is a container window with id (1–100; the game counts them
// round) showing the container's own slots, whose length must be the
// menu's, followed by the player's main inventory and hotbar. A crafting
// table's own slots (result and 3×3 grid) belong to the window alone: pass
// a fresh slice and give the grid back with Close.
func OpenWindow(g *mcdata.GameData, id int32, menuName string, inv *Inventory, own []item.Stack) (*Window, error) {
	m, ok := menu.ByName(menuName)
	if !ok {
		return nil, fmt.Errorf("rules: there is no menu %q; open one of the game's menus (generic_9x3, crafting, furnace)", menuName)
	}
	if id <= 0 {
		return nil, fmt.Errorf("rules: window id %d is the player's inventory's or invalid; number containers from 1", id)
	}
	if len(own) != m.Slots {
		return nil, fmt.Errorf("rules: a %s window has %d slots of its own, not %d; pass a slice of that length", m.Name, m.Slots, len(own))
	}
	return &Window{ID: id, Menu: m, g: g, inv: inv, own: own}, nil
}

// Size is how many slots the window has.
func (w *Window) Size() int {
	if w.ID == 0 {
		return menu.PlayerSlots
	}
	return w.Menu.Size()
}

// ref is where slot i's stack is kept, nil for a slot the window lacks.
func (w *Window) ref(i int) *item.Stack {
	if i < 0 {
		return nil
	}
	if w.ID == 0 {
		if i < menu.PlayerSlots {
			return &w.inv.Slots[i]
		}
		return nil
	}
	if i < len(w.own) {
		return &w.own[i]
	}
	if p := w.Menu.PlayerPartOf(i); p >= 0 {
		return &w.inv.Slots[menu.WindowSlotOfInventory(p)]
	}
	return nil
}

// Slot is slot i's stack (empty for a slot the window lacks).
func (w *Window) Slot(i int) item.Stack {
	if r := w.ref(i); r != nil {
		return *r
	}
	return item.Stack{}
}

// Set puts a stack in slot i, as the server does on its own (a furnace's
// tick, a command); the caller sends it with NextState's id.
func (w *Window) Set(i int, s item.Stack) {
	if r := w.ref(i); r != nil {
		if s.Empty() {
			s = item.Stack{}
		}
		*r = s
	}
}

// Items is every slot's stack in window order, as window_items carries
// them.
func (w *Window) Items() []item.Stack {
	out := make([]item.Stack, w.Size())
	for i := range out {
		out[i] = w.Slot(i)
	}
	return out
}

// Cursor is the stack the player carries on the cursor.
func (w *Window) Cursor() item.Stack { return w.inv.Cursor }

// NextState advances the state id, as the game does each time it tells
// the client about a change, and returns it.
func (w *Window) NextState() int32 {
	w.StateID = (w.StateID + 1) & 32767
	return w.StateID
}

// Close ends the window as the game's removed() does: the cursor's stack
// and a crafting grid's items go back into the inventory; what does not
// fit is returned for the server to drop at the player's feet.
func (w *Window) Close() []item.Stack {
	var drop []item.Stack
	give := func(s item.Stack) {
		if left := w.inv.Add(w.g, s); !left.Empty() {
			drop = append(drop, left)
		}
	}
	give(w.inv.Cursor)
	w.inv.Cursor = item.Stack{}
	from, to := w.grid()
	if w.ID == 0 || w.Menu.Name == MenuCrafting {
		for i := from; i < to; i++ {
			give(w.Slot(i))
			w.Set(i, item.Stack{})
		}
		w.Set(w.Menu.Result, item.Stack{})
	}
	return drop
}

// kind is slot i's kind.
func (w *Window) kind(i int) slotKind {
	if w.ID == 0 {
		switch {
		case i == menu.SlotCraftResult:
			return slotCraftResult
		case i >= menu.SlotHead && i <= menu.SlotFeet:
			return slotArmour
		}
		return slotPlain
	}
	switch w.Menu.Name {
	case MenuCrafting:
		if i == 0 {
			return slotCraftResult
		}
	case MenuFurnace, "blast_furnace", "smoker":
		switch i {
		case 1:
			return slotFuel
		case 2:
			return slotOutput
		}
	}
	return slotPlain
}

// mayPlace is the slot's Slot.mayPlace.
func (w *Window) mayPlace(i int, s item.Stack) bool {
	switch w.kind(i) {
	case slotCraftResult, slotOutput:
		return false
	case slotArmour:
		e, ok := menu.WornOn(s)
		want, _ := menu.ArmourSlot(e)
		return ok && want == i
	case slotFuel:
		return w.g.FuelTicks(mcdata.ItemID(s.ID)) > 0 || s.Name == "bucket"
	}
	return true
}

// slotMax is Slot.getMaxStackSize(stack): the slot's limit and the item's.
func (w *Window) slotMax(i int, s item.Stack) int32 {
	switch w.kind(i) {
	case slotArmour:
		return 1
	case slotFuel:
		if s.Name == "bucket" {
			return 1
		}
	}
	return menu.MaxStack(w.g, s)
}

// allowModification is Slot.allowModification: a slot nothing can be put
// back into gives only all it has.
func (w *Window) allowModification(i int) bool {
	k := w.kind(i)
	return k != slotCraftResult && k != slotOutput
}

// grid is the window's crafting grid's slots [from, to), empty when it has
// none.
func (w *Window) grid() (from, to int) {
	switch {
	case w.ID == 0:
		return menu.SlotCraftFirst, menu.SlotHead
	case w.Menu.Name == MenuCrafting:
		return 1, 10
	}
	return 0, 0
}
