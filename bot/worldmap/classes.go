// Package worldmap draws the world seen from above: for each column of
// blocks around a point, the class of its top block (grass, water, stone,
// leaves …), read from a snapshot of the block store. It is pure (a
// world.View and the version's static data in, a grid out), so it is
// tested on built columns and benchmarked without a session.
//
// The classes come from one table of block-name patterns (rules), applied
// to whatever version's block list the bot joined with: a block added by a
// later version falls into the class its name says (a *_leaves is leaves)
// or into "other", never into a table of its own.
package worldmap

import (
	"strings"
	"sync"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot/mcdata"
)

// Class is what a column looks like from above.
type Class uint8

const (
	// Unknown is a column whose chunk the bot has not loaded.
	Unknown Class = iota
	// Empty is a loaded column with no block at all (the void of the End).
	Empty
	Grass
	Dirt
	Sand
	Stone
	Water
	Lava
	Leaves
	Wood
	Snow
	Ice
	Nether
	Mineral
	Plant
	Built
	Other
	numClasses
)

// through marks states the map sees through: air, and blocks without a
// collision box that hold no fluid (flowers, short grass, torches, rails).
const through Class = 255

// classInfo is each class's letter in mc_map's rows and its name in the
// legend. Letters are lowercase so a reader can overlay players with
// capitals.
var classInfo = [numClasses]struct {
	letter byte
	name   string
}{
	Unknown: {' ', api.MapUnknown},
	Empty:   {'.', api.MapEmpty},
	Grass:   {'g', api.MapGrass},
	Dirt:    {'d', api.MapDirt},
	Sand:    {'s', api.MapSand},
	Stone:   {'r', api.MapStone},
	Water:   {'w', api.MapWater},
	Lava:    {'l', api.MapLava},
	Leaves:  {'f', api.MapLeaves},
	Wood:    {'t', api.MapWood},
	Snow:    {'n', api.MapSnow},
	Ice:     {'i', api.MapIce},
	Nether:  {'x', api.MapNether},
	Mineral: {'m', api.MapMineral},
	Plant:   {'p', api.MapPlant},
	Built:   {'b', api.MapBuilt},
	Other:   {'o', api.MapOther},
}

// Letter is the class's character in mc_map's rows.
func (c Class) Letter() byte {
	if c >= numClasses {
		return classInfo[Other].letter
	}
	return classInfo[c].letter
}

// Name is the class's name in mc_map's legend.
func (c Class) Name() string {
	if c >= numClasses {
		return classInfo[Other].name
	}
	return classInfo[c].name
}

// rules classify a block by its name, first match wins. A pattern is a
// name, "*suffix", "prefix*" or "*part*". Blocks no rule names are Other.
// Fluids are not here: water and lava come from the state's fluid, so a
// kelp or a bubble column reads as water.
var rules = []struct {
	pattern string
	class   Class
}{
	// Plants and snow first: "*_mushroom_block" is a plant, not a mineral
	// "*_block"; "snow_block" is snow.
	{"grass_block", Grass}, {"moss_block", Grass}, {"moss_carpet", Grass}, {"pale_moss_block", Grass}, {"pale_moss_carpet", Grass},
	{"snow", Snow}, {"snow_block", Snow}, {"powder_snow", Snow},
	{"ice", Ice}, {"packed_ice", Ice}, {"blue_ice", Ice}, {"frosted_ice", Ice},
	{"*_leaves", Leaves}, {"azalea", Leaves}, {"flowering_azalea", Leaves},
	{"*_mushroom_block", Plant}, {"mushroom_stem", Plant}, {"cactus", Plant}, {"pumpkin", Plant}, {"carved_pumpkin", Plant},
	{"jack_o_lantern", Plant}, {"melon", Plant}, {"hay_block", Plant}, {"bamboo", Plant}, {"lily_pad", Plant}, {"dried_kelp_block", Plant},
	{"sugar_cane", Plant}, {"*_wart_block", Nether},
	// Wood: trunks and stems as they grow; planks and what is made of
	// them are built.
	{"*_log", Wood}, {"*_wood", Wood}, {"*_stem", Wood}, {"*_hyphae", Wood}, {"bamboo_block", Wood}, {"stripped_bamboo_block", Wood},
	{"dirt", Dirt}, {"coarse_dirt", Dirt}, {"rooted_dirt", Dirt}, {"podzol", Dirt}, {"mycelium", Dirt}, {"mud", Dirt},
	{"muddy_mangrove_roots", Dirt}, {"farmland", Dirt}, {"dirt_path", Dirt}, {"clay", Dirt}, {"packed_mud", Dirt}, {"mangrove_roots", Dirt},
	{"sand", Sand}, {"red_sand", Sand}, {"suspicious_sand", Sand}, {"sandstone", Sand}, {"red_sandstone", Sand},
	{"chiseled_sandstone", Sand}, {"cut_sandstone", Sand}, {"chiseled_red_sandstone", Sand}, {"cut_red_sandstone", Sand},
	{"*_ore", Mineral}, {"ancient_debris", Mineral}, {"raw_*_block", Mineral}, {"coal_block", Mineral}, {"iron_block", Mineral},
	{"gold_block", Mineral}, {"diamond_block", Mineral}, {"emerald_block", Mineral}, {"lapis_block", Mineral},
	{"redstone_block", Mineral}, {"netherite_block", Mineral}, {"amethyst_block", Mineral}, {"budding_amethyst", Mineral},
	{"copper_block", Mineral}, {"*_copper", Mineral}, {"quartz_block", Mineral},
	{"netherrack", Nether}, {"*_nylium", Nether}, {"soul_sand", Nether}, {"soul_soil", Nether}, {"magma_block", Nether},
	{"glowstone", Nether}, {"shroomlight", Nether}, {"basalt", Nether}, {"smooth_basalt", Stone}, {"polished_basalt", Nether},
	{"blackstone", Nether},
	{"stone", Stone}, {"cobblestone", Stone}, {"mossy_cobblestone", Stone}, {"granite", Stone}, {"diorite", Stone},
	{"andesite", Stone}, {"deepslate", Stone}, {"cobbled_deepslate", Stone}, {"tuff", Stone}, {"calcite", Stone},
	{"dripstone_block", Stone}, {"pointed_dripstone", Stone}, {"bedrock", Stone}, {"gravel", Stone}, {"suspicious_gravel", Stone},
	{"obsidian", Stone}, {"crying_obsidian", Stone}, {"end_stone", Stone}, {"infested_*", Stone}, {"*terracotta", Stone},
	{"sculk", Stone}, {"*_planks", Built}, {"*brick*", Built}, {"*concrete*", Built}, {"*_wool", Built}, {"*glass*", Built},
	{"*_slab", Built}, {"*_stairs", Built}, {"*_wall", Built}, {"*_fence", Built}, {"*_fence_gate", Built}, {"*door", Built},
	{"*_carpet", Built}, {"*_bed", Built}, {"polished_*", Built}, {"smooth_*", Built}, {"chiseled_*", Built}, {"cut_*", Built},
	{"purpur_*", Built}, {"crafting_table", Built}, {"furnace", Built}, {"chest", Built}, {"barrel", Built},
}

