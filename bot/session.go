package bot

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/Tnze/go-mc/offline"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/combat"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/dig"
	"github.com/blockmate/blockmate/bot/entity"
	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/link"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/move"
	"github.com/blockmate/blockmate/bot/players"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/skill"
	"github.com/blockmate/blockmate/bot/talk"
	"github.com/blockmate/blockmate/bot/worldfeat"
)

// Options tune the bot's sessions.
type Options struct {
	ViewDistance       int8
	LowHealthThreshold float32
	LowFoodThreshold   int32
	KeepAliveTimeout   time.Duration
	Brand              string
	// Reconnect says how the bot comes back after a lost connection.
	Reconnect ReconnectOptions
	// Clock gives sessions their time and their 20 Hz tick; nil means the
	// real clock. Tests drive a core.ManualClock.
	Clock core.Clock
}

// Session is one connection to a world with every feature attached: the
// one place the features meet. The tools (bot/tools) read and drive the
// features through its accessors; nothing else of the client is theirs.
type Session struct {
	cs       *core.Session
	link     *link.Link
	reg      *registry.Registry
	self     *self.Self
	players  *players.Players
	talk     *talk.Talk
	inv      *inventory.Inventory
	level    *worldfeat.World
	entities *entity.Entities
	skills   *skill.Skills
	combat   *combat.Combat
	dig      *dig.Dig
	body     *move.Mover

	host    string
	port    int
	version string // the game version, as people name it
	// motd is the world's name as its status ping gave it (plain,
	// untrusted): a LAN world reopened on a new port is found by it.
	motd string
}

// Core is the connection: its codec, sending, the tick service, events.
func (s *Session) Core() *core.Session { return s.cs }

// Link is the connection's life cycle: login, configuration, keep-alive.
func (s *Session) Link() *link.Link { return s.link }

// Registry is what the server sent in configuration (dimension types,
// chat types, damage types …).
func (s *Session) Registry() *registry.Registry { return s.reg }

// Self is the bot's own state: health, food, position as the server set it,
// death and respawn.
func (s *Session) Self() *self.Self { return s.self }

// Players is the player list.
func (s *Session) Players() *players.Players { return s.players }

// Talk is chat: what was said, and saying it.
func (s *Session) Talk() *talk.Talk { return s.talk }

// Inventory is the inventory, the held slot, the cursor and open windows.
func (s *Session) Inventory() *inventory.Inventory { return s.inv }

// Level is the world the bot is in: its chunks and blocks, biomes and the
// dimension.
func (s *Session) Level() *worldfeat.World { return s.level }

// Entities are the entities the bot knows of.
func (s *Session) Entities() *entity.Entities { return s.entities }

// Skills are crafting, smelting, eating, sleeping, chests and giving.
func (s *Session) Skills() *skill.Skills { return s.skills }

// Combat is attacking and defending.
func (s *Session) Combat() *combat.Combat { return s.combat }

// Dig is the bot's hands: digging, placing, using blocks, collecting and
// picking up.
func (s *Session) Dig() *dig.Dig { return s.dig }

// Body moves the bot: physics on the tick, walks, the head's turns; the
// only sender of movement packets.
func (s *Session) Body() *move.Mover { return s.body }

// Host and Port are the server's address as the join was given it.
func (s *Session) Host() string { return s.host }

// MOTD is the world's message of the day as its status ping gave it (for a
// LAN world, "player - world name"); other people wrote it: untrusted.
func (s *Session) MOTD() string { return s.motd }

// Port is the server's port.
func (s *Session) Port() int { return s.port }

// Version is the game version the server runs, as people name it.
func (s *Session) Version() string { return s.version }

