// Package dig is the bot's hands on the world: breaking blocks (the game's
// break time, the best tool held, start / finish / abort with prediction
// sequences the server acknowledges), placing blocks against a
// neighbour's face, using blocks (doors, levers, buttons …), and the
// skills built on them: collecting blocks and picking up items.
//
// Every verdict comes from the server: a dig is done when the server's
// block change makes the block air, a placement when the target holds the
// block, a use when the block's state changed. The feature registers for
// block_changed_ack and the bot's own effects (haste and mining fatigue
// change break times); waiting is on the session's tick and on the world's
// and inventory's notifications, never on wall-clock sleeps.
//
// Concurrency: the read loop writes acked and effects under mu; waits
// count the session's ticks (core.Session.Await); one operation at a time
// holds op (the server digs one block per player at a time).
package dig

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/entity"
	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/move"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/bot/worldfeat"
	"github.com/blockmate/blockmate/geom"
)

// Dig is one session's digging, placing and using feature.
type Dig struct {
	s        *core.Session
	c        *codec.Codec
	g        *mcdata.GameData
	reg      *registry.Registry
	self     *self.Self
	world    *worldfeat.World
	inv      *inventory.Inventory
	entities *entity.Entities
	body     move.Body

	// op serialises the operations: the server follows one dig at a time.
	op sync.Mutex

	mu      sync.Mutex
	seq     int32 // the last prediction sequence sent
	acked   int32 // the highest sequence the server acknowledged
	effects map[string]int32
	changed core.Notify
	// recording, while a collect runs, has Break count the blocks the
	// body's digging walk breaks that recordWant does not accept, in
	// through (those it accepts in throughWanted): the answer names what
	// the bot dug through.
	recording     bool
	recordWant    func(mcdata.StateID) bool
	through       map[string]int
	throughWanted int
}

// Attach registers the feature's handlers and tick on s.
func Attach(s *core.Session, reg *registry.Registry, me *self.Self, w *worldfeat.World, inv *inventory.Inventory, ents *entity.Entities, b move.Body) *Dig {
	d := &Dig{s: s, c: s.Codec, g: mcdata.Game(s.Codec.Protocol), reg: reg, self: me, world: w, inv: inv, entities: ents, body: b, effects: map[string]int32{}}
	s.Handle(mcdata.ClientboundPlayAcknowledgePlayerDigging, d.ack)
	s.Handle(mcdata.ClientboundPlayEntityEffect, d.effect)
	s.Handle(mcdata.ClientboundPlayRemoveEntityEffect, d.removeEffect)
	s.Handle(mcdata.ClientboundPlayRespawn, d.respawn)
	return d
}

// ---- the handlers (the read loop) ----

func (d *Dig) ack(r *wire.Reader) error {
	seq := d.c.BlockChangedAck(r)
	if r.Err() != nil {
		return nil
	}
	d.mu.Lock()
	if seq > d.acked {
		d.acked = seq
	}
	d.mu.Unlock()
	d.changed.Broadcast()
	return nil
}

func (d *Dig) effect(r *wire.Reader) error {
	e := d.c.EntityEffect(r)
	if r.Err() != nil || e.EntityID != d.self.Snapshot().EntityID || d.g == nil {
		return nil
	}
	if def := d.g.Effect(e.Effect); def != nil {
		d.mu.Lock()
		d.effects[def.Name] = e.Amplifier
		d.mu.Unlock()
	}
	return nil
}

func (d *Dig) removeEffect(r *wire.Reader) error {
	e := d.c.RemoveEntityEffect(r)
	if r.Err() != nil || e.EntityID != d.self.Snapshot().EntityID || d.g == nil {
		return nil
	}
	if def := d.g.Effect(e.Effect); def != nil {
		d.mu.Lock()
		delete(d.effects, def.Name)
		d.mu.Unlock()
	}
	return nil
}

// respawn forgets the effects: death clears them, and a change of
// dimension has the server send them again.
func (d *Dig) respawn(*wire.Reader) error {
	d.mu.Lock()
	clear(d.effects)
	d.mu.Unlock()
	return nil
}

