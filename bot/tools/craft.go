package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/plan"
	"github.com/blockmate/blockmate/bot/skill"
	"github.com/blockmate/blockmate/protocol"
)

// RecipeResult is mc_recipe's result.
type RecipeResult struct {
	CraftableNow       bool              `json:"craftable_now"`
	NeedsCraftingTable bool              `json:"needs_crafting_table"`
	Missing            []skill.ItemCount `json:"missing"`
	Ingredients        []skill.ItemCount `json:"ingredients"`
	Item               string            `json:"item"`
	// Makes is how many items the crafts give (a recipe makes several at
	// a time: 4 planks from a log).
	Makes int `json:"makes"`
	// CraftingTable is the table within reach, when one is needed.
	CraftingTable *BlockPos `json:"crafting_table,omitempty"`
	// CraftsFromInventory says mc_craft can make it now from what the bot
	// carries, crafting the steps between (planks from logs, a table to
	// place), although craftable_now, which is about this one recipe, may
	// be false.
	CraftsFromInventory bool `json:"crafts_from_inventory"`
	// How is the way a player gets the item, first: "craft", "smelt" or
	// "gather" (iron_ingot is smelted from raw_iron, coal mined from
	// coal_ore, never crafted back out of their blocks), and Way that way
	// in words.
	How string `json:"how"`
	Way string `json:"way"`
	// Steps are the whole way from what the bot carries, in words;
	// RawMaterials what it gathers from the world on the way, and Carried
	// what it takes from the inventory.
	Steps        []string          `json:"steps"`
	RawMaterials []MissingItem     `json:"raw_materials"`
	Carried      []skill.ItemCount `json:"carried"`
	// Tree is the item's tree: how each part is got, raw materials at the
	// leaves, what is carried marked.
	Tree     *plan.Node `json:"tree,omitempty"`
	Reason   string     `json:"reason,omitempty"`
	NextStep string     `json:"next_step,omitempty"`
}

// CraftResult is mc_craft's result.
type CraftResult struct {
	Crafted bool   `json:"crafted"`
	Item    string `json:"item"`
	// Count is how many arrived in the inventory, counted from the
	// server's updates.
	Count int `json:"count"`
	// Steps is what the craft did, in order: the intermediates it crafted
	// (planks for the sticks), the crafting table it placed, and the
	// item's own craft last.
	Steps []CraftStep `json:"steps"`
	// Missing is, when the bot cannot craft the item from what it carries,
	// every raw material the world provides that the whole tree lacks
	// (logs for the planks and for the sticks), summed by item.
	Missing  []MissingItem `json:"missing,omitempty"`
	Reason   string        `json:"reason,omitempty"`
	NextStep string        `json:"next_step,omitempty"`
}

// nextStepTable says how to get a crafting table.
const nextStepTable = "place a crafting_table within 4 blocks of the bot (mc_place; craft one from 4 planks with mc_craft crafting_table), or move the bot next to one"

// taskProgress reports a long call's progress as mc_task_progress, keyed by
// the call's id (nil outside a dispatched call).
func (t *Tools) taskProgress(ctx context.Context, tool string) func(done, total int) {
	id, ok := protocol.CallID(ctx)
	if !ok {
		return nil
	}
	return func(done, total int) {
		t.emit("mc_task_progress", id, protocol.TaskProgress{Tool: tool, ID: id, Done: int64(done), Total: int64(total)})
	}
}

// stepProgress is taskProgress for a call of several steps: each report
// names the step ("crafting oak_planks for crafting_table") with how many
// steps are done of all, for the console's task line.
func (t *Tools) stepProgress(ctx context.Context, tool string) func(step string, done, total int) {
	id, ok := protocol.CallID(ctx)
	if !ok {
		return nil
	}
	return func(step string, done, total int) {
		t.emit("mc_task_progress", id, protocol.TaskProgress{Tool: tool, ID: id, Done: int64(done), Total: int64(total), Step: step})
	}
}

