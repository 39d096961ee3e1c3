//go:build unix

package watch_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/internal/testkit/testctx"
	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/watch"
)

func setup(t *testing.T) (*protocol.Dispatcher, string) {
	t.Helper()
	catalog := protocol.NewCatalog()
	d := protocol.NewDispatcher(catalog, protocol.NewBus(nil), nil)
	protocol.RegisterBuiltins(catalog, d)
	path := filepath.Join(t.TempDir(), "bm.sock")
	ln, err := watch.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := watch.Serve(d, ln, watch.ServerOptions{Version: "test"})
	t.Cleanup(srv.Close)
	return d, path
}

func attach(t *testing.T, path string) *watch.Client {
	t.Helper()
	c, err := watch.Attach(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := testctx.New(t)
	t.Cleanup(cancel)
	return ctx
}

// TestSocketIsPrivate: the socket is mode 0600, a second blockmate cannot
// take a live one, and a stale one left by a dead process is replaced.
func TestSocketIsPrivate(t *testing.T) {
	_, path := setup(t)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Errorf("socket mode %v, want a socket with 0600", fi.Mode())
	}
	if _, err := watch.Listen(path); err == nil || !strings.Contains(err.Error(), "already watched") {
		t.Errorf("a second Listen on a live socket: %v", err)
	}
	stale := filepath.Join(t.TempDir(), "stale.sock")
	l, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	ln, err := watch.Listen(stale)
	if err != nil {
		t.Fatalf("a stale socket was not replaced: %v", err)
	}
	ln.Close()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("Close left the socket file behind: %v", err)
	}
	regular := filepath.Join(t.TempDir(), "file")
	os.WriteFile(regular, nil, 0o600)
	if _, err := watch.Listen(regular); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("Listen over a regular file: %v", err)
	}
	if _, err := watch.Attach(regular); err == nil || !strings.Contains(err.Error(), "not a watch socket") {
		t.Errorf("Attach to a regular file: %v", err)
	}
	if _, err := watch.Attach(filepath.Join(t.TempDir(), "none")); err == nil || !strings.Contains(err.Error(), "--watch-socket") {
		t.Errorf("Attach to nothing: %v", err)
	}
}

// TestConsolesSeeCallsAndEvents: two consoles attached to one dispatcher
// see a call of another transport start and finish, and an event; each
// gets the catalog; calls made through one run in the dispatcher with the
// console's origin, under its id prefix.
func TestConsolesSeeCallsAndEvents(t *testing.T) {
	d, path := setup(t)
	ctx := ctxFor(t)
	a, b := attach(t, path), attach(t, path)
	if a.IDPrefix() == b.IDPrefix() || a.IDPrefix() == "" {
		t.Fatalf("prefixes %q and %q", a.IDPrefix(), b.IDPrefix())
	}
	if _, ok := a.Catalog().Lookup("mc_wait"); !ok {
		t.Fatal("the console's catalog lacks mc_wait")
	}
	tool, _ := a.Catalog().Lookup("mc_wait")
	real, _ := d.Catalog().Lookup("mc_wait")
	gotSchema, _ := json.Marshal(tool.Args)
	wantSchema, _ := json.Marshal(real.Args)
	if string(gotSchema) != string(wantSchema) || tool.Description != real.Description || tool.LocalOnly != real.LocalOnly {
		t.Errorf("the console's mc_wait differs:\n%s\n%s", gotSchema, wantSchema)
	}

	for _, c := range []*watch.Client{a, b} {
		calls := make(chan protocol.CallEvent, 16)
		c.Observe(func(ev protocol.CallEvent) { calls <- ev })
		events, _ := c.Subscribe(16)
		// Observation starts when the server reads the attach line; a
		// call from the console itself is ordered after it.
		c.Call(protocol.WithOrigin(ctx, protocol.OriginInternal), protocol.Request{ID: json.RawMessage(`"` + c.IDPrefix() + `sync"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("0")}})
		resp := d.Call(protocol.WithOrigin(ctx, protocol.OriginSidecar), protocol.Request{ID: json.RawMessage(`"p1"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("0")}})
		if !resp.OK {
			t.Fatal(resp.Error)
		}
		var started, finished bool
		for !started || !finished {
			select {
			case ev := <-calls:
				if string(ev.ID) != `"p1"` || ev.Origin != protocol.OriginSidecar {
					t.Errorf("observed %s from %s; internal calls must not show", ev.ID, ev.Origin)
					continue
				}
				started = started || ev.Phase == protocol.Started
				finished = finished || (ev.Phase == protocol.Finished && ev.Response.OK && strings.Contains(string(ev.Response.Result), "waited_ms"))
			case <-ctx.Done():
				t.Fatal("the console never saw p1 start and finish")
			}
		}
		d.Events().Emit("mc_player_chat", "", map[string]any{"username": "alex", "message": "hi"})
		select {
		case ev := <-events:
			if ev.Name != "mc_player_chat" || !strings.Contains(string(ev.Payload), `"alex"`) || ev.Time.IsZero() {
				t.Errorf("event %s %s at %v", ev.Name, ev.Payload, ev.Time)
			}
		case <-ctx.Done():
			t.Fatal("the event never reached the console")
		}
	}

	seen := make(chan protocol.CallEvent, 16)
	stop := d.Observe(func(ev protocol.CallEvent) { seen <- ev })
	defer stop()
	resp := a.Call(protocol.WithOrigin(ctx, protocol.OriginConsole), protocol.Request{ID: json.RawMessage(`"` + a.IDPrefix() + `c1"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("1")}})
	if !resp.OK {
		t.Fatalf("a console's call: %s", resp.Error)
	}
	if ev := <-seen; ev.Origin != protocol.OriginConsole || string(ev.ID) != `"`+a.IDPrefix()+`c1"` {
		t.Errorf("the dispatcher saw the console's call as %s from %s", ev.ID, ev.Origin)
	}
	resp = a.Call(ctx, protocol.Request{ID: json.RawMessage(`"c9"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("1")}})
	if resp.OK || !strings.Contains(resp.Error, "must start with") {
		t.Errorf("a call without the prefix: %+v", resp)
	}
}

