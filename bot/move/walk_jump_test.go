package move

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/path"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/geom"
)

// trench is flat ground (the floor at 64) cut across by a trench two deep
// (its floor at 62) under x = 5 … 4+gap, along every z of the loaded
// columns: the far side is reached only by a jump.
func trench(gap int) func(h *harness, x, y, z int) mcdata.StateID {
	return func(h *harness, x, y, z int) mcdata.StateID {
		if x >= 5 && x < 5+gap && (y == 62 || y == 63) {
			return 0
		}
		return flat(h, x, y, z)
	}
}

// walkTickSync is walkTick that returns once the tick has run, so that
// the body's state is the tick's result. A tick that does not step (the
// walk ended in it, at rest) wakes the walk's events instead. A tick the
// session swallows while it switches between catch-up and real-time
// ticking (the manual clock delivers it to the ticker being stopped)
// wakes nothing: after a while of yielding the tick is given again.
func (h *harness) walkTickSync(done <-chan struct{}) {
	for {
		ticked := h.m.ticked.Wait()
		var events <-chan struct{}
		h.m.mu.Lock()
		if h.m.walk != nil {
			events = h.m.walk.events.Wait()
		}
		h.m.mu.Unlock()
		h.walkTick(done)
		for range 100000 {
			select {
			case <-ticked:
				return
			case <-events:
				return
			case <-done:
				return
			default:
				runtime.Gosched()
			}
		}
	}
}

// settle holds the session's real-time tick for the rest of the test and
// lets the bot come to rest from the spawn. Without the hold, the session
// ticks a resting body in catch-up bursts, and when a walk starts it runs
// the ticks of the second already gone at once (up to 19), with the walk
// in them: too coarse to watch a jump tick by tick.
func (h *harness) settle() {
	h.T.Cleanup(h.m.s.HoldRealTime())
	for i := 0; i < 5; i++ {
		h.Clock.Tick()
	}
}

// jumpWalk walks to x 10.5 over the trench and reports the lowest the
// feet came after the start and whether the walk held a parkour step.
func jumpWalk(t *testing.T, h *harness, maxTicks int) (lowest float64, parkour []path.Step, ticks int) {
	t.Helper()
	done := make(chan struct{})
	var err error
	target := geom.Vec3{X: 10.5, Y: 64 + physics.EyeHeight, Z: 0.5}
	go func() {
		defer close(done)
		err = h.m.GoNear(context.Background(), target, 1)
	}()
	lowest = h.m.State().Pos.Y
	for ; ticks < maxTicks; ticks++ {
		select {
		case <-done:
		default:
			h.walkTickSync(done)
			h.m.mu.Lock()
			if w := h.m.walk; w != nil && len(parkour) == 0 {
				for _, st := range w.path.Steps {
					if st.Move == path.Parkour {
						parkour = append(parkour, st)
					}
				}
			}
			lowest = min(lowest, h.m.st.Pos.Y)
			h.m.mu.Unlock()
			continue
		}
		break
	}
	select {
	case <-done:
	default:
		t.Fatalf("the walk is not done after %d ticks; the bot is at %+v", maxTicks, h.m.State().Pos)
	}
	if err != nil {
		t.Fatalf("GoNear over the trench: %v (the bot at %+v)", err, h.m.State().Pos)
	}
	if d := dist(h.m.EyePosition(), target); d > 1 {
		t.Errorf("arrived %.2f blocks from the target", d)
	}
	return lowest, parkour, ticks
}

// TestJumpTheGap: the body clears a one-block gap walking and sprinting
// and a two-block gap sprinting, from a standstill in the middle of the
// take-off block, from a standstill at its very edge (the box over the
// gap) and from a run-up, in the game's physics (bot/physics, tick by tick on the
// manual clock): the path holds a parkour step, the feet never go below
// the ground's level, and the bot arrives.
func TestJumpTheGap(t *testing.T) {
	for _, proto := range []int32{767, 769, 775} {
		for _, c := range []struct {
			name     string
			gap      int
			noSprint bool
			startX   float64
		}{
			{"gap1/walk/standing", 1, true, 4.5},
			{"gap1/walk/running", 1, true, 0.5},
			{"gap1/sprint/standing", 1, false, 4.5},
			{"gap1/sprint/running", 1, false, -3.5},
			{"gap2/sprint/standing", 2, false, 4.5},
			{"gap2/sprint/running", 2, false, -3.5},
			{"gap2/sprint/edge", 2, false, 4.79},
			{"gap1/walk/edge", 1, true, 4.75},
		} {
			t.Run(fmt.Sprint(proto, "/", c.name), func(t *testing.T) {
				h := joined(t, proto, c.startX, 64, 0.5, trench(c.gap))
				h.m.planner = path.New(h.game, path.Options{NoSprint: c.noSprint})
				h.settle()
				lowest, parkour, ticks := jumpWalk(t, h, 400)
				if len(parkour) == 0 {
					t.Fatalf("the path over the trench has no parkour step")
				}
				if p := parkour[0]; p.Sprint == c.noSprint || p.To.X-p.From.X != c.gap+1 {
					t.Errorf("the parkour step %+v; want a jump over %d, sprint %v", p, c.gap, !c.noSprint)
				}
				if lowest < 64-1e-9 {
					t.Errorf("the feet went down to y %.3f: the bot fell into the gap", lowest)
				}
				t.Logf("%d ticks", ticks)
			})
		}
	}
}

