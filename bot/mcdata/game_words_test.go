package mcdata_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// TestGatherableTakesItemsAsPeopleNameThem checks the words of the issue
// on every version: coal means the ores that drop coal, cobblestone stone
// too, dirt the grassy blocks that drop it, wood and logs any log kind.
func TestGatherableTakesItemsAsPeopleNameThem(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		t.Run(g.Version, func(t *testing.T) {
			names := func(ids []mcdata.ItemID) []string {
				var out []string
				for _, id := range ids {
					out = append(out, g.Item(id).Name)
				}
				return out
			}
			blocks := func(ss []mcdata.DropSource) []string {
				var out []string
				for _, s := range ss {
					out = append(out, s.Block.Name)
				}
				slices.Sort(out)
				return out
			}
			get := func(word string) mcdata.Gatherable {
				t.Helper()
				r, ok := g.Gatherable(word)
				if !ok {
					t.Fatalf("%q is not understood", word)
				}
				return r
			}
			check := func(word, items, sources string) {
				t.Helper()
				r := get(word)
				if got := strings.Join(names(r.Items), " "); items != "" && got != items {
					t.Errorf("%q counts %s, want %s", word, got, items)
				}
				if got := strings.Join(blocks(r.Sources), " "); got != sources {
					t.Errorf("%q is mined from %s, want %s", word, got, sources)
				}
			}
			check("coal", "coal", "coal_ore deepslate_coal_ore")
			check("Coal", "coal", "coal_ore deepslate_coal_ore")
			check("cobblestone", "cobblestone", "cobblestone stone")
			check("iron", "raw_iron", "deepslate_iron_ore iron_ore")
			check("raw_iron", "raw_iron", "deepslate_iron_ore iron_ore")
			check("diamonds", "diamond", "deepslate_diamond_ore diamond_ore")
			check("Oak Logs", "oak_log", "oak_log")
			check("minecraft:sand", "sand", "sand")
			dirt := blocks(get("dirt").Sources)
			for _, b := range []string{"dirt", "grass_block", "podzol", "mycelium"} {
				if !slices.Contains(dirt, b) {
					t.Errorf("dirt is not mined from %s (only %v)", b, dirt)
				}
			}
			for _, w := range []string{"wood", "logs", "log"} {
				r := get(w)
				items := names(r.Items)
				for _, want := range []string{"oak_log", "birch_log", "spruce_log", "jungle_log", "acacia_log", "dark_oak_log", "mangrove_log", "cherry_log", "crimson_stem"} {
					if !slices.Contains(items, want) {
						t.Errorf("%q does not count %s: %v", w, want, items)
					}
				}
				if src := blocks(r.Sources); !slices.Contains(src, "oak_log") || !slices.Contains(src, "birch_log") {
					t.Errorf("%q is mined from %v", w, src)
				}
			}
			if r := get("planks"); !slices.Contains(names(r.Items), "birch_planks") {
				t.Errorf("planks are %v", names(r.Items))
			}
			stone := get("stone")
			if !stone.AsBlock || strings.Join(names(stone.Items), " ") != "cobblestone" || strings.Join(blocks(stone.Sources), " ") != "stone" {
				t.Errorf("stone: %+v", stone)
			}
			flint := get("flint")
			if len(flint.Sources) != 0 || strings.Join(blocks(flint.ByChance), " ") != "gravel" {
				t.Errorf("flint is mined from %v, by chance from %v", blocks(flint.Sources), blocks(flint.ByChance))
			}
			if _, ok := g.Gatherable("unobtainium"); ok {
				t.Error("a word the game lacks is understood")
			}
		})
	}
}

// TestItemWordsNameRealThings: every convention word stands for an item
// or a tag of every version.
func TestItemWordsNameRealThings(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		for word, target := range mcdata.ItemWords() {
			if tag, ok := strings.CutPrefix(target, "#"); ok {
				if len(g.ItemTag(tag)) == 0 {
					t.Errorf("%s: %q stands for #%s, which has no items", g.Version, word, tag)
				}
			} else if g.ItemByName(target) == nil {
				t.Errorf("%s: %q stands for %s, not an item", g.Version, word, target)
			}
		}
	}
}
