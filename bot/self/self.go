// Package self is the bot itself: its entity, where it is (the server's
// position syncs, confirmed), its health, food, experience and air, death
// and respawn, game mode, dimension, and the world's time and
// weather as the bot sees them. It emits mc_hurt, mc_low_health,
// mc_low_food, mc_death and mc_respawned, and marks the session spawned at
// the first position sync.
//
// Values the server has not sent yet are not reported: a snapshot says
// which values are known.
package self

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/metadata"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/untrusted"
)

// MaxAir is a player's full air supply, in ticks; it is also the value
// before the server says otherwise (the game's default).
const MaxAir = 300

// MaxHealth is a player's full health without effects, in half hearts.
const MaxHealth = 20

// Options tune the feature.
type Options struct {
	// LowHealthThreshold and LowFoodThreshold are where mc_low_health and
	// mc_low_food fire; 0 means 6.
	LowHealthThreshold float32
	LowFoodThreshold   int32
}

// Snapshot is what the bot knows about itself at one moment.
type Snapshot struct {
	EntityID   int32
	Position   geom.Vec3
	Yaw, Pitch float32
	OnGround   bool
	Dimension  string
	GameMode   int8

	// HasHealth is false until the server sends the bot's health; Health,
	// Food and Saturation mean nothing before.
	HasHealth  bool
	Health     float32
	Food       int32
	Saturation float32
	// HasXP is false until the server sends the bot's experience.
	HasXP   bool
	XPBar   float32 // 0..1 towards the next level
	XPLevel int32
	// HasTime is false until the server sends the time; WorldAge means
	// nothing before.
	HasTime  bool
	WorldAge int64
	// DayCycle says what TimeOfDay is: "" while it is unknown, "running",
	// "stopped" (the daylight cycle is off), or "none" in a dimension that
	// has no day time (from 26.1 a dimension's time of day is its default
	// world clock, and the nether has none). TimeOfDay means something
	// only when DayCycle is running or stopped.
	DayCycle  string
	TimeOfDay int64
	// SpawnPoint is the world's spawn point, once the server sent it.
	SpawnPoint    codec.SpawnPosition
	HasSpawnPoint bool
	// Raining and Thundering follow the server's weather changes; a server
	// says nothing of the weather while it is clear.
	Raining, Thundering bool

	Air  int32 // air supply in ticks, 0..MaxAir
	Dead bool
	// Sleeping is true while the server shows the bot lying in a bed (its
	// own entity's pose is sleeping); Bed is the bed's head, once the
	// server sent the bot's sleeping position.
	Sleeping bool
	Bed      codec.BlockPos
	HasBed   bool
	// Respawning is true between a respawn and the position sync that
	// places the bot.
	Respawning bool
}

// Self is the bot's own state in one session. Its methods are safe from
// any goroutine.
type Self struct {
	s    *core.Session
	c    *codec.Codec
	reg  *registry.Registry
	opts Options

	mu sync.Mutex
	st Snapshot
	// dimensionType is the current dimension type's index in
	// minecraft:dimension_type, and clocks the last state of each world
	// clock (26.1+), which updates only send when they change.
	dimensionType int32
	clocks        map[int32]codec.ClockState
	lowFired      struct{ health, food bool }
	// lastDamage names the damage type of the last damage event aimed at
	// the bot: the attacker behind the health drop that follows.
	lastDamage   string
	lastDamageAt time.Time
	// attackerType names an entity by id (its type), for mc_hurt.
	attackerType atomic.Pointer[func(id int32) (string, bool)]
	changed      core.Notify
	// onSync is the body's answer to a position sync (bot/move): the
	// packets that follow the confirmation. Set before the session starts.
	onSync func(Sync) []core.Out
}

// Sync is a position sync as the bot applied it: where the server put the
// bot (relative parts resolved), the velocity it sent (1.21.2 on; zero
// before) and its Relative bits (codec.Relative*; from 1.21.2 bits 5–7 say
// the velocity adds to the bot's own, per axis), for the body to resolve
// its motion as the game's client does.
type Sync struct {
	Position   geom.Vec3
	Velocity   geom.Vec3
	Yaw, Pitch float32
	Relative   uint32
}

// OnSync registers the body's answer to every position sync: f runs on the
// read loop after the sync is applied and returns the packets to send right
// after the teleport confirmation, in the same batch (the movement feature's
// position answer). Call it before the session starts.
func (f *Self) OnSync(fn func(Sync) []core.Out) { f.onSync = fn }

