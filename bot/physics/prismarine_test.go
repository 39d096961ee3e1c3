package physics

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// The differential test: prismarine-physics 1.11.1 (mineflayer's engine,
// pinned in testdata/peers) and Step run the same worlds, start states and
// controls, and must agree to 1e-6 on position and velocity, and exactly on
// being on ground, every tick — except where prismarine-physics differs
// from the game, each exception citing the game's code.
//
// Two comparisons run per scenario. One tick: Step starts every tick from
// prismarine-physics's state of the tick before, so each tick's arithmetic
// is compared on its own. Free run: both run the whole scenario on their
// own, so differences accumulate; the game's float constants (0.1F speed,
// 0.98F drag, 0.6F friction …) against prismarine-physics's doubles make
// positions drift by about 1e-8 per tick of sustained walking, so a free run
// is held to 1e-6 plus that drift.

const tolerance = 1e-6

// driftPerTick is the free run's allowance per tick for the game's float
// constants, which prismarine-physics writes as doubles: ground
// acceleration 0.21600002F/f³ of a float speed (LivingEntity
// .getFrictionInfluencedSpeed) against its 0.1627714/(0.546)³ = 1.00000039
// × 0.1, a relative 3.9e-7 of a 0.28-block-per-tick sprint.
const driftPerTick = 2e-7

type refWorld struct {
	GroundTop int            `json:"groundTop"`
	Ground    mcdata.StateID `json:"ground"`
	Blocks    [][4]int       `json:"blocks"`
}

type refStart struct {
	Pos      [3]float64 `json:"pos"`
	Vel      [3]float64 `json:"vel"`
	OnGround bool       `json:"onGround"`
	Yaw      float32    `json:"yaw"`
	Pitch    float32    `json:"pitch"`
	// Sneaking starts Step's player already crouched (the sneak key held
	// last tick), as prismarine-physics's player is from its first tick.
	Sneaking bool `json:"-"`
}

type refControls struct {
	Forward bool    `json:"forward,omitempty"`
	Back    bool    `json:"back,omitempty"`
	Left    bool    `json:"left,omitempty"`
	Right   bool    `json:"right,omitempty"`
	Jump    bool    `json:"jump,omitempty"`
	Sprint  bool    `json:"sprint,omitempty"`
	Sneak   bool    `json:"sneak,omitempty"`
	Yaw     float32 `json:"yaw"`
	Pitch   float32 `json:"pitch"`
}

type refScenario struct {
	Name     string        `json:"name"`
	Version  string        `json:"version"`
	World    refWorld      `json:"world"`
	Start    refStart      `json:"start"`
	Controls []refControls `json:"controls"`

	protocol int32
	world    string
	control  string
}

type refTick struct {
	Pos      [3]float64 `json:"pos"`
	Vel      [3]float64 `json:"vel"`
	OnGround bool       `json:"onGround"`
	HColl    bool       `json:"hcoll"`
	InWater  bool       `json:"inWater"`
}

type refResult struct {
	Name  string    `json:"name"`
	Ticks []refTick `json:"ticks"`
}

// diffWorld is a test world built from a refWorld.
func (rw *refWorld) testWorld(g *mcdata.GameData) *testWorld {
	w := &testWorld{g: g, groundTop: rw.GroundTop, ground: rw.Ground, blocks: map[world.BlockPos]mcdata.StateID{}, unloaded: map[world.ChunkPos]bool{}}
	for _, b := range rw.Blocks {
		w.blocks[world.BlockPos{X: b[0], Y: b[1], Z: b[2]}] = mcdata.StateID(b[3])
	}
	return w
}

// worldBuilder builds a refWorld from block names.
type worldBuilder struct {
	t  testing.TB
	g  *mcdata.GameData
	rw refWorld
}

func (b *worldBuilder) id(spec string) mcdata.StateID {
	w := testWorld{g: b.g}
	return w.state(b.t, spec)
}

