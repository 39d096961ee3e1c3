package ui

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// words are what a person types in the first five minutes, each of which
// once hit a hotkey on its way in: o (overlay) in join, s (stop) and t
// (theme) in status, q (quit) in say quick, s and t in stop.
var words = []string{"join 127.0.0.1:42905", "status", "say quick", "stop"}

// oldHotkeys are every single key that was an action before: typed, each
// must be text.
const oldHotkeys = "qtosfFgGjkbci:/? "

// toolRecorder keeps the tools the dispatcher saw start, in order.
type toolRecorder struct {
	mu    sync.Mutex
	tools []string
}

func recordTools(t *testing.T, d *protocol.Dispatcher) *toolRecorder {
	r := &toolRecorder{}
	stop := d.Observe(func(ev protocol.CallEvent) {
		if ev.Phase == protocol.Started {
			r.mu.Lock()
			r.tools = append(r.tools, ev.Tool)
			r.mu.Unlock()
		}
	})
	t.Cleanup(stop)
	return r
}

func (r *toolRecorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.tools)
}

// paneSetups put a console (not in a world, with one finished call and a
// few events so every pane has something to show) into each state a person
// can type from, whatever state it was in, with the keys a person presses.
var paneSetups = []struct {
	name  string
	setup func(m Model) Model
}{
	{"worlds", func(m Model) Model { return focusOn(m, "worlds") }},
	{"timeline", func(m Model) Model { return focusOn(m, "timeline") }},
	{"events", func(m Model) Model { return focusOn(m, "events") }},
	{"input", func(m Model) Model { return focusOn(m, "input") }},
	{"help", func(m Model) Model { return update(focusOn(m, "worlds"), keyType(tea.KeyF1)) }},
	{"call details", func(m Model) Model { return update(focusOn(m, "timeline"), keyType(tea.KeyEnter)) }},
	{"event details", func(m Model) Model { return update(focusOn(m, "events"), keyType(tea.KeyEnter)) }},
}

// focusOn closes help and details and presses Tab until the pane has focus.
func focusOn(m Model, pane string) Model {
	if m.showHelp {
		m = update(m, keyType(tea.KeyF1))
	}
	if m.timeline.Open() || m.events.Open() {
		m = update(m, keyType(tea.KeyEsc))
	}
	for range 5 {
		if m.Focus() == pane {
			break
		}
		m = update(m, keyType(tea.KeyTab))
	}
	return m
}

// furnished is a console with a world listed, a call and two events.
func furnished(t *testing.T, d *protocol.Dispatcher) Model {
	m := newModel(t, d, themes.Dark, 120, 36)
	return update(m, batchMsg{
		Events: []protocol.Event{worldFound("127.0.0.1", 51234, 1), event("mc_player_chat", epoch, map[string]any{"username": "alex", "message": "hi"})},
		Calls:  fixtureCalls()[:2],
	})
}

