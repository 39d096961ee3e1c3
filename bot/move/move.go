// Package move is the bot's body: it runs the game's movement (bot/physics)
// on the session's tick, walks the paths bot/path plans, turns the head, and
// is the only sender of the movement packets (position, look, the flags,
// the 1.21.2+ player_input, sprinting) on every protocol.
//
// The tick. The body's tick is a catch-up handler (core.Session
// OnTickCatchUp): while the bot stands still with nothing to do it costs a
// check per tick and a reminder to the server once a second (the game's
// positionReminder), and the session wakes only once a second. While a task
// runs, or the bot is not at rest (falling after the spawn, pushed, in
// water), the body holds the session's real-time tick (HoldRealTime) and
// steps physics 20 times a second, sending what the game's client sends
// after each step (LocalPlayer.sendPosition).
//
// Position syncs. bot/self confirms the server's teleport; the body answers
// in the same batch with its position (self.OnSync), takes the new position
// and motion, and a walk in progress re-plans from there: the body never
// fights the server.
//
// Tasks. GoNear and the moving-goal walks run on the caller's goroutine:
// they plan (bot/path, on an immutable world view, off every lock), hand the
// path to the tick, and wait on the walk's notifications, not on a clock.
// The tick steers toward the path's next waypoint (path.Path.Next) and says
// when the path is done, when it needs a new plan (a sync, a changed block
// on the way, a step that takes far longer than planned) and when it cannot
// make progress. Cancelling the caller's context (mc_stop) stops the walk at
// the next tick.
//
// Concurrency. One mutex guards the body's state; the tick holds it while
// it steps and never while it sends or wakes anyone. The read loop calls
// only Synced (through self) and the velocity handler, which take the same
// short lock.
package move

import (
	"context"
	"errors"
	"math"
	"sync"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/path"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/geom"
)

// PositionReminder is how many ticks the bot may stay silent about where
// it is: the game's client sends a movement packet at least this often
// (LocalPlayer.sendPosition's positionReminder), standing still or not,
// and some servers act on it: flying-squid sends a newcomer more than the
// first chunks only after a status-only move or a look, and the chunks
// around a teleported player only after it reports its new place.
const PositionReminder = 20

// movedEnough is the game's threshold for a position worth sending
// (2.0E-4 blocks, compared squared in LocalPlayer.sendPosition).
const movedEnough = 2.0e-4

// Blocks is what the body reads of the world: a snapshot to step and plan
// on, and a channel closed at the next change (a block or a column).
type Blocks interface {
	View() *world.View
	Changed() <-chan struct{}
}

// Mover is the body of one session. Its methods are safe from any
// goroutine.
type Mover struct {
	s       *core.Session
	c       *codec.Codec
	self    *self.Self
	blocks  Blocks
	eng     *physics.Engine
	planner *path.Planner
	// hands click the doors on the way (walk_open.go); nil until SetHands.
	hands Hands

	mu sync.Mutex
	st physics.State
	// known is set once a position sync has placed the bot.
	known bool
	// view is the world snapshot the tick steps on, renewed when the
	// world changes (changed closed).
	view    *world.View
	changed <-chan struct{}
	// look is a turn of the head waiting for the next tick.
	look *lookRequest
	// walk is the path being walked, nil when none.
	walk *walk
	// task is what the body is doing, for the console and mc_status.
	task *Task
	// legs is the call whose walks hold the body now (legs.go).
	legs *legs
	// sent is what the server was last told, sinceSent the ticks since a
	// position was; input the last player_input, sprinting the sprint
	// flag last sent.
	sent      codec.Movement
	sinceSent int
	input     byte
	sprinting bool
	// release gives back the session's real-time tick; nil while the body
	// does not hold it.
	release func()
	// ticked wakes waiters after every tick that stepped.
	ticked core.Notify
}

// Body is what the skills (digging, crafting, fighting) need of the bot's
// movement: turning the head and walking near a point. *Mover is the only
// body; the skills take this interface so that each shows how little of
// the movement it uses.
type Body interface {
	// LookAt turns the bot's head to the point (from its eyes) and
	// returns once the rotation has been sent to the server.
	LookAt(ctx context.Context, p geom.Vec3) error
	// GoNear walks until the bot's eyes are within `within` blocks of p,
	// or fails with an error whose text is a sentence.
	GoNear(ctx context.Context, p geom.Vec3, within float64) error
}

