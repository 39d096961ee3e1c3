package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Long calls and background tasks.
//
// A client that gives up on a call after a minute (an MCP host, a script
// with a timeout) must not be left waiting in silence while a 16-log
// collect takes two minutes. A tool the catalog marks Long takes a wait
// argument (or the transport's default, WithDefaultWait): when the call is
// still running after that many seconds it answers at once with
// {"running": true, "task_id": …, "so_far": …} and goes on as a background
// task. mc_status lists it under its task id, mc_stop stops it, its end is
// the mc_task_done event with the full result, and mc_task_result reads
// that result later. This lives here, in the dispatcher, so every
// transport and every long tool gets it the same way.

// WaitArgName is the argument every Long tool takes.
const WaitArgName = "wait"

// maxWaitSeconds bounds the wait argument: a day is longer than any call.
const maxWaitSeconds = 86400

// waitArg is the argument Catalog.Add gives every Long tool.
func waitArg() Arg {
	return Int(WaitArgName, "seconds to wait for the answer: if the call is still running then, it answers {running:true, task_id, so_far} and goes on in the background, its end sent as the mc_task_done event and readable with mc_task_result {task_id}; 0 waits until it ends; left out, the server's default (none unless it was started with one)", 0, maxWaitSeconds)
}

// maxKeptTasks bounds how many finished tasks' results mc_task_result can
// still read; the oldest are forgotten first.
const maxKeptTasks = 100

// maxTrackedProgress bounds the table of calls' latest progress, so a tool
// that reports under made-up ids cannot grow it without end.
const maxTrackedProgress = 4096

// Clock makes the timers the task layer waits on. Tests give one they fire
// by hand, so no test waits on the wall clock.
type Clock interface {
	// After returns a channel that receives once d has passed, and a func
	// that stops the timer.
	After(d time.Duration) (<-chan time.Time, func())
}

type realClock struct{}

