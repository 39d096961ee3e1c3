// Package skill is the bot's survival skills that work through the
// inventory and the blocks around it: looking up recipes, crafting in the
// inventory's 2×2 grid or at a crafting table, smelting in a furnace,
// eating, storing in and taking from chests, giving items to players, and
// sleeping in beds.
//
// Every skill answers from the server's own updates: an item counts as
// crafted, smelted, stored or given only once the server's inventory
// packets say it arrived or left; a skill never reports what it predicted.
// Skills that open a block (a crafting table, a chest, a furnace) use it as
// a player's right-click does (use_item_on) and close the window when done,
// whatever happened.
//
// Skills take the bot's body (walking and looking) as move.Body, the one
// interface every skill uses of the movement. They keep no state of their
// own: their waits are bounded by the session's ticks, and the inventory,
// the bot and the world are the features' (the read loop writes them;
// skills read snapshots).
package skill

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/entity"
	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/move"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/bot/worldfeat"
	"github.com/blockmate/blockmate/geom"
)

// Skills is one session's skills. Its methods are safe from any goroutine;
// the inventory serialises the actions themselves.
type Skills struct {
	s     *core.Session
	c     *codec.Codec
	game  *mcdata.GameData
	inv   *inventory.Inventory
	me    *self.Self
	world *worldfeat.World
	ents  *entity.Entities
	body  move.Body

	// busy lets one skill at a time work the inventory and its windows
	// (a craft and a chest deposit would take each other's clicks for
	// their own); a skill waiting for it can be cancelled.
	busy chan struct{}

	// news wakes waiters on the skills' own packets: an eating finished,
	// a bed's refusal.
	news core.Notify
	// finished counts the entity events "finished using an item" (status
	// 9) the server sent about the bot: eating is over.
	finished atomic.Uint64
	// leftBed is set when the bot asked to leave its bed (a stopped
	// sleep), until it has seen itself awake: the server's answer may
	// still be on its way when the next mc_sleep begins.
	leftBed atomic.Bool

	// beds keeps the server's last "you cannot sleep" line; bedSet is
	// every bed's states, made on first use.
	beds    bedNotes
	bedOnce sync.Once
	bedSet  *mcdata.StateSet
}

// Attach registers the skills' tick and the packets they read (the bot's
// own entity events, and system lines for a bed's refusals) on s.
func Attach(s *core.Session, inv *inventory.Inventory, me *self.Self, w *worldfeat.World, ents *entity.Entities, body move.Body) *Skills {
	k := &Skills{s: s, c: s.Codec, game: mcdata.Game(s.Codec.Protocol), inv: inv, me: me, world: w, ents: ents, body: body, busy: make(chan struct{}, 1)}
	s.Handle(mcdata.ClientboundPlayEntityStatus, k.entityStatus)
	s.Handle(mcdata.ClientboundPlaySystemChat, k.systemChat)
	return k
}

// entityStatusFinishedUsing is the entity event the server sends a player
// whose use of an item (eating, drinking) completed (the game's
// EntityEvent.FINISHED_USING_ITEM... 9, LivingEntity.completeUsingItem).
const entityStatusFinishedUsing = 9

func (k *Skills) entityStatus(r *wire.Reader) error {
	st := k.c.EntityStatus(r)
	if r.Err() != nil {
		return nil
	}
	if st.Status == entityStatusFinishedUsing && st.EntityID == k.me.Snapshot().EntityID {
		k.finished.Add(1)
		k.news.Broadcast()
	}
	return nil
}

// begin waits until no other skill runs and returns the function that
// ends this one.
func (k *Skills) begin(ctx context.Context) (func(), error) {
	select {
	case k.busy <- struct{}{}:
		return func() { <-k.busy }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-k.s.Done():
		return nil, core.ErrEnded
	}
}

// Game is the version's static data.
func (k *Skills) Game() *mcdata.GameData { return k.game }

// errTimedOut is a bounded wait that ran out of ticks.
var errTimedOut = core.ErrTicksRanOut

// waitTicks waits until cond holds, re-checking at every inventory change
// and every tick, for at most n ticks. It returns errTimedOut when the
// ticks run out, the context's error, or core.ErrEnded.
func (k *Skills) waitTicks(ctx context.Context, n uint64, cond func() bool) error {
	return k.waitOn(ctx, n, k.inv.Changed, cond)
}

// waitOn is waitTicks re-checking at every notification of changes
// (the inventory's, the bot's own state's), of the skills' own news (an
// eating finished, a bed's refusal) and every tick.
func (k *Skills) waitOn(ctx context.Context, n uint64, changes func() <-chan struct{}, cond func() bool) error {
	return k.s.Await(ctx, n, cond, changes, k.news.Wait)
}

