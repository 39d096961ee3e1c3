package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blockmate/blockmate/protocol"
)

// ServerOptions configure Serve.
type ServerOptions struct {
	// Version is blockmate's version, told to consoles.
	Version string
	// Log receives what happens; nil discards it.
	Log *slog.Logger
}

// writeTimeout is how long one line may take to reach a console before the
// console is deemed stuck and dropped; the process never waits longer.
const writeTimeout = 10 * time.Second

const (
	// eventQueue and callQueue bound the events and call events waiting
	// for one console; when one is full the console loses what comes and
	// is told how much once it has caught up.
	eventQueue = 4096
	callQueue  = 1024
	// historyEvents and historyCalls bound what a console that attaches
	// is shown of the time before it: the latest events, and the latest
	// finished calls (running ones are always shown).
	historyEvents = 200
	historyCalls  = 100
	// historyBytes bounds the history in the hello line: a few calls with
	// big results (a chat log) could otherwise crowd the line.
	historyBytes = 1 << 20
)

// Server serves consoles on a listener until Close.
//
// It listens to the dispatcher's events and calls once, for every console:
// it keeps the latest of them for consoles that attach later, and hands
// each to every attached console's queue. A console is registered and
// handed the history under one lock, so what it is told starts exactly
// where its history ends: nothing twice, nothing missed.
type Server struct {
	d    *protocol.Dispatcher
	l    *Listener
	opts ServerOptions
	log  *slog.Logger

	next atomic.Int64
	wg   sync.WaitGroup
	done chan struct{}

	stopListening func()

	mu       sync.Mutex
	conns    map[net.Conn]struct{}
	consoles map[*console]struct{}
	// recentEvents and recentCalls are the history, oldest first.
	recentEvents []protocol.Event
	recentCalls  []protocol.CallEvent
}

// console is what the server holds for one attached console: its queues,
// and what it lost to them while they were full (guarded by Server.mu).
type console struct {
	events        chan protocol.Event
	calls         chan protocol.CallEvent
	droppedEvents int64
	droppedCalls  int64
}

// Serve accepts consoles on l, each in its own goroutine, until Close.
func Serve(d *protocol.Dispatcher, l *Listener, opts ServerOptions) *Server {
	s := &Server{d: d, l: l, opts: opts, log: opts.Log, conns: map[net.Conn]struct{}{}, consoles: map[*console]struct{}{}, done: make(chan struct{})}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	events, unsubscribe := d.Events().Subscribe(eventQueue)
	unobserve := d.Observe(s.observeCall)
	s.stopListening = func() { unobserve(); unsubscribe() }
	s.wg.Add(2)
	go s.feedEvents(events)
	go s.accept()
	return s
}

// feedEvents keeps each event of the bus and hands it to every console.
func (s *Server) feedEvents(events <-chan protocol.Event) {
	defer s.wg.Done()
	for ev := range events {
		s.mu.Lock()
		s.recentEvents = appendBounded(s.recentEvents, ev, historyEvents)
		for c := range s.consoles {
			select {
			case c.events <- ev:
			default:
				if c.droppedEvents++; c.droppedEvents == 1 {
					s.log.Warn("a console is behind; dropping events for it (it is told how many)")
				}
			}
		}
		s.mu.Unlock()
	}
}

// observeCall keeps each finished call and hands every call event to every
// console. The dispatcher calls it synchronously: it never blocks.
func (s *Server) observeCall(ev protocol.CallEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ev.Phase == protocol.Finished {
		s.recentCalls = appendBounded(s.recentCalls, ev, historyCalls)
	}
	for c := range s.consoles {
		select {
		case c.calls <- ev:
		default:
			if c.droppedCalls++; c.droppedCalls == 1 {
				s.log.Warn("a console is behind; dropping call events for it (it is told how many)")
			}
		}
	}
}

// appendBounded appends v, dropping the oldest beyond max.
func appendBounded[T any](list []T, v T, max int) []T {
	if len(list) == max {
		copy(list, list[1:])
		list = list[:max-1]
	}
	return append(list, v)
}

// attachConsole registers a console and returns the history it is to be
// shown first, in one step.
func (s *Server) attachConsole() (*console, *historyLine) {
	c := &console{events: make(chan protocol.Event, eventQueue), calls: make(chan protocol.CallEvent, callQueue)}
	s.mu.Lock()
	events := append([]protocol.Event(nil), s.recentEvents...)
	calls := append([]protocol.CallEvent(nil), s.recentCalls...)
	s.consoles[c] = struct{}{}
	s.mu.Unlock()
	return c, newHistory(events, calls)
}

