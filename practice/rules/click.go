package rules

import (
	"fmt"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/menu"
)

// The click rules are the game's AbstractContainerMenu.doClick (1.21 to
// 26.x), the menus' quickMoveStack and the Slot rules they call, read in
// the decompiled sources; the comments name the method each part follows.

// Outcome is what one click did and what the server must send back.
type Outcome struct {
	// Refused is set when the click was not performed, in words for the
	// player (a chat line): a creative-only click in survival, a window
	// that is not open, a slot the window lacks.
	Refused string
	// Changed are the slots the click changed, ascending; CursorChanged
	// says the cursor's stack changed.
	Changed       []int
	CursorChanged bool
	// Dropped are the stacks thrown out of the window (a click outside
	// it, Q on a slot): the server spawns them as item entities with the
	// thrown-item pick-up delay.
	Dropped []item.Stack
	// Crafted and Consumed count the items a taken crafting result made and
	// the ingredients it used up (what the click did not merely move).
	Crafted, Consumed int
	// The server sends what Resync and Send name with a new state id
	// (Window.NextState); a click the client predicted right sends nothing.
	//
	// Resync says the client's state id was stale: the server sends the
	// whole window (window_items) and the cursor, as
	// broadcastFullState does.
	Resync bool
	// Send are the slots whose truth the client's claim does not match, to
	// send with set_slot; SendCursor likewise for the cursor. They are the
	// game's broadcastChanges after setRemoteSlotUnsafe.
	Send       []int
	SendCursor bool
}

// SameStack says whether a stack the client claims is the server's; the
// practice server compares hashed stacks (1.21.5+) with its own hashing.
// nil compares whole stacks.
type SameStack func(claim, truth item.Stack) bool

// Click performs a window_click as the server does
// (ServerGamePacketListenerImpl.handleContainerClick): it checks the
// window and the slot, plays the click on the truth, and works out from
// the client's claim (its changed slots, its cursor, its state id) what
// to send back. Any claim the truth differs from is answered with the
// truth; a stale state id with the whole window.
func (w *Window) Click(c codec.WindowClick, same SameStack) Outcome {
	if same == nil {
		same = menu.EqualStacks
	}
	slot := int(c.Slot)
	if c.Window != w.ID {
		// The game ignores it: a click can cross a window's closing.
		return Outcome{Refused: fmt.Sprintf("That click was for window %d, but window %d is open; it was ignored.", c.Window, w.ID)}
	}
	if !(slot == -1 || slot == menu.SlotOutside || slot >= 0 && slot < w.Size()) {
		return Outcome{Refused: fmt.Sprintf("Window %d has no slot %d.", w.ID, slot), Resync: true}
	}
	before := w.Items()
	cursor := w.inv.Cursor
	var o Outcome
	w.doClick(slot, int(c.Button), int(c.Mode), &o)
	w.updateResult()
	after := w.Items()
	for i := range after {
		if !menu.EqualStacks(before[i], after[i]) {
			o.Changed = append(o.Changed, i)
		}
	}
	o.CursorChanged = !menu.EqualStacks(cursor, w.inv.Cursor)
	if c.StateID != w.StateID {
		o.Resync = true
		return o
	}
	claimed := map[int]item.Stack{}
	for _, ch := range c.Changed {
		claimed[int(ch.Slot)] = ch.Item
	}
	// Each slot the client claims, or the click changed, is sent unless
	// the client already believes the truth.
	for i := range after {
		claim, ok := claimed[i]
		changed := !menu.EqualStacks(before[i], after[i])
		if ok && !same(claim, after[i]) || !ok && changed {
			o.Send = append(o.Send, i)
		}
	}
	o.SendCursor = !same(c.Carried, w.inv.Cursor)
	return o
}

