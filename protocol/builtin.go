package protocol

import (
	"context"
	"encoding/json"
	"time"
)

// RegisterBuiltins adds the tools that belong to the dispatcher itself:
// mc_stop, mc_wait, mc_task_result and mc_list_tools.
func RegisterBuiltins(c *Catalog, d *Dispatcher) {
	c.Add(Tool{
		Name: "mc_stop",
		Description: "Stops whatever the bot is doing right now: every running tool call and background task is cancelled, and each call answers with an error saying it was stopped (mc_obtain with its answer saying so, what was done and what remains); a walk (mc_goto, mc_goto_player, mc_follow) lets go of the keys at the next game tick. " +
			"Use it when the player says stop, or before changing plans. It is not sticky: the very next call runs normally. Returns the ids of the calls it cancelled, each as it was sent (a number stays a number); a call that finished on its own as the stop arrived, or that something else (mc_leave, or its own caller) had already cancelled, is not listed.",
		Effect: Write,
		// Stopping twice stops nothing more, and it touches only the calls
		// blockmate runs.
		Idempotent: true,
		LocalOnly:  true,
		Handler: func(ctx context.Context, _ Args) (any, error) {
			// Stop what was admitted before this call, not calls that
			// arrived after it: "stop" means what you are doing now.
			var victims []*inflight
			if info, ok := ctx.Value(callKey{}).(*callInfo); ok {
				victims = d.stopBefore(info.seq, ErrStopped)
			} else {
				victims = d.stop(func(string, *inflight) bool { return true }, ErrStopped)
			}
			return struct {
				Stopped   bool              `json:"stopped"`
				Cancelled []json.RawMessage `json:"cancelled"`
			}{true, interruptedIDs(ctx, victims)}, nil
		},
	})
	c.Add(Tool{
		Name: "mc_wait",
		Description: "Waits the given number of milliseconds, then answers. Use it to let something happen in the game (a plant grow, a player arrive) before looking again. mc_stop ends the wait early. " +
			"A wait longer than a second reports mc_task_progress each second (done and total in milliseconds).",
		Args:      Schema{Int("ms", "how long to wait, in milliseconds (at most 10 minutes)", 0, 600000).Req()},
		Effect:    Read,
		LocalOnly: true,
		Long:      true,
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
	registerTaskResult(c, d)
	c.Add(Tool{
		Name: "mc_list_tools",
		Description: "Lists every tool blockmate offers with its description, argument schema (JSON Schema) and effect (read, write or destructive), and the events it sends (those marked coming=true are not sent yet). " +
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
				Count  int         `json:"count"`
				Tools  []ToolInfo  `json:"tools"`
				Events []EventSpec `json:"events"`
			}{len(infos), infos, EventCatalog}, nil
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
	// Step names, for a call of several steps (mc_craft's intermediates,
	// mc_obtain's plan), the one under way in words ("crafting 4
	// oak_planks for crafting_table", "craft 12 oak_planks"); Done and
	// Total then count steps.
	Step string `json:"step,omitempty"`
}
