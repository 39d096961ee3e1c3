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
	Target string `json:"target,omitempty"`
	Name   string `json:"name,omitempty"`
	Hits   int    `json:"hits"`
	// Weapon is what the bot fought with; absent for the bare hand.
	Weapon string `json:"weapon,omitempty"`
	// Died says the bot died in the fight; LowHealth that it stopped at
	// the low-health mark, with its Health then.
	Died      bool     `json:"died,omitempty"`
	LowHealth bool     `json:"low_health,omitempty"`
	Health    *float32 `json:"health,omitempty"`
	Reason    string   `json:"reason,omitempty"`
	NextStep  string   `json:"next_step,omitempty"`
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
			"killed comes from the server (the target's death or removal). A target out of reach ends it with a reason. " +
			"It fights with the best weapon carried (the most damage a second: a sword, else an axe, a pickaxe …), taken in hand first. " +
			"At low health (the mc_low_health mark, 6 of 20) it stops and says so, as a player backs off to eat, unless to_the_end is true; after a death the answer says to call mc_respawn.",
		Args: protocol.Schema{
			protocol.Str("target", "nearest_hostile, a username, or an entity type such as zombie").Req().Len(1, 100),
			protocol.Bool("to_the_end", "keep fighting below the low-health mark (default false: stop there)"),
		},
		Effect:        protocol.Destructive,
		Long:          true,
		UntrustedText: true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.alive("fight")
			if err != nil {
				return nil, err
			}
			r, err := w.Combat().Attack(ctx, a.String("target"), combat.Options{ToTheEnd: a.Bool("to_the_end")})
			out := AttackResult{Attacked: r.Hits > 0, Killed: r.Killed, Target: r.Target, Name: sanitizeName(r.Name), Hits: r.Hits,
				Weapon: r.Weapon, Died: r.Died, LowHealth: r.LowHealth, Reason: r.Reason}
			if r.LowHealth {
				out.Health = ptr(r.Health)
			}
			switch {
			case errors.Is(err, combat.ErrNoTarget):
				out.Reason, out.NextStep = err.Error(), "call mc_nearby to see what is around the bot"
				return out, nil
			case err != nil:
				return nil, fmt.Errorf("the fight stopped after %d hits: %v", r.Hits, err)
			}
			switch {
			case r.Died:
				out.NextStep = "call mc_respawn: the bot is dead, and nothing else works until it respawns"
			case r.LowHealth:
				out.NextStep = "eat (mc_eat) and get away from the target to heal, or call mc_attack again with to_the_end: true to fight on"
			case !out.Killed:
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