// doClick is AbstractContainerMenu.doClick.
func (w *Window) doClick(slot, button, mode int, o *Outcome) {
	if mode == codec.ClickQuickCraft {
		w.drag(slot, button, o)
		return
	}
	if w.dragStage != 0 {
		w.resetDrag() // any other click ends a drag and does nothing else
		return
	}
	switch {
	case (mode == codec.ClickPickup || mode == codec.ClickQuickMove) && (button == 0 || button == 1):
		if slot == menu.SlotOutside {
			if c := w.inv.Cursor; !c.Empty() {
				n := c.Count
				if button == 1 {
					n = 1
				}
				o.Dropped = append(o.Dropped, menu.WithCount(c, n))
				w.inv.Cursor = menu.WithCount(c, c.Count-n)
			}
			return
		}
		if slot < 0 {
			return
		}
		if mode == codec.ClickQuickMove {
			w.quickMove(slot, o)
			return
		}
		w.pickup(slot, button, o)
	case mode == codec.ClickSwap && (button >= 0 && button < 9 || button == 40):
		w.swap(slot, button, o)
	case mode == codec.ClickClone:
		if !w.Creative {
			o.Refused = "Middle-click copying works in creative mode only; this is a survival world."
			return
		}
		if s := w.Slot(slot); w.inv.Cursor.Empty() && !s.Empty() {
			w.inv.Cursor = menu.WithCount(s, menu.MaxStack(w.g, s))
		}
	case mode == codec.ClickThrow && w.inv.Cursor.Empty() && slot >= 0:
		s := w.Slot(slot)
		n := int32(1)
		if button != 0 {
			n = s.Count
		}
		taken := w.safeTake(slot, n, 1<<30, o)
		if !taken.Empty() {
			o.Dropped = append(o.Dropped, taken)
		}
		// Ctrl+Q on a result keeps crafting and throwing while the grid
		// makes the same item (1.21's throw loop).
		for range 64 {
			if button != 1 || taken.Empty() || w.Slot(slot).ID != taken.ID || w.Slot(slot).Empty() {
				break
			}
			taken = w.safeTake(slot, n, 1<<30, o)
			if !taken.Empty() {
				o.Dropped = append(o.Dropped, taken)
			}
		}
	case mode == codec.ClickPickupAll && slot >= 0:
		w.pickupAll(slot, button, o)
	}
}

// pickup is doClick's PICKUP with a slot.
func (w *Window) pickup(slot, button int, o *Outcome) {
	s, c := w.Slot(slot), w.inv.Cursor
	switch {
	case s.Empty():
		if !c.Empty() {
			n := c.Count
			if button == 1 {
				n = 1
			}
			w.inv.Cursor = w.safeInsert(slot, c, n)
		}
	case c.Empty():
		n := s.Count
		if button == 1 {
			n = (s.Count + 1) / 2
		}
		if taken, ok := w.tryRemove(slot, n, 1<<30, o); ok {
			w.inv.Cursor = taken
		}
	case w.mayPlace(slot, c):
		if menu.SameItem(s, c) {
			n := c.Count
			if button == 1 {
				n = 1
			}
			w.inv.Cursor = w.safeInsert(slot, c, n)
		} else if c.Count <= w.slotMax(slot, c) {
			w.Set(slot, c)
			w.inv.Cursor = s
		}
	case menu.SameItem(s, c):
		if taken, ok := w.tryRemove(slot, s.Count, menu.MaxStack(w.g, c)-c.Count, o); ok {
			w.inv.Cursor = menu.WithCount(c, c.Count+taken.Count)
		}
	}
}

// safeInsert is Slot.safeInsert: up to n of s go into the slot, as far as
// it takes them; it returns what is left of s.
func (w *Window) safeInsert(slot int, s item.Stack, n int32) item.Stack {
	if s.Empty() || !w.mayPlace(slot, s) {
		return s
	}
	here := w.Slot(slot)
	put := min(n, s.Count, w.slotMax(slot, s)-max(here.Count, 0))
	if put <= 0 {
		return s
	}
	switch {
	case here.Empty():
		w.Set(slot, menu.WithCount(s, put))
	case menu.SameItem(here, s):
		w.Set(slot, menu.WithCount(here, here.Count+put))
	default:
		return s
	}
	return menu.WithCount(s, s.Count-put)
}

// tryRemove is Slot.tryRemove followed by the taken stack's onTake: up to
// n items, at most limit; a result or output slot gives only all it has
// (allowModification), and a crafting result gives its whole stack
// whatever n says (ResultContainer.removeItem) and uses up the grid.
func (w *Window) tryRemove(slot int, n, limit int32, o *Outcome) (item.Stack, bool) {
	s := w.Slot(slot)
	if s.Empty() {
		return item.Stack{}, false
	}
	if !w.allowModification(slot) && limit < s.Count {
		return item.Stack{}, false
	}
	n = min(n, limit)
	if w.kind(slot) == slotCraftResult {
		n = s.Count
	}
	if n <= 0 {
		return item.Stack{}, false
	}
	taken := menu.WithCount(s, n)
	w.Set(slot, menu.WithCount(s, s.Count-n))
	if w.kind(slot) == slotCraftResult {
		w.craftTaken(taken, o)
	}
	return taken, true
}

