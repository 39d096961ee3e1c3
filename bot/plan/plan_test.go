package plan

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// oldestAndNewest are the first and last data versions: the plans of the
// tech tree must be the same in both.
func oldestAndNewest(t testing.TB) []*mcdata.GameData {
	ps := mcdata.GameProtocols()
	return []*mcdata.GameData{mcdata.Game(ps[0]), mcdata.Game(ps[len(ps)-1])}
}

func mustPlan(t *testing.T, g *mcdata.GameData, item string, count int, carried map[string]int, world World) *Plan {
	t.Helper()
	p, err := Make(g, Goal{item, count}, carried, world)
	if err != nil {
		t.Fatalf("%s: Make(%s×%d, %v): %v", g.Version, item, count, carried, err)
	}
	return p
}

func stepLines(p *Plan) []string {
	var out []string
	for _, s := range p.Steps {
		out = append(out, s.String())
	}
	return out
}

// simulate plays a plan's steps on the inventory the way the game would
// and returns what is wrong with it: a craft without its ingredients or a
// table, a gather without a tool its blocks need or from blocks that do
// not drop the item, a smelt without a furnace or enough fuel, a missing
// list that is not the gathers' sum, or a goal not reached. It shares no
// code with the planner.
func simulate(g *mcdata.GameData, p *Plan, carried map[string]int, world World) []string {
	var bad []string
	inv := map[string]int{}
	for k, v := range carried {
		inv[k] = v
	}
	table, furnace := world.CraftingTable, world.Furnace
	gathered := map[string]int{}
	take := func(i int, item string, n int) {
		if inv[item] < n {
			bad = append(bad, fmt.Sprintf("step %d (%s) needs %d %s, the inventory holds %d", i, p.Steps[i], n, item, inv[item]))
		}
		inv[item] -= n
	}
	for i, s := range p.Steps {
		switch s.Kind {
		case Gather:
			if s.Count < 1 || len(s.From) == 0 {
				bad = append(bad, fmt.Sprintf("step %d gathers %d from %v", i, s.Count, s.From))
			}
			for _, from := range s.From {
				b := g.BlockByName(from)
				if b == nil {
					bad = append(bad, fmt.Sprintf("step %d breaks %s, not a block", i, from))
					continue
				}
				drops := false
				for _, d := range b.Loot {
					drops = drops || (g.Item(d.Item).Name == s.Item && d.Chance == s.ByChance)
				}
				if !drops {
					bad = append(bad, fmt.Sprintf("step %d gathers %s from %s, which does not drop it that way", i, s.Item, from))
				}
				tool := g.ItemByName(s.Tool)
				if len(b.HarvestTools) > 0 && (tool == nil || !b.CanHarvest(tool.ID)) {
					bad = append(bad, fmt.Sprintf("step %d breaks %s with %q, which does not harvest it", i, from, s.Tool))
				}
			}
			if s.Tool != "" && inv[s.Tool] < 1 {
				bad = append(bad, fmt.Sprintf("step %d gathers with a %s the inventory lacks", i, s.Tool))
			}
			inv[s.Item] += s.Count
			gathered[s.Item] += s.Count
		case Craft:
			r := s.Recipe
			if r == nil || g.Item(r.Result).Name != s.Item || s.Crafts*r.Count != s.Count {
				bad = append(bad, fmt.Sprintf("step %d crafts %d %s in %d crafts of %+v", i, s.Count, s.Item, s.Crafts, r))
				continue
			}
			var want []ItemCount
			for _, in := range r.Inputs() {
				want = append(want, ItemCount{g.Item(in.Item).Name, in.Count * s.Crafts})
			}
			got := slices.Clone(s.Uses)
			slices.SortFunc(got, func(a, b ItemCount) int { return strings.Compare(a.Item, b.Item) })
			slices.SortFunc(want, func(a, b ItemCount) int { return strings.Compare(a.Item, b.Item) })
			if !slices.Equal(got, want) {
				bad = append(bad, fmt.Sprintf("step %d uses %v, the recipe takes %v", i, got, want))
			}
			for _, u := range want {
				take(i, u.Item, u.Count)
			}
			if !r.FitsInventory() && !(table && s.Table) {
				bad = append(bad, fmt.Sprintf("step %d crafts %s (3×3) with no crafting table placed", i, s.Item))
			}
			inv[s.Item] += s.Count
		case Smelt:
			if !furnace {
				bad = append(bad, fmt.Sprintf("step %d smelts with no furnace placed", i))
			}
			if len(s.Uses) != 1 || s.Uses[0].Count != s.Count {
				bad = append(bad, fmt.Sprintf("step %d smelts %d %s from %v", i, s.Count, s.Item, s.Uses))
				continue
			}
			in := g.ItemByName(s.Uses[0].Item)
			sm, ok := g.SmeltingOf(in.ID)
			if !ok || g.Item(sm.Output).Name != s.Item {
				bad = append(bad, fmt.Sprintf("step %d smelts %s into %s, which the furnace does not", i, in.Name, s.Item))
				continue
			}
			take(i, in.Name, s.Count)
			ticks := 0
			for _, f := range s.Fuel {
				ticks += f.Count * g.FuelTicks(g.ItemByName(f.Item).ID)
				take(i, f.Item, f.Count)
			}
			if ticks < s.Count*sm.Ticks {
				bad = append(bad, fmt.Sprintf("step %d burns %v (%d ticks) for %d ticks of smelting", i, s.Fuel, ticks, s.Count*sm.Ticks))
			}
			inv[s.Item] += s.Count
		case PlaceTable:
			take(i, "crafting_table", 1)
			table = true
		case PlaceFurnace:
			take(i, "furnace", 1)
			furnace = true
		default:
			bad = append(bad, fmt.Sprintf("step %d is of kind %q", i, s.Kind))
		}
	}
	if p.OK() && inv[p.Goal.Item] < p.Goal.Count {
		bad = append(bad, fmt.Sprintf("the plan ends with %d %s of %d", inv[p.Goal.Item], p.Goal.Item, p.Goal.Count))
	}
	for _, m := range p.Missing {
		if gathered[m.Item] != m.Count {
			bad = append(bad, fmt.Sprintf("missing says %d %s, the gathers get %d", m.Count, m.Item, gathered[m.Item]))
		}
		delete(gathered, m.Item)
	}
	for item, n := range gathered {
		bad = append(bad, fmt.Sprintf("the gathers get %d %s that missing does not list", n, item))
	}
	for _, u := range p.Uses {
		if u.Count > carried[u.Item] {
			bad = append(bad, fmt.Sprintf("the plan uses %d carried %s of %d", u.Count, u.Item, carried[u.Item]))
		}
	}
	return bad
}

