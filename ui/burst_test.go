package ui

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// loopSender stands in for tea.Program: the pump sends into the same queue
// the keyboard does, and one loop applies each message and renders, as the
// program's event loop does (it renders after every message here, which is
// more work than the real renderer's 60 Hz frames).
type loopSender struct {
	ctx   context.Context
	queue chan tea.Msg
}

func (s loopSender) Send(msg tea.Msg) {
	select {
	case s.queue <- msg:
	case <-s.ctx.Done():
	}
}

// burstDeadline bounds a burst run; a 10,000-event burst takes well under
// a second on an idle machine.
const burstDeadline = 60 * time.Second

// typedKey is a keystroke stamped with when it was pressed.
type typedKey struct {
	key tea.KeyMsg
	at  time.Time
}

type burstResult struct {
	elapsed    time.Duration // first event emitted → last one rendered
	worstKey   time.Duration // slowest keystroke: pressed → its frame rendered
	keys       int           // keystrokes typed during the burst
	heldBytes  int64         // heap still held by the console after the burst
	delivered  int           // events that reached the console
	batches    int           // updates the burst took
	typed      string        // what the input line holds afterwards
	eventsKept int
	view       string
}

// runBurst emits n chat events on the bus as fast as it can while a person
// types one key a millisecond, and measures how the console copes.
func runBurst(tb testing.TB, n int) burstResult {
	tb.Helper()
	d := newDispatcher(tb)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	m := newModel(tb, d, themes.Dark, 160, 48)
	m = update(m, statusMsg{Status: fixtureStatus(20)}) // focus on the input line
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sender := loopSender{ctx, make(chan tea.Msg, 64)}
	queue := sender.queue
	stop := StartPump(ctx, sender, Local(d))
	defer stop()

	var res burstResult
	typing := make(chan struct{})
	go func() {
		defer close(typing)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				sender.Send(typedKey{keyRunes(string(rune('a' + i%26))), time.Now()})
			}
		}
	}()

	start := time.Now()
	go func() {
		bus := d.Events()
		for i := 0; i < n; i++ {
			bus.Emit("mc_player_chat", "", map[string]string{"username": "Eduard", "message": fmt.Sprintf("burst %d", i)})
		}
		// The bus drops events for a subscriber that is behind, and the
		// end marker may be one of them: waiting for a single marker once
		// made this loop spin on typed keys for good. Repeat it until it
		// is seen.
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			bus.Emit("mc_player_chat", "", map[string]string{"username": "Eduard", "message": "the end"})
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	const last = "<Eduard> the end"
	// Every wait in these tests is bounded.
	deadline := time.After(burstDeadline)
loop:
	for {
		var msg tea.Msg
		select {
		case msg = <-queue:
		case <-deadline:
			tb.Fatalf("the last event of the burst was not on screen after %v (%d batches, %d events delivered); the console shows:\n%s",
				burstDeadline, res.batches, res.delivered, res.view)
		}
		switch msg := msg.(type) {
		case typedKey:
			m = update(m, msg.key)
			_ = m.View()
			res.worstKey = max(res.worstKey, time.Since(msg.at))
			res.keys++
			continue
		case batchMsg:
			res.batches++
			res.delivered += len(msg.Events) + msg.Dropped
			m = update(m, msg)
		default:
			m = update(m, msg)
		}
		res.view = m.View()
		if strings.Contains(res.view, last) {
			break loop
		}
	}
	res.elapsed = time.Since(start)
	cancel()
	stop()
	<-typing
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	res.heldBytes = int64(after.HeapAlloc) - int64(before.HeapAlloc)
	res.typed = m.input.Value()
	res.eventsKept = len(m.events.entries)
	runtime.KeepAlive(m)
	return res
}

// TestBurstLeavesTypingResponsive: during a burst of 10,000 events every
// key typed lands in the input line, the history stays bounded and the
// newest event is on screen.
func TestBurstLeavesTypingResponsive(t *testing.T) {
	res := runBurst(t, 10_000)
	if res.keys == 0 {
		t.Fatal("no keys were typed during the burst")
	}
	if len([]rune(res.typed)) != res.keys {
		t.Fatalf("typed %d keys during the burst; the input holds %d", res.keys, len([]rune(res.typed)))
	}
	if res.eventsKept > maxEvents {
		t.Fatalf("the event pane holds %d events; the cap is %d", res.eventsKept, maxEvents)
	}
	if res.batches >= 10_000 {
		t.Fatalf("the burst took %d updates; the pump should coalesce it", res.batches)
	}
	t.Logf("10,000 events: %v to the last frame in %d updates; worst keystroke %v over %d keys; %d KiB held",
		res.elapsed, res.batches, res.worstKey, res.keys, res.heldBytes/1024)
}

// BenchmarkEventBurst measures a 10,000-event burst end to end (bus → pump →
// update → render) while typing, and what the console holds afterwards.
//
//	go test ./ui -run '^$' -bench EventBurst -benchtime 5x
func BenchmarkEventBurst(b *testing.B) {
	var total, worst time.Duration
	var held int64
	var batches int
	for range b.N {
		res := runBurst(b, 10_000)
		total += res.elapsed
		worst = max(worst, res.worstKey)
		held = max(held, res.heldBytes)
		batches += res.batches
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/burst")
	b.ReportMetric(float64(worst.Microseconds())/1000, "ms-worst-key")
	b.ReportMetric(float64(held)/1024, "KiB-held")
	b.ReportMetric(float64(batches)/float64(b.N), "updates/burst")
}

// BenchmarkRenderFullPanes is one frame with every buffer full.
func BenchmarkRenderFullPanes(b *testing.B) {
	m := newModel(b, newDispatcher(b), themes.Dark, 160, 48)
	m = update(m, statusMsg{Status: fixtureStatus(20)})
	evs := make([]protocol.Event, maxEvents)
	for i := range evs {
		evs[i] = event("mc_player_chat", epoch, map[string]string{"username": "Eduard", "message": fmt.Sprint("line ", i)})
	}
	m = update(m, batchMsg{Events: evs, Calls: fixtureCalls()})
	b.ResetTimer()
	for range b.N {
		_ = m.View()
	}
}
