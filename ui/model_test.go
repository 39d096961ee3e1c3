package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

func TestFocusCyclesThroughVisiblePanes(t *testing.T) {
	d := newDispatcher(t)
	m := newModel(t, d, themes.Dark, 100, 30)
	if m.Focus() != "worlds" {
		t.Fatalf("before joining the worlds pane should have focus; got %s", m.Focus())
	}
	var seen []string
	for range 5 {
		m = update(m, keyType(tea.KeyTab))
		seen = append(seen, m.Focus())
	}
	if got, want := strings.Join(seen, " "), "timeline events input worlds timeline"; got != want {
		t.Fatalf("tab order = %s; want %s", got, want)
	}
	m = update(m, keyType(tea.KeyShiftTab))
	if m.Focus() != "worlds" {
		t.Fatalf("shift+tab went to %s; want worlds", m.Focus())
	}

	// In a world, the worlds pane gives way to status, which takes no keys.
	m = update(m, statusMsg{Status: fixtureStatus(20)})
	if m.Focus() != "input" {
		t.Fatalf("when the worlds pane hides, focus should move to the input line; got %s", m.Focus())
	}
	seen = nil
	for range 3 {
		m = update(m, keyType(tea.KeyTab))
		seen = append(seen, m.Focus())
	}
	if got, want := strings.Join(seen, " "), "timeline events input"; got != want {
		t.Fatalf("tab order in a world = %s; want %s", got, want)
	}
}

func TestInputLineGetsEveryKeyWhenFocused(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	m = update(m, keyRunes("s"))
	if m.Focus() != "input" {
		t.Fatalf("typing should take focus to the input line; got %s", m.Focus())
	}
	// Keys that were once commands are text.
	m = typeText(m, "q?tosf")
	if m.Quitting() || m.showHelp || m.ThemeName() != "dark" || m.overlay || m.events.Filter() != "" {
		t.Fatalf("a key typed into the input line acted as a command (quitting=%v help=%v theme=%s overlay=%v filter=%q)",
			m.Quitting(), m.showHelp, m.ThemeName(), m.overlay, m.events.Filter())
	}
	if got := m.input.Value(); got != "sq?tosf" {
		t.Fatalf("input holds %q; want the typed text", got)
	}
	// Esc leaves the input for the pane typing came from.
	m = update(m, keyType(tea.KeyEsc))
	if m.Focus() != "worlds" {
		t.Fatalf("esc should go back to the worlds pane; focus is %s", m.Focus())
	}
	// ctrl+t works from the input line too, and keeps the text.
	m = update(m, keyRunes("x"))
	m = update(m, keyType(tea.KeyCtrlT))
	if m.ThemeName() != "light" || m.input.Value() != "sq?tosfx" {
		t.Fatalf("ctrl+t in the input: theme %s, input %q", m.ThemeName(), m.input.Value())
	}
}

func TestKeysGoToTheFocusedPaneOnly(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	m = update(m, batchMsg{Events: fixtureEvents(), Calls: fixtureCalls()})
	m = update(m, keyType(tea.KeyTab)) // timeline
	selected := m.timeline.selected
	m = update(m, keyType(tea.KeyRight))
	if m.events.Filter() != "" {
		t.Fatal("→ reached the events pane while the timeline had focus")
	}
	m = update(m, keyType(tea.KeyUp))
	if m.timeline.selected != selected-1 {
		t.Fatalf("↑ in the timeline moved selection from %d to %d", selected, m.timeline.selected)
	}
	if !m.events.Following() {
		t.Fatal("↑ in the timeline scrolled the events pane")
	}
	m = update(m, keyType(tea.KeyTab)) // events
	m = update(m, keyType(tea.KeyRight))
	if m.events.Filter() != filterChat {
		t.Fatalf("→ in the events pane should filter to chat; filter is %q", m.events.Filter())
	}
	if m.timeline.selected != selected-1 {
		t.Fatal("a key for the events pane moved the timeline")
	}
}

