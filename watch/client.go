package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/blockmate/blockmate/protocol"
)

// EndedEvent is the event an attached console gets when the blockmate it
// watches goes away.
const EndedEvent = "mc_watched_blockmate_ended"

// Client is a console's end of the watch socket. It gives the console what
// the dispatcher in its own process would (ui.Backend): the catalog, calls,
// and every call and event of the watched blockmate as they happen.
type Client struct {
	path    string
	conn    net.Conn
	w       *protocol.LineWriter
	catalog *protocol.Catalog
	prefix  string
	version string

	mu        sync.Mutex
	pending   map[string]chan protocol.Response
	subs      map[int]chan protocol.Event
	observers map[int]func(protocol.CallEvent)
	next      int
	// early holds what came before the console subscribed and observed:
	// the calls already running when it attached come right after the
	// hello, before the console's pump has started.
	earlyEvents []protocol.Event
	earlyCalls  []protocol.CallEvent
	// replayEvents and replayCalls are the hello's history: what happened
	// before the console attached.
	replayEvents []protocol.Event
	replayCalls  []protocol.CallEvent
	ended        error
	done         chan struct{}
}

// Attach connects to the watch socket at path and reads the hello.
func Attach(path string) (*Client, error) {
	conn, token, err := Dial(path)
	if err != nil {
		return nil, err
	}
	c := &Client{path: path, conn: conn, w: protocol.NewLineWriter(conn), pending: map[string]chan protocol.Response{},
		subs: map[int]chan protocol.Event{}, observers: map[int]func(protocol.CallEvent){}, done: make(chan struct{})}
	if !c.w.Write(line{clientLine{Type: "attach", Token: token}}) {
		conn.Close()
		return nil, fmt.Errorf("the blockmate at %s refused the console (it closed the connection); attach as the user who started it", path)
	}
	lr := protocol.NewLineReader(conn, maxLine)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	first, err := lr.Next()
	var hello helloLine
	if err != nil || json.Unmarshal(first, &hello) != nil || hello.Type != "hello" {
		conn.Close()
		if err == nil {
			err = errors.New("it did not say hello")
		}
		return nil, fmt.Errorf("the blockmate at %s refused the console (%v); attach as the user who started it", path, err)
	}
	conn.SetReadDeadline(time.Time{})
	c.prefix, c.version = hello.IDPrefix, hello.Version
	if h := hello.History; h != nil {
		for _, l := range h.Events {
			c.replayEvents = append(c.replayEvents, protocol.Event{Name: l.Name, Payload: l.Payload, Time: l.At})
		}
		for _, l := range h.Calls {
			if l.Type == "call" && l.Phase == phaseFinished {
				c.replayCalls = append(c.replayCalls, fromCallLine(l))
			}
		}
	}
	c.catalog = protocol.NewCatalog()
	for _, t := range hello.Tools {
		args := make(protocol.Schema, len(t.Args))
		for i, a := range t.Args {
			args[i] = protocol.Arg(a)
		}
		name := t.Name
		c.catalog.Add(protocol.Tool{Name: t.Name, Description: t.Description, Args: args, Effect: t.Effect,
			UntrustedText: t.UntrustedText, Idempotent: t.Idempotent, LocalOnly: t.LocalOnly,
			// The console checks lines against the catalog; the call itself
			// runs in the watched blockmate, never here.
			Handler: func(context.Context, protocol.Args) (any, error) {
				return nil, fmt.Errorf("%s runs in the watched blockmate, not in the console", name)
			}})
	}
	go c.read(lr)
	return c, nil
}

// IDPrefix is what every id of this console's calls must start with.
func (c *Client) IDPrefix() string { return c.prefix }

// Version is the watched blockmate's version.
func (c *Client) Version() string { return c.version }

// Catalog is the watched blockmate's catalog.
func (c *Client) Catalog() *protocol.Catalog { return c.catalog }

// Replay is what happened in the watched blockmate before the console
// attached, oldest first: its latest events, and its latest finished calls
// (the calls running then come through Observe, as started).
func (c *Client) Replay() (events []protocol.Event, calls []protocol.CallEvent) {
	return c.replayEvents, c.replayCalls
}

// Done is closed when the watched blockmate has gone.
func (c *Client) Done() <-chan struct{} { return c.done }

// Close detaches.
func (c *Client) Close() error { return c.conn.Close() }

// Call runs req in the watched blockmate and waits for its answer. When ctx
// ends first, the call there is cancelled (that call alone).
func (c *Client) Call(ctx context.Context, req protocol.Request) protocol.Response {
	origin := protocol.OriginConsole
	if o, ok := protocol.OriginOf(ctx); ok && o == protocol.OriginInternal {
		origin = o
	}
	key := string(req.ID)
	ch := make(chan protocol.Response, 1)
	c.mu.Lock()
	if c.ended != nil {
		c.mu.Unlock()
		return protocol.Response{ID: req.ID, Error: c.ended.Error()}
	}
	if _, busy := c.pending[key]; busy {
		c.mu.Unlock()
		return protocol.Response{ID: req.ID, Error: fmt.Sprintf("id %s is already in use by a call this console is waiting for; give every request its own id", key)}
	}
	c.pending[key] = ch
	c.mu.Unlock()
	args := req.Args
	if args == nil {
		args = map[string]json.RawMessage{}
	}
	if !c.w.Write(line{clientLine{Type: "call", ID: req.ID, Tool: req.Tool, Args: args, Origin: origin}}) {
		c.finish(key)
		return protocol.Response{ID: req.ID, Error: c.gone().Error()}
	}
	select {
	case resp := <-ch:
		return resp
	case <-ctx.Done():
		c.w.Write(line{clientLine{Type: "cancel", ID: req.ID}})
		select {
		case resp := <-ch:
			return resp
		case <-time.After(5 * time.Second):
			c.finish(key)
			return protocol.Response{ID: req.ID, Error: "the console stopped waiting for this call; the watched blockmate was asked to cancel it"}
		}
	}
}