func (realClock) After(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

// SetClock replaces the clock the wait argument is measured on. Call it
// before any call is served.
func (d *Dispatcher) SetClock(c Clock) {
	d.mu.Lock()
	d.clock = c
	d.mu.Unlock()
}

type defaultWaitKey struct{}

// WithDefaultWait tags ctx with the wait a transport gives Long calls that
// do not send their own (blockmate mcp --wait): 0 or less means none.
func WithDefaultWait(ctx context.Context, wait time.Duration) context.Context {
	return context.WithValue(ctx, defaultWaitKey{}, wait)
}

// waitFor is how long a call of tool waits before it answers early: its
// wait argument, else the transport's default; 0 means until it ends.
func waitFor(ctx context.Context, tool *Tool, args Args) time.Duration {
	if !tool.Long {
		return 0
	}
	if args.Has(WaitArgName) {
		return time.Duration(args.Int(WaitArgName)) * time.Second
	}
	if w, ok := ctx.Value(defaultWaitKey{}).(time.Duration); ok && w > 0 {
		return w
	}
	return 0
}

// TaskRunning is the early answer of a Long call that outlived its wait,
// and mc_task_result's answer while the task runs.
type TaskRunning struct {
	Running bool   `json:"running"`
	TaskID  string `json:"task_id"`
	Tool    string `json:"tool"`
	// SoFar is the call's latest mc_task_progress payload, null before its
	// first.
	SoFar    json.RawMessage `json:"so_far"`
	NextStep string          `json:"next_step"`
}

// TaskDone is the payload of mc_task_done: a background task's end with
// the result (or the error sentence) its call would have answered.
type TaskDone struct {
	TaskID string          `json:"task_id"`
	Tool   string          `json:"tool"`
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// task is a call that answered early, running or finished.
type task struct {
	id     string
	tool   string
	callID string // the call's own id, which its progress carries
	done   bool
	resp   Response
}

func taskRunningNext(id string) string {
	return fmt.Sprintf("it goes on in the background: its end comes as the mc_task_done event with task_id %q, or call mc_task_result {\"task_id\":%q} to read it; mc_stop stops it", id, id)
}

// noteProgress keeps each call's latest progress, as tools emit it, for
// so_far. It is a bus tap: it sees progress before debounce.
func (d *Dispatcher) noteProgress(ev Event) {
	if ev.Name != "mc_task_progress" {
		return
	}
	var p struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(ev.Payload, &p) != nil || p.ID == "" {
		return
	}
	d.mu.Lock()
	if _, known := d.progressOf[p.ID]; known || len(d.progressOf) < maxTrackedProgress {
		d.progressOf[p.ID] = ev.Payload
	}
	d.mu.Unlock()
}

// runWaiting runs a Long call whose caller waits at most wait: the call's
// own answer if it comes in time, else the early answer, with the call
// carried on as a background task.
func (d *Dispatcher) runWaiting(call *inflight, req Request, wait time.Duration, finish func() Response) Response {
	answered := make(chan Response, 1)
	go func() { answered <- finish() }()
	d.mu.Lock()
	clock := d.clock
	d.mu.Unlock()
	fired, stop := clock.After(wait)
	select {
	case resp := <-answered:
		stop()
		return resp
	case <-fired:
	}
	// An answer that came as the wait ran out is the better answer.
	select {
	case resp := <-answered:
		return resp
	default:
	}
	t, ok := d.toBackground(call)
	if !ok {
		return <-answered
	}
	go func() { d.taskDone(t, <-answered) }()
	d.mu.Lock()
	soFar := d.progressOf[t.callID]
	d.mu.Unlock()
	raw, err := Marshal(TaskRunning{Running: true, TaskID: t.id, Tool: t.tool, SoFar: soFar, NextStep: taskRunningNext(t.id)})
	if err != nil {
		// A struct of strings and raw JSON the tools wrote always marshals.
		return Response{ID: req.ID, Error: fmt.Sprintf("%s goes on as task %s, but its early answer could not be encoded (%v); this is a blockmate bug, please report it", t.tool, t.id, err)}
	}
	return Response{ID: req.ID, OK: true, Result: raw}
}

// toBackground turns a running call into a background task: it is listed
// under a task id of its own and no longer under its call's id (which the
// caller may use again), its caller's cancellation no longer reaches it,
// and mc_stop still does. It reports false when the call has already ended.
func (d *Dispatcher) toBackground(call *inflight) (*task, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	select {
	case <-call.ended:
		return nil, false
	default:
	}
	if d.running[call.key] != call {
		return nil, false
	}
	d.nextTask++
	id := fmt.Sprintf("task-%d", d.nextTask)
	entry := &inflight{
		RunningCall: RunningCall{ID: id, Tool: call.Tool, Started: call.Started, Args: call.Args, Origin: call.Origin, Background: true, CallID: call.ID},
		ctx:         call.ctx, cancel: call.cancel, background: true, seq: call.seq, key: id, ended: call.ended,
	}
	call.task = entry
	delete(d.running, call.key)
	d.running[id] = entry
	t := &task{id: id, tool: call.Tool, callID: call.ID}
	d.tasks[id] = t
	return t, true
}

// taskDone records a background task's answer, forgets the oldest results
// beyond maxKeptTasks, and sends mc_task_done.
func (d *Dispatcher) taskDone(t *task, resp Response) {
	d.mu.Lock()
	t.done, t.resp = true, resp
	d.finished = append(d.finished, t.id)
	for len(d.finished) > maxKeptTasks {
		delete(d.tasks, d.finished[0])
		d.finished = d.finished[1:]
	}
	d.mu.Unlock()
	ev := TaskDone{TaskID: t.id, Tool: t.tool, OK: resp.OK}
	if resp.OK {
		ev.Result = resp.Result
		if len(ev.Result) == 0 {
			ev.Result = json.RawMessage("{}")
		}
	} else {
		ev.Error = resp.Error
	}
	if d.events != nil {
		d.events.Emit("mc_task_done", t.id, ev)
	}
}

// TaskResult is what mc_task_result answers for task id: the finished
// task's result as its call would have answered it, or TaskRunning while it
// runs; a failed task gives its call's error sentence as the error.
func (d *Dispatcher) TaskResult(id string) (any, error) {
	d.mu.Lock()
	t, ok := d.tasks[id]
	var resp Response
	var done bool
	var soFar json.RawMessage
	if ok {
		done, resp = t.done, t.resp
		soFar = d.progressOf[t.callID]
	}
	d.mu.Unlock()
	switch {
	case !ok:
		return nil, fmt.Errorf("there is no task %q: task ids come from a long call's early answer ({\"running\":true,\"task_id\":…}); mc_status lists the tasks still running, and the results of the last %d finished tasks are kept", shorten(id, 64), maxKeptTasks)
	case !done:
		return TaskRunning{Running: true, TaskID: t.id, Tool: t.tool, SoFar: soFar, NextStep: taskRunningNext(t.id)}, nil
	case !resp.OK:
		return nil, errors.New(resp.Error)
	}
	return resp.Result, nil
}

func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func registerTaskResult(c *Catalog, d *Dispatcher) {
	c.Add(Tool{
		Name: "mc_task_result",
		Description: "Reads the result of a background task: a long call (mc_collect, mc_goto, mc_sleep …) that was still running when its wait ran out answered {\"running\":true,\"task_id\":…,\"so_far\":…} and went on in the background. " +
			"Once the task has ended this answers exactly what the call would have answered (its result, or its error); while it runs, running=true with so_far, its latest progress. The mc_task_done event brings the same result when the task ends, so polling is seldom needed.",
		Args:      Schema{Str("task_id", "the task_id from the call's early answer, e.g. task-3").Req().Len(1, 128)},
		Effect:    Read,
		LocalOnly: true,
		// The result is another tool's, which may carry what players
		// wrote (an attack's target, a chat reply).
		UntrustedText: true,
		Handler: func(_ context.Context, a Args) (any, error) {
			return d.TaskResult(a.String("task_id"))
		},
	})
}