// recipe is mc_recipe: the plan's way to count of the item from what the
// bot carries (bot/plan, which ranks a player's way first), with the
// ingredients of its last step; for a craft, those of the recipe variant
// the bot lacks least for, and where it can be crafted.
func (w *session) recipe(item string, count int) (RecipeResult, error) {
	k := w.Skills()
	carried := skill.Have(w.Inventory().View())
	_, tableNear := k.TableToWalkTo()
	cp, err := planCraft(k.Game(), item, count, carried, tableNear)
	if err != nil {
		return RecipeResult{}, err
	}
	p := cp.Plan
	var out RecipeResult
	last := plan.Step{Kind: plan.Craft}
	if n := len(p.Steps); n > 0 && p.Steps[n-1].Item == item {
		last = p.Steps[n-1]
	}
	if last.Kind == plan.Craft && len(k.Game().RecipesFor(k.Game().ItemByName(item).ID)) > 0 {
		info, err := k.Recipe(item, count)
		if err != nil {
			return RecipeResult{}, err
		}
		out = recipeReport(info)
	} else {
		out = RecipeResult{Item: item, Makes: count, Missing: []skill.ItemCount{}, Ingredients: []skill.ItemCount{}}
		for _, u := range last.Uses {
			out.Ingredients = append(out.Ingredients, skill.ItemCount{Item: u.Item, Count: u.Count})
			if lack := u.Count - carried[u.Item]; lack > 0 {
				out.Missing = append(out.Missing, skill.ItemCount{Item: u.Item, Count: lack})
			}
		}
		switch last.Kind {
		case plan.Smelt:
			out.Reason = fmt.Sprintf("%s is smelted from %s in a furnace, not crafted", item, counts(last.Uses))
			out.NextStep = fmt.Sprintf("call mc_smelt %s %d at a furnace", last.Uses[0].Item, count)
		case plan.Gather:
			out.Reason = fmt.Sprintf("%s is got by mining %s, not crafted", item, strings.Join(last.From, " or "))
			out.NextStep = fmt.Sprintf("call mc_collect %s %d", last.From[0], count)
		default:
			out.Reason = p.Reason
		}
	}
	out.How, out.Way = string(last.Kind), wayOf(last)
	if out.CraftsFromInventory = cp.Runnable(); out.CraftsFromInventory && !out.CraftableNow {
		var between []string
		for _, s := range p.Steps[:len(p.Steps)-1] {
			between = append(between, s.String())
		}
		out.NextStep = fmt.Sprintf("call mc_craft %s %d: it does the steps between from what the bot carries (%s)", item, count, strings.Join(between, "; "))
	}
	if !p.OK() {
		out.How, out.Way = "cannot", p.Reason
	}
	out.Steps, out.RawMaterials, out.Carried, out.Tree = []string{}, cp.Missing, []skill.ItemCount{}, p.Tree
	if out.RawMaterials == nil {
		out.RawMaterials = []MissingItem{}
	}
	for _, s := range p.Steps {
		out.Steps = append(out.Steps, s.String())
	}
	for _, u := range p.Uses {
		out.Carried = append(out.Carried, skill.ItemCount{Item: u.Item, Count: u.Count})
	}
	return out, nil
}

// wayOf is a plan's last step as mc_recipe's way: "smelt raw_iron in a
// furnace", "mine coal_ore or deepslate_coal_ore with a wooden_pickaxe",
// "craft from 3 oak_planks + 2 stick at a crafting_table".
func wayOf(s plan.Step) string {
	switch s.Kind {
	case plan.Smelt:
		return fmt.Sprintf("smelt %s in a furnace", counts(s.Uses))
	case plan.Gather:
		way := "mine " + strings.Join(s.From, " or ")
		if s.Tool != "" {
			article := "a "
			if strings.ContainsRune("aeiou", rune(s.Tool[0])) {
				article = "an "
			}
			way += " with " + article + s.Tool
		}
		return way
	case plan.Craft:
		if len(s.Uses) == 0 {
			return "craft it"
		}
		way := "craft from " + counts(s.Uses)
		if s.Table {
			way += " at a crafting_table"
		}
		return way
	}
	return string(s.Kind)
}

func counts(list []plan.ItemCount) string {
	parts := make([]string, len(list))
	for i, c := range list {
		parts[i] = fmt.Sprintf("%d %s", c.Count, c.Item)
	}
	return strings.Join(parts, " + ")
}