// TestTechTreeFromNothing checks the plans for the tech tree against a
// table checked by hand, on the oldest and newest version's data: counts
// follow the yields (4 planks a log, 4 sticks from 2 planks), a table is
// made and placed once, tools come before the blocks that need them, the
// furnace before the smelt, one plank of fuel per 1.5 smelts.
func TestTechTreeFromNothing(t *testing.T) {
	woodenPickaxe := []string{
		"gather 3 oak_log from oak_log",
		"craft 12 oak_planks from 3 oak_log",
		"craft 4 stick from 2 oak_planks",
		"craft 1 crafting_table from 4 oak_planks",
		"place a crafting_table",
		"craft 1 wooden_pickaxe from 3 oak_planks + 2 stick at a crafting_table",
	}
	cases := []struct {
		item    string
		count   int
		steps   []string
		missing string
	}{
		{"crafting_table", 1, []string{
			"gather 1 oak_log from oak_log",
			"craft 4 oak_planks from 1 oak_log",
			"craft 1 crafting_table from 4 oak_planks",
		}, "[{oak_log 1}]"},
		{"stick", 4, []string{
			"gather 1 oak_log from oak_log",
			"craft 4 oak_planks from 1 oak_log",
			"craft 4 stick from 2 oak_planks",
		}, "[{oak_log 1}]"},
		{"wooden_pickaxe", 1, woodenPickaxe, "[{oak_log 3}]"},
		{"stone_pickaxe", 1, append(slices.Clone(woodenPickaxe),
			"gather 3 cobblestone from stone/cobblestone with a wooden_pickaxe",
			"craft 1 stone_pickaxe from 3 cobblestone + 2 stick at a crafting_table",
		), "[{oak_log 3} {cobblestone 3}]"},
		{"furnace", 1, append(slices.Clone(woodenPickaxe),
			"gather 8 cobblestone from stone/cobblestone with a wooden_pickaxe",
			"craft 1 furnace from 8 cobblestone at a crafting_table",
		), "[{oak_log 3} {cobblestone 8}]"},
		{"iron_ingot", 1, append(slices.Clone(woodenPickaxe),
			"gather 11 cobblestone from stone/cobblestone with a wooden_pickaxe",
			"craft 1 furnace from 8 cobblestone at a crafting_table",
			"place a furnace",
			"craft 1 stone_pickaxe from 3 cobblestone + 2 stick at a crafting_table",
			"gather 1 raw_iron from iron_ore/deepslate_iron_ore with a stone_pickaxe",
			"smelt 1 iron_ingot from 1 raw_iron, burning 1 oak_planks",
		), "[{oak_log 3} {cobblestone 11} {raw_iron 1}]"},
		{"iron_pickaxe", 1, []string{
			"gather 4 oak_log from oak_log",
			"craft 16 oak_planks from 4 oak_log",
			"craft 8 stick from 4 oak_planks",
			"craft 1 crafting_table from 4 oak_planks",
			"place a crafting_table",
			"craft 1 wooden_pickaxe from 3 oak_planks + 2 stick at a crafting_table",
			"gather 11 cobblestone from stone/cobblestone with a wooden_pickaxe",
			"craft 1 furnace from 8 cobblestone at a crafting_table",
			"place a furnace",
			"craft 1 stone_pickaxe from 3 cobblestone + 2 stick at a crafting_table",
			"gather 3 raw_iron from iron_ore/deepslate_iron_ore with a stone_pickaxe",
			"smelt 3 iron_ingot from 3 raw_iron, burning 2 oak_planks",
			"craft 1 iron_pickaxe from 3 iron_ingot + 2 stick at a crafting_table",
		}, "[{oak_log 4} {cobblestone 11} {raw_iron 3}]"},
		{"torch", 4, append(slices.Clone(woodenPickaxe),
			"gather 1 coal from coal_ore/deepslate_coal_ore with a wooden_pickaxe",
			"craft 4 torch from 1 coal + 1 stick",
		), "[{oak_log 3} {coal 1}]"},
		{"chest", 1, []string{
			"gather 3 oak_log from oak_log",
			"craft 12 oak_planks from 3 oak_log",
			"craft 1 crafting_table from 4 oak_planks",
			"place a crafting_table",
			"craft 1 chest from 8 oak_planks at a crafting_table",
		}, "[{oak_log 3}]"},
		{"bread", 1, []string{
			"gather 3 wheat from wheat (fully grown)",
			"gather 1 oak_log from oak_log",
			"craft 4 oak_planks from 1 oak_log",
			"craft 1 crafting_table from 4 oak_planks",
			"place a crafting_table",
			"craft 1 bread from 3 wheat at a crafting_table",
		}, "[{wheat 3} {oak_log 1}]"},
	}
	for _, g := range oldestAndNewest(t) {
		for _, c := range cases {
			p := mustPlan(t, g, c.item, c.count, nil, World{})
			if !p.OK() {
				t.Errorf("%s: %s: cannot: %v", g.Version, c.item, p.Cannot)
			}
			if got := stepLines(p); !slices.Equal(got, c.steps) {
				t.Errorf("%s: %d %s:\n got %s\nwant %s", g.Version, c.count, c.item, strings.Join(got, "\n     "), strings.Join(c.steps, "\n     "))
			}
			if got := fmt.Sprint(p.Missing); got != c.missing {
				t.Errorf("%s: %s: missing %s, want %s", g.Version, c.item, got, c.missing)
			}
			if bad := simulate(g, p, nil, World{}); len(bad) > 0 {
				t.Errorf("%s: %s: %s", g.Version, c.item, strings.Join(bad, "; "))
			}
		}
	}
}

