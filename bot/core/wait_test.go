package core

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// restingSession is a spawned session on a manual clock with one catch-up
// handler, the tick at rest (a wake a second); ticks counts the ticks run.
func restingSession(t *testing.T) (*Session, *ManualClock, chan uint64) {
	t.Helper()
	clock := NewManualClock(time.Unix(1000, 0))
	s := session(t, func(f *fakeserver.Server) { f.Next() }, Options{Clock: clock})
	ticks := make(chan uint64, 16*CatchUpTicks)
	s.OnTickCatchUp(func(n uint64) { ticks <- n })
	s.MarkSpawned()
	clock.Tick()
	for range CatchUpTicks { // the first wake: a second's ticks
		<-ticks
	}
	return s, clock, ticks
}

// async runs f and delivers its error.
func async(f func() error) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- f() }()
	return ch
}

// TestWaitTicksCountsTicksOnTime: a wait of n ticks that begins at rest
// takes n ticks run at their moment; the catch-up ticks the switch to real
// time runs at once (time that passed before the wait) do not end it, and
// the tick numbers run on without a gap.
func TestWaitTicksCountsTicksOnTime(t *testing.T) {
	s, clock, ticks := restingSession(t)
	clock.Advance(900 * time.Millisecond) // 18 ticks owed at the switch
	done := async(func() error { return s.WaitTicks(context.Background(), 3) })
	// The switch runs the owed ticks before any tick on time.
	for range 18 {
		<-ticks
	}
	for onTime := 1; onTime <= 3; onTime++ {
		select {
		case err := <-done:
			t.Fatalf("a wait of 3 ticks ended after %d ticks on time (%v)", onTime-1, err)
		default:
		}
		clock.Tick()
		// A tick on time runs one tick; a wake the old catch-up ticker
		// took would run twenty, and the count below would be off.
		if n := <-ticks; n != CatchUpTicks+18+uint64(onTime) {
			t.Fatalf("tick %d on time is tick %d", onTime, n)
		}
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a wait of 3 ticks had not ended 10 s after its third tick")
	}
}

// TestRestAfterTheLastWait: once no one waits, the tick goes back to a
// wake a second (a second's ticks per wake) after one more tick on time.
func TestRestAfterTheLastWait(t *testing.T) {
	s, clock, ticks := restingSession(t)
	done := async(func() error { return s.WaitTicks(context.Background(), 2) })
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			goto rest
		default:
			clock.Tick()
			// Taken as they come: a tick the old catch-up ticker took
			// runs twenty, and a full channel would stop the tick loop
			// in its handler, with this loop blocked in Tick (a hang in
			// CI, 341 ticks in).
			for len(ticks) > 0 {
				<-ticks
			}
		}
	}
rest:
	for len(ticks) > 0 {
		<-ticks
	}
	// At rest a wake runs a second's ticks: a second's worth arrives in at
	// most four wakes (one more tick on time; one the switch may lose, as
	// the old ticker is stopped while it is offered; a wake whose ticks may
	// still be arriving when it returns; and one the loop takes only once
	// that one's ticks have all run). In real time it would take twenty.
	wakes := 0
	for len(ticks) < CatchUpTicks {
		clock.Tick()
		wakes++
	}
	if wakes > 4 {
		t.Errorf("after the last wait, a second's ticks took %d wakes: the tick stayed in real time (holds %d)", wakes, s.realTime.Load())
	}
}

// TestAwait: Await ends when its condition holds (checked at a wake's
// change), runs out after its ticks, answers a cancelled context with its
// cause and a session's end with ErrEnded.
func TestAwait(t *testing.T) {
	s, clock, _ := restingSession(t)
	var news Notify
	held := make(chan struct{})
	cond := func() bool {
		select {
		case <-held:
			return true
		default:
			return false
		}
	}
	done := async(func() error { return s.Await(context.Background(), 1000, cond, news.Wait) })
	close(held)
	news.Broadcast() // no tick: the wake alone makes it look again
	if err := <-done; err != nil {
		t.Fatalf("a condition that came true: %v", err)
	}

	done = async(func() error { return s.Await(context.Background(), 2, func() bool { return false }) })
	for {
		select {
		case err := <-done:
			if !errors.Is(err, ErrTicksRanOut) {
				t.Fatalf("a wait that ran out of ticks: %v", err)
			}
			goto cancelled
		default:
			clock.Tick()
		}
	}
cancelled:
	cause := errors.New("mc_stop")
	ctx, cancel := context.WithCancelCause(context.Background())
	done = async(func() error { return s.Await(ctx, 1000, func() bool { return false }) })
	cancel(cause)
	if err := <-done; !errors.Is(err, cause) {
		t.Fatalf("a cancelled wait: %v, want its cause", err)
	}

	// WaitTickOr ends at a wake, without a tick (none comes here): the
	// broadcasts go on until one lands after the wait took its channel.
	done = async(func() error { return s.WaitTickOr(context.Background(), news.Wait) })
	for woke := false; !woke; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			woke = true
		default:
			news.Broadcast()
			runtime.Gosched()
		}
	}

	done = async(func() error { return s.Await(context.Background(), 1000, func() bool { return false }) })
	s.Leave()
	if err := <-done; !errors.Is(err, ErrEnded) {
		t.Fatalf("a wait when the session ended: %v", err)
	}
}

// TestHandleIfPresent registers for a packet the version has and skips one
// it lacks, saying which it did.
func TestHandleIfPresent(t *testing.T) {
	s := session(t, func(f *fakeserver.Server) { f.Next() }, Options{})
	nop := func(*wire.Reader) error { return nil }
	if !s.HandleIfPresent(mcdata.ClientboundPlayKeepAlive, nop) || len(s.handlers[mcdata.ClientboundPlayKeepAlive]) != 1 {
		t.Error("keep_alive, which 1.21.4 has, was not registered")
	}
	if s.HandleIfPresent(mcdata.ClientboundPlayShowDialog, nop) || len(s.handlers[mcdata.ClientboundPlayShowDialog]) != 0 {
		t.Error("show_dialog, which 1.21.4 lacks, was registered")
	}
}
