package tools

import (
	"slices"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/plan"
	"github.com/blockmate/blockmate/bot/skill"
)

func planLines(p *craftPlan) []string {
	var out []string
	for _, s := range p.Steps {
		out = append(out, s.String())
	}
	return out
}

func mustPlanCraft(t *testing.T, g *mcdata.GameData, item string, count int, carried map[string]int, tableNear bool) *craftPlan {
	t.Helper()
	p, err := planCraft(g, item, count, carried, tableNear)
	if err != nil {
		t.Fatalf("%s: planCraft %s: %v", g.Version, item, err)
	}
	return p
}

// TestCraftPlanMissingIsTheWholeTree: from an empty inventory a wooden
// pickaxe lacks the logs for its planks, its sticks' planks and the
// crafting table's, in one entry; with a table carried the table is placed,
// never named as missing; with one in reach none is made.
func TestCraftPlanMissingIsTheWholeTree(t *testing.T) {
	for _, proto := range []int32{767, 769} {
		g := mcdata.Game(proto)
		p := mustPlanCraft(t, g, "wooden_pickaxe", 1, nil, false)
		if p.Runnable() || len(p.Missing) != 1 || p.Missing[0].Item != "oak_log" || p.Missing[0].Count != 3 || !slices.Equal(p.Missing[0].From, []string{"oak_log"}) {
			t.Errorf("%s: wooden_pickaxe from nothing: runnable %v, missing %+v, steps %v", g.Version, p.Runnable(), p.Missing, planLines(p))
		}
		p = mustPlanCraft(t, g, "wooden_pickaxe", 1, map[string]int{"crafting_table": 1}, false)
		if len(p.Missing) != 1 || p.Missing[0].Item != "oak_log" || p.Missing[0].Count != 2 {
			t.Errorf("%s: wooden_pickaxe with a table carried: missing %+v, steps %v", g.Version, p.Missing, planLines(p))
		}
		if !slices.ContainsFunc(p.Steps, func(s plan.Step) bool { return s.Kind == plan.PlaceTable }) {
			t.Errorf("%s: the carried table is not placed: %v", g.Version, planLines(p))
		}
		p = mustPlanCraft(t, g, "wooden_pickaxe", 1, map[string]int{"oak_log": 2}, true)
		if !p.Runnable() || slices.ContainsFunc(p.Steps, func(s plan.Step) bool { return s.Item == "crafting_table" }) {
			t.Errorf("%s: wooden_pickaxe from 2 logs beside a table: runnable %v, steps %v", g.Version, p.Runnable(), planLines(p))
		}
	}
}

// TestCraftPlanChoosesWhatIsCarried: birch logs make birch planks, and the
// table the plan makes is placed before the first 3×3 craft.
func TestCraftPlanChoosesWhatIsCarried(t *testing.T) {
	g := mcdata.Game(767)
	p := mustPlanCraft(t, g, "wooden_pickaxe", 1, map[string]int{"birch_log": 3}, false)
	if !p.Runnable() {
		t.Fatalf("wooden_pickaxe from 3 birch logs is not runnable: %+v %v", p.Missing, planLines(p))
	}
	placed := -1
	for i, s := range p.Steps {
		for _, u := range s.Uses {
			if strings.HasSuffix(u.Item, "_planks") && u.Item != "birch_planks" {
				t.Errorf("step %s uses %s, not the birch planks the logs make", s, u.Item)
			}
		}
		if s.Kind == plan.PlaceTable {
			placed = i
		}
		if s.Kind == plan.Craft && s.Table && (placed < 0 || placed > i) {
			t.Errorf("step %s runs at a table before one is placed: %v", s, planLines(p))
		}
	}
	t.Logf("wooden_pickaxe from 3 birch logs: %v", planLines(p))
	if last := p.Steps[len(p.Steps)-1]; last.Item != "wooden_pickaxe" || placed < 0 {
		t.Errorf("steps %v", planLines(p))
	}
}