// safeTake is Slot.safeTake: tryRemove, or nothing.
func (w *Window) safeTake(slot int, n, limit int32, o *Outcome) item.Stack {
	s, _ := w.tryRemove(slot, n, limit, o)
	return s
}

// craftTaken is ResultSlot.onTake: the grid loses one of each ingredient
// and the result is made anew from what is left.
func (w *Window) craftTaken(taken item.Stack, o *Outcome) {
	from, to := w.grid()
	for i := from; i < to; i++ {
		if s := w.Slot(i); !s.Empty() {
			w.Set(i, menu.WithCount(s, s.Count-1))
			o.Consumed++
		}
	}
	o.Crafted += int(taken.Count)
	w.updateResult()
}

// updateResult is the crafting menus' slotChangedCraftingGrid: the
// result slot shows what the grid makes.
func (w *Window) updateResult() {
	from, to := w.grid()
	if to == 0 {
		return
	}
	grid := make([]item.Stack, to-from)
	for i := range grid {
		grid[i] = w.Slot(from + i)
	}
	width := 2
	if len(grid) == 9 {
		width = 3
	}
	w.Set(w.Menu.Result, CraftingFor(w.g).Match(grid, width))
}

// swap is doClick's SWAP: the slot and a hotbar slot (button 0–8) or the
// off-hand (40) trade stacks, as far as the slot allows.
func (w *Window) swap(slot, button int, o *Outcome) {
	if slot < 0 || slot >= w.Size() {
		return
	}
	other := menu.SlotOffhand
	if button != 40 {
		other = menu.SlotHotbarFirst + button
	}
	src := w.inv.Slots[other]
	here := w.Slot(slot)
	switch {
	case src.Empty() && here.Empty():
	case src.Empty():
		if taken, ok := w.tryRemove(slot, here.Count, 1<<30, o); ok {
			w.inv.Slots[other] = taken
		}
	case here.Empty():
		if w.mayPlace(slot, src) {
			n := w.slotMax(slot, src)
			if src.Count > n {
				w.Set(slot, menu.WithCount(src, n))
				w.inv.Slots[other] = menu.WithCount(src, src.Count-n)
			} else {
				w.inv.Slots[other] = item.Stack{}
				w.Set(slot, src)
			}
		}
	case w.allowModification(slot) && w.mayPlace(slot, src):
		n := w.slotMax(slot, src)
		if src.Count > n {
			// The slot takes what it can; the stack it held goes wherever
			// the inventory has room, or is dropped.
			w.Set(slot, menu.WithCount(src, n))
			w.inv.Slots[other] = menu.WithCount(src, src.Count-n)
			if left := w.inv.Add(w.g, here); !left.Empty() {
				o.Dropped = append(o.Dropped, left)
			}
		} else {
			w.inv.Slots[other] = here
			w.Set(slot, src)
		}
	}
}

// quickMove is doClick's QUICK_MOVE: the menu's quickMoveStack, again and
// again while it moves something and the slot still holds the same item
// (one pass fills at most one empty slot; a crafting result crafts again).
func (w *Window) quickMove(slot int, o *Outcome) {
	for range 128 {
		s := w.Slot(slot)
		if s.Empty() {
			return
		}
		moved := w.quickMoveOnce(slot, o)
		if moved.Empty() {
			return
		}
		if now := w.Slot(slot); now.Empty() || now.ID != moved.ID {
			return
		}
	}
}

