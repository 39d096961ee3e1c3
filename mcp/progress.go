package mcp

import (
	"context"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/blockmate/blockmate/protocol"
)

// DefaultProgressEvery is how often a call with a progress token hears
// from blockmate when its tool reports nothing: under the 5 s that the
// issue promises, with room for a slow pipe. Clients that reset their
// timeout on progress (the TypeScript SDK's resetTimeoutOnProgress) then
// never give up on a call that is still working.
const DefaultProgressEvery = 4 * time.Second

// Ticker makes the ticker a call's progress heartbeat runs on; tests give
// one they tick by hand.
type Ticker func(every time.Duration) (ticks <-chan time.Time, stop func())

func realTicker(every time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(every)
	return t.C, t.Stop
}

// progressValue keeps a call's progress values strictly increasing, as the
// specification requires of every notification, while it reports both the
// tool's steps and the time that passes between them. A step above the
// last value is sent as it is; a heartbeat, or a step that did not go
// further, moves the value on by a fraction that stays below the next
// whole step (base + n/(n+1)), so the next real step is still above it and
// a night's sleep of heartbeats never runs out of room.
type progressValue struct {
	base  float64
	beats int
	value float64
}

func (v *progressValue) step(done float64) float64 {
	if done > v.value {
		v.base, v.beats, v.value = done, 0, done
		return v.value
	}
	return v.beat()
}

func (v *progressValue) beat() float64 {
	v.beats++
	v.value = v.base + float64(v.beats)/float64(v.beats+1)
	return v.value
}

// sendProgress relays a call's progress to its client until steps is
// closed: each step the tool reports, and every interval a heartbeat that
// says the call is still running and how long it has run, so a client is
// never left in silence while the call works.
func (s *Server) sendProgress(ctx context.Context, ss *sdk.ServerSession, token any, call, tool string, steps <-chan protocol.TaskProgress) {
	ticks, stop := s.ticker(s.progressEvery)
	defer stop()
	var (
		v       progressValue
		last    protocol.TaskProgress
		stepped bool
		beats   int
	)
	send := func(progress float64, message string) {
		p := &sdk.ProgressNotificationParams{ProgressToken: token, Progress: progress, Message: message}
		// A total below the value would read as more than done: a walk
		// whose last step reached its total, still finishing, says none.
		if stepped && float64(last.Total) >= progress {
			p.Total = float64(last.Total)
		}
		if err := ss.NotifyProgress(ctx, p); err != nil {
			s.log.Debug("progress notification not sent", "call", call, "err", err)
		}
	}
	for {
		select {
		case p, ok := <-steps:
			if !ok {
				return
			}
			last, stepped = p, true
			send(v.step(float64(p.Done)), progressMessage(p))
		case <-ticks:
			beats++
			msg := fmt.Sprintf("%s: still running after %v", tool, time.Duration(beats)*s.progressEvery)
			if stepped {
				msg += fmt.Sprintf(", %d of %d so far", last.Done, last.Total)
				if last.Step != "" {
					msg += ", " + last.Step
				}
			}
			send(v.beat(), msg)
		}
	}
}
