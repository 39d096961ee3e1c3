package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/blockmate/blockmate/protocol"
)

// Events reach MCP clients two ways, because clients differ in what they
// show and the two protocol eras differ in what they allow:
//
//   - As log messages (notifications/message, logger "blockmate.events",
//     data = the event exactly as the sidecar writes it). Every 2025-era
//     client receives them without asking, and the hosts people use show
//     them to the person: VS Code in the server's output channel, Cursor in
//     its MCP log, Claude Desktop in its per-server log file. The 2026-07-28
//     protocol deprecates logging (SEP-2577) and sends log messages only
//     inside a request, so there this path is closed.
//   - As the resource blockmate://events, the latest events in a
//     <game-data> block, which a client may subscribe to (resources/subscribe
//     in 2025, subscriptions/listen in 2026-07-28) to hear when it changes.
//     This is what reaches the model: a person attaches it (Claude Desktop's
//     attachments, Claude Code's @blockmate:blockmate://events, VS Code's
//     Add Context), or an agent reads it on each update.
//
// No host today turns a server notification into model input on its own,
// so a model that must react to chat calls mc_read_chat (a tool) or reads
// the resource; the instructions say so.

// eventLog keeps the latest events for the resource, oldest first.
type eventLog struct {
	mu     sync.Mutex
	max    int
	events []protocol.Event
}

func newEventLog(max int) *eventLog {
	if max <= 0 {
		max = 200
	}
	return &eventLog{max: max}
}

func (l *eventLog) add(ev protocol.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.events) == l.max {
		copy(l.events, l.events[1:])
		l.events = l.events[:l.max-1]
	}
	l.events = append(l.events, ev)
}

func (l *eventLog) snapshot() []protocol.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]protocol.Event(nil), l.events...)
}

// startEvents listens to the dispatcher's events for the whole server: it
// keeps the resource's history, routes progress to the calls it belongs to,
// and tells subscribers the resource changed.
func (s *Server) startEvents() {
	ch, unsubscribe := s.d.Events().Subscribe(4096)
	changed := make(chan struct{}, 1)
	s.eventsDone = make(chan struct{})
	updaterDone := make(chan struct{})
	// The updater coalesces a burst into one notification: subscribers
	// re-read the resource anyway, and a slow one must not hold events up.
	go func() {
		defer close(updaterDone)
		for range changed {
			if err := s.sdk.ResourceUpdated(context.Background(), &sdk.ResourceUpdatedNotificationParams{URI: EventsURI}); err != nil {
				s.log.Debug("resource update not sent", "err", err)
			}
		}
	}()
	go func() {
		defer close(s.eventsDone)
		defer func() { close(changed); <-updaterDone }()
		for ev := range ch {
			if ev.Name == "mc_task_progress" {
				s.routeProgress(ev)
			}
			s.events.add(ev)
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	}()
	s.stopEvents = sync.OnceFunc(unsubscribe)
}

// eventsResource is the resource's content: the events in order, each with
// its time.
type eventsResource struct {
	Count  int             `json:"count"`
	Events []resourceEvent `json:"events"`
}

type resourceEvent struct {
	Name    string          `json:"name"`
	At      time.Time       `json:"at"`
	Payload json.RawMessage `json:"payload"`
}

func (s *Server) readEvents(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	evs := s.events.snapshot()
	out := eventsResource{Count: len(evs), Events: make([]resourceEvent, len(evs))}
	for i, ev := range evs {
		payload := ev.Payload
		if len(payload) == 0 {
			payload = json.RawMessage("{}")
		}
		out.Events[i] = resourceEvent{ev.Name, ev.Time.UTC().Truncate(time.Millisecond), payload}
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("the events could not be encoded (%v); this is a blockmate bug, please report it", err)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: EventsURI, MIMEType: "text/plain", Text: Fence(raw)}}}, nil
}

func (s *Server) subscribe(_ context.Context, req *sdk.SubscribeRequest) error {
	if req.Params == nil || req.Params.URI != EventsURI {
		uri := ""
		if req.Params != nil {
			uri = req.Params.URI
		}
		return fmt.Errorf("blockmate has no resource %q to subscribe to; subscribe to %s", uri, EventsURI)
	}
	return nil
}

// startSessionEvents sends every event to a 2025-era session as a log
// message, from the end of its handshake until it closes. The client has
// not asked for a level yet, and the SDK sends nothing until one is set, so
// the session starts at "info" (the specification lets the server choose
// until the client does); a client's logging/setLevel overrides it.
func (s *Server) startSessionEvents(ctx context.Context, ss *sdk.ServerSession, next sdk.MethodHandler) {
	setLevel := &sdk.ServerRequest[*sdk.SetLoggingLevelParams]{Session: ss, Params: &sdk.SetLoggingLevelParams{Level: "info"}}
	if _, err := next(ctx, "logging/setLevel", setLevel); err != nil {
		s.log.Debug("default log level not set", "err", err)
	}
	// Each session has its own bounded queue on the bus: a client that
	// reads slowly loses events (and is told how many), and never holds up
	// the bot or another client.
	ch, unsubscribe := s.d.Events().Subscribe(256)
	go func() {
		ss.Wait()
		unsubscribe()
	}()
	go func() {
		for ev := range ch {
			err := ss.Log(context.Background(), &sdk.LoggingMessageParams{Level: logLevel(ev.Name), Logger: "blockmate.events", Data: ev})
			if err != nil {
				s.log.Debug("event not sent to an MCP session", "event", ev.Name, "err", err)
			}
		}
	}()
}

// logLevel is the severity an event is logged at, so a client that asks
// for warnings only still hears of danger: the event catalog's level, info
// for an event it does not list.
func logLevel(event string) sdk.LoggingLevel {
	if spec, ok := protocol.EventSpecFor(event); ok && spec.Level != "" {
		return sdk.LoggingLevel(spec.Level)
	}
	return "info"
}
