package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"
)

// Request is one tool call, whatever transport it came from.
type Request struct {
	// ID is the caller's correlation id exactly as sent (a JSON string or
	// number); it is echoed back unchanged.
	ID   json.RawMessage
	Tool string
	// Args are the raw arguments; nil means none.
	Args map[string]json.RawMessage
}

// IDString renders the id for logs and messages: a string id without its
// quotes, a number as written.
func (r Request) IDString() string { return idString(r.ID) }

func idString(id json.RawMessage) string {
	// Most ids are plain strings: skip the decoder for them.
	if n := len(id); n >= 2 && id[0] == '"' && id[n-1] == '"' && bytes.IndexByte(id, '\\') < 0 {
		return string(id[1 : n-1])
	}
	var s string
	if json.Unmarshal(id, &s) == nil {
		return s
	}
	return string(id)
}

// Response is the one answer to a request. It marshals with its keys in the
// order the protocol fixes: id, ok, then result or error.
type Response struct {
	ID     json.RawMessage
	OK     bool
	Result json.RawMessage
	Error  string
	// Images are pictures a result offers beside its JSON (a plan seen
	// from above). They are not on the wire of the sidecar, whose lines
	// stay JSON; transports that show pictures (MCP) send them.
	Images []Image
}

// Image is a picture of a result.
type Image struct {
	MIMEType string
	Data     []byte
}

// Pictured is a result that offers pictures.
type Pictured interface {
	Pictures() []Image
}