func (b *worldBuilder) fill(x0, y0, z0, x1, y1, z1 int, spec string) {
	s := int(b.id(spec))
	for x := x0; x <= x1; x++ {
		for y := y0; y <= y1; y++ {
			for z := z0; z <= z1; z++ {
				b.rw.Blocks = append(b.rw.Blocks, [4]int{x, y, z, s})
			}
		}
	}
}

// A diffCase is a world with a start position.
type diffCase struct {
	name  string
	build func(b *worldBuilder)
	start refStart
}

var diffWorlds = []diffCase{
	{"flat", func(b *worldBuilder) {}, refStart{Pos: [3]float64{0.5, 0, 0.5}, OnGround: true}},
	{"slab_step", func(b *worldBuilder) {
		b.fill(-3, 0, 3, 3, 0, 3, "oak_slab[type=bottom]")
		b.fill(-3, 0, 4, 3, 0, 20, "stone")
	}, refStart{Pos: [3]float64{0.5, 0, 0.5}, OnGround: true}},
	{"stairs", func(b *worldBuilder) {
		for i := 0; i < 6; i++ {
			b.fill(-3, i, 3+i, 3, i, 3+i, "oak_stairs[facing=south,half=bottom]")
			if i > 0 {
				b.fill(-3, 0, 3+i, 3, i-1, 3+i, "stone")
			}
		}
	}, refStart{Pos: [3]float64{0.5, 0, 0.5}, OnGround: true}},
	{"wall", func(b *worldBuilder) {
		b.fill(-3, 0, 3, 3, 0, 3, "cobblestone_wall[east=tall,west=tall]")
	}, refStart{Pos: [3]float64{0.5, 0, 0.5}, OnGround: true}},
	{"fence", func(b *worldBuilder) {
		b.fill(-3, 0, 3, 3, 0, 3, "oak_fence[east=true,west=true]")
	}, refStart{Pos: [3]float64{0.5, 0, 0.5}, OnGround: true}},
	{"pit", func(b *worldBuilder) {
		b.fill(-3, -4, 3, 3, -1, 5, "air")
	}, refStart{Pos: [3]float64{0.5, 0, 0.5}, OnGround: true}},
	{"water", func(b *worldBuilder) {
		b.fill(-4, -3, 3, 4, -1, 14, "water")
	}, refStart{Pos: [3]float64{0.5, 0, 0.5}, OnGround: true}},
	{"water_deep", func(b *worldBuilder) {
		b.fill(-4, -8, -4, 4, -1, 14, "water")
	}, refStart{Pos: [3]float64{0.5, -5, 0.5}}},
	{"water_flowing", func(b *worldBuilder) {
		b.fill(-4, -1, 1, 4, -1, 1, "water")
		for i := 1; i <= 7; i++ {
			b.fill(-4, -1, 1+i, 4, -1, 1+i, fmt.Sprintf("water[level=%d]", i))
		}
	}, refStart{Pos: [3]float64{0.5, -1, 2.5}, OnGround: true}},
	{"ladder", func(b *worldBuilder) {
		b.fill(-2, 0, 4, 2, 8, 4, "stone")
		b.fill(-2, 0, 3, 2, 6, 3, "ladder[facing=north]")
	}, refStart{Pos: [3]float64{0.5, 0, 2.5}, OnGround: true}},
	{"soul_sand", func(b *worldBuilder) {
		b.fill(-3, -1, -3, 3, -1, 40, "soul_sand")
	}, refStart{Pos: [3]float64{0.5, -0.125, 0.5}, OnGround: true}},
	{"ice", func(b *worldBuilder) {
		b.fill(-3, -1, -3, 3, -1, 40, "ice")
	}, refStart{Pos: [3]float64{0.5, 0, 0.5}, OnGround: true}},
	{"blue_ice", func(b *worldBuilder) {
		b.fill(-3, -1, -3, 3, -1, 40, "blue_ice")
	}, refStart{Pos: [3]float64{0.5, 0, 0.5}, OnGround: true}},
	{"slime", func(b *worldBuilder) {
		b.fill(-3, -1, -3, 3, -1, 40, "slime_block")
	}, refStart{Pos: [3]float64{0.5, 3, 0.5}}},
}

