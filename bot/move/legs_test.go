package move

import (
	"context"
	"errors"
	"testing"

	"github.com/blockmate/blockmate/geom"
)

// TestAWalkTakesTheLegsOver: a follow walking after a far target is
// taken over by another call's walk: the follow ends at once with a
// "taken_over" *Failure naming the walk that took over (its call answers
// instead of waiting for ever), the new walk arrives, and the body's task
// is the new walk's, never the follow's.
func TestAWalkTakesTheLegsOver(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, flat)
	never := make(chan struct{})
	target := Target{Kind: "follow", Within: 2, ReplanAfter: 3,
		Point: func() (geom.Vec3, bool) { return geom.Vec3{X: 30.5, Y: 64, Z: 0.5}, true },
		Moved: func() <-chan struct{} { return never },
	}
	followed := make(chan struct{})
	var followErr error
	go func() {
		defer close(followed)
		followErr = h.m.Follow(context.Background(), target, nil)
	}()
	for i := 0; i < 200; i++ {
		h.walkTick(followed)
		if tk, _ := h.m.Task(); tk.Walked >= 2 {
			break
		}
	}
	arrived := make(chan struct{})
	var goErr error
	go func() {
		defer close(arrived)
		goErr = h.m.GoNear(context.Background(), geom.Vec3{X: 3.5, Y: 65.62, Z: 3.5}, 1.5)
	}()
	h.walkUntil(followed, 50)
	var f *Failure
	if !errors.As(followErr, &f) || f.Code != "taken_over" || f.Reason != "stopped: go_near took over" {
		t.Fatalf("the follow answered %v, want stopped: go_near took over", followErr)
	}
	h.walkUntil(arrived, 400)
	if goErr != nil {
		t.Fatalf("the walk that took over: %v", goErr)
	}
	if tk, ok := h.m.Task(); ok {
		t.Errorf("a task is still listed after both walks ended: %+v", tk)
	}
	// The walks of one claim share the legs: a walk inside a follow is not
	// a take-over (the follow above walked through Go all along).
}