// TestTypingFromEveryPaneNeverActs types, one key at a time, the words
// people type and every key that once was an action, from every pane and
// view: the text lands in the input line whole, and nothing quits, stops,
// restyles, switches layout, filters or calls anything until Enter.
func TestTypingFromEveryPaneNeverActs(t *testing.T) {
	for _, pane := range paneSetups {
		for _, text := range append(slices.Clone(words), oldHotkeys[:len(oldHotkeys)-1]) {
			t.Run(pane.name+"/"+text, func(t *testing.T) {
				d := newDispatcher(t)
				rec := recordTools(t, d)
				m := pane.setup(furnished(t, d))
				before := rec.list()
				calls := len(m.timeline.calls)
				for _, r := range text {
					// The console's own calls show in the timeline as they
					// are made (submit), so a key that called anything
					// would add one here at once. A terminal sends the
					// space bar as its own key type.
					k := keyRunes(string(r))
					if r == ' ' {
						k = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
					}
					m = update(m, k)
				}
				if len(m.timeline.calls) != calls {
					t.Fatalf("typing %q made a call: %s", text, m.timeline.calls[len(m.timeline.calls)-1].Tool)
				}
				if m.Quitting() || m.confirmQuit || m.overlay || m.ThemeName() != "dark" || m.events.Filter() != "" {
					t.Fatalf("typing %q acted: quitting=%v overlay=%v theme=%s filter=%q", text, m.Quitting(), m.overlay, m.ThemeName(), m.events.Filter())
				}
				if got := m.input.Value(); got != text {
					t.Fatalf("typed %q; the input line holds %q", text, got)
				}
				if m.Focus() != "input" || m.timeline.Open() || m.events.Open() {
					t.Fatalf("after typing, focus is on %s (details open: calls %v, events %v); it should be on the input line", m.Focus(), m.timeline.Open(), m.events.Open())
				}
				if got := rec.list(); !slices.Equal(got, before) {
					t.Fatalf("typing called tools: %v", got[len(before):])
				}
			})
		}
	}
}

// TestEscThenAKeyIsStillText: a terminal sends Esc and a key pressed
// right after it as one alt+key; from a list pane the Esc has nothing left
// to do and the key is text for the input line, never lost.
func TestEscThenAKeyIsStillText(t *testing.T) {
	for _, pane := range paneSetups {
		m := pane.setup(furnished(t, newDispatcher(t)))
		m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("s"), Alt: true})
		if pane.name == "input" {
			continue // in the line, alt+key is the line's own (alt+b: word back)
		}
		if m.input.Value() != "s" || m.Focus() != "input" || m.timeline.Open() || m.events.Open() {
			t.Errorf("%s: esc+s gave line %q, focus %s", pane.name, m.input.Value(), m.Focus())
		}
	}
}

// TestQuestionMarkOpensHelpOnlyWhereItCannotBeText: ? opens the help from
// any pane while the input line is empty (no call begins with ?), and is a
// question mark everywhere else.
func TestQuestionMarkOpensHelpOnlyWhereItCannotBeText(t *testing.T) {
	for _, pane := range paneSetups[:4] {
		m := pane.setup(furnished(t, newDispatcher(t)))
		m = update(m, keyRunes("?"))
		if !m.showHelp || m.input.Value() != "" {
			t.Errorf("%s: ? on an empty line should open the help; help %v, line %q", pane.name, m.showHelp, m.input.Value())
		}
		m = update(m, keyRunes("?"))
		if m.showHelp {
			t.Errorf("%s: ? again should close the help", pane.name)
		}
	}
	m := typeText(furnished(t, newDispatcher(t)), "say is it day?")
	if m.showHelp || m.input.Value() != "say is it day?" {
		t.Fatalf("? in text is text: help %v, line %q", m.showHelp, m.input.Value())
	}
	// A paste that starts with ? is pasted, never a key.
	m = furnished(t, newDispatcher(t))
	m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?"), Paste: true})
	if m.showHelp || m.input.Value() != "?" {
		t.Fatalf("a pasted ? opened the help or was lost: help %v, line %q", m.showHelp, m.input.Value())
	}
}

