package entity

// What readers use: snapshots of the entities, looked up by id, kind,
// name and distance, and their change notification.

import (
	"sort"

	"github.com/blockmate/blockmate/geom"
)

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
