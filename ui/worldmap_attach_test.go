//go:build unix

package ui

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
	"github.com/blockmate/blockmate/watch"
)

// TestMapWhenAttached: a console attached to a running blockmate through
// its watch socket (blockmate attach) gets its map from that blockmate's
// dispatcher, as an internal call that neither it nor another attached
// console shows in its timeline.
func TestMapWhenAttached(t *testing.T) {
	var counter mapCounter
	d := newMapDispatcher(t, &counter)
	path := filepath.Join(t.TempDir(), "bm.sock")
	ln, err := watch.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := watch.Serve(d, ln, watch.ServerOptions{Version: "test"})
	t.Cleanup(srv.Close)
	attach := func() *watch.Client {
		c, err := watch.Attach(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	c, other := attach(), attach()
	seen := make(chan protocol.CallEvent, 64)
	defer other.Observe(func(ev protocol.CallEvent) {
		select {
		case seen <- ev:
		default:
		}
	})()

	now := epoch
	m := New(Options{Backend: c, Attached: path, IDPrefix: c.IDPrefix(), Theme: themes.Dark, Now: func() time.Time { return now }, Location: time.UTC})
	m = update(m, tea.WindowSizeMsg{Width: 120, Height: 36})
	m.connected = true
	cmd := m.askMap()
	if cmd == nil {
		t.Fatal("the attached console did not ask for a map")
	}
	m = update(m, cmd())
	if !m.worldMap.shown() {
		t.Fatalf("no map: %q", m.worldMap.err)
	}
	counter.mu.Lock()
	calls, origin := counter.calls, counter.origins[0]
	counter.mu.Unlock()
	if calls != 1 || origin != protocol.OriginInternal {
		t.Errorf("%d calls, origin %q", calls, origin)
	}
	// A call the other console sees, made after the map: once it has been
	// seen to finish, the map call would have been seen before it.
	if r := other.Call(t.Context(), protocol.Request{ID: json.RawMessage(`"` + other.IDPrefix() + `x1"`), Tool: "mc_wait", Args: map[string]json.RawMessage{"ms": json.RawMessage("0")}}); !r.OK {
		t.Fatal(r.Error)
	}
	for done := false; !done; {
		select {
		case ev := <-seen:
			if ev.Tool == "mc_map" {
				t.Errorf("another attached console saw the map call: %+v", ev)
			}
			done = ev.Tool == "mc_wait" && ev.Phase == protocol.Finished
		case <-t.Context().Done():
			t.Fatal("the other console never saw its own call")
		}
	}
	if len(m.timeline.calls) != 0 {
		t.Errorf("the map call is in the timeline: %+v", m.timeline.calls)
	}
}