// TestTypedWordsRunOnEnter: from every pane, each word typed and Enter
// runs exactly that call, and only then.
func TestTypedWordsRunOnEnter(t *testing.T) {
	for _, pane := range paneSetups {
		t.Run(pane.name, func(t *testing.T) {
			d := newDispatcher(t)
			rec := recordTools(t, d)
			h := newHarness(t, pane.setup(furnished(t, d)))
			h.typeText("wait 600000")
			h.send(keyType(tea.KeyEnter))
			h.until(func(Model) bool { return len(d.Running()) == 1 })
			for _, w := range words {
				h.m = pane.setup(h.m)
				h.typeText(w)
				n := len(h.m.timeline.calls)
				h.send(keyType(tea.KeyEnter))
				h.until(func(m Model) bool { return len(m.timeline.calls) == n+1 && m.timeline.calls[n].Done })
			}
			h.until(func(m Model) bool { return m.timeline.running() == 0 })
			want := []string{"mc_wait", "mc_join", "mc_status", "mc_say", "mc_stop"}
			if got := rec.list(); !slices.Equal(got, want) {
				t.Fatalf("the dispatcher ran %v; want %v", got, want)
			}
			wait := h.m.timeline.calls[slices.IndexFunc(h.m.timeline.calls, func(c *call) bool { return c.Tool == "mc_wait" })]
			if c := wait; c.Response.OK || !strings.Contains(c.Response.Error, "stopped by mc_stop") {
				t.Fatalf("the wait should have been stopped by the typed stop, and only by it: %+v", c.Response)
			}
			if h.m.Quitting() || h.m.ThemeName() != "dark" || h.m.overlay {
				t.Fatalf("a typed word acted: quitting=%v theme=%s overlay=%v", h.m.Quitting(), h.m.ThemeName(), h.m.overlay)
			}
		})
	}
}

// pastedCall is a JSON call as a person copies it: pretty-printed, with
// characters encoding/json would HTML-escape, and a final line break.
const pastedCall = "{\n  \"tool\": \"mc_say\",\n  \"args\": {\"message\": \"fish & chips <now>\"}\n}\n"

// TestBracketedPasteFromEveryPane: a JSON call pasted from any pane lands
// in the input line whole, waits for Enter (even though it ends in a line
// break), and then runs.
func TestBracketedPasteFromEveryPane(t *testing.T) {
	for _, pane := range paneSetups {
		t.Run(pane.name, func(t *testing.T) {
			d := newDispatcher(t)
			rec := recordTools(t, d)
			m := pane.setup(furnished(t, d))
			before := rec.list()
			calls := len(m.timeline.calls)
			m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(pastedCall), Paste: true})
			if len(m.timeline.calls) != calls || len(rec.list()) != len(before) {
				t.Fatal("the paste ran at once; it should wait for Enter")
			}
			if got := m.input.Value(); got != `{ "tool": "mc_say", "args": {"message": "fish & chips <now>"} }` {
				t.Fatalf("the pasted call became %q", got)
			}
			if m.Focus() != "input" || m.showHelp != (pane.name == "help") {
				t.Fatalf("after the paste focus is on %s, help %v", m.Focus(), m.showHelp)
			}
			n := len(m.timeline.calls)
			m, cmd := updateCmd(m, keyType(tea.KeyEnter))
			m = settle(t, m, cmd, func(m Model) bool { return len(m.timeline.calls) == n+1 && m.timeline.calls[n].Done })
			if got := rec.list(); !slices.Equal(got[len(before):], []string{"mc_say"}) {
				t.Fatalf("Enter after the paste ran %v", got[len(before):])
			}
			// The call and its result are shown as written: no \u0026.
			view := m.View()
			if !strings.Contains(view, `message="fish & chips <now>"`) || strings.Contains(view, `\u00`) {
				t.Fatalf("the timeline does not show the message as written:\n%s", view)
			}
		})
	}
}

