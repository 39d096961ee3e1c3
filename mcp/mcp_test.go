package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/blockmate/blockmate/mcp"
	"github.com/blockmate/blockmate/protocol"
)

// session is one way of reaching the server: a transport and an era.
type session struct {
	name  string
	start func(t *testing.T, ctx context.Context, f *fixture, h *heard) *sdk.ClientSession
}

// sessions lists every transport × era the client-facing tests run over,
// with the official Go SDK's client.
func sessions() []session {
	var out []session
	for _, era := range eras {
		out = append(out,
			session{"stdio/" + era, func(t *testing.T, ctx context.Context, f *fixture, h *heard) *sdk.ClientSession {
				return connectPipes(t, ctx, f, era, h)
			}},
			session{"http/" + era, func(t *testing.T, ctx context.Context, f *fixture, h *heard) *sdk.ClientSession {
				return connectHTTP(t, ctx, httpServer(t, f, "s3cret"), "s3cret", era, h)
			}},
		)
	}
	return out
}

func forEachSession(t *testing.T, run func(t *testing.T, ctx context.Context, f *fixture, cs *sdk.ClientSession, h *heard)) {
	for _, s := range sessions() {
		t.Run(s.name, func(t *testing.T) {
			ctx := testContext(t)
			f := newFixture(t)
			h := newHeard()
			run(t, ctx, f, s.start(t, ctx, f, h), h)
		})
	}
}

// TestToolsMatchTheCatalog lists the tools and checks each against its
// catalog entry: name, description, input schema, annotations.
func TestToolsMatchTheCatalog(t *testing.T) {
	forEachSession(t, func(t *testing.T, ctx context.Context, f *fixture, cs *sdk.ClientSession, _ *heard) {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		catalog := f.d.Catalog().Tools()
		if len(res.Tools) != len(catalog) {
			t.Fatalf("listed %d tools, the catalog has %d", len(res.Tools), len(catalog))
		}
		listed := map[string]*sdk.Tool{}
		for _, tool := range res.Tools {
			listed[tool.Name] = tool
		}
		for _, want := range catalog {
			got, ok := listed[want.Name]
			if !ok {
				t.Errorf("%s is in the catalog but not listed", want.Name)
				continue
			}
			if got.Description != want.Description {
				t.Errorf("%s: description %q, catalog says %q", want.Name, got.Description, want.Description)
			}
			wantSchema, _ := want.Args.MarshalJSON()
			if !sameJSON(t, got.InputSchema, wantSchema) {
				gotSchema, _ := json.Marshal(got.InputSchema)
				t.Errorf("%s: input schema\n%s\ncatalog renders\n%s", want.Name, gotSchema, wantSchema)
			}
			checkAnnotations(t, want, got.Annotations)
		}
	})
}

// checkAnnotations checks the hints against the mapping documented on
// mcp.Annotations, from the catalog's facts.
func checkAnnotations(t *testing.T, tool *protocol.Tool, a *sdk.ToolAnnotations) {
	t.Helper()
	if a == nil || a.DestructiveHint == nil || a.OpenWorldHint == nil {
		t.Fatalf("%s: annotations incomplete: %+v", tool.Name, a)
	}
	if a.ReadOnlyHint != (tool.Effect == protocol.Read) {
		t.Errorf("%s (effect %s): readOnlyHint %v", tool.Name, tool.Effect, a.ReadOnlyHint)
	}
	if *a.DestructiveHint != (tool.Effect == protocol.Destructive) {
		t.Errorf("%s (effect %s): destructiveHint %v", tool.Name, tool.Effect, *a.DestructiveHint)
	}
	if a.IdempotentHint != (tool.Effect == protocol.Read || tool.Idempotent) {
		t.Errorf("%s (effect %s, idempotent %v): idempotentHint %v", tool.Name, tool.Effect, tool.Idempotent, a.IdempotentHint)
	}
	if *a.OpenWorldHint == tool.LocalOnly {
		t.Errorf("%s (local only %v): openWorldHint %v", tool.Name, tool.LocalOnly, *a.OpenWorldHint)
	}
}

