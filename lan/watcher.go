package lan

import (
	"context"
	"encoding/json"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/protocol"
)

// Watcher defaults.
const (
	// DefaultStale is how long a world may go unheard before it is lost:
	// a little over three announcement periods, so one lost datagram is
	// not a lost world.
	DefaultStale = 5 * time.Second
	// DefaultRefresh is how often known worlds are pinged again (their
	// players and version change) and mDNS is asked again.
	DefaultRefresh = 10 * time.Second
	// DefaultRetry is how long the watcher waits before trying again to
	// open a listener that could not start.
	DefaultRetry = 10 * time.Second
)

// WatchOptions configure a Watcher. Zero values pick the defaults.
type WatchOptions struct {
	Listen  ListenConfig
	Stale   time.Duration
	Refresh time.Duration
	Retry   time.Duration
}

// Watcher discovers LAN worlds in the background, for the console: it keeps
// the announcement listener open, browses mDNS now and then, pings what it
// finds, and emits mc_lan_world_found when a world appears or its status
// changes and mc_lan_world_lost when it stops announcing.
type Watcher struct {
	opts WatchOptions

	mu     sync.Mutex
	worlds map[string]*watched
	bus    *protocol.Bus
	pings  sync.WaitGroup
}

type watched struct {
	world    World
	lastSeen time.Time
	lastPing time.Time
	pinging  bool
	// dirty marks a change (a new MOTD) to emit at the next refresh, so a
	// world that changes its MOTD with every datagram cannot flood.
	dirty bool
}

// NewWatcher returns a watcher; Run starts it.
func NewWatcher(opts WatchOptions) *Watcher {
	if opts.Stale <= 0 {
		opts.Stale = DefaultStale
	}
	if opts.Refresh <= 0 {
		opts.Refresh = DefaultRefresh
	}
	if opts.Retry <= 0 {
		opts.Retry = DefaultRetry
	}
	return &Watcher{opts: opts, worlds: map[string]*watched{}}
}

// Worlds lists the worlds known now, this machine's first.
func (w *Watcher) Worlds() []World {
	w.mu.Lock()
	out := make([]World, 0, len(w.worlds))
	for _, x := range w.worlds {
		out = append(out, x.world)
	}
	w.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].IsLocalMachine != out[j].IsLocalMachine {
			return out[i].IsLocalMachine
		}
		return out[i].Key() < out[j].Key()
	})
	return out
}

// Run watches until ctx ends. It never fails: a listener that cannot start
// is logged and retried, and discovery carries on with mDNS meanwhile.
func (w *Watcher) Run(ctx context.Context, bus *protocol.Bus) {
	w.mu.Lock()
	w.bus = bus
	w.mu.Unlock()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); w.listen(ctx) }()
	if !w.opts.Listen.NoMDNS {
		wg.Add(1)
		go func() { defer wg.Done(); w.browse(ctx) }()
	}
	tick := time.NewTicker(w.opts.Stale / 5)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			wg.Wait()
			w.pings.Wait()
			return
		case now := <-tick.C:
			w.sweep(ctx, now)
		}
	}
}

func (w *Watcher) log() *slog.Logger { return w.opts.Listen.log() }

// listen keeps an announcement listener open, reopening it when it fails.
func (w *Watcher) listen(ctx context.Context) {
	warned := false
	for ctx.Err() == nil {
		l, err := Listen(w.opts.Listen)
		if err != nil {
			if !warned {
				w.log().Warn("cannot listen for LAN announcements; will keep trying", "err", err)
				warned = true
			} else {
				w.log().Debug("still cannot listen for LAN announcements", "err", err)
			}
		} else {
			warned = false
			if err := l.Run(ctx, func(s Sighting) { w.seen(ctx, s) }); err != nil {
				w.log().Debug("LAN announcement listener stopped; reopening", "err", err)
			}
			l.Close()
		}
		select {
		case <-ctx.Done():
		case <-time.After(w.opts.Retry):
		}
	}
}

