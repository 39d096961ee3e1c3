// Package plan turns a goal ("an iron pickaxe") into the steps a player
// would take to reach it from what the bot carries: gather logs, craft
// planks and sticks, make and place a crafting table, craft a wooden
// pickaxe, mine cobblestone, … smelt raw iron, craft the pickaxe. It is
// pure: it reads the version's generated data (recipes, block drops,
// harvest tools, smelting and fuel facts), the inventory and what the
// caller says the world offers, and touches no connection. The tools
// (mc_obtain, mc_craft, mc_recipe, mc_collect) run its steps and call it
// again after each one yields less than planned.
//
// How an item is got is chosen by cost: every way to get it (break a block
// that drops it, craft one of its recipes, smelt it) is priced from the
// prices of what it takes, with what the bot carries free, by a Knuth
// shortest-hyperpath pass over all items (cost.go). The cheapest ways are
// then expanded from the goal down with a simulated inventory (build.go),
// so leftovers (four planks per log) serve later steps, a tool a block
// needs is made before the block is mined, and a crafting table or furnace
// is made and placed only when none is near. Steps of the same kind are
// merged where the order allows (merge.go).
package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Goal is what to obtain: an item by name, or a word people use for one
// ("wood", "planks", "iron"), and how many.
type Goal struct {
	Item  string
	Count int
}

// World is what the world around the bot offers, as far as the caller
// knows.
type World struct {
	// Offers says whether blocks of a kind can be found and broken. Nil
	// means Overworld: every block of the overworld (blockmate does not go
	// to the nether or the end).
	Offers func(*mcdata.Block) bool
	// CraftingTable and Furnace say one is within reach or a walk away,
	// so the plan needs not make and place its own.
	CraftingTable, Furnace bool
}

// Overworld is the default World.Offers: every block but those found only
// in the nether or the end (limits.go).
func Overworld(b *mcdata.Block) bool { return dimensionOf(b.Name) == "" }

// ItemCount is an item by name and how many.
type ItemCount struct {
	Item  string `json:"item"`
	Count int    `json:"count"`
}

// Kind is what a step does.
type Kind string

const (
	// Gather breaks blocks (From) and picks up their drops until Count of
	// Item have arrived.
	Gather Kind = "gather"
	// Craft runs a recipe Crafts times, making Count of Item.
	Craft Kind = "craft"
	// Smelt smelts Count items into Item in a furnace, burning Fuel.
	Smelt Kind = "smelt"
	// PlaceTable and PlaceFurnace put a carried crafting table or furnace
	// down near the bot, for the steps after it.
	PlaceTable   Kind = "place_table"
	PlaceFurnace Kind = "place_furnace"
)

// Step is one thing the bot does.
type Step struct {
	Kind  Kind   `json:"kind"`
	Item  string `json:"item"`
	Count int    `json:"count"`
	// Crafts is how many times the recipe runs (a craft makes Count /
	// Crafts at a time).
	Crafts int `json:"crafts,omitempty"`
	// Uses is what the step consumes: a craft's ingredients, a smelt's
	// input; Fuel what a smelt burns.
	Uses []ItemCount `json:"uses,omitempty"`
	Fuel []ItemCount `json:"fuel,omitempty"`
	// From are the blocks a gather breaks, any of them; Tool the tool they
	// need (made by an earlier step, or carried), empty when a hand does.
	From []string `json:"from,omitempty"`
	Tool string   `json:"tool,omitempty"`
	// ByChance says the blocks drop the item only sometimes (flint from
	// gravel): the gather may take many blocks. Grown says only fully
	// grown crops give it.
	ByChance bool `json:"by_chance,omitempty"`
	Grown    bool `json:"grown,omitempty"`
	// Table says the craft needs a crafting table's 3×3 grid; Furnace that
	// the step needs a furnace (every smelt does).
	Table   bool `json:"table,omitempty"`
	Furnace bool `json:"furnace,omitempty"`
	// Recipe is the crafting recipe a craft runs.
	Recipe *mcdata.Recipe `json:"-"`
}

