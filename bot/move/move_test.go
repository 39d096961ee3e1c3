package move

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/bot/worldfeat"
	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/internal/testkit/offline"
)

type harness struct {
	*offline.Session
	m    *Mover
	me   *self.Self
	w    *worldfeat.World
	game *mcdata.GameData
	// stone is looked up once: the block funcs run for every block.
	stone mcdata.StateID
}

// joined is a session with the body attached, placed at x, y, z over
// columns built by block (the 5×5 columns around the origin).
func joined(t testing.TB, proto int32, x, y, z float64, block func(h *harness, x, y, z int) mcdata.StateID) *harness {
	h := joinedOver(t, proto, x, y, z, nil)
	for cx := int32(-2); cx <= 2; cx++ {
		for cz := int32(-2); cz <= 2; cz++ {
			c := fakeserver.Column(proto, cx, cz, 1, func(x, y, z int) mcdata.StateID { return block(h, x, y, z) })
			h.RouteBytes(mcdata.ClientboundPlayMapChunk, world.AppendChunk(nil, c, fakeserver.OverworldLayout(proto)))
		}
	}
	return h
}

// joinedOver is joined with chunk data packets already encoded.
func joinedOver(t testing.TB, proto int32, x, y, z float64, chunks [][]byte) *harness {
	h := &harness{game: mcdata.Game(proto)}
	h.Session = offline.New(t, proto, func(s *core.Session) {
		reg := registry.Attach(s)
		h.me = self.Attach(s, reg, self.Options{})
		h.w = worldfeat.Attach(s, reg, h.me)
		h.m = Attach(s, h.me, h.w)
	})
	h.Configure()
	h.Join(x, y, z, 4)
	h.stone = h.state("stone")
	for _, c := range chunks {
		h.RouteBytes(mcdata.ClientboundPlayMapChunk, c)
	}
	return h
}

func (h *harness) state(name string) mcdata.StateID {
	h.T.Helper()
	set, err := h.game.MatchStates(name)
	if err != nil {
		h.T.Fatal(err)
	}
	for id := mcdata.StateID(0); int(id) < h.game.NumStates(); id++ {
		if set.Has(id) {
			return id
		}
	}
	h.T.Fatalf("no state matches %s", name)
	return 0
}

// flat is stone up to y 63 (the floor at 64).
func flat(h *harness, _, y, _ int) mcdata.StateID {
	if y < 64 {
		return h.stone
	}
	return 0
}

// walkTick ticks once when the body's walk is waiting for ticks, or not
// at all once done is closed. A Go call plans on its own goroutine (at the
// start, and again whenever a walk ends or wants a new plan); ticks of the
// manual clock given while it plans would pass with nothing to walk, so
// the walk's tick counts would depend on how fast the machine plans.
func (h *harness) walkTick(done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		default:
		}
		h.m.mu.Lock()
		ready := h.m.walk != nil && !h.m.walk.finished()
		h.m.mu.Unlock()
		if ready {
			h.Clock.Tick()
			return
		}
		runtime.Gosched()
	}
}

// walkUntil is tickUntil for a walk: each tick waits for the walk to be
// waiting for it (walkTick).
func (h *harness) walkUntil(done <-chan struct{}, max int) int {
	h.T.Helper()
	for i := 0; i < max; i++ {
		select {
		case <-done:
			return i
		default:
		}
		h.walkTick(done)
	}
	select {
	case <-done:
		return max
	default:
	}
	h.T.Fatalf("not done after %d ticks; the bot is at %+v", max, h.m.State().Pos)
	return max
}

// tickUntil ticks the manual clock until done is closed, at most max
// ticks, and returns how many it took.
func (h *harness) tickUntil(done <-chan struct{}, max int) int {
	h.T.Helper()
	for i := 0; i < max; i++ {
		select {
		case <-done:
			return i
		default:
		}
		h.Clock.Tick()
	}
	select {
	case <-done:
		return max
	default:
	}
	h.T.Fatalf("not done after %d ticks; the bot is at %+v", max, h.m.State().Pos)
	return max
}

func protocols() []int32 { return codec.Defined() }

// TestFallAndRest: a bot placed in the air falls onto the ground tick by
// tick, tells the server each step with the flags, and comes to rest; at
// rest it sends only the once-a-second reminder.
func TestFallAndRest(t *testing.T) {
	for _, proto := range protocols() {
		t.Run(fmt.Sprint(proto), func(t *testing.T) {
			h := joined(t, proto, 0.5, 66, 0.5, flat)
			// Real time from the sync on: each Tick is one game tick.
			for i := 0; i < 30; i++ {
				h.Clock.Tick()
			}
			h.Clock.Tick()
			st := h.m.State()
			if !st.OnGround || math.Abs(st.Pos.Y-64) > 1e-9 {
				t.Fatalf("after 30 ticks the bot is at %+v, on ground %v", st.Pos, st.OnGround)
			}
			if p := h.me.Snapshot().Position; p.Y != st.Pos.Y {
				t.Errorf("self's position %+v lags the body's %+v", p, st.Pos)
			}
			var positions int
			var landed bool
			for _, s := range h.Sent() {
				if s.Packet == mcdata.ServerboundPlayPosition {
					positions++
					r := wire.NewReader(s.Body)
					r.Float64()
					y := r.Float64()
					r.Float64()
					onGround := false
					if proto >= 768 {
						onGround = r.Byte()&1 != 0
					} else {
						onGround = r.Bool()
					}
					if onGround {
						landed = y == 64
					}
				}
			}
			if positions < 5 || !landed {
				t.Errorf("the fall sent %d positions, landed %v", positions, landed)
			}
		})
	}
}

