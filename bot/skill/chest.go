package skill

import (
	"context"
	"errors"
	"fmt"

	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/world"
)

// Stack is a container slot's stack as the chest skills report it.
type Stack struct {
	Stack item.Stack
	Slot  int
}

// ChestResult is what a chest skill saw and did, from the server's
// windows.
type ChestResult struct {
	// Block is the block used ("chest", "trapped_chest", "barrel").
	Block string
	// Items are the chest's stacks after the action.
	Items []Stack
	// Moved is how many items went in (deposit) or out (withdraw),
	// counted in both windows; Carried is how many of the item the bot
	// has after it.
	Moved, Carried int
	Reason         string
}

// openChest opens the storage block at p and checks it opened a chest's
// window.
func (k *Skills) openChest(ctx context.Context, p world.BlockPos) (inventory.Container, string, error) {
	name := k.blockName(p)
	switch name {
	case "":
		return inventory.Container{}, "", fmt.Errorf("the bot has no chunk loaded at %d %d %d; move closer", p.X, p.Y, p.Z)
	case "chest", "trapped_chest", "barrel":
	default:
		return inventory.Container{}, name, fmt.Errorf("the block at %d %d %d is %s, not a chest", p.X, p.Y, p.Z, name)
	}
	c, err := k.openBlock(ctx, p, "generic_9x3", "generic_9x6")
	return c, name, err
}

func chestItems(c *inventory.Container) []Stack {
	var out []Stack
	if c == nil {
		return out
	}
	for i, s := range c.Slots {
		if !s.Empty() {
			out = append(out, Stack{s, i})
		}
	}
	return out
}

func countIn(slots []item.Stack, name string) int {
	n := 0
	for _, s := range slots {
		if !s.Empty() && inventory.StackName(s) == name {
			n += int(s.Count)
		}
	}
	return n
}

// ChestList opens the chest at p, reads its window and closes it.
func (k *Skills) ChestList(ctx context.Context, p world.BlockPos) (ChestResult, error) {
	end, err := k.begin(ctx)
	if err != nil {
		return ChestResult{}, err
	}
	defer end()
	c, name, err := k.openChest(ctx, p)
	if err != nil {
		return ChestResult{Block: name}, err
	}
	_ = k.inv.CloseContainer()
	return ChestResult{Block: name, Items: chestItems(&c)}, nil
}

// ErrChestHasNone is ChestWithdraw's error for an item the chest lacks.
var ErrChestHasNone = errors.New("the chest has none of that item")

// ChestDeposit puts count of an item the bot carries into the chest at p:
// whole stacks by shift-click, part of one onto a stack of the same item
// with room or an empty slot. Moved counts what left the bot's slots and
// arrived in the chest's, as the server's window says.
func (k *Skills) ChestDeposit(ctx context.Context, p world.BlockPos, name string, count int) (ChestResult, error) {
	end, err := k.begin(ctx)
	if err != nil {
		return ChestResult{}, err
	}
	defer end()
	if k.inv.View().Count(name) == 0 {
		return ChestResult{}, fmt.Errorf("%w: no %s in the inventory", inventory.ErrNotCarried, name)
	}
	c, block, err := k.openChest(ctx, p)
	if err != nil {
		return ChestResult{Block: block}, err
	}
	defer func() { _ = k.inv.CloseContainer() }()
	w := c.Window
	startChest, startHave := countIn(c.Slots, name), k.inv.View().Count(name)
	res := ChestResult{Block: block}
	progress := func() (int, inventory.View) {
		v := k.inv.View()
		return countIn(v.Container.Slots, name) - startChest, v
	}
	for {
		moved, v := progress()
		left := count - moved
		srcs := v.FindIn(w, name)
		if left <= 0 || len(srcs) == 0 {
			break
		}
		from := srcs[0]
		if n := int(slotOf(v, w, from).Count); n <= left {
			if _, err := k.inv.Click(ctx, inventory.ShiftClick(w, from)); err != nil {
				return k.chestResult(res, name, startChest), err
			}
			if after, _ := progress(); after == moved {
				res.Reason = "the chest is full"
				break
			}
			continue
		}
		to := targetSlot(v.Container.Slots, name, k.stackSize(name))
		if to < 0 {
			res.Reason = "the chest is full"
			break
		}
		if _, err := k.moveFrom(ctx, w, from, to, left); err != nil {
			return k.chestResult(res, name, startChest), err
		}
	}
	res = k.chestResult(res, name, startChest)
	if gone := startHave - res.Carried; gone != res.Moved && res.Reason == "" {
		res.Reason = fmt.Sprintf("the chest gained %d but the bot lost %d", res.Moved, gone)
	}
	return res, nil
}

