package tools

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	blocks "github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/protocol"
)

// digPacket is a block_dig the scripted server received.
type digPacket struct {
	status, seq int32
	pos         codec.BlockPos
}

// newDigWorld is a bot at 0.5 64 0.5 on a manual clock, in a column of
// stone below y 64 with bedrock at 1 64 0 and oak logs above its head at
// 0 66 0 and 0 67 0 (and one out of reach at 0 64 10). The server gives
// the bot haste II, answers every block_dig with its acknowledgement and a
// finish with the block's change to air first (as the game does), and
// passes each dig on to digs.
func newDigWorld(t *testing.T, proto int32, clock *core.ManualClock) (*scriptedWorld, <-chan digPacket) {
	t.Helper()
	g := mcdata.Game(proto)
	stone, bedrock, log := g.BlockByName("stone").DefaultState, g.BlockByName("bedrock").DefaultState, g.BlockByName("oak_log").DefaultState
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
			case x == 1 && y == 64 && z == 0:
				return bedrock
			case x == 0 && (y == 66 || y == 67) && z == 0:
				return log
			}
			return 0
		}))
		haste := g.EffectByName("haste").ID
		f.Send(mcdata.ClientboundPlayEntityEffect, func(w *wire.Writer) { w.VarInt(42); w.VarInt(haste); w.VarInt(1); w.VarInt(-1); w.Byte(0) })
		for {
			p, r := f.Next()
			if r == nil {
				return
			}
			if p != mcdata.ServerboundPlayBlockDig {
				continue
			}
			d := answerDig(f, r)
			digs <- d
		}
	})
	opts := bot.Options{Clock: clock}
	sw.start(t, proto, opts)
	return sw, digs
}

// answerDig reads a player_action the bot sent and answers it as the
// game does: a finished dig turns the block to air, and every action's
// sequence is acknowledged.
func answerDig(f *fakeServer, r *wire.Reader) digPacket {
	d := digPacket{status: r.VarInt()}
	v := r.Int64()
	d.pos = codec.BlockPos{X: int(v >> 38), Y: int(v << 52 >> 52), Z: int(v << 26 >> 38)}
	_ = r.Int8()
	d.seq = r.VarInt()
	if d.status == codec.ActionStopDigging {
		f.Send(mcdata.ClientboundPlayBlockChange, func(w *wire.Writer) {
			w.Int64(int64(d.pos.X&0x3ffffff)<<38 | int64(d.pos.Z&0x3ffffff)<<12 | int64(d.pos.Y&0xfff))
			w.VarInt(0)
		})
	}
	f.Send(mcdata.ClientboundPlayAcknowledgePlayerDigging, func(w *wire.Writer) { w.VarInt(d.seq) })
	return d
}

// tickUntil ticks the clock until cond, counting the ticks. Each Tick
// returns once the session's tick loop has taken the previous tick.
func tickUntil(clock *core.ManualClock, cond func() bool) int {
	n := 0
	for !cond() {
		clock.Tick()
		n++
	}
	return n
}

// nextDig waits until the bot's dig sequence has moved past seq and
// takes the packet that moved it from the server. It ticks only while the
// body waits for a tick to turn the head: what the dig sends after the
// turn goes out from the call's goroutine, and ticks given meanwhile would
// count toward the break time the test measures. Tick returns once the
// tick has begun, not once the body has taken the look on it, so after a
// tick it waits for the look to be taken before it looks again (a second
// tick given while the first was still running counted toward the dig:
// 42 ticks measured for 43, once in CI).
//
// The test holds real time (inRealTime) before it looks for a dig: a tick
// given while the session still woke once a second ran as twenty late
// ticks, on which the body takes no look, and the loop below then waited
// for a look no further tick would take (a hang of 45 minutes in CI).
func nextDig(clock *core.ManualClock, sw *scriptedWorld, seq int32, digs <-chan digPacket) digPacket {
	for sw.w.Dig().Sequence() <= seq {
		if !sw.w.Body().Turning() {
			runtime.Gosched()
			continue
		}
		clock.Tick()
		for sw.w.Body().Turning() && sw.w.Dig().Sequence() <= seq {
			runtime.Gosched()
		}
	}
	return <-digs
}

