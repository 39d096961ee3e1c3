package protocol

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// manualClock is a Clock the test fires by hand: each After announces its
// channel on armed, so a test waits for the timer to exist, never on time.
type manualClock struct{ armed chan chan time.Time }

func newManualClock() *manualClock { return &manualClock{armed: make(chan chan time.Time, 16)} }

func (c *manualClock) After(time.Duration) (<-chan time.Time, func()) {
	ch := make(chan time.Time, 1)
	c.armed <- ch
	return ch, func() {}
}

// fire fires the next timer a call arms.
func (c *manualClock) fire(t *testing.T) {
	t.Helper()
	select {
	case ch := <-c.armed:
		ch <- time.Time{}
	case <-bound(t).Done():
		t.Fatal("no call armed a wait timer")
	}
}

// taskDispatcher has a Long tool, mc_slow, that reports one step of
// progress and then runs until release is closed (or it is cancelled).
func taskDispatcher(t *testing.T) (d *Dispatcher, clock *manualClock, progressed <-chan struct{}, release chan struct{}) {
	t.Helper()
	d = newTestDispatcher(t)
	clock = newManualClock()
	d.SetClock(clock)
	release = make(chan struct{})
	prog := make(chan struct{}, 16)
	d.Catalog().Add(Tool{Name: "mc_slow", Description: "runs until released", Effect: Write, Long: true,
		Handler: func(ctx context.Context, _ Args) (any, error) {
			id, _ := CallID(ctx)
			d.Events().Emit("mc_task_progress", id, TaskProgress{Tool: "mc_slow", ID: id, Done: 1, Total: 3})
			prog <- struct{}{}
			select {
			case <-release:
				return struct {
					Collected bool `json:"collected"`
					Count     int  `json:"count"`
				}{true, 3}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}})
	return d, clock, prog, release
}

func callAsync(d *Dispatcher, ctx context.Context, id, tool, args string) <-chan Response {
	var m map[string]json.RawMessage
	if args != "" {
		_ = json.Unmarshal([]byte(args), &m)
	}
	out := make(chan Response, 1)
	run := d.Start(ctx, Request{ID: json.RawMessage(`"` + id + `"`), Tool: tool, Args: m})
	go func() { out <- run() }()
	return out
}

func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-bound(t).Done():
		t.Fatalf("never saw %s", what)
	}
	var zero T
	return zero
}

// nextEvent is the next event named name on ch, checked against the
// catalog.
func nextEvent(t *testing.T, ch <-chan Event, name string) Event {
	t.Helper()
	for {
		ev := await(t, ch, name)
		if ev.Name != name {
			continue
		}
		if err := CheckEventPayload(ev.Name, ev.Payload); err != nil {
			t.Fatal(err)
		}
		return ev
	}
}

func TestALongCallPastItsWaitAnswersEarlyAndFinishesAsATask(t *testing.T) {
	d, clock, progressed, release := taskDispatcher(t)
	events, unsubscribe := d.Events().Subscribe(64)
	defer unsubscribe()

	answer := callAsync(d, context.Background(), "c1", "mc_slow", `{"wait":30}`)
	await(t, progressed, "progress")
	clock.fire(t)
	resp := await(t, answer, "the early answer")
	want := `{"running":true,"task_id":"task-1","tool":"mc_slow","so_far":{"tool":"mc_slow","id":"c1","done":1,"total":3},"next_step":`
	if !resp.OK || !strings.HasPrefix(string(resp.Result), want) || !strings.Contains(string(resp.Result), "mc_task_result") {
		t.Fatalf("early answer %s %s, want it to start %s", resp.Result, resp.Error, want)
	}

	// It is listed under its task id, as a background task; its call's id
	// is free for the caller's next call.
	running := d.Running()
	if len(running) != 1 || running[0].ID != "task-1" || !running[0].Background || running[0].Tool != "mc_slow" {
		t.Fatalf("running %+v", running)
	}
	if r := call(d, "c1", "mc_echo", `{"text":"again"}`); !r.OK {
		t.Fatalf("the call's id is still taken: %s", r.Error)
	}
	// Withdrawing the call that answered does not stop the task.
	if d.Cancel(json.RawMessage(`"c1"`), ErrCancelled) {
		t.Fatal("cancelling the answered call reached the task")
	}
	if r := call(d, "r1", "mc_task_result", `{"task_id":"task-1"}`); !r.OK || !strings.HasPrefix(string(r.Result), `{"running":true,"task_id":"task-1"`) {
		t.Fatalf("mc_task_result while running: %s %s", r.Result, r.Error)
	}

	close(release)
	done := nextEvent(t, events, "mc_task_done")
	if got := string(done.Payload); got != `{"task_id":"task-1","tool":"mc_slow","ok":true,"result":{"collected":true,"count":3}}` {
		t.Fatalf("mc_task_done %s", got)
	}
	if s := EventSentence(done); s != "Task task-1 (slow) finished" {
		t.Fatalf("sentence %q", s)
	}
	if r := call(d, "r2", "mc_task_result", `{"task_id":"task-1"}`); !r.OK || string(r.Result) != `{"collected":true,"count":3}` {
		t.Fatalf("mc_task_result after the end: %s %s", r.Result, r.Error)
	}
	for _, r := range d.Running() {
		t.Fatalf("still listed after its end: %+v", r)
	}
}

func TestALongCallThatEndsInTimeAnswersAsUsual(t *testing.T) {
	d, _, progressed, release := taskDispatcher(t)
	answer := callAsync(d, context.Background(), "c1", "mc_slow", `{"wait":30}`)
	await(t, progressed, "progress")
	close(release)
	if resp := await(t, answer, "the answer"); !resp.OK || string(resp.Result) != `{"collected":true,"count":3}` {
		t.Fatalf("answer %s %s", resp.Result, resp.Error)
	}
}

