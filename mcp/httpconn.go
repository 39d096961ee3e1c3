package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpConn is blockmate's own sdk.Connection for Streamable HTTP: the
// messages of HTTP requests go into an SDK server session through it, and
// what the session writes goes back on the HTTP response of the request it
// belongs to (an exchange), or on the session's GET stream.
//
// It exists for speed, as stdioTransport does. The SDK's
// StreamableHTTPHandler decodes a request's body six to eight times with its
// internal JSON package (each decode allocating a fresh 32 KiB buffer),
// builds a whole server session for every 2026-07-28 request, and answers
// every call as an SSE event flushed on its own. Here a body is read into a
// reused buffer and its envelope read once in place (decodeMessage), one
// session serves every session-less request, and a call that sends nothing
// before its answer is answered as plain application/json in one write.
//
// One httpConn is either a 2025-era session (id is its Mcp-Session-Id) or
// the one session-less connection that serves 2026-07-28 requests. The
// latter carries requests of many clients at once, whose JSON-RPC ids may
// collide, so each request is given an id of the connection's own
// (internal) and the answer goes back with the client's.
type httpConn struct {
	id          string
	sessionless bool

	incoming  chan jsonrpc.Message
	closeOnce sync.Once
	closed    chan struct{}

	mu sync.Mutex
	// calls are the exchanges waiting for the answer to each request in
	// flight, by the id the server sees.
	calls map[jsonrpc.ID]*exchange
	// standalone is the session's GET stream, when a client holds one open:
	// it carries what belongs to no request (log messages, resource updates).
	standalone *exchange
	nextID     int64
}

func newHTTPConn(id string, sessionless bool) *httpConn {
	return &httpConn{id: id, sessionless: sessionless, incoming: make(chan jsonrpc.Message, 16), closed: make(chan struct{}), calls: map[jsonrpc.ID]*exchange{}}
}

// httpTransport hands an httpConn to the SDK's Server.Connect.
type httpTransport struct{ conn *httpConn }

func (t httpTransport) Connect(context.Context) (sdk.Connection, error) { return t.conn, nil }

// SupportsProtocolVersion: a 2025-era session speaks the 2025 protocols, the
// session-less connection 2026-07-28 and later (and, as the SDK's own
// session-less sessions do, the older ones for requests without a session).
func (t httpTransport) SupportsProtocolVersion(version string) bool {
	return t.conn.sessionless || version < statelessFrom
}

func (c *httpConn) SessionID() string { return c.id }

// Read returns the next message a client sent, or io.EOF once closed.
func (c *httpConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case msg := <-c.incoming:
		return msg, nil
	}
}

// send hands a client's message to the session; false when the session
// has closed.
func (c *httpConn) send(msg jsonrpc.Message) bool {
	select {
	case c.incoming <- msg:
		return true
	case <-c.closed:
		return false
	}
}

// Close ends the connection: Read returns io.EOF, and waiting requests
// return.
func (c *httpConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// rejected is an error the SDK's JSON-RPC layer takes as "not delivered"
// (jsonrpc2.ErrRejected's code), not as a broken connection: a message for a
// client that has gone, or for a stream nobody holds open, is dropped and
// the session goes on.
func rejected(format string, args ...any) error {
	return &jsonrpc.Error{Code: -32005, Message: fmt.Sprintf("rejected by transport: "+format, args...)}
}

// exchangeKey marks a request handler's context with the exchange its
// request came in on (see Server.middleware), so that what the handler sends
// meanwhile (progress) goes out on that request's response.
type exchangeKey struct{}

// Write sends msg on the response it belongs to: an answer on its request's
// exchange, a notification or request on the exchange of the request being
// handled when it was sent, else on the session's GET stream.
func (c *httpConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	switch m := msg.(type) {
	case *jsonrpc.Response:
		c.mu.Lock()
		ex := c.calls[m.ID]
		delete(c.calls, m.ID)
		c.mu.Unlock()
		if ex == nil {
			return rejected("no HTTP request waits for the answer to %v", m.ID.Raw())
		}
		return ex.deliver(m, true)
	case *jsonrpc.Request:
		if m.IsCall() && c.sessionless {
			return rejected("a session-less server cannot send requests to the client")
		}
		ex, _ := ctx.Value(exchangeKey{}).(*exchange)
		if ex != nil && ex.conn != c {
			ex = nil
		}
		if ex == nil {
			c.mu.Lock()
			ex = c.standalone
			c.mu.Unlock()
		}
		if ex == nil {
			return rejected("no stream is open for %s", m.Method)
		}
		return ex.deliver(m, false)
	}
	return rejected("unknown message type %T", msg)
}

// exchange is one HTTP request's response: a POST that carried requests
// (its answers, and what their handlers send meanwhile), or a GET stream.
type exchange struct {
	conn *httpConn
	w    http.ResponseWriter

	// newProtocol: answers that are protocol errors get the HTTP status the
	// 2026-07-28 protocol gives them (404, 400).
	newProtocol bool
	// clientID is the id the client gave the one request of a session-less
	// exchange, which the session saw under an id of its own.
	clientID jsonrpc.ID
	remapped bool

	mu       sync.Mutex
	pending  int  // requests not yet answered
	batch    bool // answers go out as SSE events, one each
	stream   bool // a GET stream: SSE from the start, never done
	sse      bool // the response has started as text/event-stream
	finished bool // the HTTP handler has returned, or all is answered
	done     chan struct{}
	buf      []byte
}

// deliver writes msg on the response. While the request is unanswered and
// nothing else was sent, an answer goes out as a plain application/json
// body in one write; anything before it (progress) turns the response into
// an event stream, flushed message by message, on which the answer is the
// last event.
func (ex *exchange) deliver(msg jsonrpc.Message, isAnswer bool) error {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.finished {
		return rejected("the HTTP request of this message has ended")
	}
	status := http.StatusOK
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if ex.remapped {
			msg = &jsonrpc.Response{ID: ex.clientID, Result: resp.Result, Error: resp.Error}
		}
		if ex.newProtocol {
			status = protocolErrorStatus(resp)
		}
	}
	if isAnswer {
		ex.pending--
	}
	last := isAnswer && ex.pending == 0 && !ex.stream
	data, ok := appendMessage(ex.buf[:0], msg)
	if !ok {
		encoded, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return fmt.Errorf("encoding an MCP message: %w", err)
		}
		data = append(append(ex.buf[:0], encoded...), '\n')
	}
	if cap(data) <= 64<<10 {
		ex.buf = data
	}
	data = data[:len(data)-1] // the newline appendMessage ends a line with
	var err error
	switch {
	case !ex.sse && last && !ex.batch:
		h := ex.w.Header()
		h["Content-Type"] = jsonContentType
		h["Content-Length"] = []string{strconv.Itoa(len(data))}
		ex.w.WriteHeader(status)
		if _, err = ex.w.Write(data); err == nil {
			// The answer leaves now, from this goroutine, rather than once
			// the request's own goroutine has woken up to end it: the
			// client reads it meanwhile.
			if f, ok := ex.w.(http.Flusher); ok {
				f.Flush()
			}
		}
	default:
		if !ex.sse {
			ex.startStream()
		}
		err = ex.writeEvent(data, !last)
	}
	if last {
		ex.finished = true
		close(ex.done)
	}
	if err != nil {
		return rejected("writing to the HTTP response: %v", err)
	}
	return nil
}