// inRealTime holds the session in real time and gives ticks until one has
// run on time, so that every tick the test gives from then on is one
// on-time tick (a session at rest runs a second's ticks at once, late).
// The returned release lets the session rest again.
func inRealTime(t *testing.T, clock *core.ManualClock, cs *core.Session) (release func()) {
	t.Helper()
	release = cs.HoldRealTime()
	ticked := make(chan error, 1)
	go func() { ticked <- cs.WaitTicks(context.Background(), 1) }()
	for {
		select {
		case err := <-ticked:
			if err != nil {
				t.Fatalf("waiting for an on-time tick: %v", err)
			}
			return release
		default:
			clock.Tick()
		}
	}
}

// TestDigOnTheTick: mc_dig of an oak log by hand with haste II (the
// server's update_mob_effect on the bot) waits the game's 43 ticks
// (1 × 1.4 / 2 / 30 a tick) between START and STOP, counted on the
// session's tick, with rising sequences, and reports dug from the
// server's block change. Refusals name their reason: bedrock, air, an
// unloaded chunk. A dig whose call is cancelled
// sends ABORT at once, without another tick.
func TestDigOnTheTick(t *testing.T) {
	for _, proto := range []int32{767, 770} {
		clock := core.NewManualClock(time.Now())
		sw, digs := newDigWorld(t, proto, clock)
		tickUntil(clock, func() bool {
			_, ok := sw.w.Level().View().BlockAt(blocks.BlockPos{X: 0, Y: 66, Z: 0})
			_, haste := sw.w.Dig().Effect("haste")
			// Break times are five times longer off the ground: wait for
			// the body to stand on the loaded ground (its first step after
			// the spawn moves nothing and so touches no ground, as the
			// game's).
			st := sw.w.Body().State()
			return ok && haste && sw.w.Self().Snapshot().OnGround && st.OnGround && !st.Frozen
		})

		for _, c := range []struct{ args, want string }{
			{`{"x":1,"y":64,"z":0}`, "bedrock cannot be broken"},
			{`{"x":0,"y":70,"z":0}`, "air"},
			{`{"x":100,"y":64,"z":100}`, "not loaded"},
		} {
			var r DigResult
			result(t, callN(t, sw.d, "mc_dig", c.args), &r)
			if r.Dug || !strings.Contains(r.Reason, c.want) || r.NextStep == "" {
				t.Errorf("%d mc_dig %s = %+v; want a reason with %q", proto, c.args, r, c.want)
			}
		}

		release := inRealTime(t, clock, sw.w.Core())
		done := make(chan protocol.Response, 1)
		seq := sw.w.Dig().Sequence()
		go func() { done <- callN(t, sw.d, "mc_dig", `{"x":0,"y":66,"z":0}`) }()
		// The bot turns to the block first: its look goes out on a tick.
		start := nextDig(clock, sw, seq, digs)
		if start.status != codec.ActionStartDigging || start.pos != (codec.BlockPos{X: 0, Y: 66, Z: 0}) {
			t.Fatalf("%d: the first dig packet is %+v", proto, start)
		}
		// Tick until the bot has sent its next packet (its sequence moves
		// on), then take it from the server without ticking further.
		ticks := tickUntil(clock, func() bool { return sw.w.Dig().Sequence() > start.seq })
		stop := <-digs
		if stop.status != codec.ActionStopDigging || stop.seq <= start.seq || ticks < 43 {
			t.Errorf("%d: STOP %+v after %d ticks; want it after 43, with a higher sequence than %d", proto, stop, ticks, start.seq)
		}
		// The server's block change ends the wait; no tick is needed
		// (and ticking on would run out the bot's bound for the answer).
		resp := <-done
		var r DigResult
		result(t, resp, &r)
		if !r.Dug || r.Block != "oak_log" || r.Tool != "hand" || r.BreakTicks == nil || *r.BreakTicks != 43 {
			t.Errorf("%d: mc_dig = %+v (break ticks %v)", proto, r, *r.BreakTicks)
		}

		ctx, cancel := context.WithCancel(context.Background())
		seq = sw.w.Dig().Sequence()
		go func() {
			id, _ := json.Marshal("cancelled-dig")
			done <- sw.d.Call(ctx, protocol.Request{ID: id, Tool: "mc_dig", Args: map[string]json.RawMessage{"x": json.RawMessage("0"), "y": json.RawMessage("67"), "z": json.RawMessage("0")}})
		}()
		if start := nextDig(clock, sw, seq, digs); start.status != codec.ActionStartDigging {
			t.Fatalf("%d: %+v", proto, start)
		}
		cancel()
		if abort := <-digs; abort.status != codec.ActionAbortDigging || abort.pos != (codec.BlockPos{X: 0, Y: 67, Z: 0}) {
			t.Errorf("%d: after the cancel the server got %+v, want ABORT", proto, abort)
		}
		if resp := <-done; resp.OK || !strings.Contains(resp.Error, "stopped") {
			t.Errorf("%d: the cancelled dig answered %+v", proto, resp)
		}
		release()
	}
}