func recipeReport(info skill.RecipeInfo) RecipeResult {
	out := RecipeResult{
		CraftableNow: info.CraftableNow(), NeedsCraftingTable: info.NeedsTable,
		Missing: info.Missing, Ingredients: info.Ingredients, Item: info.Item, Makes: info.Makes,
	}
	if out.Missing == nil {
		out.Missing = []skill.ItemCount{}
	}
	if out.Ingredients == nil {
		out.Ingredients = []skill.ItemCount{}
	}
	if info.HasTable {
		out.CraftingTable = &BlockPos{info.Table.X, info.Table.Y, info.Table.Z}
	}
	switch {
	case len(info.Missing) > 0:
		out.Reason = "the bot lacks ingredients"
		out.NextStep = fmt.Sprintf("get the missing items first (craft them with mc_craft where they have a recipe, e.g. mc_recipe %s), then craft %s", info.Missing[0].Item, info.Item)
	case info.NeedsTable && !info.HasTable:
		out.Reason = "the recipe needs a crafting table and none is within reach"
		out.NextStep = nextStepTable
	default:
		out.NextStep = fmt.Sprintf("call mc_craft %s", info.Item)
	}
	return out
}

func (t *Tools) registerCraft(c *protocol.Catalog) {
	c.Add(protocol.Tool{
		Name: "mc_recipe",
		Description: "Looks up how to get an item, the way a player does first (how: craft, smelt or gather; iron_ingot is smelted from raw_iron, coal mined from coal_ore), with what the bot carries: craftable_now (ingredients carried and, for a 3×3 recipe, a crafting table within reach), needs_crafting_table, missing[{item, count}] and ingredients[{item, count}] of its last step for count of the item " +
			"(of the recipe variants, the one the bot lacks least for: oak or birch planks …), crafts_from_inventory (mc_craft can make it now, crafting the steps between), and the whole tree from the game version's recipes, drops and smelting: steps[] in words, raw_materials[{item, count, from}] from the world, carried[] (what it takes from the inventory) and tree.",
		Args: protocol.Schema{
			protocol.Str("item", "the item to craft, by its registry name, e.g. crafting_table or stick").Req().Len(1, 100),
			protocol.Int("count", "how many items are wanted", 1, 64*36).Def(1),
		},
		Effect: protocol.Read,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			name, err := w.itemArg(a, "item")
			if err != nil {
				return nil, err
			}
			return w.recipe(name, max(a.Int("count"), 1))
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_craft",
		Description: "Crafts count of an item (at least: a recipe can make more at a time, 4 planks from a log) from what the bot carries, crafting on the way the intermediates it needs (logs → planks → sticks …, of the recipe variants those the bot carries: any log or plank kind), in the inventory's 2×2 grid or, for a 3×3 recipe, at a crafting table within reach, else the nearest within 24 blocks (it walks there), else one it crafts and places beside itself, and answers with how many arrived in the inventory (from the server's own update, never a guess) and steps[{did, item, count, for?, at?}] (what it did, in order, the item's own craft last). " +
			"When the bot cannot, crafted=false and missing[{item, count, from}] names every raw material the world provides that the whole tree lacks (the logs for the planks and for the sticks, summed); smelting it would need is named in reason, not done. Reports mc_task_progress per step, with the step in words (step: \"crafting oak_planks for crafting_table\").",
		Args: protocol.Schema{
			protocol.Str("item", "the item to craft, by its registry name, e.g. oak_planks, stick, wooden_pickaxe").Req().Len(1, 100),
			protocol.Int("count", "how many items are wanted", 1, 64*36).Def(1),
		},
		Effect: protocol.Write,
		Long:   true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.alive("craft")
			if err != nil {
				return nil, err
			}
			name, err := w.itemArg(a, "item")
			if err != nil {
				return nil, err
			}
			count := max(a.Int("count"), 1)
			out, err := w.craftPlanned(ctx, name, count, t.stepProgress(ctx, "mc_craft"))
			switch {
			case errors.Is(err, skill.ErrNoTable):
				out.Reason, out.NextStep = err.Error(), nextStepTable
				return out, nil
			case err != nil && ctx.Err() != nil:
				return nil, fmt.Errorf("crafting %s was stopped (%v) after %d arrived and %d steps; the next call starts clean", name, context.Cause(ctx), out.Count, len(out.Steps))
			case err != nil && out.Count == 0 && len(out.Steps) == 0:
				return nil, err
			case err != nil:
				return nil, fmt.Errorf("crafting %s stopped after %d arrived: %v; %s", name, out.Count, err, nextStepInventory)
			}
			switch {
			case out.Crafted:
			case len(out.Missing) > 0:
				var get []string
				for _, m := range out.Missing {
					get = append(get, fmt.Sprintf("mc_collect %s %d", m.Item, m.Count))
				}
				out.NextStep = fmt.Sprintf("gather the missing raw materials first (%s), then call mc_craft %s again: it crafts the steps between", strings.Join(get, ", "), name)
			case strings.Contains(out.Reason, "smelt"):
				out.NextStep = fmt.Sprintf("smelt first (mc_smelt at a furnace), then call mc_craft %s again", name)
			default:
				out.NextStep = nextStepInventory
			}
			return out, nil
		},
	})
}

