package mcdata

// Items as people name them. "Collect coal" means breaking coal ore (and
// deepslate coal ore) and counting the coal that arrives; "get some wood"
// means logs of any kind. The answer is derived from the generated drops
// (Block.Loot) and item tags; only the words that are a convention rather
// than a name of the game are listed here, in itemWords.

import (
	"sort"
	"strings"
)

// itemWords are words people use for things to collect that are not the
// game's names, each mapped to an item or a tag (#). "Wood" in the game is
// the bark block, but a player asking for wood means logs; "iron" is ore
// to mine, so its raw item.
var itemWords = map[string]string{
	"wood":          "#logs",
	"woods":         "#logs",
	"log":           "#logs",
	"logs":          "#logs",
	"tree":          "#logs",
	"trees":         "#logs",
	"timber":        "#logs",
	"plank":         "#planks",
	"planks":        "#planks",
	"wooden_planks": "#planks",
	"wood_planks":   "#planks",
	"sapling":       "#saplings",
	"saplings":      "#saplings",
	"wool":          "#wool",
	"iron":          "raw_iron",
	"gold":          "raw_gold",
	"copper":        "raw_copper",
	"lapis":         "lapis_lazuli",
	"cobble":        "cobblestone",
	"seeds":         "wheat_seeds",
}

// ItemWords returns the convention words Gatherable knows, with what each
// stands for (an item name, or a tag after #).
func ItemWords() map[string]string {
	out := make(map[string]string, len(itemWords))
	for k, v := range itemWords {
		out[k] = v
	}
	return out
}

// Gatherable is what a word for something to collect means in the world.
type Gatherable struct {
	// Word is the word as understood: lower case, "minecraft:" and spaces
	// gone ("Oak Log" is oak_log).
	Word string
	// Items are the items that count: a collect counts these arriving in
	// the inventory.
	Items []ItemID
	// Sources are the blocks that always drop one of Items when broken
	// with a harvesting tool and without silk touch (stone for
	// cobblestone), in block id order; ByChance those that drop one only
	// sometimes (gravel for flint).
	Sources, ByChance []DropSource
	// AsBlock says the word named a block whose own item nothing drops
	// (stone, glass): Items are then what breaking that block gives.
	AsBlock bool
}

// Gatherable resolves a word a person says ("coal", "wood", "Oak Logs",
// "dirt", "iron") to the items that count and the blocks to break for
// them, and false when the version has no such item, block or word. An
// item name wins over a block name ("coal" is the item, so coal ore); a
// block whose item no block drops means what breaking it gives ("stone"
// is broken for cobblestone).
func (g *GameData) Gatherable(word string) (Gatherable, bool) {
	w := normalWord(word)
	out := Gatherable{Word: w}
	items, ok := g.wordItems(w)
	if !ok && strings.HasSuffix(w, "s") {
		for _, stem := range []string{strings.TrimSuffix(w, "s"), strings.TrimSuffix(w, "es")} {
			if items, ok = g.wordItems(stem); ok {
				out.Word = stem
				break
			}
		}
	}
	if !ok {
		return Gatherable{}, false
	}
	out.Items = items
	g.addSources(&out)
	if len(out.Sources) == 0 && len(out.ByChance) == 0 {
		if b := g.BlockByName(out.Word); b != nil && len(b.Loot) > 0 {
			out.AsBlock = true
			out.Items = nil
			for _, d := range b.Loot {
				if !d.Chance {
					out.Items = append(out.Items, d.Item)
				}
			}
			for _, d := range b.Loot {
				if !d.Chance {
					out.Sources = append(out.Sources, DropSource{Block: b, Drop: d})
				}
			}
		}
	}
	return out, true
}

func normalWord(word string) string {
	w := strings.ToLower(strings.TrimSpace(word))
	w = strings.TrimPrefix(w, "minecraft:")
	w = strings.Join(strings.FieldsFunc(w, func(r rune) bool { return r == ' ' || r == '-' || r == '_' }), "_")
	return w
}

// wordItems maps a normalized word to items: a convention word, an item
// name, or a tag name.
func (g *GameData) wordItems(w string) ([]ItemID, bool) {
	if target, ok := itemWords[w]; ok {
		if tag, isTag := strings.CutPrefix(target, "#"); isTag {
			if ids := g.ItemTag(tag); len(ids) > 0 {
				return ids, true
			}
			return nil, false
		}
		if it := g.ItemByName(target); it != nil {
			return []ItemID{it.ID}, true
		}
		return nil, false
	}
	if it := g.ItemByName(w); it != nil {
		return []ItemID{it.ID}, true
	}
	if ids := g.ItemTag(w); len(ids) > 0 {
		return ids, true
	}
	return nil, false
}

// addSources fills the blocks that drop any of out.Items, each block once.
func (g *GameData) addSources(out *Gatherable) {
	seen := map[BlockID]bool{}
	var sure, chance []DropSource
	for _, id := range out.Items {
		for _, s := range g.DropSources(id) {
			if seen[s.Block.ID] {
				continue
			}
			seen[s.Block.ID] = true
			if s.Drop.Chance {
				chance = append(chance, s)
			} else {
				sure = append(sure, s)
			}
		}
	}
	sortSources(sure)
	sortSources(chance)
	out.Sources, out.ByChance = sure, chance
}

func sortSources(s []DropSource) {
	sort.Slice(s, func(i, j int) bool { return s[i].Block.ID < s[j].Block.ID })
}
