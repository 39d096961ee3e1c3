package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/protocol"
)

// nextBehavior is the next mc_behavior event on ch, checked against the
// event catalog.
func nextBehavior(t *testing.T, ch <-chan protocol.Event) protocol.Event {
	t.Helper()
	deadline := time.After(20 * time.Second)
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
	if !strings.Contains(string(status.Result), `"behaviors":[{"name":"eat","enabled":true},{"name":"respawn","enabled":false},{"name":"defend","enabled":false}]`) {
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
