package protocol

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func testBus(window time.Duration) *Bus {
	b := NewBus(nil)
	b.policy = func(name string) policy {
		p := eventPolicy(name)
		p.window = window
		if name == "chat" {
			p.window = 0
		}
		return p
	}
	return b
}

func next(t *testing.T, ch <-chan Event) Event {
	t.Helper()
	select {
	case ev := <-ch:
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event arrived")
	}
	return Event{}
}

func none(t *testing.T, ch <-chan Event, wait time.Duration) {
	t.Helper()
	select {
	case ev := <-ch:
		t.Fatalf("unexpected event %s %s", ev.Name, ev.Payload)
	case <-time.After(wait):
	}
}

type hurt struct {
	Health   int    `json:"health"`
	Attacker string `json:"attacker"`
}

func TestDebounceSendsTheFirstThenTheLatestChange(t *testing.T) {
	b := testBus(100 * time.Millisecond)
	ch, cancel := b.Subscribe(100)
	defer cancel()
	for h := 19; h >= 10; h-- {
		b.Emit("mc_hurt", "zombie", hurt{h, "zombie"})
	}
	if ev := next(t, ch); string(ev.Payload) != `{"health":19,"attacker":"zombie"}` {
		t.Fatalf("first: %s", ev.Payload)
	}
	// Thirty hits become two events: the first now, the latest at the end of the window.
	if ev := next(t, ch); string(ev.Payload) != `{"health":10,"attacker":"zombie"}` {
		t.Fatalf("trailing: %s", ev.Payload)
	}
	none(t, ch, 250*time.Millisecond)
}

func TestDebounceKeysAreIndependent(t *testing.T) {
	b := testBus(time.Hour)
	ch, cancel := b.Subscribe(100)
	defer cancel()
	b.Emit("mc_hurt", "zombie", hurt{18, "zombie"})
	b.Emit("mc_hurt", "zombie", hurt{17, "zombie"})
	b.Emit("mc_hurt", "skeleton", hurt{16, "skeleton"})
	b.Emit("mc_low_health", "", map[string]int{"health": 5})
	got := []string{}
	for i := 0; i < 3; i++ {
		ev := next(t, ch)
		got = append(got, ev.Name+string(ev.Payload))
	}
	want := []string{`mc_hurt{"health":18,"attacker":"zombie"}`, `mc_hurt{"health":16,"attacker":"skeleton"}`, `mc_low_health{"health":5}`}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	none(t, ch, 50*time.Millisecond)
}

func TestDebounceDropsARepeatOfTheSameState(t *testing.T) {
	b := testBus(50 * time.Millisecond)
	ch, cancel := b.Subscribe(100)
	defer cancel()
	b.Emit("mc_hostile_nearby", "zombie", map[string]int{"distance": 4})
	b.Emit("mc_hostile_nearby", "zombie", map[string]int{"distance": 4})
	next(t, ch)
	none(t, ch, 200*time.Millisecond)
}

func TestZeroWindowPassesEverything(t *testing.T) {
	b := testBus(time.Hour)
	ch, cancel := b.Subscribe(100)
	defer cancel()
	for i := 0; i < 3; i++ {
		b.Emit("chat", "", map[string]string{"message": "same"})
	}
	for i := 0; i < 3; i++ {
		next(t, ch)
	}
}

