package ui

import (
	"context"

	"github.com/blockmate/blockmate/protocol"
)

// Backend is what the console drives and watches: the dispatcher in this
// process, or a blockmate running elsewhere that the console attached to
// through its watch socket (blockmate attach). Either way the console gets
// the catalog, runs calls, and hears of every call and event as it happens.
type Backend interface {
	// Catalog is the tool catalog, for completion and checking a line.
	Catalog() *protocol.Catalog
	// Call runs one request to its one response; ctx carries the origin
	// (protocol.WithOrigin) and bounds the call.
	Call(ctx context.Context, req protocol.Request) protocol.Response
	// Subscribe returns the event stream with room for buffer events, and
	// a func that ends it.
	Subscribe(buffer int) (<-chan protocol.Event, func())
	// Observe reports the start and end of every call from every transport
	// (but for internal ones); fn must not block.
	Observe(fn func(protocol.CallEvent)) (cancel func())
}

// Replayer is a Backend that can tell what happened before the console
// opened on it (a blockmate the console attached to mid-session): its
// latest events and finished calls, each oldest first. The console shows
// them before anything live.
type Replayer interface {
	Replay() (events []protocol.Event, calls []protocol.CallEvent)
}

// Local is the Backend of a console in the same process as its dispatcher.
func Local(d *protocol.Dispatcher) Backend { return localBackend{d} }

type localBackend struct{ d *protocol.Dispatcher }

func (l localBackend) Catalog() *protocol.Catalog { return l.d.Catalog() }

func (l localBackend) Call(ctx context.Context, req protocol.Request) protocol.Response {
	return l.d.Call(ctx, req)
}

func (l localBackend) Subscribe(buffer int) (<-chan protocol.Event, func()) {
	return l.d.Events().Subscribe(buffer)
}

func (l localBackend) Observe(fn func(protocol.CallEvent)) func() { return l.d.Observe(fn) }