// TestPlansStartFromWhatIsCarried: the same goals from partial
// inventories and near tables and furnaces, as the runner re-plans after
// each step.
func TestPlansStartFromWhatIsCarried(t *testing.T) {
	cases := []struct {
		name    string
		item    string
		count   int
		carried map[string]int
		world   World
		steps   []string
		missing string
	}{
		{"a carried table is placed, not crafted", "wooden_pickaxe", 1, map[string]int{"oak_log": 3, "crafting_table": 1}, World{}, []string{
			"craft 8 oak_planks from 2 oak_log",
			"craft 4 stick from 2 oak_planks",
			"place a crafting_table",
			"craft 1 wooden_pickaxe from 3 oak_planks + 2 stick at a crafting_table",
		}, "[]"},
		{"a table near is used", "wooden_pickaxe", 1, nil, World{CraftingTable: true}, []string{
			"gather 2 oak_log from oak_log",
			"craft 8 oak_planks from 2 oak_log",
			"craft 4 stick from 2 oak_planks",
			"craft 1 wooden_pickaxe from 3 oak_planks + 2 stick at a crafting_table",
		}, "[{oak_log 2}]"},
		{"birch logs carried make birch planks", "wooden_pickaxe", 1, map[string]int{"birch_log": 3}, World{}, []string{
			"craft 12 birch_planks from 3 birch_log",
			"craft 4 stick from 2 birch_planks",
			"craft 1 crafting_table from 4 birch_planks",
			"place a crafting_table",
			"craft 1 wooden_pickaxe from 3 birch_planks + 2 stick at a crafting_table",
		}, "[]"},
		{"one birch log carried, more birch gathered", "wooden_pickaxe", 1, map[string]int{"birch_log": 1}, World{}, []string{
			"gather 2 birch_log from birch_log",
			"craft 12 birch_planks from 3 birch_log",
			"craft 4 stick from 2 birch_planks",
			"craft 1 crafting_table from 4 birch_planks",
			"place a crafting_table",
			"craft 1 wooden_pickaxe from 3 birch_planks + 2 stick at a crafting_table",
		}, "[{birch_log 2}]"},
		{"spruce planks carried are used before anything is made", "stick", 4, map[string]int{"spruce_planks": 2}, World{}, []string{
			"craft 4 stick from 2 spruce_planks",
		}, "[]"},
		{"a stone pickaxe carried skips the wooden tools", "iron_pickaxe", 1, map[string]int{"stone_pickaxe": 1, "oak_planks": 20}, World{CraftingTable: true, Furnace: true}, []string{
			"gather 3 raw_iron from iron_ore/deepslate_iron_ore with a stone_pickaxe",
			"smelt 3 iron_ingot from 3 raw_iron, burning 2 oak_planks",
			"craft 4 stick from 2 oak_planks",
			"craft 1 iron_pickaxe from 3 iron_ingot + 2 stick at a crafting_table",
		}, "[{raw_iron 3}]"},
		{"everything carried is one craft", "iron_pickaxe", 1, map[string]int{"iron_ingot": 3, "stick": 2}, World{CraftingTable: true}, []string{
			"craft 1 iron_pickaxe from 3 iron_ingot + 2 stick at a crafting_table",
		}, "[]"},
		{"carried coal is the fuel", "iron_ingot", 2, map[string]int{"raw_iron": 2, "coal": 1}, World{Furnace: true}, []string{
			"smelt 2 iron_ingot from 2 raw_iron, burning 1 coal",
		}, "[]"},
		{"a carried iron block is crafted back", "iron_ingot", 9, map[string]int{"iron_block": 1}, World{}, []string{
			"craft 9 iron_ingot from 1 iron_block",
		}, "[]"},
		{"carried coal makes torches", "torch", 16, map[string]int{"coal": 4}, World{}, []string{
			"gather 1 oak_log from oak_log",
			"craft 4 oak_planks from 1 oak_log",
			"craft 4 stick from 2 oak_planks",
			"craft 16 torch from 4 coal + 4 stick",
		}, "[{oak_log 1}]"},
		{"the goal carried is no plan", "oak_log", 2, map[string]int{"oak_log": 5}, World{}, nil, "[]"},
		{"after a gather that yielded less, the rest is gathered", "wooden_pickaxe", 1, map[string]int{"oak_log": 2}, World{}, []string{
			"gather 1 oak_log from oak_log",
			"craft 12 oak_planks from 3 oak_log",
			"craft 4 stick from 2 oak_planks",
			"craft 1 crafting_table from 4 oak_planks",
			"place a crafting_table",
			"craft 1 wooden_pickaxe from 3 oak_planks + 2 stick at a crafting_table",
		}, "[{oak_log 1}]"},
	}
	for _, g := range oldestAndNewest(t) {
		for _, c := range cases {
			p := mustPlan(t, g, c.item, c.count, c.carried, c.world)
			if !p.OK() {
				t.Errorf("%s: %s: cannot: %v", g.Version, c.name, p.Cannot)
			}
			if got := stepLines(p); !slices.Equal(got, c.steps) {
				t.Errorf("%s: %s:\n got %s\nwant %s", g.Version, c.name, strings.Join(got, "\n     "), strings.Join(c.steps, "\n     "))
			}
			if got := fmt.Sprint(p.Missing); got != c.missing {
				t.Errorf("%s: %s: missing %s, want %s", g.Version, c.name, got, c.missing)
			}
			if bad := simulate(g, p, c.carried, c.world); len(bad) > 0 {
				t.Errorf("%s: %s: %s", g.Version, c.name, strings.Join(bad, "; "))
			}
		}
	}
}