func TestSlowSubscriberNeverBlocksTheEmitter(t *testing.T) {
	b := testBus(0)
	slow, cancelSlow := b.Subscribe(1)
	defer cancelSlow()
	fast, cancelFast := b.Subscribe(10000)
	defer cancelFast()
	done := make(chan struct{})
	go func() {
		for i := 0; i < 5000; i++ {
			b.Emit("chat", "", i)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Emit blocked on a subscriber that reads nothing")
	}
	if len(fast) != 5000 || len(slow) != 1 {
		t.Fatalf("fast got %d, slow holds %d", len(fast), len(slow))
	}
}

func TestEventWireShapeAndCatalogWindows(t *testing.T) {
	b, _ := Event{Name: "mc_low_health", Payload: json.RawMessage(`{"health":4,"max_health":20}`)}.MarshalJSON()
	if string(b) != `{"type":"event","name":"mc_low_health","payload":{"health":4,"max_health":20}}` {
		t.Fatalf("%s", b)
	}
	if EventWindow("mc_player_chat") != 0 || EventWindow("mc_hurt") <= 0 || EventWindow("no_such_event") != time.Second {
		t.Fatal("catalog windows wrong")
	}
	seen := map[string]bool{}
	for _, e := range EventCatalog {
		if seen[e.Name] || e.Description == "" {
			t.Fatalf("event %s duplicated or undescribed", e.Name)
		}
		seen[e.Name] = true
	}
}

func TestDebounceTableStaysBounded(t *testing.T) {
	b := testBus(time.Hour)
	ch, cancel := b.Subscribe(1)
	defer cancel()
	for i := 0; i < 3*maxDebounceKeys; i++ {
		b.Emit("mc_player_joined", itoa(i), i)
	}
	b.mu.Lock()
	n := len(b.keys)
	b.mu.Unlock()
	if n > maxDebounceKeys {
		t.Fatalf("%d debounce keys held", n)
	}
	<-ch
}

// A player who joins, leaves and joins again inside the window is one
// change: the model ends up believing they are in the world.
func TestPresenceIsOneKeyPerPlayer(t *testing.T) {
	b := testBus(100 * time.Millisecond)
	ch, cancel := b.Subscribe(100)
	defer cancel()
	who := map[string]string{"username": "alex"}
	b.Emit("mc_player_joined", "alex", who)
	b.Emit("mc_player_left", "alex", who)
	b.Emit("mc_player_joined", "alex", who)
	if ev := next(t, ch); ev.Name != "mc_player_joined" {
		t.Fatalf("first: %s", ev.Name)
	}
	none(t, ch, 300*time.Millisecond)

	// Leaving for good inside a window still comes out at its end.
	b.Emit("mc_player_left", "alex", who)
	if ev := next(t, ch); ev.Name != "mc_player_left" {
		t.Fatalf("got %s", ev.Name)
	}
	b.Emit("mc_player_joined", "bob", map[string]string{"username": "bob"})
	if ev := next(t, ch); string(ev.Payload) != `{"username":"bob"}` {
		t.Fatalf("another player is another key: %s", ev.Payload)
	}
}

// An alarm that re-arms and fires again inside its window is a new
// crossing, not a repeated state: it is sent when the window closes.
func TestRearmedAlarmIsNotLost(t *testing.T) {
	b := testBus(100 * time.Millisecond)
	ch, cancel := b.Subscribe(100)
	defer cancel()
	low := map[string]int{"health": 4, "max_health": 20}
	b.Emit("mc_low_health", "", low)
	b.Emit("mc_low_health", "", low)
	next(t, ch)
	if ev := next(t, ch); ev.Name != "mc_low_health" {
		t.Fatalf("got %s", ev.Name)
	}
}

func TestDroppedEventsAreAnnounced(t *testing.T) {
	b := testBus(0)
	ch, cancel := b.Subscribe(4)
	defer cancel()
	for i := 0; i < 10; i++ {
		b.Emit("chat", "", i)
	}
	for len(ch) > 0 {
		<-ch
	}
	b.Emit("chat", "", "after")
	ev := next(t, ch)
	if ev.Name != "mc_events_dropped" || !strings.HasPrefix(string(ev.Payload), `{"count":6,`) {
		t.Fatalf("got %s %s", ev.Name, ev.Payload)
	}
	if ev := next(t, ch); string(ev.Payload) != `"after"` {
		t.Fatalf("got %s", ev.Payload)
	}
}

// A burst followed by silence still gets its loss announced.
func TestDropsAreAnnouncedWithoutALaterEvent(t *testing.T) {
	b := testBus(0)
	ch, cancel := b.Subscribe(4)
	defer cancel()
	for i := 0; i < 10; i++ {
		b.Emit("chat", "", i)
	}
	for i := 0; i < 4; i++ {
		<-ch
	}
	ev := next(t, ch)
	if ev.Name != "mc_events_dropped" || !strings.HasPrefix(string(ev.Payload), `{"count":6,`) {
		t.Fatalf("got %s %s", ev.Name, ev.Payload)
	}
}
