package physics

import (
	"math"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// The game's behaviour where prismarine-physics is no reference: figures
// worked out by hand from the decompiled code, one test per mechanism, run
// for every version whose rules agree on it.

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.9f, want %.9f (±%g)", what, got, want, tol)
	}
}

// walkFor holds c for n ticks from a standing start at pos and returns the
// state.
func walkFor(e *Engine, w World, pos Vec3, c Controls, a Attributes, n int) State {
	s := e.StandingState(w, pos, c.Yaw)
	s, _ = e.Simulate(w, s, c, a, n, nil)
	return s
}

// Soul sand: Entity.move multiplies the motion by the block's speed factor
// (0.4) after each move, so a walker settles where (v+a)·0.4·0.546 = v: it
// covers a/(1−0.2184) per tick, a = 0.098.
func TestSoulSandSpeed(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		w := newWorld(t, e, "soul_sand")
		a := DefaultAttributes()
		s := walkFor(e, w, Vec3{0.5, -0.125, 0.5}, Controls{Forward: true}, a, 80)
		z := s.Pos.Z
		s, _ = e.Simulate(w, s, Controls{Forward: true}, a, 1, nil)
		near(t, "soul sand step", s.Pos.Z-z, 0.098/(1-0.4*0.546), 2e-6)
		// movement_efficiency 1 cancels the speed factor
		// (LivingEntity.getBlockSpeedFactor lerps towards 1).
		a.MovementEfficiency = 1
		s = walkFor(e, w, Vec3{0.5, -0.125, 0.5}, Controls{Forward: true}, a, 80)
		z = s.Pos.Z
		s, _ = e.Simulate(w, s, Controls{Forward: true}, a, 1, nil)
		near(t, "soul sand step with movement efficiency 1", s.Pos.Z-z, 0.098/(1-0.546), 2e-6)
	}
}

// Jumps: jump_strength × the block's jump factor + 0.1 per Jump Boost level
// (LivingEntity.getJumpPower); honey halves it.
func TestJumpPower(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		a := DefaultAttributes()
		stone := newWorld(t, e, "stone")
		s := walkFor(e, stone, Vec3{0.5, 0, 0.5}, Controls{}, a, 2)
		a.JumpBoost = 2
		j := e.Step(stone, s, Controls{Jump: true}, a)
		near(t, "jump boost II rise", j.Pos.Y-s.Pos.Y, float64(float32(0.42)+0.1*2), 1e-9)

		honey := newWorld(t, e, "honey_block")
		a = DefaultAttributes()
		s = walkFor(e, honey, Vec3{0.5, -0.0625, 0.5}, Controls{}, a, 2)
		j = e.Step(honey, s, Controls{Jump: true}, a)
		near(t, "jump from honey", j.Pos.Y-s.Pos.Y, float64(float32(0.42)*0.5), 1e-9)

		// A lower gravity attribute makes the same jump go higher.
		a.Gravity = 0.04
		s = walkFor(e, stone, Vec3{0.5, 0, 0.5}, Controls{}, a, 2)
		peak := 0.0
		for i := 0; i < 30; i++ {
			s = e.Step(stone, s, Controls{Jump: i == 0}, a)
			peak = max(peak, s.Pos.Y)
		}
		if peak < 2 {
			t.Errorf("%d: gravity 0.04 jump peaks at %.3f, want over 2", p, peak)
		}
	}
}

// Step height: a 0.5 slab is climbed by walking, a full block is not; the
// step_height attribute raised to 1 climbs it.
func TestStepUp(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		w := newWorld(t, e, "stone")
		w.fill(t, -2, 0, 2, 2, 0, 2, "oak_slab[type=bottom]")
		w.fill(t, -2, 0, 3, 2, 0, 8, "stone")
		w.fill(t, -2, 1, 5, 2, 1, 8, "stone")
		a := DefaultAttributes()
		s := walkFor(e, w, Vec3{0.5, 0, 0.5}, Controls{Forward: true}, a, 40)
		if s.Pos.Y != 1 || s.Pos.Z > 4.71 || s.Pos.Z < 4.69 {
			t.Errorf("%d: walking up a slab onto a block, then into a wall: at %v, want y 1 at z 4.7", p, s.Pos)
		}
		a.StepHeight = 1
		s = walkFor(e, w, Vec3{0.5, 0, 0.5}, Controls{Forward: true}, a, 40)
		if s.Pos.Y != 2 {
			t.Errorf("%d: with step height 1 the player is at %v, want on top (y 2)", p, s.Pos)
		}
	}
}

