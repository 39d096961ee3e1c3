package bot

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync/atomic"
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
	// Clock gives sessions their time and their 20 Hz tick; nil means the
	// real clock. Tests drive a core.ManualClock.
	Clock core.Clock
}

// world is one session with every feature attached: the one place the
// features meet.
type world struct {
	s       *core.Session
	link    *link.Link
	reg     *registry.Registry
	self    *self.Self
	players *players.Players
	talk    *talk.Talk
	inv     *inventory.Inventory
	// blocks is the world feature (chunks, blocks, biomes, the dimension),
	// entities the entity feature.
	blocks   *worldfeat.World
	entities *entity.Entities
	// skills are crafting, smelting, eating, chests and giving.
	skills *skill.Skills
	// combat is mc_attack and mc_defend.
	combat *combat.Combat
	// dig is digging, placing, using blocks, collecting and picking up.
	dig *dig.Dig
	// body moves the bot: physics on the tick, walks, the head's turns;
	// the only sender of movement packets.
	body *move.Mover
	// waitedForChunks is set once a world tool has waited for the first
	// chunks.
	waitedForChunks atomic.Bool
	// mapView is mc_map's memory of the columns it read last.
	mapView mapState
	// route, once the movement feature sets it, tells mc_map the path the
	// bot walks and its goal; nil until then.
	route routeFunc

	host    string
	port    int
	version string // the game version, as people name it
}

// attach builds a session over nc and attaches every feature to it, in
// the order they depend on one another.
func attach(nc net.Conn, cd *codec.Codec, log *slog.Logger, emit func(string, string, any), username string, host string, port int, opts Options) *world {
	s := core.New(nc, cd, core.Options{
		Log: log, Emit: emit, Clock: opts.Clock, KeepAliveTimeout: opts.KeepAliveTimeout,
		Username: username, UUID: offline.NameToUUID(username),
		// On the real clock only: a test's manual clock ticks when the
		// test says, and its packets must not wait for that.
		ReadOnTick: opts.Clock == nil,
	})
	w := &world{s: s, host: host, port: port, version: cd.Name()}
	w.reg = registry.Attach(s)
	w.link = link.Attach(s, w.reg, link.Options{Host: host, Port: port, ViewDistance: opts.ViewDistance, Brand: opts.Brand})
	w.self = self.Attach(s, w.reg, self.Options{LowHealthThreshold: opts.LowHealthThreshold, LowFoodThreshold: opts.LowFoodThreshold})
	w.players = players.Attach(s)
	w.talk = talk.Attach(s, w.reg)
	w.inv = inventory.Attach(s)
	w.blocks = worldfeat.Attach(s, w.reg, w.self)
	w.entities = entity.Attach(s, w.players, w.self, entity.Options{})
	w.body = move.Attach(s, w.self, w.blocks)
	w.skills = skill.Attach(s, w.inv, w.self, w.blocks, w.entities, w.body)
	w.combat = combat.Attach(s, w.inv, w.self, w.entities, w.body)
	w.self.SetAttackerType(attackerType(w.entities))
	w.dig = dig.Attach(s, w.reg, w.self, w.blocks, w.inv, w.entities, w.body)
	w.body.SetHands(w.dig)
	w.route = walkRoute(w.body)
	return w
}

// JoinError is a join that failed, with the sentence to show.
type JoinError struct{ Msg string }

func (e *JoinError) Error() string { return e.Msg }

// connect dials, logs in and configures, and returns once the bot has
// spawned (its first position sync) or failed. Cancelling ctx before then
// closes the socket, which ends whatever read or write waits.
func connect(ctx context.Context, log *slog.Logger, emit func(string, string, any), host string, port int, username string, protocol int32, gameVersion string, opts Options) (*world, error) {
	cd := codec.For(protocol)
	if cd == nil {
		return nil, &JoinError{fmt.Sprintf("blockmate cannot speak protocol %d", protocol)}
	}
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, &JoinError{fmt.Sprintf("cannot connect to %s (%v): check that the world is still open to LAN and the port is right", addr, core.ShortErr(err))}
	}
	if tcp, ok := nc.(*net.TCPConn); ok {
		_ = tcp.SetNoDelay(true)
	}
	w := attach(nc, cd, log.With("server", addr), emit, username, host, port, opts)
	if gameVersion != "" {
		w.version = gameVersion
	}
	stop := context.AfterFunc(ctx, w.s.Close)
	defer stop()
	if err := w.link.Login(); err != nil {
		w.s.Close()
		return nil, &JoinError{fmt.Sprintf("cannot talk to %s: %v", addr, core.ShortErr(err))}
	}
	w.s.Start()
	select {
	case <-w.s.Spawned():
		return w, nil
	case <-w.s.Done():
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		end := w.s.End()
		return nil, &JoinError{end.Reason + "; " + end.NextStep}
	case <-ctx.Done():
		w.s.Leave()
		return nil, ctx.Err()
	}
}

// phase is the connection's state as mc_status names it.
func phase(s mcdata.State) string {
	switch s {
	case mcdata.StatePlay:
		return "playing"
	case mcdata.StateConfig:
		return "configuring"
	}
	return "connecting"
}
