package ui

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/protocol"
)

// FlushEvery is how often the pump hands what it gathered to the program:
// about one frame at 60 Hz, so a burst becomes one update and one render.
const FlushEvery = 16 * time.Millisecond

const (
	// busBuffer is the event subscription's queue. When the pump is behind
	// the bus drops for this subscriber and counts; the game never waits.
	busBuffer = 4096
	// callBuffer is the queue of call events from Dispatcher.Observe.
	callBuffer = 4096
)

// Sender is what the pump sends to: a *tea.Program, or a test's stand-in.
type Sender interface{ Send(tea.Msg) }

// StartPump carries everything from outside the program (bus events, call
// events from every transport) into it through one goroutine: it gathers
// them in bounded buffers and sends them as one batchMsg per FlushEvery, so
// a burst of thousands of events costs one update and one render rather
// than thousands. stop ends it and unsubscribes.
func StartPump(ctx context.Context, to Sender, d Backend) (stop func()) {
	events, unsubscribe := d.Subscribe(busBuffer)
	calls := make(chan protocol.CallEvent, callBuffer)
	var droppedCalls atomic.Int64
	unobserve := d.Observe(func(ev protocol.CallEvent) {
		select {
		case calls <- ev:
		default:
			droppedCalls.Add(1)
		}
	})
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		pumpLoop(ctx, to, events, calls, &droppedCalls)
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			wg.Wait()
			unobserve()
			unsubscribe()
		})
	}
}

func pumpLoop(ctx context.Context, to Sender, events <-chan protocol.Event, calls <-chan protocol.CallEvent, droppedCalls *atomic.Int64) {
	tick := time.NewTicker(FlushEvery)
	defer tick.Stop()
	var b batchMsg
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			b.Events = append(b.Events, e)
			// Keep the buffer bounded: the pane keeps maxEvents at most, so
			// older ones in the same frame would never be seen.
			if len(b.Events) >= 2*maxEvents {
				b.Dropped += len(b.Events) - maxEvents
				b.Events = append(make([]protocol.Event, 0, maxEvents), b.Events[len(b.Events)-maxEvents:]...)
			}
		case c := <-calls:
			b.Calls = append(b.Calls, c)
		case <-tick.C:
			b.DroppedCalls = int(droppedCalls.Swap(0))
			if len(b.Events) == 0 && len(b.Calls) == 0 && b.Dropped == 0 && b.DroppedCalls == 0 {
				continue
			}
			to.Send(b)
			b = batchMsg{}
		}
	}
}