// Moved records where the body's last tick left the bot (bot/move, the one
// owner of the bot's movement) and wakes waiters.
func (f *Self) Moved(pos geom.Vec3, yaw, pitch float32, onGround bool) {
	f.update(func(st *Snapshot) {
		st.Position, st.Yaw, st.Pitch, st.OnGround = pos, yaw, pitch, onGround
	})
}

// Attach registers the feature's handlers on s. reg names damage types.
func Attach(s *core.Session, reg *registry.Registry, opts Options) *Self {
	if opts.LowHealthThreshold <= 0 {
		opts.LowHealthThreshold = 6
	}
	if opts.LowFoodThreshold <= 0 {
		opts.LowFoodThreshold = 6
	}
	f := &Self{s: s, c: s.Codec, reg: reg, opts: opts}
	f.st.Air = MaxAir
	s.Handle(mcdata.ClientboundPlayLogin, f.login)
	s.Handle(mcdata.ClientboundPlayRespawn, f.respawn)
	s.Handle(mcdata.ClientboundPlayPosition, f.position)
	s.Handle(mcdata.ClientboundPlayUpdateHealth, f.health)
	s.Handle(mcdata.ClientboundPlayExperience, f.experience)
	s.Handle(mcdata.ClientboundPlayGameStateChange, f.gameState)
	s.Handle(mcdata.ClientboundPlayUpdateTime, f.time)
	s.Handle(mcdata.ClientboundPlayDeathCombatEvent, f.combatDeath)
	s.Handle(mcdata.ClientboundPlayDamageEvent, f.damage)
	s.Handle(mcdata.ClientboundPlayEntityMetadata, f.metadata)
	s.Handle(mcdata.ClientboundPlaySpawnPosition, f.spawnPosition)
	s.OnTickCatchUp(f.tick)
	return f
}

// SetAttackerType gives the feature a way to tell an entity's type by its
// id (the entity feature attaches after this one), so mc_hurt can name the
// attacker's type; without it, mc_hurt names the kind of damage.
func (f *Self) SetAttackerType(typeOf func(id int32) (string, bool)) { f.attackerType.Store(&typeOf) }

// LowHealthThreshold is the health at or under which mc_low_health
// fires: a fight stops there too unless told to go on.
func (f *Self) LowHealthThreshold() float32 { return f.opts.LowHealthThreshold }

// Snapshot copies the bot's state.
func (f *Self) Snapshot() Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.st
}

// update changes the state under the lock and wakes waiters.
func (f *Self) update(change func(st *Snapshot)) {
	f.mu.Lock()
	change(&f.st)
	f.mu.Unlock()
	f.changed.Broadcast()
}

// DayCycle values (Snapshot.DayCycle).
const (
	DayRunning = "running"
	DayStopped = "stopped"
	DayNone    = "none"
)

func (f *Self) applySpawn(st *Snapshot, si codec.SpawnInfo) {
	st.Dimension = si.Dimension
	if si.GameMode >= 0 && si.GameMode <= 3 {
		st.GameMode = si.GameMode
	}
	f.dimensionType = si.DimensionType
	if f.clocks != nil {
		// Another dimension may keep time by another clock, or none.
		f.applyClocks(st)
	}
}

func (f *Self) login(r *wire.Reader) error {
	l := f.c.PlayLogin(r)
	if r.Err() != nil {
		return nil
	}
	f.update(func(st *Snapshot) {
		st.EntityID = l.EntityID
		f.applySpawn(st, l.Spawn)
	})
	return nil
}

func (f *Self) respawn(r *wire.Reader) error {
	rs := f.c.Respawn(r)
	if r.Err() != nil {
		return nil
	}
	f.update(func(st *Snapshot) {
		f.applySpawn(st, rs.Spawn)
		// A respawned player is a new entity, standing.
		st.Sleeping, st.HasBed = false, false
		st.Respawning = st.Dead || st.Respawning
		st.Dead = false
		st.Air = MaxAir
	})
	return nil
}

