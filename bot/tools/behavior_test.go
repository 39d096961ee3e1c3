package tools

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/testctx"

	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/protocol"
)

// nextBehavior is the next mc_behavior event on ch, checked against the
// event catalog.
func nextBehavior(t *testing.T, ch <-chan protocol.Event) protocol.Event {
	t.Helper()
	deadline := bound(t).Done()
	for {
		select {
		case ev := <-ch:
			if ev.Name != "mc_behavior" {
				continue
			}
			if err := protocol.CheckEventPayload(ev.Name, ev.Payload); err != nil {
				t.Fatal(err)
			}
			return ev
		case <-deadline:
			t.Fatal("no mc_behavior event")
		}
	}
}

// TestAHungryBotWithBreadEatsOnItsOwn: at food 10 with bread in its
// pockets, a bot whose eat behaviour is on eats a bread by itself, as the
// server's answers show, says so with mc_behavior, and stops once fed;
// mc_status lists the behaviours.
func TestAHungryBotWithBreadEatsOnItsOwn(t *testing.T) {
	sw, srv := newEatingWorldWith(t, 769, map[string]bool{"eat": false})
	waitFor(t, func() bool { return sw.w.Inventory().View().Count("bread") == 3 && sw.w.Self().Snapshot().Food == 10 }, "the bread and the food level")
	events, unsubscribe := sw.d.Events().Subscribe(64)
	defer unsubscribe()

	res := callN(t, sw.d, "mc_set_behavior", `{"name":"eat","enabled":true}`)
	if !res.OK || !strings.HasPrefix(string(res.Result), `{"name":"eat","enabled":true,"what":"eats the best food carried`) {
		t.Fatalf("mc_set_behavior: %s %s", res.Result, res.Error)
	}
	ev := nextBehavior(t, events)
	if string(ev.Payload) != `{"name":"eat","did":"ate bread: food 10 → 15"}` {
		t.Fatalf("mc_behavior %s", ev.Payload)
	}
	if s := protocol.EventSentence(ev); s != "Ate bread: food 10 → 15" {
		t.Errorf("sentence %q", s)
	}
	waitFor(t, func() bool { return sw.w.Inventory().View().Count("bread") == 2 }, "one bread eaten")
	srv.mu.Lock()
	uses := len(srv.uses)
	srv.mu.Unlock()
	if uses != 1 {
		t.Errorf("the bot used an item %d times; a bot at food 15 and full health is not hungry", uses)
	}
	status := callN(t, sw.d, "mc_status", "")
	if !strings.Contains(string(status.Result), `"behaviors":[{"name":"eat","enabled":true},{"name":"respawn","enabled":false},{"name":"defend","enabled":false},{"name":"held_item","enabled":true}]`) {
		t.Errorf("mc_status does not list the behaviours: %s", status.Result)
	}
}