// TestWalkAlongAPath: GoNear plans over the world and the tick walks the
// path, a wall in the way included; the bot ends within range, having
// sent its moves; Task shows the walk while it runs.
func TestWalkAlongAPath(t *testing.T) {
	for _, proto := range []int32{767, 769, 775} {
		t.Run(fmt.Sprint(proto), func(t *testing.T) {
			h := joined(t, proto, 0.5, 64, 0.5, func(h *harness, x, y, z int) mcdata.StateID {
				// A wall two high across x = 5 with a gap at z = 6.
				if x == 5 && (y == 64 || y == 65) && z != 6 && z > -20 && z < 20 {
					return h.stone
				}
				return flat(h, x, y, z)
			})
			done := make(chan struct{})
			var err error
			target := geom.Vec3{X: 12.5, Y: 64 + 1.62, Z: 0.5}
			go func() {
				defer close(done)
				err = h.m.GoNear(context.Background(), target, 1)
			}()
			// Wait for the task to show.
			var seen Task
			for i := 0; i < 200 && seen.Left == 0; i++ {
				h.walkTick(done)
				seen, _ = h.m.Task()
			}
			if seen.Kind != "go_near" || seen.Left == 0 || len(seen.Path) != seen.Left {
				t.Errorf("task while walking: %+v", seen)
			}
			ticks := h.walkUntil(done, 400)
			if err != nil {
				t.Fatalf("GoNear: %v", err)
			}
			if d := dist(h.m.EyePosition(), target); d > 1 {
				t.Errorf("arrived %.2f blocks from the target", d)
			}
			if _, ok := h.m.Task(); ok {
				t.Error("the task is still shown after the walk")
			}
			sent := map[mcdata.Packet]int{}
			for _, s := range h.Sent() {
				sent[s.Packet]++
			}
			if sent[mcdata.ServerboundPlayPositionLook]+sent[mcdata.ServerboundPlayPosition] < 20 {
				t.Errorf("walking sent %v", sent)
			}
			if proto >= 768 && sent[mcdata.ServerboundPlayPlayerInput] == 0 {
				t.Errorf("1.21.2+ walking sent no player_input: %v", sent)
			}
			t.Logf("%d ticks, sent %v", ticks, sent)
		})
	}
}

// TestNoPathSaysWhy: a goal shut in a box fails at once with the planner's
// reason, the bot where it was.
func TestNoPathSaysWhy(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, func(h *harness, x, y, z int) mcdata.StateID {
		if x >= 8 && x <= 10 && z >= -1 && z <= 1 && y >= 64 && y <= 67 && !(x == 9 && z == 0 && (y == 64 || y == 65)) {
			return h.stone
		}
		return flat(h, x, y, z)
	})
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		err = h.m.GoNear(context.Background(), geom.Vec3{X: 9.5, Y: 65.62, Z: 0.5}, 1)
	}()
	// A plan that finds no path walks nothing: no tick is needed.
	<-done
	var f *Failure
	if !errors.As(err, &f) || f.Code != "goal_enclosed" || f.NextStep == "" || f.Position.X != 0.5 {
		t.Fatalf("GoNear into a closed box: %v (%+v)", err, f)
	}
}

// TestStopWithinATick: cancelling the walk's context stops the bot at the
// next tick (no forward key any more), and the next walk works.
func TestStopWithinATick(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, flat)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		err = h.m.GoNear(ctx, geom.Vec3{X: 30.5, Y: 65.62, Z: 0.5}, 1)
	}()
	for i := 0; i < 200; i++ {
		h.walkTick(done)
		if tk, _ := h.m.Task(); tk.Walked >= 3 {
			break
		}
	}
	cancel()
	<-done
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled walk answered %v", err)
	}
	h.Clock.Tick()
	h.Clock.Tick()
	before := len(h.Sent())
	h.Clock.Tick()
	h.Clock.Tick()
	sent := h.Sent()
	for _, s := range sent[before:] {
		if s.Packet == mcdata.ServerboundPlayPlayerInput && s.Body[0]&1 != 0 {
			t.Errorf("forward still held after the stop")
		}
	}
	if k := h.m.State().Pos.X; k > 20 {
		t.Errorf("the bot walked on to x=%.1f", k)
	}
	done = make(chan struct{})
	go func() {
		defer close(done)
		err = h.m.GoNear(context.Background(), geom.Vec3{X: 3.5, Y: 65.62, Z: 3.5}, 1.5)
	}()
	h.walkUntil(done, 400)
	if err != nil {
		t.Fatalf("the walk after the stop: %v", err)
	}
}