// position follows the server's position sync: it confirms the teleport
// and lets the body answer with the position (OnSync), in one batch so no
// other packet comes between; the first sync marks the spawn.
func (f *Self) position(r *wire.Reader) error {
	p := f.c.PositionSync(r)
	if r.Err() != nil {
		return nil
	}
	f.mu.Lock()
	st := &f.st
	pos := geom.Vec3{X: p.X, Y: p.Y, Z: p.Z}
	if p.Relative&codec.RelativeX != 0 {
		pos.X += st.Position.X
	}
	if p.Relative&codec.RelativeY != 0 {
		pos.Y += st.Position.Y
	}
	if p.Relative&codec.RelativeZ != 0 {
		pos.Z += st.Position.Z
	}
	yaw, pitch := p.Yaw, p.Pitch
	if p.Relative&codec.RelativeYaw != 0 {
		yaw += st.Yaw
	}
	if p.Relative&codec.RelativePitch != 0 {
		pitch += st.Pitch
	}
	if !pos.Finite() {
		f.mu.Unlock()
		return fmt.Errorf("%w: the position sync is not a finite position", core.ErrDecode)
	}
	yaw, pitch = finite32(yaw, 0), finite32(pitch, 0)
	st.Position, st.Yaw, st.Pitch, st.OnGround = pos, yaw, pitch, true
	respawned := st.Respawning
	st.Respawning = false
	f.mu.Unlock()
	f.changed.Broadcast()

	first := false
	select {
	case <-f.s.Spawned():
	default:
		first = true
	}
	out := []core.Out{
		{Packet: mcdata.ServerboundPlayTeleportConfirm, Build: func(w *wire.Writer) {
			f.c.WriteTeleportConfirm(w, codec.TeleportConfirm{ID: p.TeleportID, X: pos.X, Y: pos.Y, Z: pos.Z, Yaw: yaw, Pitch: pitch})
		}},
	}
	if f.onSync != nil {
		vel := geom.Vec3{X: finite64(p.VX), Y: finite64(p.VY), Z: finite64(p.VZ)}
		out = append(out, f.onSync(Sync{Position: pos, Velocity: vel, Yaw: yaw, Pitch: pitch, Relative: p.Relative})...)
	}
	if (first || respawned) && f.c.SendsPlayerLoaded {
		out = append(out, core.Out{Packet: mcdata.ServerboundPlayPlayerLoaded})
	}
	if err := f.s.Batch(out...); err != nil {
		return err
	}
	if first {
		f.s.MarkSpawned()
	}
	if respawned {
		f.s.Emit("mc_respawned", "", struct {
			Position geom.Vec3 `json:"position"`
		}{pos.Round()})
	}
	return nil
}

func finite64(v float64) float64 {
	if geom.Finite(v) {
		return v
	}
	return 0
}

func (f *Self) health(r *wire.Reader) error {
	h := f.c.UpdateHealth(r)
	if r.Err() != nil {
		return nil
	}
	// Some servers send NaN for values they never set (flying-squid's
	// saturation); a number that is not finite means nothing.
	health, sat := finite32(h.Health, MaxHealth), finite32(h.Saturation, 0)
	var fire []func()
	f.mu.Lock()
	st := &f.st
	prev, had := st.Health, st.HasHealth
	st.Health, st.Food, st.Saturation, st.HasHealth = health, h.Food, sat, true
	if had && health < prev && health > 0 {
		attacker := ""
		if f.s.Now().Sub(f.lastDamageAt) < time.Second {
			attacker = f.lastDamage
		}
		fire = append(fire, func() {
			f.s.Emit("mc_hurt", attacker, struct {
				Health   float32 `json:"health"`
				Attacker string  `json:"attacker,omitempty"`
			}{health, attacker})
		})
	}
	if health > 0 && health <= f.opts.LowHealthThreshold && !f.lowFired.health {
		f.lowFired.health = true
		fire = append(fire, func() {
			f.s.Emit("mc_low_health", "", struct {
				Health    float32 `json:"health"`
				MaxHealth float32 `json:"max_health"`
			}{health, MaxHealth})
		})
	} else if health > f.opts.LowHealthThreshold {
		f.lowFired.health = false
	}
	if h.Food <= f.opts.LowFoodThreshold && !f.lowFired.food {
		f.lowFired.food = true
		fire = append(fire, func() {
			f.s.Emit("mc_low_food", "", struct {
				Food int32 `json:"food"`
			}{h.Food})
		})
	} else if h.Food > f.opts.LowFoodThreshold {
		f.lowFired.food = false
	}
	// Servers that send no combat death (flying-squid) still report the
	// death through health.
	died := health <= 0 && f.dieLocked()
	if health > 0 && st.Dead {
		st.Dead, st.Respawning = false, true
	}
	f.mu.Unlock()
	f.changed.Broadcast()
	for _, fn := range fire {
		fn()
	}
	if died {
		f.emitDeath(f.s.Username()+" died", false)
	}
	return nil
}

// dieLocked marks the bot dead and reports whether it was alive: the one
// place a death is recorded, whatever packet told it.
func (f *Self) dieLocked() bool {
	if f.st.Dead {
		return false
	}
	f.st.Dead = true
	return true
}

