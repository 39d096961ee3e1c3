package entity

// The tick: the scan for hostile mobs near the bot, and its news
// (mc_hostile_nearby).

import (
	"math"
)

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