func (c *Client) finish(key string) {
	c.mu.Lock()
	delete(c.pending, key)
	c.mu.Unlock()
}

func (c *Client) gone() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended != nil {
		return c.ended
	}
	return fmt.Errorf("the blockmate at %s is gone", c.path)
}

// Subscribe returns the watched blockmate's events. A subscriber that
// reads slowly loses events rather than hold up the others.
func (c *Client) Subscribe(buffer int) (<-chan protocol.Event, func()) {
	ch := make(chan protocol.Event, max(buffer, 1))
	c.mu.Lock()
	id := c.next
	c.next++
	c.subs[id] = ch
	for _, ev := range c.earlyEvents {
		select {
		case ch <- ev:
		default:
		}
	}
	c.earlyEvents = nil
	c.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			c.mu.Lock()
			if _, ok := c.subs[id]; ok {
				delete(c.subs, id)
				close(ch)
			}
			c.mu.Unlock()
		})
	}
}

// Observe reports every call of the watched blockmate (the console's own
// included, but not internal ones); fn must not block.
func (c *Client) Observe(fn func(protocol.CallEvent)) func() {
	c.mu.Lock()
	id := c.next
	c.next++
	c.observers[id] = fn
	early := c.earlyCalls
	c.earlyCalls = nil
	// Replayed under the lock, so a call event read meanwhile cannot
	// overtake them.
	for _, ev := range early {
		fn(ev)
	}
	c.mu.Unlock()
	return func() { c.mu.Lock(); delete(c.observers, id); c.mu.Unlock() }
}

func (c *Client) read(lr *protocol.LineReader) {
	var err error
	for {
		var raw []byte
		raw, err = lr.Next()
		if err != nil {
			var tooLong *protocol.LineTooLongError
			if errors.As(err, &tooLong) {
				continue
			}
			break
		}
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(raw, &head) != nil {
			continue
		}
		switch head.Type {
		case "event":
			var l eventLine
			if json.Unmarshal(raw, &l) == nil {
				c.publish(protocol.Event{Name: l.Name, Payload: l.Payload, Time: l.At})
			}
		case "call":
			var l callLine
			if json.Unmarshal(raw, &l) == nil {
				c.observe(fromCallLine(l))
			}
		case "response":
			var l struct {
				Response struct {
					ID     json.RawMessage `json:"id"`
					OK     bool            `json:"ok"`
					Result json.RawMessage `json:"result"`
					Error  string          `json:"error"`
				} `json:"response"`
			}
			if json.Unmarshal(raw, &l) == nil {
				r := l.Response
				if !r.OK && r.Error == "" {
					r.Error = "the watched blockmate answered this call with neither a result nor an error; this is a blockmate bug, please report it"
				}
				c.mu.Lock()
				ch := c.pending[string(r.ID)]
				delete(c.pending, string(r.ID))
				c.mu.Unlock()
				if ch != nil {
					ch <- protocol.Response{ID: r.ID, OK: r.OK, Result: r.Result, Error: r.Error}
				}
			}
		}
	}
	c.end(err)
}

// end fails what waits and tells the console the watched blockmate went.
func (c *Client) end(err error) {
	reason := fmt.Sprintf("the blockmate watched at %s has ended", c.path)
	c.mu.Lock()
	c.ended = errors.New(reason + "; this call did not reach it")
	pending := c.pending
	c.pending = map[string]chan protocol.Response{}
	c.mu.Unlock()
	for key, ch := range pending {
		ch <- protocol.Response{ID: json.RawMessage(key), Error: reason + " before this call answered"}
	}
	payload, _ := json.Marshal(struct {
		Reason   string `json:"reason"`
		NextStep string `json:"next_step"`
	}{reason, "Quit the console (ctrl+c), and attach again once it runs."})
	c.publish(protocol.Event{Name: EndedEvent, Payload: payload, Time: time.Now()})
	close(c.done)
}

// earlyLimit bounds what is kept for a console that has not subscribed yet.
const earlyLimit = 1024

func (c *Client) publish(ev protocol.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.subs) == 0 {
		if len(c.earlyEvents) < earlyLimit {
			c.earlyEvents = append(c.earlyEvents, ev)
		}
		return
	}
	for _, ch := range c.subs {
		select {
		case ch <- ev:
		default:
		}
	}
}

func (c *Client) observe(ev protocol.CallEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.observers) == 0 {
		if len(c.earlyCalls) < earlyLimit {
			c.earlyCalls = append(c.earlyCalls, ev)
		}
		return
	}
	// Observers must not block (the console's queues them), so they run
	// under the lock, which keeps every observer's view in order.
	for _, fn := range c.observers {
		fn(ev)
	}
}

func fromCallLine(l callLine) protocol.CallEvent {
	ev := protocol.CallEvent{Phase: protocol.Started, ID: l.ID, Tool: l.Tool, Args: l.Args, Origin: l.Origin, Started: l.Started}
	if l.Phase == phaseFinished {
		ev.Phase, ev.Duration = protocol.Finished, time.Duration(l.DurationNS)
		if l.Response != nil {
			ev.Response = *l.Response
		}
	}
	return ev
}
