package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/blockmate/blockmate/bot/dig"
	blocks "github.com/blockmate/blockmate/bot/world"

	"github.com/blockmate/blockmate/protocol"
)

// DigResult is mc_dig's result.
type DigResult struct {
	Dug   bool   `json:"dug"`
	Block string `json:"block"`
	// Tool is what the bot dug with ("hand" for none) and BreakTicks the
	// game's break time it waited (20 ticks a second).
	Tool       string `json:"tool,omitempty"`
	BreakTicks *int   `json:"break_ticks,omitempty"`
	// Drops is false when the block drops nothing with that tool (stone
	// by hand).
	Drops    *bool  `json:"drops,omitempty"`
	Reason   string `json:"reason,omitempty"`
	NextStep string `json:"next_step,omitempty"`
}

// PlaceResult is mc_place's result.
type PlaceResult struct {
	Placed bool   `json:"placed"`
	Block  string `json:"block,omitempty"`
	// Against is the block whose face was clicked, Face which face.
	Against  *Vec3  `json:"against,omitempty"`
	Face     string `json:"face,omitempty"`
	Reason   string `json:"reason,omitempty"`
	NextStep string `json:"next_step,omitempty"`
}

// UseBlockResult is mc_use_block's result.
type UseBlockResult struct {
	Used  bool              `json:"used"`
	Block string            `json:"block"`
	State map[string]string `json:"state,omitempty"`
	// Changed says the block's state changed (a door opened).
	Changed  bool   `json:"changed"`
	Reason   string `json:"reason,omitempty"`
	NextStep string `json:"next_step,omitempty"`
}

// CollectResult is mc_collect's result.
type CollectResult struct {
	Collected int    `json:"collected"`
	Item      string `json:"item,omitempty"`
	Wanted    int    `json:"wanted"`
	Dug       int    `json:"dug"`
	// Items is what arrived item by item when several count (wood: any
	// log kind).
	Items []ItemCount `json:"items,omitempty"`
	// DugThrough are the other blocks broken on the way to buried ones.
	DugThrough []ItemCount `json:"dug_through,omitempty"`
	// MissingTool names the tools that would harvest the blocks when the
	// bot carries none; CraftedTool the one craft_tools crafted.
	MissingTool []string `json:"missing_tool,omitempty"`
	CraftedTool string   `json:"crafted_tool,omitempty"`
	Reason      string   `json:"reason,omitempty"`
	NextStep    string   `json:"next_step,omitempty"`
}

// collectResult turns the skill's answer into the tool's.
func collectResult(r dig.CollectResult, wanted int) CollectResult {
	out := CollectResult{Collected: r.Collected, Item: r.Item, Wanted: wanted, Dug: r.Dug, MissingTool: r.MissingTool, Reason: r.Reason, NextStep: r.NextStep}
	for _, p := range r.Items {
		out.Items = append(out.Items, ItemCount{p.Item, p.Count})
	}
	for _, p := range r.DugThrough {
		out.DugThrough = append(out.DugThrough, ItemCount{p.Item, p.Count})
	}
	return out
}

// craftTool crafts the first of the tools (weakest first) the bot can
// craft from what it carries, and names it; "" when it could craft none.
func (w *session) craftTool(ctx context.Context, tools []string) (string, error) {
	for _, tool := range tools {
		r, err := w.Skills().Craft(ctx, tool, 1, nil)
		if ctx.Err() != nil {
			return "", context.Cause(ctx)
		}
		if err == nil && r.Made >= 1 {
			return tool, nil
		}
	}
	return "", nil
}

// PickupResult is mc_pickup_items' result.
type PickupResult struct {
	PickedUp []ItemCount `json:"picked_up"`
	Seen     int         `json:"items_seen"`
	Reason   string      `json:"reason,omitempty"`
	NextStep string      `json:"next_step,omitempty"`
}

// blockArgs are x, y, z of a block.
func blockArgs(what string) protocol.Schema {
	return protocol.Schema{
		protocol.Int("x", what+" x", -30_000_000, 30_000_000).Req(),
		protocol.Int("y", what+" y", -2048, 2048).Req(),
		protocol.Int("z", what+" z", -30_000_000, 30_000_000).Req(),
	}
}