// Sneaking keeps a player on a ledge (Player.maybeBackOffFromEdge); walking
// the same way drops it.
func TestSneakEdge(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		w := newWorld(t, e, "stone")
		w.fill(t, -3, -4, 2, 3, -1, 6, "air")
		a := DefaultAttributes()
		s := e.StandingState(w, Vec3{0.5, 0, 0.5}, 0)
		s.ShiftKey, s.Crouching, s.Pose = true, true, Crouching
		s, _ = e.Simulate(w, s, Controls{Forward: true, Sneak: true}, a, 60, nil)
		if s.Pos.Y != 0 || s.Pos.Z < 2.2 || s.Pos.Z > 2.31 {
			t.Errorf("%d: sneaking to the edge: at %v, want on the ledge with its box just over the edge (z ≤ 2.3)", p, s.Pos)
		}
		s = walkFor(e, w, Vec3{0.5, 0, 0.5}, Controls{Forward: true}, a, 60)
		if s.Pos.Y > -3 {
			t.Errorf("%d: walking off the edge: at %v, want in the pit", p, s.Pos)
		}
	}
}

// Ladders: walking into one climbs 0.2 a tick less drag (0.1176 a tick);
// sneaking holds on (LivingEntity.handleOnClimbable); without input the
// player slides down at most 0.15 a tick.
func TestLadder(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		w := newWorld(t, e, "stone")
		w.fill(t, -1, 0, 3, 1, 9, 3, "stone")
		w.fill(t, -1, 0, 2, 1, 8, 2, "ladder[facing=north]")
		a := DefaultAttributes()
		s := walkFor(e, w, Vec3{0.5, 0, 1.5}, Controls{Forward: true}, a, 30)
		y := s.Pos.Y
		s = e.Step(w, s, Controls{Forward: true}, a)
		near(t, "climbing speed", s.Pos.Y-y, (0.2-0.08)*0.98, 1e-6)
		held := e.Step(w, s, Controls{Sneak: true}, a)
		for i := 0; i < 10; i++ {
			held = e.Step(w, held, Controls{Sneak: true}, a)
		}
		if held.Pos.Y < s.Pos.Y {
			t.Errorf("%d: sneaking on a ladder slid from %.3f to %.3f", p, s.Pos.Y, held.Pos.Y)
		}
		slide := s
		for i := 0; i < 20; i++ {
			prev := slide.Pos.Y
			slide = e.Step(w, slide, Controls{}, a)
			if prev-slide.Pos.Y > f32(0.15)+1e-9 {
				t.Fatalf("%d: sliding down a ladder fell %.4f in a tick", p, prev-slide.Pos.Y)
			}
		}
		// The ladder resets the fall distance before each move; only that
		// move's drop counts.
		if slide.FallDistance > f32(0.15)+1e-6 {
			t.Errorf("%d: a ladder keeps fall distance to one tick's slide, got %v", p, slide.FallDistance)
		}
	}
}

