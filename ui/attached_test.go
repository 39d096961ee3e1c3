package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// replayBackend is a blockmate the console attached to mid-session: the
// local dispatcher, plus what happened before the console opened.
type replayBackend struct {
	Backend
	events []protocol.Event
	calls  []protocol.CallEvent
}

func (r replayBackend) Replay() ([]protocol.Event, []protocol.CallEvent) { return r.events, r.calls }

func newAttachedModel(t *testing.T, b Backend) Model {
	t.Helper()
	m := New(Options{Backend: b, Attached: "/run/bm.sock", IDPrefix: "w1-", Username: "Steve", Theme: themes.Dark, Now: func() time.Time { return epoch }, Location: time.UTC, NoPoll: true})
	return update(m, tea.WindowSizeMsg{Width: 120, Height: 36})
}

// flat is a pane's text with frames and runs of space folded, for reading
// sentences that wrap.
func flat(view string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(view)), " ")
}

// TestAttachedConsoleShowsWhatCameBefore: a console that attaches mid-
// session shows the history it was given in the order it happened, the
// bot's own lines among the chat they answered, and its calls finished in
// the timeline.
func TestAttachedConsoleShowsWhatCameBefore(t *testing.T) {
	say := protocol.CallEvent{Phase: protocol.Finished, ID: json.RawMessage(`"7"`), Tool: "mc_say", Args: map[string]json.RawMessage{"message": json.RawMessage(`"on my way"`)},
		Origin: protocol.OriginMCP, Started: epoch.Add(-50 * time.Second), Duration: time.Second, Response: protocol.Response{ID: json.RawMessage(`"7"`), OK: true, Result: json.RawMessage(`{"said":true}`)}}
	b := replayBackend{Backend: Local(newDispatcher(t)),
		events: []protocol.Event{
			event("mc_player_chat", epoch.Add(-60*time.Second), map[string]any{"username": "alex", "message": "come here"}),
			event("mc_player_chat", epoch.Add(-40*time.Second), map[string]any{"username": "alex", "message": "thanks"}),
		},
		calls: []protocol.CallEvent{say}}
	m := newAttachedModel(t, b)
	view := flat(m.events.View())
	first, own, last := strings.Index(view, "<alex> come here"), strings.Index(view, "<Steve> on my way"), strings.Index(view, "<alex> thanks")
	if first < 0 || own < 0 || last < 0 || !(first < own && own < last) {
		t.Fatalf("the history should read alex, the bot, alex:\n%s", m.events.View())
	}
	c := m.timeline.find(`7`)
	if c == nil || !c.Done || !c.Response.OK || c.Origin != protocol.OriginMCP {
		t.Fatalf("the replayed call is not in the timeline as finished: %+v", c)
	}
}

// TestAttachedWorldsPaneSaysWhatItShows: an attached console does not
// search the LAN; its worlds pane says whose bot it shows and where worlds
// come from, and lists those the watched blockmate hears of: its LAN
// watcher's events, and the result of a discovery its program asked for.
func TestAttachedWorldsPaneSaysWhatItShows(t *testing.T) {
	m := newAttachedModel(t, Local(newDispatcher(t)))
	view := flat(m.worlds.View())
	if strings.Contains(view, "Looking for worlds") || !strings.Contains(view, "Attached to /run/bm.sock") || !strings.Contains(view, "does not search the LAN itself") || !strings.Contains(view, "--watch-lan") {
		t.Fatalf("the attached worlds pane does not say what it shows:\n%s", m.worlds.View())
	}
	m = update(m, batchMsg{Events: []protocol.Event{worldFound("192.0.2.4", 40000, 1)}})
	found := protocol.CallEvent{Phase: protocol.Finished, ID: json.RawMessage(`"d1"`), Tool: "mc_discover_lan", Origin: protocol.OriginSidecar, Started: epoch,
		Response: protocol.Response{ID: json.RawMessage(`"d1"`), OK: true, Result: json.RawMessage(`{"found":1,"worlds":[{"host":"192.0.2.5","port":51234,"motd":"Kid's world","version":"1.21.4","protocol":769,"compatible":true}]}`)}}
	m = update(m, batchMsg{Calls: []protocol.CallEvent{found}})
	var got []string
	for _, w := range m.worlds.worlds {
		got = append(got, w.addr())
	}
	if len(got) != 2 || !strings.Contains(strings.Join(got, " "), "192.0.2.4:40000") || !strings.Contains(strings.Join(got, " "), "192.0.2.5:51234") {
		t.Fatalf("worlds %v, want the watcher's and the discovery's", got)
	}
	if strings.Contains(flat(m.worlds.View()), "Attached to") {
		t.Errorf("with worlds listed, the pane lists them:\n%s", m.worlds.View())
	}
}

// TestLostCallEventsAreTold: when call events were lost on the way to an
// attached console, the events pane says how many and the timeline's title
// counts them.
func TestLostCallEventsAreTold(t *testing.T) {
	m := newAttachedModel(t, Local(newDispatcher(t)))
	m = update(m, batchMsg{Events: []protocol.Event{protocol.CallEventsDroppedEvent(12, epoch)}})
	if view := flat(m.events.View()); !strings.Contains(view, "12 call events were missed (the console fell behind; the timeline may lack calls)") {
		t.Fatalf("the lost call events are not told:\n%s", m.events.View())
	}
	if !strings.Contains(m.timeline.View(), "12 call events missed") {
		t.Fatalf("the timeline does not count them:\n%s", m.timeline.View())
	}
}