// TestStopFromAConsole: the stop a console sends cancels the parent's
// running call, which answers as stopped.
func TestStopFromAConsole(t *testing.T) {
	d, path := setup(t)
	ctx := ctxFor(t)
	c := attach(t, path)
	started := make(chan struct{}, 1)
	stop := d.Observe(func(ev protocol.CallEvent) {
		if ev.Phase == protocol.Started && string(ev.ID) == `"long"` {
			started <- struct{}{}
		}
	})
	defer stop()
	answer := make(chan protocol.Response, 1)
	go func() {
		answer <- d.Call(ctx, protocol.Request{ID: json.RawMessage(`"long"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("600000")}})
	}()
	<-started
	resp := c.Call(ctx, protocol.Request{ID: json.RawMessage(`"` + c.IDPrefix() + `c1"`), Tool: "mc_stop"})
	if !resp.OK || !strings.Contains(string(resp.Result), `"long"`) {
		t.Errorf("mc_stop from the console: %+v", resp)
	}
	if got := <-answer; got.OK || !strings.Contains(got.Error, "stopped by mc_stop") {
		t.Errorf("the parent's call answered %+v", got)
	}
}

// TestDetachChangesNothing: a console that disconnects in the middle of
// its own call leaves the parent serving, and the call runs to its end.
func TestDetachChangesNothing(t *testing.T) {
	d, path := setup(t)
	ctx := ctxFor(t)
	c := attach(t, path)
	finished := make(chan protocol.CallEvent, 1)
	stop := d.Observe(func(ev protocol.CallEvent) {
		if ev.Phase == protocol.Finished && strings.HasSuffix(string(ev.ID), `c1"`) {
			finished <- ev
		}
	})
	defer stop()
	go c.Call(ctx, protocol.Request{ID: json.RawMessage(`"` + c.IDPrefix() + `c1"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("300")}})
	for len(d.Running()) == 0 {
		time.Sleep(time.Millisecond)
	}
	c.Close()
	if ev := <-finished; !ev.Response.OK {
		t.Errorf("the detached console's call ended %+v", ev.Response)
	}
	resp := d.Call(ctx, protocol.Request{ID: json.RawMessage(`"after"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("0")}})
	if !resp.OK {
		t.Errorf("the parent after a detach: %+v", resp)
	}
	again := attach(t, path)
	if r := again.Call(ctx, protocol.Request{ID: json.RawMessage(`"` + again.IDPrefix() + `c1"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("0")}}); !r.OK {
		t.Errorf("a console attaching after another left: %+v", r)
	}
}

// TestParentGoing: when the watched blockmate ends, the console hears of
// it and calls answer with a sentence instead of hanging.
func TestParentGoing(t *testing.T) {
	catalog := protocol.NewCatalog()
	d := protocol.NewDispatcher(catalog, protocol.NewBus(nil), nil)
	protocol.RegisterBuiltins(catalog, d)
	path := filepath.Join(t.TempDir(), "bm.sock")
	ln, err := watch.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := watch.Serve(d, ln, watch.ServerOptions{})
	ctx := ctxFor(t)
	c := attach(t, path)
	events, _ := c.Subscribe(4)
	srv.Close()
	<-c.Done()
	if ev := <-events; ev.Name != watch.EndedEvent {
		t.Errorf("event %s", ev.Name)
	}
	resp := c.Call(ctx, protocol.Request{ID: json.RawMessage(`"` + c.IDPrefix() + `c1"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("0")}})
	if resp.OK || !strings.Contains(resp.Error, "has ended") {
		t.Errorf("a call after the end: %+v", resp)
	}
}

// TestAttachSeesHistory: a console that attaches mid-session is shown what
// came before (the latest events, the latest finished calls, oldest first)
// and what runs, and then everything after, each thing once.
func TestAttachSeesHistory(t *testing.T) {
	d, path := setup(t)
	ctx := ctxFor(t)
	// Events go through the server's listener: wait until one has been
	// kept, so the history is not still on its way.
	for i := range 250 {
		d.Events().Emit("mc_player_chat", "", map[string]any{"username": "alex", "message": "line " + strconv.Itoa(i)})
	}
	for i := range 3 {
		if r := d.Call(protocol.WithOrigin(ctx, protocol.OriginSidecar), protocol.Request{ID: json.RawMessage(`"old` + strconv.Itoa(i) + `"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("0")}}); !r.OK {
			t.Fatal(r.Error)
		}
	}
	d.Call(protocol.WithOrigin(ctx, protocol.OriginInternal), protocol.Request{ID: json.RawMessage(`"hidden"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("0")}})
	started := make(chan struct{}, 1)
	stopObserving := d.Observe(func(ev protocol.CallEvent) {
		if ev.Phase == protocol.Started && string(ev.ID) == `"running"` {
			started <- struct{}{}
		}
	})
	defer stopObserving()
	go d.Call(protocol.WithOrigin(ctx, protocol.OriginSidecar), protocol.Request{ID: json.RawMessage(`"running"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("600000")}})
	<-started
	// The last chat line is the marker that the server's listener has
	// taken everything before it.
	d.Events().Emit("mc_player_chat", "", map[string]any{"username": "alex", "message": "marker"})
	var c *watch.Client
	for {
		c = attach(t, path)
		if evs, _ := c.Replay(); len(evs) > 0 && strings.Contains(string(evs[len(evs)-1].Payload), "marker") {
			break
		}
		c.Close()
	}

	events, calls := c.Replay()
	if len(events) != 200 {
		t.Fatalf("history of %d events, want the latest 200", len(events))
	}
	if !strings.Contains(string(events[0].Payload), `"line 51"`) || events[0].Time.IsZero() {
		t.Errorf("the oldest event kept is %s at %v, want line 51", events[0].Payload, events[0].Time)
	}
	var ids []string
	for _, ev := range calls {
		if ev.Phase != protocol.Finished || !ev.Response.OK || ev.Origin != protocol.OriginSidecar {
			t.Errorf("history call %s: %+v", ev.ID, ev)
		}
		ids = append(ids, string(ev.ID))
	}
	if strings.Join(ids, " ") != `"old0" "old1" "old2"` {
		t.Errorf("history calls %v, want old0 old1 old2 (internal calls hidden, running ones not finished)", ids)
	}

	observed := make(chan protocol.CallEvent, 16)
	c.Observe(func(ev protocol.CallEvent) { observed <- ev })
	if ev := <-observed; ev.Phase != protocol.Started || string(ev.ID) != `"running"` {
		t.Errorf("first call event after attaching: %s %v, want the running call as started", ev.ID, ev.Phase)
	}
	live, _ := c.Subscribe(16)
	d.Events().Emit("mc_player_chat", "", map[string]any{"username": "alex", "message": "after"})
	if ev := <-live; !strings.Contains(string(ev.Payload), `"after"`) {
		t.Errorf("the first live event is %s, want the one after attaching (history is not repeated)", ev.Payload)
	}
}

// TestSlowConsoleIsToldWhatItLost: a console that stops reading loses
// events and call events rather than hold up the process, and once it
// reads again it is told how many of each it lost.
func TestSlowConsoleIsToldWhatItLost(t *testing.T) {
	d, path := setup(t)
	ctx := ctxFor(t)
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte(`{"type":"attach","token":""}` + "\n")); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReaderSize(conn, 8<<20)
	if hello, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(hello, `{"type":"hello"`) {
		t.Fatalf("hello: %q %v", hello, err)
	}
	// Not reading: the socket's buffer fills, then the console's queues.
	// (Within the 10 s a console may take to read one line, or it is
	// dropped: this takes well under one.)
	for i := range 6000 {
		d.Events().Emit("mc_player_chat", "", map[string]any{"username": "alex", "message": strings.Repeat("x", 200)})
		if i < 2000 {
			d.Call(ctx, protocol.Request{ID: json.RawMessage(strconv.Itoa(i + 1)), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("0")}})
		}
	}
	var lostEvents, lostCalls int
	for lostEvents == 0 || lostCalls == 0 {
		raw, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading: %v (lost events told: %d, calls: %d)", err, lostEvents, lostCalls)
		}
		var l struct {
			Type    string `json:"type"`
			Name    string `json:"name"`
			Payload struct {
				Count int `json:"count"`
			} `json:"payload"`
		}
		json.Unmarshal([]byte(raw), &l)
		switch {
		case l.Type == "event" && l.Name == "mc_events_dropped":
			lostEvents += l.Payload.Count
		case l.Type == "event" && l.Name == protocol.CallEventsDropped:
			lostCalls += l.Payload.Count
		}
	}
	if lostEvents <= 0 || lostEvents > 6000 || lostCalls <= 0 || lostCalls > 4000 {
		t.Errorf("told of %d lost events and %d lost call events", lostEvents, lostCalls)
	}
}