func (s *Server) detachConsole(c *console) {
	s.mu.Lock()
	delete(s.consoles, c)
	s.mu.Unlock()
}

// takeDropped returns what c lost of events and of calls since last asked.
func (s *Server) takeDropped(c *console) (events, calls int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	events, calls = c.droppedEvents, c.droppedCalls
	c.droppedEvents, c.droppedCalls = 0, 0
	return events, calls
}

// newHistory is the hello's history: the events and finished calls as the
// wire carries them, the oldest left out first when they would make the
// line longer than historyBytes.
func newHistory(events []protocol.Event, calls []protocol.CallEvent) *historyLine {
	h := &historyLine{Events: make([]eventLine, len(events)), Calls: make([]callLine, len(calls))}
	size := 0
	for i := len(events) - 1; i >= 0; i-- {
		ev := events[i]
		h.Events[i] = eventLine{"event", ev.Name, orEmpty(ev.Payload), ev.Time.UTC()}
		if size += len(ev.Name) + len(ev.Payload) + 80; size > historyBytes {
			h.Events = h.Events[i+1:]
			break
		}
	}
	for i := len(calls) - 1; i >= 0; i-- {
		l := toCallLine(calls[i])
		raw, _ := json.Marshal(l)
		if size += len(raw); size > historyBytes {
			h.Calls = h.Calls[i+1:]
			break
		}
		h.Calls[i] = l
	}
	return h
}

// Close stops accepting, disconnects every console and removes the socket.
func (s *Server) Close() {
	close(s.done)
	s.stopListening()
	s.l.Close()
	s.mu.Lock()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.l.Accept()
		if err != nil {
			select {
			case <-s.done:
				return
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			s.log.Warn("watch socket stopped accepting consoles", "err", err)
			return
		}
		s.mu.Lock()
		s.conns[c] = struct{}{}
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.conns, c)
				s.mu.Unlock()
				c.Close()
			}()
			s.serve(c)
		}()
	}
}

// serve speaks to one console until it goes.
func (s *Server) serve(c net.Conn) {
	if err := s.l.checkPeer(c); err != nil {
		s.log.Warn("a console was refused", "err", err)
		return
	}
	n := s.next.Add(1)
	prefix := "w" + strconv.FormatInt(n, 10) + "-"
	w := protocol.NewLineWriter(deadlineWriter{c})
	lr := protocol.NewLineReader(c, maxLine)

	// The first line proves the console may attach.
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	first, err := lr.Next()
	var hello clientLine
	if err != nil || json.Unmarshal(first, &hello) != nil || hello.Type != "attach" || !s.l.tokenOK(hello.Token) {
		s.log.Warn("a console did not attach properly and was dropped", "err", err)
		return
	}
	c.SetReadDeadline(time.Time{})
	log := s.log.With("console", prefix)
	log.Info("a console attached")
	defer log.Info("a console detached")

	tools := s.d.Catalog().Tools()
	specs := make([]toolSpec, len(tools))
	for i, t := range tools {
		args := make([]argFields, len(t.Args))
		for j, a := range t.Args {
			args[j] = argFields(a)
		}
		specs[i] = toolSpec{t.Name, t.Description, t.Effect, t.UntrustedText, t.Idempotent, t.LocalOnly, args}
	}
	// Register first, then list what runs: a call that starts in between
	// is told twice (the console ignores the second), never missed.
	con, history := s.attachConsole()
	defer s.detachConsole(con)
	if !w.Write(line{helloLine{"hello", s.opts.Version, prefix, specs, history}}) {
		return
	}
	// Calls already running show in the console as running, wherever they
	// came from (internal ones stay hidden, as they are from observers).
	for _, r := range s.d.Running() {
		if r.Background || r.Origin == protocol.OriginInternal || len(r.RawID) == 0 {
			continue
		}
		w.Write(line{toCallLine(protocol.CallEvent{Phase: protocol.Started, ID: r.RawID, Tool: r.Tool, Args: r.Args, Origin: r.Origin, Started: r.Started})})
	}

	// Events and call events go out through one goroutine from the
	// console's bounded queues: a console that reads slowly loses lines,
	// and the process never waits for it. Once a queue has drained, the
	// console is told what it lost: events as the bus tells its own
	// readers (mc_events_dropped), calls as mc_call_events_dropped.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-w.Broken():
				c.Close()
				return
			case ev := <-con.events:
				w.Write(line{eventLine{"event", ev.Name, orEmpty(ev.Payload), ev.Time.UTC()}})
			case ev := <-con.calls:
				w.Write(line{toCallLine(ev)})
			}
			if len(con.events) > 0 || len(con.calls) > 0 {
				continue
			}
			events, calls := s.takeDropped(con)
			if events > 0 {
				ev := protocol.DroppedEvent(events, time.Now())
				w.Write(line{eventLine{"event", ev.Name, ev.Payload, ev.Time.UTC()}})
			}
			if calls > 0 {
				ev := protocol.CallEventsDroppedEvent(calls, time.Now())
				w.Write(line{eventLine{"event", ev.Name, ev.Payload, ev.Time.UTC()}})
			}
		}
	}()

	// Requests from the console run concurrently, as the sidecar's do.
	for {
		raw, err := lr.Next()
		if err != nil {
			var tooLong *protocol.LineTooLongError
			if errors.As(err, &tooLong) {
				log.Warn("a console sent a line over the limit; it was skipped")
				continue
			}
			return
		}
		var msg clientLine
		if err := json.Unmarshal(raw, &msg); err != nil {
			log.Warn("a console sent a line that is not JSON; it was skipped", "err", err)
			continue
		}
		switch msg.Type {
		case "call":
			s.call(w, prefix, msg)
		case "cancel":
			if id := idText(msg.ID); strings.HasPrefix(id, prefix) {
				s.d.Cancel(msg.ID, protocol.ErrCancelled)
			}
		default:
			log.Warn("a console sent an unknown line type; it was skipped", "type", msg.Type)
		}
	}
}

