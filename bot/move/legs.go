package move

import (
	"context"
	"errors"
	"fmt"

	"github.com/blockmate/blockmate/protocol"
)

// The bot has one pair of legs. A walk (Go, Follow, and every skill's
// GoNear) takes them; a walk that another call starts takes them over, and
// the walk it replaces ends at once with a *Failure whose Code is
// "taken_over" ("stopped: mc_collect took over"), so that its call answers
// instead of waiting for ever on a walk that is no longer the body's. The
// walks of one call (a collect going from block to block, a follow
// re-planning) share the legs and never end one another.

// legs is who has the bot's legs: the call (by its dispatcher id, or the
// claim itself outside a dispatched call) and each of its walks' cancels.
type legs struct {
	call    string
	walks   map[int]context.CancelCauseFunc
	nextID  int
	ownerOf string // the tool (or walk kind) that holds them, for messages
}

// takenOver is the cause a walk's context is cancelled with when another
// call takes the legs.
type takenOver struct{ by string }

func (t *takenOver) Error() string { return "stopped: " + t.by + " took over" }

type legsKey struct{}

// claim takes the legs for a walk of kind for the call ctx belongs to and
// returns the walk's context (cancelled with a *takenOver when another
// call takes them) and a release func. A walk inside a walk of the same
// claim (Follow's Go) or of the same call keeps the claim it has.
func (m *Mover) claim(ctx context.Context, kind string) (context.Context, func()) {
	by, ok := protocol.CallTool(ctx)
	if !ok {
		by = kind
	}
	call, _ := protocol.CallID(ctx)
	m.mu.Lock()
	if l, _ := ctx.Value(legsKey{}).(*legs); l != nil && l == m.legs {
		m.mu.Unlock()
		return ctx, func() {}
	}
	wctx, cancel := context.WithCancelCause(ctx)
	var victims []context.CancelCauseFunc
	l := m.legs
	if l == nil || call == "" || l.call != call {
		if l != nil {
			for _, c := range l.walks {
				victims = append(victims, c)
			}
		}
		l = &legs{call: call, walks: map[int]context.CancelCauseFunc{}, ownerOf: by}
		m.legs = l
	}
	id := l.nextID
	l.nextID++
	l.walks[id] = cancel
	m.mu.Unlock()
	for _, c := range victims {
		c(&takenOver{by: by})
	}
	return context.WithValue(wctx, legsKey{}, l), func() {
		m.mu.Lock()
		delete(l.walks, id)
		if len(l.walks) == 0 && m.legs == l {
			m.legs = nil
		}
		m.mu.Unlock()
		cancel(nil)
	}
}

// tookOver is the walk's end when another call took the legs: a
// *Failure saying which, and where the bot stood; nil otherwise.
func (m *Mover) tookOver(ctx context.Context, walked int) error {
	var t *takenOver
	if !errors.As(context.Cause(ctx), &t) {
		return nil
	}
	feet, _ := m.Position()
	return &Failure{Code: "taken_over", Reason: t.Error(), NextStep: fmt.Sprintf("the bot's legs are %s's now; call again once it has answered, or mc_stop it first", t.by), Position: feet, Walked: walked}
}