var (
	jsonContentType  = []string{"application/json"}
	sseContentType   = []string{"text/event-stream"}
	noCache          = []string{"no-cache, no-transform"}
	eventMessageHead = []byte("event: message\ndata: ")
)

// startStream starts the response as an event stream; ex.mu is held.
func (ex *exchange) startStream() {
	h := ex.w.Header()
	h["Content-Type"] = sseContentType
	h["Cache-Control"] = noCache
	ex.w.WriteHeader(http.StatusOK)
	ex.sse = true
}

// writeEvent writes one SSE event carrying data; ex.mu is held. An event
// that is not the response's last is flushed, so the client sees it now;
// the last one goes out with the end of the response.
func (ex *exchange) writeEvent(data []byte, flush bool) error {
	if _, err := ex.w.Write(eventMessageHead); err != nil {
		return err
	}
	if _, err := ex.w.Write(data); err != nil {
		return err
	}
	if _, err := io.WriteString(ex.w, "\n\n"); err != nil {
		return err
	}
	if flush {
		if f, ok := ex.w.(http.Flusher); ok {
			f.Flush()
		}
	}
	return nil
}

// end marks the exchange finished when its HTTP handler returns, so that a
// late message is dropped rather than written to a response that is gone.
func (ex *exchange) end() {
	ex.mu.Lock()
	ex.finished = true
	ex.mu.Unlock()
}

// protocolErrorStatus is the HTTP status the 2026-07-28 protocol gives an
// answer that is a protocol error (method not found: 404; bad params, an
// unsupported version or missing client capabilities: 400), as the SDK's
// handler gives it; 200 for everything else.
func protocolErrorStatus(resp *jsonrpc.Response) int {
	if resp.Error == nil {
		return http.StatusOK
	}
	var werr *jsonrpc.Error
	if !errors.As(resp.Error, &werr) {
		return http.StatusOK
	}
	switch werr.Code {
	case jsonrpc.CodeMethodNotFound:
		return http.StatusNotFound
	case jsonrpc.CodeInvalidParams, sdk.CodeUnsupportedProtocolVersion, sdk.CodeMissingRequiredClientCapabilities:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// register files ex as the exchange waiting for the answers to ids; false
// (and nothing filed) when one of them is already in flight.
func (c *httpConn) register(ex *exchange, ids []jsonrpc.ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range ids {
		if _, busy := c.calls[id]; busy {
			return false
		}
	}
	for _, id := range ids {
		c.calls[id] = ex
	}
	return true
}

// forget drops what still waits on ex once its HTTP request has ended.
func (c *httpConn) forget(ids []jsonrpc.ID, ex *exchange) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range ids {
		if c.calls[id] == ex {
			delete(c.calls, id)
		}
	}
}

// internalID is a fresh id for a session-less request.
func (c *httpConn) internalID() jsonrpc.ID {
	c.mu.Lock()
	c.nextID++
	n := c.nextID
	c.mu.Unlock()
	id, _ := jsonrpc.MakeID(float64(n))
	return id
}

// httpSession is a 2025-era session served by blockmate's handler.
type httpSession struct {
	conn *httpConn
	ss   *sdk.ServerSession

	// The session closes after timeout without a request.
	timeout time.Duration
	timerMu sync.Mutex
	active  int
	timer   *time.Timer
}

func (s *httpSession) startRequest() {
	s.timerMu.Lock()
	defer s.timerMu.Unlock()
	if s.active == 0 && s.timer != nil {
		s.timer.Stop()
	}
	s.active++
}

func (s *httpSession) endRequest() {
	s.timerMu.Lock()
	defer s.timerMu.Unlock()
	s.active--
	if s.active == 0 && s.timer != nil {
		s.timer.Reset(s.timeout)
	}
}

func (s *httpSession) stopTimer() {
	s.timerMu.Lock()
	defer s.timerMu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
}

// newIdleTimer is the timer that closes an idle session.
func newIdleTimer(timeout time.Duration, closeSession func()) *time.Timer {
	return time.AfterFunc(timeout, closeSession)
}
