package core

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/conn"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// session dials a scripted server and returns a session that has sent the
// handshake and login start, not started.
func session(t *testing.T, script func(f *fakeserver.Server), opts Options) *Session {
	t.Helper()
	port := fakeserver.Start(t, 769, func(f *fakeserver.Server) {
		f.Expect(mcdata.ServerboundLoginLoginStart)
		script(f)
	})
	opts.Log = fakeserver.Log()
	s := New(fakeserver.Dial(t, port), codec.For(769), opts)
	c := s.Codec
	if err := s.SwitchAfter(mcdata.ServerboundHandshakeSetProtocol, func(w *wire.Writer) {
		c.WriteHandshake(w, codec.Handshake{Protocol: 769, Host: "127.0.0.1", Port: uint16(port), Intent: codec.IntentLogin})
	}, mcdata.StateLogin); err != nil {
		t.Fatal(err)
	}
	if err := s.Send(mcdata.ServerboundLoginLoginStart, func(w *wire.Writer) { c.WriteLoginStart(w, codec.LoginStart{Name: "Theo"}) }); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Leave)
	return s
}

func waitEnd(t *testing.T, s *Session) EndReason {
	t.Helper()
	select {
	case <-s.Done():
		return s.End()
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end")
		return EndReason{}
	}
}

// TestRouterRunsEveryHandlerInOrder: several handlers of one packet each
// read the whole payload, in registration order; ids the version lacks are
// skipped; a handler's end reason ends the session with it.
func TestRouterRunsEveryHandlerInOrder(t *testing.T) {
	s := session(t, func(f *fakeserver.Server) {
		f.Send(mcdata.ClientboundLoginCompress, func(w *wire.Writer) { w.VarInt(-1) })
		f.SendRaw(0x7e, []byte{1, 2, 3}) // no login packet has this id
		f.Send(mcdata.ClientboundLoginSuccess, func(w *wire.Writer) { w.UUID([16]byte{1}); w.String("Theo"); w.VarInt(0) })
		f.Next()
	}, Options{})
	var mu sync.Mutex
	var got []string
	for _, name := range []string{"first", "second"} {
		s.Handle(mcdata.ClientboundLoginCompress, func(r *wire.Reader) error {
			v := r.VarInt()
			mu.Lock()
			got = append(got, name+":"+string(rune('0'+v+1)))
			mu.Unlock()
			return nil
		})
	}
	want := EndReason{Reason: "the test ended it", NextStep: "nothing"}
	s.Handle(mcdata.ClientboundLoginSuccess, func(*wire.Reader) error { return Ended(want) })
	s.Start()
	if end := waitEnd(t, s); end != want {
		t.Errorf("end = %+v, want %+v", end, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, " ") != "first:0 second:0" {
		t.Errorf("handlers ran as %q, want first:0 second:0", got)
	}
}

// TestBadPacketsEndTheConnection: a decode error a handler leaves, and a
// handler that panics, each end the connection with a reason (not the
// program); a hostile frame too.
func TestBadPacketsEndTheConnection(t *testing.T) {
	cases := []struct {
		name    string
		handler Handler
		send    func(f *fakeserver.Server)
		want    string
	}{
		{"decode error", func(r *wire.Reader) error { r.Int64(); return nil },
			func(f *fakeserver.Server) {
				f.Send(mcdata.ClientboundLoginCompress, func(w *wire.Writer) { w.VarInt(1) })
				f.Next()
			},
			"the server sent data the bot could not read (malformed packet: login clientbound compress: packet ended early)"},
		{"panic", func(r *wire.Reader) error { var m map[string]int; m["x"] = 1; return nil },
			func(f *fakeserver.Server) {
				f.Send(mcdata.ClientboundLoginCompress, func(w *wire.Writer) { w.VarInt(1) })
				f.Next()
			},
			"the server sent data the bot could not read (malformed packet: assignment to entry in nil map)"},
		{"hostile frame", func(*wire.Reader) error { return nil },
			func(f *fakeserver.Server) { _, _ = f.Conn.Write([]byte{0xff, 0xff, 0xff, 0x7f}); f.Next() },
			"malformed packet frame"},
		{"closed", func(*wire.Reader) error { return nil }, func(*fakeserver.Server) {}, "the connection to the world was lost"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := session(t, c.send, Options{})
			s.Handle(mcdata.ClientboundLoginCompress, c.handler)
			s.Start()
			if end := waitEnd(t, s); !strings.Contains(end.Reason, c.want) || end.NextStep == "" || end.Kicked || end.Left {
				t.Errorf("end = %+v, want a reason containing %q", end, c.want)
			}
		})
	}
}