// MarshalJSON writes {"id":…,"ok":true,"result":…} or {"id":…,"ok":false,"error":"…"}.
func (r Response) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(32 + len(r.ID) + len(r.Result) + len(r.Error))
	b.WriteString(`{"id":`)
	if len(r.ID) == 0 {
		b.WriteString("null")
	} else {
		b.Write(r.ID)
	}
	if r.OK {
		b.WriteString(`,"ok":true,"result":`)
		if len(r.Result) == 0 {
			b.WriteString("{}")
		} else {
			b.Write(r.Result)
		}
	} else {
		b.WriteString(`,"ok":false,"error":`)
		b.Write(quote(r.Error))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Origin names the transport a call came through, for the console's
// timeline and the logs.
type Origin string

const (
	OriginSidecar Origin = "sidecar"
	OriginConsole Origin = "console"
	// OriginMCP marks calls from an MCP client (a language model's host).
	OriginMCP Origin = "mcp"
	// OriginInternal marks calls a transport makes for its own display (the
	// console's status poll); observers do not see them.
	OriginInternal Origin = "internal"
)

type originKey struct{}

// WithOrigin tags ctx with the transport a call came through.
func WithOrigin(ctx context.Context, o Origin) context.Context {
	return context.WithValue(ctx, originKey{}, o)
}

// OriginOf is the origin ctx was tagged with, if any.
func OriginOf(ctx context.Context) (Origin, bool) {
	o, ok := ctx.Value(originKey{}).(Origin)
	return o, ok
}

func originOf(ctx context.Context) Origin {
	if o, ok := ctx.Value(originKey{}).(Origin); ok {
		return o
	}
	return OriginSidecar
}

// Phase is where a call is in its life, for observers.
type Phase int

const (
	Started Phase = iota
	Finished
)

// CallEvent tells observers (the console's timeline) that a call started or
// finished. Response is set when Phase is Finished.
type CallEvent struct {
	Phase    Phase
	ID       json.RawMessage
	Tool     string
	Args     map[string]json.RawMessage
	Origin   Origin
	Started  time.Time
	Duration time.Duration
	Response Response
}

// RunningCall is a call in flight (or a background task a call started), as
// mc_status and mc_stop report it.
type RunningCall struct {
	// ID is the id as text: a string id without its quotes, a number as
	// written. Background tasks get one made up from their call's.
	ID   string
	Tool string
	// Started is when the call was admitted.
	Started time.Time
	// RawID is the id exactly as the caller sent it, a JSON string or
	// number; nil for background tasks.
	RawID json.RawMessage
	// Args and Origin are the request as it came, for a console that
	// attaches while the call runs.
	Args   map[string]json.RawMessage
	Origin Origin
	// Background marks a task a call left running, which has no request
	// of its own.
	Background bool
	// CallID, for a task a Long call became when it outlived its wait, is
	// that call's id: its progress still carries it.
	CallID string
	// Cancelled is true once the call's context is cancelled (mc_stop,
	// CancelBefore, Cancel, shutdown) while it is still unwinding or not
	// yet started: it is listed until it answers, but it will do nothing
	// more.
	Cancelled bool
}

// MarshalJSON writes {"id":…,"tool":…} with the id as it came: a number
// stays a number, so a caller can match it against what it sent.
func (r RunningCall) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"id":`)
	b.Write(r.wireID())
	b.WriteString(`,"tool":`)
	b.Write(quote(r.Tool))
	b.WriteByte('}')
	return b.Bytes(), nil
}

// wireID is the id as the caller sent it, or the task id as a string.
func (r RunningCall) wireID() json.RawMessage {
	if len(r.RawID) > 0 {
		return r.RawID
	}
	return quote(r.ID)
}

// ErrStopped is the cancellation cause mc_stop gives; a tool that sees it
// was interrupted on purpose, not by a fault.
var ErrStopped = errors.New("stopped by mc_stop")

// ErrCancelled is the cancellation cause when the caller of one call
// withdrew it (an MCP client's notifications/cancelled, a console's stop of
// that call): that call alone stops, as mc_stop would stop it.
var ErrCancelled = errors.New("cancelled by its caller")

// ErrShutdown is the cancellation cause when blockmate itself is closing.
var ErrShutdown = errors.New("blockmate is shutting down")

type inflight struct {
	RunningCall
	ctx        context.Context
	cancel     context.CancelCauseFunc
	background bool
	// seq orders admissions, so mc_stop cancels only what came before it.
	seq uint64
	// ended is closed when the handler has returned (or the background
	// task has called its done func): the call is still listed while its
	// response is written, but there is nothing left to cancel.
	// interrupted, set before ended is closed, says whether it ended
	// because it was cancelled rather than on its own.
	ended       chan struct{}
	interrupted bool
	// key is the entry's key in the running table: the raw id of a call,
	// the task id of a background task.
	key string
	// task is the background task a Long call became when it outlived its
	// wait (see tasks.go); guarded by Dispatcher.mu.
	task *inflight
}

// live reports whether cancelling r would still change anything: its
// handler has not returned and nobody has cancelled it yet.
func (r *inflight) live() bool {
	select {
	case <-r.ended:
		return false
	default:
		return r.ctx.Err() == nil
	}
}

// Dispatcher runs tool calls from every transport: the sidecar's stdin, the
// console's input line and anything later. It validates arguments, runs each
// call in the caller's goroutine with its own cancellable context, turns
// panics and errors into error responses, and keeps the table of what runs so
// mc_stop can cancel it.
type Dispatcher struct {
	catalog *Catalog
	events  *Bus
	log     *slog.Logger

	mu        sync.Mutex
	running   map[string]*inflight // keyed by the raw id text
	seq       uint64               // last admission number given
	nextTask  int
	observers map[int]func(CallEvent)
	nextObs   int

	// The task layer (tasks.go): the clock waits are measured on, the
	// tasks Long calls became (running and the last finished, oldest
	// first in finished), and each call's latest progress by call id.
	clock      Clock
	tasks      map[string]*task
	finished   []string
	progressOf map[string]json.RawMessage
}

// NewDispatcher returns a dispatcher over the catalog. Events emitted by
// tools go to bus. log may be nil.
func NewDispatcher(catalog *Catalog, bus *Bus, log *slog.Logger) *Dispatcher {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	d := &Dispatcher{catalog: catalog, events: bus, log: log, running: map[string]*inflight{}, observers: map[int]func(CallEvent){},
		clock: realClock{}, tasks: map[string]*task{}, progressOf: map[string]json.RawMessage{}}
	if bus != nil {
		bus.Tap(d.noteProgress)
	}
	return d
}

// Catalog returns the dispatcher's tool catalog.
func (d *Dispatcher) Catalog() *Catalog { return d.catalog }

// Events returns the event bus tools emit on.
func (d *Dispatcher) Events() *Bus { return d.events }

// Observe registers fn to hear about every call's start and end (but for
// internal ones). fn runs on the calling goroutine and must not block.
func (d *Dispatcher) Observe(fn func(CallEvent)) (cancel func()) {
	d.mu.Lock()
	id := d.nextObs
	d.nextObs++
	d.observers[id] = fn
	d.mu.Unlock()
	return func() { d.mu.Lock(); delete(d.observers, id); d.mu.Unlock() }
}

func (d *Dispatcher) notify(ev CallEvent) {
	if ev.Origin == OriginInternal {
		return
	}
	d.mu.Lock()
	if len(d.observers) == 0 {
		d.mu.Unlock()
		return
	}
	obs := make([]func(CallEvent), 0, len(d.observers))
	for _, fn := range d.observers {
		obs = append(obs, fn)
	}
	d.mu.Unlock()
	for _, fn := range obs {
		fn(ev)
	}
}

// Running lists calls and background tasks in flight, oldest first.
func (d *Dispatcher) Running() []RunningCall {
	d.mu.Lock()
	out := make([]RunningCall, 0, len(d.running))
	for _, r := range d.running {
		rc := r.RunningCall
		rc.Cancelled = r.ctx != nil && r.ctx.Err() != nil
		out = append(out, rc)
	}
	d.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out
}

// Stop cancels every call and background task in flight except the one
// whose raw id is except, and returns the ids it cancelled.
func (d *Dispatcher) Stop(except string, cause error) []string {
	return ids(d.stop(func(key string, r *inflight) bool { return key != except }, cause))
}

// StopBefore cancels the calls and background tasks admitted before
// admission number seq: what was running when a stop arrived, and not a
// call that was sent after it. This is the whole interrupt: each call owns
// its own context, so there is no flag to forget to clear and the next call
// always starts clean.
func (d *Dispatcher) StopBefore(seq uint64, cause error) []string {
	return ids(d.stopBefore(seq, cause))
}

func (d *Dispatcher) stopBefore(seq uint64, cause error) []*inflight {
	return d.stop(func(_ string, r *inflight) bool { return r.seq < seq }, cause)
}

// Cancel stops, with cause, the one call in flight whose raw id is id (as
// the request carried it) and reports whether it did: a call that has
// already answered, or that something else (mc_stop, mc_leave) cancelled
// first, is not cancelled again. Background tasks the call started live on,
// as they do when the call ends normally.
func (d *Dispatcher) Cancel(id json.RawMessage, cause error) bool {
	if len(id) == 0 {
		return false
	}
	d.mu.Lock()
	r, ok := d.running[string(id)]
	d.mu.Unlock()
	if !ok || r.background || !r.live() {
		return false
	}
	r.cancel(cause)
	return true
}

// CancelBefore cancels, with cause, the calls of tool admitted before the
// call ctx belongs to (every call of tool, outside a dispatched call):
// calls whose handler runs see their context cancelled, and calls admitted
// but not started yet see a cancelled context when they start. A call whose
// handler has already returned, or that something else (mc_stop) has
// already cancelled, is not counted. It returns the ids it
// cancelled, oldest first. mc_leave uses it to cancel the mc_join calls sent
// before it, whether or not they have started.
func (d *Dispatcher) CancelBefore(ctx context.Context, tool string, cause error) []string {
	before := ^uint64(0)
	if info, ok := ctx.Value(callKey{}).(*callInfo); ok && info.d == d {
		before = info.seq
	}
	return ids(d.stop(func(_ string, r *inflight) bool {
		return r.Tool == tool && r.seq < before && !r.background
	}, cause))
}

func ids(victims []*inflight) []string {
	out := make([]string, len(victims))
	for i, r := range victims {
		out[i] = r.ID
	}
	return out
}

// stop cancels, with cause, the live entries match picks and returns them,
// oldest first. An entry that has ended, or whose context is already
// cancelled, is not picked: cancelling it again would change nothing, and
// whoever cancelled it first owns its end.
func (d *Dispatcher) stop(match func(string, *inflight) bool, cause error) []*inflight {
	d.mu.Lock()
	var victims []*inflight
	for key, r := range d.running {
		if r.live() && match(key, r) {
			victims = append(victims, r)
		}
	}
	d.mu.Unlock()
	sort.Slice(victims, func(i, j int) bool { return victims[i].seq < victims[j].seq })
	for _, r := range victims {
		r.cancel(cause)
	}
	return victims
}

// stopSettle bounds how long mc_stop waits for the calls it cancelled to
// end. Tools honour cancellation within milliseconds; one still running
// after this is listed as cancelled, which it is.
const stopSettle = 2 * time.Second

// interruptedIDs waits (up to stopSettle, or until ctx ends) for the
// cancelled calls to end, and returns the ids of those the cancellation
// interrupted, each as its caller sent it. A call that finished normally
// while the stop arrived was not stopped, and is not listed.
func interruptedIDs(ctx context.Context, victims []*inflight) []json.RawMessage {
	timeout := time.NewTimer(stopSettle)
	defer timeout.Stop()
	out := make([]json.RawMessage, 0, len(victims))
	waiting := true
	for _, r := range victims {
		if waiting {
			select {
			case <-r.ended:
			case <-timeout.C:
				waiting = false
			case <-ctx.Done():
				waiting = false
			}
		}
		select {
		case <-r.ended:
			if !r.interrupted {
				continue
			}
		default: // still ending: it was cancelled all the same
		}
		out = append(out, r.wireID())
	}
	return out
}

type callKey struct{}

type callInfo struct {
	d    *Dispatcher
	seq  uint64 // admission number
	key  string // the raw id, the running table's key
	id   string
	tool string
}

// CallID returns the id of the dispatched call ctx belongs to (as
// RunningCall.ID shows it), and false outside a dispatched call.
func CallID(ctx context.Context) (string, bool) {
	info, ok := ctx.Value(callKey{}).(*callInfo)
	if !ok {
		return "", false
	}
	return info.id, true
}

// StartBackground registers work that outlives the call that starts it (a
// follow, a guard) so that mc_status lists it and mc_stop cancels it. It
// returns the context the work must honour and a done func to call when the
// work ends. Outside a dispatched call it returns a plain cancellable
// context.
func StartBackground(ctx context.Context, name string) (context.Context, func()) {
	info, ok := ctx.Value(callKey{}).(*callInfo)
	bg, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	if !ok {
		return bg, func() { cancel(nil) }
	}
	d := info.d
	d.mu.Lock()
	d.nextTask++
	key := fmt.Sprintf("%s/%s#%d", info.id, name, d.nextTask)
	d.seq++
	task := &inflight{RunningCall: RunningCall{ID: key, Tool: name, Started: time.Now(), Background: true}, ctx: bg, cancel: cancel, background: true, seq: d.seq, key: key, ended: make(chan struct{})}
	d.running[key] = task
	d.mu.Unlock()
	var once sync.Once
	return bg, func() {
		once.Do(func() {
			task.interrupted = bg.Err() != nil
			cancel(nil)
			close(task.ended)
			d.mu.Lock()
			delete(d.running, key)
			d.mu.Unlock()
		})
	}
}

// Call runs one request to completion and returns its response. It never
// panics and always returns exactly one response.
func (d *Dispatcher) Call(ctx context.Context, req Request) Response {
	return d.Start(ctx, req)()
}

// Start admits a request: it looks the tool up, validates the arguments and
// registers the id as running, all before it returns, so a transport that
// calls Start in arrival order gets arrival-order semantics (the first of
// two requests with the same id is the one that runs). The returned func
// runs the call and returns its one response; call it exactly once, on any
// goroutine.
func (d *Dispatcher) Start(ctx context.Context, req Request) func() Response {
	start := time.Now()
	origin := originOf(ctx)
	resp := Response{ID: req.ID}
	key := string(req.ID)
	idText := req.IDString()
	refuse := func(msg string) func() Response {
		resp.Error = msg
		return func() Response {
			d.notify(CallEvent{Phase: Finished, ID: req.ID, Tool: req.Tool, Args: req.Args, Origin: origin, Started: start, Response: resp})
			return resp
		}
	}

	tool, ok := d.catalog.Lookup(req.Tool)
	if !ok {
		return refuse(d.unknownTool(req.Tool))
	}
	args, err := tool.Args.Validate(tool.Name, req.Args)
	if err != nil {
		return refuse(err.Error())
	}

	callCtx, cancel := context.WithCancelCause(ctx)
	d.mu.Lock()
	if other, busy := d.running[key]; busy && len(key) > 0 {
		d.mu.Unlock()
		cancel(nil)
		return refuse(fmt.Sprintf("id %s is already in use by a %s call that is still running; give every request its own id", key, other.Tool))
	}
	d.seq++
	seq := d.seq
	call := &inflight{RunningCall: RunningCall{ID: idText, RawID: req.ID, Tool: tool.Name, Started: start, Args: req.Args, Origin: origin}, ctx: callCtx, cancel: cancel, seq: seq, key: key, ended: make(chan struct{})}
	d.running[key] = call
	d.mu.Unlock()

	finish := func() Response {
		defer cancel(nil)
		defer func() {
			d.mu.Lock()
			// The call may have become a background task, and its id
			// may since carry another call: remove only its own entries.
			if d.running[key] == call {
				delete(d.running, key)
			}
			if call.task != nil {
				delete(d.running, call.task.key)
			}
			delete(d.progressOf, idText)
			d.mu.Unlock()
		}()
		d.notify(CallEvent{Phase: Started, ID: req.ID, Tool: tool.Name, Args: req.Args, Origin: origin, Started: start})
		runCtx := context.WithValue(callCtx, callKey{}, &callInfo{d: d, seq: seq, key: key, id: idText, tool: tool.Name})
		result, err := d.run(runCtx, tool, args)
		if err == nil && runCtx.Err() != nil && errors.Is(context.Cause(runCtx), ErrShutdown) {
			err = context.Cause(runCtx)
		}
		// The call ended because it was cancelled only if it answers with
		// an error after its context ended; a result is a normal finish.
		d.mu.Lock()
		call.interrupted = runCtx.Err() != nil && (err != nil || stoppedResult(result))
		if call.task != nil {
			call.task.interrupted = call.interrupted
		}
		close(call.ended)
		d.mu.Unlock()
		if err != nil {
			resp.Error = d.describeError(runCtx, tool.Name, start, err)
		} else {
			raw, merr := marshalResult(result)
			if merr != nil {
				d.log.Error("result does not marshal", "tool", tool.Name, "err", merr)
				resp.Error = fmt.Sprintf("%s finished but its result could not be encoded (%v); this is a blockmate bug, please report it", tool.Name, merr)
			} else {
				resp.OK, resp.Result = true, raw
				if p, ok := result.(Pictured); ok {
					resp.Images = p.Pictures()
				}
			}
		}
		if d.log.Enabled(ctx, slog.LevelDebug) {
			d.log.Debug("call", "id", idText, "tool", tool.Name, "origin", origin, "ok", resp.OK, "took", time.Since(start))
		}
		d.notify(CallEvent{Phase: Finished, ID: req.ID, Tool: tool.Name, Args: req.Args, Origin: origin, Started: start, Duration: time.Since(start), Response: resp})
		return resp
	}
	if wait := waitFor(ctx, tool, args); wait > 0 {
		return func() Response { return d.runWaiting(call, req, wait, finish) }
	}
	return finish
}

// Interrupted is a result that says it was cut short by its context (a
// plan's answer stopped half-way tells what was done and what remains,
// which an error would lose): mc_stop lists the call as cancelled all the
// same.
type Interrupted interface{ Interrupted() bool }

func stoppedResult(result any) bool {
	r, ok := result.(Interrupted)
	return ok && r.Interrupted()
}

func (d *Dispatcher) run(ctx context.Context, tool *Tool, args Args) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			d.log.Error("tool panicked", "tool", tool.Name, "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("%s failed inside blockmate (%v); nothing else was affected, you can try again or use another tool, and please report this bug", tool.Name, p)
		}
	}()
	return tool.Handler(ctx, args)
}

func marshalResult(result any) (json.RawMessage, error) {
	if result == nil {
		return json.RawMessage("{}"), nil
	}
	if raw, ok := result.(json.RawMessage); ok {
		return raw, nil
	}
	return Marshal(result)
}

// describeError turns a tool's error into the sentence the caller reads. A
// call cut short by mc_stop or shutdown says so, whatever the tool returned.
func (d *Dispatcher) describeError(ctx context.Context, tool string, start time.Time, err error) string {
	if ctx.Err() != nil {
		took := time.Since(start).Round(time.Millisecond)
		switch cause := context.Cause(ctx); {
		case errors.Is(cause, ErrStopped):
			return fmt.Sprintf("%s was stopped by mc_stop after %v; nothing more of it will happen, and the next call starts clean", tool, took)
		case errors.Is(cause, ErrCancelled):
			return fmt.Sprintf("%s was stopped after %v because its caller cancelled it; nothing more of it will happen, and the next call starts clean", tool, took)
		case errors.Is(cause, ErrShutdown):
			return fmt.Sprintf("%s was cancelled after %v because blockmate is shutting down", tool, took)
		case errors.Is(cause, context.DeadlineExceeded):
			return fmt.Sprintf("%s ran out of time after %v and was cancelled; try again, or with a longer timeout if it takes one", tool, took)
		}
	}
	msg := err.Error()
	if msg == "" {
		msg = tool + " failed without saying why"
	}
	return msg
}

func (d *Dispatcher) unknownTool(name string) string {
	shown := name
	if len(shown) > 64 {
		shown = shown[:64] + "..."
	}
	msg := fmt.Sprintf("unknown tool %q", shown)
	if near := d.catalog.Closest(name, 3); len(near) > 0 {
		msg += "; did you mean " + strings.Join(near, " or ") + "?"
	} else {
		msg += "."
	}
	return msg + " Call mc_list_tools to see every tool with its arguments."
}