// diffControls are the control programs: one Controls per tick. sneaking
// starts the player crouched.
var diffControls = []struct {
	name     string
	ticks    int
	at       func(i int) refControls
	sneaking bool
}{
	{"idle", 30, func(i int) refControls { return refControls{} }, false},
	{"walk", 60, func(i int) refControls { return refControls{Forward: true} }, false},
	{"sprint", 60, func(i int) refControls { return refControls{Forward: true, Sprint: true} }, false},
	{"jump", 60, func(i int) refControls { return refControls{Jump: true} }, false},
	{"sprint_jump", 60, func(i int) refControls { return refControls{Forward: true, Sprint: true, Jump: true} }, false},
	{"walk_jump", 60, func(i int) refControls { return refControls{Forward: true, Jump: i%12 < 6} }, false},
	{"sneak", 60, func(i int) refControls { return refControls{Forward: true, Sneak: true} }, true},
	{"sneak_press", 30, func(i int) refControls { return refControls{Forward: true, Sneak: i >= 10} }, false},
	{"strafe", 60, func(i int) refControls { return refControls{Forward: true, Left: i < 30, Right: i >= 30} }, false},
	{"back_stop", 60, func(i int) refControls { return refControls{Forward: i < 20, Back: i >= 30 && i < 40} }, false},
	{"turn", 70, func(i int) refControls {
		// Turns through the angles whose sine and cosine the game's table
		// holds exactly in every version (Mth.sin: 225°, 315° and, from
		// 1.21.9, −45° fall one entry short).
		return refControls{Forward: true, Yaw: [...]float32{0, 45, 90, 135, 180, -135, -90}[i/10]}
	}, false},
	{"turn_fine", 60, func(i int) refControls {
		return refControls{Forward: true, Sprint: true, Yaw: float32(7*i) - 30}
	}, false},
}

func buildScenarios(t testing.TB, protocols []int32) []*refScenario {
	var out []*refScenario
	for _, p := range protocols {
		g := mcdata.Game(p)
		for _, wc := range diffWorlds {
			b := &worldBuilder{t: t, g: g, rw: refWorld{GroundTop: 0, Ground: (&worldBuilder{t: t, g: g}).id("stone")}}
			wc.build(b)
			for _, dc := range diffControls {
				sc := &refScenario{
					Name:     fmt.Sprintf("%d/%s/%s", p, wc.name, dc.name),
					Version:  g.Version,
					World:    b.rw,
					Start:    wc.start,
					protocol: p,
					world:    wc.name,
					control:  dc.name,
				}
				sc.Start.Sneaking = dc.sneaking
				for i := 0; i < dc.ticks; i++ {
					sc.Controls = append(sc.Controls, dc.at(i))
				}
				out = append(out, sc)
			}
		}
	}
	return out
}

// runReference runs physics_ref.js on the scenarios.
func runReference(t *testing.T, scs []*refScenario) map[string]refResult {
	t.Helper()
	data, err := json.Marshal(scs)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "scenarios.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out := peertest.RunNode(t, "physics_ref.js", path)
	res := map[string]refResult{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r refResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("physics_ref.js printed %q: %v", sc.Text(), err)
		}
		res[r.Name] = r
	}
	if len(res) != len(scs) {
		t.Fatalf("physics_ref.js answered %d of %d scenarios", len(res), len(scs))
	}
	return res
}

func controlsOf(c refControls) Controls {
	return Controls{Forward: c.Forward, Back: c.Back, Left: c.Left, Right: c.Right, Jump: c.Jump, Sprint: c.Sprint, Sneak: c.Sneak, Yaw: c.Yaw, Pitch: c.Pitch}
}

// startState is the Step state for a scenario's start.
func startState(e *Engine, w World, st refStart) State {
	s := e.StandingState(w, Vec3{st.Pos[0], st.Pos[1], st.Pos[2]}, st.Yaw)
	s.Vel = Vec3{st.Vel[0], st.Vel[1], st.Vel[2]}
	s.Pitch = st.Pitch
	s.OnGround = st.OnGround
	if !st.OnGround {
		s.HasSupport = false
	}
	if st.Sneaking {
		s.ShiftKey, s.Crouching, s.Pose = true, true, Crouching
	}
	return s
}

