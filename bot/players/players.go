// Package players keeps the player list (the tab list): who is in the
// world, their game mode and ping. It emits mc_player_joined and
// mc_player_left, but not for the roster of players already in the world
// when the bot joins.
package players

import (
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/untrusted"
)

// RosterWindow is how long after the bot's first position sync the first
// player-list add still counts as the roster of players already in the
// world. Vanilla sends the roster right behind that position sync, in the
// same burst, so the read loop sees it within milliseconds whatever the
// load; a player who really joins comes later, on servers that send no
// roster too.
const RosterWindow = 500 * time.Millisecond

// maxPlayers bounds the list, so a hostile server cannot grow it forever.
const maxPlayers = 10000

// Player is one entry of the list.
type Player struct {
	UUID [16]byte
	Name string
	// HasGameMode and HasPing say whether the server has sent them.
	HasGameMode bool
	GameMode    int32
	HasPing     bool
	PingMS      int32
}

// Players is one session's player list. Its methods are safe from any
// goroutine.
type Players struct {
	s *core.Session
	c *codec.Codec

	mu         sync.Mutex
	list       map[[16]byte]*Player
	rosterSeen bool
}

// Attach registers the feature's handlers on s.
func Attach(s *core.Session) *Players {
	p := &Players{s: s, c: s.Codec, list: map[[16]byte]*Player{}}
	s.Handle(mcdata.ClientboundPlayPlayerInfo, p.info)
	s.Handle(mcdata.ClientboundPlayPlayerRemove, p.remove)
	return p
}

func (p *Players) spawnedSince() (time.Duration, bool) {
	at, ok := p.s.SpawnedAt()
	if !ok {
		return 0, false
	}
	return p.s.Now().Sub(at), true
}

func (p *Players) info(r *wire.Reader) error {
	u := p.c.PlayerInfo(r)
	if r.Err() != nil {
		return nil
	}
	self := p.s.UUID()
	since, spawned := p.spawnedSince()
	var joined []string
	p.mu.Lock()
	// Vanilla sends everyone already in the world in one add right after
	// the login's position sync: that roster is recorded, not announced.
	// The trade-off: flying-squid never sends a newcomer the roster, so
	// there a real join within RosterWindow of the bot's first position
	// sync is taken for the roster and not announced.
	roster := false
	if u.Has(codec.ActionAddPlayer) && !p.rosterSeen {
		p.rosterSeen = true
		roster = !spawned || since <= RosterWindow
	}
	for _, e := range u.Entries {
		pl := p.list[e.UUID]
		known := pl != nil
		if !known {
			pl = &Player{UUID: e.UUID}
		}
		if u.Has(codec.ActionAddPlayer) {
			// A name is chosen by its player (and any string, on a server
			// that does not check): one line through the one sanitiser.
			pl.Name = untrusted.Line(e.Name)
		}
		if u.Has(codec.ActionGameMode) {
			pl.HasGameMode, pl.GameMode = true, e.GameMode
		}
		if u.Has(codec.ActionLatency) {
			pl.HasPing, pl.PingMS = true, e.Latency
		}
		if known || pl.Name == "" || len(p.list) >= maxPlayers {
			continue
		}
		p.list[e.UUID] = pl
		if e.UUID != self {
			joined = append(joined, pl.Name)
		}
	}
	p.mu.Unlock()
	if spawned && !roster {
		for _, name := range joined {
			p.s.Emit("mc_player_joined", name, presence{name, true})
		}
	}
	return nil
}

// presence is the payload of mc_player_joined and mc_player_left. Untrusted
// marks, in the payload itself, that the name is one a player chose, for a
// reader that sees the payload without the event catalog.
type presence struct {
	Username  string `json:"username"`
	Untrusted bool   `json:"untrusted"`
}

func (p *Players) remove(r *wire.Reader) error {
	ids := p.c.PlayerRemove(r)
	if r.Err() != nil {
		return nil
	}
	self := p.s.UUID()
	var gone []string
	p.mu.Lock()
	for _, id := range ids {
		if pl, ok := p.list[id]; ok {
			delete(p.list, id)
			if id != self {
				gone = append(gone, pl.Name)
			}
		}
	}
	p.mu.Unlock()
	if _, spawned := p.s.SpawnedAt(); spawned {
		for _, name := range gone {
			p.s.Emit("mc_player_left", name, presence{name, true})
		}
	}
	return nil
}

// List returns the players, the bot included (some servers, flying-squid,
// never list a player to itself; the bot is in the world all the same),
// sorted by name without case. The bot's entry, found by its id or its
// name, has IsSelf.
func (p *Players) List() []Entry {
	self, name := p.s.UUID(), p.s.Username()
	p.mu.Lock()
	out := make([]Entry, 0, len(p.list)+1)
	listed := false
	for id, pl := range p.list {
		isSelf := id == self || pl.Name == name
		listed = listed || isSelf
		out = append(out, Entry{Player: *pl, IsSelf: isSelf, Listed: true})
	}
	p.mu.Unlock()
	if !listed {
		out = append(out, Entry{Player: Player{UUID: self, Name: name}, IsSelf: true})
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}

// Entry is a player as List returns it.
type Entry struct {
	Player
	IsSelf bool
	// Listed is false for the bot's own entry when the server does not
	// list the bot.
	Listed bool
}

// ByUUID returns the listed player with a UUID, and false when the list
// has none (the bot's own entry included when the server lists it).
func (p *Players) ByUUID(id [16]byte) (Player, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pl, ok := p.list[id]
	if !ok {
		return Player{}, false
	}
	return *pl, true
}

// Count is how many players are in the world, the bot included.
func (p *Players) Count() int { return len(p.List()) }

// Self is the bot's own entry, and false when the server does not list it.
func (p *Players) Self() (Player, bool) {
	for _, e := range p.List() {
		if e.IsSelf {
			return e.Player, e.Listed
		}
	}
	return Player{}, false
}

// Find finds name in the list, ignoring case, the bot included, and
// returns it as the list spells it.
func (p *Players) Find(name string) (string, bool) {
	for _, e := range p.List() {
		if strings.EqualFold(e.Name, name) {
			return e.Name, true
		}
	}
	return "", false
}

// Names lists the names of the players in the world, the bot included,
// sorted without case.
func (p *Players) Names() []string {
	list := p.List()
	names := make([]string, len(list))
	for i, e := range list {
		names[i] = e.Name
	}
	return names
}