// ChestWithdraw takes count of an item out of the chest at p into the
// bot's inventory, the same way round.
func (k *Skills) ChestWithdraw(ctx context.Context, p world.BlockPos, name string, count int) (ChestResult, error) {
	end, err := k.begin(ctx)
	if err != nil {
		return ChestResult{}, err
	}
	defer end()
	c, block, err := k.openChest(ctx, p)
	if err != nil {
		return ChestResult{Block: block}, err
	}
	defer func() { _ = k.inv.CloseContainer() }()
	w := c.Window
	startChest, startHave := countIn(c.Slots, name), k.inv.View().Count(name)
	res := ChestResult{Block: block}
	if startChest == 0 {
		return k.chestResult(res, name, startChest), ErrChestHasNone
	}
	for {
		v := k.inv.View()
		got := v.Count(name) - startHave
		left := count - got
		from := -1
		for i, s := range v.Container.Slots {
			if !s.Empty() && inventory.StackName(s) == name {
				from = i
				break
			}
		}
		if left <= 0 || from < 0 {
			break
		}
		if n := int(v.Container.Slots[from].Count); n <= left {
			if _, err := k.inv.Click(ctx, inventory.ShiftClick(w, from)); err != nil {
				return k.chestResult(res, name, startChest), err
			}
			if k.inv.View().Count(name)-startHave == got {
				res.Reason = "the bot's inventory is full"
				break
			}
			continue
		}
		to := -1
		for _, s := range v.FindIn(w, name) {
			if st := slotOf(v, w, s); int(st.Count) < k.stackSize(name) {
				to = s
				break
			}
		}
		if to < 0 {
			to = emptyPlayerSlot(v, w)
		}
		if to < 0 {
			res.Reason = "the bot's inventory is full"
			break
		}
		if _, err := k.moveFrom(ctx, w, from, to, left); err != nil {
			return k.chestResult(res, name, startChest), err
		}
	}
	res = k.chestResult(res, name, startChest)
	res.Moved = -res.Moved
	if got := res.Carried - startHave; got != res.Moved && res.Reason == "" {
		res.Reason = fmt.Sprintf("the chest lost %d but the bot gained %d", res.Moved, got)
	}
	return res, nil
}

// chestResult fills in what the windows say now: the chest's items, the
// change of the item in it, and what the bot carries.
func (k *Skills) chestResult(res ChestResult, name string, startChest int) ChestResult {
	v := k.inv.View()
	res.Carried = v.Count(name)
	if v.Container != nil {
		res.Items = chestItems(v.Container)
		res.Moved = countIn(v.Container.Slots, name) - startChest
	}
	return res
}

// targetSlot is a container slot that can take more of an item: a stack
// of it with room, else an empty slot; -1 for none.
func targetSlot(slots []item.Stack, name string, stackSize int) int {
	for i, s := range slots {
		if !s.Empty() && inventory.StackName(s) == name && int(s.Count) < stackSize {
			return i
		}
	}
	for i, s := range slots {
		if s.Empty() {
			return i
		}
	}
	return -1
}

// stackSize is how many of an item one slot holds.
func (k *Skills) stackSize(name string) int {
	if it := k.game.ItemByName(name); it != nil && it.StackSize > 0 {
		return it.StackSize
	}
	return 64
}
