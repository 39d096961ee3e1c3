package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// newTestDispatcher returns a dispatcher with the built-in tools and a few
// test tools: mc_echo returns its text, mc_panic panics, mc_block waits for
// its context.
func newTestDispatcher(t testing.TB) *Dispatcher {
	t.Helper()
	c := NewCatalog()
	d := NewDispatcher(c, NewBus(nil), nil)
	RegisterBuiltins(c, d)
	c.Add(Tool{Name: "mc_echo", Description: "echo", Effect: Read, Args: Schema{Str("text", "what").Req()},
		Handler: func(_ context.Context, a Args) (any, error) {
			return struct {
				Said string `json:"said"`
			}{a.String("text")}, nil
		}})
	c.Add(Tool{Name: "mc_panic", Description: "panics", Effect: Read,
		Handler: func(context.Context, Args) (any, error) { panic("boom") }})
	c.Add(Tool{Name: "mc_block", Description: "blocks until cancelled", Effect: Read,
		Handler: func(ctx context.Context, _ Args) (any, error) { <-ctx.Done(); return nil, ctx.Err() }})
	c.Add(Tool{Name: "mc_follow_forever", Description: "starts background work", Effect: Write,
		Handler: func(ctx context.Context, _ Args) (any, error) {
			bg, done := StartBackground(ctx, "follow")
			go func() { defer done(); <-bg.Done() }()
			return struct {
				Following bool `json:"following"`
			}{true}, nil
		}})
	return d
}

func call(d *Dispatcher, id, tool, args string) Response {
	var m map[string]json.RawMessage
	if args != "" {
		_ = json.Unmarshal([]byte(args), &m)
	}
	return d.Call(context.Background(), Request{ID: json.RawMessage(`"` + id + `"`), Tool: tool, Args: m})
}

func waitRunning(t *testing.T, d *Dispatcher, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(d.Running()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("never saw %d calls running: %v", n, d.Running())
		}
		time.Sleep(time.Millisecond)
	}
}

func TestUnknownToolNamesTheClosestAndPointsToTheList(t *testing.T) {
	d := newTestDispatcher(t)
	r := call(d, "c1", "mc_wiat", "")
	if r.OK || r.Error != `unknown tool "mc_wiat"; did you mean mc_wait? Call mc_list_tools to see every tool with its arguments.` {
		t.Fatalf("%+v", r)
	}
	r = call(d, "c2", "stop", "")
	if !strings.Contains(r.Error, "did you mean mc_stop") {
		t.Fatalf("%+v", r)
	}
	r = call(d, "c3", "fly_to_the_moon", "")
	if r.Error != `unknown tool "fly_to_the_moon". Call mc_list_tools to see every tool with its arguments.` {
		t.Fatalf("%q", r.Error)
	}
}

func TestWrongArgumentsNameTheField(t *testing.T) {
	d := newTestDispatcher(t)
	if r := call(d, "c1", "mc_wait", `{"ms":"soon"}`); r.Error != `ms must be a whole number from 0 to 600000; got "soon"` {
		t.Fatalf("%q", r.Error)
	}
	if r := call(d, "c2", "mc_wait", `{}`); r.Error != `ms is required: a whole number from 0 to 600000 (how long to wait, in milliseconds (at most 10 minutes))` {
		t.Fatalf("%q", r.Error)
	}
}

func TestPanickingToolBecomesAnErrorAndTheNextCallWorks(t *testing.T) {
	d := newTestDispatcher(t)
	r := call(d, "c1", "mc_panic", "")
	if r.OK || !strings.Contains(r.Error, "mc_panic failed inside blockmate (boom)") {
		t.Fatalf("%+v", r)
	}
	if r := call(d, "c2", "mc_echo", `{"text":"still here"}`); !r.OK || string(r.Result) != `{"said":"still here"}` {
		t.Fatalf("%+v", r)
	}
}

