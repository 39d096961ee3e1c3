// Package entity is the bot's entity feature: every entity the server
// shows the bot (mobs, other players, items on the ground, projectiles,
// vehicles), with its type, position, velocity, look, passengers, the
// metadata that tells them apart (custom names, an item entity's stack,
// flags, pose, health) and deaths. Other players are linked to the player
// list by UUID whatever entity type the server sends them as (flying-squid
// 1.12.0 spawns players as type 0). The tick scans for hostile mobs near
// the bot and emits mc_hostile_nearby.
//
// Concurrency: the read loop is the only writer. Published entities are
// immutable: an update builds a new Entity and swaps the pointer in the
// table under a short lock, so a reader copies pointers (or values) under
// a read lock and never waits for more than that. The packets of a bundle
// (between two bundle delimiters: a spawn with its metadata, say) are
// staged and published together, so a reader never sees half of one.
// Changed wakes waiters on every publish. The table is bounded
// (MaxEntities): a server cannot grow it without end.
package entity

import (
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/metadata"
	"github.com/blockmate/blockmate/bot/players"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/untrusted"
)

// MaxEntities bounds the table. A busy vanilla world shows a client a few
// hundred entities; a spawn past the bound is dropped (and counted).
const MaxEntities = 4096

// maxStaged bounds a bundle's staged changes, as the game bounds a bundle
// to 4096 packets; past it the bundle is published early.
const maxStaged = 4096

// HostileRadius is how near (in blocks) a hostile mob must come for
// mc_hostile_nearby, unless Options say otherwise.
const HostileRadius = 16

// Options tune the feature.
type Options struct {
	// HostileRadius is mc_hostile_nearby's radius in blocks; 0 means
	// HostileRadius.
	HostileRadius float64
}

// Entity is one entity as the bot last heard of it. Names are written by
// players (a custom name, a username): treat them as untrusted text.
type Entity struct {
	ID   int32
	UUID [16]byte
	// TypeID is the entity type id the server sent; Type its name
	// ("zombie", "item", "player"), "" for an id the version lacks. A
	// player linked by UUID has Type "player" whatever id was sent.
	TypeID int32
	Type   string
	// Kind is minecraft-data's kind of the type ("hostile", "animal",
	// "player", "projectile" …).
	Kind    string
	Hostile bool
	// Player is true for other players; Username is their name from the
	// player list ("" while the list does not name them).
	Player   bool
	Username string
	// CustomName is the entity's custom name as plain text, "" for none.
	CustomName string

	Position geom.Vec3
	// Velocity is in blocks per tick, as the server last set it.
	Velocity            geom.Vec3
	Yaw, Pitch, HeadYaw float32 // degrees
	OnGround            bool
	// Data is the spawn's extra value (a falling block's state, an
	// experience orb's value …).
	Data int32

	// Item is an item entity's stack (Name filled), nil until its
	// metadata comes.
	Item *item.Stack
	// Flags are the shared flags (metadata 0): 0x01 on fire, 0x02
	// crouching, 0x08 sprinting, 0x10 swimming, 0x20 invisible, 0x40
	// glowing, 0x80 gliding.
	Flags int8
	Pose  metadata.Pose
	// HasHealth says Health (a living entity's, metadata 9) was sent.
	HasHealth bool
	Health    float32
	// Dead is set by a death event or health 0; the server removes the
	// entity after its death animation.
	Dead bool

	// Vehicle is the entity this one rides (HasVehicle), Passengers those
	// riding it.
	HasVehicle bool
	Vehicle    int32
	Passengers []int32
}

// Name is what to call the entity: a player's username, else its custom
// name, else "".
func (e *Entity) Name() string {
	if e.Player && e.Username != "" {
		return e.Username
	}
	return e.CustomName
}