// TestAPlayersWayFirst: an item is got the way a player gets it, never by
// crafting it back from its block.
func TestAPlayersWayFirst(t *testing.T) {
	for _, g := range oldestAndNewest(t) {
		for item, forbidden := range map[string][]string{
			"iron_ingot":   {"iron_block", "iron_nugget"},
			"coal":         {"coal_block"},
			"gold_ingot":   {"gold_block", "gold_nugget"},
			"diamond":      {"diamond_block"},
			"redstone":     {"redstone_block"},
			"raw_iron":     {"raw_iron_block"},
			"wheat":        {"hay_block"},
			"emerald":      {"emerald_block"},
			"slime_ball":   {"slime_block"},
			"copper_ingot": {"copper_block", "waxed_copper_block"},
		} {
			p := mustPlan(t, g, item, 2, nil, World{})
			for _, s := range p.Steps {
				if slices.Contains(forbidden, s.Item) {
					t.Errorf("%s: %s is got through %s: %v", g.Version, item, s, stepLines(p))
				}
			}
		}
		if p := mustPlan(t, g, "coal", 1, nil, World{}); p.Missing[len(p.Missing)-1].Item != "coal" || !strings.Contains(stepLines(p)[len(p.Steps)-1], "coal_ore") {
			t.Errorf("%s: coal is not mined from coal ore: %v", g.Version, stepLines(p))
		}
	}
}

