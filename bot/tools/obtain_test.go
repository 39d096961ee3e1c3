package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/plan"
	blocks "github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/protocol"
)

// newObtainWorld is a bot at 0.5 64 0.5 on a manual clock, on stone, with
// oak logs above its head at 0 66 0 and 0 67 0 and an empty inventory. The
// server answers every block_dig with its acknowledgement, and a finished
// dig of a log with the block's change to air and, as the game's pick-up
// would, one more oak_log in the first hotbar slot. Each dig packet is
// passed on to digs.
func newObtainWorld(t *testing.T, proto int32, clock *core.ManualClock) (*scriptedWorld, <-chan digPacket) {
	t.Helper()
	g := mcdata.Game(proto)
	stone, log := g.BlockByName("stone").DefaultState, g.BlockByName("oak_log").DefaultState
	digs := make(chan digPacket, 16)
	sw := &scriptedWorld{rec: fakeserver.NewRecorder(t)}
	sw.port = fakeserver.StartWorld(t, proto, func(f *fakeServer) {
		f.Login(-1)
		f.Configure()
		f.Play(42, 0.5, 64, 0.5)
		f.SendChunk(fakeserver.Column(proto, 0, 0, 0, func(x, y, z int) mcdata.StateID {
			switch {
			case y < 64:
				return stone
			case x == 0 && (y == 66 || y == 67) && z == 0:
				return log
			}
			return 0
		}))
		f.WindowItems(0, 1, make([]fitem, 46), fitem{})
		logs := int32(0)
		for {
			p, r := f.Next()
			if r == nil {
				return
			}
			if p != mcdata.ServerboundPlayBlockDig {
				continue
			}
			d := answerDig(f, r)
			if d.status == codec.ActionStopDigging {
				logs++
				f.SetSlot(0, 10+logs, 36, fstack("oak_log", logs))
			}
			digs <- d
		}
	})
	sw.start(t, proto, bot.Options{Clock: clock})
	protocol.RegisterBuiltins(sw.cat, sw.d)
	tickUntil(clock, func() bool {
		_, ok := sw.w.Level().View().BlockAt(blocks.BlockPos{X: 0, Y: 66, Z: 0})
		st := sw.w.Body().State()
		return ok && sw.w.Self().Snapshot().OnGround && st.OnGround && !st.Frozen
	})
	sw.wholeWorld(t) // the scene's columns are all there is: no ring of chunks to wait for
	return sw, digs
}

func stepsText(steps []ObtainStep) string {
	var parts []string
	for _, s := range steps {
		parts = append(parts, fmt.Sprintf("%s %d %s %v", s.Action, s.Count, s.Item, s.Done))
	}
	return strings.Join(parts, "; ")
}

// stonePickaxePlan is the plan for a stone pickaxe from nothing, as
// mc_obtain lists it with nothing done.
const stonePickaxePlan = "gather 3 oak_log false; craft 12 oak_planks false; craft 4 stick false; craft 1 crafting_table false; " +
	"place_table 1 crafting_table false; craft 1 wooden_pickaxe false; gather 3 cobblestone false; craft 1 stone_pickaxe false"

// TestObtainDryRun: dry_run answers with the plan from the inventory and
// sends nothing; goals it cannot reach say why, unknown items are errors.
func TestObtainDryRun(t *testing.T) {
	clock := core.NewManualClock(time.Now())
	sw, digs := newObtainWorld(t, 770, clock)
	seq := sw.w.Dig().Sequence()

	var r ObtainResult
	result(t, callN(t, sw.d, "mc_obtain", `{"item":"stone_pickaxe","dry_run":true}`), &r)
	if r.Obtained || r.Item != "stone_pickaxe" || r.Count != 0 || stepsText(r.Steps) != stonePickaxePlan ||
		fmt.Sprint(r.Missing) != "[{oak_log 3} {cobblestone 3}]" || r.Reason != "" || !strings.Contains(r.NextStep, "without dry_run to run these 8 steps") {
		t.Errorf("dry run = %+v\nsteps %s", r, stepsText(r.Steps))
	}
	if sw.w.Dig().Sequence() != seq || len(digs) > 0 {
		t.Errorf("the dry run dug: sequence %d → %d", seq, sw.w.Dig().Sequence())
	}

	r = ObtainResult{}
	result(t, callN(t, sw.d, "mc_obtain", `{"item":"blaze_rod","dry_run":true}`), &r)
	if r.Obtained || !strings.Contains(r.Reason, "in the nether; blockmate does not go there") || r.NextStep == "" {
		t.Errorf("blaze rod = %+v", r)
	}
	if resp := callN(t, sw.d, "mc_obtain", `{"item":"unobtainium","dry_run":true}`); resp.OK || !strings.Contains(resp.Error, "is not an item") {
		t.Errorf("an unknown item: %+v", resp)
	}
}

