//go:build linux

package lan

import (
	"context"
	"encoding/json"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/blockmate/blockmate/internal/testkit/netnstest"
	"github.com/blockmate/blockmate/internal/testkit/statusserver"
	"github.com/blockmate/blockmate/protocol"
)

func waitEvent(t *testing.T, events <-chan protocol.Event, name string, within time.Duration) protocol.Event {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case ev := <-events:
			// Every event the watcher emits matches its catalog entry.
			if err := protocol.CheckEventPayload(ev.Name, ev.Payload); err != nil {
				t.Errorf("undocumented payload: %v: %s", err, ev.Payload)
			}
			if ev.Name == name {
				return ev
			}
		case <-deadline:
			t.Fatalf("no %s event", name)
		}
	}
}

func TestWatcherFindsAndLosesAWorld(t *testing.T) {
	ns := netnstest.New(t)
	srv := statusserver.Serve(t, listenInNS(t, ns, 0), statusserver.Behaviour{StatusJSON: `{"version":{"name":"1.21.4","protocol":769},"players":{"max":8,"online":1},"description":"Eduard - Survival"}`})
	stop := startAnnouncer(t, ns, FormatAnnouncement("Eduard - Survival", strconv.Itoa(srv.Port())), "")

	bus := protocol.NewBus(nil)
	events, cancelSub := bus.Subscribe(64)
	defer cancelSub()
	cfg := nsConfig(ns)
	w := NewWatcher(WatchOptions{Listen: cfg, Stale: 2 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); w.Run(ctx, bus) }()
	defer func() { cancel(); wg.Wait() }()

	ev := waitEvent(t, events, "mc_lan_world_found", 15*time.Second)
	var found World
	if err := json.Unmarshal(ev.Payload, &found); err != nil {
		t.Fatal(err)
	}
	if found.Host != "127.0.0.1" || found.Port != srv.Port() || found.MOTD != "Eduard - Survival" || !found.IsLocalMachine ||
		found.Version != "1.21.4" || found.Compatible == nil || !*found.Compatible || found.PlayersMax == nil || *found.PlayersMax != 8 {
		t.Errorf("found = %s", ev.Payload)
	}
	if ws := w.Worlds(); len(ws) != 1 || ws[0].Port != srv.Port() {
		t.Errorf("Worlds() = %+v", ws)
	}

	stop()
	ev = waitEvent(t, events, "mc_lan_world_lost", 15*time.Second)
	want := `{"host":"127.0.0.1","port":` + strconv.Itoa(srv.Port()) + `,"motd":"Eduard - Survival","untrusted":true}`
	if string(ev.Payload) != want {
		t.Errorf("lost = %s, want %s", ev.Payload, want)
	}
	if ws := w.Worlds(); len(ws) != 0 {
		t.Errorf("Worlds() after lost = %+v", ws)
	}

	// It comes back: found again.
	startAnnouncer(t, ns, FormatAnnouncement("Eduard - Survival", strconv.Itoa(srv.Port())), "")
	waitEvent(t, events, "mc_lan_world_found", 15*time.Second)
}

func TestWatcherSurvivesAListenerThatCannotStart(t *testing.T) {
	bus := protocol.NewBus(nil)
	events, cancelSub := bus.Subscribe(8)
	defer cancelSub()
	w := NewWatcher(WatchOptions{Listen: ListenConfig{
		Interfaces: func() ([]net.Interface, error) { return nil, nil },
		NoMDNS:     true,
	}, Retry: 50 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	w.Run(ctx, bus) // returns when ctx ends, having retried quietly
	select {
	case ev := <-events:
		t.Errorf("unexpected event %s", ev.Name)
	default:
	}
	if len(w.Worlds()) != 0 {
		t.Errorf("worlds without a listener: %+v", w.Worlds())
	}
}

// A watcher stopped while it pings a world it just heard emits nothing for
// it: the ping was cut short by the stop, not answered by the world, and an
// mc_lan_world_found with a "was cancelled" ping_error would be news about
// blockmate, not about the world.
func TestWatcherStoppedMidPingEmitsNothing(t *testing.T) {
	ns := netnstest.New(t)
	srv := statusserver.Serve(t, listenInNS(t, ns, 0), statusserver.Behaviour{Silent: true})
	startAnnouncer(t, ns, FormatAnnouncement("Slow world", strconv.Itoa(srv.Port())), "")
	bus := protocol.NewBus(nil)
	events, cancelSub := bus.Subscribe(64)
	defer cancelSub()
	w := NewWatcher(WatchOptions{Listen: nsConfig(ns)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx, bus) }()
	select {
	case <-srv.Handshakes: // the watcher heard the world and is pinging it
	case <-time.After(10 * time.Second):
		cancel()
		<-done
		t.Fatal("the watcher never pinged the announced world")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	select {
	case ev := <-events:
		t.Errorf("event after a ping the stop cut short: %s %s", ev.Name, ev.Payload)
	default:
	}
}

// The stale ping error: after a world's server stops and comes back,
// mc_lan_world_found kept the old ping_error next to fresh counts. Each
// ping's outcome replaces the last one in full, in both directions.
func TestWatcherPingOutcomeReplacesTheLast(t *testing.T) {
	ns := netnstest.New(t)
	const status = `{"version":{"name":"1.21.4","protocol":769},"players":{"max":8,"online":1},"description":"Eduard - Survival"}`
	ln := listenInNS(t, ns, 0)
	port := ln.Addr().(*net.TCPAddr).Port
	statusserver.Serve(t, ln, statusserver.Behaviour{StatusJSON: status})
	startAnnouncer(t, ns, FormatAnnouncement("Eduard - Survival", strconv.Itoa(port)), "")

	bus := protocol.NewBus(nil)
	events, cancelSub := bus.Subscribe(64)
	defer cancelSub()
	w := NewWatcher(WatchOptions{Listen: nsConfig(ns), Refresh: 300 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); w.Run(ctx, bus) }()
	defer func() { cancel(); wg.Wait() }()

	next := func() World {
		t.Helper()
		ev := waitEvent(t, events, "mc_lan_world_found", 15*time.Second)
		var found World
		if err := json.Unmarshal(ev.Payload, &found); err != nil {
			t.Fatal(err)
		}
		return found
	}
	if found := next(); found.PingError != "" || found.PlayersOnline == nil {
		t.Fatalf("first found = %+v", found)
	}
	ln.Close() // the server stops; the world still announces
	if found := next(); found.PingError == "" || found.Version != "" || found.PlayersOnline != nil || found.PlayersMax != nil || found.Compatible != nil {
		t.Errorf("found after the server stopped = %+v; want a ping_error and no counts", found)
	}
	statusserver.Serve(t, listenInNS(t, ns, port), statusserver.Behaviour{StatusJSON: status})
	if found := next(); found.PingError != "" || found.PlayersOnline == nil || *found.PlayersOnline != 1 || found.Version != "1.21.4" {
		t.Errorf("found after the server came back = %+v; want fresh counts and no ping_error", found)
	}
}