// EatResult is mc_eat's result.
type EatResult struct {
	Ate bool `json:"ate"`
	// Food and Saturation are the server's values after eating.
	Food       int32   `json:"food"`
	Saturation float32 `json:"saturation"`
	Item       string  `json:"item,omitempty"`
	Reason     string  `json:"reason,omitempty"`
	NextStep   string  `json:"next_step,omitempty"`
}

func (t *Tools) registerEat(c *protocol.Catalog) {
	c.Add(protocol.Tool{
		Name: "mc_eat",
		Description: "Eats one food item and waits until eating is over (about 1.6 s), answering with the food level and saturation the server sent afterwards. " +
			"Without item it eats the best food carried (the most saturation, nothing harmful unless that is all there is). " +
			"A bot that is not hungry (food 20) cannot eat: ate=false says so.",
		Args: protocol.Schema{
			protocol.Str("item", "the food, by its registry name, e.g. bread or cooked_beef; leave out for the best food carried").Len(1, 100),
		},
		Effect: protocol.Write,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.alive("eat")
			if err != nil {
				return nil, err
			}
			name := ""
			if a.Has("item") {
				if name, err = w.itemArg(a, "item"); err != nil {
					return nil, err
				}
			}
			r, err := w.Skills().Eat(ctx, name)
			out := EatResult{Ate: r.Ate, Food: r.Food, Saturation: r.Saturation, Item: r.Item, Reason: r.Reason}
			switch {
			case errors.Is(err, skill.ErrNoFood):
				out.Reason, out.NextStep = "the bot carries no food", "get food first: cooked meat, bread, apples … (mc_get_inventory shows what the bot carries)"
				return out, nil
			case errors.Is(err, inventory.ErrNotCarried):
				out.Reason, out.NextStep = err.Error(), nextStepInventory
				return out, nil
			case err != nil:
				return nil, fmt.Errorf("eating %s failed: %v; call mc_get_health to see the food level", r.Item, err)
			}
			return out, nil
		},
	})
}

// SmeltResult is mc_smelt's result.
type SmeltResult struct {
	Smelted bool `json:"smelted"`
	// Count is how many of the output arrived in the inventory.
	Count    int    `json:"count"`
	Output   string `json:"output,omitempty"`
	Item     string `json:"item"`
	Fuel     string `json:"fuel,omitempty"`
	Reason   string `json:"reason,omitempty"`
	NextStep string `json:"next_step,omitempty"`
}

func (t *Tools) registerSmelt(c *protocol.Catalog) {
	c.Add(protocol.Tool{
		Name: "mc_smelt",
		Description: "Smelts count of an item (raw_iron, oak_log, sand …) in a furnace within reach: puts it in, feeds fuel one item at a time while there is cooking to do, takes the output as it comes (10 s an item at the game's speed), and takes back what is left. " +
			"count is how many of the output arrived in the inventory, counted from the server's update. Without fuel it burns the best fuel carried (coal, charcoal, logs, planks, sticks), never the item being smelted. " +
			"Whether an item smelts is the server's to say: a furnace that does not start is reported with a reason.",
		Args: protocol.Schema{
			protocol.Str("item", "the item to smelt, by its registry name, e.g. raw_iron").Req().Len(1, 100),
			protocol.Int("count", "how many to smelt", 1, 64*36).Def(1),
			protocol.Str("fuel", "the fuel to burn, e.g. coal; leave out for the best carried").Len(1, 100),
		},
		Effect: protocol.Write,
		Long:   true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.alive("smelt")
			if err != nil {
				return nil, err
			}
			name, err := w.itemArg(a, "item")
			if err != nil {
				return nil, err
			}
			fuel := ""
			if a.Has("fuel") {
				if fuel, err = w.itemArg(a, "fuel"); err != nil {
					return nil, err
				}
			}
			count := max(a.Int("count"), 1)
			r, err := w.Skills().Smelt(ctx, name, count, fuel, t.taskProgress(ctx, "mc_smelt"))
			out := SmeltResult{Smelted: r.Smelted >= count, Count: r.Smelted, Output: r.Output, Item: name, Fuel: r.Fuel, Reason: r.Reason}
			switch {
			case errors.Is(err, skill.ErrNoFurnace):
				out.Reason, out.NextStep = "no furnace within reach", "place a furnace within 4 blocks of the bot (mc_place; craft one from 8 cobblestone at a crafting table), or move the bot next to one"
				return out, nil
			case errors.Is(err, skill.ErrNoFuel):
				out.Reason, out.NextStep = err.Error(), "get fuel first: coal, charcoal, logs, planks or sticks"
				return out, nil
			case errors.Is(err, inventory.ErrNotCarried):
				out.Reason, out.NextStep = err.Error(), nextStepInventory
				return out, nil
			case err != nil:
				return nil, fmt.Errorf("smelting %s stopped after %d: %v; %s", name, r.Smelted, err, nextStepInventory)
			}
			if !out.Smelted {
				if out.Reason == "" {
					out.Reason = fmt.Sprintf("only %d of %d came out", r.Smelted, count)
				}
				out.NextStep = nextStepInventory
			}
			return out, nil
		},
	})
}