// divergence is how far two tick records differ: the largest position and
// velocity difference, and whether on-ground differs.
type divergence struct {
	pos, vel float64
	ground   bool
}

func (d divergence) within(tol float64) bool { return d.pos <= tol && d.vel <= tol && !d.ground }

func compareTick(s *State, r refTick) divergence {
	d := divergence{ground: s.OnGround != r.OnGround}
	for i, v := range [3]float64{s.Pos.X, s.Pos.Y, s.Pos.Z} {
		d.pos = math.Max(d.pos, math.Abs(v-r.Pos[i]))
	}
	for i, v := range [3]float64{s.Vel.X, s.Vel.Y, s.Vel.Z} {
		d.vel = math.Max(d.vel, math.Abs(v-r.Vel[i]))
	}
	return d
}

// tickCtx is one tick of a scenario where Step and prismarine-physics
// disagree, for the exception rules to judge.
type tickCtx struct {
	sc        *refScenario
	e         *Engine
	w         *testWorld
	i         int // 0-based tick
	c         Controls
	prev, cur State // Step's free run before and after the tick
	prevRef   refTick
	ref       refTick
	one       divergence // the one-tick divergence
	oneState  State      // Step's one-tick result
}

// scenarioResult is one scenario's comparison: how many ticks agreed, and
// the exception that ended the comparison (nil when all agreed).
type scenarioResult struct {
	agreed        int
	oneTick, free divergence
	ex            *exceptionRule
	at            *tickCtx
	ours          []State
}

func refState(st refStart) refTick {
	return refTick{Pos: st.Pos, Vel: st.Vel, OnGround: st.OnGround}
}

func compareScenario(t *testing.T, sc *refScenario, ref refResult) scenarioResult {
	e := engine(t, sc.protocol)
	w := sc.World.testWorld(e.Game())
	a := DefaultAttributes()
	var res scenarioResult
	free := startState(e, w, sc.Start)
	prevRef := refState(sc.Start)
	for i, rc := range sc.Controls {
		c := controlsOf(rc)
		// One tick from the reference's previous state; the fields it does
		// not have (sprinting, jump delay, fall distance, support) from
		// Step's own run.
		one := free
		one.Pos, one.Vel, one.OnGround = Vec3{prevRef.Pos[0], prevRef.Pos[1], prevRef.Pos[2]}, Vec3{prevRef.Vel[0], prevRef.Vel[1], prevRef.Vel[2]}, prevRef.OnGround
		if i > 0 {
			one.HorizontalCollision = prevRef.HColl
		}
		one = e.Step(w, one, c, a)
		prev := free
		free = e.Step(w, free, c, a)
		res.ours = append(res.ours, free)
		d1, d2 := compareTick(&one, ref.Ticks[i]), compareTick(&free, ref.Ticks[i])
		if !d1.within(tolerance) || !d2.within(tolerance+driftPerTick*float64(i+1)) {
			x := &tickCtx{sc: sc, e: e, w: w, i: i, c: c, prev: prev, cur: free, prevRef: prevRef, ref: ref.Ticks[i], one: d1, oneState: one}
			res.at = x
			for k := range exceptions {
				if exceptions[k].applies(x) {
					res.ex = &exceptions[k]
					break
				}
			}
			res.oneTick, res.free = worst(res.oneTick, d1), worst(res.free, d2)
			return res
		}
		res.oneTick, res.free = worst(res.oneTick, d1), worst(res.free, d2)
		res.agreed++
		prevRef = ref.Ticks[i]
	}
	return res
}

func worst(a, b divergence) divergence {
	return divergence{pos: math.Max(a.pos, b.pos), vel: math.Max(a.vel, b.vel), ground: a.ground || b.ground}
}

