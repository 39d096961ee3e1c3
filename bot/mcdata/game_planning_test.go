package mcdata_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/mcdata/internal/gen"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// lootOf renders a block's drops as "item×count" with "?" for a chance
// drop and "(grown)" for a grown crop's, sure drops first.
func lootOf(t *testing.T, g *mcdata.GameData, block string) string {
	t.Helper()
	b := g.BlockByName(block)
	if b == nil {
		t.Fatalf("%s: no block %s", g.Version, block)
	}
	var parts []string
	for _, d := range b.Loot {
		s := fmt.Sprintf("%s×%d", g.Item(d.Item).Name, d.Count)
		if d.Chance {
			s += "?"
		}
		if d.Grown {
			s += "(grown)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// TestBlockLootIsWhatAPlayerGets checks the drops against what a player
// knows from the game, on every version's data: stone gives cobblestone,
// ores their raw item, grass blocks dirt, gravel itself and flint by
// chance, leaves only chance drops, glass nothing without silk touch.
func TestBlockLootIsWhatAPlayerGets(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		t.Run(g.Version, func(t *testing.T) {
			for block, want := range map[string]string{
				"stone":              "cobblestone×1",
				"cobblestone":        "cobblestone×1",
				"deepslate":          "cobbled_deepslate×1",
				"coal_ore":           "coal×1",
				"deepslate_coal_ore": "coal×1",
				"iron_ore":           "raw_iron×1",
				"deepslate_iron_ore": "raw_iron×1",
				"diamond_ore":        "diamond×1",
				"grass_block":        "dirt×1",
				"dirt":               "dirt×1",
				"oak_log":            "oak_log×1",
				"sand":               "sand×1",
				"gravel":             "gravel×1 flint×1?",
				"oak_leaves":         "oak_sapling×1? apple×1? stick×1?",
				"birch_leaves":       "birch_sapling×1? stick×1?",
				"dark_oak_leaves":    "dark_oak_sapling×1? apple×1? stick×1?",
				"glass":              "",
				"clay":               "clay_ball×4",
				"bookshelf":          "book×3",
				"oak_slab":           "oak_slab×1",
				"short_grass":        "wheat_seeds×1?",
				"wheat":              "wheat_seeds×1 wheat×1(grown)",
				"cobweb":             "string×1",
				"crafting_table":     "crafting_table×1",
				"bedrock":            "",
			} {
				if got := lootOf(t, g, block); got != want {
					t.Errorf("%s drops %q, want %q", block, got, want)
				}
			}
			if g.BlockByName("pale_oak_leaves") != nil {
				if got := lootOf(t, g, "pale_oak_leaves"); got != "pale_oak_sapling×1? stick×1?" {
					t.Errorf("pale_oak_leaves drops %q", got)
				}
				if got := lootOf(t, g, "pale_oak_log"); got != "pale_oak_log×1" {
					t.Errorf("pale_oak_log drops %q (not in the 1.20 table: from blocks.json)", got)
				}
			}
			// minecraft-data's own list stays as it was for its users.
			stone := g.BlockByName("stone")
			if len(stone.Drops) != 1 || g.Item(stone.Drops[0]).Name != "cobblestone" {
				t.Errorf("stone's Drops changed: %v", stone.Drops)
			}
		})
	}
}

// TestDropSourcesFindTheBlocksForAnItem: the index a request for an item
// is answered from.
func TestDropSourcesFindTheBlocksForAnItem(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		sources := func(item string, chance bool) []string {
			var out []string
			for _, s := range g.DropSources(g.ItemByName(item).ID) {
				if s.Drop.Chance == chance {
					out = append(out, s.Block.Name)
				}
			}
			slices.Sort(out)
			return out
		}
		check := func(item string, chance bool, want ...string) {
			t.Helper()
			if got := sources(item, chance); !slices.Equal(got, want) {
				t.Errorf("%s: blocks that drop %s (chance %v): %v, want %v", g.Version, item, chance, got, want)
			}
		}
		check("coal", false, "coal_ore", "deepslate_coal_ore")
		check("raw_iron", false, "deepslate_iron_ore", "iron_ore")
		check("cobblestone", false, "cobblestone", "stone")
		check("flint", true, "gravel")
		dirt := sources("dirt", false)
		for _, want := range []string{"dirt", "grass_block", "podzol", "mycelium", "dirt_path", "farmland"} {
			if !slices.Contains(dirt, want) {
				t.Errorf("%s: %s does not drop dirt (dirt comes from %v)", g.Version, want, dirt)
			}
		}
		all := g.DropSources(g.ItemByName("flint").ID)
		if len(all) == 0 || !all[len(all)-1].Drop.Chance {
			t.Errorf("%s: flint's sources %v", g.Version, all)
		}
	}
}

// TestFurnaceFactsAreWhatAPlayerKnows checks the generated furnace table
// against the numbers every player learns: raw iron becomes an ingot in
// 200 ticks, coal burns 1600 ticks (8 items), planks 300, a stick 100, and
// nether wood does not burn.
func TestFurnaceFactsAreWhatAPlayerKnows(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		t.Run(g.Version, func(t *testing.T) {
			id := func(n string) mcdata.ItemID {
				it := g.ItemByName(n)
				if it == nil {
					t.Fatalf("no item %s", n)
				}
				return it.ID
			}
			smelts := func(in, out string, ticks int) {
				t.Helper()
				s, ok := g.SmeltingOf(id(in))
				if !ok || s.Output != id(out) || s.Ticks != ticks {
					t.Errorf("%s smelts into %+v (%v), want %s in %d ticks", in, s, ok, out, ticks)
				}
			}
			smelts("raw_iron", "iron_ingot", 200)
			smelts("iron_ore", "iron_ingot", 200)
			smelts("raw_gold", "gold_ingot", 200)
			smelts("raw_copper", "copper_ingot", 200)
			smelts("cobblestone", "stone", 200)
			smelts("stone", "smooth_stone", 200)
			smelts("sand", "glass", 200)
			smelts("red_sand", "glass", 200)
			smelts("oak_log", "charcoal", 200)
			smelts("stripped_birch_wood", "charcoal", 200)
			smelts("beef", "cooked_beef", 200)
			smelts("clay_ball", "brick", 200)
			if _, ok := g.SmeltingOf(id("crimson_stem")); ok {
				t.Error("crimson stems smelt into charcoal; they do not burn and are not #logs_that_burn")
			}
			if _, ok := g.SmeltingOf(id("dirt")); ok {
				t.Error("dirt smelts")
			}
			var ingotFrom []string
			for _, s := range g.SmeltingFor(id("iron_ingot")) {
				ingotFrom = append(ingotFrom, g.Item(s.Input).Name)
			}
			slices.Sort(ingotFrom)
			if !slices.Equal(ingotFrom, []string{"deepslate_iron_ore", "iron_ore", "raw_iron"}) {
				t.Errorf("iron ingots are smelted from %v", ingotFrom)
			}
			for item, ticks := range map[string]int{
				"coal": 1600, "charcoal": 1600, "coal_block": 16000, "lava_bucket": 20000, "blaze_rod": 2400,
				"oak_planks": 300, "birch_log": 300, "stripped_oak_wood": 300, "oak_slab": 150, "stick": 100,
				"oak_sapling": 100, "wooden_pickaxe": 200, "crafting_table": 300, "white_carpet": 67,
				"dried_kelp_block": 4001, "bamboo": 50, "oak_boat": 1200, "bamboo_raft": 1200,
				"crimson_planks": 0, "warped_stem": 0, "crimson_sign": 0, "cobblestone": 0, "iron_ingot": 0,
			} {
				if got := g.FuelTicks(id(item)); got != ticks {
					t.Errorf("%s burns %d ticks, want %d", item, got, ticks)
				}
			}
			if it := g.ItemByName("pale_oak_planks"); it != nil && g.FuelTicks(it.ID) != 300 {
				t.Errorf("pale oak planks burn %d ticks", g.FuelTicks(it.ID))
			}
			for _, f := range g.Fuels() {
				if g.FuelTicks(f) <= 0 {
					t.Errorf("%s is listed as a fuel but burns %d", g.Item(f).Name, g.FuelTicks(f))
				}
			}
		})
	}
}

