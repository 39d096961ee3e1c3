package core

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// startSpawning registers a real-time tick (so the read loop reads on
// ticks once they run) and a handler of compression packets that marks the
// spawn and reports each packet, and starts s.
func startSpawning(s *Session) <-chan struct{} {
	s.OnTick(func(uint64) {})
	handled := make(chan struct{}, 4)
	s.Handle(mcdata.ClientboundLoginCompress, func(*wire.Reader) error {
		s.MarkSpawned()
		handled <- struct{}{}
		return nil
	})
	s.Start()
	return handled
}

// TestReadOnTick: with ReadOnTick over loopback TCP, packets are read as
// they come before the tick runs in real time; once it does, a packet that
// arrives between ticks waits in the socket for the next tick; a server
// silent for the keep-alive timeout ends the connection at a tick; and
// leaving ends a read loop waiting for a tick.
func TestReadOnTick(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reading on the tick needs a socket that can be polled (Linux)")
	}
	clock := NewManualClock(time.Unix(1000, 0))
	send := make(chan bool)
	sent := make(chan struct{}, 1)
	s := session(t, func(f *fakeserver.Server) {
		for {
			f.Send(mcdata.ClientboundLoginCompress, func(w *wire.Writer) { w.VarInt(-1) })
			if !<-send {
				f.Next() // until the client goes
				return
			}
			sent <- struct{}{}
		}
	}, Options{Clock: clock, ReadOnTick: true, KeepAliveTimeout: 30 * time.Second})
	// However the test ends, the script ends (before the session leaves).
	t.Cleanup(func() { close(send) })
	if !s.readOnTick {
		t.Fatal("a session over loopback TCP on Linux does not read on the tick")
	}
	handled := startSpawning(s)
	<-handled // before the tick: read as it came

	// The first tick makes the loop read on ticks, once the read it is
	// blocked in returns: the next packet, read as it arrives.
	clock.Tick()
	for !s.paced.Load() {
		runtime.Gosched()
	}
	send <- true
	<-sent
	<-handled
	waitingForTick := func() bool { return s.awaiting.Load() && len(s.readGate) == 0 }
	for !waitingForTick() {
		runtime.Gosched()
	}

	// Between ticks: the packet is in the socket, the loop waits for the
	// tick (nothing else wakes it), and the tick brings it in.
	send <- true
	<-sent
	// Loopback may take a moment to deliver what the server wrote.
	for !s.conn.Ready() {
		runtime.Gosched()
	}
	select {
	case <-handled:
		t.Fatal("a packet sent between ticks was read before the next tick")
	default:
	}
	clock.Tick()
	<-handled

	// Silence: no packet for longer than the keep-alive timeout ends the
	// connection at the next tick, as the server not answering.
	for !waitingForTick() {
		runtime.Gosched()
	}
	clock.Advance(31 * time.Second)
	clock.Tick()
	if end := waitEnd(t, s); !strings.Contains(end.Reason, "stopped answering") {
		t.Errorf("after a silent server: %q", end.Reason)
	}
}

// TestLeaveWhileWaitingForTheTick: leaving wakes a read loop that waits
// for the tick, and the session ends as left.
func TestLeaveWhileWaitingForTheTick(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reading on the tick needs a socket that can be polled (Linux)")
	}
	clock := NewManualClock(time.Unix(1000, 0))
	send := make(chan struct{})
	s := session(t, func(f *fakeserver.Server) {
		f.Send(mcdata.ClientboundLoginCompress, func(w *wire.Writer) { w.VarInt(-1) })
		<-send
		f.Send(mcdata.ClientboundLoginCompress, func(w *wire.Writer) { w.VarInt(-1) })
		f.Next() // until the client goes
	}, Options{Clock: clock, ReadOnTick: true})
	var once sync.Once
	release := func() { once.Do(func() { close(send) }) }
	t.Cleanup(release)
	handled := startSpawning(s)
	<-handled
	clock.Tick()
	for !s.paced.Load() {
		runtime.Gosched()
	}
	release()
	<-handled
	for !(s.awaiting.Load() && len(s.readGate) == 0) {
		runtime.Gosched()
	}
	s.Leave()
	if end := s.End(); !end.Left {
		t.Errorf("leaving while waiting for the tick: %+v", end)
	}
}
