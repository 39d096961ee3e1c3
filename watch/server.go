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

// callQueue bounds the call events waiting for one console.
const callQueue = 1024

// Server serves consoles on a listener until Close.
type Server struct {
	d    *protocol.Dispatcher
	l    *Listener
	opts ServerOptions
	log  *slog.Logger

	next  atomic.Int64
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]struct{}
	done  chan struct{}
}

// Serve accepts consoles on l, each in its own goroutine, until Close.
func Serve(d *protocol.Dispatcher, l *Listener, opts ServerOptions) *Server {
	s := &Server{d: d, l: l, opts: opts, log: opts.Log, conns: map[net.Conn]struct{}{}, done: make(chan struct{})}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.wg.Add(1)
	go s.accept()
	return s
}

// Close stops accepting, disconnects every console and removes the socket.
func (s *Server) Close() {
	close(s.done)
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
	// Observe first, then list what runs: a call that starts in between is
	// told twice (the console ignores the second), never missed.
	events, unsubscribe := s.d.Events().Subscribe(4096)
	defer unsubscribe()
	calls := make(chan protocol.CallEvent, callQueue)
	var droppedCalls atomic.Int64
	unobserve := s.d.Observe(func(ev protocol.CallEvent) {
		select {
		case calls <- ev:
		default:
			if droppedCalls.Add(1) == 1 {
				log.Warn("a console is behind; dropping call events for it")
			}
		}
	})
	defer unobserve()
	if !w.Write(line{helloLine{"hello", s.opts.Version, prefix, specs}}) {
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

	// Events and call events go out through one goroutine with bounded
	// queues: a console that reads slowly loses lines (the bus says how
	// many events), and the process never waits for it.
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
			case ev, ok := <-events:
				if !ok {
					return
				}
				w.Write(line{eventLine{"event", ev.Name, orEmpty(ev.Payload), ev.Time.UTC()}})
			case ev := <-calls:
				w.Write(line{toCallLine(ev)})
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
