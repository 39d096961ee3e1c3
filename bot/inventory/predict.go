package inventory

import (
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/menu"
)

// predictor plays a click on a copy of a window the way the game's click
// code does (AbstractContainerMenu.doClick and each menu's quickMoveStack,
// 1.21.4), to know which slots the server's answer will name. It is never
// applied to the model: only the server's answer is. Where it is unsure
// (furnace rules, drags, double clicks) it predicts less, and the click
// then waits for fewer answers.
type predictor struct {
	g      *mcdata.GameData
	window int32
	menu   Menu // the open container's; unused for window 0
	slots  []item.Stack
	cursor item.Stack
	// offhand is the off-hand stack, which a swap with button 40 touches
	// even in a container window that does not show it.
	offhand        item.Stack
	offhandChanged bool
}

func (p *predictor) isResult(i int) bool {
	if p.window == 0 {
		return i == SlotCraftResult
	}
	if p.menu.Trailing > 0 && i >= p.menu.Slots+36 {
		return true // the crafter's result display
	}
	return i == p.menu.Result
}

// mayPlace is the slot's own rule for what it accepts.
func (p *predictor) mayPlace(i int, s item.Stack) bool {
	if p.isResult(i) {
		return false
	}
	if p.window == 0 && i >= SlotHead && i <= SlotFeet {
		e, ok := menu.WornOn(s)
		want, _ := menu.ArmourSlot(e)
		return ok && want == i
	}
	return true
}

// slotMax is how many of s the slot holds.
func (p *predictor) slotMax(i int, s item.Stack) int32 {
	if p.window == 0 && i >= SlotHead && i <= SlotFeet {
		return 1
	}
	return menu.MaxStack(p.g, s)
}

func (p *predictor) inRange(i int) bool { return i >= 0 && i < len(p.slots) }

// click plays one click.
func (p *predictor) click(slot, button, mode int) {
	switch mode {
	case codec.ClickPickup:
		p.pickup(slot, button)
	case codec.ClickQuickMove:
		if p.inRange(slot) && !p.slots[slot].Empty() {
			p.quickMove(slot)
		}
	case codec.ClickSwap:
		p.swap(slot, button)
	case codec.ClickThrow:
		if p.cursor.Empty() && p.inRange(slot) && (button == 0 || button == 1) {
			s := p.slots[slot]
			if s.Empty() {
				return
			}
			take := int32(1)
			if button == 1 || p.isResult(slot) {
				take = s.Count
			}
			p.slots[slot] = menu.WithCount(s, s.Count-take)
		}
	}
}

func (p *predictor) pickup(slot, button int) {
	if button != 0 && button != 1 {
		return
	}
	c := p.cursor
	if slot == SlotOutside {
		if !c.Empty() {
			if button == 0 {
				p.cursor = item.Stack{}
			} else {
				p.cursor = menu.WithCount(c, c.Count-1)
			}
		}
		return
	}
	if !p.inRange(slot) {
		return
	}
	s := p.slots[slot]
	switch {
	case c.Empty():
		if s.Empty() {
			return
		}
		take := s.Count
		if button == 1 && !p.isResult(slot) {
			take = (s.Count + 1) / 2
		}
		p.cursor = menu.WithCount(s, take)
		p.slots[slot] = menu.WithCount(s, s.Count-take)
	case p.mayPlace(slot, c):
		put := c.Count
		if button == 1 {
			put = 1
		}
		switch {
		case s.Empty():
			put = min(put, p.slotMax(slot, c))
			p.slots[slot] = menu.WithCount(c, put)
			p.cursor = menu.WithCount(c, c.Count-put)
		case menu.SameItem(s, c):
			put = min(put, p.slotMax(slot, c)-s.Count)
			if put > 0 {
				p.slots[slot] = menu.WithCount(s, s.Count+put)
				p.cursor = menu.WithCount(c, c.Count-put)
			}
		case c.Count <= p.slotMax(slot, c):
			p.slots[slot], p.cursor = c, s
		}
	case menu.SameItem(s, c):
		// A slot that takes nothing (a result) gives all it has or
		// nothing (Slot.tryRemove without modification rights).
		if room := menu.MaxStack(p.g, c) - c.Count; s.Count <= room {
			p.cursor = menu.WithCount(c, c.Count+s.Count)
			p.slots[slot] = item.Stack{}
		}
	}
}

// moveTo is the game's moveItemStackTo: it merges s into the stacks of the
// same item in [start, end), then puts the rest in the first empty slot
// that takes it, from the end when reverse. It returns what is left.
func (p *predictor) moveTo(s item.Stack, start, end int, reverse bool) item.Stack {
	order := func(yield func(int) bool) {
		if reverse {
			for i := end - 1; i >= start; i-- {
				if !yield(i) {
					return
				}
			}
			return
		}
		for i := start; i < end; i++ {
			if !yield(i) {
				return
			}
		}
	}
	if menu.MaxStack(p.g, s) > 1 {
		for i := range order {
			if s.Empty() {
				break
			}
			d := p.slots[i]
			if !menu.SameItem(d, s) {
				continue
			}
			room := p.slotMax(i, s) - d.Count
			if room <= 0 {
				continue
			}
			n := min(room, s.Count)
			p.slots[i] = menu.WithCount(d, d.Count+n)
			s = menu.WithCount(s, s.Count-n)
		}
	}
	for i := range order {
		if s.Empty() {
			break
		}
		if !p.slots[i].Empty() || !p.mayPlace(i, s) {
			continue
		}
		n := min(p.slotMax(i, s), s.Count)
		p.slots[i] = menu.WithCount(s, n)
		s = menu.WithCount(s, s.Count-n)
		break // the game fills one empty slot and stops
	}
	return s
}

