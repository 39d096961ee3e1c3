package item

import (
	"fmt"

	"github.com/blockmate/blockmate/bot/wire"
)

// check verifies that a stack's components belong to the protocol it is
// written for (ids and layouts differ between versions).
func (v *version) check(s Stack) error {
	for _, list := range [][]Component{s.Components, s.Removed} {
		for _, c := range list {
			ct, ok := v.comp(c.ID)
			if !ok || ct.name != c.Name {
				return fmt.Errorf("item: component %s (id %d) is not a component of protocol %d; read the stack from this connection", c.Name, c.ID, v.protocol)
			}
		}
	}
	return nil
}

// WriteSlot writes a stack in the clientbound Slot form (undelimited
// components), the form window_click (767–769) and set_creative_slot
// (767–769) carry. An empty stack is a single 0.
func WriteSlot(w *wire.Writer, protocol int32, s Stack) error {
	v, err := versionFor(protocol)
	if err != nil {
		return err
	}
	if s.Empty() {
		w.VarInt(0)
		return nil
	}
	if err := v.check(s); err != nil {
		return err
	}
	w.VarInt(s.Count)
	w.VarInt(s.ID)
	w.VarInt(int32(len(s.Components)))
	w.VarInt(int32(len(s.Removed)))
	for _, c := range s.Components {
		w.VarInt(c.ID)
		w.Raw(c.Raw)
	}
	for _, c := range s.Removed {
		w.VarInt(c.ID)
	}
	return nil
}

// WriteUntrustedSlot writes a stack as set_creative_slot carries it: from
// 1.21.5 (770) every component's value is length-prefixed (the game's
// OPTIONAL_UNTRUSTED_STREAM_CODEC), before that it is the Slot form.
func WriteUntrustedSlot(w *wire.Writer, protocol int32, s Stack) error {
	if protocol < 770 {
		return WriteSlot(w, protocol, s)
	}
	v, err := versionFor(protocol)
	if err != nil {
		return err
	}
	if s.Empty() {
		w.VarInt(0)
		return nil
	}
	if err := v.check(s); err != nil {
		return err
	}
	w.VarInt(s.Count)
	w.VarInt(s.ID)
	w.VarInt(int32(len(s.Components)))
	w.VarInt(int32(len(s.Removed)))
	for _, c := range s.Components {
		w.VarInt(c.ID)
		w.ByteArray(c.Raw)
	}
	for _, c := range s.Removed {
		w.VarInt(c.ID)
	}
	return nil
}

// WriteHashedStack writes a stack as window_click carries it from 1.21.5
// (770): a presence flag, then item id, count, the added components as
// {type, CRC32C hash} and the removed component types.
//
// blockmate sends no component hashes: the added list is always empty.
// The hashes are CRC32C over the game's codec form of each value (not its
// wire bytes), and the server uses them only to decide which slots to send
// back (notes/PROTOCOL-CHANGES.md §B.3): it performs the click itself and
// resends any slot whose hashed stack differs from its own. So a stack
// without added components (logs, cobblestone, planks …) matches exactly,
// and one with components (a damaged tool) costs one set_slot in answer,
// which keeps the bot's inventory right. Removals need no hash and are
// sent as they are. An empty stack is "absent" (a single false).
func WriteHashedStack(w *wire.Writer, protocol int32, s Stack) error {
	if protocol < 770 {
		return fmt.Errorf("item: protocol %d has no hashed stacks (they start with 1.21.5, protocol 770); write the Slot form", protocol)
	}
	v, err := versionFor(protocol)
	if err != nil {
		return err
	}
	if s.Empty() {
		w.Bool(false)
		return nil
	}
	if err := v.check(s); err != nil {
		return err
	}
	w.Bool(true)
	w.VarInt(s.ID)
	w.VarInt(s.Count)
	w.VarInt(0)
	w.VarInt(int32(len(s.Removed)))
	for _, c := range s.Removed {
		w.VarInt(c.ID)
	}
	return nil
}
