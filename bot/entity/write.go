package entity

// Writing: the handlers of the server's entity packets, run on the read
// loop, which stage changes and publish them.

import (
	"math"
	"strings"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/untrusted"
)

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
