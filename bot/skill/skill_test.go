package skill

import (
	"fmt"
	"testing"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/mcdata"
)

// everyGame is the static data of every protocol the bot speaks.
func everyGame(t *testing.T) []*mcdata.GameData {
	t.Helper()
	var out []*mcdata.GameData
	for _, p := range codec.Defined() {
		g := mcdata.Game(p)
		if g == nil {
			t.Fatalf("no game data for protocol %d", p)
		}
		out = append(out, g)
	}
	return out
}

// TestPlanCraftFromTheVersionsRecipes checks the plans mc_recipe and
// mc_craft follow on every version's recipe data: the counts of the
// recipes people ask for first, the variant chosen for what the bot
// carries (birch planks when it has birch, oak when it has none), what is
// missing, and where a table is needed.
func TestPlanCraftFromTheVersionsRecipes(t *testing.T) {
	for _, g := range everyGame(t) {
		t.Run(g.Version, func(t *testing.T) {
			check := func(item string, count int, have map[string]int, want string) {
				t.Helper()
				p, err := PlanCraft(g, item, count, have)
				if err != nil {
					t.Fatalf("PlanCraft(%s, %d, %v): %v", item, count, have, err)
				}
				got := fmt.Sprintf("crafts %d makes %d table %v uses %v missing %v", p.Crafts, p.Makes, p.NeedsTable, p.Ingredients, p.Missing)
				if got != want {
					t.Errorf("PlanCraft(%s, %d, %v):\n got %s\nwant %s", item, count, have, got, want)
				}
			}
			check("oak_planks", 5, map[string]int{"oak_log": 1}, "crafts 2 makes 8 table false uses [{oak_log 2}] missing [{oak_log 1}]")
			check("stick", 4, map[string]int{"birch_planks": 2}, "crafts 1 makes 4 table false uses [{birch_planks 2}] missing []")
			check("stick", 4, nil, "crafts 1 makes 4 table false uses [{oak_planks 2}] missing [{oak_planks 2}]")
			check("crafting_table", 1, map[string]int{"oak_planks": 4}, "crafts 1 makes 1 table false uses [{oak_planks 4}] missing []")
			check("wooden_pickaxe", 1, map[string]int{"oak_planks": 3, "stick": 1}, "crafts 1 makes 1 table true uses [{oak_planks 3} {stick 2}] missing [{stick 1}]")
			check("stone_pickaxe", 2, map[string]int{"cobblestone": 6, "stick": 4}, "crafts 2 makes 2 table true uses [{cobblestone 6} {stick 4}] missing []")
			check("furnace", 1, nil, "crafts 1 makes 1 table true uses [{cobblestone 8}] missing [{cobblestone 8}]")

			if _, err := PlanCraft(g, "oak_log", 1, nil); err == nil {
				t.Error("oak_log has no recipe, but PlanCraft planned one")
			}
			if _, err := PlanCraft(g, "no_such_item", 1, nil); err == nil {
				t.Error("PlanCraft planned an item the version lacks")
			}
		})
	}
}

// TestCellsLayRecipesOutInTheGrid checks the grid layout: a shaped recipe
// at the top left of a 2×2 or 3×3 grid, a shapeless one in order.
func TestCellsLayRecipesOutInTheGrid(t *testing.T) {
	g := mcdata.Game(codec.Defined()[0])
	name := func(ids []mcdata.ItemID) []string {
		var out []string
		for _, id := range ids {
			if id == mcdata.NoItem {
				out = append(out, "-")
			} else {
				out = append(out, g.Item(id).Name)
			}
		}
		return out
	}
	p, _ := PlanCraft(g, "stick", 4, map[string]int{"oak_planks": 2})
	if got := fmt.Sprint(name(cells(p.Recipe, 2))); got != "[oak_planks - oak_planks -]" {
		t.Errorf("sticks in the 2×2 grid: %s", got)
	}
	p, _ = PlanCraft(g, "wooden_pickaxe", 1, map[string]int{"oak_planks": 3, "stick": 2})
	if got := fmt.Sprint(name(cells(p.Recipe, 3))); got != "[oak_planks oak_planks oak_planks - stick - - stick -]" {
		t.Errorf("a pickaxe in the 3×3 grid: %s", got)
	}
	p, _ = PlanCraft(g, "oak_planks", 4, map[string]int{"oak_log": 1})
	if got := fmt.Sprint(name(cells(p.Recipe, 2))); got != "[oak_log - - -]" {
		t.Errorf("planks in the 2×2 grid: %s", got)
	}
}

// TestBestFood checks the choice of food: the most saturation, nothing
// harmful unless that is all there is, nothing that is not food.
func TestBestFood(t *testing.T) {
	for _, g := range everyGame(t) {
		for _, c := range []struct {
			have map[string]int
			want string
		}{
			{map[string]int{"bread": 1, "apple": 3, "cooked_beef": 1, "dirt": 5}, "cooked_beef"},
			{map[string]int{"bread": 1, "apple": 3}, "bread"},
			{map[string]int{"rotten_flesh": 2, "apple": 1}, "apple"},
			{map[string]int{"rotten_flesh": 2, "stick": 1}, "rotten_flesh"},
			{map[string]int{"stick": 1}, ""},
		} {
			if got, _ := BestFood(g, c.have); got != c.want {
				t.Errorf("%s: BestFood(%v) = %q, want %q", g.Version, c.have, got, c.want)
			}
		}
	}
}

// TestChooseFuel checks the fuel choice: the named one, else the best
// carried, never the item being smelted.
func TestChooseFuel(t *testing.T) {
	for _, c := range []struct {
		have         map[string]int
		named, input string
		want         string
		ok           bool
	}{
		{map[string]int{"coal": 1, "oak_planks": 4}, "", "raw_iron", "coal", true},
		{map[string]int{"oak_log": 3, "stick": 2}, "", "oak_log", "stick", true},
		{map[string]int{"oak_log": 3, "birch_log": 1}, "", "oak_log", "birch_log", true},
		{map[string]int{"stripped_oak_log": 3}, "", "sand", "", false},
		{map[string]int{"stick": 2}, "stick", "oak_log", "stick", true},
		{map[string]int{"stick": 2}, "coal", "oak_log", "coal", false},
		{map[string]int{"dirt": 2}, "", "sand", "", false},
	} {
		got, ok := chooseFuel(c.have, c.named, c.input)
		if got != c.want || ok != c.ok {
			t.Errorf("chooseFuel(%v, %q, %q) = %q, %v; want %q, %v", c.have, c.named, c.input, got, ok, c.want, c.ok)
		}
	}
}