// String is the step in words: "gather 3 oak_log from oak_log", "craft 12
// oak_planks (3 crafts)", "smelt 3 iron_ingot from raw_iron, burning 2
// oak_planks".
func (s Step) String() string {
	var b strings.Builder
	switch s.Kind {
	case PlaceTable:
		return "place a crafting_table"
	case PlaceFurnace:
		return "place a furnace"
	case Gather:
		fmt.Fprintf(&b, "gather %d %s from %s", s.Count, s.Item, strings.Join(s.From, "/"))
		if s.Tool != "" {
			fmt.Fprintf(&b, " with %s", withArticle(s.Tool))
		}
		if s.ByChance {
			b.WriteString(" (by chance)")
		}
		if s.Grown {
			b.WriteString(" (fully grown)")
		}
	case Craft:
		fmt.Fprintf(&b, "craft %d %s from %s", s.Count, s.Item, counts(s.Uses))
		if s.Table {
			b.WriteString(" at a crafting_table")
		}
	case Smelt:
		fmt.Fprintf(&b, "smelt %d %s from %s, burning %s", s.Count, s.Item, counts(s.Uses), counts(s.Fuel))
	default:
		fmt.Fprintf(&b, "%s %d %s", s.Kind, s.Count, s.Item)
	}
	return b.String()
}