// attach builds a session over nc and attaches every feature to it, in
// the order they depend on one another.
func attach(nc net.Conn, cd *codec.Codec, log *slog.Logger, emit func(string, string, any), username string, host string, port int, opts Options) *Session {
	s := core.New(nc, cd, core.Options{
		Log: log, Emit: emit, Clock: opts.Clock, KeepAliveTimeout: opts.KeepAliveTimeout,
		Username: username, UUID: offline.NameToUUID(username),
		// On the real clock only: a test's manual clock ticks when the
		// test says, and its packets must not wait for that.
		ReadOnTick: opts.Clock == nil,
	})
	w := &Session{cs: s, host: host, port: port, version: cd.Name()}
	w.reg = registry.Attach(s)
	w.link = link.Attach(s, w.reg, link.Options{Host: host, Port: port, ViewDistance: opts.ViewDistance, Brand: opts.Brand})
	w.self = self.Attach(s, w.reg, self.Options{LowHealthThreshold: opts.LowHealthThreshold, LowFoodThreshold: opts.LowFoodThreshold})
	w.players = players.Attach(s)
	w.talk = talk.Attach(s, w.reg)
	w.inv = inventory.Attach(s)
	w.level = worldfeat.Attach(s, w.reg, w.self)
	w.entities = entity.Attach(s, w.players, w.self, entity.Options{})
	w.body = move.Attach(s, w.self, w.level)
	w.skills = skill.Attach(s, w.inv, w.self, w.level, w.entities, w.body)
	w.combat = combat.Attach(s, w.inv, w.self, w.entities, w.body)
	w.self.SetAttackerType(attackerType(w.entities))
	w.dig = dig.Attach(s, w.reg, w.self, w.level, w.inv, w.entities, w.body)
	w.body.SetHands(w.dig)
	return w
}

// Offline attaches every feature to a session over nc that no server
// drives: its read loop is not started and its writer is in the play
// state, so a program feeds it packets through Core().Route in the order a
// read loop would (the fuzzers, the tools' benchmarks). It leaves with
// Core().Leave.
func Offline(nc net.Conn, proto int32, emit func(name, subKey string, payload any), opts Options) (*Session, error) {
	cd := codec.For(proto)
	if cd == nil {
		return nil, fmt.Errorf("blockmate cannot speak protocol %d", proto)
	}
	if emit == nil {
		emit = func(string, string, any) {}
	}
	w := attach(nc, cd, slog.New(slog.DiscardHandler), emit, "Theo", "127.0.0.1", 25565, opts)
	if err := w.cs.SwitchAfter(mcdata.ServerboundHandshakeSetProtocol, nil, mcdata.StatePlay); err != nil {
		return nil, err
	}
	return w, nil
}

// JoinError is a join that failed, with the sentence to show.
type JoinError struct {
	Msg string
	// Final is set when joining again would fail the same way (a ban, a
	// duplicate login): reconnecting gives up on it.
	Final bool
}

func (e *JoinError) Error() string { return e.Msg }

// connect dials, logs in and configures, and returns once the bot has
// spawned (its first position sync) or failed. Cancelling ctx before then
// closes the socket, which ends whatever read or write waits.
func connect(ctx context.Context, log *slog.Logger, emit func(string, string, any), host string, port int, username string, protocol int32, gameVersion string, opts Options) (*Session, error) {
	cd := codec.For(protocol)
	if cd == nil {
		return nil, &JoinError{Msg: fmt.Sprintf("blockmate cannot speak protocol %d", protocol), Final: true}
	}
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, &JoinError{Msg: fmt.Sprintf("cannot connect to %s (%v): check that the world is still open to LAN and the port is right", addr, core.ShortErr(err))}
	}
	if tcp, ok := nc.(*net.TCPConn); ok {
		_ = tcp.SetNoDelay(true)
	}
	w := attach(nc, cd, log.With("server", addr), emit, username, host, port, opts)
	if gameVersion != "" {
		w.version = gameVersion
	}
	stop := context.AfterFunc(ctx, w.cs.Close)
	defer stop()
	if err := w.link.Login(); err != nil {
		w.cs.Close()
		return nil, &JoinError{Msg: fmt.Sprintf("cannot talk to %s: %v", addr, core.ShortErr(err))}
	}
	w.cs.Start()
	select {
	case <-w.cs.Spawned():
		return w, nil
	case <-w.cs.Done():
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		end := w.cs.End()
		return nil, &JoinError{Msg: end.Reason + "; " + end.NextStep, Final: end.Final}
	case <-ctx.Done():
		w.cs.Leave()
		return nil, ctx.Err()
	}
}

// Phase is the connection's state as mc_status names it: "playing",
// "configuring" or "connecting".
func (s *Session) Phase() string {
	switch s.cs.State() {
	case mcdata.StatePlay:
		return "playing"
	case mcdata.StateConfig:
		return "configuring"
	}
	return "connecting"
}
