package tools

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/protocol"
)

// TestCallsDuringAReconnect: after a kick that is not final, an in-world
// tool answers "reconnecting, call again in a moment" (never a stale
// world), mc_status says reconnecting and lists the retrying as a task,
// and mc_stop ends it like any running task.
func TestCallsDuringAReconnect(t *testing.T) {
	waits := make(chan time.Duration, 1)
	never := make(chan time.Time)
	opts := bot.Options{Reconnect: bot.ReconnectOptions{After: func(d time.Duration) <-chan time.Time {
		waits <- d
		return never
	}}}
	w := newScriptedWorldWith(t, 769, opts, nil, func(f *fakeServer, cmd string) {
		if cmd == "restart" {
			f.Send(mcdata.ClientboundPlayKickDisconnect, func(w *wire.Writer) { fakeserver.NBTString(w, "Server closed") })
		}
	})
	protocol.RegisterBuiltins(w.cat, w.d)
	callN(t, w.d, "mc_command", `{"command":"restart"}`)
	<-waits
	r := callN(t, w.d, "mc_get_position", "")
	if r.OK || !strings.HasPrefix(r.Error, "reconnecting: ") || !strings.Contains(r.Error, "call again in a moment") {
		t.Errorf("mc_get_position during the reconnect: %+v", r)
	}
	var st api.Status
	_ = json.Unmarshal(callN(t, w.d, "mc_status", "").Result, &st)
	if st.State != "reconnecting" || !strings.Contains(st.Reason, "attempt 1") || len(st.Task) != 1 || st.Task[0].Tool != "reconnect" {
		t.Errorf("mc_status during the reconnect: state %q reason %q task %+v", st.State, st.Reason, st.Task)
	}
	stop := callN(t, w.d, "mc_stop", "")
	if !stop.OK || !strings.Contains(string(stop.Result), "reconnect#") {
		t.Errorf("mc_stop = %s %s", stop.Result, stop.Error)
	}
	waitFor(t, func() bool { _, ok := w.c.Reconnecting(); return !ok }, "the retrying to end")
	if r := callN(t, w.d, "mc_get_position", ""); r.OK || !strings.HasPrefix(r.Error, bot.ErrNotConnected.Error()) {
		t.Errorf("mc_get_position after mc_stop: %+v", r)
	}
}