// TestFurnaceFactNamesAreItems: every item furnace.txt names is an item of
// the newest release, so a typo in the table fails here instead of
// vanishing.
func TestFurnaceFactNamesAreItems(t *testing.T) {
	names, err := gen.FurnaceFactNames()
	if err != nil {
		t.Fatal(err)
	}
	g := newest(t)
	for _, n := range names {
		if g.ItemByName(n) == nil {
			t.Errorf("furnace.txt names %s, which is not an item of %s", n, g.Version)
		}
	}
}

// TestItemTagsMatchAServer compares the tags the generator derives from
// item names with the tags a 1.21.1 server sends at login, as flying-squid
// ships them (src/lib/plugins/loginTags.json, item ids of 1.21.1).
func TestItemTagsMatchAServer(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "peers", "node_modules", "flying-squid", "src", "lib", "plugins", "loginTags.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		if peertest.InCI() {
			t.Fatalf("%v; CI must run npm ci --prefix testdata/peers first", err)
		}
		t.Skip("flying-squid is not installed; run npm ci --prefix testdata/peers")
	}
	var dump struct {
		Tags []struct {
			TagType string
			Tags    []struct {
				TagName string
				Entries []int
			}
		}
	}
	if err := json.Unmarshal(raw, &dump); err != nil {
		t.Fatal(err)
	}
	g := mcdata.Game(767)
	server := map[string][]string{}
	for _, tt := range dump.Tags {
		if tt.TagType != "minecraft:item" {
			continue
		}
		for _, tag := range tt.Tags {
			var names []string
			for _, id := range tag.Entries {
				it := g.Item(mcdata.ItemID(id))
				if it == nil {
					t.Fatalf("%s lists item id %d, which %s lacks: the dump is not of this version", tag.TagName, id, g.Version)
				}
				names = append(names, it.Name)
			}
			slices.Sort(names)
			server[strings.TrimPrefix(tag.TagName, "minecraft:")] = names
		}
	}
	if !slices.Equal(server["planks"], []string{"acacia_planks", "bamboo_planks", "birch_planks", "cherry_planks", "crimson_planks", "dark_oak_planks", "jungle_planks", "mangrove_planks", "oak_planks", "spruce_planks", "warped_planks"}) {
		t.Fatalf("the dump's planks are %v: it is not a 1.21.1 server's", server["planks"])
	}
	tags := g.ItemTags()
	if len(tags) < 15 {
		t.Fatalf("only %d tags derived: %v", len(tags), tags)
	}
	for _, tag := range tags {
		want, ok := server[tag]
		if !ok {
			if tag == "wooden_shelves" { // 1.21.9's; none before
				continue
			}
			t.Errorf("the server sends no #%s", tag)
			continue
		}
		var got []string
		for _, id := range g.ItemTag(tag) {
			got = append(got, g.Item(id).Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("#%s:\n derived %v\n  server %v", tag, got, want)
		}
	}
	if g.ItemTag("#minecraft:logs") == nil || g.ItemTag("no_such_tag") != nil {
		t.Error("ItemTag does not take the game's spelling, or knows a tag it does not derive")
	}
}