// TestObtainStopThenAgain: mc_stop during a plan's first step (the bot
// turning to the log it digs) ends the call within a tick: the answer
// says it was stopped, in which step, and what remains, and mc_stop lists
// it. A new call then runs to its end, ticked by the clock: one log dug,
// its drop counted from the server's inventory update.
func TestObtainStopThenAgain(t *testing.T) {
	clock := core.NewManualClock(time.Now())
	sw, digs := newObtainWorld(t, 770, clock)
	events, unsub := sw.d.Events().Subscribe(64)
	defer unsub()

	ctx := context.Background()
	obtain := sw.d.Start(ctx, request(t, "ob1", "mc_obtain", `{"item":"stone_pickaxe"}`))
	answered := make(chan protocol.Response, 1)
	go func() { answered <- obtain() }()
	// The first step's progress names it; the dig begins with a turn of
	// the head, which waits for a tick that the test does not give.
	var progress protocol.TaskProgress
	for progress.Step == "" {
		ev := <-events
		if ev.Name == "mc_task_progress" {
			if err := json.Unmarshal(ev.Payload, &progress); err != nil {
				t.Fatal(err)
			}
			if err := protocol.CheckEventPayload(ev.Name, ev.Payload); err != nil {
				t.Error(err)
			}
		}
	}
	if progress != (protocol.TaskProgress{Tool: "mc_obtain", ID: "ob1", Done: 0, Total: 8, Step: "gather 3 oak_log"}) {
		t.Errorf("the first progress is %+v", progress)
	}
	waitFor(t, func() bool { return sw.w.Body().Turning() }, "the bot turning to the log")
	if r := sw.d.Call(ctx, request(t, "stop", "mc_stop", "")); string(r.Result) != `{"stopped":true,"cancelled":["ob1"]}` {
		t.Errorf("mc_stop = %s %s", r.Result, r.Error)
	}
	var r ObtainResult
	result(t, <-answered, &r)
	if r.Obtained || r.Count != 0 || stepsText(r.Steps) != stonePickaxePlan || fmt.Sprint(r.Missing) != "[{oak_log 3} {cobblestone 3}]" ||
		r.Reason != "stopped by mc_stop during step 1 (gather 3 oak_log), after 0 steps done" || !strings.Contains(r.NextStep, "mc_obtain stone_pickaxe again") {
		t.Errorf("the stopped obtain = %+v\nsteps %s", r, stepsText(r.Steps))
	}
	if len(digs) > 0 {
		t.Errorf("the stopped obtain dug: %+v", <-digs)
	}

	// The next call starts clean: one log, dug and counted.
	done := make(chan protocol.Response, 1)
	go func() { done <- callN(t, sw.d, "mc_obtain", `{"item":"oak_log","count":1}`) }()
	resp := tickedCall(t, sw, clock, digs, done)
	r = ObtainResult{}
	result(t, resp, &r)
	if !r.Obtained || r.Item != "oak_log" || r.Count != 1 || stepsText(r.Steps) != "gather 1 oak_log true" || len(r.Missing) != 0 || r.Reason != "" {
		t.Errorf("the obtain after the stop = %+v\nsteps %s", r, stepsText(r.Steps))
	}
	if got := sw.w.Inventory().View().Count("oak_log"); got != 1 {
		t.Errorf("the bot carries %d oak_log", got)
	}
}

// tickedCall ticks the clock until the call answers on done. Ticks go only
// while the bot waits for game time: once a dig packet has gone out, the
// test takes it at the server before it ticks on, and after a STOP it
// waits for the server's answer (the log gone, the log it gives in the
// inventory), as a server's answer comes within a tick or two in the game.
func tickedCall(t *testing.T, sw *scriptedWorld, clock *core.ManualClock, digs <-chan digPacket, done <-chan protocol.Response) protocol.Response {
	t.Helper()
	var resp protocol.Response
	seq := sw.w.Dig().Sequence()
	stops := sw.w.Inventory().View().Count("oak_log")
	for resp.ID == nil {
		select {
		case resp = <-done:
			continue
		default:
		}
		if sw.w.Dig().Sequence() == seq {
			clock.Tick()
			continue
		}
		d := <-digs
		seq = d.seq
		if d.status == codec.ActionStopDigging {
			// The server gives one log a finished dig.
			stops++
			p := blocks.BlockPos{X: d.pos.X, Y: d.pos.Y, Z: d.pos.Z}
			waitFor(t, func() bool {
				st, _ := sw.w.Level().View().BlockAt(p)
				return st == 0 && sw.w.Inventory().View().Count("oak_log") == stops
			}, "the server's answer to the dig")
		}
	}
	return resp
}