// TestFlowTypingOneKeyAtATimeFromEveryPane is the same as a person at a
// real program (teatest): from each pane, the words typed one key at a time
// sit in the input line and run on Enter, in order; nothing quits, stops,
// restyles or switches layout along the way.
func TestFlowTypingOneKeyAtATimeFromEveryPane(t *testing.T) {
	// Each word is typed after a call, with focus on the input line; the
	// keys take it to the pane first.
	for _, pane := range []struct {
		name string
		keys []tea.KeyMsg
	}{
		{"worlds", []tea.KeyMsg{press(tea.KeyTab)}},
		{"timeline", []tea.KeyMsg{press(tea.KeyShiftTab), press(tea.KeyShiftTab)}},
		{"events", []tea.KeyMsg{press(tea.KeyShiftTab)}},
		{"help", []tea.KeyMsg{press(tea.KeyF1)}},
		{"call details", []tea.KeyMsg{press(tea.KeyShiftTab), press(tea.KeyShiftTab), press(tea.KeyEnter)}},
		{"event details", []tea.KeyMsg{press(tea.KeyShiftTab), press(tea.KeyEnter)}},
	} {
		t.Run(pane.name, func(t *testing.T) {
			d := newDispatcher(t)
			rec := recordTools(t, d)
			tm := startFlow(t, d, Options{NoPoll: true})
			tm.Type("wait 600000")
			tm.Send(press(tea.KeyEnter))
			waitScreen(t, tm, "1 running")
			results := map[string]string{"join 127.0.0.1:42905": "joined=true", "status": "connected=true", "say quick": "said=true", "stop": "stopped by mc_stop"}
			for _, w := range words {
				for _, k := range pane.keys {
					tm.Send(k)
				}
				tm.Type(w)
				waitScreen(t, tm, "› "+w)
				if got := rec.list(); len(got) != 1+slices.Index(words, w) {
					t.Fatalf("typing %q, before Enter, ran %v", w, got)
				}
				tm.Send(press(tea.KeyEnter))
				waitScreen(t, tm, results[w])
			}
			m := quitFlow(t, tm)
			if want := []string{"mc_wait", "mc_join", "mc_status", "mc_say", "mc_stop"}; !slices.Equal(rec.list(), want) {
				t.Fatalf("the dispatcher ran %v; want %v", rec.list(), want)
			}
			if m.ThemeName() != "dark" || m.overlay {
				t.Fatalf("typing restyled or switched layout: theme %s, overlay %v", m.ThemeName(), m.overlay)
			}
		})
	}
}

// TestFlowPasteIntoAFreshConsole: the first thing a developer does, paste
// a JSON call (bracketed paste) into a console just opened, lands in the
// input line and runs on Enter.
func TestFlowPasteIntoAFreshConsole(t *testing.T) {
	d := newDispatcher(t)
	tm := startFlow(t, d, Options{NoPoll: true})
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(`{"id":"p1","tool":"mc_wait","args":{"ms":1}}` + "\n"), Paste: true})
	waitScreen(t, tm, `› {"id":"p1","tool":"mc_wait","args":{"ms":1}}`)
	tm.Send(press(tea.KeyEnter))
	waitScreen(t, tm, "p1", "waited_ms=")
	quitFlow(t, tm)
}