// TestKeepAliveTimeout: a server that goes silent is noticed.
func TestKeepAliveTimeout(t *testing.T) {
	hold := make(chan struct{})
	s := session(t, func(f *fakeserver.Server) { <-hold }, Options{KeepAliveTimeout: 300 * time.Millisecond})
	defer close(hold)
	s.Start()
	if end := waitEnd(t, s); !strings.Contains(end.Reason, "stopped answering") {
		t.Errorf("reason %q", end.Reason)
	}
}

// TestLeaveEndsAsLeft: leaving says so, and sending afterwards is refused.
func TestLeaveEndsAsLeft(t *testing.T) {
	s := session(t, func(f *fakeserver.Server) { f.Next() }, Options{})
	s.Start()
	s.Leave()
	if end := s.End(); end.Reason != "the bot left the world" || !end.Left {
		t.Errorf("end = %+v", end)
	}
	if err := s.Send(mcdata.ServerboundLoginLoginStart, nil); !errors.Is(err, ErrEnded) {
		t.Errorf("send after the end: %v", err)
	}
}

// TestSendInTheWrongStateIsRefused: a packet of another state fails with a
// sentence and nothing is sent.
func TestSendInTheWrongStateIsRefused(t *testing.T) {
	s := session(t, func(f *fakeserver.Server) { f.Next() }, Options{})
	err := s.Send(mcdata.ServerboundPlayChatMessage, nil)
	var se *conn.StateError
	if !errors.As(err, &se) || err.Error() != "cannot send play serverbound chat_message while the connection is in the login state" {
		t.Errorf("err = %v", err)
	}
}

func TestRegisteringAfterStartPanics(t *testing.T) {
	s := session(t, func(f *fakeserver.Server) { f.Next() }, Options{})
	s.Start()
	for name, register := range map[string]func(){
		"Handle":        func() { s.Handle(mcdata.ClientboundLoginCompress, func(*wire.Reader) error { return nil }) },
		"OnTick":        func() { s.OnTick(func(uint64) {}) },
		"OnTickCatchUp": func() { s.OnTickCatchUp(func(uint64) {}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s after Start did not panic", name)
				}
			}()
			register()
		}()
	}
}

// TestHandlingAPacketTheVersionLacksPanics: 1.21.4 has no dialogs, so a
// feature that registered for one without checking Has is a bug found at
// attach, not a handler that silently never runs.
func TestHandlingAPacketTheVersionLacksPanics(t *testing.T) {
	s := session(t, func(f *fakeserver.Server) { f.Next() }, Options{})
	if s.Has(mcdata.ClientboundPlayShowDialog) || !s.Has(mcdata.ClientboundPlayKeepAlive) {
		t.Error("Has is wrong for 1.21.4")
	}
	defer func() {
		if recover() == nil {
			t.Error("registering for show_dialog on 1.21.4 did not panic")
		}
	}()
	s.Handle(mcdata.ClientboundPlayShowDialog, func(*wire.Reader) error { return nil })
}

// TestTickStartsAtSpawnOffTheReadLoop: ticks come from the session's clock
// once the spawn is marked, numbered from 1, on their own goroutine: a
// packet handler can wait for a tick without stopping it.
func TestTickStartsAtSpawnOffTheReadLoop(t *testing.T) {
	clock := NewManualClock(time.Unix(1000, 0))
	s := session(t, func(f *fakeserver.Server) {
		f.Send(mcdata.ClientboundLoginCompress, func(w *wire.Writer) { w.VarInt(-1) })
		f.Next()
	}, Options{Clock: clock})
	ticks := make(chan uint64, 10)
	s.OnTick(func(n uint64) { ticks <- n })
	handled := make(chan error, 1)
	s.Handle(mcdata.ClientboundLoginCompress, func(*wire.Reader) error {
		if _, ok := s.SpawnedAt(); ok {
			return errors.New("spawned before MarkSpawned")
		}
		s.MarkSpawned()
		// The read loop waits here for the first tick: it must come from
		// elsewhere.
		select {
		case n := <-ticks:
			if n != 1 {
				handled <- errors.New("the first tick is not tick 1")
			}
		case <-time.After(10 * time.Second):
			handled <- errors.New("no tick came while the read loop waited")
		}
		close(handled)
		return nil
	})
	s.Start()
	<-s.Spawned()
	if at, ok := s.SpawnedAt(); !ok || !at.Equal(time.Unix(1000, 0)) {
		t.Errorf("spawned at %v %v, want the clock's time", at, ok)
	}
	clock.Tick()
	if err := <-handled; err != nil {
		t.Fatal(err)
	}
	clock.Tick()
	clock.Tick()
	if a, b := <-ticks, <-ticks; a != 2 || b != 3 {
		t.Errorf("ticks %d, %d; want 2, 3", a, b)
	}
}