func TestHelpTogglesAndShowsTheShortForm(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 160, 48)
	m = update(m, keyRunes("?"))
	view := m.View()
	for _, want := range []string{"Keys (Worlds)", "ctrl+x", "say hi there", "join 51234", "join 192.168.1.20:51234"} {
		if !strings.Contains(view, want) {
			t.Errorf("full help does not mention %q", want)
		}
	}
	m = update(m, keyType(tea.KeyEsc))
	if m.showHelp {
		t.Fatal("esc did not close the help")
	}
	// F1 opens it from the input line, where ? after text is text.
	m = typeText(m, "say what")
	m = update(m, keyRunes("?"))
	if m.showHelp || m.input.Value() != "say what?" {
		t.Fatalf("? after text should be text: help %v, line %q", m.showHelp, m.input.Value())
	}
	m = update(m, keyType(tea.KeyF1))
	if !m.showHelp || !strings.Contains(m.View(), "Keys (input line)") {
		t.Fatal("f1 in the input line should open the help")
	}
	m = update(m, keyType(tea.KeyF1))
	if m.showHelp || m.Focus() != "input" {
		t.Fatal("f1 should close the help and leave focus where it was")
	}
}

func TestShortForm(t *testing.T) {
	c := newDispatcher(t).Catalog()
	cases := []struct{ line, tool, args string }{
		{"say hi", "mc_say", `{"message":"hi"}`},
		{"say hi there, friend", "mc_say", `{"message":"hi there, friend"}`},
		{`mc_say message="hi there"`, "mc_say", `{"message":"hi there"}`},
		{"status", "mc_status", `null`},
		{"stop", "mc_stop", `null`},
		{"mc_collect block_type=oak_log count=4", "mc_collect", `{"block_type":"oak_log","count":4}`},
		{"collect oak_log 4", "mc_collect", `{"block_type":"oak_log","count":4}`},
		{"goto 10 64 -20.5", "mc_goto", `{"x":10,"y":64,"z":-20.5}`},
		{"goto 10 64 -20 range=2", "mc_goto", `{"range":2,"x":10,"y":64,"z":-20}`},
		{"goto 100 -40", "mc_goto", `{"x":100,"z":-40}`},
		{"goto 100 -40 range=3", "mc_goto", `{"range":3,"x":100,"z":-40}`},
		{"collect coal 4", "mc_collect", `{"block_type":"coal","count":4}`},
		{"join 127.0.0.1:51234", "mc_join", `{"host":"127.0.0.1","port":51234}`},
		{"join 42905", "mc_join", `{"port":42905}`},
		{"join 042905", "mc_join", `{"port":42905}`},
		{"join localhost 42905", "mc_join", `{"host":"localhost","port":42905}`},
		{"join 42905 username=Theo", "mc_join", `{"port":42905,"username":"Theo"}`},
		{"/say hi", "mc_say", `{"message":"hi"}`},
		{":status", "mc_status", `null`},
		{"join port=51234 username=Theo", "mc_join", `{"port":51234,"username":"Theo"}`},
		{"defend true", "mc_defend", `{"enabled":true}`},
		{"wait 250", "mc_wait", `{"ms":250}`},
		{`say "x=y"`, "mc_say", `{"message":"x=y"}`},
		{`{"tool":"mc_say","args":{"message":"hi"}}`, "mc_say", `{"message":"hi"}`},
		{"{\n  \"id\": \"mine\",\n  \"tool\": \"mc_wait\",\n  \"args\": {\"ms\": 5}\n}", "mc_wait", `{"ms":5}`},
	}
	for _, tc := range cases {
		req, err := parseLine(c, tc.line)
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		args, _ := json.Marshal(req.Args)
		if req.Tool != tc.tool || string(args) != tc.args {
			t.Errorf("%q → %s %s; want %s %s", tc.line, req.Tool, args, tc.tool, tc.args)
		}
	}
	if req, _ := parseLine(c, `{"id":"mine","tool":"mc_status"}`); req.IDString() != "mine" {
		t.Errorf("a pasted id should be kept; got %q", req.IDString())
	}
	if req, _ := parseLine(c, `{"tool":"mc_status"}`); len(req.ID) != 0 {
		t.Errorf("a line without id should leave it to the console; got %s", req.ID)
	}
}