// TestCraftPlanWorkedExample: the protocol's example, 4 oak logs to a
// crafting table, is one log's planks and the table, the planks named for
// the table in the console's words.
func TestCraftPlanWorkedExample(t *testing.T) {
	g := mcdata.Game(767)
	p := mustPlanCraft(t, g, "crafting_table", 1, map[string]int{"oak_log": 4}, false)
	if !p.Runnable() || len(p.Steps) != 2 || p.Steps[0].Item != "oak_planks" || p.Steps[0].Count != 4 || p.Steps[1].Item != "crafting_table" {
		t.Fatalf("crafting_table from 4 oak logs: %v", planLines(p))
	}
	if got := stepText(p.Steps, 0); got != "crafting 4 oak_planks for crafting_table" {
		t.Errorf("step text %q", got)
	}
	if got := purpose(p.Steps, 1); got != "" {
		t.Errorf("the goal's own craft is for %q", got)
	}
	// A crafting table already carried does not count: mc_craft makes a new one.
	if p := mustPlanCraft(t, g, "crafting_table", 1, map[string]int{"oak_log": 4, "crafting_table": 1}, false); len(p.Steps) != 2 {
		t.Errorf("with a table carried: %v", planLines(p))
	}
}

// TestCraftPlanNamesRawMaterialsAndSmelting: an iron pickaxe from nothing
// lacks raw iron from iron ore, cobblestone and logs, and needs smelting,
// which mc_craft says rather than does; an item a player smelts is
// crafted by its own recipe only.
func TestCraftPlanNamesRawMaterialsAndSmelting(t *testing.T) {
	g := mcdata.Game(767)
	p := mustPlanCraft(t, g, "iron_pickaxe", 1, nil, false)
	if p.Runnable() || len(p.Smelts) == 0 {
		t.Fatalf("iron_pickaxe from nothing: runnable %v, smelts %v", p.Runnable(), p.Smelts)
	}
	have := map[string]MissingItem{}
	for _, m := range p.Missing {
		have[m.Item] = m
	}
	if m := have["raw_iron"]; m.Count != 3 || !slices.Contains(m.From, "iron_ore") {
		t.Errorf("raw iron missing %+v (all: %+v)", m, p.Missing)
	}
	if have["cobblestone"].Count == 0 || have["oak_log"].Count == 0 {
		t.Errorf("missing %+v lacks the cobblestone or the logs", p.Missing)
	}
	text := p.whatItTakes("iron_pickaxe")
	if !strings.Contains(text, "3 raw_iron") || !strings.Contains(text, "smelt") {
		t.Errorf("whatItTakes = %q", text)
	}
	if p := mustPlanCraft(t, g, "iron_ingot", 1, nil, false); !p.Direct {
		t.Errorf("iron_ingot is crafted by a plan: %v", planLines(p))
	}
}

// TestRecipeNamesAPlayersWayFirst: mc_recipe's way for iron_ingot is
// smelting raw iron and for coal mining coal ore, never crafting them back
// out of their blocks; a pickaxe's is its craft at a table.
func TestRecipeNamesAPlayersWayFirst(t *testing.T) {
	g := mcdata.Game(767)
	for item, want := range map[string]string{
		"iron_ingot":     "smelt 1 raw_iron in a furnace",
		"coal":           "mine coal_ore or deepslate_coal_ore with a wooden_pickaxe",
		"wooden_pickaxe": "craft from 3 oak_planks + 2 stick at a crafting_table",
		"oak_planks":     "craft from 1 oak_log",
	} {
		p := mustPlanCraft(t, g, item, 1, nil, false)
		last := p.Steps[len(p.Steps)-1]
		if last.Item != item {
			t.Errorf("%s: the plan ends with %s", item, last)
			continue
		}
		if got := wayOf(last); got != want {
			t.Errorf("%s: way %q, want %q (steps %v)", item, got, want, planLines(p))
		}
	}
}

