package inventory

// The model: the inventory's places (the player's slots, a container's,
// the cursor) as the server has them, and what changed at each.

import (
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/menu"
)

func (st *state) get(l loc) item.Stack {
	switch l.kind {
	case locInv:
		return st.inv[l.index]
	case locCraft:
		return st.craft[l.index]
	case locCursor:
		return st.cursor
	case locOwn:
		return st.open.own[l.index]
	case locTrailing:
		return st.open.trail[l.index]
	}
	return item.Stack{}
}

func (st *state) set(l loc, s item.Stack) {
	if s.Empty() {
		s = item.Stack{}
	}
	switch l.kind {
	case locInv:
		st.inv[l.index] = s
		st.invRev[l.index]++
	case locCraft:
		st.craft[l.index] = s
		st.craftRev[l.index]++
	case locCursor:
		st.cursor = s
		st.cursorRev++
	case locOwn:
		st.open.own[l.index] = s
		st.open.ownRev[l.index]++
	case locTrailing:
		st.open.trail[l.index] = s
		st.open.trailRv[l.index]++
	}
}

func (st *state) rev(l loc) uint64 {
	switch l.kind {
	case locInv:
		return st.invRev[l.index]
	case locCraft:
		return st.craftRev[l.index]
	case locCursor:
		return st.cursorRev
	case locOwn:
		return st.open.ownRev[l.index]
	case locTrailing:
		return st.open.trailRv[l.index]
	}
	return 0
}

// locOf maps a slot of window 0 or of the open container to where its
// stack is kept.
func (st *state) locOf(window int32, slot int) loc {
	if window == 0 {
		switch {
		case slot >= SlotCraftResult && slot < SlotHead:
			return loc{locCraft, slot}
		case slot >= SlotHead && slot < PlayerSlots:
			return loc{locInv, menu.InventoryOfWindowSlot(slot)}
		}
		return loc{}
	}
	c := st.open
	if c == nil || c.id != window || slot < 0 {
		return loc{}
	}
	if slot < len(c.own) {
		return loc{locOwn, slot}
	}
	if i := c.menu.PlayerPartOf(slot); i >= 0 {
		return loc{locInv, i}
	}
	if t := slot - len(c.own) - 36; !c.menu.NoPlayer && t >= 0 && t < len(c.trail) {
		return loc{locTrailing, t}
	}
	return loc{}
}

// windowSize is how many slots a window has, 0 for a window that is not
// open.
func (st *state) windowSize(window int32) int {
	if window == 0 {
		return PlayerSlots
	}
	if c := st.open; c != nil && c.id == window {
		return c.menu.Size()
	}
	return 0
}

// windowSlots lists a window's stacks in its own numbering.
func (st *state) windowSlots(window int32) []item.Stack {
	n := st.windowSize(window)
	out := make([]item.Stack, n)
	for i := range out {
		out[i] = st.get(st.locOf(window, i))
	}
	return out
}