// TestCatchUpTicks: with only catch-up handlers, one wake runs a second's
// ticks in a row; with a real-time handler too, each wake is one tick, for
// both, real-time first.
func TestCatchUpTicks(t *testing.T) {
	for _, realTime := range []bool{false, true} {
		clock := NewManualClock(time.Unix(1000, 0))
		s := session(t, func(f *fakeserver.Server) { f.Next() }, Options{Clock: clock})
		var mu sync.Mutex
		var got []string
		record := func(kind string) func(uint64) {
			return func(n uint64) {
				mu.Lock()
				got = append(got, fmt.Sprintf("%s%d", kind, n))
				mu.Unlock()
			}
		}
		if realTime {
			s.OnTick(record("r"))
		}
		s.OnTickCatchUp(record("c"))
		s.MarkSpawned()
		clock.Tick()
		clock.Tick() // the first wake has run all its ticks once this is taken
		mu.Lock()
		first := append([]string(nil), got...)
		mu.Unlock()
		want := []string{"r1", "c1"}
		if !realTime {
			want = nil
			for i := 1; i <= CatchUpTicks; i++ {
				want = append(want, fmt.Sprintf("c%d", i))
			}
		}
		if len(first) < len(want) || strings.Join(first[:len(want)], " ") != strings.Join(want, " ") {
			t.Errorf("real time %v: ticks %v, want %v first", realTime, first, want)
		}
		s.Leave()
	}
}

func TestNotify(t *testing.T) {
	var n Notify
	ch := n.Wait()
	select {
	case <-ch:
		t.Fatal("closed before a broadcast")
	default:
	}
	n.Broadcast()
	<-ch
	if n.Wait() == ch {
		t.Error("a new wait reuses the closed channel")
	}
}

// TestHoldRealTime: with only catch-up handlers, a hold switches the tick
// to one tick per wake, and its release back to a second's ticks per wake;
// the tick numbers run on without a gap or a repeat.
func TestHoldRealTime(t *testing.T) {
	clock := NewManualClock(time.Unix(1000, 0))
	s := session(t, func(f *fakeserver.Server) { f.Next() }, Options{Clock: clock})
	ticks := make(chan uint64, 8*CatchUpTicks)
	s.OnTickCatchUp(func(n uint64) { ticks <- n })
	s.MarkSpawned()
	next := uint64(1)
	take := func(what string, n int) {
		t.Helper()
		for range n {
			if got := <-ticks; got != next {
				t.Fatalf("%s: tick %d, want %d", what, got, next)
			}
			next++
		}
	}
	clock.Tick()
	take("catch-up", CatchUpTicks) // one wake, a second's ticks
	release := s.HoldRealTime()
	// The switch may lose the wake the old ticker was offered; wakes go on
	// until one lands.
	for len(ticks) == 0 {
		clock.Tick()
	}
	take("the first real-time tick", 1)
	for range 6 {
		clock.Tick()
	}
	// The first five wakes have run once the sixth is taken: one tick
	// each, the sixth's maybe, and maybe one of a wake the loop above
	// offered before it saw its first tick arrive (a catch-up wake would
	// have run twenty).
	if n := len(ticks); n < 5 || n > 7 {
		t.Fatalf("holding real time, six wakes ran %d ticks", n)
	}
	take("real time", len(ticks))
	release()
	release() // a second release changes nothing
	for len(ticks) < CatchUpTicks {
		clock.Tick()
	}
	// Back to catch-up: wakes run a second's ticks in a row.
	take("catch-up again", CatchUpTicks)
	s.Leave()
}