// Distance is the entity's distance from p, in blocks.
func (e *Entity) Distance(p geom.Vec3) float64 {
	dx, dy, dz := e.Position.X-p.X, e.Position.Y-p.Y, e.Position.Z-p.Z
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

// Entities is one session's entity feature. Its methods are safe from any
// goroutine.
type Entities struct {
	s       *core.Session
	c       *codec.Codec
	game    *mcdata.GameData
	players *players.Players
	self    *self.Self
	opts    Options

	mu      sync.RWMutex
	table   map[int32]*Entity
	byUUID  map[[16]byte]int32
	dropped int // spawns refused at MaxEntities

	// The read loop's own state: no lock.
	inBundle  bool
	staged    map[int32]*Entity // nil value: removed
	dimension string

	changed core.Notify

	// The tick's own state.
	near map[string]float64 // hostile type → distance last emitted
}

// Attach registers the feature's handlers and its tick on s. pl links
// players by UUID; me gives the bot's entity id and position.
func Attach(s *core.Session, pl *players.Players, me *self.Self, opts Options) *Entities {
	if opts.HostileRadius <= 0 {
		opts.HostileRadius = HostileRadius
	}
	f := &Entities{
		s: s, c: s.Codec, game: mcdata.Game(s.Codec.Protocol), players: pl, self: me, opts: opts,
		table: map[int32]*Entity{}, byUUID: map[[16]byte]int32{}, near: map[string]float64{},
	}
	// Only packets the version has get a handler (sync_entity_position is
	// new in 1.21.2, the orb's own spawn gone in 1.21.5); the codec sets a
	// decoder exactly for those (TestEveryReleaseHasACodec).
	c := f.c
	s.HandleIfPresent(mcdata.ClientboundPlayLogin, f.login)
	s.HandleIfPresent(mcdata.ClientboundPlayRespawn, f.respawn)
	s.HandleIfPresent(mcdata.ClientboundPlayStartConfiguration, f.reconfigure)
	s.HandleIfPresent(mcdata.ClientboundPlayBundleDelimiter, f.bundle)
	s.HandleIfPresent(mcdata.ClientboundPlaySpawnEntity, f.spawn(c.SpawnEntity))
	if c.SpawnExperienceOrb != nil {
		s.HandleIfPresent(mcdata.ClientboundPlaySpawnEntityExperienceOrb, f.spawn(c.SpawnExperienceOrb))
	}
	s.HandleIfPresent(mcdata.ClientboundPlayRelEntityMove, f.move(c.EntityMove))
	s.HandleIfPresent(mcdata.ClientboundPlayEntityMoveLook, f.move(c.EntityMoveLook))
	s.HandleIfPresent(mcdata.ClientboundPlayEntityLook, f.move(c.EntityLook))
	s.HandleIfPresent(mcdata.ClientboundPlayEntityHeadRotation, f.headRotation)
	s.HandleIfPresent(mcdata.ClientboundPlayEntityTeleport, f.teleport(c.EntityTeleport))
	if c.SyncEntityPosition != nil {
		s.HandleIfPresent(mcdata.ClientboundPlaySyncEntityPosition, f.teleport(c.SyncEntityPosition))
	}
	s.HandleIfPresent(mcdata.ClientboundPlayEntityVelocity, f.velocity)
	s.HandleIfPresent(mcdata.ClientboundPlayEntityDestroy, f.destroy)
	s.HandleIfPresent(mcdata.ClientboundPlaySetPassengers, f.passengers)
	s.HandleIfPresent(mcdata.ClientboundPlayEntityMetadata, f.metadata)
	s.HandleIfPresent(mcdata.ClientboundPlayEntityStatus, f.status)
	s.OnTickCatchUp(f.tick)
	return f
}

// ---- what readers use ----

// Changed returns a channel closed at the next change of any entity.
func (f *Entities) Changed() <-chan struct{} { return f.changed.Wait() }

// Len is how many entities the bot knows.
func (f *Entities) Len() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return len(f.table)
}

// Dropped is how many spawns were refused because the table was full.
func (f *Entities) Dropped() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.dropped
}

