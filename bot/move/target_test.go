package move

import (
	"context"
	"runtime"
	"sync"
	"testing"

	"github.com/blockmate/blockmate/geom"
)

// TestMovingTargetReplansOnTheTick: a walk toward a target that moves
// re-plans at the first tick after the target went farther than
// ReplanAfter from where the plan aims, though its Moved channel never
// fires (the body's tick asks where the target is; the walk's task does not
// wake at every entity change), and the bot arrives near where the target
// went.
func TestMovingTargetReplansOnTheTick(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, flat)
	var mu sync.Mutex
	at := geom.Vec3{X: 12.5, Y: 64, Z: 0.5}
	point := func() (geom.Vec3, bool) {
		mu.Lock()
		defer mu.Unlock()
		return at, true
	}
	never := make(chan struct{})
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		_, err = h.m.Go(context.Background(), Target{Kind: "follow", Point: point, Within: 2,
			Moved: func() <-chan struct{} { return never }, ReplanAfter: 2})
	}()
	for i := 0; i < 200; i++ {
		h.walkTick(done)
		if tk, _ := h.m.Task(); tk.Walked >= 2 {
			break
		}
	}
	// One more tick, waited for to its end, so that no tick is under way
	// while the target moves.
	ticked := h.m.ticked.Wait()
	h.walkTick(done)
	<-ticked
	// The next tick sees the target gone too far and asks for a new plan
	// before it steers: the walk's first news after it is that.
	var w *walk
	var news <-chan struct{}
	for news == nil {
		// Between two plans there is no walk to watch yet.
		h.m.mu.Lock()
		if w = h.m.walk; w != nil && !w.finished() {
			news = w.events.Wait()
		}
		h.m.mu.Unlock()
		runtime.Gosched()
	}
	moved := geom.Vec3{X: 0.5, Y: 64, Z: 12.5}
	mu.Lock()
	at = moved
	mu.Unlock()
	h.walkTick(done)
	<-news
	h.m.mu.Lock()
	why := w.why
	h.m.mu.Unlock()
	if why != replanTarget {
		t.Errorf("the tick after the target moved ended the walk for %d, want replanTarget (%d)", why, replanTarget)
	}
	// The next plan aims where the target went.
	h.walkTick(done)
	if tk, _ := h.m.Task(); tk.Goal != moved {
		t.Errorf("after the new plan the task aims at %+v, want %+v", tk.Goal, moved)
	}
	h.walkUntil(done, 600)
	if err != nil {
		t.Fatalf("Go: %v", err)
	}
	feet, _ := h.m.Position()
	if d := dist(feet, moved); d > 2 {
		t.Errorf("arrived %.2f blocks from where the target went", d)
	}
}
