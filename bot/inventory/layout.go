package inventory

import "github.com/blockmate/blockmate/bot/menu"

// The window layouts and stack rules live in bot/menu, which the practice
// server's rules share; these names keep the inventory's API as it was.

// Menu is one container type of the game's menu registry (menu.Menu).
type Menu = menu.Menu

// Equipment names where an item is worn or held, as mc_equip takes them.
type Equipment = menu.Equipment

// The player's inventory window's slots (menu.SlotCraftResult and the rest).
const (
	SlotCraftResult = menu.SlotCraftResult
	SlotCraftFirst  = menu.SlotCraftFirst
	SlotHead        = menu.SlotHead
	SlotChest       = menu.SlotChest
	SlotLegs        = menu.SlotLegs
	SlotFeet        = menu.SlotFeet
	SlotMainFirst   = menu.SlotMainFirst
	SlotHotbarFirst = menu.SlotHotbarFirst
	SlotOffhand     = menu.SlotOffhand
	PlayerSlots     = menu.PlayerSlots
	SlotOutside     = menu.SlotOutside
)

// The places an item is worn or held.
const (
	Hand    = menu.Hand
	OffHand = menu.OffHand
	Head    = menu.Head
	Chest   = menu.Chest
	Legs    = menu.Legs
	Feet    = menu.Feet
)

// HotbarSlot is window 0's slot of hotbar position i (0–8).
func HotbarSlot(i int) int { return menu.HotbarSlot(i) }

// MenuByID returns the menu type with that registry id.
func MenuByID(id int32) (Menu, bool) { return menu.ByID(id) }

// MenuByName returns the menu type with that name ("minecraft:" optional).
func MenuByName(name string) (Menu, bool) { return menu.ByName(name) }

// Menus lists the menu types in registry order.
func Menus() []Menu { return menu.All() }