// TestPrismarineDifferential runs the world × controls matrix for one
// protocol of each of the rule sets (rules.go) and holds Step to
// prismarine-physics tick by tick. A scenario agrees when every tick does;
// when a tick does not, one of the exception rules below must explain it
// with the game's code, and its check must confirm that Step does what the
// game does there; the comparison of that scenario ends at that tick,
// since the two runs then legitimately part.
func TestPrismarineDifferential(t *testing.T) {
	protocols := []int32{767, 768, 769, 770, 774, 775}
	if testing.Short() {
		protocols = []int32{769, 775}
	}
	scs := buildScenarios(t, protocols)
	refs := runReference(t, scs)
	agree, ticks := 0, 0
	byRule := map[string][]string{}
	var report []string
	for _, sc := range scs {
		res := compareScenario(t, sc, refs[sc.Name])
		ticks += res.agreed
		if os.Getenv("PHYSICS_DIFF_VERBOSE") != "" {
			line := fmt.Sprintf("%-36s agreed %2d/%2d ticks (one-tick pos %.1e vel %.1e, free pos %.1e vel %.1e)", sc.Name, res.agreed, len(sc.Controls), res.oneTick.pos, res.oneTick.vel, res.free.pos, res.free.vel)
			if res.ex != nil {
				line += " then: " + res.ex.name
			}
			report = append(report, line)
		}
		switch {
		case res.at == nil:
			agree++
		case res.ex == nil:
			t.Errorf("%s: Step and prismarine-physics disagree at tick %d, and no exception explains it: one tick: %s; free run: %s",
				sc.Name, res.at.i+1, fmtDiv(res.at.one), fmtDiv(compareTick(&res.at.cur, res.at.ref)))
			dumpTicks(t, sc, refs[sc.Name], res)
		default:
			byRule[res.ex.name] = append(byRule[res.ex.name], fmt.Sprintf("%s@%d", sc.Name, res.at.i+1))
			if err := res.ex.check(res.at); err != nil {
				t.Errorf("%s at tick %d: %s: but Step does not do what the game does: %v", sc.Name, res.at.i+1, res.ex.why, err)
				dumpTicks(t, sc, refs[sc.Name], res)
			}
		}
	}
	sort.Strings(report)
	for _, l := range report {
		t.Log(l)
	}
	names := make([]string, 0, len(byRule))
	for n := range byRule {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("exception %q: %d scenarios part from prismarine-physics there", n, len(byRule[n]))
	}
	t.Logf("%d of %d scenarios agree with prismarine-physics to %g on every tick; %d ticks agree in all", agree, len(scs), tolerance, ticks)
}

func fmtDiv(d divergence) string {
	return fmt.Sprintf("position %.2e, velocity %.2e, on ground differs %v", d.pos, d.vel, d.ground)
}

// dumpTicks logs the ticks up to where the comparison ended.
func dumpTicks(t *testing.T, sc *refScenario, ref refResult, res scenarioResult) {
	end := res.agreed + 1
	for i := max(end-3, 1); i <= min(end, len(res.ours)); i++ {
		s, r := res.ours[i-1], ref.Ticks[i-1]
		t.Logf("  tick %d: ours pos %v vel %v ground %v hcoll %v water %v sprint %v | ref pos %v vel %v ground %v hcoll %v water %v",
			i, s.Pos, s.Vel, s.OnGround, s.HorizontalCollision, s.InWater, s.Sprinting, r.Pos, r.Vel, r.OnGround, r.HColl, r.InWater)
	}
}

// exceptionRule is a way prismarine-physics differs from the game. applies
// says whether the difference shows at this tick; check confirms that
// Step does what the game does there.
type exceptionRule struct {
	name    string
	why     string
	applies func(x *tickCtx) bool
	check   func(x *tickCtx) error
}

