package skill

import (
	"context"
	"fmt"

	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/item"
)

// click sends one click and fails when the server did not do what the
// game's click rules say it does.
func (k *Skills) click(ctx context.Context, c inventory.Click) (inventory.View, error) {
	r, err := k.inv.Click(ctx, c)
	if err != nil {
		return r.View, err
	}
	if !r.Confirmed() {
		return r.View, fmt.Errorf("the server did not carry out a click on slot %d of window %d (it answered %d of %d changes)", c.Slot, c.Window, r.Answered, r.Expected)
	}
	return r.View, nil
}

// slotOf is the stack in slot s of a window, as v has it.
func slotOf(v inventory.View, window int32, s int) item.Stack {
	slots := v.Window(window)
	if s < 0 || s >= len(slots) {
		return item.Stack{}
	}
	return slots[s]
}

// emptyPlayerSlot is a free slot of the player's main inventory or hotbar,
// in the window's numbering, or -1.
func emptyPlayerSlot(v inventory.View, window int32) int {
	slots := v.Window(window)
	first := inventory.SlotMainFirst
	if window != 0 && v.Container != nil {
		first = v.Container.Menu.Slots
	}
	for s := first; s < first+36 && s < len(slots); s++ {
		if slots[s].Empty() {
			return s
		}
	}
	return -1
}

// clearCursor puts a stack left on the cursor into a free slot.
func (k *Skills) clearCursor(ctx context.Context, window int32) error {
	v := k.inv.View()
	if v.Cursor.Empty() {
		return nil
	}
	to := emptyPlayerSlot(v, window)
	if to < 0 {
		return fmt.Errorf("the cursor holds %d %s and the inventory has no free slot", v.Cursor.Count, inventory.StackName(v.Cursor))
	}
	_, err := k.click(ctx, inventory.LeftClick(window, to))
	return err
}

// moveItems moves n items named name from the player's slots of a window
// into slot to of the same window (a grid cell, a chest or furnace slot).
// It returns how many the server put there.
func (k *Skills) moveItems(ctx context.Context, window int32, name string, n int, to int) (int, error) {
	moved := 0
	for moved < n {
		srcs := k.inv.View().FindIn(window, name)
		if len(srcs) == 0 {
			return moved, nil
		}
		m, err := k.moveFrom(ctx, window, srcs[0], to, n-moved)
		moved += m
		if err != nil {
			return moved, err
		}
	}
	return moved, nil
}

// moveFrom moves up to n items from slot from (one of the player's) to
// slot to of a window (which is empty or holds the same item): a whole
// stack with a pick-up and a put-down, part of one by putting one item at a
// time (right clicks) and the rest back. It returns how many left the
// bot's own slots, as the server answered: the target may use them at
// once (a furnace burns its fuel), so what it holds is no measure.
func (k *Skills) moveFrom(ctx context.Context, window int32, from, to, n int) (int, error) {
	// A move is a few clicks with a stack on the cursor in between: once
	// begun it is finished (each click is bounded by its answer's ticks),
	// so a stop (mc_stop) never leaves the cursor holding the stack.
	ctx = context.WithoutCancel(ctx)
	v := k.inv.View()
	src := slotOf(v, window, from)
	if src.Empty() || n <= 0 {
		return 0, nil
	}
	name := inventory.StackName(src)
	had := v.Count(name)
	if _, err := k.click(ctx, inventory.LeftClick(window, from)); err != nil {
		return 0, err
	}
	if int(src.Count) <= n {
		if _, err := k.click(ctx, inventory.LeftClick(window, to)); err != nil {
			return 0, err
		}
	} else {
		for i := 0; i < n; i++ {
			if _, err := k.click(ctx, inventory.RightClick(window, to)); err != nil {
				return 0, err
			}
		}
	}
	// What did not fit (or was not put) goes back where it came from.
	if v := k.inv.View(); !v.Cursor.Empty() {
		if _, err := k.click(ctx, inventory.LeftClick(window, from)); err != nil {
			return 0, err
		}
		if err := k.clearCursor(ctx, window); err != nil {
			return 0, err
		}
	}
	moved := had - k.inv.View().Count(name)
	if !playerSlot(v, window, from) {
		moved = -moved // out of the container into the bot's slots
	}
	if moved <= 0 {
		return 0, fmt.Errorf("the server did not put %s into slot %d", name, to)
	}
	return moved, nil
}

// playerSlot says whether slot s of a window is one of the bot's own (its
// main inventory and hotbar, or any of window 0's).
func playerSlot(v inventory.View, window int32, s int) bool {
	if window == 0 || v.Container == nil {
		return true
	}
	return s >= v.Container.Menu.Slots && s < v.Container.Menu.Slots+36
}
