package protocol

import (
	"context"
	"encoding/json"
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
