package core

import (
	"sync"
	"time"
)

// Clock is where a session gets the time and its tick from, so tests can
// drive both by hand.
type Clock interface {
	Now() time.Time
	NewTicker(d time.Duration) Ticker
}

// Ticker delivers ticks on C until stopped.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// RealClock is the system clock.
type RealClock struct{}

func (RealClock) Now() time.Time { return time.Now() }

func (RealClock) NewTicker(d time.Duration) Ticker { return realTicker{time.NewTicker(d)} }

type realTicker struct{ t *time.Ticker }

func (r realTicker) C() <-chan time.Time { return r.t.C }
func (r realTicker) Stop()               { r.t.Stop() }

// ManualClock is a clock for tests: its time moves only by Advance, and its
// tickers tick only by Tick.
type ManualClock struct {
	mu      sync.Mutex
	now     time.Time
	tickers []*manualTicker
	added   chan struct{}
}

// NewManualClock returns a clock standing at start.
func NewManualClock(start time.Time) *ManualClock {
	return &ManualClock{now: start, added: make(chan struct{})}
}

// Now is the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock's time on by d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// NewTicker returns a ticker that ticks when Tick is called.
func (c *ManualClock) NewTicker(time.Duration) Ticker {
	t := &manualTicker{c: make(chan time.Time), stopped: make(chan struct{})}
	c.mu.Lock()
	c.tickers = append(c.tickers, t)
	close(c.added)
	c.added = make(chan struct{})
	c.mu.Unlock()
	return t
}

// Tick delivers one tick to every running ticker and returns once each
// has taken it (waiting for a ticker to exist first). A tick handler has
// started when Tick returns; it may not have finished.
func (c *ManualClock) Tick() {
	for {
		c.mu.Lock()
		live := c.tickers[:0:0]
		for _, t := range c.tickers {
			select {
			case <-t.stopped:
			default:
				live = append(live, t)
			}
		}
		c.tickers = live
		added, now := c.added, c.now
		c.mu.Unlock()
		if len(live) == 0 {
			<-added
			continue
		}
		for _, t := range live {
			select {
			case t.c <- now:
			case <-t.stopped:
			}
		}
		return
	}
}

type manualTicker struct {
	c        chan time.Time
	stopped  chan struct{}
	stopOnce sync.Once
}

func (t *manualTicker) C() <-chan time.Time { return t.c }
func (t *manualTicker) Stop()               { t.stopOnce.Do(func() { close(t.stopped) }) }
