package skill

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// MaxFood is a full hunger bar.
const MaxFood = 20

// alwaysEdible are the foods a player can eat when full (the game's
// FoodProperties.canAlwaysEat: golden apples, chorus fruit, honey,
// suspicious stew).
var alwaysEdible = map[string]bool{
	"golden_apple": true, "enchanted_golden_apple": true, "chorus_fruit": true, "honey_bottle": true, "suspicious_stew": true,
}

// eatTicks bounds the wait for eating to finish: the game takes 32 ticks
// for most foods and 40 for honey; the rest is the server's answer.
const eatTicks = 100

// EatResult is what Eat did, from the server's answers.
type EatResult struct {
	Ate  bool
	Item string
	// Food and Saturation are the server's values after eating (before,
	// when the bot did not eat).
	Food       int32
	Saturation float32
	Reason     string
}

// ErrNoFood is Eat's error when the bot carries nothing to eat.
var ErrNoFood = errors.New("the bot carries no food")

// BestFood chooses what to eat among what the bot carries: the food that
// restores the most saturation (then hunger), as the game's data has them,
// leaving out what harms (rotten flesh, spider eyes, raw chicken,
// pufferfish, poisonous potatoes) unless nothing else is carried.
func BestFood(g *mcdata.GameData, have map[string]int) (string, bool) {
	best, bestScore := "", math.Inf(-1)
	for name := range have {
		it := g.ItemByName(name)
		if it == nil || it.Food == nil {
			continue
		}
		score := it.Food.Saturation*100 + it.Food.Points
		if harmful[name] {
			score -= 10000
		}
		if score > bestScore || (score == bestScore && name < best) {
			best, bestScore = name, score
		}
	}
	return best, best != ""
}

// Harmful says whether a food has a bad effect (hunger, poison, nausea):
// the bot eats one of them on its own never, and on request only when
// nothing else is carried.
func Harmful(name string) bool { return harmful[name] }

// harmful are foods with a bad effect (the game's FoodProperties effects:
// hunger, poison, nausea).
var harmful = map[string]bool{
	"rotten_flesh": true, "spider_eye": true, "chicken": true, "pufferfish": true, "poisonous_potato": true, "suspicious_stew": true,
}

// Eat eats one of an item ("" for the best food carried): it puts it in
// the hand, uses it (use_item) and waits until the server says eating is
// over (the "finished using" entity event and the food update), at most
// eatTicks ticks. It refuses when the bot is not hungry (the server would
// not start eating) and says why.
func (k *Skills) Eat(ctx context.Context, name string) (EatResult, error) {
	end, err := k.begin(ctx)
	if err != nil {
		return EatResult{}, err
	}
	defer end()
	v := k.inv.View()
	have := Have(v)
	// Every answer carries the food level at its end, the refusals too
	// (a "no food" answer once said food 0 while the bot's was 6).
	me := k.me.Snapshot()
	res := EatResult{Item: name, Food: me.Food, Saturation: me.Saturation}
	if name == "" {
		best, ok := BestFood(k.game, have)
		if !ok {
			return res, ErrNoFood
		}
		name = best
		res.Item = name
	}
	it := k.game.ItemByName(name)
	if it == nil || it.Food == nil {
		return res, fmt.Errorf("%s is not food", name)
	}
	if have[name] == 0 {
		return res, fmt.Errorf("%w: no %s in the inventory", inventory.ErrNotCarried, name)
	}
	if !me.HasHealth {
		return res, errors.New("the server has not said how hungry the bot is yet; try again in a moment")
	}
	if me.Food >= MaxFood && !alwaysEdible[name] && me.GameMode != 1 {
		res.Reason = "the bot is not hungry (food 20 of 20): the game only lets a player eat when hungry"
		return res, nil
	}
	if v.Container != nil {
		if err := k.inv.CloseContainer(); err != nil {
			return res, err
		}
	}
	eq, err := k.inv.Equip(ctx, name, inventory.Hand)
	if err != nil {
		return res, err
	}
	if !eq.Equipped {
		res.Reason = "could not take the food in hand: " + eq.Reason
		return res, nil
	}
	count := k.inv.View().Count(name)
	finished := k.finished.Load()
	use := codec.UseItem{Yaw: me.Yaw, Pitch: me.Pitch}
	if err := k.s.Send(mcdata.ServerboundPlayUseItem, func(w *wire.Writer) { k.c.WriteUseItem(w, use) }); err != nil {
		return res, err
	}
	// Done when the server has said so and sent the food and the item:
	// the food value rises (or, already near full, the item is used up).
	err = k.waitTicks(ctx, eatTicks, func() bool {
		now := k.me.Snapshot()
		return k.finished.Load() > finished && (now.Food > me.Food || now.Saturation > me.Saturation || k.inv.View().Count(name) < count)
	})
	if err == nil && k.inv.View().Count(name) >= count && me.GameMode != 1 {
		// The food update and the slot update come in packets of their
		// own at the end of the same server tick: wait a moment for the
		// slot too, so that the answer shows what is carried at its end.
		_ = k.waitTicks(ctx, slotTicks, func() bool { return k.inv.View().Count(name) < count })
	}
	now := k.me.Snapshot()
	res.Food, res.Saturation = now.Food, now.Saturation
	switch {
	case err == nil:
		res.Ate = true
	case errors.Is(err, errTimedOut):
		// Let go of the use key, as a player would, so the bot is not left
		// eating.
		k.releaseUse()
		res.Reason = fmt.Sprintf("the server did not finish the eating within %d ticks (food %d)", eatTicks, now.Food)
	default:
		k.releaseUse()
		return res, err
	}
	return res, nil
}

// slotTicks bounds the wait for the eaten item's slot update once eating
// is over: it comes in the same server tick as the food update.
const slotTicks = 5

// releaseUse lets go of the use key (player action 5, release use item).
func (k *Skills) releaseUse() {
	a := codec.PlayerAction{Status: codec.ActionReleaseUse}
	_ = k.s.Send(mcdata.ServerboundPlayBlockDig, func(w *wire.Writer) { k.c.WritePlayerAction(w, a) })
}
