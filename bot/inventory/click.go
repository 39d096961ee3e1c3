package inventory

import (
	"context"
	"errors"
	"fmt"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/menu"
	"github.com/blockmate/blockmate/bot/wire"
)

// Click is one click in a window, as window_click carries it.
type Click struct {
	// Window is 0 for the player's inventory, else the open container's
	// window id (Container.Window).
	Window int32
	// Slot is the slot clicked in that window's numbering, or SlotOutside.
	Slot int
	// Button and Mode are the game's: see codec.ClickPickup and the rest.
	Button int
	Mode   int
}

// LeftClick picks up a slot's stack, puts the cursor's down, merges or
// swaps them.
func LeftClick(window int32, slot int) Click {
	return Click{Window: window, Slot: slot, Mode: codec.ClickPickup}
}

// RightClick picks up half a stack, or puts one item of the cursor down.
func RightClick(window int32, slot int) Click {
	return Click{Window: window, Slot: slot, Button: 1, Mode: codec.ClickPickup}
}

// ShiftClick moves a slot's stack to the other part of the window (the
// container and the player's slots; in window 0, hotbar and main
// inventory, armour to where it is worn).
func ShiftClick(window int32, slot int) Click {
	return Click{Window: window, Slot: slot, Mode: codec.ClickQuickMove}
}

// SwapHotbar swaps a slot with hotbar slot 0–8, as a number key does.
func SwapHotbar(window int32, slot, hotbar int) Click {
	return Click{Window: window, Slot: slot, Button: hotbar, Mode: codec.ClickSwap}
}

// SwapOffhand swaps a slot with the off-hand, as F over a slot does.
func SwapOffhand(window int32, slot int) Click {
	return Click{Window: window, Slot: slot, Button: 40, Mode: codec.ClickSwap}
}

// Throw drops one item of a slot (all: the whole stack), as Q over a slot
// does; the cursor must be empty.
func Throw(window int32, slot int, all bool) Click {
	c := Click{Window: window, Slot: slot, Mode: codec.ClickThrow}
	if all {
		c.Button = 1
	}
	return c
}

// DropCursor drops the cursor's stack (all) or one item of it, as a click
// outside the window does.
func DropCursor(window int32, all bool) Click {
	c := Click{Window: window, Slot: SlotOutside, Mode: codec.ClickPickup}
	if !all {
		c.Button = 1
	}
	return c
}

// ClickResult is what a click did, as the server answered it.
type ClickResult struct {
	// View is the inventory after the server's answer.
	View View
	// Expected is how many places (slots, the cursor) the click was
	// predicted to change; Answered how many of them the server wrote.
	// Answered < Expected means the server did not do what the game's
	// click rules predict (it refused, ignored or changed the click), and
	// View says what it did do.
	Expected, Answered int
}

// Confirmed reports whether the server answered every change the click
// was predicted to make.
func (r ClickResult) Confirmed() bool { return r.Answered == r.Expected }

// ErrNoWindow is a click on a window that is not open.
var ErrNoWindow = errors.New("that window is not open")

// Click sends one click with the window's state id and waits until the
// server has answered each slot the click should change, at most
// AnswerTicks ticks. It tells the server nothing changed and the cursor
// is as it was (see the package doc), so the answer names every change.
// An invalid click (a window that is not open, a slot it does not have)
// fails with a sentence and sends nothing.
func (inv *Inventory) Click(ctx context.Context, c Click) (ClickResult, error) {
	inv.op.Lock()
	defer inv.op.Unlock()
	inv.busy.Add(1)
	defer inv.busy.Add(-1)
	return inv.click(ctx, c)
}

// expected is a place a click should change and its revision before it.
type expected struct {
	l   loc
	rev uint64
}