var _ Body = (*Mover)(nil)

// Attach builds the body of session s and registers its tick and its
// answer to position syncs. me is the bot's own state, blocks the world.
func Attach(s *core.Session, me *self.Self, blocks Blocks) *Mover {
	m := &Mover{s: s, c: s.Codec, self: me, blocks: blocks}
	if e, err := physics.For(s.Codec.Protocol); err == nil {
		m.eng = e
		m.planner = path.New(e.Game(), plannerOptions(false))
	}
	me.OnSync(m.synced)
	s.HandleIfPresent(mcdata.ClientboundPlayEntityVelocity, m.velocity)
	s.OnTickCatchUp(m.tick)
	return m
}

// synced takes the server's position sync (on the read loop, through
// self): the body stands where the server put it, and a walk re-plans.
// It returns the position answer that follows the confirmation.
func (m *Mover) synced(sy self.Sync) []core.Out {
	m.mu.Lock()
	st := &m.st
	old := st.Vel
	vel := physics.Vec3{X: sy.Velocity.X, Y: sy.Velocity.Y, Z: sy.Velocity.Z}
	if m.c.Protocol >= 768 {
		// 1.21.2 on: bits 5–7 add the sent velocity to the player's own
		// (PositionMoveRotation.calculateAbsolute).
		if sy.Relative&(1<<5) != 0 {
			vel.X += old.X
		}
		if sy.Relative&(1<<6) != 0 {
			vel.Y += old.Y
		}
		if sy.Relative&(1<<7) != 0 {
			vel.Z += old.Z
		}
	} else {
		// Before: an axis set relatively keeps its motion, the others stop
		// (ClientPacketListener.handleMovePlayer).
		vel = physics.Vec3{}
		if sy.Relative&codec.RelativeX != 0 {
			vel.X = old.X
		}
		if sy.Relative&codec.RelativeY != 0 {
			vel.Y = old.Y
		}
		if sy.Relative&codec.RelativeZ != 0 {
			vel.Z = old.Z
		}
	}
	st.Pos = physics.Vec3{X: sy.Position.X, Y: sy.Position.Y, Z: sy.Position.Z}
	st.Vel = vel
	st.Yaw, st.Pitch = sy.Yaw, sy.Pitch
	st.FallDistance = 0
	st.Frozen = false
	m.known = true
	// The bot stands where the server put it; claiming the ground keeps the
	// server's fly check quiet.
	mv := codec.Movement{X: sy.Position.X, Y: sy.Position.Y, Z: sy.Position.Z, Yaw: sy.Yaw, Pitch: sy.Pitch, OnGround: true}
	m.sent, m.sinceSent = mv, 0
	if m.walk != nil {
		m.walk.need(replanSync)
	}
	m.holdLocked(true)
	m.mu.Unlock()
	return []core.Out{{Packet: mcdata.ServerboundPlayPositionLook, Build: func(w *wire.Writer) { m.c.WriteMovement(w, mv) }}}
}

// velocity takes a velocity the server gave the bot (knockback, an
// explosion): the body moves with it from the next tick.
func (m *Mover) velocity(r *wire.Reader) error {
	v := m.c.EntityVelocity(r)
	if r.Err() != nil || v.EntityID != m.self.Snapshot().EntityID {
		return nil
	}
	if !geom.Finite(v.VX) || !geom.Finite(v.VY) || !geom.Finite(v.VZ) {
		return nil
	}
	m.mu.Lock()
	m.st.Vel = physics.Vec3{X: v.VX, Y: v.VY, Z: v.VZ}
	m.holdLocked(true)
	m.mu.Unlock()
	return nil
}

// holdLocked takes or gives back the session's real-time tick. Callers
// hold m.mu.
func (m *Mover) holdLocked(on bool) {
	switch {
	case on && m.release == nil:
		m.release = m.s.HoldRealTime()
	case !on && m.release != nil:
		m.release()
		m.release = nil
	}
}

// State is the body's physics state: where it is and how it moves.
func (m *Mover) State() physics.State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.st
}

// Position is where the bot's feet are, and false before the server has
// placed it.
func (m *Mover) Position() (geom.Vec3, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return geom.Vec3{X: m.st.Pos.X, Y: m.st.Pos.Y, Z: m.st.Pos.Z}, m.known
}