// eyes is where the bot's eyes are.
func (k *Skills) eyes() geom.Vec3 {
	p := k.me.Snapshot().Position
	p.Y += physics.EyeHeight
	return p
}

// blockCenter is the middle of a block.
func blockCenter(p world.BlockPos) geom.Vec3 {
	return geom.Vec3{X: float64(p.X) + 0.5, Y: float64(p.Y) + 0.5, Z: float64(p.Z) + 0.5}
}

// distanceToBlock is the distance from a point to the nearest point of a
// block's box, as the game measures reach.
func distanceToBlock(from geom.Vec3, p world.BlockPos) float64 {
	d := func(v float64, lo int) float64 {
		switch {
		case v < float64(lo):
			return float64(lo) - v
		case v > float64(lo+1):
			return v - float64(lo+1)
		}
		return 0
	}
	dx, dy, dz := d(from.X, p.X), d(from.Y, p.Y), d(from.Z, p.Z)
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

// blockName is the name of the block at p, "" where the bot has no chunk.
func (k *Skills) blockName(p world.BlockPos) string {
	st, ok := k.world.View().BlockAt(p)
	if !ok {
		return ""
	}
	if b := k.game.BlockOf(st); b != nil {
		return b.Name
	}
	return ""
}

// nearestBlock finds the nearest block named name within reach of the
// bot's eyes, and false when none is.
func (k *Skills) nearestBlock(name string) (world.BlockPos, bool) {
	b := k.game.BlockByName(name)
	if b == nil {
		return world.BlockPos{}, false
	}
	eyes := k.eyes()
	from := world.BlockPos{X: int(math.Floor(eyes.X)), Y: int(math.Floor(eyes.Y)), Z: int(math.Floor(eyes.Z))}
	found := k.world.View().FindBlocks(from, 6, 16, func(s mcdata.StateID) bool { return s >= b.MinState && s <= b.MaxState })
	best, bestD := world.BlockPos{}, math.Inf(1)
	for _, f := range found {
		if d := distanceToBlock(eyes, f.Pos); d <= physics.BlockReach && d < bestD {
			best, bestD = f.Pos, d
		}
	}
	return best, !math.IsInf(bestD, 1)
}

// approach brings the bot within reach of a block: it walks there when it
// is not (the body says why it cannot), then looks at it.
func (k *Skills) approach(ctx context.Context, p world.BlockPos) error {
	if distanceToBlock(k.eyes(), p) > physics.BlockReach {
		if err := k.body.GoNear(ctx, blockCenter(p), physics.BlockReach-0.5); err != nil {
			return err
		}
	}
	return k.body.LookAt(ctx, blockCenter(p))
}

// openBlock right-clicks the top of the block at p (use_item_on, as a
// player opening a crafting table, chest or furnace) and waits for the
// window it opens, at most two seconds of ticks. It sends sequence 0: the
// bot predicts no block change for the server to acknowledge (the server
// keeps the highest sequence it saw, so 0 never disturbs digging's).
func (k *Skills) openBlock(ctx context.Context, p world.BlockPos, menus ...string) (inventory.Container, error) {
	if err := k.approach(ctx, p); err != nil {
		return inventory.Container{}, err
	}
	wait := k.inv.ExpectContainer()
	use := codec.UseItemOn{Pos: codec.BlockPos{X: p.X, Y: p.Y, Z: p.Z}, Face: 1, CursorX: 0.5, CursorY: 1, CursorZ: 0.5}
	if err := k.s.Send(mcdata.ServerboundPlayBlockPlace, func(w *wire.Writer) { k.c.WriteUseItemOn(w, use) }); err != nil {
		return inventory.Container{}, err
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var got inventory.Container
	var werr error
	done := make(chan struct{})
	go func() {
		got, werr = wait.Wait(wctx)
		close(done)
	}()
	err := k.waitTicks(ctx, openTicks, func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	})
	cancel()
	<-done
	if err != nil && werr != nil {
		if errors.Is(err, errTimedOut) {
			return inventory.Container{}, fmt.Errorf("the %s at %d %d %d did not open (the server sent no window within %d ticks)", k.blockName(p), p.X, p.Y, p.Z, openTicks)
		}
		return inventory.Container{}, err
	}
	if werr != nil {
		return inventory.Container{}, werr
	}
	for _, m := range menus {
		if got.Menu.Name == m {
			return got, nil
		}
	}
	_ = k.inv.CloseContainer()
	return inventory.Container{}, fmt.Errorf("using the block at %d %d %d opened a %s window, not a %s", p.X, p.Y, p.Z, got.Menu.Name, strings.Join(menus, " or "))
}

// openTicks bounds the wait for a window to open.
const openTicks = 40

// answerTicks bounds the wait for a follow-up update the server sends
// after a click (a crafting result, a shift-click's items).
const answerTicks = 40