// TestSyncReplans: a position sync in the middle of a walk is confirmed,
// answered with the position, and the walk goes on from where the server
// put the bot.
func TestSyncReplans(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, flat)
	done := make(chan struct{})
	var err error
	target := geom.Vec3{X: 10.5, Y: 65.62, Z: 10.5}
	go func() {
		defer close(done)
		err = h.m.GoNear(context.Background(), target, 1)
	}()
	for i := 0; i < 200; i++ {
		h.walkTick(done)
		if tk, _ := h.m.Task(); tk.Walked >= 2 {
			break
		}
	}
	h.RouteBytes(mcdata.ClientboundPlayPosition, fakeserver.PositionBody(769, 5, -10.5, 64, -10.5, 0))
	if st := h.m.State(); st.Pos.X != -10.5 {
		t.Fatalf("after the sync the body is at %+v", st.Pos)
	}
	h.walkUntil(done, 600)
	if err != nil {
		t.Fatalf("GoNear after a sync: %v", err)
	}
	if d := dist(h.m.EyePosition(), target); d > 1 {
		t.Errorf("arrived %.2f from the target", d)
	}
}

// TestIdleReminder: at rest the body sends a status-only move once a
// second and nothing else; a look turns the head with one look packet.
func TestIdleReminder(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, flat)
	for i := 0; i < 10; i++ {
		h.Clock.Tick()
	}
	// At rest: the session is back to catch-up ticks (20 per Tick).
	before := len(h.Sent())
	h.Clock.Tick()
	h.Clock.Tick()
	h.Clock.Tick()
	sent := h.Sent()[before:]
	flying := 0
	for _, s := range sent {
		if s.Packet != mcdata.ServerboundPlayFlying {
			t.Errorf("idle, the bot sent %v", s.Packet)
		}
		flying++
	}
	// Three seconds hold three reminders; the server may still receive
	// one or two sent before the count began (h.Sent is what arrived).
	if flying < 1 || flying > 5 {
		t.Errorf("idle for about three seconds: %d reminders", flying)
	}
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		err = h.m.LookAt(context.Background(), geom.Vec3{X: 0.5, Y: 65.62, Z: 10})
	}()
	// Tick only while the look waits for its tick: the call's goroutine
	// may not have asked yet.
	for ticks := 0; ; {
		select {
		case <-done:
		default:
			if h.m.Turning() {
				if ticks++; ticks > 200 {
					t.Fatalf("the look was not sent in %d ticks", ticks)
				}
				h.Clock.Tick()
			} else {
				runtime.Gosched()
			}
			continue
		}
		break
	}
	if err != nil {
		t.Fatal(err)
	}
	looks := h.WaitFor(mcdata.ServerboundPlayLook, 1)
	r := wire.NewReader(looks[0])
	if yaw, pitch := r.Float32(), r.Float32(); yaw != 0 || math.Abs(float64(pitch)) > 1e-5 {
		t.Errorf("looking south: yaw %v pitch %v", yaw, pitch)
	}
}

// TestDeathEndsTheWalk: a bot that dies on the way stops, and the walk
// answers that it died.
func TestDeathEndsTheWalk(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, flat)
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		err = h.m.GoNear(context.Background(), geom.Vec3{X: 30.5, Y: 65.62, Z: 0.5}, 1)
	}()
	for i := 0; i < 200; i++ {
		h.walkTick(done)
		if tk, _ := h.m.Task(); tk.Walked >= 2 {
			break
		}
	}
	h.Route(mcdata.ClientboundPlayUpdateHealth, func(w *wire.Writer) { w.Float32(0); w.VarInt(20); w.Float32(0) })
	h.walkUntil(done, 200)
	var f *Failure
	if !errors.As(err, &f) || f.Code != "died" {
		t.Fatalf("a walk whose bot died answered %v", err)
	}
}

// TestWalkFromRestHasNoBurst: a walk that begins while the body rests
// (the session on catch-up ticks, most of a second owed) walks on the
// ticks on time only: the owed ticks run without it, so the server never
// gets a second's worth of steps at once.
func TestWalkFromRestHasNoBurst(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, flat)
	for i := 0; i < 10; i++ {
		h.Clock.Tick()
	}
	// At rest, on catch-up ticks; 19 ticks of this second are owed.
	h.Clock.Advance(19 * core.TickInterval)
	moves := func() int {
		n := 0
		for _, s := range h.Sent() {
			if s.Packet == mcdata.ServerboundPlayPosition || s.Packet == mcdata.ServerboundPlayPositionLook {
				n++
			}
		}
		return n
	}
	before := moves()
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		err = h.m.GoNear(context.Background(), geom.Vec3{X: 10.5, Y: 64 + 1.62, Z: 0.5}, 1)
	}()
	ticks := h.walkUntil(done, 400)
	if err != nil {
		t.Fatalf("GoNear: %v", err)
	}
	// Each tick given is one step at most (a catch-up run steps none);
	// the sends may still be on their way, so fewer is fine.
	if got := moves() - before; got > ticks {
		t.Errorf("the walk sent %d moves in %d ticks", got, ticks)
	}
}
