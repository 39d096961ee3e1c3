package protocol

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// StartTask registers work that no call started but that the bot does by
// itself (reconnecting after a lost connection), so that mc_status lists it
// as a background task and mc_stop cancels it like any other. It returns
// the context the work must honour and a done func to call when it ends.
func (d *Dispatcher) StartTask(name string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	d.mu.Lock()
	d.nextTask++
	key := fmt.Sprintf("%s#%d", name, d.nextTask)
	d.seq++
	task := &inflight{RunningCall: RunningCall{ID: key, Tool: name, Started: time.Now(), Background: true}, ctx: ctx, cancel: cancel, background: true, seq: d.seq, ended: make(chan struct{})}
	d.running[key] = task
	d.mu.Unlock()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			task.interrupted = ctx.Err() != nil
			cancel(nil)
			close(task.ended)
			d.mu.Lock()
			delete(d.running, key)
			d.mu.Unlock()
		})
	}
}

// CallTool returns the name of the tool whose dispatched call ctx belongs
// to, and false outside a dispatched call: the body names the call that
// took its legs over from another.
func CallTool(ctx context.Context) (string, bool) {
	info, ok := ctx.Value(callKey{}).(*callInfo)
	if !ok {
		return "", false
	}
	return info.tool, true
}