// EyePosition is where the bot's eyes are.
func (m *Mover) EyePosition() geom.Vec3 {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.st.EyePos()
	return geom.Vec3{X: e.X, Y: e.Y, Z: e.Z}
}

// atRest says whether a state needs no real-time tick: standing on the
// ground without horizontal motion, out of any fluid, or frozen in an
// unloaded column.
func atRest(st *physics.State) bool {
	if st.Frozen {
		return true
	}
	return st.OnGround && !st.InWater && !st.InLava &&
		math.Abs(st.Vel.X) < 0.003 && math.Abs(st.Vel.Z) < 0.003 && st.Vel.Y <= 0 && st.Vel.Y > -0.1
}

// tick is the body's game tick (a catch-up handler; real time while the
// body holds it): apply a pending look, steer along the walk, step physics
// when the bot is not at rest or the world under it changed, and tell the
// server what changed.
func (m *Mover) tick(uint64) {
	m.checkTarget()
	me := m.self.Snapshot()
	m.mu.Lock()
	if !m.known || me.Dead || me.Respawning || m.eng == nil {
		if m.walk != nil {
			// A dead bot walks nowhere: the walk's task learns why.
			m.walk.need(replanHalted)
		}
		m.holdLocked(false)
		m.mu.Unlock()
		return
	}
	worldChanged := m.refreshViewLocked()
	var ctl physics.Controls
	ctl.Yaw, ctl.Pitch = m.st.Yaw, m.st.Pitch
	// A walk or a turn that began while the body rested waits for the
	// ticks on time: the catch-up ticks the session still owes the second
	// would otherwise run it up to 19 ticks at once, a burst of positions
	// no player's client sends.
	late := m.s.TickIsLate()
	busy := false
	if m.walk != nil {
		if !late {
			ctl = m.walk.steer(m, ctl)
		}
		busy = !m.walk.finished()
	}
	var looked *lookRequest
	if m.look != nil && !late {
		looked, m.look = m.look, nil
		ctl.Yaw, ctl.Pitch = looked.yaw, looked.pitch
	}
	stepped := false
	if busy || !atRest(&m.st) || worldChanged || m.st.Yaw != ctl.Yaw || m.st.Pitch != ctl.Pitch {
		attrs := physics.DefaultAttributes()
		if me.HasHealth {
			attrs.FoodLevel = me.Food
		}
		if me.GameMode == 1 || me.GameMode == 3 {
			attrs.MayFly = true
		}
		m.st = m.eng.Step(m.view, m.st, ctl, attrs)
		stepped = true
	}
	out := m.packetsLocked(ctl, me.EntityID)
	if m.walk != nil {
		out = append(out, m.walk.takeOutLocked()...)
	}
	st := m.st
	m.holdLocked(busy || m.look != nil || !atRest(&m.st))
	m.mu.Unlock()

	if len(out) > 0 {
		// A failed send means the connection is ending; its read loop says
		// why.
		_ = m.s.Batch(out...)
	}
	if stepped {
		// A step frozen in a column not loaded yet learns nothing about the
		// ground: the on-ground flag it kept may be the one from before the
		// last position sync, so self keeps what it knows (the spawn puts
		// the bot on the ground) until a real step says otherwise. Break
		// times read it: five times longer off the ground.
		onGround := st.OnGround
		if st.Frozen {
			onGround = me.OnGround
		}
		m.self.Moved(geom.Vec3{X: st.Pos.X, Y: st.Pos.Y, Z: st.Pos.Z}, st.Yaw, st.Pitch, onGround)
	}
	if looked != nil {
		close(looked.sent)
	}
	if stepped || looked != nil {
		m.ticked.Broadcast()
	}
}

// refreshViewLocked renews the world snapshot when the world changed and
// says whether it did.
func (m *Mover) refreshViewLocked() bool {
	if m.view != nil && m.changed != nil {
		select {
		case <-m.changed:
		default:
			return false
		}
	}
	m.changed = m.blocks.Changed()
	m.view = m.blocks.View()
	return true
}

