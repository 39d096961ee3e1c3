package lan

import (
	"context"
	"errors"
	"net"
	"sort"
	"sync"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot/mcversion"
	"github.com/blockmate/blockmate/bot/ping"
)

// DefaultWindow is how long mc_discover_lan listens: a little over one
// announcement period, so a world that is open is heard at least once.
const DefaultWindow = 1700 * time.Millisecond

// discoverPingTimeout bounds the status ping of each world found. Worlds on
// the LAN answer in milliseconds.
const discoverPingTimeout = 1500 * time.Millisecond

// World is a world found on the LAN, with what its status ping said.
type World struct {
	api.LANWorld
	from net.IP // the sender's address, to retry a local world there
}

// newWorld is the world a sighting reports, before its status ping.
func newWorld(s Sighting) World {
	return World{LANWorld: api.LANWorld{Host: s.Host, Port: s.Port, MOTD: s.MOTD, IsLocalMachine: s.IsLocalMachine, Source: s.Source, Untrusted: true}, from: s.From}
}

// WorldLost is mc_lan_world_lost's payload: which world stopped announcing
// itself.
type WorldLost struct {
	Host string `json:"host"`
	Port int    `json:"port"`
	MOTD string `json:"motd"`
	// Untrusted is always true, as in World.
	Untrusted bool `json:"untrusted"`
}

// Key identifies a world: host and port.
func (w World) Key() string { return Sighting{Host: w.Host, Port: w.Port}.Key() }

// Discovery is the outcome of one discovery window.
type Discovery struct {
	Worlds []World
	// ListenErr says why the announcement listener could not start; MDNSErr
	// why the mDNS browse failed. Discovery still ran on whatever worked.
	ListenErr, MDNSErr error
}

// ErrMDNSOff is Discovery.MDNSErr when ListenConfig.NoMDNS turned the
// browse off on purpose.
var ErrMDNSOff = errors.New("mDNS browse is turned off")

// maxWorlds bounds how many worlds one discovery (or the watcher) keeps,
// and pingParallel how many it pings at once, so a stranger announcing
// thousands of ports cannot make blockmate dial thousands of times.
const (
	maxWorlds    = 64
	pingParallel = 8
)

// collector deduplicates sightings by host and port; an announcement wins
// over an mDNS answer for the same world, and the first MOTD seen stays.
type collector struct {
	mu     sync.Mutex
	order  []string
	worlds map[string]*World
}

func newCollector() *collector { return &collector{worlds: map[string]*World{}} }

// add records a sighting and reports whether the world is new.
func (c *collector) add(s Sighting) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := s.Key()
	if w, ok := c.worlds[k]; ok {
		if s.Source == api.FromAnnouncement && w.Source != api.FromAnnouncement {
			w.Source, w.MOTD, w.IsLocalMachine = s.Source, s.MOTD, s.IsLocalMachine
		}
		return false
	}
	if len(c.order) >= maxWorlds {
		return false
	}
	c.order = append(c.order, k)
	w := newWorld(s)
	c.worlds[k] = &w
	return true
}

func (c *collector) list() []World {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]World, 0, len(c.order))
	for _, k := range c.order {
		out = append(out, *c.worlds[k])
	}
	return out
}

// Discover listens for announcements and browses mDNS for window (or until
// ctx ends), then pings every world found. It returns whatever it found;
// the errors in Discovery say which way of finding worlds did not work.
func Discover(ctx context.Context, cfg ListenConfig, window time.Duration) Discovery {
	if window <= 0 {
		window = DefaultWindow
	}
	wctx, cancel := context.WithTimeout(ctx, window)
	defer cancel()
	col := newCollector()
	var d Discovery
	var wg sync.WaitGroup
	l, err := Listen(cfg)
	if err != nil {
		d.ListenErr = err
	} else {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := l.Run(wctx, func(s Sighting) { col.add(s) }); err != nil {
				cfg.log().Debug("announcement listener stopped", "err", err)
			}
		}()
	}
	if cfg.NoMDNS {
		d.MDNSErr = ErrMDNSOff
	} else {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.MDNSErr = BrowseMDNS(wctx, cfg, window, func(s Sighting) { col.add(s) })
		}()
	}
	<-wctx.Done()
	if l != nil {
		l.Close()
	}
	wg.Wait()
	d.Worlds = PingAll(ctx, cfg, col.list())
	return d
}

// PingAll status-pings every world at once and fills in what each said. A
// world announced by this machine whose loopback ping fails is tried at the
// address it announced from before giving up. The pings' sockets are
// created where cfg.Enter says, like the listener's.
func PingAll(ctx context.Context, cfg ListenConfig, worlds []World) []World {
	var wg sync.WaitGroup
	sem := make(chan struct{}, pingParallel)
	for i := range worlds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			pingWorld(ctx, cfg, &worlds[i])
		}()
	}
	wg.Wait()
	sort.SliceStable(worlds, func(i, j int) bool {
		// This machine's worlds first: they are the player's own.
		return worlds[i].IsLocalMachine && !worlds[j].IsLocalMachine
	})
	return worlds
}

// pingWorld pings w and records the outcome. The outcome replaces the
// previous one in full: a ping that answers clears an old ping_error, and
// one that fails clears the version and counts an earlier ping gave, so a
// world never shows a fresh error beside stale players, or the reverse.
func pingWorld(ctx context.Context, cfg ListenConfig, w *World) {
	w.Version, w.Protocol, w.PlayersOnline, w.PlayersMax, w.Compatible, w.PingError, w.NextStep = "", 0, nil, nil, nil, "", ""
	ask := func(host string) (st ping.Status, err error) {
		pctx, cancel := context.WithTimeout(ctx, discoverPingTimeout)
		defer cancel()
		if eerr := cfg.enter(func() error { st, err = ping.Server(pctx, host, w.Port); return nil }); eerr != nil {
			return st, eerr
		}
		return st, err
	}
	st, err := ask(w.Host)
	if err != nil && w.IsLocalMachine && len(w.from) > 0 {
		if alt := w.from.String(); alt != w.Host {
			if st2, err2 := ask(alt); err2 == nil {
				st, err, w.Host = st2, nil, alt
			}
		}
	}
	if err != nil {
		w.PingError = err.Error()
		return
	}
	w.Version, w.Protocol = st.Version, st.Protocol
	w.PlayersOnline, w.PlayersMax = &st.PlayersOnline, &st.PlayersMax
	w.Compatible = &st.Compatible
	if !st.Compatible {
		w.NextStep = mcversion.Advice(st.Version, st.Protocol)
	}
	if w.MOTD == "" {
		w.MOTD = st.MOTD
	}
}
