package tools

import (
	"context"
	"errors"
	"fmt"

	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/skill"
	blocks "github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/protocol"
)

// ChestListResult is mc_chest_list's result.
type ChestListResult struct {
	Items []*ItemEntry `json:"items"`
	Block string       `json:"block"`
	// UntrustedText is set when an item carries a name a player gave it.
	UntrustedText string `json:"untrusted_text,omitempty"`
}

// ChestDepositResult is mc_chest_deposit's result.
type ChestDepositResult struct {
	Deposited int    `json:"deposited"`
	Item      string `json:"item"`
	// Left is how many of the item the bot still carries.
	Left     int    `json:"left"`
	Reason   string `json:"reason,omitempty"`
	NextStep string `json:"next_step,omitempty"`
}

// ChestWithdrawResult is mc_chest_withdraw's result.
type ChestWithdrawResult struct {
	Withdrawn int    `json:"withdrawn"`
	Item      string `json:"item"`
	// Carried is how many of the item the bot carries now.
	Carried  int    `json:"carried"`
	Reason   string `json:"reason,omitempty"`
	NextStep string `json:"next_step,omitempty"`
}

const nextStepChest = "call mc_chest_list with the chest's position to see what it holds"

func chestArgs(extra ...protocol.Arg) protocol.Schema {
	return append(protocol.Schema{
		protocol.Int("x", "the chest's block x", -30_000_000, 30_000_000).Req(),
		protocol.Int("y", "the chest's block y", -2048, 2048).Req(),
		protocol.Int("z", "the chest's block z", -30_000_000, 30_000_000).Req(),
	}, extra...)
}

func chestPos(a protocol.Args) blocks.BlockPos {
	return blocks.BlockPos{X: a.Int("x"), Y: a.Int("y"), Z: a.Int("z")}
}

// chestErr turns a failure to open or use a chest into a sentence with
// what to do.
func chestErr(what string, err error) error {
	return fmt.Errorf("%s failed: %v; the chest must be within 4 blocks of the bot and not blocked by a solid block on top (mc_find_blocks chest finds one)", what, err)
}

func (t *Tools) registerChest(c *protocol.Catalog) {
	c.Add(protocol.Tool{
		Name:          "mc_chest_list",
		Description:   "Opens the chest (or barrel) at x y z, as a player would, and lists its stacks items[{name, count, slot}] (slot is the chest's own, 0 at the top left), then closes it. The chest must be within reach (about 4 blocks).",
		Args:          chestArgs(),
		Effect:        protocol.Read,
		UntrustedText: true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			r, err := w.Skills().ChestList(ctx, chestPos(a))
			if err != nil {
				return nil, chestErr("opening the chest", err)
			}
			out := ChestListResult{Items: []*ItemEntry{}, Block: r.Block}
			for _, s := range r.Items {
				e := itemEntry(w.Inventory().Game(), s.Stack, s.Slot)
				if e.CustomName != "" {
					out.UntrustedText = untrustedNames
				}
				out.Items = append(out.Items, e)
			}
			return out, nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_chest_deposit",
		Description: "Puts count of an item the bot carries into the chest at x y z (within reach), and answers with how many the chest's window gained (deposited) and how many the bot still carries (left), as the server's windows say. " +
			"A full chest stops it with a reason.",
		Args: chestArgs(
			protocol.Str("item", "the item, by its registry name, e.g. cobblestone").Req().Len(1, 100),
			protocol.Int("count", "how many to put in", 1, 64*54).Req(),
		),
		Effect: protocol.Write,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.alive("use a chest")
			if err != nil {
				return nil, err
			}
			name, err := w.itemArg(a, "item")
			if err != nil {
				return nil, err
			}
			count := a.Int("count")
			r, err := w.Skills().ChestDeposit(ctx, chestPos(a), name, count)
			out := ChestDepositResult{Deposited: r.Moved, Item: name, Left: r.Carried, Reason: r.Reason}
			switch {
			case errors.Is(err, inventory.ErrNotCarried):
				out.Left = 0
				out.Reason, out.NextStep = fmt.Sprintf("the bot has no %s", name), nextStepInventory
				return out, nil
			case err != nil:
				return nil, chestErr(fmt.Sprintf("depositing %s (after %d)", name, r.Moved), err)
			}
			if out.Deposited < count && out.Reason == "" {
				out.Reason = fmt.Sprintf("the bot had only %d %s", out.Deposited, name)
			}
			if out.Reason != "" {
				out.NextStep = nextStepChest
			}
			return out, nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_chest_withdraw",
		Description: "Takes count of an item out of the chest at x y z (within reach) into the bot's inventory, and answers with how many the chest's window lost (withdrawn) and how many of it the bot now carries, as the server's windows say. " +
			"A chest with fewer gives what it has, with a reason.",
		Args: chestArgs(
			protocol.Str("item", "the item, by its registry name, e.g. iron_ingot").Req().Len(1, 100),
			protocol.Int("count", "how many to take", 1, 64*54).Req(),
		),
		Effect: protocol.Write,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.alive("use a chest")
			if err != nil {
				return nil, err
			}
			name, err := w.itemArg(a, "item")
			if err != nil {
				return nil, err
			}
			count := a.Int("count")
			r, err := w.Skills().ChestWithdraw(ctx, chestPos(a), name, count)
			out := ChestWithdrawResult{Withdrawn: r.Moved, Item: name, Carried: r.Carried, Reason: r.Reason}
			switch {
			case errors.Is(err, skill.ErrChestHasNone):
				out.Reason, out.NextStep = fmt.Sprintf("the chest has no %s", name), nextStepChest
				return out, nil
			case err != nil:
				return nil, chestErr(fmt.Sprintf("withdrawing %s (after %d)", name, r.Moved), err)
			}
			if out.Withdrawn < count && out.Reason == "" {
				out.Reason = fmt.Sprintf("the chest had only %d %s", out.Withdrawn, name)
			}
			if out.Reason != "" {
				out.NextStep = nextStepChest
			}
			return out, nil
		},
	})
}