// TestAnnotationsOfKnownTools pins the mapping on tools whose hints a
// person can judge: a wait only reads and stays local, a stop changes
// things but twice is once, breaking is destructive.
func TestAnnotationsOfKnownTools(t *testing.T) {
	f := newFixture(t)
	want := map[string]string{
		"mc_wait":       "readOnly idempotent closed",
		"mc_list_tools": "readOnly idempotent closed",
		"mc_stop":       "idempotent closed",
		"mc_test_break": "destructive idempotent open",
		"mc_test_chat":  "readOnly idempotent open",
	}
	for name, hints := range want {
		tool, _ := f.d.Catalog().Lookup(name)
		a := mcp.Annotations(tool)
		var got []string
		if a.ReadOnlyHint {
			got = append(got, "readOnly")
		}
		if *a.DestructiveHint {
			got = append(got, "destructive")
		}
		if a.IdempotentHint {
			got = append(got, "idempotent")
		}
		if *a.OpenWorldHint {
			got = append(got, "open")
		} else {
			got = append(got, "closed")
		}
		if strings.Join(got, " ") != hints {
			t.Errorf("%s: hints %q, want %q", name, strings.Join(got, " "), hints)
		}
	}
}

func sameJSON(t *testing.T, a any, b []byte) bool {
	t.Helper()
	ra, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var va, vb any
	if json.Unmarshal(ra, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	ca, _ := json.Marshal(va)
	cb, _ := json.Marshal(vb)
	return string(ca) == string(cb)
}

// TestCalls makes good and bad calls: a good one answers with
// structuredContent and the same JSON as text; a refusal is isError with
// the very sentence the dispatcher gives the sidecar.
func TestCalls(t *testing.T) {
	forEachSession(t, func(t *testing.T, ctx context.Context, f *fixture, cs *sdk.ClientSession, _ *heard) {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "mc_test_break", Arguments: map[string]any{"what": "glass"}})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError || structured(t, res) != `{"broken":"glass"}` || textOf(t, res) != `{"broken":"glass"}` {
			t.Errorf("good call: isError %v, structured %s, text %q", res.IsError, structured(t, res), textOf(t, res))
		}

		bad := []struct {
			tool string
			args map[string]any
		}{
			{"mc_wait", map[string]any{"ms": "four"}},
			{"mc_wait", map[string]any{}},
			{"mc_test_break", map[string]any{"what": "glass", "how": "hard"}},
			{"mc_stauts", map[string]any{}},
		}
		for _, b := range bad {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: b.tool, Arguments: b.args})
			if err != nil {
				t.Fatalf("%s %v: %v", b.tool, b.args, err)
			}
			want := sidecarSentence(t, f.d, b.tool, b.args)
			if !res.IsError || textOf(t, res) != want {
				t.Errorf("%s %v: isError %v, text %q; the sidecar says %q", b.tool, b.args, res.IsError, textOf(t, res), want)
			}
		}
	})
}

// sidecarSentence is the error the sidecar answers the same call with.
func sidecarSentence(t *testing.T, d *protocol.Dispatcher, tool string, args map[string]any) string {
	t.Helper()
	raw := map[string]json.RawMessage{}
	for k, v := range args {
		raw[k], _ = json.Marshal(v)
	}
	resp := d.Call(protocol.WithOrigin(context.Background(), protocol.OriginSidecar), protocol.Request{ID: json.RawMessage(`"x"`), Tool: tool, Args: raw})
	if resp.OK {
		t.Fatalf("%s %v succeeds through the dispatcher", tool, args)
	}
	return resp.Error
}

// TestUntrustedTextIsFenced calls a tool whose catalog entry says its
// result carries other players' text: the text holds the note and the JSON
// inside <game-data>, and a line that tries to close the block cannot.
func TestUntrustedTextIsFenced(t *testing.T) {
	forEachSession(t, func(t *testing.T, ctx context.Context, f *fixture, cs *sdk.ClientSession, _ *heard) {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "mc_test_chat"})
		if err != nil {
			t.Fatal(err)
		}
		note, inside := fenced(t, textOf(t, res))
		if note != mcp.UntrustedNote {
			t.Errorf("note = %q", note)
		}
		var got struct {
			Messages []struct{ Text string }
		}
		if err := json.Unmarshal([]byte(inside), &got); err != nil || len(got.Messages) != 1 || got.Messages[0].Text != injection {
			t.Errorf("the fenced JSON does not decode to the chat line (%v): %s", err, inside)
		}
		if !strings.Contains(structured(t, res), `"messages"`) {
			t.Errorf("structuredContent lost the result: %s", structured(t, res))
		}
		// A tool without untrusted text is not fenced.
		res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "mc_wait", Arguments: map[string]any{"ms": 0}})
		if err != nil || strings.Contains(textOf(t, res), "game-data") {
			t.Errorf("mc_wait's text is fenced or failed (%v): %q", err, textOf(t, res))
		}
	})
}