// The bug the protocol document warns about: after a stop, the next call
// must not abort at once.
func TestStopCancelsWhatRunsAndTheNextCallStartsClean(t *testing.T) {
	d := newTestDispatcher(t)
	done := make(chan Response, 2)
	go func() { done <- call(d, "w1", "mc_wait", `{"ms":600000}`) }()
	go func() { done <- call(d, "b1", "mc_block", "") }()
	waitRunning(t, d, 2)

	stop := call(d, "s1", "mc_stop", "")
	var res struct {
		Stopped   bool     `json:"stopped"`
		Cancelled []string `json:"cancelled"`
	}
	if err := json.Unmarshal(stop.Result, &res); err != nil || !res.Stopped || len(res.Cancelled) != 2 {
		t.Fatalf("stop: %s %v", stop.Result, err)
	}
	for i := 0; i < 2; i++ {
		r := <-done
		if r.OK || !strings.Contains(r.Error, "was stopped by mc_stop") || !strings.Contains(r.Error, "the next call starts clean") {
			t.Fatalf("cancelled call answered %+v", r)
		}
	}
	r := call(d, "w2", "mc_wait", `{"ms":5}`)
	if !r.OK || !strings.HasPrefix(string(r.Result), `{"waited_ms":`) {
		t.Fatalf("the call after a stop failed: %+v", r)
	}
	if running := d.Running(); len(running) != 0 {
		t.Fatalf("still running: %v", running)
	}
}