// Effect is the bot's amplifier of the named effect ("haste"), and false
// when it does not have it.
func (d *Dig) Effect(name string) (int32, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	a, ok := d.effects[name]
	return a, ok
}

// ---- waiting ----

// waitTicks waits n game ticks of the session.
func (d *Dig) waitTicks(ctx context.Context, n int) error {
	return d.s.WaitTicks(ctx, uint64(n))
}

// waitFor waits until done says so, rechecking on every acknowledgement,
// world change and tick, for at most limit ticks; it reports whether done
// came true.
func (d *Dig) waitFor(ctx context.Context, limit int, done func() bool) (bool, error) {
	err := d.s.Await(ctx, uint64(limit), done, d.changed.Wait, d.world.Changed)
	if errors.Is(err, core.ErrTicksRanOut) {
		return false, nil
	}
	return err == nil, err
}

// nextSeq starts a new prediction: the sequence the server will
// acknowledge.
func (d *Dig) nextSeq() int32 {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.seq++
	return d.seq
}

// Sequence is the last prediction sequence the bot sent (a dig's start,
// finish or abort, a click on a block); 0 before the first.
func (d *Dig) Sequence() int32 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.seq
}

func (d *Dig) ackedAt(seq int32) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.acked >= seq
}

// ---- the world as the bot sees it ----

// blockAt is the state at p, and false when its chunk is not loaded.
func (d *Dig) blockAt(p world.BlockPos) (mcdata.StateID, bool) {
	return d.world.View().BlockAt(p)
}

// eyes is where the bot's eyes are.
func (d *Dig) eyes() geom.Vec3 {
	p := d.self.Snapshot().Position
	return geom.Vec3{X: p.X, Y: p.Y + physics.EyeHeight, Z: p.Z}
}

// center is a block's centre.
func center(p world.BlockPos) geom.Vec3 {
	return geom.Vec3{X: float64(p.X) + 0.5, Y: float64(p.Y) + 0.5, Z: float64(p.Z) + 0.5}
}

// boxDistance is the distance from e to the nearest point of the block's
// cube.
func boxDistance(e geom.Vec3, p world.BlockPos) float64 {
	axis := func(v float64, lo int) float64 {
		return math.Max(0, math.Max(float64(lo)-v, v-float64(lo+1)))
	}
	dx, dy, dz := axis(e.X, p.X), axis(e.Y, p.Y), axis(e.Z, p.Z)
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

// distance is the straight-line distance between two points.
func distance(a, b geom.Vec3) float64 {
	dx, dy, dz := a.X-b.X, a.Y-b.Y, a.Z-b.Z
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

// blockName names a state's block ("" when the data lacks it).
func (d *Dig) blockName(st mcdata.StateID) string {
	if b := d.g.BlockOf(st); b != nil {
		return b.Name
	}
	return ""
}

// isAir says a state is one of the airs.
func (d *Dig) isAir(st mcdata.StateID) bool { return d.g.IsAir(st) }

// posString writes a position for sentences.
func posString(p world.BlockPos) string { return fmt.Sprintf("%d %d %d", p.X, p.Y, p.Z) }

// reachBlock makes sure the block is within reach, walking near it when
// the body can and walk allows; the error is a sentence.
func (d *Dig) reachBlock(ctx context.Context, p world.BlockPos, walk bool) error {
	if boxDistance(d.eyes(), p) <= physics.BlockReach {
		return nil
	}
	if !walk {
		return fmt.Errorf("the block at %s is %.1f blocks from the bot's eyes, beyond its reach of %.1f", posString(p), boxDistance(d.eyes(), p), physics.BlockReach)
	}
	if err := d.body.GoNear(ctx, center(p), physics.BlockReach-0.5); err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return fmt.Errorf("the block at %s is %.1f blocks from the bot's eyes, beyond its reach of %.1f, and the bot could not get closer: %v", posString(p), boxDistance(d.eyes(), p), physics.BlockReach, err)
	}
	if dist := boxDistance(d.eyes(), p); dist > physics.BlockReach {
		return fmt.Errorf("the block at %s is still %.1f blocks away after walking, beyond the reach of %.1f", posString(p), dist, physics.BlockReach)
	}
	return nil
}