// quickMoveOnce is one quickMoveStack; it returns the stack the slot held
// when something moved, else an empty stack.
func (w *Window) quickMoveOnce(slot int, o *Outcome) item.Stack {
	s := w.Slot(slot)
	own := len(w.own)
	end := own + 36
	if w.kind(slot) == slotCraftResult {
		return w.quickCraft(slot, o)
	}
	var moved bool
	var left item.Stack
	try := func(from, to int, reverse bool) bool {
		var ok bool
		left, ok = w.moveTo(left, from, to, reverse)
		moved = moved || ok
		return ok
	}
	left = s
	if w.ID == 0 {
		e, wearable := menu.WornOn(s)
		armour, _ := menu.ArmourSlot(e)
		switch {
		case slot < menu.SlotMainFirst:
			try(menu.SlotMainFirst, menu.SlotOffhand, false)
		case wearable && w.Slot(armour).Empty():
			try(armour, armour+1, false)
		case s.Name == "shield" && w.Slot(menu.SlotOffhand).Empty():
			try(menu.SlotOffhand, menu.SlotOffhand+1, false)
		case slot < menu.SlotHotbarFirst:
			try(menu.SlotHotbarFirst, menu.SlotOffhand, false)
		case slot < menu.SlotOffhand:
			try(menu.SlotMainFirst, menu.SlotHotbarFirst, false)
		default:
			try(menu.SlotMainFirst, menu.SlotOffhand, false)
		}
	} else {
		switch w.Menu.Name {
		case MenuCrafting:
			switch {
			case slot >= own && slot < end:
				if !try(1, 10, false) {
					if slot < own+27 {
						try(own+27, end, false)
					} else {
						try(own, own+27, false)
					}
				}
			default:
				try(own, end, false)
			}
		case MenuFurnace, "blast_furnace", "smoker":
			switch {
			case slot == 2:
				try(own, end, true)
			case slot != 0 && slot != 1:
				_, smelts := w.g.SmeltingOf(mcdata.ItemID(s.ID))
				switch {
				case smelts:
					try(0, 1, false)
				case w.g.FuelTicks(mcdata.ItemID(s.ID)) > 0:
					try(1, 2, false)
				case slot < own+27:
					try(own+27, end, false)
				default:
					try(own, own+27, false)
				}
			default:
				try(own, end, false)
			}
		default: // chests and the other plain containers (ChestMenu)
			if slot < own {
				try(own, end, true)
			} else {
				try(0, own, false)
			}
		}
	}
	if !moved {
		return item.Stack{}
	}
	w.Set(slot, left)
	return s
}

// quickCraft is quickMoveStack on a crafting result: it crafts once if the
// whole result fits into the player's slots (hotbar first, from the right,
// as moveItemStackTo(…, true) fills them). The game crafts when only part
// of it fits and loses the rest when the result is made anew; the practice
// world keeps every item instead.
func (w *Window) quickCraft(slot int, o *Outcome) item.Stack {
	s := w.Slot(slot)
	from, to := menu.SlotMainFirst, menu.SlotOffhand
	if w.ID != 0 {
		from, to = len(w.own), len(w.own)+36
	}
	// Try it on a copy of the player's slots first.
	saved := w.inv.Slots
	left, _ := w.moveTo(s, from, to, true)
	if !left.Empty() {
		w.inv.Slots = saved
		return item.Stack{}
	}
	w.Set(slot, item.Stack{})
	w.craftTaken(s, o)
	return s
}

// moveTo is moveItemStackTo: s merges into the stacks of the same item in
// [from, to), then the rest goes into the first empty slot that takes it,
// from the end when reverse. It returns what is left and whether anything
// moved.
func (w *Window) moveTo(s item.Stack, from, to int, reverse bool) (item.Stack, bool) {
	moved := false
	step, start := 1, from
	if reverse {
		step, start = -1, to-1
	}
	if menu.MaxStack(w.g, s) > 1 {
		for i := start; !s.Empty() && i >= from && i < to; i += step {
			d := w.Slot(i)
			if !menu.SameItem(d, s) {
				continue
			}
			limit := w.slotMax(i, d)
			switch total := d.Count + s.Count; {
			case total <= limit:
				w.Set(i, menu.WithCount(d, total))
				s = item.Stack{}
				moved = true
			case d.Count < limit:
				s = menu.WithCount(s, total-limit)
				w.Set(i, menu.WithCount(d, limit))
				moved = true
			}
		}
	}
	if !s.Empty() {
		for i := start; i >= from && i < to; i += step {
			if !w.Slot(i).Empty() || !w.mayPlace(i, s) {
				continue
			}
			n := min(s.Count, w.slotMax(i, s))
			w.Set(i, menu.WithCount(s, n))
			s = menu.WithCount(s, s.Count-n)
			moved = true
			break
		}
	}
	return s, moved
}

