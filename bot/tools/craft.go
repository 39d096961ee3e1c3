package tools

import (
	"context"
	"errors"
	"fmt"

	"github.com/blockmate/blockmate/bot/inventory"
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
	Reason        string    `json:"reason,omitempty"`
	NextStep      string    `json:"next_step,omitempty"`
}

// CraftResult is mc_craft's result.
type CraftResult struct {
	Crafted bool   `json:"crafted"`
	Item    string `json:"item"`
	// Count is how many arrived in the inventory, counted from the
	// server's updates.
	Count    int               `json:"count"`
	Missing  []skill.ItemCount `json:"missing,omitempty"`
	Reason   string            `json:"reason,omitempty"`
	NextStep string            `json:"next_step,omitempty"`
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
		Description: "Looks up how to craft an item with what the bot carries: craftable_now (ingredients carried and, for a 3×3 recipe, a crafting table within reach), needs_crafting_table, missing[{item, count}] and ingredients[{item, count}] for count of the item, " +
			"from the game version's own recipes (of the variants, the one the bot lacks least for: oak or birch planks …). An item without a crafting recipe (ores, logs) is an error that says so.",
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
			info, err := w.Skills().Recipe(name, max(a.Int("count"), 1))
			if err != nil {
				return nil, err
			}
			return recipeReport(info), nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_craft",
		Description: "Crafts count of an item (at least: a recipe can make more at a time, 4 planks from a log) from what the bot carries, in the inventory's 2×2 grid or, for a 3×3 recipe, at a crafting table within reach, and answers with how many arrived in the inventory (from the server's own update, never a guess). " +
			"It does not craft intermediate steps: crafted=false with missing[] says what to get or craft first (planks before sticks); without a table in reach it says how to get one.",
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
			r, err := w.Skills().Craft(ctx, name, count, t.taskProgress(ctx, "mc_craft"))
			out := CraftResult{Crafted: r.Made >= count, Item: name, Count: r.Made, Missing: r.Info.Missing, Reason: r.Reason}
			switch {
			case errors.Is(err, skill.ErrNoTable):
				out.Reason, out.NextStep = err.Error(), nextStepTable
				return out, nil
			case err != nil && r.Made == 0 && r.Info.Recipe == nil:
				return nil, err
			case err != nil:
				return nil, fmt.Errorf("crafting %s stopped after %d arrived: %v; %s", name, r.Made, err, nextStepInventory)
			}
			if len(out.Missing) > 0 {
				out.NextStep = fmt.Sprintf("get %d %s first (mc_recipe %s says how, where it can be crafted), then call mc_craft %s again", out.Missing[0].Count, out.Missing[0].Item, out.Missing[0].Item, name)
			} else if !out.Crafted {
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