// TestKnockedMidJump: a bot knocked down in the middle of its jump (the
// server's velocity, as a mob's hit) comes down in the gap; the walk
// re-plans at once from the gap's floor instead of steering at the landing
// block above until the step times out, and arrives by the trench's far
// way out (a step up at z 20). Knocked back onto the take-off side
// instead, it runs up and jumps again, never going down into the gap.
func TestKnockedMidJump(t *testing.T) {
	for _, c := range []struct {
		name   string
		vx, vy int16 // shorts of 1/8000 block per tick
		fall   bool
	}{
		{"down", 0, -6400, true},
		{"back", -4000, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := joined(t, 769, 0.5, 64, 0.5, func(h *harness, x, y, z int) mcdata.StateID {
				if x >= 5 && x <= 6 && z == 20 && y == 62 {
					return h.stone // a step out of the trench
				}
				return trench(2)(h, x, y, z)
			})
			h.settle()
			done := make(chan struct{})
			var err error
			target := geom.Vec3{X: 10.5, Y: 64 + physics.EyeHeight, Z: 0.5}
			go func() {
				defer close(done)
				err = h.m.GoNear(context.Background(), target, 1)
			}()
			knocked, landedAt, replannedAt := false, -1, -1
			var jumped *walk
			for tick := 0; tick < 1200; tick++ {
				select {
				case <-done:
				default:
					h.walkTickSync(done)
					h.m.mu.Lock()
					w, st := h.m.walk, h.m.st
					if w != nil && w.jump.phase == jumpAir && w.jump.jumped && st.Pos.X > 5.3 && st.Pos.X < 6.2 && !knocked {
						// Over the gap: the box (0.6 wide) clear of both edges.
						jumped = w
					}
					if jumped != nil && landedAt >= 0 && replannedAt < 0 && (jumped.why != replanNone || h.m.walk != jumped) {
						replannedAt = tick
					}
					h.m.mu.Unlock()
					if jumped != nil && !knocked {
						knocked = true
						id := h.me.Snapshot().EntityID
						h.Route(mcdata.ClientboundPlayEntityVelocity, func(w *wire.Writer) {
							w.VarInt(id)
							w.Int16(c.vx)
							w.Int16(c.vy)
							w.Int16(0)
						})
					}
					if landedAt < 0 && st.OnGround && st.Pos.Y < 63 {
						landedAt = tick
					}
					continue
				}
				break
			}
			<-done
			if err != nil {
				t.Fatalf("the walk after the knock: %v (the bot at %+v)", err, h.m.State().Pos)
			}
			if !knocked {
				t.Fatalf("the bot was never in the air over the gap")
			}
			if !c.fall {
				if landedAt >= 0 {
					t.Errorf("knocked back, the bot still went down into the gap (tick %d)", landedAt)
				}
				return
			}
			if landedAt < 0 {
				t.Fatalf("knocked down, the bot did not land in the gap")
			}
			if replannedAt < 0 || replannedAt-landedAt > 3 {
				t.Errorf("landed in the gap at tick %d, re-planned at tick %d; want within 3 ticks", landedAt, replannedAt)
			}
		})
	}
}

// BenchmarkTakeOff is the cost of one tick of a run-up's decision: the
// jump simulated in the body's physics until it lands (a standstill at
// the edge's block of a two-block gap: the look-ahead runs its whole
// course, the jump falls short), and one step without it.
func BenchmarkTakeOff(b *testing.B) {
	h := joined(b, 769, 4.5, 64, 0.5, trench(2))
	h.m.mu.Lock()
	defer h.m.mu.Unlock()
	h.m.refreshViewLocked()
	res := h.m.planner.Plan(context.Background(), h.m.view, path.FeetBlock(4.5, 64, 0.5), goal{p: geom.Vec3{X: 10.5, Y: 64, Z: 0.5}, within: 1})
	var wp path.Waypoint
	for i, st := range res.Path.Steps {
		if st.Move == path.Parkour {
			wp = path.Waypoint{Index: i, X: float64(st.To.X) + 0.5, Y: st.Floor, Z: float64(st.To.Z) + 0.5, Step: st}
		}
	}
	if wp.Step.Move != path.Parkour {
		b.Fatalf("no parkour step in %+v", res.Path.Steps)
	}
	h.m.st = h.m.eng.StandingState(h.m.view, h.m.st.Pos, -90)
	ctl := physics.Controls{Forward: true, Sprint: true, Yaw: -90}
	b.ResetTimer()
	for b.Loop() {
		h.m.takeOffNowLocked(wp, ctl)
	}
}