// call admits one of the console's calls in order and answers it when it
// ends. The id must carry the console's prefix, so two consoles (or the
// parent) never collide; the origin is the console's, or internal for its
// status poll.
func (s *Server) call(w *protocol.LineWriter, prefix string, msg clientLine) {
	resp := protocol.Response{ID: msg.ID}
	switch {
	case !strings.HasPrefix(idText(msg.ID), prefix):
		resp.Error = fmt.Sprintf("an attached console's call ids must start with %q; this one is %s", prefix, string(msg.ID))
		w.Write(line{responseLine{"response", resp}})
		return
	case msg.Origin != "" && msg.Origin != protocol.OriginConsole && msg.Origin != protocol.OriginInternal:
		resp.Error = fmt.Sprintf("an attached console's calls come from %q or %q, not %q", protocol.OriginConsole, protocol.OriginInternal, msg.Origin)
		w.Write(line{responseLine{"response", resp}})
		return
	}
	origin := msg.Origin
	if origin == "" {
		origin = protocol.OriginConsole
	}
	// The call is not tied to the connection: a console that goes away
	// changes nothing, and its call runs to its end (mc_stop still stops it).
	run := s.d.Start(protocol.WithOrigin(context.Background(), origin), protocol.Request{ID: msg.ID, Tool: msg.Tool, Args: msg.Args})
	go func() { w.Write(line{responseLine{"response", run()}}) }()
}

func toCallLine(ev protocol.CallEvent) callLine {
	l := callLine{Type: "call", Phase: phaseStarted, ID: ev.ID, Tool: ev.Tool, Args: ev.Args, Origin: ev.Origin, Started: ev.Started.UTC()}
	if len(l.ID) == 0 {
		l.ID = json.RawMessage("null")
	}
	if ev.Phase == protocol.Finished {
		resp := ev.Response
		l.Phase, l.DurationNS, l.Response = phaseFinished, ev.Duration.Nanoseconds(), &resp
	}
	return l
}

func idText(id json.RawMessage) string { return protocol.Request{ID: id}.IDString() }

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// deadlineWriter bounds each write, so a console that stops reading is
// dropped instead of holding a writer forever.
type deadlineWriter struct{ c net.Conn }

func (d deadlineWriter) Write(p []byte) (int, error) {
	d.c.SetWriteDeadline(time.Now().Add(writeTimeout))
	return d.c.Write(p)
}