// The ways prismarine-physics 1.11.1 is not the game, in the order they
// are tried. Each cites the decompiled game (the source table of
// notes/PROTOCOL-CHANGES.md).
var exceptions = []exceptionRule{
	{
		name: "speed-factor",
		why: "Entity.move multiplies the motion by the speed factor of the block below (soul sand 0.4; " +
			"LivingEntity.getBlockSpeedFactor) in every version; prismarine-physics applies it for 1.15–1.20 only (feature velocityBlocksOnTop)",
		applies: func(x *tickCtx) bool {
			return speedFactorAt(x.e, x.w, x.prev.Pos) != 1 || speedFactorAt(x.e, x.w, x.cur.Pos) != 1
		},
		check: func(x *tickCtx) error {
			ours, theirs := x.cur.Vel.HorizontalLength(), math.Hypot(x.ref.Vel[0], x.ref.Vel[2])
			if !(ours < theirs) {
				return fmt.Errorf("horizontal speed %.5f is not below prismarine-physics's %.5f", ours, theirs)
			}
			return nil
		},
	},
	{
		name: "sprint-swim",
		why: "LivingEntity.travel: a player sprinting in water slows by 0.9 rather than 0.8 and does not sink " +
			"(getFluidFallingAdjustedMovement leaves a sprinter's motion alone), and swims towards its look (Player.travel); " +
			"prismarine-physics moves a sprinter in water as a walker",
		applies: func(x *tickCtx) bool { return x.cur.InWater && x.cur.Sprinting },
		check: func(x *tickCtx) error {
			// Sprinting in water, the game subtracts no gravity/16: the
			// motion is prismarine-physics's plus the 0.005 it took, or the
			// swim's pull towards the look.
			if d := x.oneState.Vel.Y - x.ref.Vel[1]; !x.cur.Swimming && math.Abs(d-0.005) > 1e-6 {
				return fmt.Errorf("vertical motion differs by %.6f, not the 0.005 of gravity in water", d)
			}
			return nil
		},
	},
	{
		name: "sneak-delay",
		why: "LocalPlayer.aiStep decides crouching from last tick's sneak key, before the input ticks (1.21.1 … 26.1.2), so " +
			"sneaking slows the player from the tick after the key goes down; prismarine-physics slows it at once",
		applies: func(x *tickCtx) bool { return x.c.Sneak && !x.prev.ShiftKey },
		check: func(x *tickCtx) error {
			if x.cur.Crouching || !x.cur.ShiftKey {
				return fmt.Errorf("crouching %v on the first sneaking tick, shift key %v", x.cur.Crouching, x.cur.ShiftKey)
			}
			return nil
		},
	},
	{
		name: "sine-table",
		why: "Entity.getInputVector and jumpFromGround turn by Mth.sin/Mth.cos, a 65536-entry table " +
			"(one entry is 9.6e-5 radians); prismarine-physics uses Math.sin",
		applies: func(x *tickCtx) bool {
			rad := x.cur.Yaw * degToRad
			t := x.e.trig
			return math.Abs(float64(t.sin(rad))-math.Sin(float64(rad))) > 1e-7 || math.Abs(float64(t.cos(rad))-math.Cos(float64(rad))) > 1e-7
		},
		check: func(x *tickCtx) error {
			// One entry of the table moves a 0.13 acceleration (plus a 0.2
			// sprint-jump push) by under 5e-5.
			if x.one.vel > 5e-5 {
				return fmt.Errorf("one tick differs by %.2e in velocity, more than one table entry explains", x.one.vel)
			}
			return nil
		},
	},
	{
		name: "sprint-stops",
		why: "LocalPlayer.aiStep stops a sprint after a horizontal collision that is not minor, and starts none in shallow " +
			"water (1.21.1 … 26.1.2); prismarine-physics sprints whenever the key is held",
		applies: func(x *tickCtx) bool { return x.c.Sprint && !x.cur.Sprinting },
		check: func(x *tickCtx) error {
			collided := x.prev.HorizontalCollision && !x.prev.MinorHorizontalCollision
			shallow := x.cur.InWater && !(x.cur.WasEyeInWater && x.cur.InWater)
			if !collided && !shallow {
				return fmt.Errorf("not sprinting, yet no collision last tick (%v, minor %v) and not in shallow water", x.prev.HorizontalCollision, x.prev.MinorHorizontalCollision)
			}
			return nil
		},
	},
	{
		name: "jump-keeps-faster",
		why: "LivingEntity.jumpFromGround keeps a faster upward motion from 1.21.2 on (Math.max(jumpPower, deltaMovement.y)); " +
			"prismarine-physics sets 0.42",
		applies: func(x *tickCtx) bool {
			return x.sc.protocol >= 768 && x.c.Jump && x.prev.OnGround && x.prev.Vel.Y > f32(0.42)
		},
		check: func(x *tickCtx) error {
			if got := x.cur.Pos.Y - x.prev.Pos.Y; got < x.prev.Vel.Y-1e-9 {
				return fmt.Errorf("rose %.5f, less than the %.5f it had", got, x.prev.Vel.Y)
			}
			return nil
		},
	},
	{
		name:    "sneak-sinks",
		why:     "LocalPlayer.aiStep sinks a sneaking player in water by 0.04 a tick (LivingEntity.goDownInWater); prismarine-physics does not",
		applies: func(x *tickCtx) bool { return x.c.Sneak && x.cur.InWater },
		check: func(x *tickCtx) error {
			if !x.cur.OnGround && !(x.cur.Pos.Y < x.prev.Pos.Y) {
				return fmt.Errorf("neither sank nor reached the ground")
			}
			return nil
		},
	},
	{
		name: "water-contact",
		why: "Entity.updateFluidHeightAndDoFluidPushing counts the player in water when a water surface is at or above its box's bottom " +
			"(box shrunk by 0.001; 26.1's EntityFluidInteraction: deeper than 0); prismarine-physics shrinks its water box by 0.401",
		applies: func(x *tickCtx) bool { return x.cur.InWater != x.ref.InWater },
		check: func(x *tickCtx) error {
			if want := touchesWater(x.e, x.w, x.prev); x.cur.InWater != want {
				return fmt.Errorf("in water %v, but the water surface says %v", x.cur.InWater, want)
			}
			return nil
		},
	},
	{
		name: "water-current",
		why: "Entity.updateFluidHeightAndDoFluidPushing averages the flow of the water blocks touched (a player's push is not " +
			"normalised) and scales each by the depth while under 0.4 blocks; prismarine-physics pushes 0.014 along the normalised sum",
		applies: func(x *tickCtx) bool { return x.cur.InWater && x.sc.world == "water_flowing" },
		check: func(x *tickCtx) error {
			if x.cur.WaterHeight >= 0.4 && waterBlocksTouched(x.e, x.w, x.prev) < 2 {
				return fmt.Errorf("depth %.3f and one water block: the game's push is prismarine-physics's", x.cur.WaterHeight)
			}
			return nil
		},
	},
	{
		name: "deadzone",
		why: "LivingEntity.aiStep zeroes a player's horizontal motion only when its length² is below 9.0E-6 from 1.21.5 on " +
			"(1.21.7's and 26.1.2's source), not each axis below 0.003 (1.21.4); prismarine-physics zeroes each axis",
		applies: func(x *tickCtx) bool {
			vx, vz := x.prevRef.Vel[0], x.prevRef.Vel[2]
			small := vx != 0 && math.Abs(vx) < 0.003 || vz != 0 && math.Abs(vz) < 0.003
			return x.sc.protocol >= 770 && small && vx*vx+vz*vz >= 9e-6
		},
		check: func(x *tickCtx) error {
			// Step kept the small component prismarine-physics dropped: its
			// one-tick position is off by about that much on that axis.
			for i, d := range [2]float64{x.oneState.Pos.X - x.ref.Pos[0], x.oneState.Pos.Z - x.ref.Pos[2]} {
				v := x.prevRef.Vel[2*i]
				if v != 0 && math.Abs(v) < 0.003 && math.Abs(d) > 0.5*math.Abs(v) {
					return nil
				}
			}
			return fmt.Errorf("the one-tick position does not show the kept motion")
		},
	},
	{
		name: "slime-step",
		why: "SlimeBlock.stepOn slows an entity walking on slime (motion × 0.4 + |y|·0.2 while |y| < 0.1, unless sneaking); " +
			"prismarine-physics only bounces",
		applies: func(x *tickCtx) bool {
			r := newReader(x.e, x.w, true)
			return x.cur.OnGround && r.info(floorInt(x.cur.Pos.X), floorInt(x.cur.Pos.Y-0.2), floorInt(x.cur.Pos.Z)).flags&fSlime != 0
		},
		check: func(x *tickCtx) error {
			ours, theirs := x.cur.Vel.HorizontalLength(), math.Hypot(x.ref.Vel[0], x.ref.Vel[2])
			if !(ours < 0.5*theirs) {
				return fmt.Errorf("horizontal speed %.5f is not slowed from prismarine-physics's %.5f", ours, theirs)
			}
			return nil
		},
	},
	{
		name: "axis-order",
		why: "Entity.collideWithShapes moves along y, then along the smaller of x and z, then the larger (so a diagonal step " +
			"clears a corner the game's way); prismarine-physics always moves y, x, z",
		applies: func(x *tickCtx) bool {
			d := x.cur.Pos.Sub(x.prev.Pos)
			return x.ref.HColl != x.cur.HorizontalCollision && d.X != 0 && d.Z != 0
		},
		check: func(x *tickCtx) error {
			// The move the game made, resolved x before z as
			// prismarine-physics does, must be blocked.
			r := newReader(x.e, x.w, true)
			c := ctx{bottom: x.prev.Pos.Y}
			box := x.prev.Box()
			d := x.cur.Pos.Sub(x.prev.Pos)
			colls := r.colliders(nil, box.ExpandTowards(d.X, d.Y, d.Z), &c)
			box = box.Move(0, collideAxis(1, colls, box, d.Y), 0)
			dx := collideAxis(0, colls, box, d.X)
			dz := collideAxis(2, colls, box.Move(dx, 0, 0), d.Z)
			if mthEqual(dx, d.X) && mthEqual(dz, d.Z) {
				return fmt.Errorf("x before z does not block the move %v either", d)
			}
			return nil
		},
	},
	{
		name: "collision-epsilon",
		why: "Entity.move reports a horizontal collision only when the movement was cut by 1.0E-5 or more (Mth.equal); " +
			"prismarine-physics by any amount, so it climbs a ladder it merely brushes",
		applies: func(x *tickCtx) bool { return x.ref.HColl && !x.cur.HorizontalCollision },
		check: func(x *tickCtx) error {
			if math.Abs(x.cur.Pos.X-x.prev.Pos.X) >= 1e-5 && math.Abs(x.cur.Pos.Z-x.prev.Pos.Z) >= 1e-5 {
				return fmt.Errorf("moved %.2e and %.2e: a collision should have shown", x.cur.Pos.X-x.prev.Pos.X, x.cur.Pos.Z-x.prev.Pos.Z)
			}
			return nil
		},
	},
}