func TestShortFormErrorsAreSentences(t *testing.T) {
	c := newDispatcher(t).Catalog()
	cases := []struct{ line, want string }{
		{"mc_wait ms=soon", `ms must be a whole number from 0 to 600000; got "soon"`},
		{"wait", "ms is required"},
		{"colect oak_log 4", `unknown tool "colect"; did you mean mc_collect`},
		{"mc_wait seconds=3", `mc_wait has no argument "seconds"`},
		{"status now", "mc_status takes 0 argument(s)"},
		{`say "unclosed`, "quote is not closed"},
		{`{"tool":"mc_say","args":{"message":"hi"}`, "not valid JSON"},
		{`{"tool":"mc_say","args":["hi"]}`, `"args" must be an object`},
		{"collect oak_log 4 5", `"5" is one too many`},
		{"", "type a tool call first"},
	}
	for _, tc := range cases {
		_, err := parseLine(c, tc.line)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v; want it to say %q", tc.line, err, tc.want)
		}
	}
}

func TestInvalidLineIsNotSentAndStaysForEditing(t *testing.T) {
	d := newDispatcher(t)
	var calls int
	stop := d.Observe(func(protocol.CallEvent) { calls++ })
	defer stop()
	m := newModel(t, d, themes.Dark, 100, 30)
	m = typeText(m, `{"tool":"mc_wait","args":{"ms":-5}}`)
	m, cmd := updateCmd(m, keyType(tea.KeyEnter))
	if cmd != nil {
		t.Fatal("an invalid call produced a command; nothing should be sent")
	}
	if got := m.input.Err(); !strings.Contains(got, "ms must be a whole number from 0 to 600000; got -5") {
		t.Fatalf("inline error = %q", got)
	}
	if m.input.Value() != `{"tool":"mc_wait","args":{"ms":-5}}` {
		t.Fatalf("the text was not kept: %q", m.input.Value())
	}
	if !strings.Contains(m.View(), "ms must be a whole number") {
		t.Fatal("the error is not on screen")
	}
	if calls != 0 || len(m.timeline.calls) != 0 {
		t.Fatal("the dispatcher or the timeline saw an invalid call")
	}
	// Editing clears the error.
	m = update(m, keyType(tea.KeyBackspace))
	if m.input.Err() != "" {
		t.Fatal("typing did not clear the error")
	}
}

func TestCompletionFromTheCatalog(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	m = typeText(m, "mc_col")
	m = update(m, keyType(tea.KeyTab))
	if got := m.input.Value(); got != "mc_collect " {
		t.Fatalf("tab after mc_col gave %q", got)
	}
	if m.Focus() != "input" {
		t.Fatal("tab with a completion moved focus")
	}
	m = typeText(m, "b")
	m = update(m, keyType(tea.KeyTab))
	if got := m.input.Value(); got != "mc_collect block_type=" {
		t.Fatalf("argument completion gave %q", got)
	}
	m = typeText(m, "oak_log c")
	m = update(m, keyType(tea.KeyTab))
	if got := m.input.Value(); got != "mc_collect block_type=oak_log count=" {
		t.Fatalf("second argument completion gave %q", got)
	}
	// Ambiguous: the common prefix, and the choices shown.
	m.input.SetValue("st")
	m = update(m, keyType(tea.KeyTab))
	if got := m.input.Value(); got != "st" || !strings.Contains(m.View(), "status stop") {
		t.Fatalf("ambiguous completion: value %q, hint shown=%v", got, strings.Contains(m.View(), "status stop"))
	}
	// Nothing to complete: tab moves focus.
	m.input.SetValue("")
	m = update(m, keyType(tea.KeyTab))
	if m.Focus() == "input" {
		t.Fatal("tab on an empty line should move focus")
	}
}