// TestWhatItWillNotDoIsSaid: items from the nether, from mobs, from chests
// get a plan that says so instead of nonsense.
func TestWhatItWillNotDoIsSaid(t *testing.T) {
	for _, g := range oldestAndNewest(t) {
		for item, want := range map[string]string{
			"blaze_rod":       "blaze_rod drops from killing blaze, in the nether; blockmate does not go there",
			"quartz":          "quartz comes from nether_quartz_ore, found only in the nether; blockmate does not go there",
			"netherite_ingot": "netherite_ingot is crafted from netherite_scrap: netherite_scrap is smelted from ancient_debris: ancient_debris comes from ancient_debris, found only in the nether; blockmate does not go there",
			"ender_pearl":     "ender_pearl drops from killing enderman; blockmate does not hunt mobs for their drops",
			"brewing_stand":   "brewing_stand is crafted from blaze_rod: blaze_rod drops from killing blaze, in the nether; blockmate does not go there",
			"ice":             "ice drops itself only when broken with a silk touch tool; blockmate's plans make no enchanted tools",
			"milk_bucket":     "milk_bucket is not mined, crafted or smelted (it is found in chests, traded, fished or made by using an item on the world); blockmate does not get it that way",
		} {
			p := mustPlan(t, g, item, 1, nil, World{})
			if p.OK() || len(p.Cannot) == 0 || p.Reason != want {
				t.Errorf("%s: %s: ok %v, reason %q, cannot %v\n want %q", g.Version, item, p.OK(), p.Reason, p.Cannot, want)
			}
		}
		// A goal whose one ingredient cannot be had names that one and
		// still plans the rest.
		p := mustPlan(t, g, "brewing_stand", 1, nil, World{})
		if fmt.Sprint(p.Cannot) != "[{blaze_rod blaze_rod drops from killing blaze, in the nether; blockmate does not go there}]" {
			t.Errorf("%s: the brewing stand cannot %v", g.Version, p.Cannot)
		}
		if !slices.ContainsFunc(p.Missing, func(c ItemCount) bool { return c.Item == "cobblestone" }) {
			t.Errorf("%s: the brewing stand's cobblestone is not in the missing list %v", g.Version, p.Missing)
		}
		p = mustPlan(t, g, "netherite_ingot", 1, nil, World{})
		if len(p.Cannot) != 1 || p.Cannot[0].Item != "netherite_scrap" || !slices.ContainsFunc(p.Missing, func(c ItemCount) bool { return c.Item == "raw_gold" }) {
			t.Errorf("%s: netherite: cannot %v, missing %v", g.Version, p.Cannot, p.Missing)
		}
		if p := mustPlan(t, g, "stick", 1, nil, World{}); p.Reason != "" || p.Cannot != nil {
			t.Errorf("%s: a stick cannot: %q %v", g.Version, p.Reason, p.Cannot)
		}
	}
}