// quickMove is a shift-click: the menu's quickMoveStack, repeated while
// it moves something and the slot still holds the item (doClick's loop:
// one pass fills at most one empty slot).
func (p *predictor) quickMove(i int) {
	for range 64 {
		s := p.slots[i]
		left, ok := p.quickMoveOnce(i)
		if !ok || left.Empty() || left.Count == s.Count || p.isResult(i) {
			return
		}
	}
}

// quickMoveOnce is one quickMoveStack: it moves the slot's stack and
// leaves the rest in the slot; false when the menu's rules are not
// modelled (the source is then predicted empty).
func (p *predictor) quickMoveOnce(i int) (item.Stack, bool) {
	s := p.slots[i]
	p.slots[i] = item.Stack{}
	var left item.Stack
	if p.window == 0 {
		e, wearable := menu.WornOn(s)
		armour, _ := menu.ArmourSlot(e)
		switch {
		case i == SlotCraftResult:
			p.craftGridUsed(SlotCraftFirst, SlotHead)
			left = p.moveTo(s, SlotMainFirst, SlotOffhand, true)
		case i < SlotMainFirst:
			left = p.moveTo(s, SlotMainFirst, SlotOffhand, false)
		case wearable && p.slots[armour].Empty():
			left = p.moveTo(s, armour, armour+1, false)
		case i < SlotHotbarFirst:
			left = p.moveTo(s, SlotHotbarFirst, SlotOffhand, false)
		case i < SlotOffhand:
			left = p.moveTo(s, SlotMainFirst, SlotHotbarFirst, false)
		default:
			left = p.moveTo(s, SlotMainFirst, SlotOffhand, false)
		}
		p.slots[i] = left
		return left, true
	}
	m := p.menu
	if m.NoPlayer || m.Slots < 0 {
		return item.Stack{}, false
	}
	own, end := m.Slots, m.Slots+36
	switch m.Name {
	case "generic_9x1", "generic_9x2", "generic_9x3", "generic_9x4", "generic_9x5", "generic_9x6",
		"generic_3x3", "shulker_box", "hopper":
		if i < own {
			left = p.moveTo(s, own, end, true)
		} else {
			left = p.moveTo(s, 0, own, false)
		}
	case "crafting":
		switch {
		case i == 0:
			p.craftGridUsed(1, 10)
			left = p.moveTo(s, own, end, true)
		case i >= own && i < end:
			left = p.moveTo(s, 1, 10, false)
			if left.Count == s.Count { // nothing went into the grid
				if i < own+27 {
					left = p.moveTo(left, own+27, end, false)
				} else {
					left = p.moveTo(left, own, own+27, false)
				}
			}
		default:
			left = p.moveTo(s, own, end, false)
		}
	default:
		// Furnaces, brewing stands and the rest sort by recipes and fuels
		// the bot does not model: predict only the source.
		return item.Stack{}, false
	}
	p.slots[i] = left
	return left, true
}

// craftGridUsed marks a crafting grid's ingredients as used by one craft
// (each non-empty cell loses one): a taken result changes them.
func (p *predictor) craftGridUsed(from, to int) {
	for i := from; i < to && i < len(p.slots); i++ {
		if s := p.slots[i]; !s.Empty() {
			p.slots[i] = menu.WithCount(s, s.Count-1)
		}
	}
}

// swap is the number-key click: the slot and the hotbar slot (button 0–8)
// or the off-hand (40) trade stacks, as far as the slot allows.
func (p *predictor) swap(slot, button int) {
	if !p.inRange(slot) || !(button >= 0 && button < 9 || button == 40) {
		return
	}
	other := -1 // the other stack's slot in this window, if shown
	switch {
	case button == 40 && p.window == 0:
		other = SlotOffhand
	case button == 40:
	case p.window == 0:
		other = SlotHotbarFirst + button
	case !p.menu.NoPlayer && p.menu.Slots >= 0:
		other = p.menu.Slots + 27 + button
	default:
		return
	}
	var src item.Stack
	if other >= 0 {
		src = p.slots[other]
	} else {
		src = p.offhand
	}
	put := func(s item.Stack) {
		if other >= 0 {
			p.slots[other] = s
		} else {
			p.offhand, p.offhandChanged = s, true
		}
	}
	here := p.slots[slot]
	switch {
	case src.Empty() && here.Empty():
	case src.Empty():
		put(here)
		p.slots[slot] = item.Stack{}
	case !p.mayPlace(slot, src):
	case here.Empty():
		n := p.slotMax(slot, src)
		if src.Count > n {
			p.slots[slot] = menu.WithCount(src, n)
			put(menu.WithCount(src, src.Count-n))
		} else {
			p.slots[slot] = src
			put(item.Stack{})
		}
	default:
		if src.Count > p.slotMax(slot, src) {
			return // the game moves the displaced stack anywhere it fits
		}
		p.slots[slot] = src
		put(here)
	}
}
