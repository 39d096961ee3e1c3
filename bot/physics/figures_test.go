package physics

import (
	"math"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// The hand figures every Minecraft movement reference quotes: a standing
// jump peaks at 1.2522 blocks on its sixth tick; walking on flat stone
// settles at 4.317 blocks per second, sprinting at 5.612.
func TestHandFigures(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		w := newWorld(t, e, "stone")
		a := DefaultAttributes()
		s := e.StandingState(w, Vec3{0.5, 0, 0.5}, 0)
		peak, peakTick := 0.0, 0
		for i := 1; i <= 12; i++ {
			s = e.Step(w, s, Controls{Jump: i == 1}, a)
			if s.Pos.Y > peak {
				peak, peakTick = s.Pos.Y, i
			}
		}
		if math.Abs(peak-1.2522) > 5e-5 || peakTick != 6 {
			t.Errorf("%d: a standing jump peaks at %.6f on tick %d, want 1.2522 on tick 6", p, peak, peakTick)
		}
		for _, tc := range []struct {
			name   string
			c      Controls
			perSec float64
		}{
			{"walking", Controls{Forward: true}, 4.317},
			{"sprinting", Controls{Forward: true, Sprint: true}, 5.612},
		} {
			s := e.StandingState(w, Vec3{0.5, 0, 0.5}, 0)
			s, _ = e.Simulate(w, s, tc.c, a, 100, nil)
			z := s.Pos.Z
			s, _ = e.Simulate(w, s, tc.c, a, 20, nil)
			if got := s.Pos.Z - z; math.Abs(got-tc.perSec) > 0.0005 {
				t.Errorf("%d: %s covers %.5f blocks a second, want %.3f", p, tc.name, got, tc.perSec)
			}
			if tc.c.Sprint != s.Sprinting {
				t.Errorf("%d: %s: sprinting = %v", p, tc.name, s.Sprinting)
			}
		}
	}
}

// TestGroundSpeedIsWhatStepDoes: the planners' figure for walking and
// sprinting is the speed Step settles at on stone, for every version.
func TestGroundSpeedIsWhatStepDoes(t *testing.T) {
	a := DefaultAttributes()
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		w := newWorld(t, e, "stone")
		for _, sprint := range []bool{false, true} {
			s := e.StandingState(w, Vec3{0.5, 0, 0.5}, 0)
			c := Controls{Forward: true, Sprint: sprint}
			s, _ = e.Simulate(w, s, c, a, 100, nil)
			z := s.Pos.Z
			s, _ = e.Simulate(w, s, c, a, 20, nil)
			if got, want := s.Pos.Z-z, a.GroundSpeed(sprint); math.Abs(got-want) > 1e-4 {
				t.Errorf("%d sprint=%v: Step covers %.6f blocks a second, GroundSpeed says %.6f", p, sprint, got, want)
			}
		}
	}
}
