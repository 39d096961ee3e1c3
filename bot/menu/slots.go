package menu

// The player's inventory window (window 0, the game's InventoryMenu)
// numbers its 46 slots like this; every slot number this package takes or
// gives for window 0 is one of these.
const (
	SlotCraftResult = 0  // the 2×2 grid's result
	SlotCraftFirst  = 1  // 1–4: the 2×2 crafting grid, row by row
	SlotHead        = 5  // armour: head
	SlotChest       = 6  // chest
	SlotLegs        = 7  // legs
	SlotFeet        = 8  // feet
	SlotMainFirst   = 9  // 9–35: the main inventory, row by row
	SlotHotbarFirst = 36 // 36–44: the hotbar, left to right
	SlotOffhand     = 45
	// PlayerSlots is how many slots window 0 has.
	PlayerSlots = 46
	// SlotOutside is the slot number of a click outside the window (it
	// drops the cursor's stack).
	SlotOutside = -999
)

// The player's inventory has a numbering of its own (the game's Inventory,
// which set_player_inventory and, before 1.21.2, set_slot window -2 use):
// 0–8 the hotbar, 9–35 the main inventory, 36–39 armour from feet to head,
// 40 the off-hand.
const (
	InvHotbarFirst = 0
	InvMainFirst   = 9
	InvFeet        = 36
	InvHead        = 39
	InvOffhand     = 40
	InvSize        = 41
)

// WindowSlotOfInventory maps an Inventory index to window 0's slot, -1 for
// none.
func WindowSlotOfInventory(i int) int {
	switch {
	case i >= InvHotbarFirst && i < InvMainFirst:
		return SlotHotbarFirst + i
	case i >= InvMainFirst && i < InvFeet:
		return i
	case i >= InvFeet && i <= InvHead:
		return SlotFeet - (i - InvFeet)
	case i == InvOffhand:
		return SlotOffhand
	}
	return -1
}

// InventoryOfWindowSlot maps a window-0 slot to the Inventory index, -1 for
// the crafting slots and anything else.
func InventoryOfWindowSlot(s int) int {
	switch {
	case s >= SlotHead && s <= SlotFeet:
		return InvFeet + (SlotFeet - s)
	case s >= SlotMainFirst && s < SlotHotbarFirst:
		return s
	case s >= SlotHotbarFirst && s < SlotOffhand:
		return s - SlotHotbarFirst
	case s == SlotOffhand:
		return InvOffhand
	}
	return -1
}

// HotbarSlot is window 0's slot of hotbar position i (0–8).
func HotbarSlot(i int) int { return SlotHotbarFirst + i }

// Every container window but the lectern's puts the player's main
// inventory, then the hotbar, right after the container's own slots: these
// map between such a window's slots and the Inventory's.

// PlayerPartOf maps a container window's slot to the Inventory index, -1
// for the container's own slots.
func (m Menu) PlayerPartOf(s int) int {
	if m.NoPlayer || s < m.Slots || s >= m.Slots+36 {
		return -1
	}
	rel := s - m.Slots
	if rel < 27 {
		return InvMainFirst + rel
	}
	return rel - 27
}

// WindowSlotOf maps an Inventory index to the container window's slot, -1
// when the window does not show it (armour, the off-hand).
func (m Menu) WindowSlotOf(i int) int {
	switch {
	case m.NoPlayer:
		return -1
	case i >= InvMainFirst && i < InvFeet:
		return m.Slots + i - InvMainFirst
	case i >= InvHotbarFirst && i < InvMainFirst:
		return m.Slots + 27 + i
	}
	return -1
}

// Equipment names where an item is worn or held, as mc_equip takes them.
type Equipment string

const (
	Hand    Equipment = "hand"
	OffHand Equipment = "off_hand"
	Head    Equipment = "head"
	Chest   Equipment = "chest"
	Legs    Equipment = "legs"
	Feet    Equipment = "feet"
)

// ArmourSlot is window 0's slot for an armour piece's place.
func ArmourSlot(e Equipment) (int, bool) {
	switch e {
	case Head:
		return SlotHead, true
	case Chest:
		return SlotChest, true
	case Legs:
		return SlotLegs, true
	case Feet:
		return SlotFeet, true
	}
	return 0, false
}