// TestRefusedLineIsReplacedByTyping: a refused line keeps its text, is
// shown as refused, and the next text typed replaces it rather than running
// on from it; editing keys edit it instead; ↑ brings it back.
func TestRefusedLineIsReplacedByTyping(t *testing.T) {
	d := newDispatcher(t)
	m := furnished(t, d)
	// A typo in the port: the host is not host:port, so the line is refused.
	m = typeText(m, "join 42905x")
	m, cmd := updateCmd(m, keyType(tea.KeyEnter))
	if cmd != nil {
		t.Fatal("a refused line produced a command")
	}
	if !m.input.Refused() || m.input.Value() != "join 42905x" || m.input.Err() != joinNeedsAddress {
		t.Fatalf("refused line: refused %v, text %q, error %q", m.input.Refused(), m.input.Value(), m.input.Err())
	}
	view := m.View()
	for _, want := range []string{"✗ join 42905x", joinNeedsAddress[:40], "typing replaces it"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the refused line is not shown as refused (%q missing):\n%s", want, view)
		}
	}
	m = typeText(m, "leave")
	if got := m.input.Value(); got != "leave" {
		t.Fatalf("typing after a refusal gave %q; it should replace the line", got)
	}
	if m.input.Refused() || m.input.Err() != "" {
		t.Fatal("the new text is not refused")
	}
	// ↑ brings the refused line back, to edit.
	m = update(m, keyType(tea.KeyUp))
	if m.input.Value() != "join 42905x" {
		t.Fatalf("↑ should bring back the refused line; got %q", m.input.Value())
	}
	// Refused again, then backspace edits the kept text: no run-on, no loss.
	m = update(m, keyType(tea.KeyEnter))
	m = update(m, keyType(tea.KeyBackspace))
	if m.input.Value() != "join 42905" || m.input.Refused() {
		t.Fatalf("backspace on a refused line should edit it; got %q refused=%v", m.input.Value(), m.input.Refused())
	}
	m = typeText(m, "1")
	if m.input.Value() != "join 429051" {
		t.Fatalf("typing after an edit should insert; got %q", m.input.Value())
	}
	// ← also turns the mark off and keeps the text for editing at the cursor.
	m.input.SetValue("")
	m = typeText(m, "say")
	m = update(m, keyType(tea.KeyEnter))
	m = update(m, keyType(tea.KeyLeft))
	m = typeText(m, "x")
	if m.input.Value() != "saxy" {
		t.Fatalf("← then typing should edit the refused line at the cursor; got %q", m.input.Value())
	}
	// A paste replaces a refused line as typing does.
	m.input.SetValue("")
	m = typeText(m, "wait soon")
	m = update(m, keyType(tea.KeyEnter))
	m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("wait 5"), Paste: true})
	if m.input.Value() != "wait 5" {
		t.Fatalf("a paste over a refused line gave %q", m.input.Value())
	}
}

// TestQuitInAWorldIsDeliberate: in a world, ctrl+c asks first; a second
// ctrl+c quits, Esc or any other key carries on (the key doing what it
// does). Out of a world ctrl+c quits at once.
func TestQuitInAWorldIsDeliberate(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	m = update(m, statusMsg{Status: fixtureStatus(20)})
	m, cmd := updateCmd(m, keyType(tea.KeyCtrlC))
	if m.Quitting() || cmd != nil || !m.confirmQuit {
		t.Fatal("the first ctrl+c in a world should ask, not quit")
	}
	if view := m.View(); !strings.Contains(view, "ctrl+c again: leave the world and quit") {
		t.Fatalf("the footer does not ask:\n%s", view)
	}
	m = typeText(m, "s")
	if m.confirmQuit || m.Quitting() || m.input.Value() != "s" {
		t.Fatalf("a key after ctrl+c should cancel the quit and be typed: confirm %v, line %q", m.confirmQuit, m.input.Value())
	}
	m = update(m, keyType(tea.KeyCtrlC))
	m = update(m, keyType(tea.KeyEsc))
	if m.confirmQuit || m.Quitting() || m.Focus() != "input" {
		t.Fatalf("esc should cancel the quit and do nothing else: confirm %v, focus %s", m.confirmQuit, m.Focus())
	}
	m = update(m, keyType(tea.KeyCtrlC))
	m, cmd = updateCmd(m, keyType(tea.KeyCtrlC))
	if !m.Quitting() || cmd == nil {
		t.Fatal("a second ctrl+c should quit")
	}
	// In the overlay too, and the overlay says so.
	m = newModel(t, newDispatcher(t), themes.Dark, 60, 12)
	m = update(m, statusMsg{Status: fixtureStatus(20)})
	m = update(m, keyType(tea.KeyCtrlO))
	m = update(m, keyType(tea.KeyCtrlC))
	if m.Quitting() || !strings.Contains(m.View(), "ctrl+c again leaves the world and quits") {
		t.Fatalf("ctrl+c in the overlay should ask:\n%s", m.View())
	}
	m = update(m, keyType(tea.KeyCtrlC))
	if !m.Quitting() {
		t.Fatal("a second ctrl+c in the overlay should quit")
	}
}

