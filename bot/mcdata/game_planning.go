package mcdata

// The facts a planner stands on beyond the crafting recipes: what breaking
// a block gives, what a furnace smelts and burns, which mobs drop what, and
// the item tags those facts use. All are generated
// (bot/mcdata/internal/gen/planning.go, from minecraft-data's loot tables
// and blockmate's furnace.txt) and, like the rest of GameData, shared and
// read-only.

import (
	"sort"
	"strings"
)

// BlockDrop is one item a block drops when broken with a tool that
// harvests it (Block.HarvestTools) and without silk touch.
type BlockDrop struct {
	Item ItemID
	// Count is the fewest one block gives, fortune aside: 1 for most
	// blocks, 4 clay balls from clay, 3 books from a bookshelf.
	Count int
	// Chance says the block drops the item only sometimes (flint from
	// gravel, saplings and apples from leaves): a plan cannot count on it.
	Chance bool
	// Grown says only a fully grown crop drops it (wheat from wheat).
	Grown bool
}

// DropSource is a block that drops an item, and how.
type DropSource struct {
	Block *Block
	Drop  BlockDrop
}

// Smelting is one furnace recipe: one Input becomes one Output in Ticks.
type Smelting struct {
	Input, Output ItemID
	Ticks         int
}

type planningData struct {
	smelting   []Smelting // by output, then input
	smeltStart []int32    // smelting[smeltStart[id]:smeltStart[id+1]] make item id
	smeltOf    []int32    // per input item: index into smelting, -1 for none
	fuelTicks  []int32    // per item: burn ticks, 0 when it does not burn
	fuels      []ItemID
	mobs       map[ItemID][]string
	tags       map[string][]ItemID
	sources    [][]DropSource // per item: the blocks that drop it
}

// DropSources returns the blocks that drop the item when broken without
// silk touch: those that always drop it first, then the chance drops, each
// in block id order. The slice is shared: do not modify it.
func (g *GameData) DropSources(item ItemID) []DropSource {
	if uint32(item) >= uint32(len(g.planning.sources)) {
		return nil
	}
	return g.planning.sources[item]
}

// SmeltingFor returns the furnace recipes that make the item, by input id.
// The slice is shared: do not modify it.
func (g *GameData) SmeltingFor(output ItemID) []Smelting {
	p := &g.planning
	if uint32(output)+1 >= uint32(len(p.smeltStart)) {
		return nil
	}
	return p.smelting[p.smeltStart[output]:p.smeltStart[output+1]]
}

// SmeltingOf returns what a furnace makes of the item, and false when it
// does not smelt.
func (g *GameData) SmeltingOf(input ItemID) (Smelting, bool) {
	p := &g.planning
	if uint32(input) >= uint32(len(p.smeltOf)) || p.smeltOf[input] < 0 {
		return Smelting{}, false
	}
	return p.smelting[p.smeltOf[input]], true
}

// SmeltingRecipes returns every furnace recipe, by output then input. The
// slice is shared: do not modify it.
func (g *GameData) SmeltingRecipes() []Smelting { return g.planning.smelting }

// FuelTicks is how many ticks the item burns in a furnace, 0 when it is no
// fuel. A furnace smelts one item in 200 ticks, so coal (1600) smelts 8.
func (g *GameData) FuelTicks(item ItemID) int {
	if uint32(item) >= uint32(len(g.planning.fuelTicks)) {
		return 0
	}
	return int(g.planning.fuelTicks[item])
}

// Fuels lists the items that burn, by id. The slice is shared: do not
// modify it.
func (g *GameData) Fuels() []ItemID { return g.planning.fuels }

// MobsDropping returns the names of the mobs that can drop the item when
// killed (minecraft-data's entity loot), sorted. The slice is shared: do
// not modify it.
func (g *GameData) MobsDropping(item ItemID) []string { return g.planning.mobs[item] }

// ItemTag returns the members of an item tag ("logs", "planks",
// "logs_that_burn", "wool" …; "minecraft:" and "#" prefixes are accepted),
// by id, or nil for a tag blockmate does not derive. The tags are derived
// from the release's item names as the game builds them (the generator's
// tags.go) and checked against a 1.21.1 server's. The slice is shared: do
// not modify it.
func (g *GameData) ItemTag(name string) []ItemID {
	name = strings.TrimPrefix(strings.TrimPrefix(name, "#"), "minecraft:")
	return g.planning.tags[name]
}

// ItemTags lists the names of the tags ItemTag knows.
func (g *GameData) ItemTags() []string {
	out := make([]string, 0, len(g.planning.tags))
	for n := range g.planning.tags {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
