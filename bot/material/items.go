package material

import (
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// placedBy names, for the blocks whose item has another name, the items
// that place one (a potted plant takes the pot and the plant; a filled
// cauldron, the cauldron and the bucket). Blocks with an item of their own
// name, wall variants ("oak_wall_sign" → "oak_sign") and the rules in
// ItemsFor need no entry.
var placedBy = map[string][]string{
	"wheat":                 {"wheat_seeds"},
	"carrots":               {"carrot"},
	"potatoes":              {"potato"},
	"beetroots":             {"beetroot_seeds"},
	"torchflower_crop":      {"torchflower_seeds"},
	"pitcher_crop":          {"pitcher_pod"},
	"pumpkin_stem":          {"pumpkin_seeds"},
	"attached_pumpkin_stem": {"pumpkin_seeds"},
	"melon_stem":            {"melon_seeds"},
	"attached_melon_stem":   {"melon_seeds"},
	"cocoa":                 {"cocoa_beans"},
	"sweet_berry_bush":      {"sweet_berries"},
	"cave_vines":            {"glow_berries"},
	"cave_vines_plant":      {"glow_berries"},
	"kelp_plant":            {"kelp"},
	"bamboo_sapling":        {"bamboo"},
	"weeping_vines_plant":   {"weeping_vines"},
	"twisting_vines_plant":  {"twisting_vines"},
	"big_dripleaf_stem":     {"big_dripleaf"},
	"redstone_wire":         {"redstone"},
	"tripwire":              {"string"},
	"water":                 {"water_bucket"},
	"lava":                  {"lava_bucket"},
	"powder_snow":           {"powder_snow_bucket"},
	"water_cauldron":        {"cauldron", "water_bucket"},
	"lava_cauldron":         {"cauldron", "lava_bucket"},
	"powder_snow_cauldron":  {"cauldron", "powder_snow_bucket"},
	// Potted azaleas are named for the bush; the items are the plants.
	"potted_azalea_bush":           {"flower_pot", "azalea"},
	"potted_flowering_azalea_bush": {"flower_pot", "flowering_azalea"},
}

// noItem are the blocks no item places: air, fluids' moving parts, fire,
// portals, technical blocks, and plants that only grow (tall seagrass
// comes from bone meal on seagrass).
var noItem = []string{
	"air", "cave_air", "void_air", "piston_head", "moving_piston", "fire", "soul_fire",
	"nether_portal", "end_portal", "end_gateway", "frosted_ice", "bubble_column", "tall_seagrass",
}

// ItemsFor returns the items that place one block of b, and false when no
// item does (air, fire, portals). Both parts of a door or bed name the
// same item; a plan counts it once, for the primary part (Parts.Primary).
func ItemsFor(g *mcdata.GameData, b *mcdata.Block) ([]string, bool) {
	for _, n := range noItem {
		if n == b.Name {
			return nil, false
		}
	}
	if items, ok := placedBy[b.Name]; ok {
		return existing(g, items)
	}
	if g.ItemByName(b.Name) != nil {
		return []string{b.Name}, true
	}
	// Wall variants are placed by the standing item: wall_torch,
	// oak_wall_sign, skeleton_wall_skull, tube_coral_wall_fan.
	if n := strings.Replace(b.Name, "wall_", "", 1); n != b.Name {
		if g.ItemByName(n) != nil {
			return []string{n}, true
		}
	}
	if plant, ok := strings.CutPrefix(b.Name, "potted_"); ok {
		return existing(g, []string{"flower_pot", plant})
	}
	if candle, ok := strings.CutSuffix(b.Name, "_cake"); ok && strings.HasSuffix(candle, "candle") {
		return existing(g, []string{"cake", candle})
	}
	return nil, false
}

// existing returns items if the version has every one of them.
func existing(g *mcdata.GameData, items []string) ([]string, bool) {
	for _, it := range items {
		if g.ItemByName(it) == nil {
			return nil, false
		}
	}
	return items, true
}