// TestObtainPlansAgainWhenAStepYieldsLess: a wooden pickaxe needs 3 logs
// and the world has 2. The first gather yields 2 of 3; the plan made
// again from the inventory gathers the one left, which yields none, and
// the answer says so: the 2 logs got, what remains (the rest of the plan,
// with 1 oak_log missing), why and what to do.
func TestObtainPlansAgainWhenAStepYieldsLess(t *testing.T) {
	clock := core.NewManualClock(time.Now())
	sw, digs := newObtainWorld(t, 770, clock)
	done := make(chan protocol.Response, 1)
	go func() { done <- callN(t, sw.d, "mc_obtain", `{"item":"wooden_pickaxe"}`) }()
	var r ObtainResult
	result(t, tickedCall(t, sw, clock, digs, done), &r)
	const steps = "gather 2 oak_log false; gather 1 oak_log false; craft 12 oak_planks false; craft 4 stick false; craft 1 crafting_table false; " +
		"place_table 1 crafting_table false; craft 1 wooden_pickaxe false"
	if r.Obtained || r.Count != 0 || stepsText(r.Steps) != steps || fmt.Sprint(r.Missing) != "[{oak_log 1}]" ||
		!strings.HasPrefix(r.Reason, "gather 1 oak_log failed: no more oak_log within 64 blocks") || !strings.Contains(r.NextStep, "mc_find_blocks oak_log") {
		t.Errorf("mc_obtain wooden_pickaxe with 2 logs in the world = %+v\nsteps %s", r, stepsText(r.Steps))
	}
	if got := sw.w.Inventory().View().Count("oak_log"); got != 2 {
		t.Errorf("the bot carries %d oak_log, want the 2 it dug", got)
	}
}

// TestStairsBreakOnlyGround: the staircase towards buried stone steps
// down, around a crafting table in the way (never through it) and not
// over a drop (a cave under the stair), and the stone is seen as buried.
func TestStairsBreakOnlyGround(t *testing.T) {
	const proto = 770
	g := mcdata.Game(proto)
	stone, dirt, table := g.BlockByName("stone").DefaultState, g.BlockByName("dirt").DefaultState, g.BlockByName("crafting_table").DefaultState
	sw := newScriptedWorld(t, proto, func(f *fakeServer) {
		f.SendChunk(fakeserver.Column(proto, 0, 0, 0, func(x, y, z int) mcdata.StateID {
			switch {
			case x == 6 && y == 64 && z == 5:
				return table // where the stair towards +x would go
			case x == 5 && y == 62 && z == 6:
				return 0 // a cave under the stair towards +z
			case y < 60:
				return stone
			case y < 64:
				return dirt
			}
			return 0
		}))
	}, nil)
	waitFor(t, func() bool {
		_, ok := sw.w.Level().View().BlockAt(blocks.BlockPos{X: 5, Y: 63, Z: 5})
		return ok
	}, "the column")
	w, err := sw.t.session()
	if err != nil {
		t.Fatal(err)
	}
	r := &obtainRun{w: w, g: g, unusable: map[blocks.BlockPos]bool{}}
	step := plan.Step{Kind: plan.Gather, Item: "cobblestone", Count: 3, From: []string{"stone", "cobblestone"}}
	if target, ok := r.nearestOf(step); !ok || target.Y != 59 || r.exposed(target) {
		t.Errorf("the nearest stone is %v (found %v, exposed %v), want buried at y 59", target, ok, r.exposed(target))
	}
	feet := blocks.BlockPos{X: 5, Y: 64, Z: 5}
	next, why := r.nextStair(step, feet, blocks.BlockPos{X: 10, Y: 59, Z: 5})
	if why != "" || next != (blocks.BlockPos{X: 5, Y: 63, Z: 4}) {
		t.Errorf("the stair towards +x is %v (%q); want 5 63 4: not through the table, not over the cave", next, why)
	}
	for _, p := range r.stairBlocks(feet, next) {
		if !r.isAir(p) && !r.mayMineThrough(step, p) {
			t.Errorf("the stair breaks %s at %v", r.blockName(p), p)
		}
	}
	if r.mayMineThrough(step, blocks.BlockPos{X: 6, Y: 64, Z: 5}) || !r.mayMineThrough(step, blocks.BlockPos{X: 5, Y: 62, Z: 5}) {
		t.Error("the table may be mined through, or the dirt may not")
	}
}