// Cobwebs and powder snow hold the player back: the next move is
// multiplied by (0.25, 0.05, 0.25) or (0.9, 1.5, 0.9)
// (Entity.makeStuckInBlock). Powder snow has no floor for a player without
// leather boots, and one for a player wearing them.
func TestStuckBlocks(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		a := DefaultAttributes()
		w := newWorld(t, e, "stone")
		w.fill(t, -2, 0, 0, 2, 1, 30, "cobweb")
		s := walkFor(e, w, Vec3{0.5, 0, 0.5}, Controls{Forward: true}, a, 40)
		if s.Pos.Z > 2 {
			t.Errorf("%d: 40 ticks of walking in cobweb reached z %.3f, want under 2", p, s.Pos.Z)
		}
		if s.Stuck != (Vec3{0.25, f32(0.05), 0.25}) {
			t.Errorf("%d: stuck multiplier in cobweb = %v", p, s.Stuck)
		}

		snow := newWorld(t, e, "stone")
		snow.fill(t, -2, -2, -2, 2, -1, 2, "powder_snow")
		s = e.StandingState(snow, Vec3{0.5, 0, 0.5}, 0)
		s, _ = e.Simulate(snow, s, Controls{}, a, 40, nil)
		if s.Pos.Y > -1.9 || !s.InPowderSnow {
			t.Errorf("%d: a player without boots at %v (in powder snow %v), want sunk to the floor at -2", p, s.Pos, s.InPowderSnow)
		}
		a.LeatherBoots = true
		s = e.StandingState(snow, Vec3{0.5, 0, 0.5}, 0)
		s.OnGround = true
		s, _ = e.Simulate(snow, s, Controls{}, a, 40, nil)
		if s.Pos.Y != 0 || !s.OnGround {
			t.Errorf("%d: a player in leather boots at %v on ground %v, want standing on the powder snow", p, s.Pos, s.OnGround)
		}
	}
}

// Slime: a falling player bounces back up with the speed it landed with
// (SlimeBlock.bounceUp); sneaking lands flat.
func TestSlimeBounce(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		w := newWorld(t, e, "slime_block")
		a := DefaultAttributes()
		s := State{Pos: Vec3{0.5, 10, 0.5}}
		var landed State
		for i := 0; i < 60; i++ {
			prev := s
			s = e.Step(w, s, Controls{}, a)
			if s.OnGround && !prev.OnGround {
				landed = s
				break
			}
		}
		if !landed.OnGround || !(landed.Vel.Y > 1) {
			t.Fatalf("%d: landing on slime left vertical motion %.4f, want a bounce over 1", p, landed.Vel.Y)
		}
		if landed.ImpactFall < 9 {
			t.Errorf("%d: landed after falling %.3f, want about 10", p, landed.ImpactFall)
		}
		peak := 0.0
		for i := 0; i < 40; i++ {
			s = e.Step(w, s, Controls{}, a)
			peak = max(peak, s.Pos.Y)
		}
		// Drag takes its share on the way down and up again; the
		// differential test holds the bounce itself to prismarine-physics.
		if peak < 6 {
			t.Errorf("%d: the bounce peaked at %.3f, want over 6 of the 10 blocks", p, peak)
		}
		s = State{Pos: Vec3{0.5, 10, 0.5}}
		s, _ = e.Simulate(w, s, Controls{Sneak: true}, a, 60, nil)
		if s.Pos.Y != 0 || s.Vel.Y > 0 {
			t.Errorf("%d: sneaking onto slime: at %v moving %v, want flat on it", p, s.Pos, s.Vel)
		}
	}
}

// Bubble columns push up (Entity.onInsideBubbleColumn: +0.06 a tick up to
// 0.7) and the player rises through the water.
func TestBubbleColumn(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		w := newWorld(t, e, "stone")
		w.fill(t, 0, -10, 0, 0, -1, 0, "bubble_column[drag=false]")
		w.fill(t, -1, -10, -1, 1, -1, -1, "stone")
		w.fill(t, -1, -10, 1, 1, -1, 1, "stone")
		w.fill(t, -1, -10, 0, -1, -1, 0, "stone")
		w.fill(t, 1, -10, 0, 1, -1, 0, "stone")
		a := DefaultAttributes()
		s := State{Pos: Vec3{0.5, -10, 0.5}, OnGround: true}
		s, n := e.Simulate(w, s, Controls{}, a, 100, func(_ int, s *State) bool { return s.Pos.Y > -1 })
		if s.Pos.Y <= -1 {
			t.Errorf("%d: a bubble column lifted the player only to %.3f in 100 ticks", p, s.Pos.Y)
		} else if n > 40 {
			t.Errorf("%d: a bubble column took %d ticks to lift the player 9 blocks", p, n)
		}
	}
}