// packetsLocked is what the game's client sends after a tick
// (LocalPlayer.tick and sendPosition): the keys held when they changed
// (1.21.2 on), the sprint flag when it changed, then the position and
// look as much as changed, a status-only move when only the flags did, and
// the position at least once a second.
func (m *Mover) packetsLocked(ctl physics.Controls, entityID int32) []core.Out {
	var out []core.Out
	if m.c.WritePlayerInput != nil {
		if keys := ctl.PlayerInput(); keys != m.input {
			m.input = keys
			out = append(out, core.Out{Packet: mcdata.ServerboundPlayPlayerInput, Build: func(w *wire.Writer) { m.c.WritePlayerInput(w, keys) }})
		}
	}
	if m.st.Sprinting != m.sprinting {
		m.sprinting = m.st.Sprinting
		start := m.sprinting
		out = append(out, core.Out{Packet: mcdata.ServerboundPlayEntityAction, Build: func(w *wire.Writer) { m.c.WriteSprint(w, entityID, start) }})
	}
	st := &m.st
	mv := codec.Movement{X: st.Pos.X, Y: st.Pos.Y, Z: st.Pos.Z, Yaw: st.Yaw, Pitch: st.Pitch, OnGround: st.OnGround, HorizontalCollision: st.HorizontalCollision}
	m.sinceSent++
	dx, dy, dz := mv.X-m.sent.X, mv.Y-m.sent.Y, mv.Z-m.sent.Z
	moved := dx*dx+dy*dy+dz*dz > movedEnough*movedEnough
	turned := mv.Yaw != m.sent.Yaw || mv.Pitch != m.sent.Pitch
	flags := mv.OnGround != m.sent.OnGround || mv.HorizontalCollision != m.sent.HorizontalCollision
	remind := m.sinceSent >= PositionReminder
	var p mcdata.Packet
	var write func(w *wire.Writer, m codec.Movement)
	switch {
	case moved && turned:
		p, write = mcdata.ServerboundPlayPositionLook, m.c.WriteMovement
	case moved:
		p, write = mcdata.ServerboundPlayPosition, m.c.WritePosition
	case turned:
		p, write = mcdata.ServerboundPlayLook, m.c.WriteLook
	case flags || remind:
		p, write = mcdata.ServerboundPlayFlying, m.c.WriteMovementStatus
	default:
		return out
	}
	if moved || remind {
		m.sinceSent = 0
	}
	m.sent = mv
	out = append(out, core.Out{Packet: p, Build: func(w *wire.Writer) { write(w, mv) }})
	return out
}

// lookRequest is a turn of the head for the next tick; sent closes once
// its packet went out.
type lookRequest struct {
	yaw, pitch float32
	sent       chan struct{}
}

// ErrNotPlaced is what the body answers before the server has placed the
// bot.
var ErrNotPlaced = errors.New("the server has not placed the bot yet; wait a moment after joining, then try again")

// LookAt turns the bot's head to the point (from its eyes) and returns once
// the rotation has been sent to the server (at the next tick).
func (m *Mover) LookAt(ctx context.Context, p geom.Vec3) error {
	if !p.Finite() {
		return errors.New("the point to look at is not a finite position")
	}
	m.mu.Lock()
	if !m.known {
		m.mu.Unlock()
		return ErrNotPlaced
	}
	eye := m.st.EyePos()
	yaw, pitch := lookAngles(p.X-eye.X, p.Y-eye.Y, p.Z-eye.Z, m.st.Yaw)
	req := &lookRequest{yaw: yaw, pitch: pitch, sent: make(chan struct{})}
	m.look = req
	m.holdLocked(true)
	m.mu.Unlock()
	select {
	case <-req.sent:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-m.s.Done():
		return core.ErrEnded
	}
}

// Turning reports whether a LookAt waits for the next tick to send its
// look: until then whatever follows the turn has not begun.
func (m *Mover) Turning() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.look != nil
}

// lookAngles are the game's yaw and pitch (degrees; yaw 0 faces +Z, 90
// faces −X; pitch 90 looks down) of a direction; with no horizontal part
// the yaw stays what it was.
func lookAngles(dx, dy, dz float64, yaw float32) (float32, float32) {
	h := math.Hypot(dx, dz)
	if h > 1e-9 {
		yaw = float32(-math.Atan2(dx, dz) * 180 / math.Pi)
	}
	pitch := float32(-math.Atan2(dy, h) * 180 / math.Pi)
	return yaw, pitch
}