// TestTheWorldDecidesWhatCanBeGathered: a world without iron ore cannot
// give raw iron, and says why; one without oak gives birch.
func TestTheWorldDecidesWhatCanBeGathered(t *testing.T) {
	g := oldestAndNewest(t)[1]
	noIron := World{Offers: func(b *mcdata.Block) bool { return !strings.Contains(b.Name, "iron_ore") && Overworld(b) }}
	p := mustPlan(t, g, "iron_pickaxe", 1, nil, noIron)
	if want := "iron_pickaxe is crafted from iron_ingot: iron_ingot is smelted from raw_iron: raw_iron comes from iron_ore, deepslate_iron_ore, which the world around the bot does not offer"; p.OK() || p.Reason != want {
		t.Errorf("no iron ore: %q, cannot %v", p.Reason, p.Cannot)
	}
	if len(p.Cannot) != 1 || p.Cannot[0].Item != "iron_ingot" || !slices.ContainsFunc(p.Missing, func(c ItemCount) bool { return c.Item == "oak_log" }) {
		t.Errorf("no iron ore: cannot %v, missing %v (the sticks still need logs)", p.Cannot, p.Missing)
	}
	birchOnly := World{Offers: func(b *mcdata.Block) bool { return !strings.HasSuffix(b.Name, "_log") || b.Name == "birch_log" }}
	p = mustPlan(t, g, "crafting_table", 1, nil, birchOnly)
	if got := stepLines(p); len(got) == 0 || got[0] != "gather 1 birch_log from birch_log" {
		t.Errorf("birch forest: %v", got)
	}
}

// TestGoalsAsPeopleSayThem: "wood", "planks", "iron".
func TestGoalsAsPeopleSayThem(t *testing.T) {
	g := oldestAndNewest(t)[0]
	for word, want := range map[string]string{"wood": "oak_log", "logs": "oak_log", "planks": "oak_planks", "iron": "iron_ingot", "cobblestone": "cobblestone"} {
		if p := mustPlan(t, g, word, 4, nil, World{}); p.Goal.Item != want {
			t.Errorf("%q plans for %s, want %s", word, p.Goal.Item, want)
		}
	}
	if p := mustPlan(t, g, "planks", 4, map[string]int{"spruce_log": 1}, World{}); p.Goal.Item != "spruce_planks" {
		t.Errorf("planks with a spruce log carried: %s", p.Goal.Item)
	}
	if _, err := Make(g, Goal{"unobtainium", 1}, nil, World{}); err == nil || !strings.Contains(err.Error(), "is not an item") {
		t.Errorf("an unknown goal: %v", err)
	}
	if _, err := Make(g, Goal{"stick", 0}, nil, World{}); err == nil {
		t.Error("a goal of none is planned")
	}
}