// TestMobDropsNameTheMobs: the planner's "comes from blazes" is data.
func TestMobDropsNameTheMobs(t *testing.T) {
	g := newest(t)
	for item, mob := range map[string]string{"blaze_rod": "blaze", "ender_pearl": "enderman", "string": "spider", "gunpowder": "creeper", "leather": "cow"} {
		if got := g.MobsDropping(g.ItemByName(item).ID); !slices.Contains(got, mob) {
			t.Errorf("%s comes from %v, not from a %s", item, got, mob)
		}
	}
	if got := g.MobsDropping(g.ItemByName("diamond").ID); len(got) != 0 {
		t.Errorf("diamonds come from mobs %v", got)
	}
}

// TestDyeRecipesTakeWhite: minecraft-data writes the dye recipes with
// their first alternative colour only (blue wool from black wool, black
// from blue); the generator adds the white one a player dyes.
func TestDyeRecipesTakeWhite(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		for _, kind := range []string{"wool", "carpet", "bed"} {
			for _, colour := range []string{"blue", "black", "red"} {
				out := g.ItemByName(colour + "_" + kind)
				found := false
				for _, r := range g.RecipesFor(out.ID) {
					var names []string
					for _, in := range r.Inputs() {
						names = append(names, g.Item(in.Item).Name)
					}
					slices.Sort(names)
					found = found || slices.Equal(names, []string{colour + "_dye", "white_" + kind})
				}
				if !found {
					t.Errorf("%s: no recipe dyes white_%s %s", g.Version, kind, colour)
				}
			}
			if n := len(g.RecipesFor(g.ItemByName("white_" + kind).ID)); n == 0 {
				t.Errorf("%s: white_%s has no recipe", g.Version, kind)
			}
		}
	}
}
