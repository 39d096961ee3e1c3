package fakeserver

import (
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// Item is a plain stack (no components) by item name; the zero Item is an
// empty slot.
type Item struct {
	Name  string
	Count int32
}

// ItemID is the item's id in the server's version.
func (f *Server) ItemID(name string) int32 {
	it := mcdata.Game(f.Proto).ItemByName(name)
	if it == nil {
		f.T.Fatalf("fake server: protocol %d has no item %s", f.Proto, name)
		return 0
	}
	return int32(it.ID)
}

// ItemName is the name of the item with that id.
func (f *Server) ItemName(id int32) string {
	if it := mcdata.Game(f.Proto).Item(mcdata.ItemID(id)); it != nil {
		return it.Name
	}
	return ""
}

// Slot writes a stack in the clientbound Slot form: count, then the item
// id and two empty component lists.
func (f *Server) Slot(w *wire.Writer, it Item) {
	if it.Count <= 0 {
		w.VarInt(0)
		return
	}
	w.VarInt(it.Count)
	w.VarInt(f.ItemID(it.Name))
	w.VarInt(0)
	w.VarInt(0)
}

// container writes a container id: a byte in 767, a VarInt from 768.
func (f *Server) container(w *wire.Writer, id int32) {
	if f.Proto < 768 {
		w.Byte(byte(id))
	} else {
		w.VarInt(id)
	}
}

// WindowItems sends a window's contents and the cursor.
func (f *Server) WindowItems(window, stateID int32, items []Item, carried Item) {
	f.Send(mcdata.ClientboundPlayWindowItems, func(w *wire.Writer) {
		f.container(w, window)
		w.VarInt(stateID)
		w.VarInt(int32(len(items)))
		for _, it := range items {
			f.Slot(w, it)
		}
		f.Slot(w, carried)
	})
}

// SetSlot sends one slot of a window. In 767 the window is a signed byte
// (-1 the cursor, -2 the player's inventory).
func (f *Server) SetSlot(window, stateID int32, slot int16, it Item) {
	f.Send(mcdata.ClientboundPlaySetSlot, func(w *wire.Writer) {
		if f.Proto < 768 {
			w.Int8(int8(window))
		} else {
			w.VarInt(window)
		}
		w.VarInt(stateID)
		w.Uint16(uint16(slot))
		f.Slot(w, it)
	})
}

// Cursor sends the cursor's stack as the version does: set_slot window -1
// slot -1 in 767 (stateID is its state id), set_cursor_item from 768.
func (f *Server) Cursor(stateID int32, it Item) {
	if f.Proto < 768 {
		f.SetSlot(-1, stateID, -1, it)
		return
	}
	f.Send(mcdata.ClientboundPlaySetCursorItem, func(w *wire.Writer) { f.Slot(w, it) })
}

// PlayerInventory sends one slot of the player's inventory by its own
// numbering (0–8 hotbar, 9–35 main, 36–39 armour feet to head, 40
// off-hand): set_slot window -2 in 767, set_player_inventory from 768.
func (f *Server) PlayerInventory(slot int32, it Item) {
	if f.Proto < 768 {
		f.SetSlot(-2, 0, int16(slot), it)
		return
	}
	f.Send(mcdata.ClientboundPlaySetPlayerInventory, func(w *wire.Writer) {
		w.VarInt(slot)
		f.Slot(w, it)
	})
}

// OpenWindow opens a container: window id, menu type id, a plain title.
func (f *Server) OpenWindow(window, menuType int32, title string) {
	f.Send(mcdata.ClientboundPlayOpenWindow, func(w *wire.Writer) {
		w.VarInt(window)
		w.VarInt(menuType)
		NBTString(w, title)
	})
}

// CloseWindow closes a container from the server's side.
func (f *Server) CloseWindow(window int32) {
	f.Send(mcdata.ClientboundPlayCloseWindow, func(w *wire.Writer) { f.container(w, window) })
}

// WindowProperty sends one value of a container (craft_progress_bar).
func (f *Server) WindowProperty(window int32, property, value int16) {
	f.Send(mcdata.ClientboundPlayCraftProgressBar, func(w *wire.Writer) {
		f.container(w, window)
		w.Uint16(uint16(property))
		w.Uint16(uint16(value))
	})
}

// HeldSlot sends the held hotbar slot: a byte before 769, a VarInt since.
func (f *Server) HeldSlot(slot int32) {
	f.Send(mcdata.ClientboundPlayHeldItemSlot, func(w *wire.Writer) {
		if f.Proto < 769 {
			w.Int8(int8(slot))
		} else {
			w.VarInt(slot)
		}
	})
}

// ClickedStack is a stack as the client put it in window_click: the Slot
// form before 1.21.5, a hashed stack (no components, only their hashes)
// from 1.21.5.
type ClickedStack struct {
	Name  string
	Count int32
	// Components counts the component entries (hashes from 1.21.5).
	Components, Removed int32
}

// Click is a window_click as the client sent it.
type Click struct {
	Window  int32
	StateID int32
	Slot    int16
	Button  int8
	Mode    int32
	Changed map[int16]ClickedStack
	Carried ClickedStack
}

// ReadClick decodes a window_click by hand, in the version's layout.
func (f *Server) ReadClick(r *wire.Reader) Click {
	var c Click
	if f.Proto < 768 {
		c.Window = int32(r.Int8())
	} else {
		c.Window = r.VarInt()
	}
	c.StateID, c.Slot, c.Button, c.Mode = r.VarInt(), r.Int16(), r.Int8(), r.VarInt()
	n := r.VarInt()
	if n < 0 || n > 128 {
		f.T.Errorf("fake server: window_click names %d changed slots", n)
		return c
	}
	c.Changed = map[int16]ClickedStack{}
	for i := int32(0); i < n && r.Err() == nil; i++ {
		slot := r.Int16()
		c.Changed[slot] = f.readClicked(r)
	}
	c.Carried = f.readClicked(r)
	if r.Err() != nil || r.Remaining() != 0 {
		f.T.Errorf("fake server: window_click did not decode (%v, %d bytes left)", r.Err(), r.Remaining())
	}
	return c
}

func (f *Server) readClicked(r *wire.Reader) ClickedStack {
	var s ClickedStack
	if f.Proto >= 770 {
		if !r.Bool() {
			return s
		}
		s.Name = f.ItemName(r.VarInt())
		s.Count = r.VarInt()
		s.Components = r.VarInt()
		for i := int32(0); i < s.Components && r.Err() == nil; i++ {
			_, _ = r.VarInt(), r.Int32()
		}
		s.Removed = r.VarInt()
		for i := int32(0); i < s.Removed && r.Err() == nil; i++ {
			_ = r.VarInt()
		}
		return s
	}
	s.Count = r.VarInt()
	if s.Count <= 0 {
		return ClickedStack{}
	}
	s.Name = f.ItemName(r.VarInt())
	s.Components, s.Removed = r.VarInt(), r.VarInt()
	if s.Components != 0 || s.Removed != 0 {
		f.T.Errorf("fake server: a clicked stack with components; the fake server reads plain stacks only")
	}
	return s
}

// PlayerAction is a block_dig as the client sent it.
type PlayerAction struct {
	Status   int32
	X, Y, Z  int
	Face     int8
	Sequence int32
}

// ReadPlayerAction decodes a block_dig.
func (f *Server) ReadPlayerAction(r *wire.Reader) PlayerAction {
	a := PlayerAction{Status: r.VarInt()}
	// 26.3 numbers the actions from abort on one higher (it inserted
	// change_destroy_direction at 1): the status is given back in the
	// numbers of every version before, which the bot's Action* constants
	// keep.
	if f.Proto >= 777 && a.Status >= 2 {
		a.Status--
	}
	a.X, a.Y, a.Z = r.Position()
	a.Face, a.Sequence = r.Int8(), r.VarInt()
	if r.Err() != nil || r.Remaining() != 0 {
		f.T.Errorf("fake server: block_dig did not decode (%v, %d bytes left)", r.Err(), r.Remaining())
	}
	return a
}
