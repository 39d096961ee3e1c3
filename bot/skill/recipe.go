package skill

import (
	"fmt"
	"sort"
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// ItemCount is an item by name and how many of it.
type ItemCount struct {
	Item  string `json:"item"`
	Count int    `json:"count"`
}

// Plan is what crafting count of an item takes, as mc_recipe reports it.
type Plan struct {
	Item string
	// Count is how many are wanted; Crafts how many times the recipe runs
	// and Makes how many items that gives (a recipe makes Makes/Crafts at
	// a time, so Makes can exceed Count).
	Count, Crafts, Makes int
	// Recipe is the recipe chosen among the item's (the one the bot lacks
	// least for), nil when the item has none.
	Recipe *mcdata.Recipe
	// Ingredients are what the crafts consume; Missing what the bot lacks
	// of them.
	Ingredients []ItemCount
	Missing     []ItemCount
	// NeedsTable says the recipe needs a crafting table's 3×3 grid.
	NeedsTable bool
}

// Ready says whether the bot carries everything the plan consumes.
func (p Plan) Ready() bool { return p.Recipe != nil && len(p.Missing) == 0 }

// PlanCraft chooses, among the item's crafting recipes, the one the bot is
// nearest to being able to make count of with what it carries (have: item
// name → count), and says what it consumes and what is missing. Among
// recipes equally near (oak, birch … planks) it takes the plainest
// material: ingredient names with the fewest words (cobblestone before
// cobbled_deepslate), then the first in the item registry (oak before the
// other woods, cobblestone before blackstone). An item without a crafting
// recipe is an error that says so.
func PlanCraft(g *mcdata.GameData, item string, count int, have map[string]int) (Plan, error) {
	it := g.ItemByName(item)
	if it == nil {
		return Plan{}, fmt.Errorf("%q is not an item of Minecraft %s", item, g.Version)
	}
	recipes := g.RecipesFor(it.ID)
	if len(recipes) == 0 {
		return Plan{Item: it.Name, Count: count}, fmt.Errorf("%s has no crafting recipe in Minecraft %s: it is found, mined, smelted or dropped, not crafted", it.Name, g.Version)
	}
	best := Plan{}
	bestMissing, bestWords, bestKey := -1, 0, 0
	for i := range recipes {
		p, missing, words, key := planRecipe(g, it.Name, &recipes[i], count, have)
		better := missing < bestMissing ||
			(missing == bestMissing && (words < bestWords || (words == bestWords && key < bestKey)))
		if bestMissing < 0 || better {
			best, bestMissing, bestWords, bestKey = p, missing, words, key
		}
	}
	return best, nil
}

// planRecipe is PlanCraft for one recipe: what count of the item takes by
// it, what of that is missing (and how many items in all), and the keys
// PlanCraft ranks equally near recipes by.
func planRecipe(g *mcdata.GameData, item string, r *mcdata.Recipe, count int, have map[string]int) (p Plan, missing, words, key int) {
	crafts := (count + r.Count - 1) / r.Count
	p = Plan{Item: item, Count: count, Crafts: crafts, Makes: crafts * r.Count, Recipe: r, NeedsTable: !r.FitsInventory()}
	for _, in := range r.Inputs() {
		name := g.Item(in.Item).Name
		need := in.Count * crafts
		p.Ingredients = append(p.Ingredients, ItemCount{name, need})
		if lack := need - have[name]; lack > 0 {
			p.Missing = append(p.Missing, ItemCount{name, lack})
			missing += lack
		}
		words += strings.Count(name, "_")
		key += int(in.Item)
	}
	sort.Slice(p.Ingredients, func(i, j int) bool { return p.Ingredients[i].Item < p.Ingredients[j].Item })
	sort.Slice(p.Missing, func(i, j int) bool { return p.Missing[i].Item < p.Missing[j].Item })
	return p, missing, words, key
}

// cells lays a recipe out in a grid width wide: for each grid cell (row by
// row, from the top left), the item id it takes, mcdata.NoItem for none. A
// shaped recipe goes to the top left corner; a shapeless one fills cells
// in order.
func cells(r *mcdata.Recipe, width int) []mcdata.ItemID {
	out := make([]mcdata.ItemID, width*width)
	for i := range out {
		out[i] = mcdata.NoItem
	}
	if r.Shaped {
		for y := 0; y < r.Height; y++ {
			for x := 0; x < r.Width; x++ {
				out[y*width+x] = r.Grid[y*r.Width+x]
			}
		}
		return out
	}
	copy(out, r.Ingredients)
	return out
}