// TestSelfCareNeverFightsARunningCall: while a call that drives the bot
// runs, a hungry bot does not eat on its own; once the call has answered,
// it does.
func TestSelfCareNeverFightsARunningCall(t *testing.T) {
	sw, srv := newEatingWorldWith(t, 769, map[string]bool{"eat": false})
	release := make(chan struct{})
	sw.cat.Add(protocol.Tool{Name: "mc_test_walk", Description: "walks until released", Effect: protocol.Write,
		Handler: func(ctx context.Context, _ protocol.Args) (any, error) {
			select {
			case <-release:
				return struct {
					Arrived bool `json:"arrived"`
				}{true}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}})
	waitFor(t, func() bool { return sw.w.Self().Snapshot().Food == 10 && sw.w.Inventory().View().Count("bread") == 3 }, "the food level and the bread")
	events, unsubscribe := sw.d.Events().Subscribe(64)
	defer unsubscribe()
	walked := make(chan protocol.Response, 1)
	go func() {
		walked <- sw.d.Call(context.Background(), protocol.Request{ID: json.RawMessage(`"walk"`), Tool: "mc_test_walk"})
	}()
	waitFor(t, func() bool { return len(sw.d.Running()) == 1 }, "the walk running")

	looked := sw.t.care.looked.Load()
	callN(t, sw.d, "mc_set_behavior", `{"name":"eat","enabled":true}`)
	// The switch wakes the watcher (as does mc_set_behavior's own end):
	// once it has looked, it must have left the bot to the walk.
	waitFor(t, func() bool { return sw.t.care.looked.Load() > looked }, "the behaviours looking again")
	srv.mu.Lock()
	uses := len(srv.uses)
	srv.mu.Unlock()
	if uses != 0 {
		t.Fatal("the bot ate while a walk was running")
	}
	close(release)
	if r := <-walked; !r.OK {
		t.Fatalf("the walk: %s", r.Error)
	}
	if ev := nextBehavior(t, events); !strings.Contains(string(ev.Payload), `"did":"ate bread`) {
		t.Fatalf("mc_behavior %s", ev.Payload)
	}
}

// TestMcDefendIsTheDefendBehavior: mc_defend and mc_set_behavior switch the
// one defending, and mc_status shows it.
func TestMcDefendIsTheDefendBehavior(t *testing.T) {
	sw, _ := newEatingWorldWith(t, 769, map[string]bool{"eat": false})
	if res := callN(t, sw.d, "mc_defend", `{"enabled":true}`); string(res.Result) != `{"defending":true}` {
		t.Fatalf("mc_defend: %s %s", res.Result, res.Error)
	}
	if !strings.Contains(string(callN(t, sw.d, "mc_status", "").Result), `{"name":"defend","enabled":true}`) {
		t.Error("mc_status does not show defending on")
	}
	callN(t, sw.d, "mc_set_behavior", `{"name":"defend","enabled":false}`)
	if sw.w.Combat().Defending() {
		t.Error("mc_set_behavior defend false left the bot defending")
	}
	if res := callN(t, sw.d, "mc_set_behavior", `{"name":"dance","enabled":true}`); res.OK || !strings.Contains(res.Error, "eat") {
		t.Errorf("an unknown behaviour: %s %q", res.Result, res.Error)
	}
}

// TestTheRespawnBehaviorRespawnsADeadBot: with respawn on, a bot that
// dies asks the server to respawn it at once, with no call, and says where
// it stands again; off (the default), it waits for mc_respawn.
func TestTheRespawnBehaviorRespawnsADeadBot(t *testing.T) {
	const proto = 769
	kill := func(f *fakeServer) {
		f.Send(mcdata.ClientboundPlayUpdateHealth, func(w *wire.Writer) { w.Float32(0); w.VarInt(20); w.Float32(5) })
	}
	var respawns atomic.Int32
	world := func(behaviors map[string]bool) *scriptedWorld {
		sw := &scriptedWorld{rec: fakeserver.NewRecorder(t), behaviors: behaviors}
		sw.port = fakeserver.StartWorld(t, proto, func(f *fakeServer) {
			f.Login(-1)
			f.Configure()
			f.Play(42, 0.5, 64, 0.5)
			f.Send(mcdata.ClientboundPlayUpdateHealth, func(w *wire.Writer) { w.Float32(20); w.VarInt(20); w.Float32(5) })
			for {
				p, r := f.Next()
				if r == nil {
					return
				}
				switch p {
				case mcdata.ServerboundPlayChatCommand:
					if r.String(256) == "kill" {
						kill(f)
						f.SystemLine("killed")
					}
				case mcdata.ServerboundPlayClientCommand:
					respawns.Add(1)
					f.Send(mcdata.ClientboundPlayRespawn, func(w *wire.Writer) { w.Raw(fakeserver.RespawnBody(proto, 0, "minecraft:overworld")) })
					f.Send(mcdata.ClientboundPlayUpdateHealth, func(w *wire.Writer) { w.Float32(20); w.VarInt(20); w.Float32(5) })
					f.Position(2, 3.5, 65, 4.5, 0)
				}
			}
		})
		sw.start(t, proto, bot.Options{})
		return sw
	}

	sw := world(map[string]bool{"respawn": true})
	events, unsubscribe := sw.d.Events().Subscribe(64)
	defer unsubscribe()
	sw.command(t, "kill", "killed")
	ev := nextBehavior(t, events)
	if string(ev.Payload) != `{"name":"respawn","did":"respawned at 3.5 65 4.5"}` {
		t.Fatalf("mc_behavior %s", ev.Payload)
	}
	waitFor(t, func() bool { return !sw.w.Self().Snapshot().Dead }, "the bot alive again")
	if n := respawns.Load(); n != 1 {
		t.Errorf("the bot asked to respawn %d times", n)
	}

	// Off, a death waits for mc_respawn.
	respawns.Store(0)
	off := world(nil)
	off.command(t, "kill", "killed")
	waitFor(t, func() bool { return off.w.Self().Snapshot().Dead }, "the bot dead")
	looked := off.t.care.looked.Load()
	off.t.care.wake()
	waitFor(t, func() bool { return off.t.care.looked.Load() > looked }, "the behaviours looking again")
	// The server reads in order: a respawn sent before this command
	// would be counted by the time it answers.
	off.command(t, "kill", "killed")
	if n := respawns.Load(); n != 0 {
		t.Errorf("with respawn off the bot asked to respawn %d times", n)
	}
}

// TestABrokenToolIsReplacedInHand: when the pickaxe in hand breaks (the
// server empties its slot), the bot takes the best other pickaxe it
// carries into the hand, once idle, and says so.
func TestABrokenToolIsReplacedInHand(t *testing.T) {
	sw := &scriptedWorld{rec: fakeserver.NewRecorder(t), behaviors: map[string]bool{"eat": false}}
	sw.port = fakeserver.StartWorld(t, 769, func(f *fakeServer) {
		f.Login(-1)
		f.Configure()
		f.Play(42, 0.5, 64, 0.5)
		slots := make([]fitem, 46)
		slots[36] = fstack("iron_pickaxe", 1)
		slots[38] = fstack("wooden_pickaxe", 1)
		slots[39] = fstack("stone_pickaxe", 1)
		slots[40] = fstack("stone_axe", 1)
		f.WindowItems(0, 1, slots, fitem{})
		for {
			p, r := f.Next()
			if r == nil {
				return
			}
			if p == mcdata.ServerboundPlayChatCommand && r.String(256) == "break" {
				f.SetSlot(0, 2, 36, fitem{})
				f.SystemLine("broke")
			}
		}
	})
	sw.start(t, 769, bot.Options{})
	waitFor(t, func() bool { return sw.w.Inventory().View().Held().Name == "iron_pickaxe" }, "the iron pickaxe in hand")
	events, unsubscribe := sw.d.Events().Subscribe(64)
	defer unsubscribe()
	sw.command(t, "break", "broke")
	ev := nextBehavior(t, events)
	if string(ev.Payload) != `{"name":"held_item","did":"took a stone pickaxe in hand after the pickaxe broke"}` {
		t.Fatalf("mc_behavior %s", ev.Payload)
	}
	if held := sw.w.Inventory().View().Held().Name; held != "stone_pickaxe" {
		t.Errorf("the bot holds %q, want the stone pickaxe (the best pickaxe left)", held)
	}
}

// bound ends with the test binary's deadline (less testctx's margin for
// the report): a wait for a condition that never comes fails there with
// its own message, never at a guess in seconds a loaded machine misses.
func bound(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := testctx.New(t)
	t.Cleanup(cancel)
	return ctx
}
