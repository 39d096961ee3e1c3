package skill

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/blockmate/blockmate/bot/entity"
	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/geom"
)

// tossDistance is how near (eyes to the player's eyes) the bot goes before
// it throws: near enough that the stack lands within the block around the
// player from which they pick items up.
const tossDistance = 2

// ErrPlayerNotInSight is Give's error for a player the bot does not see.
var ErrPlayerNotInSight = errors.New("that player is not in sight")

// GiveResult is what Give did.
type GiveResult struct {
	// Given is how many left the bot's inventory, as the server's answers
	// say.
	Given int
	Left  int
	// OnGround counts what still lay near the player once the pick-up
	// delay was over (0: they took it all); TookBack what the bot picked
	// back up meanwhile (it stands away from the stacks, so normally 0).
	OnGround int
	TookBack int
	Reason   string
}

// findPlayer is the player entity with that username (any case).
func (k *Skills) findPlayer(username string) (entity.Entity, bool) {
	me := k.me.Snapshot()
	for _, e := range k.ents.All() {
		if e.Player && e.ID != me.EntityID && strings.EqualFold(e.Username, username) {
			return e, true
		}
	}
	return entity.Entity{}, false
}

// Give walks near a player, looks at them and throws count of an
// item towards them (the throw clicks of mc_drop), as a player hands
// another something, then steps back out of the stack's way. Given counts
// what left the inventory by the server's answers; whether the other
// player picked it up is theirs to see.
func (k *Skills) Give(ctx context.Context, username, item string, count int) (GiveResult, error) {
	end, err := k.begin(ctx)
	if err != nil {
		return GiveResult{}, err
	}
	defer end()
	if k.inv.View().Count(item) == 0 {
		return GiveResult{}, fmt.Errorf("%w: no %s in the inventory", inventory.ErrNotCarried, item)
	}
	p, ok := k.findPlayer(username)
	if !ok {
		return GiveResult{}, fmt.Errorf("%w: %s", ErrPlayerNotInSight, username)
	}
	eye := geom.Vec3{X: p.Position.X, Y: p.Position.Y + physics.EyeHeight, Z: p.Position.Z}
	if err := k.body.GoNear(ctx, eye, tossDistance); err != nil {
		return GiveResult{Left: k.inv.View().Count(item)}, err
	}
	// Where the player stands now (they may have moved meanwhile).
	if now, ok := k.ents.Get(p.ID); ok {
		p = now
	}
	// Looking just above their feet lands the stack at them. A throw
	// leaves the eyes 0.3 low at 0.3 blocks a tick along the look, plus
	// 0.1 up and a random ±0.1 (the game's Player.drop), and slides on
	// when it lands: simulated with the game's item friction, aimed there
	// from 1.5 to 2 blocks it lands within 0.6 of the player, well inside
	// their pick-up box (1.3 beyond their sides); aimed at the chest it
	// overshot by up to 1.2 and once in CI lay out of their reach.
	aim := geom.Vec3{X: p.Position.X, Y: p.Position.Y + 0.25, Z: p.Position.Z}
	if err := k.body.LookAt(ctx, aim); err != nil {
		return GiveResult{}, err
	}
	if v := k.inv.View(); v.Container != nil {
		if err := k.inv.CloseContainer(); err != nil {
			return GiveResult{}, err
		}
	}
	r, err := k.inv.Drop(ctx, item, count)
	res := GiveResult{Given: r.Dropped, Left: r.Left, Reason: r.Reason}
	if err != nil || r.Dropped == 0 {
		return res, err
	}
	k.stepBack(ctx, p.Position)
	// Wait out the pick-up delay away from the stacks, so that the answer
	// says what is true at its end: whether the player took them, or what
	// still lies at their feet (an answer of "given" once came two
	// seconds before the bot picked its gift back up).
	after := k.inv.View().Count(item)
	werr := k.waitOn(ctx, handOverTicks, k.ents.Changed, func() bool { return k.itemsNear(item, p.Position) == 0 })
	if werr != nil && !errors.Is(werr, errTimedOut) {
		return res, werr
	}
	res.OnGround = k.itemsNear(item, p.Position)
	res.TookBack = max(k.inv.View().Count(item)-after, 0)
	res.Left = k.inv.View().Count(item)
	return res, nil
}

// handOverTicks bounds the wait for the player to take what was thrown:
// the game's 40-tick pick-up delay, and a second more for the stacks to
// settle and the server's pick-up to arrive.
const handOverTicks = 60

// handOverRadius is how far from the player a thrown stack still counts
// as lying at their feet: their pick-up box (1.3 beyond their sides) and
// the slide of a throw that landed short or long.
const handOverRadius = 3

// itemsNear counts the item entities of that item within handOverRadius
// of a point (horizontally, and within two blocks up or down).
func (k *Skills) itemsNear(item string, at geom.Vec3) int {
	n := 0
	for _, e := range k.ents.All() {
		if e.Item == nil || e.Item.Name != item {
			continue
		}
		if math.Hypot(e.Position.X-at.X, e.Position.Z-at.Z) <= handOverRadius && math.Abs(e.Position.Y-at.Y) <= 2 {
			n += int(e.Item.Count)
		}
	}
	return n
}

// stepBackDistance is how far the bot steps away from the player after a
// throw: the stacks land about a block in front of the player, and the
// bot's pick-up reach (its box grown by a block) must no longer touch
// them when their pick-up delay ends.
const stepBackDistance = 1.5

// stepBack takes the bot a step away from the player it threw to. After
// the 40-tick pick-up delay an item goes to whichever player touching it
// the server ticks first (ServerPlayer order in the game, join order on
// our test server): from two blocks away that can be the bot itself, and
// a gift picked back up is no gift. A step that cannot be taken (a wall
// behind) is left untaken: the throw is done either way.
func (k *Skills) stepBack(ctx context.Context, player geom.Vec3) {
	me := k.me.Snapshot().Position
	dx, dz := me.X-player.X, me.Z-player.Z
	d := math.Hypot(dx, dz)
	if d < 1e-3 {
		return
	}
	back := geom.Vec3{X: me.X + dx/d*stepBackDistance, Y: me.Y + physics.EyeHeight, Z: me.Z + dz/d*stepBackDistance}
	_ = k.body.GoNear(ctx, back, 0.5)
}