// speedFactorAt is the speed factor of the block the feet are in, or under
// them (the game's rule, without the supporting-block refinement).
func speedFactorAt(e *Engine, w World, p Vec3) float32 {
	r := newReader(e, w, true)
	if f := r.info(floorInt(p.X), floorInt(p.Y), floorInt(p.Z)).speed; f != 1 {
		return f
	}
	return r.info(floorInt(p.X), floorInt(p.Y-0.500001), floorInt(p.Z)).speed
}

// touchesWater restates the game's water contact: a water block in the
// box (shrunk by 0.001) whose surface is at or above the box's bottom.
func touchesWater(e *Engine, w World, s State) bool {
	return waterBlocksTouched(e, w, s) > 0
}

func waterBlocksTouched(e *Engine, w World, s State) int {
	r := newReader(e, w, true)
	b := s.Box().Inflate(-0.001, -0.001, -0.001)
	n := 0
	for x := floorInt(b.MinX); x < ceilInt(b.MaxX); x++ {
		for y := floorInt(b.MinY); y < ceilInt(b.MaxY); y++ {
			for z := floorInt(b.MinZ); z < ceilInt(b.MaxZ); z++ {
				in := r.info(x, y, z)
				if in.fluidKind != mcdata.Water {
					continue
				}
				h := in.ownHeight()
				if r.info(x, y+1, z).fluidKind == mcdata.Water {
					h = 1
				}
				if float64(y)+float64(h) >= b.MinY {
					n++
				}
			}
		}
	}
	return n
}
