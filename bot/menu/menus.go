// Package menu holds the facts about the game's container windows that the
// bot's inventory and the practice server's rules share: the menu registry
// with each window's slot layout, the player inventory's two numberings, and
// when two stacks merge or how many fit in a slot. It is a leaf package (item
// and mcdata only) so a server can import it without the bot's session code.
package menu

// Menu is one container type of the game's built-in minecraft:menu
// registry, which open_window names by id.
type Menu struct {
	ID   int32
	Name string // "generic_9x3", "crafting", "furnace" …
	// Slots are the container's own slots, numbered from 0 in its window;
	// the player's main inventory (27) and hotbar (9) follow them.
	Slots int
	// Trailing are slots after the player's (the crafter's result
	// display).
	Trailing int
	// NoPlayer is true for a window without the player's slots (the
	// lectern's).
	NoPlayer bool
	// Result is the slot whose stack is made, not stored (a crafting
	// result, a furnace's output); -1 for none. Nothing can be placed in it.
	Result int
}

// Size is how many slots the window has in all.
func (m Menu) Size() int {
	if m.NoPlayer {
		return m.Slots
	}
	return m.Slots + 36 + m.Trailing
}

// menus is the minecraft:menu registry in the game's registration order
// (MenuType.java), which is the same in every version from 1.21 to 26.1
// (read in the decompiled 1.21.1, 1.21.3, 1.21.4, 1.21.7, 1.21.11 and
// 26.1.2 sources). minecraft-data has no menu table; TestMenusMatchPeer
// compares this one with prismarine-windows'. Slot counts are the menus'
// own (their addSlot calls): smithing has a template slot since 1.20 (4,
// where prismarine-windows says 3), the lectern has no player slots, and
// the crafter adds its result display after the player's slots.
var menus = []Menu{
	{ID: 0, Name: "generic_9x1", Slots: 9, Result: -1},
	{ID: 1, Name: "generic_9x2", Slots: 18, Result: -1},
	{ID: 2, Name: "generic_9x3", Slots: 27, Result: -1},
	{ID: 3, Name: "generic_9x4", Slots: 36, Result: -1},
	{ID: 4, Name: "generic_9x5", Slots: 45, Result: -1},
	{ID: 5, Name: "generic_9x6", Slots: 54, Result: -1},
	{ID: 6, Name: "generic_3x3", Slots: 9, Result: -1},
	{ID: 7, Name: "crafter_3x3", Slots: 9, Trailing: 1, Result: -1},
	{ID: 8, Name: "anvil", Slots: 3, Result: 2},
	{ID: 9, Name: "beacon", Slots: 1, Result: -1},
	{ID: 10, Name: "blast_furnace", Slots: 3, Result: 2},
	{ID: 11, Name: "brewing_stand", Slots: 5, Result: -1},
	{ID: 12, Name: "crafting", Slots: 10, Result: 0},
	{ID: 13, Name: "enchantment", Slots: 2, Result: -1},
	{ID: 14, Name: "furnace", Slots: 3, Result: 2},
	{ID: 15, Name: "grindstone", Slots: 3, Result: 2},
	{ID: 16, Name: "hopper", Slots: 5, Result: -1},
	{ID: 17, Name: "lectern", Slots: 1, NoPlayer: true, Result: -1},
	{ID: 18, Name: "loom", Slots: 4, Result: 3},
	{ID: 19, Name: "merchant", Slots: 3, Result: 2},
	{ID: 20, Name: "shulker_box", Slots: 27, Result: -1},
	{ID: 21, Name: "smithing", Slots: 4, Result: 3},
	{ID: 22, Name: "smoker", Slots: 3, Result: 2},
	{ID: 23, Name: "cartography_table", Slots: 3, Result: 2},
	{ID: 24, Name: "stonecutter", Slots: 2, Result: 1},
}

// ByID returns the menu type with that registry id.
func ByID(id int32) (Menu, bool) {
	if id < 0 || int(id) >= len(menus) {
		return Menu{}, false
	}
	return menus[id], true
}

// ByName returns the menu type with that name ("minecraft:" optional).
func ByName(name string) (Menu, bool) {
	for _, m := range menus {
		if m.Name == name || "minecraft:"+m.Name == name {
			return m, true
		}
	}
	return Menu{}, false
}

// All lists the menu types in registry order.
func All() []Menu { return append([]Menu(nil), menus...) }