// click is Click under the action lock.
func (inv *Inventory) click(ctx context.Context, c Click) (ClickResult, error) {
	inv.mu.Lock()
	st := &inv.st
	size := st.windowSize(c.Window)
	switch {
	case size == 0:
		inv.mu.Unlock()
		return ClickResult{}, fmt.Errorf("%w: window %d is not open (window 0 is the inventory; a container's id comes with it)", ErrNoWindow, c.Window)
	case c.Window != 0 && !st.open.loaded:
		inv.mu.Unlock()
		return ClickResult{}, fmt.Errorf("the container's contents have not arrived yet; wait for them (ContainerWaiter.Wait) before clicking")
	case c.Slot != SlotOutside && (c.Slot < 0 || c.Slot >= size):
		inv.mu.Unlock()
		return ClickResult{}, fmt.Errorf("window %d has slots 0 to %d; %d is none of them", c.Window, size-1, c.Slot)
	case c.Mode < codec.ClickPickup || c.Mode > codec.ClickPickupAll || c.Button < -128 || c.Button > 127:
		inv.mu.Unlock()
		return ClickResult{}, fmt.Errorf("click mode %d, button %d is not a click the game knows", c.Mode, c.Button)
	}
	p := &predictor{g: inv.game, window: c.Window, slots: st.windowSlots(c.Window), cursor: st.cursor, offhand: st.inv[menu.InvOffhand]}
	if c.Window != 0 {
		p.menu = st.open.menu
	}
	before := append([]item.Stack(nil), p.slots...)
	p.click(c.Slot, c.Button, c.Mode)
	var want []expected
	for i, s := range p.slots {
		if !menu.EqualStacks(s, before[i]) {
			l := st.locOf(c.Window, i)
			want = append(want, expected{l, st.rev(l)})
		}
	}
	if p.offhandChanged {
		l := loc{locInv, menu.InvOffhand}
		want = append(want, expected{l, st.rev(l)})
	}
	if !menu.EqualStacks(p.cursor, st.cursor) {
		l := loc{locCursor, 0}
		want = append(want, expected{l, st.rev(l)})
	}
	stateID := st.stateID
	if c.Window != 0 {
		stateID = st.open.stateID
	}
	wc := codec.WindowClick{Window: c.Window, StateID: stateID, Slot: int16(c.Slot), Button: int8(c.Button), Mode: int32(c.Mode), Carried: st.cursor}
	inv.mu.Unlock()

	var w wire.Writer
	if err := inv.c.WriteWindowClick(&w, wc); err != nil {
		return ClickResult{}, fmt.Errorf("the click could not be written: %v", err)
	}
	if err := inv.s.Send(mcdata.ServerboundPlayWindowClick, func(out *wire.Writer) { out.Raw(w.Bytes()) }); err != nil {
		return ClickResult{}, err
	}
	answered, err := inv.awaitAnswers(ctx, want)
	return ClickResult{View: inv.View(), Expected: len(want), Answered: answered}, err
}

// awaitAnswers waits until the server has written every place in want, or
// AnswerTicks ticks have passed; it returns how many it wrote.
func (inv *Inventory) awaitAnswers(ctx context.Context, want []expected) (int, error) {
	answered := func() int {
		inv.mu.Lock()
		defer inv.mu.Unlock()
		n := 0
		for _, e := range want {
			if inv.st.locValid(e.l) && inv.st.rev(e.l) != e.rev {
				n++
			}
		}
		return n
	}
	err := inv.s.Await(ctx, AnswerTicks, func() bool { return answered() == len(want) }, inv.changed.Wait)
	if errors.Is(err, core.ErrTicksRanOut) {
		err = nil
	}
	return answered(), err
}

// locValid reports whether a place still exists (a container's slots go
// when it closes).
func (st *state) locValid(l loc) bool {
	switch l.kind {
	case locOwn:
		return st.open != nil && l.index < len(st.open.own)
	case locTrailing:
		return st.open != nil && l.index < len(st.open.trail)
	}
	return l.kind != locNone
}

// SelectHotbar makes hotbar slot i (0–8) the held one. The server never
// answers it, so the bot records it at once, as the game's client does.
func (inv *Inventory) SelectHotbar(i int) error {
	if i < 0 || i > 8 {
		return fmt.Errorf("hotbar slots are 0 to 8, not %d", i)
	}
	inv.op.Lock()
	defer inv.op.Unlock()
	return inv.selectHotbar(i)
}

func (inv *Inventory) selectHotbar(i int) error {
	inv.mu.Lock()
	same := inv.st.held == i
	inv.mu.Unlock()
	if same {
		return nil
	}
	if err := inv.s.Send(mcdata.ServerboundPlayHeldItemSlot, func(w *wire.Writer) { inv.c.WriteHeldItem(w, int16(i)) }); err != nil {
		return err
	}
	inv.mu.Lock()
	inv.st.held = i
	inv.mu.Unlock()
	inv.changed.Broadcast()
	return nil
}

// SwapHands swaps the main hand and the off-hand (the F key) and waits for
// the server's answer: it sends both slots back.
func (inv *Inventory) SwapHands(ctx context.Context) (ClickResult, error) {
	inv.op.Lock()
	defer inv.op.Unlock()
	inv.busy.Add(1)
	defer inv.busy.Add(-1)
	return inv.swapHands(ctx)
}

