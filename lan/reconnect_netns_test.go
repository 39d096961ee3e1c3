//go:build linux

package lan

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/internal/testkit/netnstest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
	"github.com/blockmate/blockmate/protocol"
)

// TestTheBotFindsAReopenedWorld: a LAN world (announced inside a network
// namespace the test made, as the game announces it) is joined; the player
// closes it and opens it again, and the game picks a new port. The watcher
// loses the old announcement and hears the new one; the bot, reconnecting,
// finds the world by its name on the same host and rejoins it on the new
// port. The worlds' game servers are scripted servers on loopback; the
// multicast never leaves the namespace.
func TestTheBotFindsAReopenedWorld(t *testing.T) {
	const proto = 769
	ns := netnstest.New(t)
	// The scripted server's status names every world "fake".
	closed := fakeserver.StartWorlds(t, proto, func(n int, f *fakeServer) {
		f.Login(-1)
		f.Configure()
		f.Play(42, 0.5, 64, 0.5)
		f.Conn.Close() // the player closes the world
	})
	stopOld := startAnnouncer(t, ns, FormatAnnouncement("fake", strconv.Itoa(closed)), "")

	bus := protocol.NewBus(nil)
	events, cancelSub := bus.Subscribe(64)
	defer cancelSub()
	w := NewWatcher(WatchOptions{Listen: nsConfig(ns), Stale: 2 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); w.Run(ctx, bus) }()
	defer func() { cancel(); wg.Wait() }()
	waitEvent(t, events, "mc_lan_world_found", 15*time.Second)

	waits := make(chan time.Duration, 1)
	fire := make(chan time.Time)
	var mu sync.Mutex
	var said []protocol.Event
	back := make(chan struct{})
	emit := func(name, _ string, payload any) {
		raw, _ := protocol.Marshal(payload)
		mu.Lock()
		said = append(said, protocol.Event{Name: name, Payload: raw})
		mu.Unlock()
		if name == "mc_reconnected" {
			close(back)
		}
	}
	c := bot.NewClient(nil, emit, nil, bot.Options{Reconnect: bot.ReconnectOptions{
		After: func(d time.Duration) <-chan time.Time { waits <- d; return fire },
		LANWorlds: func() []api.LANWorld {
			var out []api.LANWorld
			for _, x := range w.Worlds() {
				out = append(out, x.LANWorld)
			}
			return out
		},
	}})
	jctx, jcancel := testctx.New(t)
	defer jcancel()
	t.Cleanup(func() { c.Close(context.Background()) })
	if _, err := c.Join(jctx, "127.0.0.1", closed, "Theo"); err != nil {
		t.Fatal(err)
	}
	<-waits // the world closed; the bot waits to try again

	stopOld()
	waitEvent(t, events, "mc_lan_world_lost", 15*time.Second)
	reopened := fakeserver.StartWorlds(t, proto, func(n int, f *fakeServer) {
		f.Login(-1)
		f.Configure()
		f.Play(42, 0.5, 64, 0.5)
		for {
			if _, r := f.Next(); r == nil {
				return
			}
		}
	})
	startAnnouncer(t, ns, FormatAnnouncement("fake", strconv.Itoa(reopened)), "")
	for {
		ev := waitEvent(t, events, "mc_lan_world_found", 15*time.Second)
		var found World
		if json.Unmarshal(ev.Payload, &found) == nil && found.Port == reopened {
			break
		}
	}
	fire <- time.Now()
	select {
	case <-back:
	case <-jctx.Done():
		t.Fatal("the bot did not rejoin the reopened world")
	}
	if s, err := c.Session(); err != nil || s.Port() != reopened {
		t.Fatalf("after mc_reconnected: %v, want the reopened world's port %d", err, reopened)
	}
	mu.Lock()
	defer mu.Unlock()
	var names []string
	for _, ev := range said {
		if ev.Name == "mc_disconnected" || ev.Name == "mc_reconnected" {
			names = append(names, ev.Name+" "+string(ev.Payload))
		}
	}
	if len(names) != 2 || !strings.HasPrefix(names[0], "mc_disconnected ") || !strings.Contains(names[1], `"server":"127.0.0.1:`+strconv.Itoa(reopened)+`"`) {
		t.Errorf("events: %v", names)
	}
}

type fakeServer = fakeserver.Server
