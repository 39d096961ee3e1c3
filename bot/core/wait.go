package core

import (
	"context"
	"errors"
)

// The session's tick service: the one tick counter and notifier every
// feature waits on. Features do not count ticks themselves: they read
// Tick, and wait with Await or WaitTicks, which hold the tick in real time
// only while someone waits, so a bot at rest wakes once a second.

// ErrTicksRanOut is what Await returns when its ticks ran out before its
// condition held.
var ErrTicksRanOut = errors.New("the server did not answer in time")

// Tick is the number of the tick being run or last run, counting from 1
// at the spawn; 0 before the first tick. At rest the ticks of a second
// run together once a second (OnTickCatchUp), so Tick may lag the clock
// by up to a second unless something holds real time.
func (s *Session) Tick() uint64 { return s.tickN.Load() }

// AtRest says whether the tick wakes once a second: no real-time handler
// is registered and nothing holds real time (no wait, walk or fight). A
// bot with nothing to do must be at rest; a test says so.
func (s *Session) AtRest() bool { return !s.wantsRealTime() }

// wantsRealTime says whether the tick must run at its moment: a real-time
// handler is registered (OnTick) or something holds real time (a walk, a
// fight, a waiter).
func (s *Session) wantsRealTime() bool {
	return len(s.tickers) > 0 || s.realTime.Load() > 0
}

// Await waits until cond holds, checking it at once, after every tick
// and whenever a channel from wake closes (each wake func is called anew
// on every round, as Notify.Wait is: it returns a channel for the next
// change), for at most limit ticks. While it waits, the session ticks in
// real time, and limit counts ticks from the wait's start (never the
// catch-up ticks a second at rest owed). It returns nil when cond held,
// ErrTicksRanOut when limit ticks passed first, the context's cause when cancelled and ErrEnded
// when the session ended. At most four wake funcs are taken.
func (s *Session) Await(ctx context.Context, limit uint64, cond func() bool, wake ...func() <-chan struct{}) error {
	return s.await(ctx, limit, cond, false, wake)
}

// WaitTicks waits n ticks, in real time. It returns the context's cause
// when cancelled and ErrEnded when the session ended.
func (s *Session) WaitTicks(ctx context.Context, n uint64) error {
	return s.await(ctx, n, nil, false, nil)
}

// WaitTickOr waits for the next tick or for a channel from wake to close,
// whichever comes first (a fight's loop: look again at the next tick, or
// as soon as an entity moved). It returns the context's cause when
// cancelled and ErrEnded when the session ended.
func (s *Session) WaitTickOr(ctx context.Context, wake ...func() <-chan struct{}) error {
	return s.await(ctx, 1, nil, true, wake)
}

// await is Await, WaitTicks and WaitTickOr: a nil cond never holds, and
// its ticks running out is then the end of the wait rather than an error;
// anyWake ends the wait at the first wake.
func (s *Session) await(ctx context.Context, limit uint64, cond func() bool, anyWake bool, wake []func() <-chan struct{}) error {
	if len(wake) > 4 {
		panic("core: a wait takes at most four wake funcs")
	}
	if cond != nil && cond() {
		return nil
	}
	release := s.HoldRealTime()
	defer release()
	// The deadline counts ticks run on time: the hold may first make
	// the tick loop run the catch-up ticks a second at rest owed, at
	// once, and those are time that passed before this wait.
	deadline := s.onTime.Load() + limit
	var ch [4]<-chan struct{} // nil channels never fire
	for {
		ticked := s.ticked.Wait()
		for i, w := range wake {
			ch[i] = w()
		}
		if cond != nil && cond() {
			return nil
		}
		if s.onTime.Load() >= deadline {
			if cond == nil {
				return nil
			}
			return ErrTicksRanOut
		}
		woke := false
		select {
		case <-ticked:
		case <-ch[0]:
			woke = true
		case <-ch[1]:
			woke = true
		case <-ch[2]:
			woke = true
		case <-ch[3]:
			woke = true
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-s.done:
			return ErrEnded
		}
		if woke && anyWake {
			return nil
		}
	}
}