// emitDeath sends mc_death. quoted says the message is the server's death
// message, which can quote what players wrote (a killer's name, a renamed
// weapon): the caller has cleaned it, and it is marked untrusted, unlike
// one the bot made up.
func (f *Self) emitDeath(message string, quoted bool) {
	f.s.Emit("mc_death", "", struct {
		Message   string `json:"message"`
		Untrusted bool   `json:"untrusted,omitempty"`
	}{message, quoted})
}

func (f *Self) combatDeath(r *wire.Reader) error {
	d := f.c.DeathCombatEvent(r)
	if r.Err() != nil {
		return nil
	}
	f.mu.Lock()
	died := d.PlayerID == f.st.EntityID && f.dieLocked()
	f.mu.Unlock()
	if !died {
		return nil
	}
	f.changed.Broadcast()
	if msg := untrusted.Text(chat.Plain(d.Message)); strings.TrimSpace(msg) != "" {
		f.emitDeath(msg, true)
	} else {
		f.emitDeath(f.s.Username()+" died", false)
	}
	return nil
}

func (f *Self) damage(r *wire.Reader) error {
	d := f.c.DamageEvent(r)
	if r.Err() != nil {
		return nil
	}
	name, _ := f.reg.DamageType(d.SourceType)
	// mc_hurt names the attacker by its entity type when the game says
	// which entity caused the damage (the zombie, not mob_attack).
	if typeOf := f.attackerType.Load(); d.SourceCause > 0 && typeOf != nil {
		if t, ok := (*typeOf)(d.SourceCause - 1); ok && t != "" {
			name = t
		}
	}
	now := f.s.Now()
	f.mu.Lock()
	if d.EntityID == f.st.EntityID {
		f.lastDamage, f.lastDamageAt = name, now
	}
	f.mu.Unlock()
	return nil
}

func (f *Self) experience(r *wire.Reader) error {
	x := f.c.Experience(r)
	if r.Err() != nil {
		return nil
	}
	f.update(func(st *Snapshot) {
		st.HasXP, st.XPBar, st.XPLevel = true, finite32(x.Bar, 0), x.Level
	})
	return nil
}

func (f *Self) gameState(r *wire.Reader) error {
	g := f.c.GameStateChange(r)
	if r.Err() != nil {
		return nil
	}
	f.update(func(st *Snapshot) {
		switch g.Reason {
		case codec.GameStartRaining:
			st.Raining = true
		case codec.GameStopRaining:
			st.Raining, st.Thundering = false, false
		case codec.GameChangeMode:
			if g.Value >= 0 && g.Value <= 3 {
				st.GameMode = int8(g.Value)
			}
		case codec.GameRainLevel:
			st.Raining = g.Value > 0
		case codec.GameThunderLevel:
			st.Thundering = g.Value > 0
		}
	})
	return nil
}

func (f *Self) time(r *wire.Reader) error {
	t := f.c.TimeUpdate(r)
	if r.Err() != nil {
		return nil
	}
	f.update(func(st *Snapshot) {
		st.HasTime, st.WorldAge = true, t.WorldAge
		if !t.PerClock {
			st.TimeOfDay, st.DayCycle = t.TimeOfDay, DayStopped
			if t.TickDayTime {
				st.DayCycle = DayRunning
			}
			return
		}
		// 26.1: keep each clock's last state (an update carries only
		// the clocks that changed), then read the dimension's own.
		if f.clocks == nil {
			f.clocks = map[int32]codec.ClockState{}
		}
		for _, c := range t.Clocks {
			if len(f.clocks) < maxClocks || f.hasClock(c.Clock) {
				f.clocks[c.Clock] = c
			}
		}
		f.applyClocks(st)
	})
	return nil
}

// maxClocks bounds the clocks kept; vanilla has two.
const maxClocks = 64

func (f *Self) hasClock(id int32) bool {
	_, ok := f.clocks[id]
	return ok
}

// applyClocks sets the time of day from the current dimension type's
// default clock (26.1+): unknown until the registries and that clock's
// first state have come, "none" for a dimension without one. Callers hold
// f.mu.
func (f *Self) applyClocks(st *Snapshot) {
	st.DayCycle, st.TimeOfDay = "", 0
	dt, ok := f.reg.DimensionType(f.dimensionType)
	if !ok {
		return
	}
	if dt.DefaultClock == "" {
		st.DayCycle = DayNone
		return
	}
	id, ok := f.reg.ClockIndex(dt.DefaultClock)
	if !ok {
		return
	}
	c, ok := f.clocks[id]
	if !ok {
		return
	}
	st.TimeOfDay, st.DayCycle = c.TotalTicks, DayStopped
	if c.Rate > 0 {
		st.DayCycle = DayRunning
	}
}

