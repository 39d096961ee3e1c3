package main

import (
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// Through the real sidecar: a call sent with a numeric id is listed by
// mc_status's task and by mc_stop's cancelled with that number, not a string
// of it, so a parent can match what it sent.
func TestNumericIDsStayNumbersInStatusAndStop(t *testing.T) {
	sc := sidecartest.Start(t, sidecartest.Build(t))
	ctx, cancel := testctx.New(t)
	defer cancel()
	sc.Send(`{"id":7,"tool":"mc_wait","args":{"ms":600000}}`)
	for i := 0; ; i++ {
		st := sc.Call(ctx, "mc_status", map[string]any{})
		if strings.Contains(string(st.Result), `"task":[{"id":7,"tool":"mc_wait"}]`) {
			break
		}
		if !st.OK || ctx.Err() != nil {
			t.Fatalf("mc_status never listed the numeric id 7 as a number: %s", st.Raw)
		}
		time.Sleep(5 * time.Millisecond)
	}
	stop := sc.Call(ctx, "mc_stop", map[string]any{})
	if string(stop.Result) != `{"stopped":true,"cancelled":[7]}` {
		t.Errorf("mc_stop = %s", stop.Raw)
	}
	if r := sc.WaitReply(ctx, "7"); r.OK || !strings.HasPrefix(r.Raw, `{"id":7,"ok":false,"error":"mc_wait was stopped by mc_stop`) {
		t.Errorf("the stopped call answered %s", r.Raw)
	}
}