// TestClientCancelsACall starts a long mc_wait, cancels it from the
// client, and checks that the dispatcher stopped that call alone and it
// answered as stopped; the next call runs normally.
func TestClientCancelsACall(t *testing.T) {
	forEachSession(t, func(t *testing.T, ctx context.Context, f *fixture, cs *sdk.ClientSession, _ *heard) {
		events := make(chan protocol.CallEvent, 16)
		stopObserving := f.d.Observe(func(ev protocol.CallEvent) { events <- ev })
		defer stopObserving()

		// A second long call, from the same client, must survive.
		bystander := make(chan error, 1)
		bctx, bcancel := context.WithCancel(ctx)
		defer bcancel()
		go func() {
			_, err := cs.CallTool(bctx, &sdk.CallToolParams{Name: "mc_wait", Arguments: map[string]any{"ms": 600000}})
			bystander <- err
		}()
		bystanderID := waitStarted(t, ctx, events, "")

		callCtx, cancel := context.WithCancel(ctx)
		answered := make(chan error, 1)
		go func() {
			_, err := cs.CallTool(callCtx, &sdk.CallToolParams{Name: "mc_wait", Arguments: map[string]any{"ms": 600000}})
			answered <- err
		}()
		id := waitStarted(t, ctx, events, bystanderID)
		cancel()

		var finished protocol.CallEvent
		for finished.Phase != protocol.Finished || string(finished.ID) != id {
			select {
			case finished = <-events:
			case <-ctx.Done():
				t.Fatal("the cancelled call never finished in the dispatcher")
			}
		}
		if finished.Origin != protocol.OriginMCP || finished.Response.OK || !strings.Contains(finished.Response.Error, "mc_wait was stopped after") || !strings.Contains(finished.Response.Error, "its caller cancelled it") {
			t.Errorf("the cancelled call answered %+v from %s", finished.Response, finished.Origin)
		}
		if err := <-answered; !errors.Is(err, context.Canceled) {
			t.Errorf("the client's CallTool returned %v, want its cancellation", err)
		}
		// The dispatcher reports a call finished a moment before it leaves
		// the running list: the cancelled call may still be listed then,
		// but only as cancelled, and the bystander must run on untouched.
		running := f.d.Running()
		bystanderRuns := false
		for _, rc := range running {
			switch fmt.Sprintf("%q", rc.ID) {
			case bystanderID:
				bystanderRuns = !rc.Cancelled
			case id:
				if !rc.Cancelled {
					t.Errorf("the cancelled call still runs uncancelled: %+v", rc)
				}
			default:
				t.Errorf("after cancelling one call, another runs: %+v", rc)
			}
		}
		if !bystanderRuns {
			t.Errorf("after cancelling one call, running = %+v; want the bystander %s still running", running, bystanderID)
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "mc_wait", Arguments: map[string]any{"ms": 0}})
		if err != nil || res.IsError {
			t.Errorf("the next call after a cancel: %v %+v", err, res)
		}
		bcancel()
		<-bystander
	})
}

// waitStarted returns the raw id of the next mc_wait call that starts
// other than except.
func waitStarted(t *testing.T, ctx context.Context, events <-chan protocol.CallEvent, except string) string {
	t.Helper()
	for {
		select {
		case ev := <-events:
			if ev.Phase == protocol.Started && ev.Tool == "mc_wait" && string(ev.ID) != except {
				return string(ev.ID)
			}
		case <-ctx.Done():
			t.Fatal("the call never started")
		}
	}
}

