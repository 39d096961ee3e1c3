package peertest

import (
	"context"
	"fmt"
	"sync"
)

// eventLog keeps every event a peer reported after it started, so a test
// can wait for one that may already have arrived. Each event is returned by
// at most one wait, so two waits for "a chat line" see two different lines.
type eventLog struct {
	name string

	mu      sync.Mutex
	events  []Event
	taken   []bool
	changed chan struct{} // closed and replaced when events or ended change
	ended   error         // why the peer stopped reporting, once it has
}

func newEventLog(name string) *eventLog {
	return &eventLog{name: name, changed: make(chan struct{})}
}

func (l *eventLog) notify() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// add records one event; gone, if not nil, marks the peer as gone (a kick
// or the end of its connection) from this event on.
func (l *eventLog) add(ev Event, gone error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, ev)
	l.taken = append(l.taken, false)
	if gone != nil && l.ended == nil {
		l.ended = gone
	}
	l.notify()
}

// end marks the log finished (the peer's event channel closed).
func (l *eventLog) end(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended == nil {
		l.ended = err
	}
	l.notify()
}

// wait returns the first event named name (any, if name is empty) for
// which match is true (nil matches all) and that no earlier wait returned.
// It fails when ctx ends, or when the peer is gone and no such event
// arrived before.
func (l *eventLog) wait(ctx context.Context, name string, match func(Event) bool) (Event, error) {
	for {
		l.mu.Lock()
		for i, ev := range l.events {
			if !l.taken[i] && (name == "" || ev.Event == name) && (match == nil || match(ev)) {
				l.taken[i] = true
				l.mu.Unlock()
				return ev, nil
			}
		}
		changed, ended, seen := l.changed, l.ended, len(l.events)
		l.mu.Unlock()
		if ended != nil {
			return Event{}, fmt.Errorf("%s: waiting for %q: %w", l.name, name, ended)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return Event{}, fmt.Errorf("%s: waiting for %q: %w (events seen: %d)", l.name, name, context.Cause(ctx), seen)
		}
	}
}

// all returns a copy of the events named name (every event, if empty).
func (l *eventLog) all(name string) []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Event
	for _, ev := range l.events {
		if name == "" || ev.Event == name {
			out = append(out, ev)
		}
	}
	return out
}

// gone returns why the peer stopped, or nil while it runs.
func (l *eventLog) gone() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ended
}