func TestStopCancelsBackgroundWork(t *testing.T) {
	d := newTestDispatcher(t)
	if r := call(d, "f1", "mc_follow_forever", ""); !r.OK {
		t.Fatalf("%+v", r)
	}
	running := d.Running()
	if len(running) != 1 || running[0].Tool != "follow" || !strings.HasPrefix(running[0].ID, "f1/") {
		t.Fatalf("background task not listed: %v", running)
	}
	r := call(d, "s1", "mc_stop", "")
	if !strings.Contains(string(r.Result), `"cancelled":["f1/follow#`) {
		t.Fatalf("%s", r.Result)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(d.Running()) > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if len(d.Running()) != 0 {
		t.Fatalf("background work survived mc_stop: %v", d.Running())
	}
}

func TestDuplicateIDInFlightIsRefusedAndTheFirstCallIsUnharmed(t *testing.T) {
	d := newTestDispatcher(t)
	first := make(chan Response, 1)
	go func() { first <- call(d, "same", "mc_block", "") }()
	waitRunning(t, d, 1)
	dup := call(d, "same", "mc_echo", `{"text":"x"}`)
	if dup.OK || dup.Error != `id "same" is already in use by a mc_block call that is still running; give every request its own id` {
		t.Fatalf("%+v", dup)
	}
	if len(d.Running()) != 1 {
		t.Fatal("the duplicate disturbed the running call")
	}
	call(d, "s", "mc_stop", "")
	<-first
	// Once the first has answered, the id is free again.
	if r := call(d, "same", "mc_echo", `{"text":"x"}`); !r.OK {
		t.Fatalf("%+v", r)
	}
}

func TestObserversSeeEveryCallButInternalOnes(t *testing.T) {
	d := newTestDispatcher(t)
	var mu sync.Mutex
	var seen []string
	cancel := d.Observe(func(ev CallEvent) {
		mu.Lock()
		defer mu.Unlock()
		phase := "start"
		if ev.Phase == Finished {
			phase = "end"
			if !ev.Response.OK {
				phase = "fail"
			}
		}
		seen = append(seen, phase+":"+ev.Tool+":"+string(ev.Origin))
	})
	defer cancel()
	call(d, "c1", "mc_echo", `{"text":"hi"}`)
	d.Call(WithOrigin(context.Background(), OriginConsole), Request{ID: json.RawMessage(`"c2"`), Tool: "nope"})
	d.Call(WithOrigin(context.Background(), OriginInternal), Request{ID: json.RawMessage(`"c3"`), Tool: "mc_echo", Args: map[string]json.RawMessage{"text": json.RawMessage(`"x"`)}})
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(seen, " "); got != "start:mc_echo:sidecar end:mc_echo:sidecar fail:nope:console" {
		t.Fatalf("observed %s", got)
	}
}

func TestListToolsListsTheCatalog(t *testing.T) {
	d := newTestDispatcher(t)
	r := call(d, "c1", "mc_list_tools", "")
	var res struct {
		Count int `json:"count"`
		Tools []struct {
			Name   string `json:"name"`
			Effect Effect `json:"effect"`
			Args   struct {
				Properties map[string]any `json:"properties"`
			} `json:"args"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.Count != len(d.Catalog().Names()) || res.Count != len(res.Tools) || !strings.HasPrefix(string(r.Result), `{"count":`) {
		t.Fatalf("%s", r.Result)
	}
	for _, tool := range res.Tools {
		// mc_wait takes ms, and wait as every Long tool does.
		if tool.Name == "mc_wait" && (tool.Effect != Read || len(tool.Args.Properties) != 2 || tool.Args.Properties[WaitArgName] == nil) {
			t.Fatalf("mc_wait listed as %+v", tool)
		}
	}
	// The events follow the tools, and the ones no code sends yet say so.
	var events struct {
		Events []struct {
			Name   string `json:"name"`
			Coming bool   `json:"coming"`
		} `json:"events"`
	}
	if err := json.Unmarshal(r.Result, &events); err != nil || len(events.Events) != len(EventCatalog) {
		t.Fatalf("events in mc_list_tools: %s", r.Result)
	}
	for i, e := range events.Events {
		if e.Name != EventCatalog[i].Name || e.Coming != EventCatalog[i].Coming {
			t.Errorf("event %d listed as %+v, catalog has %s coming=%v", i, e, EventCatalog[i].Name, EventCatalog[i].Coming)
		}
	}
	for _, e := range EventCatalog {
		if e.Coming && !strings.Contains(string(r.Result), `"coming":true`) {
			t.Errorf("%s is coming but the listing marks nothing as coming: %s", e.Name, r.Result)
		}
	}
}

// TestStopNamesNoFeatureThatDoesNotExist: mc_stop's description promises
// only what the bot does today.
func TestStopNamesNoFeatureThatDoesNotExist(t *testing.T) {
	d := newTestDispatcher(t)
	tool, _ := d.Catalog().Lookup("mc_stop")
	for _, word := range []string{"dig"} {
		if strings.Contains(tool.Description, word) {
			t.Errorf("mc_stop's description names %q, which the bot cannot do yet: %q", word, tool.Description)
		}
	}
}

// TestCancelBefore: the calls of one tool admitted before the cancelling
// call are cancelled with its cause, started or not; calls of other tools,
// calls admitted after it, and calls whose handler has returned are not.
func TestCancelBefore(t *testing.T) {
	cause := errors.New("cancelled by the test")
	for round := 0; round < 50; round++ {
		d := newTestDispatcher(t)
		c := d.Catalog()
		// mc_hold answers with its context's cause, as mc_join does.
		c.Add(Tool{Name: "mc_hold", Description: "waits until cancelled", Effect: Read,
			Handler: func(ctx context.Context, _ Args) (any, error) { <-ctx.Done(); return nil, context.Cause(ctx) }})
		c.Add(Tool{Name: "mc_cancel_holds", Description: "cancels mc_hold calls sent before it", Effect: Write,
			Handler: func(ctx context.Context, _ Args) (any, error) {
				return struct {
					Cancelled []string `json:"cancelled"`
				}{d.CancelBefore(ctx, "mc_hold", cause)}, nil
			}})
		ctx := context.Background()
		running := d.Start(ctx, Request{ID: json.RawMessage(`"running"`), Tool: "mc_hold"})
		runningDone := make(chan Response, 1)
		go func() { runningDone <- running() }()
		waitRunning(t, d, 1)
		notStarted := d.Start(ctx, Request{ID: json.RawMessage(`"waiting"`), Tool: "mc_hold"})
		other := d.Start(ctx, Request{ID: json.RawMessage(`"other"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage(`1`)}})
		cancel := d.Start(ctx, Request{ID: json.RawMessage(`"cancel"`), Tool: "mc_cancel_holds"})
		after := d.Start(ctx, Request{ID: json.RawMessage(`"after"`), Tool: "mc_hold"})
		for _, r := range d.Running() {
			if r.Cancelled {
				t.Fatalf("round %d: %s was listed as cancelled before anything cancelled it", round, r.ID)
			}
		}
		if r := cancel(); string(r.Result) != `{"cancelled":["running","waiting"]}` {
			t.Fatalf("round %d: %s", round, r.Result)
		}
		for _, r := range d.Running() {
			if want := r.ID != "after" && r.ID != "other"; r.Cancelled != want {
				t.Fatalf("round %d: the running table lists %s as cancelled=%v", round, r.ID, r.Cancelled)
			}
		}
		if r := <-runningDone; r.OK || r.Error != cause.Error() {
			t.Fatalf("round %d: the running call answered %+v", round, r)
		}
		if r := notStarted(); r.OK || r.Error != cause.Error() {
			t.Fatalf("round %d: the call that had not started answered %+v", round, r)
		}
		if r := other(); !r.OK {
			t.Fatalf("round %d: another tool's call was cancelled: %+v", round, r)
		}
		afterDone := make(chan Response, 1)
		go func() { afterDone <- after() }()
		if ids := d.CancelBefore(ctx, "mc_wait", cause); len(ids) != 0 {
			t.Fatalf("round %d: outside a call, CancelBefore cancelled %v, which had all returned", round, ids)
		}
		waitRunning(t, d, 1)
		if ids := d.CancelBefore(ctx, "mc_hold", ErrStopped); len(ids) != 1 || ids[0] != "after" {
			t.Fatalf("round %d: outside a call, CancelBefore cancelled %v, want the one mc_hold left", round, ids)
		}
		if r := <-afterDone; r.OK || !strings.Contains(r.Error, "stopped by mc_stop") {
			t.Fatalf("round %d: %+v", round, r)
		}
	}
}

