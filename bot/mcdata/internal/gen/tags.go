package gen

// Item tags. minecraft-data has no tags, and the furnace facts (fuels by
// tag, charcoal from #logs_that_burn) and the planner's words ("logs",
// "planks") need some. The game builds these tags from its wood families
// and dye colours, so they follow from the release's item names: a wood is
// a name X with an X_planks item, a colour a name C with a C_dye item. The
// tags test (bot/mcdata/game_planning_test.go) checks every rule below
// against the tags a 1.21.1 server sends (flying-squid's loginTags.json),
// so a rule that drifts from the game fails there.

import (
	"sort"
	"strings"
)

// woodSuffixes are the items each wood family makes, as tag name → item
// name suffix. A wood X has item X+suffix; "stripped_" families are listed
// in logFamilies.
var woodSuffixes = map[string]string{
	"planks":                 "_planks",
	"wooden_stairs":          "_stairs",
	"wooden_slabs":           "_slab",
	"wooden_fences":          "_fence",
	"fence_gates":            "_fence_gate",
	"wooden_doors":           "_door",
	"wooden_trapdoors":       "_trapdoor",
	"wooden_pressure_plates": "_pressure_plate",
	"wooden_buttons":         "_button",
	"wooden_shelves":         "_shelf",
	"signs":                  "_sign",
	"hanging_signs":          "_hanging_sign",
}

// logForms are the log items of a wood X: the log and its bark block, and
// the nether woods' stem and hyphae, each also stripped.
var logForms = []string{"%_log", "%_wood", "stripped_%_log", "stripped_%_wood", "%_stem", "%_hyphae", "stripped_%_stem", "stripped_%_hyphae"}

// netherWoods are the woods that do not burn (the game's
// #non_flammable_wood is every item of these two families). Which woods
// burn is a property of the game's blocks that minecraft-data does not
// carry, so it is named here.
var netherWoods = []string{"crimson", "warped"}

// deriveTags returns the item tags the furnace facts and the planner use,
// each sorted by item name, for one release's item names.
func deriveTags(items map[string]int) map[string][]string {
	has := func(n string) bool { _, ok := items[n]; return ok }
	var woods, colours []string
	for n := range items {
		if w, ok := strings.CutSuffix(n, "_planks"); ok {
			woods = append(woods, w)
		}
		if c, ok := strings.CutSuffix(n, "_dye"); ok {
			colours = append(colours, c)
		}
	}
	sort.Strings(woods)
	sort.Strings(colours)
	tags := map[string][]string{}
	add := func(tag, name string) {
		if has(name) {
			tags[tag] = append(tags[tag], name)
		}
	}
	nether := func(w string) bool {
		for _, n := range netherWoods {
			if w == n {
				return true
			}
		}
		return false
	}
	for _, w := range woods {
		for tag, suffix := range woodSuffixes {
			add(tag, w+suffix)
			if nether(w) {
				add("non_flammable_wood", w+suffix)
			}
		}
		for _, form := range logForms {
			name := strings.ReplaceAll(form, "%", w)
			add("logs", name)
			if nether(w) {
				add("non_flammable_wood", name)
			} else {
				add("logs_that_burn", name)
			}
		}
		// Boats are the woods' boats and chest boats; bamboo makes rafts.
		for _, s := range []string{"_boat", "_chest_boat", "_raft", "_chest_raft"} {
			add("boats", w+s)
		}
	}
	for _, c := range colours {
		add("wool", c+"_wool")
		add("wool_carpets", c+"_carpet")
		add("banners", c+"_banner")
	}
	add("bamboo_blocks", "bamboo_block")
	add("bamboo_blocks", "stripped_bamboo_block")
	for n := range items {
		switch {
		case strings.HasSuffix(n, "_sapling"), n == "mangrove_propagule", n == "azalea", n == "flowering_azalea":
			tags["saplings"] = append(tags["saplings"], n)
		case strings.HasSuffix(n, "_leaves"):
			tags["leaves"] = append(tags["leaves"], n)
		}
	}
	// Glass is smelted from either sand (the game's #smelts_to_glass).
	add("smelts_to_glass", "sand")
	add("smelts_to_glass", "red_sand")
	for _, list := range tags {
		sort.Strings(list)
	}
	return tags
}