func TestHistoryUpAndDown(t *testing.T) {
	d := newDispatcher(t)
	m := newModel(t, d, themes.Dark, 100, 30)
	for _, line := range []string{"wait 1", "wait 2"} {
		m = typeText(m, line)
		var cmd tea.Cmd
		m, cmd = updateCmd(m, keyType(tea.KeyEnter))
		m = settle(t, m, cmd, func(m Model) bool { return m.timeline.running() == 0 && len(m.timeline.calls) > 0 })
	}
	m = typeText(m, "draft")
	m = update(m, keyType(tea.KeyUp))
	if m.input.Value() != "wait 2" {
		t.Fatalf("up gave %q", m.input.Value())
	}
	m = update(m, keyType(tea.KeyUp))
	m = update(m, keyType(tea.KeyUp))
	if m.input.Value() != "wait 1" {
		t.Fatalf("up at the oldest gave %q", m.input.Value())
	}
	m = update(m, keyType(tea.KeyDown))
	m = update(m, keyType(tea.KeyDown))
	if m.input.Value() != "draft" {
		t.Fatalf("down past the newest should restore the draft; got %q", m.input.Value())
	}
}

func TestMultiLinePasteBecomesOneLine(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	paste := "{\n  \"tool\": \"mc_wait\",\n  \"args\": {\"ms\": 1}\n}"
	m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(paste), Paste: true})
	if got := m.input.Value(); got != `{ "tool": "mc_wait", "args": {"ms": 1} }` {
		t.Fatalf("pasted text became %q", got)
	}
	m, cmd := updateCmd(m, keyType(tea.KeyEnter))
	m = settle(t, m, cmd, func(m Model) bool { return len(m.timeline.calls) == 1 && m.timeline.calls[0].Done })
	if c := m.timeline.calls[0]; !c.Response.OK || c.Tool != "mc_wait" {
		t.Fatalf("pasted call: %+v", c.Response)
	}
}

func TestSubmittedCallRunsThroughTheDispatcher(t *testing.T) {
	d := newDispatcher(t)
	var origins []protocol.Origin
	stop := d.Observe(func(ev protocol.CallEvent) {
		if ev.Phase == protocol.Finished {
			origins = append(origins, ev.Origin)
		}
	})
	defer stop()
	m := newModel(t, d, themes.Dark, 100, 30)
	m = typeText(m, "say hello there")
	m, cmd := updateCmd(m, keyType(tea.KeyEnter))
	if m.input.Value() != "" {
		t.Fatal("a sent line should clear the input")
	}
	// The line becomes a submitMsg; the root then shows it and runs it.
	m, cmd = updateCmd(m, cmd())
	if len(m.timeline.calls) != 1 || m.timeline.calls[0].Done {
		t.Fatal("the call should show as running as soon as it is sent")
	}
	m = settle(t, m, cmd, func(m Model) bool { return m.timeline.calls[0].Done })
	c := m.timeline.calls[0]
	if c.Key != "c1" || !c.Response.OK || string(c.Response.Result) != `{"message":"hello there","said":true}` {
		t.Fatalf("call c1: key %q response %+v", c.Key, c.Response)
	}
	if len(origins) != 1 || origins[0] != protocol.OriginConsole {
		t.Fatalf("dispatcher saw origins %v; want one console call", origins)
	}
	// The dispatcher's own events for this call add no second entry.
	m = update(m, batchMsg{Calls: []protocol.CallEvent{
		{Phase: protocol.Started, ID: c.ID, Tool: "mc_say", Origin: protocol.OriginConsole, Started: epoch},
		{Phase: protocol.Finished, ID: c.ID, Tool: "mc_say", Origin: protocol.OriginConsole, Started: epoch, Response: c.Response},
	}})
	if len(m.timeline.calls) != 1 {
		t.Fatalf("the observer's echo added entries: %d calls", len(m.timeline.calls))
	}
	// A call from the sidecar with the same id is its own entry.
	m = update(m, batchMsg{Calls: []protocol.CallEvent{
		{Phase: protocol.Started, ID: json.RawMessage(`"c1"`), Tool: "mc_status", Origin: protocol.OriginSidecar, Started: epoch.Add(time.Second)},
	}})
	if len(m.timeline.calls) != 2 || m.timeline.calls[1].Origin != protocol.OriginSidecar {
		t.Fatalf("a sidecar call was not added: %d calls", len(m.timeline.calls))
	}
}