// TestCollectByItemName: mc_collect takes an item as people name it
// (item, or block_type as before): cobblestone from the stone floor needs
// a pickaxe, and with none carried the answer names the tools
// (missing_tool, weakest first) and what to do; with craft_tools and
// nothing to craft one from it says so. Giving what to gather twice, or
// not at all, or a word the game lacks, is a sentence.
func TestCollectByItemName(t *testing.T) {
	clock := core.NewManualClock(time.Now())
	sw, _ := newDigWorld(t, 767, clock)
	tickUntil(clock, func() bool {
		_, ok := sw.w.Level().View().BlockAt(blocks.BlockPos{X: 0, Y: 63, Z: 0})
		return ok
	})
	sw.wholeWorld(t) // the scene's column is all there is, on a clock that stands still
	for _, args := range []string{`{"item":"cobblestone","count":2}`, `{"block_type":"Cobblestone","count":2}`, `{"block_type":"stone","count":2}`} {
		var r CollectResult
		result(t, callN(t, sw.d, "mc_collect", args), &r)
		if r.Collected != 0 || r.Item != "cobblestone" || len(r.MissingTool) == 0 || r.MissingTool[0] != "wooden_pickaxe" ||
			!strings.Contains(r.Reason, "right tool") || !strings.Contains(r.NextStep, "craft_tools") {
			t.Errorf("mc_collect %s = %+v; want the pickaxes named, wooden first", args, r)
		}
	}
	var r CollectResult
	result(t, callN(t, sw.d, "mc_collect", `{"item":"cobblestone","count":2,"craft_tools":true}`), &r)
	if r.Collected != 0 || r.CraftedTool != "" || !strings.Contains(r.Reason, "could not craft") || !strings.Contains(r.NextStep, "mc_recipe wooden_pickaxe") {
		t.Errorf("mc_collect with craft_tools and an empty inventory = %+v", r)
	}
	for _, c := range []struct{ args, want string }{
		{`{"item":"coal","block_type":"stone","count":1}`, "not both"},
		{`{"count":1}`, "say what to gather"},
		{`{"item":"unobtainium","count":1}`, "neither an item nor a block"},
	} {
		if resp := callN(t, sw.d, "mc_collect", c.args); resp.OK || !strings.Contains(resp.Error, c.want) {
			t.Errorf("mc_collect %s = %+v; want an error with %q", c.args, resp, c.want)
		}
	}
}