// match reports whether name fits pattern (see rules).
func match(pattern, name string) bool {
	star := strings.Count(pattern, "*")
	switch {
	case star == 0:
		return pattern == name
	case star == 2 && strings.HasPrefix(pattern, "*") && strings.HasSuffix(pattern, "*"):
		return strings.Contains(name, pattern[1:len(pattern)-1])
	case strings.HasPrefix(pattern, "*"):
		return strings.HasSuffix(name, pattern[1:])
	case strings.HasSuffix(pattern, "*"):
		return strings.HasPrefix(name, pattern[:len(pattern)-1])
	default: // prefix*suffix
		pre, suf, _ := strings.Cut(pattern, "*")
		return len(name) >= len(pre)+len(suf) && strings.HasPrefix(name, pre) && strings.HasSuffix(name, suf)
	}
}

// classOfName is the rules' class for a block name.
func classOfName(name string) Class {
	for _, r := range rules {
		if match(r.pattern, name) {
			return r.class
		}
	}
	return Other
}

// Table is one version's class per block state.
type Table struct {
	byState []Class
}

// Of is the class of a state as seen from above, or through (see-through).
func (t *Table) of(st mcdata.StateID) Class {
	if uint32(st) >= uint32(len(t.byState)) {
		return Other
	}
	return t.byState[st]
}

// Of is the class of a state seen from above; ok is false for a state the
// map looks through (air, flowers, torches).
func (t *Table) Of(st mcdata.StateID) (c Class, ok bool) {
	c = t.of(st)
	return c, c != through
}

var tables sync.Map // *mcdata.GameData → *Table

// Classes returns the class table of a version's block states, built once
// per version (a byte per state: about 28 KB) and shared.
func Classes(g *mcdata.GameData) *Table {
	if t, ok := tables.Load(g); ok {
		return t.(*Table)
	}
	byBlock := make([]Class, len(g.Blocks))
	for i := range g.Blocks {
		byBlock[i] = classOfName(g.Blocks[i].Name)
	}
	t := &Table{byState: make([]Class, g.NumStates())}
	for i := range t.byState {
		st := mcdata.StateID(i)
		b := g.BlockOf(st)
		switch {
		case b == nil:
			t.byState[i] = Other
		case g.IsAir(st):
			t.byState[i] = through
		case len(g.Shapes(st)) > 0:
			// A block with a collision box shows, waterlogged or not.
			t.byState[i] = byBlock[b.ID]
		case g.Fluid(st).Kind == mcdata.Water:
			t.byState[i] = Water
		case g.Fluid(st).Kind == mcdata.Lava:
			t.byState[i] = Lava
		case byBlock[b.ID] == Snow:
			// A thin snow layer (no box at one layer) and powder snow
			// still cover the ground white.
			t.byState[i] = Snow
		default:
			t.byState[i] = through
		}
	}
	got, _ := tables.LoadOrStore(g, t)
	return got.(*Table)
}