func TestStopKeyCancelsARunningCall(t *testing.T) {
	d := newDispatcher(t)
	h := newHarness(t, newModel(t, d, themes.Dark, 100, 30))
	h.typeText("mc_wait ms=600000")
	h.send(keyType(tea.KeyEnter))
	h.until(func(Model) bool { return len(d.Running()) == 1 })
	h.send(keyType(tea.KeyCtrlX))
	h.until(func(m Model) bool { return len(m.timeline.calls) == 2 && m.timeline.running() == 0 })
	wait, stop := h.m.timeline.calls[0], h.m.timeline.calls[1]
	if wait.Response.OK || !strings.Contains(wait.Response.Error, "stopped by mc_stop") {
		t.Fatalf("the wait should end stopped; got %+v", wait.Response)
	}
	if stop.Tool != "mc_stop" || !strings.Contains(string(stop.Response.Result), `"c1"`) {
		t.Fatalf("mc_stop should report cancelling c1; got %s %s", stop.Tool, stop.Response.Result)
	}
}

func TestEventsFollowTailOnlyAtTheBottom(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	chat := func(i int) protocol.Event {
		return event("mc_player_chat", epoch.Add(time.Duration(i)*time.Second), map[string]any{"username": "Eduard", "message": fmt.Sprintf("line %d", i)})
	}
	var evs []protocol.Event
	for i := range 50 {
		evs = append(evs, chat(i))
	}
	m = update(m, batchMsg{Events: evs})
	if !strings.Contains(m.View(), "line 49") {
		t.Fatal("at the bottom the newest event should show")
	}
	m = update(m, keyType(tea.KeyTab))
	m = update(m, keyType(tea.KeyTab)) // events
	m = update(m, keyType(tea.KeyPgUp))
	view := m.View()
	if m.events.Following() || strings.Contains(view, "line 49") {
		t.Fatal("page up should leave the tail")
	}
	m = update(m, batchMsg{Events: []protocol.Event{chat(50)}})
	if after := m.View(); after != strings.Replace(view, "Events · ↑", "Events · ↑", 1) && strings.Contains(after, "line 50") {
		t.Fatal("a new event moved a view that was scrolled up")
	}
	m = update(m, keyType(tea.KeyEnd))
	m = update(m, batchMsg{Events: []protocol.Event{chat(51)}})
	if !strings.Contains(m.View(), "line 51") {
		t.Fatal("back at the bottom, new events should show")
	}
}

func TestEventFilterByKind(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 160, 48)
	m = update(m, batchMsg{Events: fixtureEvents()})
	m = update(m, keyType(tea.KeyTab))
	m = update(m, keyType(tea.KeyTab))   // events
	m = update(m, keyType(tea.KeyRight)) // chat
	view := m.View()
	if !strings.Contains(view, "follow me") || strings.Contains(view, "Hurt by zombie") {
		t.Fatal("the chat filter should show chat and only chat")
	}
	for m.events.Filter() != "mc_hurt" {
		m = update(m, keyType(tea.KeyRight))
		if m.events.Filter() == "" {
			t.Fatal("mc_hurt is not among the filters")
		}
	}
	view = m.View()
	if strings.Contains(view, "follow me") || !strings.Contains(view, "Hurt by zombie") || !strings.Contains(view, "Events · hurt") {
		t.Fatal("the mc_hurt filter should show hurt events only, and say so in the title")
	}
	m = update(m, keyType(tea.KeyLeft))
	if m.events.Filter() == "mc_hurt" {
		t.Fatal("← should step the filter back")
	}
	// The filter offers only kinds that came: all, chat, then each kind
	// in the order it first came.
	want := []string{"", filterChat}
	for _, e := range fixtureEvents() {
		if !slices.Contains(want, e.Name) {
			want = append(want, e.Name)
		}
	}
	if got := m.events.filters(); !slices.Equal(got, want) {
		t.Fatalf("the filter cycles through %q; want the kinds seen %q", got, want)
	}
}