// TestTreeShowsHowAndWhatIsCarried: the tree mc_recipe shows.
func TestTreeShowsHowAndWhatIsCarried(t *testing.T) {
	g := oldestAndNewest(t)[0]
	p := mustPlan(t, g, "wooden_pickaxe", 1, map[string]int{"oak_log": 3, "stick": 2}, World{})
	var lines []string
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		s := fmt.Sprintf("%s%d %s %s", strings.Repeat("  ", depth), n.Count, n.Item, n.How)
		if n.Carried > 0 {
			s += fmt.Sprintf(" carried %d", n.Carried)
		}
		if n.OnHand > 0 {
			s += fmt.Sprintf(" on hand %d", n.OnHand)
		}
		if n.Role != "" {
			s += " (" + n.Role + ")"
		}
		lines = append(lines, s)
		for _, c := range n.Inputs {
			walk(c, depth+1)
		}
	}
	walk(p.Tree, 0)
	want := []string{
		"1 wooden_pickaxe craft",
		"  3 oak_planks craft",
		"    1 oak_log carried carried 1",
		"  2 stick carried carried 2",
		"  1 crafting_table craft (table)",
		"    4 oak_planks craft on hand 1",
		"      1 oak_log carried carried 1",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("tree:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if got := fmt.Sprint(p.Uses); got != "[{oak_log 2} {stick 2}]" {
		t.Errorf("uses %s", got)
	}
}

// TestEveryCraftableItemPlans plans every item with a crafting recipe on
// the oldest and newest version's data, from nothing and from a full
// chest of basics: each call ends, gives the same answer twice, and
// either plays out to the goal in the simulator or says what it cannot
// get.
func TestEveryCraftableItemPlans(t *testing.T) {
	stock := map[string]int{"oak_log": 10, "cobblestone": 20, "coal": 5, "stone_pickaxe": 1}
	for _, g := range oldestAndNewest(t) {
		ok, cannot := 0, 0
		for i := range g.Items {
			item := g.Items[i].Name
			if len(g.RecipesFor(mcdata.ItemID(i))) == 0 {
				continue
			}
			for _, carried := range []map[string]int{nil, stock} {
				p := mustPlan(t, g, item, 3, carried, World{})
				again := mustPlan(t, g, item, 3, carried, World{})
				if !reflect.DeepEqual(p, again) {
					t.Errorf("%s: %s: two calls plan differently", g.Version, item)
				}
				if p.Tree == nil || p.Tree.Item != p.Goal.Item || p.Goal.Item != item {
					t.Errorf("%s: %s: goal %v, tree %+v", g.Version, item, p.Goal, p.Tree)
				}
				if !p.OK() {
					cannot++
					if !strings.HasPrefix(p.Reason, item+" ") {
						t.Errorf("%s: %s: the reason %q is not about it", g.Version, item, p.Reason)
					}
					for _, l := range p.Cannot {
						if l.Reason == "" || !strings.HasPrefix(l.Reason, l.Item+" ") {
							t.Errorf("%s: %s: cannot %q without a reason: %q", g.Version, item, l.Item, l.Reason)
						}
					}
				} else {
					ok++
				}
				if bad := simulate(g, p, carried, World{}); len(bad) > 0 {
					t.Errorf("%s: %d %s from %v:\n  %s\n  plan: %s", g.Version, 3, item, carried, strings.Join(bad, "\n  "), strings.Join(stepLines(p), "; "))
				}
			}
		}
		t.Logf("%s: %d plans reach their goal, %d say what they cannot get", g.Version, ok, cannot)
		if ok < 900 {
			t.Errorf("%s: only %d plans reach their goal", g.Version, ok)
		}
	}
}
