package tools

import (
	"context"
	"errors"
	"fmt"

	"github.com/blockmate/blockmate/bot/skill"
	blocks "github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/protocol"
)

// SleepResult is mc_sleep's result.
type SleepResult struct {
	// Sleeping is true when the bot is still asleep in the bed at the
	// end of the call; after a night skipped it is false and Slept is
	// true: an answer says what is true when it is sent.
	Sleeping bool `json:"sleeping"`
	// Slept is true when the server showed the bot asleep during the call.
	Slept bool `json:"slept"`
	// Bed is the bed block the bot used.
	Bed *Vec3 `json:"bed,omitempty"`
	// Woke says how the sleep ended: "morning" (the night was skipped) or
	// "night" (the bot stood up while it was still night: the bed broke).
	Woke string `json:"woke,omitempty"`
	// SleptTicks is how long the bot lay asleep, in game ticks.
	SleptTicks *uint64 `json:"slept_ticks,omitempty"`
	// TimeOfDay is the world's time of day (0–23999) at the end.
	TimeOfDay *int64 `json:"time_of_day,omitempty"`
	Reason    string `json:"reason,omitempty"`
	NextStep  string `json:"next_step,omitempty"`
}

// sleepProgress reports, while the bot lies asleep, how far the night has
// come, as mc_task_progress: done and total in ticks of the time of day,
// from when it lay down to the morning (24000). A night can last minutes
// when other players stay up: a sidecar client shows a bar, and an MCP
// client hears it between its heartbeats. It waits on the bot's own state
// (the server's time updates) and ends with ctx.
func (t *Tools) sleepProgress(ctx context.Context, w *session) {
	id, ok := protocol.CallID(ctx)
	if !ok {
		return
	}
	from := int64(-1)
	for {
		changed := w.Self().Changed()
		me := w.Self().Snapshot()
		if tod, ok := skill.TimeOfDay(me); ok && me.Sleeping {
			if from < 0 {
				from = tod
			}
			if tod >= from {
				t.emit("mc_task_progress", id, protocol.TaskProgress{Tool: "mc_sleep", ID: id, Done: tod - from, Total: 24000 - from})
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}

func (t *Tools) registerSleep(c *protocol.Catalog) {
	c.Add(protocol.Tool{
		Name: "mc_sleep",
		Description: "Sleeps in the nearest bed (within 32 blocks) as a player does: walks within the server's reach of it, right-clicks it, and once the server shows the bot asleep waits until it wakes: in the morning, when every player in the world has slept long enough for the night to be skipped. The answer says what is true at its end: slept=true and woke=\"morning\" after a night skipped (sleeping=false: the bot is up again). " +
			fmt.Sprintf("Beds work only at night (time of day %d to %d in clear weather) or in a thunderstorm, with no monsters near and in the overworld; when the server refuses, sleeping=false and reason says why in the game's words (it is day, too far away, occupied, monsters nearby). ", skill.NightStart, skill.NightEnd) +
			"mc_stop gets the bot out of bed.",
		Effect: protocol.Write,
		Long:   true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			// The click is mc_use_block's: walk within reach, look at the
			// block, use_item_on, and wait for the server's answer.
			use := func(ctx context.Context, p blocks.BlockPos) error {
				r, err := w.Dig().Use(ctx, p)
				if err != nil {
					return err
				}
				if !r.Used {
					return errors.New(r.Reason)
				}
				return nil
			}
			progress, stopProgress := context.WithCancel(ctx)
			go t.sleepProgress(progress, w)
			r, err := w.Skills().Sleep(ctx, use)
			stopProgress()
			if err != nil {
				// Stopped in bed, the skill has sent the leave-bed action.
				return nil, stopped(ctx, "the sleep", err)
			}
			out := SleepResult{Sleeping: r.Sleeping && r.Woke == "", Slept: r.Sleeping, Woke: r.Woke, Reason: r.Reason, NextStep: r.NextStep}
			if r.HasBed {
				out.Bed = &Vec3{X: float64(r.Bed.X), Y: float64(r.Bed.Y), Z: float64(r.Bed.Z)}
			}
			if r.Sleeping {
				out.SleptTicks = ptr(r.SleptTicks)
			}
			if r.HasTime {
				out.TimeOfDay = ptr(r.TimeOfDay)
			}
			return out, nil
		},
	})
}