func TestHistoryIsBounded(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	evs := make([]protocol.Event, 0, 3*maxEvents)
	for i := range 3 * maxEvents {
		evs = append(evs, event("mc_player_chat", epoch, map[string]any{"username": "a", "message": fmt.Sprint(i)}))
	}
	m = update(m, batchMsg{Events: evs[:maxEvents/2]})
	m = update(m, batchMsg{Events: evs[maxEvents/2:]})
	if len(m.events.entries) != maxEvents || m.events.dropped != 2*maxEvents {
		t.Fatalf("kept %d events, counted %d dropped; want %d kept", len(m.events.entries), m.events.dropped, maxEvents)
	}
	if !strings.Contains(m.View(), fmt.Sprint(3*maxEvents-1)) {
		t.Fatal("the newest event is not shown")
	}
	for i := range maxCalls + 20 {
		id := json.RawMessage(fmt.Sprintf(`"s%d"`, i))
		m = update(m, batchMsg{Calls: []protocol.CallEvent{
			{Phase: protocol.Started, ID: id, Tool: "mc_status", Origin: protocol.OriginSidecar, Started: epoch},
			{Phase: protocol.Finished, ID: id, Tool: "mc_status", Origin: protocol.OriginSidecar, Started: epoch, Response: protocol.Response{ID: id, OK: true}},
		}})
	}
	if len(m.timeline.calls) != maxCalls {
		t.Fatalf("timeline holds %d calls; want %d", len(m.timeline.calls), maxCalls)
	}
}

func TestUntrustedTextCannotReachTheTerminal(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 160, 48)
	evil := "\x1b[2J\x1b]52;c;cHduZWQ=\x07\x9b31m\u202eevil\u200b\r\nfake line"
	m = update(m, batchMsg{Events: []protocol.Event{
		event("mc_player_chat", epoch, map[string]any{"username": evil, "message": evil}),
		event("mc_system_chat", epoch, map[string]any{"message": evil, "segments": []map[string]any{{"text": evil, "color": "\x1b[31m"}}}),
		event("mc_lan_world_found", epoch, map[string]any{"host": "127.0.0.1", "port": 1, "motd": evil}),
	}})
	view := m.View()
	for _, bad := range []string{"\x1b", "\x07", "\x9b", "\u202e", "\u200b", "\r"} {
		if strings.Contains(view, bad) {
			t.Fatalf("the view contains %q from a player's text", bad)
		}
	}
	if !strings.Contains(view, "evil fake line") {
		t.Fatal("the readable part of the text should still show")
	}
}