func TestTheTransportsDefaultWaitAppliesToLongToolsOnly(t *testing.T) {
	d, clock, progressed, release := taskDispatcher(t)
	defer close(release)
	ctx := WithDefaultWait(context.Background(), 50*time.Second)

	// A short tool never waits on the clock: it answers, whatever the
	// default.
	if r := d.Call(ctx, Request{ID: json.RawMessage(`"e"`), Tool: "mc_echo", Args: map[string]json.RawMessage{"text": json.RawMessage(`"x"`)}}); !r.OK {
		t.Fatal(r.Error)
	}
	select {
	case <-clock.armed:
		t.Fatal("a short tool armed a wait")
	default:
	}
	answer := callAsync(d, ctx, "c1", "mc_slow", "")
	await(t, progressed, "progress")
	clock.fire(t)
	if resp := await(t, answer, "the early answer"); !resp.OK || !strings.Contains(string(resp.Result), `"running":true`) {
		t.Fatalf("answer %s %s", resp.Result, resp.Error)
	}
	// wait 0 overrides the default: the call waits until it ends.
	answer = callAsync(d, ctx, "c2", "mc_slow", `{"wait":0}`)
	await(t, progressed, "progress")
	select {
	case <-clock.armed:
		t.Fatal("wait 0 armed a wait")
	case r := <-answer:
		t.Fatalf("wait 0 answered before the end: %s", r.Result)
	default:
	}
}

func TestMcStopStopsABackgroundTaskAndItsEndSaysSo(t *testing.T) {
	d, clock, progressed, release := taskDispatcher(t)
	defer close(release)
	events, unsubscribe := d.Events().Subscribe(64)
	defer unsubscribe()
	answer := callAsync(d, context.Background(), "c1", "mc_slow", `{"wait":5}`)
	await(t, progressed, "progress")
	clock.fire(t)
	await(t, answer, "the early answer")

	stop := call(d, "s", "mc_stop", "")
	if !stop.OK || string(stop.Result) != `{"stopped":true,"cancelled":["task-1"]}` {
		t.Fatalf("mc_stop %s %s", stop.Result, stop.Error)
	}
	done := nextEvent(t, events, "mc_task_done")
	var p TaskDone
	if err := json.Unmarshal(done.Payload, &p); err != nil || p.OK || !strings.Contains(p.Error, "stopped by mc_stop") {
		t.Fatalf("mc_task_done %s", done.Payload)
	}
	r := call(d, "r", "mc_task_result", `{"task_id":"task-1"}`)
	if r.OK || r.Error != p.Error {
		t.Fatalf("mc_task_result %s %q, want the error %q", r.Result, r.Error, p.Error)
	}
}

func TestMcTaskResultOfAnUnknownTaskSaysWhereTasksComeFrom(t *testing.T) {
	d := newTestDispatcher(t)
	r := call(d, "r", "mc_task_result", `{"task_id":"task-9"}`)
	if r.OK || !strings.Contains(r.Error, `there is no task "task-9"`) || !strings.Contains(r.Error, "mc_status") {
		t.Fatalf("%s %q", r.Result, r.Error)
	}
}

func TestFinishedTasksAreKeptBoundedOldestForgottenFirst(t *testing.T) {
	d := newTestDispatcher(t)
	for i := 0; i < maxKeptTasks+5; i++ {
		d.mu.Lock()
		d.nextTask++
		tk := &task{id: fmt.Sprintf("task-%d", i), tool: "mc_slow"}
		d.tasks[tk.id] = tk
		d.mu.Unlock()
		d.taskDone(tk, Response{OK: true})
	}
	d.mu.Lock()
	n, f := len(d.tasks), len(d.finished)
	d.mu.Unlock()
	if n != maxKeptTasks || f != maxKeptTasks {
		t.Fatalf("kept %d tasks, %d finished; want %d", n, f, maxKeptTasks)
	}
}

// TestTheSidecarAnswersALongCallEarlyAndSendsItsEnd: over the sidecar,
// with --wait's default, a long call answers running once the wait runs
// out, and its end follows on stdout as the mc_task_done event.
func TestTheSidecarAnswersALongCallEarlyAndSendsItsEnd(t *testing.T) {
	d, clock, progressed, release := taskDispatcher(t)
	p := startPipeSidecar(t, d, SidecarOptions{DefaultWait: 50 * time.Second})
	p.send(`{"id":"s1","tool":"mc_slow"}`)
	await(t, progressed, "progress")
	clock.fire(t)
	resp := p.response(t)
	result, _ := resp["result"].(map[string]any)
	if resp["id"] != "s1" || resp["ok"] != true || result["running"] != true || result["task_id"] != "task-1" {
		t.Fatalf("early answer %v", resp)
	}
	close(release)
	for {
		select {
		case line := <-p.lines:
			if !strings.Contains(line, `"name":"mc_task_done"`) {
				continue
			}
			if want := `{"type":"event","name":"mc_task_done","payload":{"task_id":"task-1","tool":"mc_slow","ok":true,"result":{"collected":true,"count":3}}}`; line != want {
				t.Fatalf("stdout %s, want %s", line, want)
			}
			return
		case <-bound(t).Done():
			t.Fatal("no mc_task_done on stdout")
		}
	}
}

// bound ends with the test binary's deadline (less testctx's margin for
// the report): a wait for a condition that never comes fails there with
// its own message, never at a guess in seconds a loaded machine misses.
func bound(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := testctx.New(t)
	t.Cleanup(cancel)
	return ctx
}