// GiveResult is mc_give's result.
type GiveResult struct {
	// Given is true when the player took everything asked for.
	Given bool   `json:"given"`
	Item  string `json:"item"`
	// Count is how many left the bot for good (thrown, less any the bot
	// picked back up).
	Count int `json:"count"`
	Left  int `json:"left"`
	// OnGround is how many still lay at the player's feet after the
	// pick-up delay: thrown but not taken.
	OnGround int    `json:"on_ground,omitempty"`
	Reason   string `json:"reason,omitempty"`
	NextStep string `json:"next_step,omitempty"`
}

func (t *Tools) registerGive(c *protocol.Catalog) {
	c.Add(protocol.Tool{
		Name: "mc_give",
		Description: "Gives a player items: the bot goes near them, looks at them and throws count of the item to them, as a player would. " +
			"It steps back and waits out the game's pick-up delay (2 s) away from the stacks, so the answer says what is true at its end: given=true once the player took them all, else on_ground says how many still lie at their feet. " +
			"count is how many left the bot's inventory (from the server's answer). The player must be in sight (mc_list_players shows who is near).",
		Args: protocol.Schema{
			protocol.Str("username", "the player to give to").Req().Len(1, 16),
			protocol.Str("item", "the item, by its registry name, e.g. bread").Req().Len(1, 100),
			protocol.Int("count", "how many to give", 1, 64*36).Def(1),
		},
		Effect:        protocol.Destructive,
		UntrustedText: true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.alive("give anything")
			if err != nil {
				return nil, err
			}
			name, err := w.itemArg(a, "item")
			if err != nil {
				return nil, err
			}
			count := max(a.Int("count"), 1)
			r, err := w.Skills().Give(ctx, a.String("username"), name, count)
			thrown := r.Given - r.TookBack
			out := GiveResult{Given: thrown >= count && r.OnGround == 0, Item: name, Count: thrown, Left: r.Left, OnGround: r.OnGround, Reason: r.Reason}
			switch {
			case errors.Is(err, inventory.ErrNotCarried):
				out.Reason, out.NextStep = fmt.Sprintf("the bot has no %s", name), nextStepInventory
				return out, nil
			case errors.Is(err, skill.ErrPlayerNotInSight):
				out.Reason, out.NextStep = fmt.Sprintf("%s is not in sight", sanitizeName(a.String("username"))), "call mc_list_players to see who is near; the player must be within view distance"
				return out, nil
			case err != nil && ctx.Err() == nil && r.Given == 0:
				out.Reason, out.NextStep = err.Error(), "bring the bot next to the player first"
				return out, nil
			case err != nil:
				return nil, fmt.Errorf("giving %s stopped after %d: %v; %s", name, r.Given, err, nextStepInventory)
			}
			switch {
			case out.Given:
			case r.Given < count && out.Reason == "":
				out.Reason = fmt.Sprintf("the bot had only %d %s", r.Given, name)
			case r.OnGround > 0:
				out.Reason = fmt.Sprintf("%d %s still lie at the player's feet: they did not pick them up within the pick-up delay", r.OnGround, name)
				out.NextStep = "the player picks them up by walking over them; mc_pickup_items takes them back"
			case r.TookBack > 0:
				out.Reason = fmt.Sprintf("the bot picked %d %s back up", r.TookBack, name)
				out.NextStep = "call mc_give again from a little further away"
			}
			return out, nil
		},
	})
}