// Water: a player swims up by holding jump (+0.04 a tick), sinks by
// sneaking, and touching water ends a fall.
func TestWater(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		w := newWorld(t, e, "stone")
		w.fill(t, -3, -6, -3, 3, -1, 3, "water")
		a := DefaultAttributes()
		s := State{Pos: Vec3{0.5, -5, 0.5}}
		up, _ := e.Simulate(w, s, Controls{Jump: true}, a, 40, nil)
		if up.Pos.Y < -1.5 || !up.InWater {
			t.Errorf("%d: swimming up for 40 ticks: at %v in water %v", p, up.Pos, up.InWater)
		}
		down, _ := e.Simulate(w, s, Controls{Sneak: true}, a, 40, nil)
		if down.Pos.Y != -6 {
			t.Errorf("%d: sinking for 40 ticks: at %v, want on the floor at -6", p, down.Pos)
		}
		// Entering water resets the fall distance; before 1.21.5 the move
		// that entered still adds its own drop after the reset.
		fall := State{Pos: Vec3{0.5, 20, 0.5}}
		prev := fall
		fall, _ = e.Simulate(w, fall, Controls{}, a, 60, func(_ int, s *State) bool {
			if s.InWater {
				return true
			}
			prev = *s
			return false
		})
		want := 0.0
		if p < 770 {
			want = float64(float32(prev.Pos.Y - fall.Pos.Y))
		}
		if !fall.InWater || math.Abs(fall.FallDistance-want) > 1e-6 {
			t.Errorf("%d: a fall into water: in water %v, fall distance %v, want %v", p, fall.InWater, fall.FallDistance, want)
		}
	}
}

// Fall distance and damage: a 10-block drop onto stone does 7 damage. From
// 1.21.5 the landing tick's drop counts too (Entity.checkFallDamage adds it
// before testing for the landing) and the damage is floor(distance − 3);
// before, the landing tick's drop is left out and the damage is
// ceil(distance − 3).
func TestFallDamage(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		w := newWorld(t, e, "stone")
		a := DefaultAttributes()
		l := e.Land(w, State{Pos: Vec3{0.5, 10, 0.5}, Vel: Vec3{0, -1e-9, 0}}, Controls{}, a, 100)
		if !l.Landed {
			t.Fatalf("%d: never landed", p)
		}
		if p >= 770 {
			near(t, "1.21.5+ impact fall", l.FallDistance, 10, 1e-5)
		} else if l.FallDistance > 10-1e-3 || l.FallDistance < 8 {
			t.Errorf("%d: impact fall %.4f, want 10 less the last tick's drop", p, l.FallDistance)
		}
		if l.Damage != 7 {
			t.Errorf("%d: damage %.0f for a fall of %.3f, want 7", p, l.Damage, l.FallDistance)
		}
	}
	e := engine(t, 767)
	a := DefaultAttributes()
	if e.FallDamage(3, a) != 0 || e.FallDamage(3.5, a) != 1 || e.FallDamage(4, a) != 1 {
		t.Errorf("1.21.1: ceil(distance − 3): 3 → %v, 3.5 → %v, 4 → %v", e.FallDamage(3, a), e.FallDamage(3.5, a), e.FallDamage(4, a))
	}
	e = engine(t, 775)
	if e.FallDamage(3, a) != 0 || e.FallDamage(3.5, a) != 0 || e.FallDamage(4, a) != 1 {
		t.Errorf("26.1: floor(distance + 1e-6 − 3): 3 → %v, 3.5 → %v, 4 → %v", e.FallDamage(3, a), e.FallDamage(3.5, a), e.FallDamage(4, a))
	}
}