// pickupAll is doClick's PICKUP_ALL (a double click): with a stack on the
// cursor over an empty slot, it gathers the same item from the window's
// slots into the cursor, from the first slot (button 0) or the last
// (button 1), full stacks only in the second pass.
func (w *Window) pickupAll(slot, button int, o *Outcome) {
	c := w.inv.Cursor
	if c.Empty() || !w.Slot(slot).Empty() {
		return
	}
	limit := menu.MaxStack(w.g, c)
	start, step := 0, 1
	if button != 0 {
		start, step = w.Size()-1, -1
	}
	for pass := range 2 {
		for i := start; i >= 0 && i < w.Size() && w.inv.Cursor.Count < limit; i += step {
			s := w.Slot(i)
			if s.Empty() || !menu.SameItem(s, w.inv.Cursor) || w.kind(i) == slotCraftResult {
				continue
			}
			if pass == 0 && s.Count == limit {
				continue
			}
			if taken, ok := w.tryRemove(i, s.Count, limit-w.inv.Cursor.Count, o); ok {
				w.inv.Cursor = menu.WithCount(w.inv.Cursor, w.inv.Cursor.Count+taken.Count)
			}
		}
	}
}

// drag is doClick's QUICK_CRAFT: button's low two bits are the stage (0
// start, 1 add a slot, 2 end) and the next two the type (0 share evenly, 1
// one each, 2 full stacks in creative).
func (w *Window) drag(slot, button int, o *Outcome) {
	stage, typ := button&3, (button>>2)&3
	prev := w.dragStage
	w.dragStage = stage
	switch {
	case (prev != 1 || stage != 2) && prev != stage:
		w.resetDrag()
	case w.inv.Cursor.Empty():
		w.resetDrag()
	case stage == 0:
		if typ == 0 || typ == 1 || typ == 2 && w.Creative {
			w.dragType, w.dragStage, w.dragSlots = typ, 1, w.dragSlots[:0]
		} else {
			w.resetDrag()
		}
	case stage == 1:
		c := w.inv.Cursor
		if slot < 0 || slot >= w.Size() || w.kind(slot) == slotCraftResult {
			return
		}
		for _, s := range w.dragSlots {
			if s == slot {
				return
			}
		}
		if w.canQuickReplace(slot, c) && w.mayPlace(slot, c) && (w.dragType == 2 || int(c.Count) > len(w.dragSlots)) {
			w.dragSlots = append(w.dragSlots, slot)
		}
	case stage == 2:
		slots, typ := w.dragSlots, w.dragType
		w.resetDrag()
		if len(slots) == 0 {
			return
		}
		if len(slots) == 1 {
			if typ <= 1 {
				w.pickup(slots[0], typ, o) // a drag over one slot is a click on it
			}
			return
		}
		c := w.inv.Cursor
		left := c.Count
		for _, i := range slots {
			if !w.canQuickReplace(i, w.inv.Cursor) || !w.mayPlace(i, c) || typ != 2 && int(c.Count) < len(slots) {
				continue
			}
			had := w.Slot(i).Count
			limit := min(menu.MaxStack(w.g, c), w.slotMax(i, c))
			var each int32
			switch typ {
			case 0:
				each = c.Count / int32(len(slots))
			case 1:
				each = 1
			default:
				each = menu.MaxStack(w.g, c)
			}
			n := min(each+had, limit)
			if typ != 2 {
				left -= n - had
			}
			w.Set(i, menu.WithCount(c, n))
		}
		w.inv.Cursor = menu.WithCount(c, left)
	default:
		w.resetDrag()
	}
}

func (w *Window) resetDrag() {
	w.dragStage, w.dragType = 0, 0
	w.dragSlots = w.dragSlots[:0]
}

// canQuickReplace is AbstractContainerMenu.canItemQuickReplace with
// stackSizeMatters: an empty slot, or one of the same item with room.
func (w *Window) canQuickReplace(slot int, c item.Stack) bool {
	s := w.Slot(slot)
	if s.Empty() {
		return true
	}
	return menu.SameItem(s, c) && s.Count <= menu.MaxStack(w.g, c)
}