// TestCraftAndRecipeAnswersFromNothing: through the dispatcher, on a
// scripted server with an empty inventory, mc_craft wooden_pickaxe crafts
// nothing and names every raw material, the logs for the table, the
// pickaxe and the sticks together, with the collect that gets them;
// mc_recipe names smelting for iron_ingot and mining for coal, with the
// whole tree.
func TestCraftAndRecipeAnswersFromNothing(t *testing.T) {
	w := newScriptedWorld(t, 769, nil, func(f *fakeServer, cmd string) {
		if cmd == "give logs" {
			f.SetSlot(0, 2, 36, fstack("oak_log", 2))
			f.SystemLine("logs given")
		}
	})
	w.wholeWorld(t)
	var c CraftResult
	result(t, callN(t, w.d, "mc_craft", `{"item":"wooden_pickaxe"}`), &c)
	if c.Crafted || c.Count != 0 || len(c.Steps) != 0 || len(c.Missing) != 1 || c.Missing[0].Item != "oak_log" || c.Missing[0].Count != 3 {
		t.Errorf("mc_craft wooden_pickaxe from nothing = %+v", c)
	}
	if !strings.Contains(c.NextStep, "mc_collect oak_log 3") || !strings.Contains(c.Reason, "3 oak_log") {
		t.Errorf("reason %q, next_step %q", c.Reason, c.NextStep)
	}

	var r RecipeResult
	result(t, callN(t, w.d, "mc_recipe", `{"item":"iron_ingot","count":2}`), &r)
	if r.How != "smelt" || r.Way != "smelt 2 raw_iron in a furnace" || len(r.Ingredients) != 1 || r.Ingredients[0] != (skill.ItemCount{Item: "raw_iron", Count: 2}) ||
		r.CraftableNow || !strings.Contains(r.NextStep, "mc_smelt raw_iron 2") {
		t.Errorf("mc_recipe iron_ingot = %+v", r)
	}
	if r.Tree == nil || r.Tree.Item != "iron_ingot" || len(r.Steps) == 0 || !slices.ContainsFunc(r.RawMaterials, func(m MissingItem) bool { return m.Item == "raw_iron" }) {
		t.Errorf("mc_recipe iron_ingot's tree %+v, steps %v, raw %+v", r.Tree, r.Steps, r.RawMaterials)
	}
	result(t, callN(t, w.d, "mc_recipe", `{"item":"coal"}`), &r)
	if r.How != "gather" || !strings.Contains(r.Way, "mine coal_ore") || !strings.Contains(r.NextStep, "mc_collect coal_ore") {
		t.Errorf("mc_recipe coal = %+v", r)
	}
	result(t, callN(t, w.d, "mc_recipe", `{"item":"stick","count":4}`), &r)
	if r.How != "craft" || r.NeedsCraftingTable || len(r.Missing) != 1 || r.Missing[0].Item != "oak_planks" || len(r.RawMaterials) != 1 || r.RawMaterials[0].Item != "oak_log" || r.CraftsFromInventory {
		t.Errorf("mc_recipe stick = %+v", r)
	}

	// With two logs carried the sticks are not craftable_now (no planks),
	// but mc_craft makes them, planks first, and mc_recipe says so.
	w.command(t, "give logs", "logs given")
	waitFor(t, func() bool { return w.w.Inventory().View().Count("oak_log") == 2 }, "two oak logs in the inventory")
	r = RecipeResult{}
	result(t, callN(t, w.d, "mc_recipe", `{"item":"stick","count":4}`), &r)
	if r.CraftableNow || !r.CraftsFromInventory || !strings.Contains(r.NextStep, "call mc_craft stick 4") || !strings.Contains(r.NextStep, "oak_planks") {
		t.Errorf("mc_recipe stick with 2 logs = %+v", r)
	}
}