// TestCancelBeforeSkipsAFinishedCall: a call whose handler has returned
// but that is still listed while its response is written is not
// cancelled, so a caller is not told it stopped something that was over.
func TestCancelBeforeSkipsAFinishedCall(t *testing.T) {
	d := newTestDispatcher(t)
	returned := make(chan struct{})
	release := make(chan struct{})
	d.Observe(func(ev CallEvent) {
		if ev.Phase == Finished && ev.Tool == "mc_echo" {
			close(returned)
			<-release
		}
	})
	done := make(chan Response, 1)
	go func() { done <- call(d, "e", "mc_echo", `{"text":"x"}`) }()
	<-returned
	if len(d.Running()) != 1 {
		t.Fatalf("the finished call is not listed while it answers: %v", d.Running())
	}
	if ids := d.CancelBefore(context.Background(), "mc_echo", ErrStopped); len(ids) != 0 {
		t.Errorf("CancelBefore cancelled %v, a call whose handler had returned", ids)
	}
	close(release)
	if r := <-done; !r.OK {
		t.Errorf("%+v", r)
	}
}

func TestCatalogRefusesMalformedTools(t *testing.T) {
	h := func(context.Context, Args) (any, error) { return nil, nil }
	for name, tool := range map[string]Tool{
		"bad name":  {Name: "Say", Description: "d", Effect: Read, Handler: h},
		"no effect": {Name: "mc_x", Description: "d", Handler: h},
		"dup arg":   {Name: "mc_x", Description: "d", Effect: Read, Handler: h, Args: Schema{Str("a", ""), Str("a", "")}},
		"duplicate": {Name: "mc_wait", Description: "d", Effect: Read, Handler: h},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: accepted", name)
				}
			}()
			newTestDispatcher(t).Catalog().Add(tool)
		}()
	}
}