// browse asks mDNS every refresh period.
func (w *Watcher) browse(ctx context.Context) {
	window := min(2*time.Second, w.opts.Refresh/2)
	for ctx.Err() == nil {
		if err := BrowseMDNS(ctx, w.opts.Listen, window, func(s Sighting) { w.seen(ctx, s) }); err != nil {
			w.log().Debug("mDNS browse failed", "err", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(w.opts.Refresh):
		}
	}
}

// seen records a sighting; a new world is pinged and then announced.
func (w *Watcher) seen(ctx context.Context, s Sighting) {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := s.Key()
	x, ok := w.worlds[k]
	if !ok {
		if len(w.worlds) >= maxWorlds {
			return
		}
		x = &watched{world: newWorld(s)}
		w.worlds[k] = x
		x.lastSeen = time.Now()
		w.startPing(ctx, k, x)
		return
	}
	x.lastSeen = time.Now()
	if s.Source == api.FromAnnouncement && x.world.Source != api.FromAnnouncement {
		x.world.Source = api.FromAnnouncement
	}
	if s.MOTD != "" && s.MOTD != x.world.MOTD && (s.Source == api.FromAnnouncement || x.world.Source == api.FromMDNS) {
		x.world.MOTD = s.MOTD
		x.dirty = true
	}
}

// startPing pings x in the background; the first successful or failed
// answer emits mc_lan_world_found, later ones only when something changed.
// w.mu is held.
func (w *Watcher) startPing(ctx context.Context, key string, x *watched) {
	if x.pinging {
		return
	}
	x.pinging = true
	x.lastPing = time.Now()
	first := x.world.Version == "" && x.world.PingError == "" && !x.dirty
	probe := x.world
	w.pings.Add(1)
	go func() {
		defer w.pings.Done()
		got := PingAll(ctx, w.opts.Listen, []World{probe})[0]
		w.mu.Lock()
		defer w.mu.Unlock()
		cur, ok := w.worlds[key]
		if !ok || cur != x {
			return // lost while pinging
		}
		x.pinging = false
		if ctx.Err() != nil {
			// The watcher is stopping: a ping it cut short says nothing
			// about the world, so it changes nothing and emits nothing.
			return
		}
		before, _ := json.Marshal(x.world)
		x.world.Version, x.world.Protocol = got.Version, got.Protocol
		x.world.PlayersOnline, x.world.PlayersMax, x.world.Compatible = got.PlayersOnline, got.PlayersMax, got.Compatible
		x.world.PingError, x.world.NextStep = got.PingError, got.NextStep
		if x.world.MOTD == "" {
			x.world.MOTD = got.MOTD
		}
		after, _ := json.Marshal(x.world)
		if first || x.dirty || string(before) != string(after) {
			x.dirty = false
			w.emitFound(x.world)
		}
	}()
}

func (w *Watcher) emitFound(world World) {
	if w.bus != nil {
		w.bus.Emit("mc_lan_world_found", world.Key(), world)
	}
}

// sweep drops worlds not heard for too long and re-pings the rest now and
// then.
func (w *Watcher) sweep(ctx context.Context, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for k, x := range w.worlds {
		stale := w.opts.Stale
		if x.world.Source == api.FromMDNS {
			// mDNS answers come once per browse, not every 1.5 s.
			stale = max(stale, 2*w.opts.Refresh+2*time.Second)
		}
		if now.Sub(x.lastSeen) > stale {
			delete(w.worlds, k)
			if w.bus != nil {
				w.bus.Emit("mc_lan_world_lost", k, WorldLost{Host: x.world.Host, Port: x.world.Port, MOTD: x.world.MOTD, Untrusted: true})
			}
			continue
		}
		if now.Sub(x.lastPing) >= w.opts.Refresh {
			w.startPing(ctx, k, x)
		}
	}
}