func (inv *Inventory) swapHands(ctx context.Context) (ClickResult, error) {
	inv.mu.Lock()
	st := &inv.st
	var want []expected
	if main, off := st.inv[st.held], st.inv[menu.InvOffhand]; !menu.EqualStacks(main, off) {
		for _, i := range []int{st.held, menu.InvOffhand} {
			l := loc{locInv, i}
			want = append(want, expected{l, st.rev(l)})
		}
	}
	inv.mu.Unlock()
	if err := inv.playerAction(codec.ActionSwapHands); err != nil {
		return ClickResult{}, err
	}
	answered, err := inv.awaitAnswers(ctx, want)
	return ClickResult{View: inv.View(), Expected: len(want), Answered: answered}, err
}

// DropHeld drops one item of the held stack, or all of it, as Q (ctrl+Q)
// does. The vanilla server records the drop as already known to the client
// and sends nothing back, so the bot takes the items out at once, as the
// game's client does (LocalPlayer.drop); a server that disagrees corrects
// the slot with its next update. It returns the stack dropped.
func (inv *Inventory) DropHeld(all bool) (item.Stack, error) {
	inv.op.Lock()
	defer inv.op.Unlock()
	inv.busy.Add(1)
	defer inv.busy.Add(-1)
	return inv.dropHeld(all)
}

func (inv *Inventory) dropHeld(all bool) (item.Stack, error) {
	status := int32(codec.ActionDropItem)
	if all {
		status = codec.ActionDropStack
	}
	inv.mu.Lock()
	held := inv.st.inv[inv.st.held]
	inv.mu.Unlock()
	if held.Empty() {
		return item.Stack{}, errors.New("the bot's hand is empty; there is nothing to drop")
	}
	if err := inv.playerAction(status); err != nil {
		return item.Stack{}, err
	}
	n := int32(1)
	if all {
		n = held.Count
	}
	inv.mu.Lock()
	l := loc{locInv, inv.st.held}
	if cur := inv.st.get(l); menu.SameItem(cur, held) {
		inv.st.set(l, menu.WithCount(cur, cur.Count-n))
	}
	inv.mu.Unlock()
	inv.changed.Broadcast()
	return menu.WithCount(held, n), nil
}

// playerAction sends a player action that names no block (drop, swap
// hands) as the game's client does: the origin, face 0 (down) and sequence
// 0, since nothing is predicted that the server would acknowledge
// (LocalPlayer.drop, Minecraft.handleKeybinds).
func (inv *Inventory) playerAction(status int32) error {
	a := codec.PlayerAction{Status: status}
	return inv.s.Send(mcdata.ServerboundPlayBlockDig, func(w *wire.Writer) { inv.c.WritePlayerAction(w, a) })
}

// CloseContainer closes the open container, as Esc does: the game's
// client closes it at once and the server does not answer (it puts the
// cursor's stack and a crafting grid's items back in the inventory and
// says so in its own updates). It does nothing when none is open.
func (inv *Inventory) CloseContainer() error {
	inv.op.Lock()
	defer inv.op.Unlock()
	inv.mu.Lock()
	c := inv.st.open
	inv.mu.Unlock()
	if c == nil {
		return nil
	}
	if err := inv.s.Send(mcdata.ServerboundPlayCloseWindow, func(w *wire.Writer) { inv.c.WriteCloseWindow(w, c.id) }); err != nil {
		return err
	}
	inv.mu.Lock()
	if inv.st.open == c {
		inv.closeLocked(&inv.st)
	}
	inv.mu.Unlock()
	inv.changed.Broadcast()
	return nil
}

// ContainerWaiter waits for the next container the server opens. Take it
// before the action that opens one (using a chest, a crafting table, a
// furnace), then Wait.
type ContainerWaiter struct {
	inv   *Inventory
	after uint64
}

// ExpectContainer returns a waiter for the next container opened.
func (inv *Inventory) ExpectContainer() ContainerWaiter {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return ContainerWaiter{inv, inv.st.opened}
}

// Wait waits until a container opened after ExpectContainer has its
// contents, and returns it; or the context's error (a caller bounds the
// wait: a block that opens nothing never answers).
func (w ContainerWaiter) Wait(ctx context.Context) (Container, error) {
	v, err := w.inv.WaitFor(ctx, func(v View) bool {
		return v.Container != nil && v.Container.Seq > w.after && v.Container.Loaded
	})
	if err != nil {
		return Container{}, err
	}
	return *v.Container, nil
}
