package move

import (
	"testing"

	"github.com/blockmate/blockmate/geom"
)

// TestProgressWatch: a walk whose plans leave it no half block nearer its
// goal (the digging walk of issue 21 that fell back into its shaft, moving
// every round) is stalled once stuckRounds plans and noProgressTicks have
// passed, both; a walk coming nearer never is, however long; a goal that
// moves starts the count again.
func TestProgressWatch(t *testing.T) {
	goal := geom.Vec3{X: 10, Y: 64, Z: 0}
	t.Run("round in circles", func(t *testing.T) {
		var w progressWatch
		ds := []float64{8, 8.4, 7.8, 8.2, 7.9, 8.3, 7.7, 8.1, 8, 8.4}
		stalledAt := -1
		for i, d := range ds {
			if w.stalled(d, goal, uint64(1000+i*100)) {
				stalledAt = i
				break
			}
		}
		// Plans every 100 ticks: the sixth plan after the best (at 0)
		// is the first 600 ticks on, and more than stuckRounds plans.
		if stalledAt != 6 {
			t.Errorf("stalled at plan %d, want 6", stalledAt)
		}
	})
	t.Run("many quick plans", func(t *testing.T) {
		var w progressWatch
		for i := 0; i < 50; i++ {
			if w.stalled(8, goal, uint64(1000+i)) {
				t.Fatalf("stalled after %d plans in %d ticks: the ticks are what count, with the plans", i, i)
			}
		}
		if !w.stalled(8, goal, 1000+noProgressTicks) {
			t.Error("not stalled after 50 plans and noProgressTicks")
		}
	})
	t.Run("slow but nearer", func(t *testing.T) {
		var w progressWatch
		for i := 0; i < 40; i++ {
			if w.stalled(40-float64(i)*0.6, goal, uint64(i*400)) {
				t.Fatalf("a walk 0.6 blocks nearer each plan stalled at plan %d", i)
			}
		}
	})
	t.Run("the goal moves", func(t *testing.T) {
		var w progressWatch
		for i := 0; i < 40; i++ {
			p := geom.Vec3{X: 10 + float64(i), Y: 64}
			if w.stalled(8, p, uint64(i*400)) {
				t.Fatalf("stalled at plan %d following a goal that walks on", i)
			}
		}
	})
}
