package tools

import (
	"context"
	"errors"
	"fmt"

	"github.com/blockmate/blockmate/bot/combat"
	"github.com/blockmate/blockmate/protocol"
)

// AttackResult is mc_attack's result.
type AttackResult struct {
	Attacked bool `json:"attacked"`
	Killed   bool `json:"killed"`
	// Target is the entity type fought; Name a player's username (text a
	// player chose).
	Target   string `json:"target,omitempty"`
	Name     string `json:"name,omitempty"`
	Hits     int    `json:"hits"`
	Reason   string `json:"reason,omitempty"`
	NextStep string `json:"next_step,omitempty"`
}

// DefendResult is mc_defend's result.
type DefendResult struct {
	Defending bool `json:"defending"`
}

func (t *Tools) registerCombat(c *protocol.Catalog) {
	c.Add(protocol.Tool{
		Name: "mc_attack",
		Description: "Fights one target until it dies: target is nearest_hostile, a player's username, or an entity type (zombie, skeleton …), the nearest living one. " +
			"The bot hits at full attack strength (waiting out the held weapon's cooldown), from within reach (3 blocks), looking at the target. " +
			"killed comes from the server (the target's death or removal). A target out of reach ends it with a reason. Equip a weapon first (mc_equip) to hit harder.",
		Args: protocol.Schema{
			protocol.Str("target", "nearest_hostile, a username, or an entity type such as zombie").Req().Len(1, 100),
		},
		Effect:        protocol.Destructive,
		Long:          true,
		UntrustedText: true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.alive("fight")
			if err != nil {
				return nil, err
			}
			r, err := w.Combat().Attack(ctx, a.String("target"))
			out := AttackResult{Attacked: r.Hits > 0, Killed: r.Killed, Target: r.Target, Name: sanitizeName(r.Name), Hits: r.Hits, Reason: r.Reason}
			switch {
			case errors.Is(err, combat.ErrNoTarget):
				out.Reason, out.NextStep = err.Error(), "call mc_nearby to see what is around the bot"
				return out, nil
			case err != nil:
				return nil, fmt.Errorf("the fight stopped after %d hits: %v", r.Hits, err)
			}
			if !out.Killed {
				out.NextStep = "call mc_nearby to see where the target is"
			}
			return out, nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_defend",
		Description: "Turns self-defence on or off: while on, the bot hits any hostile mob that comes within reach (3 blocks) at full attack strength, on its own, until turned off or the bot leaves the world. " +
			"It does not chase; combine with mc_attack to go after one. mc_hurt events say who is hitting the bot.",
		Args: protocol.Schema{
			protocol.Bool("enabled", "true to defend, false to stop").Req(),
		},
		Effect: protocol.Write,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			// One switch for defending: mc_set_behavior's.
			t.setBehavior("defend", a.Bool("enabled"))
			return DefendResult{Defending: w.Combat().Defending()}, nil
		},
	})
}