// Per-version rules, each shown where the versions part.
func TestVersionDifferences(t *testing.T) {
	a := DefaultAttributes()

	// 1.21.2: a jump keeps a faster upward motion (slime bounce + jump).
	for _, tc := range []struct {
		protocol int32
		keeps    bool
	}{{767, false}, {768, true}, {775, true}} {
		e := engine(t, tc.protocol)
		w := newWorld(t, e, "stone")
		s := e.StandingState(w, Vec3{0.5, 0, 0.5}, 0)
		s.Vel.Y = 0.6
		s = e.Step(w, s, Controls{Jump: true}, a)
		got := s.Pos.Y > 0.5
		if got != tc.keeps {
			t.Errorf("%d: jumping with 0.6 upward motion rose %.4f; keeps the faster motion = %v, want %v", tc.protocol, s.Pos.Y, got, tc.keeps)
		}
	}

	// 1.21.2: block effects after travel. One tick from rest inside an
	// upward bubble column under water, the player's box in two of its
	// blocks (each pushes +0.06): 1.21.1 pushes inside the move, before
	// water drag and gravity ((0.12·0.8F) − 0.005); 1.21.2 after them
	// (−0.005 + 0.12).
	for _, tc := range []struct {
		protocol int32
		want     float64
	}{{767, 0.12*f32(0.8) - 0.005}, {768, -0.005 + 0.12}, {774, -0.005 + 0.12}} {
		e := engine(t, tc.protocol)
		w := newWorld(t, e, "stone")
		w.fill(t, 0, 0, 0, 0, 5, 0, "bubble_column[drag=false]")
		s := e.Step(w, State{Pos: Vec3{0.5, 1, 0.5}}, Controls{}, a)
		near(t, "bubble column after one tick", s.Vel.Y, tc.want, 1e-7)
	}

	// 1.21.4: crouching stops a sprint (LocalPlayer.shouldStopSprinting);
	// 1.21.1 and 1.21.5+ keep the flag while sneaking forward.
	for _, tc := range []struct {
		protocol int32
		stops    bool
	}{{767, false}, {769, true}, {770, false}} {
		e := engine(t, tc.protocol)
		w := newWorld(t, e, "stone")
		s := walkFor(e, w, Vec3{0.5, 0, 0.5}, Controls{Forward: true, Sprint: true}, a, 10)
		s, _ = e.Simulate(w, s, Controls{Forward: true, Sneak: true}, a, 3, nil)
		if s.Sprinting == tc.stops {
			t.Errorf("%d: sprinting after sneaking = %v, want %v", tc.protocol, s.Sprinting, !tc.stops)
		}
	}

	// 1.21.5: the horizontal dead zone is the length² below 9.0E-6, not
	// each axis below 0.003.
	for _, tc := range []struct {
		protocol int32
		keeps    bool
	}{{769, false}, {770, true}} {
		e := engine(t, tc.protocol)
		w := newWorld(t, e, "stone")
		s := e.StandingState(w, Vec3{0.5, 0, 0.5}, 0)
		s.Vel = Vec3{0.002, 0, 0.1}
		s = e.Step(w, s, Controls{}, a)
		if got := s.Pos.X != 0.5; got != tc.keeps {
			t.Errorf("%d: a 0.002 sideways motion beside 0.1 forward moved x to %v; kept = %v, want %v", tc.protocol, s.Pos.X, got, tc.keeps)
		}
	}

	// 1.21.5's square input gives keyboard players the same motion as the
	// old ±1 keys: diagonal sneaking moves 0.294 along each axis in both.
	for _, p := range []int32{769, 770} {
		e := engine(t, p)
		w := newWorld(t, e, "stone")
		s := e.StandingState(w, Vec3{0.5, 0, 0.5}, 0)
		s.ShiftKey, s.Crouching, s.Pose = true, true, Crouching
		s = e.Step(w, s, Controls{Forward: true, Left: true, Sneak: true}, a)
		near(t, "diagonal sneak x", s.Pos.X-0.5, 0.294*0.1, 1e-7)
		near(t, "diagonal sneak z", s.Pos.Z-0.5, 0.294*0.1, 1e-7)
	}

	// 1.21.9: the sine table is indexed by a double; cos(−45°) lands one
	// entry short.
	old, dbl := trig{}, trig{double: true}
	rad := float32(-45) * degToRad
	if old.cos(rad) != float32(math.Sin(8192*math.Pi*2/65536)) || dbl.cos(rad) == old.cos(rad) {
		t.Errorf("cos(−45°): float table %v, double table %v", old.cos(rad), dbl.cos(rad))
	}

	// 26.1: the depth in water is measured from the box's bottom, not from
	// the box shrunk by 0.001.
	for _, tc := range []struct {
		protocol int32
		want     float64
	}{{774, float64(float32(-2)+float32(8)/9) - (-2.5 + 0.001)}, {775, -2 + float64(float32(8)/9) - (-2.5)}} {
		e := engine(t, tc.protocol)
		w := newWorld(t, e, "stone")
		w.fill(t, -2, -3, -2, 2, -2, 2, "water")
		s := e.Step(w, State{Pos: Vec3{0.5, -2.5, 0.5}}, Controls{}, a)
		near(t, "depth in water", s.WaterHeight, tc.want, 1e-9)
	}
}