// Get returns the entity with an id, and false when the bot does not know
// it.
func (f *Entities) Get(id int32) (Entity, bool) {
	f.mu.RLock()
	e := f.table[id]
	f.mu.RUnlock()
	if e == nil {
		return Entity{}, false
	}
	return f.linked(e), true
}

// ByUUID returns the entity with a UUID (a player's, say), and false when
// the bot does not see it.
func (f *Entities) ByUUID(id [16]byte) (Entity, bool) {
	f.mu.RLock()
	eid, ok := f.byUUID[id]
	e := f.table[eid]
	f.mu.RUnlock()
	if !ok || e == nil {
		return Entity{}, false
	}
	return f.linked(e), true
}

// All returns every entity, by id.
func (f *Entities) All() []Entity {
	f.mu.RLock()
	list := make([]*Entity, 0, len(f.table))
	for _, e := range f.table {
		list = append(list, e)
	}
	f.mu.RUnlock()
	out := make([]Entity, len(list))
	for i, e := range list {
		out[i] = f.linked(e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Near returns the entities within radius blocks of p, nearest first,
// with their distances.
func (f *Entities) Near(p geom.Vec3, radius float64) ([]Entity, []float64) {
	type hit struct {
		e *Entity
		d float64
	}
	var hits []hit
	f.mu.RLock()
	for _, e := range f.table {
		if d := e.Distance(p); d <= radius {
			hits = append(hits, hit{e, d})
		}
	}
	f.mu.RUnlock()
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		return hits[i].e.ID < hits[j].e.ID
	})
	out, dist := make([]Entity, len(hits)), make([]float64, len(hits))
	for i, h := range hits {
		out[i], dist[i] = f.linked(h.e), h.d
	}
	return out, dist
}

// linked is a copy of e with its player link resolved: the player list
// may name a UUID after the entity spawned.
func (f *Entities) linked(e *Entity) Entity {
	out := *e
	if f.players != nil {
		if p, ok := f.players.ByUUID(e.UUID); ok {
			out.Player, out.Username = true, p.Name
		}
	}
	if out.Player {
		out.Type, out.Kind, out.Hostile = "player", "player", false
	}
	return out
}

// ---- writing (the read loop) ----

// get returns the current entity with id (staged or published), or nil.
func (f *Entities) get(id int32) *Entity {
	if f.inBundle {
		if e, ok := f.staged[id]; ok {
			return e
		}
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.table[id]
}

// put publishes e (or, within a bundle, stages it).
func (f *Entities) put(e *Entity) {
	if f.inBundle {
		f.stage(e.ID, e)
		return
	}
	f.mu.Lock()
	f.putLocked(e.ID, e)
	f.mu.Unlock()
	f.changed.Broadcast()
}

// remove removes an entity (or stages its removal).
func (f *Entities) remove(id int32) {
	if f.inBundle {
		f.stage(id, nil)
		return
	}
	f.mu.Lock()
	f.putLocked(id, nil)
	f.mu.Unlock()
	f.changed.Broadcast()
}

func (f *Entities) stage(id int32, e *Entity) {
	if f.staged == nil {
		f.staged = map[int32]*Entity{}
	}
	f.staged[id] = e
	if len(f.staged) >= maxStaged {
		f.publish()
	}
}

// publish applies the staged changes at once.
func (f *Entities) publish() {
	if len(f.staged) == 0 {
		return
	}
	f.mu.Lock()
	for id, e := range f.staged {
		f.putLocked(id, e)
	}
	f.mu.Unlock()
	clear(f.staged)
	f.changed.Broadcast()
}

// putLocked sets (e non-nil) or removes an entity, keeping the UUID index
// and the bound.
func (f *Entities) putLocked(id int32, e *Entity) {
	old := f.table[id]
	if old != nil && f.byUUID[old.UUID] == id {
		delete(f.byUUID, old.UUID)
	}
	if e == nil {
		delete(f.table, id)
		return
	}
	if old == nil && len(f.table) >= MaxEntities {
		f.dropped++
		return
	}
	f.table[id] = e
	if e.UUID != ([16]byte{}) {
		f.byUUID[e.UUID] = id
	}
}

// clearAll forgets every entity: a new level (login, another dimension, a
// return to configuration).
func (f *Entities) clearAll() {
	f.inBundle = false
	clear(f.staged)
	f.mu.Lock()
	f.table, f.byUUID = map[int32]*Entity{}, map[[16]byte]int32{}
	f.mu.Unlock()
	f.changed.Broadcast()
}

// update applies change to a copy of entity id and publishes it; unknown
// ids are ignored (the server may move what it never showed the bot).
func (f *Entities) update(id int32, change func(e *Entity)) {
	old := f.get(id)
	if old == nil {
		return
	}
	e := *old
	change(&e)
	f.put(&e)
}

func (f *Entities) login(r *wire.Reader) error {
	l := f.c.PlayLogin(r)
	if r.Err() != nil {
		return nil
	}
	f.dimension = l.Spawn.Dimension
	f.clearAll()
	return nil
}

// respawn clears the table on a dimension change; the game's client keeps
// its level, and the entities in it, on a respawn in the same dimension.
func (f *Entities) respawn(r *wire.Reader) error {
	rs := f.c.Respawn(r)
	if r.Err() != nil {
		return nil
	}
	if rs.Spawn.Dimension != f.dimension {
		f.dimension = rs.Spawn.Dimension
		f.clearAll()
	}
	return nil
}

func (f *Entities) reconfigure(*wire.Reader) error {
	f.dimension = ""
	f.clearAll()
	return nil
}

// bundle opens or closes a bundle; closing publishes what it staged.
func (f *Entities) bundle(*wire.Reader) error {
	if f.inBundle {
		f.publish()
	}
	f.inBundle = !f.inBundle
	return nil
}

func (f *Entities) spawn(decode func(*wire.Reader) codec.SpawnEntity) core.Handler {
	return func(r *wire.Reader) error {
		sp := decode(r)
		if r.Err() != nil {
			return nil
		}
		pos := geom.Vec3{X: sp.X, Y: sp.Y, Z: sp.Z}
		if !pos.Finite() {
			return nil // a position that means nothing; the game would fail it too
		}
		e := &Entity{
			ID: sp.EntityID, UUID: sp.UUID, TypeID: sp.Type, Position: pos,
			Velocity: finiteVec(sp.VX, sp.VY, sp.VZ),
			Yaw:      sp.Yaw, Pitch: sp.Pitch, HeadYaw: sp.HeadYaw, Data: sp.Data,
		}
		if f.game != nil {
			if t := f.game.EntityType(sp.Type); t != nil {
				e.Type, e.Kind, e.Hostile = t.Name, t.Kind, t.Hostile
				e.Player = t.Name == "player"
			}
		}
		f.put(e)
		return nil
	}
}

func (f *Entities) move(decode func(*wire.Reader) codec.EntityMove) core.Handler {
	return func(r *wire.Reader) error {
		m := decode(r)
		if r.Err() != nil {
			return nil
		}
		f.update(m.EntityID, func(e *Entity) {
			if m.HasMove {
				e.Position.X += m.DX
				e.Position.Y += m.DY
				e.Position.Z += m.DZ
			}
			if m.HasLook {
				e.Yaw, e.Pitch = m.Yaw, m.Pitch
			}
			e.OnGround = m.OnGround
		})
		return nil
	}
}

func (f *Entities) headRotation(r *wire.Reader) error {
	h := f.c.EntityHeadRotation(r)
	if r.Err() == nil {
		f.update(h.EntityID, func(e *Entity) { e.HeadYaw = h.HeadYaw })
	}
	return nil
}

// teleport places an entity; from 1.21.2 each value may be relative (the
// position sync's bits: x, y, z, yaw, pitch, then the velocity's x, y, z).
func (f *Entities) teleport(decode func(*wire.Reader) codec.EntityTeleport) core.Handler {
	return func(r *wire.Reader) error {
		t := decode(r)
		if r.Err() != nil {
			return nil
		}
		f.update(t.EntityID, func(e *Entity) {
			rel := func(bit uint32, cur, v float64) float64 {
				if t.Relative&bit != 0 {
					return cur + v
				}
				return v
			}
			pos := geom.Vec3{X: rel(codec.RelativeX, e.Position.X, t.X), Y: rel(codec.RelativeY, e.Position.Y, t.Y), Z: rel(codec.RelativeZ, e.Position.Z, t.Z)}
			if pos.Finite() {
				e.Position = pos
			}
			e.Yaw = float32(rel(codec.RelativeYaw, float64(e.Yaw), float64(t.Yaw)))
			e.Pitch = float32(rel(codec.RelativePitch, float64(e.Pitch), float64(t.Pitch)))
			if t.HasVelocity {
				e.Velocity = finiteVec(rel(1<<5, e.Velocity.X, t.VX), rel(1<<6, e.Velocity.Y, t.VY), rel(1<<7, e.Velocity.Z, t.VZ))
			}
			e.OnGround = t.OnGround
		})
		return nil
	}
}

func (f *Entities) velocity(r *wire.Reader) error {
	v := f.c.EntityVelocity(r)
	if r.Err() == nil {
		f.update(v.EntityID, func(e *Entity) { e.Velocity = finiteVec(v.VX, v.VY, v.VZ) })
	}
	return nil
}

func (f *Entities) destroy(r *wire.Reader) error {
	ids := f.c.EntityDestroy(r)
	if r.Err() != nil {
		return nil
	}
	for _, id := range ids {
		if f.get(id) != nil {
			f.remove(id)
		}
	}
	return nil
}

// passengers replaces a vehicle's riders: the new ones ride it, those left
// off it ride nothing.
func (f *Entities) passengers(r *wire.Reader) error {
	p := f.c.SetPassengers(r)
	if r.Err() != nil {
		return nil
	}
	vehicle := f.get(p.Vehicle)
	if vehicle == nil {
		return nil
	}
	riding := map[int32]bool{}
	for _, id := range p.Passengers {
		riding[id] = true
	}
	for _, id := range vehicle.Passengers {
		if !riding[id] {
			f.update(id, func(e *Entity) {
				if e.HasVehicle && e.Vehicle == p.Vehicle {
					e.HasVehicle = false
				}
			})
		}
	}
	for _, id := range p.Passengers {
		f.update(id, func(e *Entity) { e.HasVehicle, e.Vehicle = true, p.Vehicle })
	}
	f.update(p.Vehicle, func(e *Entity) { e.Passengers = append([]int32(nil), p.Passengers...) })
	return nil
}

// Metadata indices every entity shares (the game's Entity), and those of
// living entities and item entities. They are the same in 1.21 to 26.1.
const (
	metaFlags      = 0
	metaCustomName = 2
	metaPose       = 6
	metaHealth     = 9 // LivingEntity.DATA_HEALTH_ID
)

func (f *Entities) metadata(r *wire.Reader) error {
	d := f.c.EntityData(r)
	if r.Err() != nil && len(d.Entries) == 0 {
		return nil
	}
	// A list that failed part way still holds its leading entries; the
	// reader's error ends the connection afterwards, as for any packet the
	// bot cannot read.
	f.update(d.EntityID, func(e *Entity) {
		for _, m := range d.Entries {
			switch {
			case m.Index == metaFlags:
				if v, ok := m.Byte(); ok {
					e.Flags = v
				}
			case m.Index == metaCustomName && m.Type == "optional_component":
				e.CustomName = ""
				if text, ok := m.Text(); ok {
					e.CustomName = cleanName(chat.Plain(text))
				}
			case m.Index == metaPose:
				if p, ok := m.Pose(); ok {
					e.Pose = p
				}
			case m.Index == metaHealth && living(e.Kind):
				if h, ok := m.Float(); ok && !math.IsNaN(float64(h)) {
					e.HasHealth, e.Health = true, h
					if h <= 0 {
						e.Dead = true
					}
				}
			case m.Type == "item_stack" && e.Type == "item":
				if st, ok := m.Stack(); ok {
					if f.game != nil {
						if it := f.game.Item(mcdata.ItemID(st.ID)); it != nil {
							st.Name = it.Name
						}
					}
					e.Item = &st
				}
			}
		}
	})
	return nil
}

func (f *Entities) status(r *wire.Reader) error {
	s := f.c.EntityStatus(r)
	if r.Err() == nil && s.Status == codec.EntityDeath {
		f.update(s.EntityID, func(e *Entity) {
			if living(e.Kind) || e.Player {
				e.Dead = true
			}
		})
	}
	return nil
}

// living says whether minecraft-data's kind is a living entity's.
func living(kind string) bool {
	switch kind {
	case "hostile", "mob", "animal", "passive", "water_creature", "ambient", "player", "living":
		return true
	}
	return false
}

func finiteVec(x, y, z float64) geom.Vec3 {
	v := geom.Vec3{X: x, Y: y, Z: z}
	if !v.Finite() {
		return geom.Vec3{}
	}
	return v
}

// cleanName makes a name one line of text without escape sequences,
// control characters, bidi controls or invisible characters (the one
// sanitiser, package untrusted), at most 64 characters (the game's display limit for a
// name tag is far longer, but a name is not a message).
func cleanName(s string) string {
	s = strings.Join(strings.Fields(untrusted.Line(s)), " ")
	if r := []rune(s); len(r) > 64 {
		s = string(r[:64]) + "…"
	}
	return s
}

// ---- the tick ----

// hysteresis is how far past the radius a mob type must go before coming
// near again is news.
const hysteresis = 2

// closer is how much nearer than last said a mob must come to be news
// again while it stays near.
const closer = 4

// scanEvery is how many ticks apart the hostile scan runs: twice a second
// is news soon enough for a model reading events.
const scanEvery = 10

// tick scans for hostile mobs near the bot every scanEvery ticks: per
// type, the nearest live one. A type that comes within the radius, or
// comes closer by 4 blocks than last said, is emitted as
// mc_hostile_nearby {type, distance}. It runs as a catch-up handler: the
// news may wait up to a second while nothing needs the tick in real time.
func (f *Entities) tick(n uint64) {
	if n%scanEvery != 0 {
		return
	}
	me := f.self.Snapshot()
	if me.Dead {
		return
	}
	type candidate struct {
		e *Entity
		d float64
	}
	var found []candidate
	f.mu.RLock()
	for _, e := range f.table {
		if !e.Hostile || e.Dead || e.ID == me.EntityID {
			continue
		}
		if d := e.Distance(me.Position); d <= f.opts.HostileRadius+hysteresis {
			found = append(found, candidate{e, d})
		}
	}
	f.mu.RUnlock()
	nearest := map[string]float64{}
	for _, c := range found {
		// A player is never a hostile mob, whatever type the server
		// spawned it as.
		if _, isPlayer := f.players.ByUUID(c.e.UUID); isPlayer {
			continue
		}
		if cur, ok := nearest[c.e.Type]; !ok || c.d < cur {
			nearest[c.e.Type] = c.d
		}
	}
	// A type gone past the radius and its margin is forgotten: its coming
	// back is news.
	for typ := range f.near {
		if _, ok := nearest[typ]; !ok {
			delete(f.near, typ)
		}
	}
	for typ, d := range nearest {
		said, was := f.near[typ]
		switch {
		case d > f.opts.HostileRadius:
			continue
		case !was || d <= said-closer:
			f.near[typ] = d
			f.s.Emit("mc_hostile_nearby", typ, struct {
				Type     string  `json:"type"`
				Distance float64 `json:"distance"`
			}{typ, math.Round(d*10) / 10})
		}
	}
}
