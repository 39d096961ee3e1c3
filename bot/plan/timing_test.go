//go:build !race

package plan

import (
	"testing"
	"time"
)

// TestEveryItemPlansInUnderFiveMilliseconds is the bound: planning
// for any vanilla item takes under 5 ms. It is left out of race builds,
// whose instrumentation slows the planner tenfold.
func TestEveryItemPlansInUnderFiveMilliseconds(t *testing.T) {
	if testing.Short() {
		t.Skip("times every item")
	}
	for _, g := range oldestAndNewest(t) {
		item, d := slowestPlan(t, g, 3)
		t.Logf("%s: the slowest plan is %s's, %v", g.Version, item, d)
		if d > 5*time.Millisecond {
			t.Errorf("%s: planning %s takes %v", g.Version, item, d)
		}
	}
}