// An unloaded column freezes the player (LocalPlayer.tick does nothing), and
// the output flags say what the server needs.
func TestFrozenAndFlags(t *testing.T) {
	e := engine(t, 769)
	w := newWorld(t, e, "stone")
	a := DefaultAttributes()
	w.unloaded[world.ChunkPos{X: 0, Z: 0}] = true
	s := State{Pos: Vec3{0.5, 5, 0.5}, Vel: Vec3{0, -0.5, 0}}
	got := e.Step(w, s, Controls{Forward: true, Yaw: 30}, a)
	if !got.Frozen || got.Pos != s.Pos || got.Vel != s.Vel || got.Yaw != 30 {
		t.Errorf("in an unloaded column: %+v", got)
	}
	delete(w.unloaded, world.ChunkPos{X: 0, Z: 0})
	w.fill(t, -2, 0, 2, 2, 2, 2, "stone")
	s = walkFor(e, w, Vec3{0.5, 0, 0.5}, Controls{Forward: true}, a, 20)
	if !s.OnGround || !s.HorizontalCollision || s.MovementFlags() != 3 {
		t.Errorf("against a wall: on ground %v, collision %v, flags %#x", s.OnGround, s.HorizontalCollision, s.MovementFlags())
	}
	c := Controls{Forward: true, Back: true, Left: true, Right: true, Jump: true, Sneak: true, Sprint: true}
	if c.PlayerInput() != 0x7f || (Controls{Jump: true, Sprint: true}).PlayerInput() != 0x50 {
		t.Errorf("player input flags: %#x, %#x", c.PlayerInput(), (Controls{Jump: true, Sprint: true}).PlayerInput())
	}
}

// Lava: the player sinks slowly (motion halved each tick, a quarter of
// gravity; LivingEntity.travelInLava), rises holding jump, and its fall
// distance halves each tick (Entity.baseTick).
func TestLava(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		e := engine(t, p)
		w := newWorld(t, e, "stone")
		w.fill(t, -3, -8, -3, 3, -1, 3, "lava")
		a := DefaultAttributes()
		s := State{Pos: Vec3{0.5, -4, 0.5}, FallDistance: 8}
		s = e.Step(w, s, Controls{}, a)
		if !s.InLava || s.InWater {
			t.Fatalf("%d: in lava %v, in water %v", p, s.InLava, s.InWater)
		}
		if s.FallDistance > 4.1 {
			t.Errorf("%d: fall distance %.3f after a tick in lava, want halved from 8", p, s.FallDistance)
		}
		for i := 0; i < 20; i++ {
			s = e.Step(w, s, Controls{}, a)
		}
		// Deeper than 0.4 the motion is halved, then gravity/4 is taken:
		// v = v/2 − 0.02 settles at −0.04 a tick.
		near(t, "sinking in lava", s.Vel.Y, -0.04, 1e-5)
		y := s.Pos.Y
		for i := 0; i < 20; i++ {
			s = e.Step(w, s, Controls{Jump: true}, a)
		}
		if s.Pos.Y <= y+0.5 {
			t.Errorf("%d: holding jump in lava for 20 ticks rose from %.3f to %.3f", p, y, s.Pos.Y)
		}
	}
}
