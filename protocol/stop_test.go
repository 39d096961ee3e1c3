package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// mc_stop's cancelled and the running table give each id as it came: a
// number stays a number, a string stays a string.
func TestStopAndRunningGiveIDsAsTheyCame(t *testing.T) {
	d := newTestDispatcher(t)
	ctx := context.Background()
	num := d.Start(ctx, Request{ID: json.RawMessage(`7`), Tool: "mc_block"})
	str := d.Start(ctx, Request{ID: json.RawMessage(`"7"`), Tool: "mc_block"})
	done := make(chan Response, 2)
	go func() { done <- num() }()
	go func() { done <- str() }()
	waitRunning(t, d, 2)
	running, err := Marshal(d.Running())
	if err != nil {
		t.Fatal(err)
	}
	if string(running) != `[{"id":7,"tool":"mc_block"},{"id":"7","tool":"mc_block"}]` && string(running) != `[{"id":"7","tool":"mc_block"},{"id":7,"tool":"mc_block"}]` {
		t.Errorf("running = %s", running)
	}
	r := call(d, "s", "mc_stop", "")
	if string(r.Result) != `{"stopped":true,"cancelled":[7,"7"]}` {
		t.Errorf("mc_stop = %s", r.Result)
	}
	for range 2 {
		if r := <-done; r.OK {
			t.Errorf("a stopped call answered %+v", r)
		}
	}
}

// A call that finishes normally although the stop reached it was not
// stopped: mc_stop does not list it. One that answers with the stop's
// error is listed.
func TestStopListsOnlyCallsItInterrupted(t *testing.T) {
	d := newTestDispatcher(t)
	d.Catalog().Add(Tool{Name: "mc_finish_anyway", Description: "finishes normally when cancelled", Effect: Read,
		Handler: func(ctx context.Context, _ Args) (any, error) {
			<-ctx.Done()
			return struct {
				Done bool `json:"done"`
			}{true}, nil
		}})
	ctx := context.Background()
	stubborn := d.Start(ctx, Request{ID: json.RawMessage(`"stubborn"`), Tool: "mc_finish_anyway"})
	blocked := d.Start(ctx, Request{ID: json.RawMessage(`"blocked"`), Tool: "mc_block"})
	stubbornDone, blockedDone := make(chan Response, 1), make(chan Response, 1)
	go func() { stubbornDone <- stubborn() }()
	go func() { blockedDone <- blocked() }()
	waitRunning(t, d, 2)
	r := call(d, "s", "mc_stop", "")
	if string(r.Result) != `{"stopped":true,"cancelled":["blocked"]}` {
		t.Errorf("mc_stop = %s; want only the call it interrupted", r.Result)
	}
	if r := <-stubbornDone; !r.OK || string(r.Result) != `{"done":true}` {
		t.Errorf("the call that finished normally answered %+v", r)
	}
	if r := <-blockedDone; r.OK || !strings.Contains(r.Error, "stopped by mc_stop") {
		t.Errorf("the stopped call answered %+v", r)
	}
}