// TestPageKeysFromTheInputLineScrollEvents: PgUp/PgDn scroll the events
// from the input line, as in irssi or weechat, without leaving it.
func TestPageKeysFromTheInputLineScrollEvents(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	m = update(m, statusMsg{Status: fixtureStatus(20)})
	var evs []protocol.Event
	for i := range 60 {
		evs = append(evs, event("mc_player_chat", epoch, map[string]any{"username": "alex", "message": "line " + strings.Repeat("x", i%3) + string(rune('A'+i%26))}))
	}
	m = update(m, batchMsg{Events: evs})
	m = typeText(m, "say hi")
	m = update(m, keyType(tea.KeyPgUp))
	if m.events.Following() || m.Focus() != "input" || m.input.Value() != "say hi" {
		t.Fatalf("PgUp in the input line: following %v, focus %s, line %q", m.events.Following(), m.Focus(), m.input.Value())
	}
	m = update(m, keyType(tea.KeyPgDown))
	if !m.events.Following() {
		t.Fatal("PgDn should come back to the newest events")
	}
}

// TestJSONIsShownWithoutHTMLEscapes: &, < and > show as themselves in the
// timeline, the call details and the event details.
func TestJSONIsShownWithoutHTMLEscapes(t *testing.T) {
	d := newDispatcher(t)
	m := newModel(t, d, themes.Dark, 160, 48)
	m = update(m, statusMsg{Status: fixtureStatus(20)})
	// A caller's arguments (and the ids mc_stop echoes) are kept as the
	// caller's encoder wrote them, escapes and all.
	args := map[string]json.RawMessage{"message": json.RawMessage(`"fish \u0026 chips \u003cnow\u003e"`)}
	// Event payloads are blockmate's own, written by the bus with
	// protocol.Marshal.
	payload, err := protocol.Marshal(struct {
		Reason   string `json:"reason"`
		NextStep string `json:"next_step"`
	}{"kicked <spam>", "rejoin & behave"})
	if err != nil {
		t.Fatal(err)
	}
	m = update(m, batchMsg{
		Calls: []protocol.CallEvent{
			{Phase: protocol.Started, ID: json.RawMessage(`"x1"`), Tool: "mc_say", Args: args, Origin: protocol.OriginSidecar, Started: epoch},
			{Phase: protocol.Finished, ID: json.RawMessage(`"x1"`), Tool: "mc_say", Args: args, Origin: protocol.OriginSidecar, Started: epoch,
				Response: protocol.Response{ID: json.RawMessage(`"x1"`), OK: true, Result: json.RawMessage(`{"said":true,"echo":{"m":"a \u0026 b"}}`)}},
		},
		Events: []protocol.Event{{Name: "mc_disconnected", Time: epoch, Payload: payload}},
	})
	views := []string{m.View()}
	m = update(m, keyType(tea.KeyTab)) // timeline
	m = update(m, keyType(tea.KeyEnter))
	views = append(views, m.View())
	m = update(m, keyType(tea.KeyEsc))
	m = update(m, keyType(tea.KeyTab)) // events
	m = update(m, keyType(tea.KeyUp))  // past the bot's own line, to the disconnect
	m = update(m, keyType(tea.KeyEnter))
	views = append(views, m.View())
	all := strings.Join(views, "\n")
	for _, want := range []string{`fish & chips <now>`, `"m":"a & b"`, `"a & b"`, `kicked <spam>`, `"rejoin & behave"`} {
		if !strings.Contains(all, want) {
			t.Errorf("%q is not shown as written", want)
		}
	}
	if strings.Contains(all, `\u00`) {
		t.Fatalf("an HTML escape reached the screen:\n%s", all)
	}
	// Text that really says \u0026 (an escaped backslash) stays as it is.
	if got := string(plainJSON(json.RawMessage(`{"a":"x\\u0026y \u0026","b\u003c":1}`))); got != `{"a":"x\\u0026y &","b<":1}` {
		t.Fatalf("plainJSON = %s", got)
	}
}
