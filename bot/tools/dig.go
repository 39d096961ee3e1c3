package tools

import (
	"context"
	"fmt"
	"strings"

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
	Reason    string `json:"reason,omitempty"`
	NextStep  string `json:"next_step,omitempty"`
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
		Description: "Gathers count of a block: finds the nearest ones the bot can see (within 64 blocks), digs each with the best tool it carries and picks up the drops, until the inventory holds count more of what the block drops (oak_log gives oak_log, stone gives cobblestone) than when it began: collected is counted from the inventory, not from the digs. " +
			"Reports mc_task_progress (done of total) as it goes; mc_stop stops it within a tick. When it cannot finish it says how far it got (collected), why (reason) and what to do (next_step).",
		Args: protocol.Schema{
			protocol.Str("block_type", "the block to gather, by its registry name, e.g. oak_log or stone").Req().Len(1, 100),
			protocol.Int("count", "how many of its drop to gather", 1, 64*36).Req(),
		},
		Effect: protocol.Destructive,
		Long:   true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			name := strings.TrimPrefix(strings.TrimSpace(a.String("block_type")), "minecraft:")
			id, _ := protocol.CallID(ctx)
			progress := func(done, total int) {
				t.emit("mc_task_progress", id, protocol.TaskProgress{Tool: "mc_collect", ID: id, Done: int64(done), Total: int64(total)})
			}
			r, err := w.Dig().Collect(ctx, name, a.Int("count"), progress)
			if err != nil && ctx.Err() == nil {
				return nil, err
			}
			out := CollectResult{Collected: r.Collected, Item: r.Item, Wanted: a.Int("count"), Dug: r.Dug, Reason: r.Reason, NextStep: r.NextStep}
			if err != nil {
				return nil, fmt.Errorf("the collect was stopped (%v) after %d of %d %s; the next call starts clean", context.Cause(ctx), r.Collected, out.Wanted, r.Item)
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
