package inventory

// Reading: the inventory at one moment (View) and waiting for a change.

import (
	"context"
	"fmt"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/menu"
)

// View is the inventory at one moment, as the server has it.
type View struct {
	// Synced is false until the server has sent the whole inventory; slots
	// it has not mentioned read empty until then.
	Synced bool
	// StateID is window 0's state id, the one a click on it carries.
	StateID int32
	// Slots are window 0's slots (see the Slot constants).
	Slots [PlayerSlots]item.Stack
	// Cursor is the stack the bot holds on the cursor while clicking.
	Cursor item.Stack
	// HeldSlot is the selected hotbar slot, 0–8 (window 0's slot 36+).
	HeldSlot int
	// Container is the open container, nil when none is.
	Container *Container
	// HeldLost is the last stack the server emptied the held slot of
	// without a click of the bot's (the game takes a broken tool away so),
	// and HeldLostSeq counts those losses (0: none yet).
	HeldLost    string
	HeldLostSeq uint64
}

// Container is an open container.
type Container struct {
	// Window is the container's window id, which clicks on it carry.
	Window int32
	Menu   Menu
	// Title is the window's title as plain text. A player can name a chest
	// with an anvil: it is untrusted text.
	Title   string
	StateID int32
	// Loaded is false until the server has sent the container's contents.
	Loaded bool
	// Seq numbers the containers opened in this session, from 1.
	Seq uint64
	// Slots are the container's own slots, numbered as in its window
	// (Menu.Slots of them); the player's slots follow them in the window.
	Slots []item.Stack
	// Trailing are the slots after the player's (Menu.Trailing).
	Trailing []item.Stack
	// Properties are the window's values by index (a furnace's 0 fuel
	// left, 1 fuel total, 2 cooking progress, 3 cooking total).
	Properties map[int16]int16
}

// View copies the inventory.
func (inv *Inventory) View() View {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.st.view()
}

func (st *state) view() View {
	v := View{Synced: st.synced, StateID: st.stateID, Cursor: st.cursor, HeldSlot: st.held, HeldLost: st.heldLost, HeldLostSeq: st.heldLostSeq}
	for i := range v.Slots {
		v.Slots[i] = st.get(st.locOf(0, i))
	}
	if c := st.open; c != nil {
		v.Container = &Container{
			Window: c.id, Menu: c.menu, Title: chat.Plain(c.title), StateID: c.stateID, Loaded: c.loaded, Seq: c.seq,
			Slots: append([]item.Stack(nil), c.own...), Trailing: append([]item.Stack(nil), c.trail...),
			Properties: make(map[int16]int16, len(c.props)),
		}
		for k, val := range c.props {
			v.Container.Properties[k] = val
		}
	}
	return v
}

// Held is the stack in the bot's main hand.
func (v View) Held() item.Stack { return v.Slots[SlotHotbarFirst+v.HeldSlot] }

// Offhand is the stack in the bot's off-hand.
func (v View) Offhand() item.Stack { return v.Slots[SlotOffhand] }

// Worn is the armour piece on e (Head, Chest, Legs or Feet).
func (v View) Worn(e Equipment) item.Stack {
	if s, ok := menu.ArmourSlot(e); ok {
		return v.Slots[s]
	}
	return item.Stack{}
}

// carried lists window 0's slots that hold what the bot carries and can
// use: the hotbar, then the main inventory, then the off-hand.
var carried = func() []int {
	var out []int
	for i := SlotHotbarFirst; i < SlotOffhand; i++ {
		out = append(out, i)
	}
	for i := SlotMainFirst; i < SlotHotbarFirst; i++ {
		out = append(out, i)
	}
	return append(out, SlotOffhand)
}()

// Find lists window 0's slots holding the named item ("oak_log"), in the
// order a player reaches for them: hotbar, main inventory, off-hand.
// Armour being worn and the crafting grid are not searched.
func (v View) Find(name string) []int {
	var out []int
	for _, s := range carried {
		if st := v.Slots[s]; !st.Empty() && st.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// Count is how many of the named item the bot carries (hotbar, main
// inventory, off-hand).
func (v View) Count(name string) int {
	n := 0
	for _, s := range v.Find(name) {
		n += int(v.Slots[s].Count)
	}
	return n
}

// UsedSlots is how many of the 36 hotbar and main inventory slots hold
// something.
func (v View) UsedSlots() int {
	n := 0
	for i := SlotMainFirst; i < SlotOffhand; i++ {
		if !v.Slots[i].Empty() {
			n++
		}
	}
	return n
}

// Window lists a window's stacks in its numbering: window 0, or the open
// container's (its own slots, then the player's main inventory and
// hotbar, then any trailing slots). It is nil for a window that is not
// open.
func (v View) Window(window int32) []item.Stack {
	if window == 0 {
		return v.Slots[:]
	}
	c := v.Container
	if c == nil || c.Window != window {
		return nil
	}
	out := append([]item.Stack(nil), c.Slots...)
	if !c.Menu.NoPlayer {
		out = append(out, v.Slots[SlotMainFirst:SlotHotbarFirst]...)
		out = append(out, v.Slots[SlotHotbarFirst:SlotOffhand]...)
	}
	return append(out, c.Trailing...)
}

// FindIn lists the slots of a window (0 or the open container's) that
// hold the named item among the player's own slots, in the order Find
// uses, numbered as that window numbers them.
func (v View) FindIn(window int32, name string) []int {
	if window == 0 {
		return v.Find(name)
	}
	c := v.Container
	if c == nil || c.Window != window || c.Menu.NoPlayer {
		return nil
	}
	var out []int
	for _, s := range v.Find(name) {
		if ws := c.Menu.WindowSlotOf(menu.InventoryOfWindowSlot(s)); ws >= 0 {
			out = append(out, ws)
		}
	}
	return out
}

// Changed returns a channel that closes at the inventory's next change.
func (inv *Inventory) Changed() <-chan struct{} { return inv.changed.Wait() }

// WaitFor waits until cond holds for the inventory and returns that view,
// or the context's error, or core.ErrEnded.
func (inv *Inventory) WaitFor(ctx context.Context, cond func(View) bool) (View, error) {
	for {
		ch := inv.changed.Wait()
		if v := inv.View(); cond(v) {
			return v, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return View{}, ctx.Err()
		case <-inv.s.Done():
			return View{}, core.ErrEnded
		}
	}
}

// stackName is the name an item is reported by: its registry name, or its
// id for an item the static data does not know (a modded server's).
func stackName(s item.Stack) string {
	if s.Name != "" {
		return s.Name
	}
	return fmt.Sprintf("item_%d", s.ID)
}

// StackName is the name mc_get_inventory and the events report a stack by.
func StackName(s item.Stack) string { return stackName(s) }
