package bot

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// backoffGate is a reconnect timer the test fires: each wait the loop asks
// for arrives on waits, and the loop goes on when the test sends on fire.
// No test sleeps through a backoff.
type backoffGate struct {
	waits chan time.Duration
	fire  chan time.Time
}

func newGate() *backoffGate {
	// waits has room for a later round's wait, so a loop the test does
	// not drive never blocks on it (the cleanup's leave then ends it).
	return &backoffGate{waits: make(chan time.Duration, 4), fire: make(chan time.Time)}
}

func (g *backoffGate) after(d time.Duration) <-chan time.Time {
	g.waits <- d
	return g.fire
}

// next waits for the loop to ask for its next wait and returns it.
func (g *backoffGate) next(t *testing.T) time.Duration {
	t.Helper()
	select {
	case d := <-g.waits:
		return d
	case <-bound(t).Done():
		t.Fatal("the bot did not start waiting to reconnect")
		return 0
	}
}

// hold keeps a scripted connection open, answering nothing, until the
// bot leaves.
func hold(f *fakeServer) {
	for {
		if _, r := f.Next(); r == nil {
			return
		}
	}
}

// payloadOf is an event's payload as its JSON fields.
func payloadOf(t *testing.T, v any) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(jsonOf(v)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestReconnectAfterALostConnection: the scripted server ends the first
// connection in each way a world goes away (it closes the socket, it
// kicks with a message that is not final, it resets the TCP connection);
// the bot says mc_disconnected with will_retry, answers tool calls in the
// gap with "reconnecting", joins the same address again after the first
// backoff, and says mc_reconnected, in that order.
func TestReconnectAfterALostConnection(t *testing.T) {
	const proto = 769
	for _, how := range []struct {
		name string
		end  func(f *fakeServer)
	}{
		{"socket closed", func(f *fakeServer) { f.Conn.Close() }},
		{"kick", func(f *fakeServer) {
			f.Send(mcdata.ClientboundPlayKickDisconnect, func(w *wire.Writer) { fakeserver.NBTString(w, "Server closed") })
		}},
		{"reset", func(f *fakeServer) {
			_ = f.Conn.(*net.TCPConn).SetLinger(0)
			f.Conn.Close()
		}},
	} {
		t.Run(how.name, func(t *testing.T) {
			rec := fakeserver.NewRecorder(t)
			port := fakeserver.StartWorlds(t, proto, func(n int, f *fakeServer) {
				f.Login(-1)
				f.Configure()
				f.Play(42, 0.5, 64, 0.5)
				if n == 1 {
					how.end(f)
					return
				}
				hold(f)
			})
			g := newGate()
			c := NewClient(testLog(), rec.Emit, nil, Options{Reconnect: ReconnectOptions{After: g.after}})
			ctx, cancel := testctx.New(t)
			defer cancel()
			t.Cleanup(func() { c.Close(ctx) })
			if _, err := c.Join(ctx, "127.0.0.1", port, "Theo"); err != nil {
				t.Fatal(err)
			}
			if d := g.next(t); d != DefaultBackoff[0] {
				t.Errorf("first wait %v, want %v", d, DefaultBackoff[0])
			}
			gone := payloadOf(t, rec.Wait(t, "mc_disconnected"))
			if gone["will_retry"] != true || gone["next_attempt_s"] != 1.0 {
				t.Errorf("mc_disconnected %v: want will_retry and next_attempt_s 1", gone)
			}
			if _, err := c.Session(); !errors.Is(err, ErrReconnecting) || !strings.Contains(err.Error(), "call again in a moment") {
				t.Errorf("a call in the gap: %v, want ErrReconnecting", err)
			}
			if r, ok := c.Reconnecting(); !ok || r.Attempt != 1 {
				t.Errorf("Reconnecting() = %+v, %v", r, ok)
			}
			g.fire <- time.Now()
			back := payloadOf(t, rec.Wait(t, "mc_reconnected"))
			if back["server"] != net.JoinHostPort("127.0.0.1", itoa(port)) || back["attempts"] != 1.0 {
				t.Errorf("mc_reconnected %v", back)
			}
			if _, err := c.Session(); err != nil {
				t.Errorf("after mc_reconnected: %v", err)
			}
			names := rec.Names()
			if i, j := indexOf(names, "mc_disconnected"), indexOf(names, "mc_reconnected"); i < 0 || j < i {
				t.Errorf("events %v: want mc_disconnected before mc_reconnected", names)
			}
		})
	}
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

func itoa(n int) string { return strings.TrimSpace(jsonOf(n)) }

// TestNoReconnectWhenJoiningAgainWouldRepeatIt: a ban and a duplicate
// login end the session for good (will_retry=false, no reconnect), and so
// does any end with reconnecting turned off.
func TestNoReconnectWhenJoiningAgainWouldRepeatIt(t *testing.T) {
	const proto = 769
	for _, tc := range []struct {
		name, kick string
		off        bool
	}{
		{"ban", "You are banned from this server", false},
		{"duplicate login", "You logged in from another location", false},
		{"turned off", "Server closed", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := fakeserver.NewRecorder(t)
			port := fakeserver.StartWorlds(t, proto, func(n int, f *fakeServer) {
				f.Login(-1)
				f.Configure()
				f.Play(42, 0.5, 64, 0.5)
				f.Send(mcdata.ClientboundPlayKickDisconnect, func(w *wire.Writer) { fakeserver.NBTString(w, tc.kick) })
			})
			c := NewClient(testLog(), rec.Emit, nil, Options{Reconnect: ReconnectOptions{Off: tc.off, After: func(time.Duration) <-chan time.Time {
				t.Error("the bot tried to reconnect")
				return nil
			}}})
			ctx, cancel := testctx.New(t)
			defer cancel()
			t.Cleanup(func() { c.Close(ctx) })
			if _, err := c.Join(ctx, "127.0.0.1", port, "Theo"); err != nil {
				t.Fatal(err)
			}
			gone := payloadOf(t, rec.Wait(t, "mc_disconnected"))
			if gone["will_retry"] != false || !strings.Contains(gone["reason"].(string), tc.kick) {
				t.Errorf("mc_disconnected %v: want will_retry=false quoting %q", gone, tc.kick)
			}
			if _, ok := c.Reconnecting(); ok {
				t.Error("reconnecting after a final end")
			}
			if _, err := c.Session(); !errors.Is(err, ErrNotConnected) {
				t.Errorf("Session() = %v, want ErrNotConnected", err)
			}
		})
	}
}

// TestLeaveEndsTheRetrying: mc_leave during the backoff stops the loop;
// the bot is then in no world and never joins again.
func TestLeaveEndsTheRetrying(t *testing.T) {
	const proto = 769
	rec := fakeserver.NewRecorder(t)
	port := fakeserver.StartWorlds(t, proto, func(n int, f *fakeServer) {
		f.Login(-1)
		f.Configure()
		f.Play(42, 0.5, 64, 0.5)
		if n > 1 {
			t.Error("the bot joined again after mc_leave")
		}
	})
	g := newGate()
	c := NewClient(testLog(), rec.Emit, nil, Options{Reconnect: ReconnectOptions{After: g.after}})
	ctx, cancel := testctx.New(t)
	defer cancel()
	if _, err := c.Join(ctx, "127.0.0.1", port, "Theo"); err != nil {
		t.Fatal(err)
	}
	g.next(t)
	if !c.StopReconnecting() {
		t.Error("StopReconnecting found no reconnect")
	}
	if _, ok := c.Reconnecting(); ok {
		t.Error("still reconnecting after StopReconnecting")
	}
	if _, err := c.Session(); !errors.Is(err, ErrNotConnected) {
		t.Errorf("Session() = %v, want ErrNotConnected", err)
	}
	if rec.Count("mc_reconnected") != 0 {
		t.Error("mc_reconnected after mc_leave")
	}
}

// TestReconnectFindsTheLANWorldOnItsNewPort: a LAN world the game opened
// again comes back on another port; the bot finds it by its name on the
// same host (the LAN watcher's list) and joins it there. With two worlds
// of that name it does not guess: it says so and stops.
func TestReconnectFindsTheLANWorldOnItsNewPort(t *testing.T) {
	const proto = 769
	first := func(n int, f *fakeServer) {
		f.Login(-1)
		f.Configure()
		f.Play(42, 0.5, 64, 0.5)
		f.Conn.Close() // the player closed the world
	}
	again := func(n int, f *fakeServer) {
		f.Login(-1)
		f.Configure()
		f.Play(42, 0.5, 64, 0.5)
		hold(f)
	}
	for _, tc := range []struct {
		name   string
		worlds int
	}{{"one world of that name", 1}, {"two worlds of that name", 2}} {
		t.Run(tc.name, func(t *testing.T) {
			rec := fakeserver.NewRecorder(t)
			old := fakeserver.StartWorlds(t, proto, first)
			var mu sync.Mutex
			var announced []api.LANWorld
			g := newGate()
			c := NewClient(testLog(), rec.Emit, nil, Options{Reconnect: ReconnectOptions{After: g.after, LANWorlds: func() []api.LANWorld {
				mu.Lock()
				defer mu.Unlock()
				return announced
			}}})
			ctx, cancel := testctx.New(t)
			defer cancel()
			t.Cleanup(func() { c.Close(ctx) })
			if _, err := c.Join(ctx, "127.0.0.1", old, "Theo"); err != nil {
				t.Fatal(err)
			}
			g.next(t)
			// The world reappears on a new port (the fake server's status
			// names every world "fake").
			var ports []int
			for range tc.worlds {
				ports = append(ports, fakeserver.StartWorlds(t, proto, again))
			}
			mu.Lock()
			for _, p := range ports {
				announced = append(announced, api.LANWorld{Host: "127.0.0.1", Port: p, MOTD: "fake", IsLocalMachine: true})
			}
			announced = append(announced, api.LANWorld{Host: "127.0.0.1", Port: 1, MOTD: "another world", IsLocalMachine: true})
			mu.Unlock()
			g.fire <- time.Now()
			if tc.worlds == 1 {
				back := payloadOf(t, rec.Wait(t, "mc_reconnected"))
				if back["server"] != net.JoinHostPort("127.0.0.1", itoa(ports[0])) {
					t.Errorf("mc_reconnected %v, want the new port %d", back, ports[0])
				}
				return
			}
			rec.WaitCount(t, "mc_disconnected", 2)
			said := payloadOf(t, rec.Named("mc_disconnected")[1].Payload)
			if said["will_retry"] != false || !strings.Contains(said["reason"].(string), "did not guess") {
				t.Errorf("two worlds: %v", said)
			}
			if _, ok := c.Reconnecting(); ok {
				t.Error("still reconnecting after refusing to guess")
			}
		})
	}
}

// TestAWorldThatDropsTheBotAgainAtOnce: a world that ends the session
// again right after the rejoin starts a new round of retrying (the first
// round is over once the bot is back), and the events alternate in order.
func TestAWorldThatDropsTheBotAgainAtOnce(t *testing.T) {
	const proto = 769
	rec := fakeserver.NewRecorder(t)
	port := fakeserver.StartWorlds(t, proto, func(n int, f *fakeServer) {
		f.Login(-1)
		f.Configure()
		f.Play(42, 0.5, 64, 0.5)
		if n < 3 {
			f.Conn.Close()
			return
		}
		hold(f)
	})
	g := newGate()
	c := NewClient(testLog(), rec.Emit, nil, Options{Reconnect: ReconnectOptions{After: g.after}})
	ctx, cancel := testctx.New(t)
	defer cancel()
	t.Cleanup(func() { c.Close(ctx) })
	if _, err := c.Join(ctx, "127.0.0.1", port, "Theo"); err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 2; round++ {
		if d := g.next(t); d != DefaultBackoff[0] {
			t.Errorf("round %d: first wait %v, want %v (a new round starts from the first backoff)", round, d, DefaultBackoff[0])
		}
		g.fire <- time.Now()
		rec.WaitCount(t, "mc_reconnected", round)
	}
	var order []string
	for _, n := range rec.Names() {
		if n == "mc_disconnected" || n == "mc_reconnected" {
			order = append(order, n)
		}
	}
	if got := strings.Join(order, " "); got != "mc_disconnected mc_reconnected mc_disconnected mc_reconnected" {
		t.Errorf("events %s", got)
	}
	if _, err := c.Session(); err != nil {
		t.Errorf("after the second rejoin: %v", err)
	}
}

// TestReconnectAfterASilentServer: a server that stops sending anything
// (a frozen or paused world) ends the session after the keep-alive time;
// that end is retried like a closed socket.
func TestReconnectAfterASilentServer(t *testing.T) {
	const proto = 769
	rec := fakeserver.NewRecorder(t)
	port := fakeserver.StartWorlds(t, proto, func(n int, f *fakeServer) {
		f.Login(-1)
		f.Configure()
		f.Play(42, 0.5, 64, 0.5)
		hold(f) // says nothing more: no keep-alive
	})
	g := newGate()
	// A keep-alive time the test can wait out; the wait is on the event,
	// never a sleep.
	c := NewClient(testLog(), rec.Emit, nil, Options{KeepAliveTimeout: 300 * time.Millisecond, Reconnect: ReconnectOptions{After: g.after}})
	ctx, cancel := testctx.New(t)
	defer cancel()
	t.Cleanup(func() { c.Close(ctx) })
	if _, err := c.Join(ctx, "127.0.0.1", port, "Theo"); err != nil {
		t.Fatal(err)
	}
	g.next(t)
	gone := payloadOf(t, rec.Wait(t, "mc_disconnected"))
	if gone["will_retry"] != true || !strings.Contains(gone["reason"].(string), "stopped answering") {
		t.Errorf("mc_disconnected %v: want the keep-alive reason and will_retry", gone)
	}
	g.fire <- time.Now()
	rec.Wait(t, "mc_reconnected")
}

// bound ends with the test binary's deadline (less testctx's margin for
// the report): a wait for a condition that never comes fails there with
// its own message, never at a guess in seconds a loaded machine misses.
func bound(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := testctx.New(t)
	t.Cleanup(cancel)
	return ctx
}
