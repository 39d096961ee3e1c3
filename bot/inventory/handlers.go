package inventory

// The handlers: the server's window, slot, cursor and held-slot packets,
// run on the read loop.

import (
	"fmt"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/menu"
	"github.com/blockmate/blockmate/bot/wire"
)

// pickups collects the items that entered the inventory during one
// packet; it is emitted after the lock is released.
type pickups map[string]int32

func (p pickups) add(s item.Stack, sign int32) {
	if s.Empty() {
		return
	}
	p[stackName(s)] += sign * s.Count
}

// owned reports whether a place holds the player's own items for the
// pick-up count: the inventory, the cursor and the 2×2 grid; not a crafting
// result (made, not had) nor a container's slots.
func owned(l loc) bool {
	return l.kind == locInv || l.kind == locCursor || (l.kind == locCraft && l.index > 0)
}

// write sets a place from the server and records what it adds to the
// player's items.
func (inv *Inventory) write(st *state, l loc, s item.Stack, p pickups) {
	if l.kind == locNone {
		return
	}
	if owned(l) && p != nil {
		p.add(st.get(l), -1)
		p.add(s, 1)
	}
	if old := st.get(l); s.Empty() && !old.Empty() && inv.busy.Load() == 0 && l == st.locOf(0, SlotHotbarFirst+st.held) {
		st.heldLost, st.heldLostSeq = old.Name, st.heldLostSeq+1
	}
	st.set(l, s)
}

// collect starts a pick-up count for one packet, or nil when changes now
// are not pick-ups: what the server says before the bot has spawned and
// before it has sent the whole inventory once (vanilla sends it right after
// the login: the contents the bot joins with are not news; a server that
// never sends it, flying-squid, has the bot start empty, as the game's
// client starts), and what changes while the bot's own action runs.
func (inv *Inventory) collect(st *state) pickups {
	if inv.busy.Load() > 0 {
		return nil
	}
	if !st.synced {
		select {
		case <-inv.s.Spawned():
		default:
			return nil
		}
	}
	return pickups{}
}

// emit publishes mc_item_picked_up for every item whose count went up.
func (inv *Inventory) emit(p pickups) {
	for name, n := range p {
		if n > 0 {
			inv.s.Emit("mc_item_picked_up", name, struct {
				Item  string `json:"item"`
				Count int32  `json:"count"`
			}{name, n})
		}
	}
}

// update wraps a handler's change: it runs under the lock, wakes the
// waiters and emits the pick-ups after.
func (inv *Inventory) update(change func(st *state, p pickups)) {
	inv.mu.Lock()
	p := inv.collect(&inv.st)
	change(&inv.st, p)
	for name, n := range p {
		if back := inv.st.returning[name]; n > 0 && back > 0 {
			used := min(n, back)
			p[name] -= used
			inv.st.returning[name] -= used
		}
	}
	inv.mu.Unlock()
	inv.changed.Broadcast()
	inv.emit(p)
}

func (inv *Inventory) windowItems(r *wire.Reader) error {
	w := inv.c.WindowItems(r)
	if r.Err() != nil {
		return nil
	}
	inv.update(func(st *state, p pickups) {
		switch {
		case w.Window == 0:
			if !st.synced {
				p = nil // the contents the bot joins with are not news
			}
			if len(w.Items) != PlayerSlots {
				inv.s.Log.Debug("window 0 contents with an unexpected slot count", "slots", len(w.Items))
			}
			for i := 0; i < min(len(w.Items), PlayerSlots); i++ {
				inv.write(st, st.locOf(0, i), w.Items[i], p)
			}
			st.synced, st.stateID = true, w.StateID
		case st.open != nil && st.open.id == w.Window:
			c := st.open
			if !c.loaded && c.menu.Slots < 0 {
				// A menu type this table lacks: the player's 36 slots
				// end the window.
				c.menu.Slots = min(max(len(w.Items)-36, 0), maxUnknownSlots)
				c.own, c.ownRev = make([]item.Stack, c.menu.Slots), make([]uint64, c.menu.Slots)
			}
			for i := 0; i < min(len(w.Items), c.menu.Size()); i++ {
				inv.write(st, st.locOf(w.Window, i), w.Items[i], p)
			}
			c.loaded, c.stateID = true, w.StateID
		default:
			return // a window that is not open: the game ignores it too
		}
		inv.write(st, loc{locCursor, 0}, w.Carried, p)
	})
	return nil
}

