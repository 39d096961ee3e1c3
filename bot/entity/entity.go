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
	"sync"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/metadata"
	"github.com/blockmate/blockmate/bot/players"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/geom"
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