func TestJoinFromTheWorldsPane(t *testing.T) {
	d := newDispatcher(t)
	m := New(Options{Dispatcher: d, Username: "Theo", Now: func() time.Time { return epoch }, Location: time.UTC, NoPoll: true})
	m = update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m = update(m, batchMsg{Events: []protocol.Event{event("mc_lan_world_found", epoch, map[string]any{"host": "127.0.0.1", "port": 51234, "motd": "Eduard - Survival"})}})
	m, cmd := updateCmd(m, keyType(tea.KeyEnter))
	m = settle(t, m, cmd, func(m Model) bool { return len(m.timeline.calls) == 1 && m.timeline.calls[0].Done })
	c := m.timeline.calls[0]
	args, _ := json.Marshal(c.Args)
	if c.Tool != "mc_join" || string(args) != `{"host":"127.0.0.1","port":51234,"username":"Theo"}` {
		t.Fatalf("enter on a world called %s %s", c.Tool, args)
	}
	// A typed join gets the console's username too, unless it names one.
	m = typeText(m, "join 127.0.0.1:4242")
	m, cmd = updateCmd(m, keyType(tea.KeyEnter))
	m = settle(t, m, cmd, func(m Model) bool { return len(m.timeline.calls) == 2 && m.timeline.calls[1].Done })
	if args, _ := json.Marshal(m.timeline.calls[1].Args); string(args) != `{"host":"127.0.0.1","port":4242,"username":"Theo"}` {
		t.Fatalf("typed join sent %s", args)
	}
	m = typeText(m, "join 127.0.0.1:4243 username=Alex")
	m, cmd = updateCmd(m, keyType(tea.KeyEnter))
	m = settle(t, m, cmd, func(m Model) bool { return len(m.timeline.calls) == 3 && m.timeline.calls[2].Done })
	if args, _ := json.Marshal(m.timeline.calls[2].Args); string(args) != `{"host":"127.0.0.1","port":4243,"username":"Alex"}` {
		t.Fatalf("typed join with a username sent %s", args)
	}
	// A bare port, as the game prints it, joins this computer's world.
	m = typeText(m, "join 42905")
	m, cmd = updateCmd(m, keyType(tea.KeyEnter))
	m = settle(t, m, cmd, func(m Model) bool { return len(m.timeline.calls) == 4 && m.timeline.calls[3].Done })
	if args, _ := json.Marshal(m.timeline.calls[3].Args); string(args) != `{"port":42905,"username":"Theo"}` {
		t.Fatalf("join 42905 sent %s", args)
	}
}

func TestLowHealthChangesTheStatusPane(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	m = update(m, statusMsg{Status: fixtureStatus(18)})
	if m.status.low() || strings.Contains(m.View(), "LOW") {
		t.Fatal("18 health is not low")
	}
	m = update(m, statusMsg{Status: fixtureStatus(4)})
	if !m.status.low() || !strings.Contains(m.View(), "4/20 LOW") {
		t.Fatal("4 health should show as low")
	}
	if m.status.View(false) == newModel(t, newDispatcher(t), themes.Dark, 100, 30).status.View(false) {
		t.Fatal("the pane should look different when health is low")
	}
}

func TestQuitLeavesThenExits(t *testing.T) {
	d := newDispatcher(t)
	var left bool
	m := New(Options{Dispatcher: d, NoPoll: true, Leave: func(context.Context) { left = true }})
	m = update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m, cmd := updateCmd(m, keyType(tea.KeyCtrlC))
	if !m.Quitting() || !strings.Contains(m.View(), "leaving the world") {
		t.Fatal("ctrl+c out of a world should start leaving at once and say so")
	}
	msg := cmd()
	if _, ok := msg.(leftMsg); !ok || !left {
		t.Fatalf("quit should call Leave and then report leftMsg; got %T, left=%v", msg, left)
	}
	if _, cmd = updateCmd(m, msg); cmd == nil {
		t.Fatal("after leaving the console should quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("after leaving the console should quit")
	}
}

func TestThemeSwitchKeepsTheSpinnerGoing(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	m = update(m, batchMsg{Calls: fixtureCalls()}) // c3 still runs
	m = update(m, keyType(tea.KeyTab))
	m, cmd := updateCmd(m, keyType(tea.KeyCtrlT))
	if cmd == nil {
		t.Fatal("switching theme with a call running should restart the spinner")
	}
	var tick spinner.TickMsg
	ok := false
	for _, msg := range runCmd(t, cmd) {
		if tm, is := msg.(spinner.TickMsg); is {
			tick, ok = tm, true
		}
	}
	if !ok || tick.ID != m.timeline.spinner.ID() {
		t.Fatal("the command should tick the new theme's spinner")
	}
	if _, cmd = updateCmd(m, tick); cmd == nil {
		t.Fatal("the new spinner should keep ticking while the call runs")
	}
}