func (inv *Inventory) setSlot(r *wire.Reader) error {
	s := inv.c.SetSlot(r)
	if r.Err() != nil {
		return nil
	}
	inv.update(func(st *state, p pickups) {
		switch {
		case s.Window == codec.WindowCursor:
			inv.write(st, loc{locCursor, 0}, s.Item, p)
		case s.Window == codec.WindowInventory:
			if s.Slot >= 0 && int(s.Slot) < menu.InvSize {
				inv.write(st, loc{locInv, int(s.Slot)}, s.Item, p)
			}
		case st.open == nil && st.closed != nil && st.closed.id == s.Window:
			// An answer to a click in the window the bot just closed (a
			// shift-click's destination comes after its source): the
			// player's part of it is the inventory's; the rest is gone.
			// What it brings was the bot's already: no pick-up.
			if i := st.closed.menu.PlayerPartOf(int(s.Slot)); i >= 0 {
				inv.write(st, loc{locInv, i}, s.Item, nil)
			}
		case s.Window == 0 || (st.open != nil && st.open.id == s.Window):
			l := st.locOf(s.Window, int(s.Slot))
			if l.kind == locNone {
				inv.s.Log.Debug("set_slot for a slot the window does not have", "window", s.Window, "slot", s.Slot)
				return
			}
			inv.write(st, l, s.Item, p)
			if s.Window == 0 {
				st.stateID = s.StateID
			} else {
				st.open.stateID = s.StateID
			}
		default:
			inv.s.Log.Debug("set_slot for a window that is not open", "window", s.Window, "slot", s.Slot, "item", stackName(s.Item))
		}
	})
	return nil
}

func (inv *Inventory) setCursor(r *wire.Reader) error {
	s := inv.c.SetCursorItem(r)
	if r.Err() != nil {
		return nil
	}
	inv.update(func(st *state, p pickups) { inv.write(st, loc{locCursor, 0}, s, p) })
	return nil
}

func (inv *Inventory) setPlayerInventory(r *wire.Reader) error {
	s := inv.c.SetPlayerInventory(r)
	if r.Err() != nil {
		return nil
	}
	inv.update(func(st *state, p pickups) {
		if s.Slot >= 0 && s.Slot < menu.InvSize {
			inv.write(st, loc{locInv, int(s.Slot)}, s.Item, p)
		}
	})
	return nil
}

func (inv *Inventory) openWindow(r *wire.Reader) error {
	o := inv.c.OpenWindow(r)
	if r.Err() != nil {
		return nil
	}
	menu, ok := MenuByID(o.MenuType)
	if !ok {
		menu = Menu{ID: o.MenuType, Name: fmt.Sprintf("menu_%d", o.MenuType), Slots: -1, Result: -1}
	}
	inv.update(func(st *state, _ pickups) {
		st.opened++
		c := &container{id: o.Window, menu: menu, title: o.Title, seq: st.opened, props: map[int16]int16{}}
		if menu.Slots >= 0 {
			c.own, c.ownRev = make([]item.Stack, menu.Slots), make([]uint64, menu.Slots)
		}
		c.trail, c.trailRv = make([]item.Stack, menu.Trailing), make([]uint64, menu.Trailing)
		// Opening a screen closes the one before, as in the game.
		st.open, st.closed = c, nil
	})
	return nil
}

func (inv *Inventory) closeWindow(r *wire.Reader) error {
	inv.c.CloseWindow(r)
	if r.Err() != nil {
		return nil
	}
	// The game's client closes whatever is open, whatever the id.
	inv.update(func(st *state, _ pickups) { inv.closeLocked(st) })
	return nil
}

// closeLocked forgets the open container. The server puts the cursor's
// stack back in the inventory (or drops it) and says so in its own
// packets; the bot's cursor is empty from now on, as the game's client's.
func (inv *Inventory) closeLocked(st *state) {
	c := st.open
	if c == nil {
		return
	}
	back := []item.Stack{st.cursor}
	if transientMenus[c.menu.Name] {
		for i, s := range c.own {
			if i != c.menu.Result {
				back = append(back, s)
			}
		}
	}
	for _, s := range back {
		if !s.Empty() {
			if st.returning == nil {
				st.returning = map[string]int32{}
			}
			st.returning[stackName(s)] += s.Count
		}
	}
	st.open, st.closed = nil, c
	st.set(loc{locCursor, 0}, item.Stack{})
}

// transientMenus are the menus whose slots empty into the player's
// inventory when they close (their container lives only while open: the
// game's clearContainer in removed()); a chest or a furnace keeps its
// items.
var transientMenus = map[string]bool{
	"crafting": true, "anvil": true, "enchantment": true, "grindstone": true, "loom": true, "smithing": true,
	"cartography_table": true, "stonecutter": true, "beacon": true, "merchant": true,
}

func (inv *Inventory) windowProperty(r *wire.Reader) error {
	wp := inv.c.WindowProperty(r)
	if r.Err() != nil {
		return nil
	}
	inv.update(func(st *state, _ pickups) {
		if c := st.open; c != nil && c.id == wp.Window && len(c.props) < 256 {
			c.props[wp.Property] = wp.Value
		}
	})
	return nil
}

func (inv *Inventory) heldSlot(r *wire.Reader) error {
	slot := inv.c.HeldSlot(r)
	if r.Err() != nil || slot < 0 || slot > 8 {
		return nil
	}
	inv.update(func(st *state, _ pickups) { st.held = int(slot) })
	return nil
}

// login starts the play state over (after a reconfiguration too): the
// server sends the inventory again.
func (inv *Inventory) login(*wire.Reader) error {
	inv.update(func(st *state, _ pickups) {
		opened := st.opened
		*st = state{opened: opened, invRev: st.invRev, craftRev: st.craftRev, cursorRev: st.cursorRev + 1}
	})
	return nil
}

// respawn closes any container; the server sends the inventory again.
func (inv *Inventory) respawn(*wire.Reader) error {
	inv.update(func(st *state, _ pickups) { inv.closeLocked(st) })
	return nil
}
