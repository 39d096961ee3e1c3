package protocol

import (
	"context"
	"time"
)

// RegisterBuiltins adds the tools that belong to the dispatcher itself:
// mc_stop, mc_wait and mc_list_tools.
func RegisterBuiltins(c *Catalog, d *Dispatcher) {
	c.Add(Tool{
		Name: "mc_stop",
		Description: "Stops whatever the bot is doing right now: every running tool call and background task (following, walking, digging) is cancelled and answers with an error saying it was stopped. " +
			"Use it when the player says stop, or before changing plans. It is not sticky: the very next call runs normally. Returns the ids of the calls it cancelled.",
		Effect: Write,
		// Stopping twice stops nothing more, and it touches only the calls
		// blockmate runs.
		Idempotent: true,
		LocalOnly:  true,
		Handler: func(ctx context.Context, _ Args) (any, error) {
			// Stop what was admitted before this call, not calls that
			// arrived after it: "stop" means what you are doing now.
			var cancelled []string
			if info, ok := ctx.Value(callKey{}).(*callInfo); ok {
				cancelled = d.StopBefore(info.seq, ErrStopped)
			} else {
				cancelled = d.Stop("", ErrStopped)
			}
			return struct {
				Stopped   bool     `json:"stopped"`
				Cancelled []string `json:"cancelled"`
			}{true, cancelled}, nil
		},
	})
	c.Add(Tool{
		Name: "mc_wait",
		Description: "Waits the given number of milliseconds, then answers. Use it to let something happen in the game (a plant grow, a player arrive) before looking again. mc_stop ends the wait early. " +
			"A wait longer than a second reports mc_task_progress each second (done and total in milliseconds).",
		Args:      Schema{Int("ms", "how long to wait, in milliseconds (at most 10 minutes)", 0, 600000).Req()},
		Effect:    Read,
		LocalOnly: true,
		Handler: func(ctx context.Context, a Args) (any, error) {
			total := time.Duration(a.Int("ms")) * time.Millisecond
			start := time.Now()
			t := time.NewTimer(total)
			defer t.Stop()
			// A long wait says how far it is, so a client can show a
			// progress bar instead of a call that looks hung.
			var tick <-chan time.Time
			if total > waitProgressEvery {
				ticker := time.NewTicker(waitProgressEvery)
				defer ticker.Stop()
				tick = ticker.C
			}
			id, _ := CallID(ctx)
			for {
				select {
				case <-t.C:
					return struct {
						WaitedMS int64 `json:"waited_ms"`
					}{time.Since(start).Milliseconds()}, nil
				case <-tick:
					d.Events().Emit("mc_task_progress", id, TaskProgress{Tool: "mc_wait", ID: id, Done: time.Since(start).Milliseconds(), Total: total.Milliseconds()})
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
		},
	})
	c.Add(Tool{
		Name: "mc_list_tools",
		Description: "Lists every tool blockmate offers with its description, argument schema (JSON Schema) and effect (read, write or destructive). " +
			"Call it when unsure which tool fits or what arguments one takes.",
		Effect:    Read,
		LocalOnly: true,
		Handler: func(context.Context, Args) (any, error) {
			tools := c.Tools()
			infos := make([]ToolInfo, len(tools))
			for i, t := range tools {
				infos[i] = t.Info()
			}
			return struct {
				Count int        `json:"count"`
				Tools []ToolInfo `json:"tools"`
			}{len(infos), infos}, nil
		},
	})
}

// waitProgressEvery is how often a long mc_wait reports its progress.
const waitProgressEvery = time.Second

// TaskProgress is the payload of mc_task_progress: how far the call id of
// tool has come, done out of total (in the tool's own unit).
type TaskProgress struct {
	Tool  string `json:"tool"`
	ID    string `json:"id"`
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
}