func blockPos(a protocol.Args) blocks.BlockPos {
	return blocks.BlockPos{X: a.Int("x"), Y: a.Int("y"), Z: a.Int("z")}
}

// stopped turns a cancelled skill into the sentence the caller sees.
func stopped(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s was stopped (%v); the next call starts clean", what, context.Cause(ctx))
	}
	return err
}

const nextStepFindBlocks = "call mc_block_at or mc_find_blocks to see what is there"

func (t *Tools) registerDig(c *protocol.Catalog) {
	c.Add(protocol.Tool{
		Name: "mc_dig",
		Description: "Breaks the block at x, y, z as a survival player does: it takes the best tool the bot carries (one that makes the block drop first, then the fastest), waits the game's break time (hardness, tool and tier, efficiency, haste, mining fatigue, water, standing), and answers dug=true only when the server's block change shows air there. " +
			"Refuses, with the reason, air, fluids, unbreakable blocks (bedrock), unloaded chunks and blocks beyond reach (4.5 blocks from the eyes). The drops stay on the ground: mc_pickup_items or mc_collect gathers them.",
		Args:   blockArgs("the block's"),
		Effect: protocol.Destructive,
		Long:   true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			r, err := w.Dig().Dig(ctx, blockPos(a))
			if err != nil {
				return nil, stopped(ctx, "the dig", err)
			}
			out := DigResult{Dug: r.Dug, Block: r.Block, Reason: r.Reason}
			if r.Dug {
				out.Tool = r.Tool
				if out.Tool == "" {
					out.Tool = "hand"
				}
				out.BreakTicks, out.Drops = ptr(r.Ticks), ptr(r.Drops)
			} else {
				out.NextStep = nextStepFindBlocks
			}
			return out, nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_place",
		Description: "Places a block the bot carries at x, y, z: it finds a solid neighbouring block's face that touches the position, puts the item in the hand, looks at the face and right-clicks it, and answers placed=true only when the server's block change shows the block there. " +
			"The position must be empty (air, water, grass …) and not where the bot stands; reason says why when no face is available or the server refused.",
		Args: append(protocol.Schema{
			protocol.Str("block", "the block item to place, by its registry name, e.g. cobblestone or crafting_table").Req().Len(1, 100),
		}, blockArgs("where the block goes:")...),
		Effect: protocol.Write,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			name, err := w.itemArg(a, "block")
			if err != nil {
				return nil, err
			}
			r, err := w.Dig().Place(ctx, name, blockPos(a))
			if err != nil {
				return nil, stopped(ctx, "placing", err)
			}
			out := PlaceResult{Placed: r.Placed, Block: r.Block, Reason: r.Reason}
			if r.Face != "" {
				out.Against, out.Face = &Vec3{X: float64(r.Against.X), Y: float64(r.Against.Y), Z: float64(r.Against.Z)}, r.Face
			}
			if !r.Placed {
				if strings.Contains(r.Reason, "has no") {
					out.NextStep = nextStepInventory
				} else {
					out.NextStep = nextStepFindBlocks
				}
			}
			return out, nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_use_block",
		Description: "Right-clicks the block at x, y, z with the main hand, as a player opens or closes a door, trapdoor or fence gate, flips a lever or presses a button, and answers with the block's state from the server afterwards. " +
			"For blocks a click toggles (open, powered) used=true means the server changed the state; iron doors need redstone and are refused by the server.",
		Args:   blockArgs("the block's"),
		Effect: protocol.Write,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			r, err := w.Dig().Use(ctx, blockPos(a))
			if err != nil {
				return nil, stopped(ctx, "using the block", err)
			}
			out := UseBlockResult{Used: r.Used, Block: r.Block, State: r.State, Changed: r.Changed, Reason: r.Reason}
			if !r.Used {
				out.NextStep = nextStepFindBlocks
			}
			return out, nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_collect",
		Description: "Gathers count of something as people name it: a block (oak_log, stone) or an item (coal means coal_ore and deepslate_coal_ore, cobblestone means stone and cobblestone, dirt means grass blocks too, wood or logs any log kind), resolved from the game's drop tables. " +
			"It digs the nearest blocks that drop it with an open face first (within 64 blocks; those in reach before those it walks to), tunnels to the nearest buried one when none is exposed (dug_through names the other blocks it broke), never digs the block under its feet (it goes down as a staircase), and picks up the drops, until the inventory holds count more than when it began: collected is counted from the inventory, not from the digs. " +
			"When no tool it carries harvests the blocks (stone needs a pickaxe) it says which tool (missing_tool), or with craft_tools=true crafts the first it can and goes on. Reports mc_task_progress (done of total) as it goes; mc_stop stops it within a tick. When it cannot finish it says how far it got (collected), why (reason) and what to do (next_step).",
		// count comes second: the console's bare words fill arguments in
		// order, so "collect coal 4" is block_type coal, count 4.
		Args: protocol.Schema{
			protocol.Str("block_type", "what to gather: a block or item by its registry name (oak_log, stone, coal, cobblestone, dirt) or a word such as wood or logs").Len(1, 100),
			protocol.Int("count", "how many of the item to gather", 1, 64*36).Req(),
			protocol.Str("item", "the same as block_type, for an item: coal, cobblestone, dirt, wood").Len(1, 100),
			protocol.Bool("craft_tools", "when no tool carried harvests the blocks, craft one first (off unless true)").Def(false),
		},
		Effect: protocol.Destructive,
		Long:   true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			name := strings.TrimSpace(a.String("block_type"))
			if item := strings.TrimSpace(a.String("item")); item != "" {
				if name != "" && !strings.EqualFold(name, item) {
					return nil, fmt.Errorf("give what to gather once, as item or as block_type, not both (%q and %q)", item, name)
				}
				name = item
			}
			if name == "" {
				return nil, errors.New("say what to gather: item (coal, cobblestone, dirt, wood …) or block_type (oak_log, stone …)")
			}
			// Right after a join the chunks around the bot are still coming:
			// "none within 64 blocks" must not mean "not loaded yet".
			w.awaitFirstChunks(ctx)
			id, _ := protocol.CallID(ctx)
			progress := func(done, total int) {
				t.emit("mc_task_progress", id, protocol.TaskProgress{Tool: "mc_collect", ID: id, Done: int64(done), Total: int64(total)})
			}
			count := a.Int("count")
			r, err := w.Dig().Collect(ctx, name, count, progress)
			var crafted string
			if err == nil && len(r.MissingTool) > 0 && a.Bool("craft_tools") {
				crafted, err = w.craftTool(ctx, r.MissingTool)
				if err == nil && crafted != "" {
					r, err = w.Dig().Collect(ctx, name, count, progress)
				}
			}
			if err != nil && ctx.Err() == nil {
				return nil, err
			}
			out := collectResult(r, count)
			out.CraftedTool = crafted
			if err != nil {
				return nil, fmt.Errorf("the collect was stopped (%v) after %d of %d %s; the next call starts clean", context.Cause(ctx), r.Collected, out.Wanted, r.Item)
			}
			if len(r.MissingTool) > 0 && a.Bool("craft_tools") {
				out.Reason += fmt.Sprintf("; the bot could not craft any of %s from what it carries", strings.Join(r.MissingTool, ", "))
				out.NextStep = fmt.Sprintf("call mc_recipe %s to see what it needs", r.MissingTool[0])
			}
			return out, nil
		},
	})

	c.Add(protocol.Tool{
		Name:        "mc_pickup_items",
		Description: "Picks up the items lying on the ground within radius blocks of the bot, nearest first, by going to each, and answers with what arrived in the inventory (picked_up, counted from the inventory).",
		Args:        protocol.Schema{protocol.Int("radius", "how far to look, in blocks", 1, 32).Def(8)},
		Effect:      protocol.Write,
		Long:        true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			r, err := w.Dig().PickUp(ctx, float64(a.Int("radius")))
			if err != nil {
				return nil, stopped(ctx, "picking up", err)
			}
			out := PickupResult{PickedUp: []ItemCount{}, Seen: r.Seen, Reason: r.Reason, NextStep: r.NextStep}
			for _, p := range r.PickedUp {
				out.PickedUp = append(out.PickedUp, ItemCount{p.Item, p.Count})
			}
			return out, nil
		},
	})
}