func BenchmarkDispatcherTrivialTool(b *testing.B) {
	d := newTestDispatcher(b)
	req := Request{ID: json.RawMessage(`"c1"`), Tool: "mc_echo", Args: map[string]json.RawMessage{"text": json.RawMessage(`"hi"`)}}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := d.Call(ctx, req); !r.OK {
			b.Fatal(r.Error)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// A call sent after mc_stop must not be cancelled by it, even when the stop
// runs later than the new call is admitted (the order a pipe delivers).
func TestStopSparesCallsAdmittedAfterIt(t *testing.T) {
	d := newTestDispatcher(t)
	ctx := context.Background()
	before := d.Start(ctx, Request{ID: json.RawMessage(`"before"`), Tool: "mc_block"})
	stop := d.Start(ctx, Request{ID: json.RawMessage(`"stop"`), Tool: "mc_stop"})
	after := d.Start(ctx, Request{ID: json.RawMessage(`"after"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage(`50`)}})
	beforeDone := make(chan Response, 1)
	go func() { beforeDone <- before() }()
	afterDone := make(chan Response, 1)
	go func() { afterDone <- after() }()
	r := stop()
	if string(r.Result) != `{"stopped":true,"cancelled":["before"]}` {
		t.Fatalf("stop: %s", r.Result)
	}
	if r := <-afterDone; !r.OK {
		t.Fatalf("the call sent after the stop was cancelled: %+v", r)
	}
	if r := <-beforeDone; r.OK || !strings.Contains(r.Error, "stopped by mc_stop") {
		t.Fatalf("%+v", r)
	}
}

func TestIDString(t *testing.T) {
	for raw, want := range map[string]string{`"c1"`: "c1", `"a\"b"`: `a"b`, `"\u00e9"`: "é", `42`: "42", `-1.5`: "-1.5"} {
		if got := idString(json.RawMessage(raw)); got != want {
			t.Errorf("%s: got %q, want %q", raw, got, want)
		}
	}
}

// TestCancelStopsThatCallAlone: Cancel (an MCP client's cancellation, an
// attached console's stop of its call) works on the one running table that
// mc_stop and mc_leave use. It stops the call whose raw id it is given, and
// no other: the call answers that its caller cancelled it, and is listed as
// cancelled until it answers. It cancels nothing twice, nothing it does not
// know (a string "7" is not the number 7), and no background task; and an
// mc_stop after it lists only what the stop itself interrupted, each id as
// it was sent. The table also keeps each call's request (raw id, arguments,
// origin) for a console that attaches while it runs.
func TestCancelStopsThatCallAlone(t *testing.T) {
	d := newTestDispatcher(t)
	release := make(chan struct{})
	d.Catalog().Add(Tool{Name: "mc_unwind", Description: "waits until cancelled, then until released", Effect: Read,
		Handler: func(ctx context.Context, _ Args) (any, error) { <-ctx.Done(); <-release; return nil, ctx.Err() }})
	ctx := WithOrigin(context.Background(), OriginMCP)
	run := func(req Request) chan Response {
		done := make(chan Response, 1)
		start := d.Start(ctx, req)
		go func() { done <- start() }()
		return done
	}
	cancelled := run(Request{ID: json.RawMessage(`7`), Tool: "mc_unwind"})
	stopped := run(Request{ID: json.RawMessage(`5`), Tool: "mc_block"})
	waiting := run(Request{ID: json.RawMessage(`"w"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage(`600000`)}})
	if r := call(d, "f1", "mc_follow_forever", ""); !r.OK {
		t.Fatalf("%+v", r)
	}

	var task RunningCall
	for _, r := range d.Running() {
		switch {
		case r.Background:
			task = r
			if len(r.RawID) != 0 || r.Tool != "follow" {
				t.Errorf("the background task is listed as %+v", r)
			}
		case string(r.RawID) == `"w"`:
			if r.Origin != OriginMCP || string(r.Args["ms"]) != `600000` || r.Cancelled {
				t.Errorf("the running table does not keep the request as it came: %+v", r)
			}
		}
	}
	if task.ID == "" {
		t.Fatalf("no background task listed: %+v", d.Running())
	}

	if !d.Cancel(json.RawMessage(`7`), ErrCancelled) {
		t.Fatal("Cancel did not find call 7")
	}
	for id, why := range map[string]string{`7`: "it is already cancelled", `"7"`: "a string id is not the number", `"nope"`: "no such call", task.ID: "a background task is not a call", ``: "an empty id"} {
		if d.Cancel(json.RawMessage(id), ErrCancelled) {
			t.Errorf("Cancel(%s) cancelled something: %s", id, why)
		}
	}
	for _, r := range d.Running() {
		if want := string(r.RawID) == `7`; r.Cancelled != want {
			t.Errorf("after Cancel(7), the running table lists %s as cancelled=%v", r.ID, r.Cancelled)
		}
	}

	// Call 7 is still unwinding (it waits for release), but its caller
	// owns its end: the stop does not list it.
	stop := call(d, "s", "mc_stop", "")
	if want := `{"stopped":true,"cancelled":[5,"w","` + task.ID + `"]}`; string(stop.Result) != want {
		t.Fatalf("mc_stop answered %s, want %s", stop.Result, want)
	}
	close(release)
	if r := <-cancelled; r.OK || !strings.Contains(r.Error, "mc_unwind was stopped after") || !strings.Contains(r.Error, "because its caller cancelled it") {
		t.Errorf("the cancelled call answered %+v", r)
	}
	for _, done := range []chan Response{stopped, waiting} {
		if r := <-done; r.OK || !strings.Contains(r.Error, "stopped by mc_stop") {
			t.Errorf("a stopped call answered %+v", r)
		}
	}
}