// One running table for mc_stop and CancelBefore (mc_leave's): each
// cancels only what nobody has cancelled yet and lists only that, so no
// call is claimed twice; the table marks both kinds as cancelled, each
// with its id as it came.
func TestStopAndCancelBeforeShareOneTable(t *testing.T) {
	cause := errors.New("cancelled by mc_leave")
	for round := 0; round < 50; round++ {
		d := newTestDispatcher(t)
		d.Catalog().Add(Tool{Name: "mc_hold", Description: "waits until cancelled", Effect: Read,
			Handler: func(ctx context.Context, _ Args) (any, error) { <-ctx.Done(); return nil, context.Cause(ctx) }})
		ctx := context.Background()
		left := d.Start(ctx, Request{ID: json.RawMessage(`1`), Tool: "mc_hold"})
		stopped := d.Start(ctx, Request{ID: json.RawMessage(`"2"`), Tool: "mc_block"})
		leftDone, stoppedDone := make(chan Response, 1), make(chan Response, 1)
		// The held call does not return until the test lets it: it is
		// still unwinding when mc_stop comes.
		release := make(chan struct{})
		go func() { <-release; leftDone <- left() }()
		go func() { stoppedDone <- stopped() }()
		waitRunning(t, d, 2)
		if ids := d.CancelBefore(ctx, "mc_hold", cause); len(ids) != 1 || ids[0] != "1" {
			t.Fatalf("round %d: CancelBefore cancelled %v", round, ids)
		}
		close(release)
		if r := call(d, "s", "mc_stop", ""); string(r.Result) != `{"stopped":true,"cancelled":["2"]}` {
			t.Fatalf("round %d: mc_stop = %s; want only the call it cancelled itself", round, r.Result)
		}
		if r := <-leftDone; r.OK || r.Error != cause.Error() {
			t.Fatalf("round %d: the call mc_leave cancelled answered %+v", round, r)
		}
		if r := <-stoppedDone; r.OK || !strings.Contains(r.Error, "stopped by mc_stop") {
			t.Fatalf("round %d: the stopped call answered %+v", round, r)
		}
	}

	// A call mc_stop cancelled and that is still unwinding is listed as
	// cancelled, with its numeric id a number, and CancelBefore does not
	// claim it again.
	d := newTestDispatcher(t)
	d.Catalog().Add(Tool{Name: "mc_hold", Description: "waits until released after a cancel", Effect: Read,
		Handler: func(ctx context.Context, _ Args) (any, error) { <-ctx.Done(); return nil, context.Cause(ctx) }})
	release := make(chan struct{})
	held := d.Start(context.Background(), Request{ID: json.RawMessage(`3`), Tool: "mc_hold"})
	heldDone := make(chan Response, 1)
	go func() { <-release; heldDone <- held() }()
	if ids := d.StopBefore(^uint64(0), ErrStopped); len(ids) != 1 || ids[0] != "3" {
		t.Fatalf("StopBefore cancelled %v", ids)
	}
	running := d.Running()
	if len(running) != 1 || !running[0].Cancelled {
		t.Fatalf("the running table after the stop: %+v", running)
	}
	if raw, _ := Marshal(running); string(raw) != `[{"id":3,"tool":"mc_hold"}]` {
		t.Errorf("running = %s", raw)
	}
	if ids := d.CancelBefore(context.Background(), "mc_hold", cause); len(ids) != 0 {
		t.Errorf("CancelBefore claimed %v, which mc_stop had cancelled", ids)
	}
	close(release)
	if r := <-heldDone; r.OK || !strings.Contains(r.Error, "stopped by mc_stop") {
		t.Errorf("the held call answered %+v", r)
	}
}

// halfDone is a result that says it was stopped half-way.
type halfDone struct {
	Done    int  `json:"done"`
	stopped bool // never on the wire
}

func (h halfDone) Interrupted() bool { return h.stopped }

// A call that answers a stop with a result saying so (Interrupted, as
// mc_obtain's answer tells what was done and what remains) is listed as
// cancelled, and its result reaches the caller whole.
func TestStopListsAResultThatSaysItWasStopped(t *testing.T) {
	d := newTestDispatcher(t)
	d.Catalog().Add(Tool{Name: "mc_half_done", Description: "answers a stop with how far it got", Effect: Read,
		Handler: func(ctx context.Context, _ Args) (any, error) {
			<-ctx.Done()
			return halfDone{Done: 3, stopped: true}, nil
		}})
	half := d.Start(context.Background(), Request{ID: json.RawMessage(`"half"`), Tool: "mc_half_done"})
	done := make(chan Response, 1)
	go func() { done <- half() }()
	waitRunning(t, d, 1)
	if r := call(d, "s", "mc_stop", ""); string(r.Result) != `{"stopped":true,"cancelled":["half"]}` {
		t.Errorf("mc_stop = %s", r.Result)
	}
	if r := <-done; !r.OK || string(r.Result) != `{"done":3}` {
		t.Errorf("the stopped call answered %+v", r)
	}
}