// TestProgressReachesTheCall sends a progress token with a wait longer
// than a second: the mc_task_progress the wait reports comes back as
// progress notifications for that call, in milliseconds of the total.
func TestProgressReachesTheCall(t *testing.T) {
	forEachSession(t, func(t *testing.T, ctx context.Context, f *fixture, cs *sdk.ClientSession, h *heard) {
		params := &sdk.CallToolParams{Name: "mc_wait", Arguments: map[string]any{"ms": 1500}}
		params.SetProgressToken("wait-1")
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			t.Fatalf("mc_wait: %v %+v", err, res)
		}
		// The notification is sent before the answer, but over HTTP it
		// may be handled on another goroutine: wait for it.
		h.waitFor(t, ctx, "a progress notification", func(h *heard) bool { return len(h.progress) > 0 }, nil)
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, p := range h.progress {
			if p.ProgressToken != "wait-1" || p.Total != 1500 || p.Progress <= 0 || p.Progress > 1500 || !strings.HasPrefix(p.Message, "mc_wait: ") {
				t.Errorf("progress %+v; want token wait-1, total 1500, 0 < progress ≤ 1500", p)
			}
		}
	})
}

// TestEventsArrive emits events on the dispatcher's bus and checks they
// reach the client: as log messages in the 2025 era, and as updates of the
// subscribed events resource in both, whose content is fenced.
func TestEventsArrive(t *testing.T) {
	forEachSession(t, func(t *testing.T, ctx context.Context, f *fixture, cs *sdk.ClientSession, h *heard) {
		era := cs.InitializeResult().ProtocolVersion
		subscribed := make(chan error, 1)
		go func() { subscribed <- cs.Subscribe(ctx, &sdk.SubscribeParams{URI: mcp.EventsURI}) }()
		n := 0
		emit := func() {
			n++
			f.d.Events().Emit("mc_player_chat", "", map[string]any{"username": "Mallory", "message": fmt.Sprintf("line %d %s", n, injection), "untrusted": true})
		}
		h.waitFor(t, ctx, "a resource update", func(h *heard) bool { return len(h.updates) > 0 }, emit)
		if era < "2026" {
			h.waitFor(t, ctx, "a log message", func(h *heard) bool { return len(h.logs) > 0 }, emit)
			h.mu.Lock()
			l := h.logs[0]
			h.mu.Unlock()
			data, _ := json.Marshal(l.Data)
			var ev struct {
				Type, Name string
				Payload    struct{ Username, Message string }
			}
			if err := json.Unmarshal(data, &ev); err != nil || l.Logger != "blockmate.events" || l.Level != "notice" ||
				ev.Type != "event" || ev.Name != "mc_player_chat" || ev.Payload.Username != "Mallory" || !strings.HasSuffix(ev.Payload.Message, injection) {
				t.Errorf("log message: logger %q level %q data %s", l.Logger, l.Level, data)
			}
		}
		res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.EventsURI})
		if err != nil || len(res.Contents) != 1 {
			t.Fatalf("reading %s: %v %+v", mcp.EventsURI, err, res)
		}
		_, inside := fenced(t, res.Contents[0].Text)
		var got struct {
			Count  int
			Events []struct {
				Name    string
				Payload struct{ Message string }
			}
		}
		if err := json.Unmarshal([]byte(inside), &got); err != nil || got.Count == 0 || got.Events[0].Name != "mc_player_chat" || !strings.HasSuffix(got.Events[0].Payload.Message, injection) {
			t.Errorf("events resource (%v): %s", err, inside)
		}
		if era < "2026" {
			if err := <-subscribed; err != nil {
				t.Errorf("subscribe: %v", err)
			}
		}
	})
}

// TestTwoHTTPClientsAtOnce runs two clients, one per era, calling at the
// same time: each gets its own answers.
func TestTwoHTTPClientsAtOnce(t *testing.T) {
	ctx := testContext(t)
	f := newFixture(t)
	srv := httpServer(t, f, "tok")
	var wg sync.WaitGroup
	for i, era := range eras {
		cs := connectHTTP(t, ctx, srv, "tok", era, nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				what := fmt.Sprintf("c%d-%d", i, j)
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "mc_test_break", Arguments: map[string]any{"what": what}})
				if err != nil {
					t.Errorf("client %d: %v", i, err)
					return
				}
				if got := structured(t, res); got != `{"broken":"`+what+`"}` {
					t.Errorf("client %d asked to break %s and got %s", i, what, got)
				}
			}
		}()
	}
	wg.Wait()
}
