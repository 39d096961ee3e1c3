package tools

import (
	"fmt"
	"sync"
	"testing"

	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// eatingServer is a scripted server's side of eating, as the game's server
// does it: the bot starts at food 10 with bread in its first hotbar slot;
// use_item with the bread in hand is answered with the "finished using"
// entity event, the food update (bread: 5 hunger, 6 saturation) and the
// slot with one bread less. It records each use_item as it read it.
type eatingServer struct {
	mu   sync.Mutex
	uses []codec.UseItem
	rest int // bytes left after a use_item's layout
}

func newEatingWorld(t *testing.T, proto int32) (*scriptedWorld, *eatingServer) {
	t.Helper()
	// mc_eat's tests eat when they call it, not before.
	return newEatingWorldWith(t, proto, map[string]bool{"eat": false})
}

// newEatingWorldWith is newEatingWorld with the behaviours switched as
// behaviors says before the join.
func newEatingWorldWith(t *testing.T, proto int32, behaviors map[string]bool) (*scriptedWorld, *eatingServer) {
	t.Helper()
	srv := &eatingServer{}
	sw := &scriptedWorld{rec: fakeserver.NewRecorder(t), behaviors: behaviors}
	sw.port = fakeserver.StartWorld(t, proto, func(f *fakeServer) {
		f.Login(-1)
		f.Configure()
		f.Play(42, 0.5, 64, 0.5)
		slots := make([]fitem, 46)
		slots[36] = fstack("bread", 3)
		f.WindowItems(0, 1, slots, fitem{})
		health := func(food int32, sat float32) {
			f.Send(mcdata.ClientboundPlayUpdateHealth, func(w *wire.Writer) { w.Float32(20); w.VarInt(food); w.Float32(sat) })
		}
		health(10, 0)
		for {
			p, r := f.Next()
			if r == nil {
				return
			}
			if p != mcdata.ServerboundPlayUseItem {
				continue
			}
			u := codec.UseItem{Hand: r.VarInt(), Sequence: r.VarInt(), Yaw: r.Float32(), Pitch: r.Float32()}
			srv.mu.Lock()
			srv.uses = append(srv.uses, u)
			srv.rest += r.Remaining()
			srv.mu.Unlock()
			f.Send(mcdata.ClientboundPlayEntityStatus, func(w *wire.Writer) { w.Int32(42); w.Int8(9) })
			health(15, 6)
			f.SetSlot(0, 2, 36, fstack("bread", 2))
		}
	})
	sw.start(t, proto, bot.Options{})
	return sw, srv
}

// TestEatEveryVersion: mc_eat on every version's layouts: the bot holds the
// bread, sends use_item (main hand) in the version's layout, and answers
// from the server's event, food update and slot; a full bot is refused
// without sending anything.
func TestEatEveryVersion(t *testing.T) {
	for _, p := range codec.Defined() {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			sw, srv := newEatingWorld(t, p)
			waitFor(t, func() bool { return sw.w.Inventory().View().Count("bread") == 3 && sw.w.Self().Snapshot().Food == 10 }, "the bread and the food level")
			var r EatResult
			result(t, callN(t, sw.d, "mc_eat", ""), &r)
			if !r.Ate || r.Item != "bread" || r.Food != 15 || r.Saturation != 6 {
				t.Fatalf("mc_eat = %+v", r)
			}
			srv.mu.Lock()
			uses, rest := srv.uses, srv.rest
			srv.mu.Unlock()
			if len(uses) != 1 || uses[0].Hand != 0 || rest != 0 {
				t.Errorf("the server read use_item %+v with %d bytes left over", uses, rest)
			}
			if n := sw.w.Inventory().View().Count("bread"); n != 2 {
				t.Errorf("the bot has %d bread after eating one of 3", n)
			}
		})
	}
}

// TestEatRefusals: nothing to eat, something that is not food, and a bot
// that is not hungry are each answered in words with the food level the
// bot has, and nothing is sent.
func TestEatRefusals(t *testing.T) {
	sw, srv := newEatingWorld(t, 769)
	waitFor(t, func() bool { return sw.w.Self().Snapshot().Food == 10 }, "the food level")
	var r EatResult
	result(t, callN(t, sw.d, "mc_eat", `{"item":"apple"}`), &r)
	// A refusal still says how hungry the bot is.
	if r.Ate || r.Reason == "" || r.NextStep == "" || r.Food != 10 {
		t.Errorf("an apple the bot lacks: %+v; want a refusal with food 10", r)
	}
	if resp := callN(t, sw.d, "mc_eat", `{"item":"stick"}`); resp.OK {
		t.Errorf("eating a stick: %s", resp.Result)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.uses) != 0 {
		t.Errorf("the bot used an item %d times while refusing", len(srv.uses))
	}
}