// spawnPosition keeps the world's spawn point.
func (f *Self) spawnPosition(r *wire.Reader) error {
	sp := f.c.SpawnPosition(r)
	if r.Err() != nil {
		return nil
	}
	f.update(func(st *Snapshot) { st.SpawnPoint, st.HasSpawnPoint = sp, true })
	return nil
}

// tick moves the world's clock on by one tick between the server's time
// updates (ClientLevel.tickTime): the age always, the time of day while
// the daylight cycle runs (from 26.1, each world clock at its rate;
// nobody waits on the time, so no one is woken). It is a catch-up handler
// (core.Session.OnTickCatchUp): it may run up to a second late while
// nothing needs the tick in real time. The body (bot/move) tells the server
// where the bot is.
func (f *Self) tick(uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.st.HasTime {
		return
	}
	f.st.WorldAge++
	if f.clocks != nil {
		// 26.1: every world clock runs at its own rate, and the time of
		// day is the dimension's clock.
		for id, c := range f.clocks {
			c.PartialTick += c.Rate
			whole := math.Floor(float64(c.PartialTick))
			c.TotalTicks += int64(whole)
			c.PartialTick -= float32(whole)
			f.clocks[id] = c
		}
		f.applyClocks(&f.st)
	} else if f.st.DayCycle == DayRunning {
		f.st.TimeOfDay++
	}
}

// metadata keeps the bot's own air supply (metadata index 1), its pose
// (sleeping or not) and the bed it sleeps in (LivingEntity's sleeping_pos,
// the only optional block position a player's metadata has).
func (f *Self) metadata(r *wire.Reader) error {
	f.mu.Lock()
	self := f.st.EntityID
	f.mu.Unlock()
	m := f.c.EntityMetadata(r)
	if m.EntityID != self || (r.Err() != nil && len(m.Entries) == 0) {
		return nil
	}
	for _, e := range m.Entries {
		switch {
		case e.Index == 1 && e.Kind == codec.MetaVarInt:
			if air, ok := e.Value.(int32); ok {
				f.update(func(st *Snapshot) { st.Air = min(max(air, 0), MaxAir) })
			}
		case e.Index == metadata.PoseIndex && e.Kind == codec.MetaPose:
			if pose, ok := e.Value.(int32); ok {
				f.update(func(st *Snapshot) { st.Sleeping = metadata.Pose(pose) == metadata.Sleeping })
			}
		case e.Kind == codec.MetaOptionalBlockPos:
			bed, ok := e.Value.(codec.BlockPos)
			f.update(func(st *Snapshot) { st.Bed, st.HasBed = bed, ok })
		}
	}
	return nil
}

// Changed returns a channel closed at the next change of the bot's state
// (a packet about it, a tick of the body); take it before reading a
// Snapshot, then wait on it.
func (f *Self) Changed() <-chan struct{} { return f.changed.Wait() }

// ErrAlive is Respawn's answer when the bot is not dead.
var ErrAlive = errors.New("the bot is alive, so there is nothing to respawn; mc_get_health shows its health")

// Respawn asks the server to respawn the bot and waits until it has been
// placed, at most timeout; it returns where.
func (f *Self) Respawn(ctx context.Context, timeout time.Duration) (geom.Vec3, error) {
	if !f.Snapshot().Dead {
		return geom.Vec3{}, ErrAlive
	}
	if err := f.s.Send(mcdata.ServerboundPlayClientCommand, func(w *wire.Writer) { f.c.WriteClientCommand(w, codec.CommandRespawn) }); err != nil {
		return geom.Vec3{}, err
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		changed := f.changed.Wait()
		if st := f.Snapshot(); !st.Dead && !st.Respawning {
			return st.Position, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return geom.Vec3{}, ctx.Err()
		case <-f.s.Done():
			return geom.Vec3{}, errors.New("the connection ended while respawning: " + f.s.End().Reason)
		case <-deadline.C:
			return geom.Vec3{}, fmt.Errorf("the server did not respawn the bot within %v; call mc_respawn again, or mc_leave and mc_join", timeout)
		}
	}
}

func finite32(f, otherwise float32) float32 {
	if geom.Finite(float64(f)) {
		return f
	}
	return otherwise
}