// withArticle puts "a" or "an" before an item's name.
func withArticle(name string) string {
	if strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

func counts(list []ItemCount) string {
	parts := make([]string, len(list))
	for i, c := range list {
		parts[i] = fmt.Sprintf("%d %s", c.Count, c.Item)
	}
	return strings.Join(parts, " + ")
}

// Node is one item of the tree mc_recipe shows: how Count of Item is got,
// and what that takes.
type Node struct {
	Item  string `json:"item"`
	Count int    `json:"count"`
	// Carried is how many of Count the bot already carries; OnHand how
	// many an earlier step of the plan made in excess (the fourth plank).
	Carried int `json:"carried,omitempty"`
	OnHand  int `json:"on_hand,omitempty"`
	// How is "carried" (all of it in the bot's inventory), "on_hand" (made
	// in excess by an earlier step, or partly carried), "gather", "craft",
	// "smelt" or "cannot" (Reason says why).
	How    string   `json:"how"`
	From   []string `json:"from,omitempty"`
	Reason string   `json:"reason,omitempty"`
	// Role says why the parent needs it: "" for an ingredient, "tool",
	// "table", "furnace" or "fuel".
	Role   string  `json:"role,omitempty"`
	Inputs []*Node `json:"inputs,omitempty"`
}

// Limit is something the plan cannot get, in words.
type Limit struct {
	Item   string `json:"item"`
	Reason string `json:"reason"`
}

// Plan is the way to a goal.
type Plan struct {
	Goal ItemCount `json:"goal"`
	// Steps are in order; empty when the bot already carries the goal.
	Steps []Step `json:"steps"`
	// Missing are the raw materials the plan gathers from the world, one
	// entry per item, summed over the gather steps: what a craft from the
	// inventory alone lacks, down to the bottom of the tree.
	Missing []ItemCount `json:"missing"`
	// Uses is what the plan takes from the bot's inventory.
	Uses []ItemCount `json:"uses"`
	// Reason says, when the plan cannot reach the goal, why in one
	// sentence that follows the recipes down to the cause ("brewing_stand
	// is crafted from blaze_rod: blaze_rod drops from killing blaze, in
	// the nether; blockmate does not go there").
	Reason string `json:"reason,omitempty"`
	// Cannot lists the items the plan cannot get, each with why; when it
	// is not empty the plan does not reach the goal, and Steps are only
	// what it can do towards it (no step uses what it cannot get).
	Cannot []Limit `json:"cannot,omitempty"`
	// Tree is the goal's tree: raw materials at the leaves, what is
	// carried marked.
	Tree *Node `json:"tree"`
}

// OK says whether the plan reaches the goal.
func (p *Plan) OK() bool { return len(p.Cannot) == 0 }

// Make plans obtaining the goal with what the bot carries (item name →
// count) in the world described. It fails only for a goal it cannot read
// (an unknown item, a count below 1); a goal it cannot reach is a Plan
// whose Cannot says why. Make is deterministic and safe for concurrent
// use.
func Make(g *mcdata.GameData, goal Goal, carried map[string]int, world World) (*Plan, error) {
	if goal.Count < 1 {
		return nil, fmt.Errorf("a goal of %d %s: ask for one or more", goal.Count, goal.Item)
	}
	overworld := world.Offers == nil
	if overworld {
		world.Offers = Overworld
	}
	inv := make([]int, len(g.Items))
	for name, n := range carried {
		if it := g.ItemByName(name); it != nil && n > 0 {
			inv[it.ID] += n
		}
	}
	px := priceAll(g, inv, world, overworld)
	target, err := resolveGoal(g, goal.Item, inv, px)
	if err != nil {
		return nil, err
	}
	b := newBuilder(g, inv, world, px)
	ok := b.run(target, goal.Count, false)
	if !ok {
		// Plan again, standing in for what cannot be had, so that the
		// answer says everything that is missing and what can be done.
		b = newBuilder(g, inv, world, px)
		b.run(target, goal.Count, true)
	}
	p := &Plan{Goal: ItemCount{g.Item(target).Name, goal.Count}, Tree: b.root, Cannot: b.cannot}
	if !ok {
		p.Reason = explain(g, px, target)
	}
	p.Steps = merge(b.steps)
	p.Missing = missingOf(p.Steps)
	p.Uses = b.usesOf()
	if p.Steps == nil {
		p.Steps = []Step{}
	}
	return p, nil
}

// goalWords are the words for a goal that mean a made item rather than
// what to mine: "get iron" means iron ingots, while "collect iron" (see
// mcdata.Gatherable) means the ore's raw iron.
var goalWords = map[string]string{
	"iron":   "iron_ingot",
	"gold":   "gold_ingot",
	"copper": "copper_ingot",
}

// resolveGoal finds the item a goal names: an item, a goal word, or a word
// for several items (mcdata.Gatherable: "planks", "wood"), of which it
// takes the one the bot carries most of, else the cheapest to get.
func resolveGoal(g *mcdata.GameData, name string, inv []int, px *prices) (mcdata.ItemID, error) {
	word := strings.ToLower(strings.TrimSpace(name))
	if it := g.ItemByName(word); it != nil {
		return it.ID, nil
	}
	if w, ok := goalWords[word]; ok {
		if it := g.ItemByName(w); it != nil {
			return it.ID, nil
		}
	}
	w, ok := g.Gatherable(word)
	if !ok || len(w.Items) == 0 {
		return 0, fmt.Errorf("%q is not an item of Minecraft %s; give an item's name, e.g. iron_pickaxe or oak_planks", name, g.Version)
	}
	if len(w.Items) == 1 {
		return w.Items[0], nil
	}
	best, bestHave := w.Items[0], 0
	for _, id := range w.Items {
		if inv[id] > bestHave {
			best, bestHave = id, inv[id]
		}
	}
	if bestHave > 0 {
		return best, nil
	}
	for _, id := range w.Items {
		if px.cost[id] < px.cost[best] || (px.cost[id] == px.cost[best] && plainer(g, id, best)) {
			best = id
		}
	}
	return best, nil
}

// plainer says whether item a is the plainer of two equally good choices:
// the name with fewer words (cobblestone before cobbled_deepslate), then
// the one first in the registry (oak before the other woods).
func plainer(g *mcdata.GameData, a, b mcdata.ItemID) bool {
	wa, wb := strings.Count(g.Item(a).Name, "_"), strings.Count(g.Item(b).Name, "_")
	if wa != wb {
		return wa < wb
	}
	return a < b
}

// missingOf sums the gather steps by item.
func missingOf(steps []Step) []ItemCount {
	var out []ItemCount
	for _, s := range steps {
		if s.Kind != Gather {
			continue
		}
		i := slices.IndexFunc(out, func(c ItemCount) bool { return c.Item == s.Item })
		if i < 0 {
			out = append(out, ItemCount{s.Item, s.Count})
		} else {
			out[i].Count += s.Count
		}
	}
	if out == nil {
		out = []ItemCount{}
	}
	return out
}
