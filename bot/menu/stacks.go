package menu

import (
	"bytes"
	"strings"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/protodef"
)

// SameItem reports whether two stacks can merge: the same item with the
// same component patch (the game's isSameItemSameComponents).
func SameItem(a, b item.Stack) bool {
	if a.Empty() || b.Empty() || a.ID != b.ID || len(a.Components) != len(b.Components) || len(a.Removed) != len(b.Removed) {
		return false
	}
	for i := range a.Components {
		if a.Components[i].ID != b.Components[i].ID || !bytes.Equal(a.Components[i].Raw, b.Components[i].Raw) {
			return false
		}
	}
	for i := range a.Removed {
		if a.Removed[i].ID != b.Removed[i].ID {
			return false
		}
	}
	return true
}

// EqualStacks reports whether two stacks are the same, counts included;
// all empty stacks are equal.
func EqualStacks(a, b item.Stack) bool {
	if a.Empty() || b.Empty() {
		return a.Empty() == b.Empty()
	}
	return a.Count == b.Count && SameItem(a, b)
}

// WithCount is s holding n items (empty for n ≤ 0).
func WithCount(s item.Stack, n int32) item.Stack {
	if n <= 0 {
		return item.Stack{}
	}
	s.Count = n
	return s
}

// MaxStack is how many of s's item fit in one slot: the stack's own
// max_stack_size, else the item's from the static data, else 64.
func MaxStack(g *mcdata.GameData, s item.Stack) int32 {
	if n, ok := s.MaxStackSize(); ok && n > 0 {
		return n
	}
	if g != nil {
		if it := g.Item(mcdata.ItemID(s.ID)); it != nil && it.StackSize > 0 {
			return int32(it.StackSize)
		}
	}
	return 64
}

// WornOn says where an item is worn, if anywhere. A stack's own equippable
// component decides first (1.21.2+); otherwise the item's name does, since
// the static data has no equipment slots: helmets, chestplates, leggings,
// boots, the elytra, carved pumpkins and mob heads, as in the game's item
// registrations.
func WornOn(s item.Stack) (Equipment, bool) {
	if c, ok := s.Component("equippable"); ok {
		if v, err := c.Decode(); err == nil {
			if slot, ok := v.Field("slot"); ok {
				switch e := EquipmentOfSlot(slot); e {
				case Head, Chest, Legs, Feet:
					return e, true
				case "":
				default:
					return "", false
				}
			}
		}
	}
	name := s.Name
	switch {
	case strings.HasSuffix(name, "_helmet"), name == "carved_pumpkin", strings.HasSuffix(name, "_head"), strings.HasSuffix(name, "_skull"):
		return Head, true
	case strings.HasSuffix(name, "_chestplate"), name == "elytra":
		return Chest, true
	case strings.HasSuffix(name, "_leggings"):
		return Legs, true
	case strings.HasSuffix(name, "_boots"):
		return Feet, true
	}
	return "", false
}

// EquipmentOfSlot reads the equippable component's slot (an EquipmentSlot
// mapper: main_hand, off_hand, feet, legs, chest, head, body, and saddle
// from 1.21.5).
func EquipmentOfSlot(v protodef.Value) Equipment {
	switch name := v.Name(); name {
	case "main_hand":
		return Hand
	case "off_hand":
		return OffHand
	case "feet", "legs", "chest", "head":
		return Equipment(name)
	}
	return "other"
}
