package ui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// runCmd runs a command the way the program would and collects every
// message it yields, batches included; it never waits on timers (ticks
// are skipped), so it cannot hang.
func runCmd(t *testing.T, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a command did not return within 10 s")
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, runCmd(t, c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func worldFound(host string, port, online int) protocol.Event {
	return event("mc_lan_world_found", epoch, map[string]any{"host": host, "port": port, "motd": "Eduard - Survival",
		"is_local_machine": true, "version": "1.21.4", "players_online": online, "players_max": 10, "compatible": true})
}

// Finding 1: in the overlay, keys reach only what is visible; Enter on the
// hidden worlds list, or typing ":say" and Enter, does nothing.
func TestOverlayKeysReachOnlyWhatIsVisible(t *testing.T) {
	d := newDispatcher(t)
	m := New(Options{Dispatcher: d, Overlay: true, NoPoll: true, Now: func() time.Time { return epoch }, Location: time.UTC})
	m = update(m, tea.WindowSizeMsg{Width: 60, Height: 12})
	m = update(m, batchMsg{Events: []protocol.Event{worldFound("127.0.0.1", 51234, 1)}})
	if m.Focus() != "none" {
		t.Fatalf("in the overlay no pane should have focus; %s has", m.Focus())
	}
	for _, k := range []tea.KeyMsg{keyType(tea.KeyEnter), keyRunes(":"), keyRunes("s"), keyRunes("a"), keyRunes("y"),
		keyType(tea.KeyEnter), keyRunes("c"), keyType(tea.KeyTab), keyType(tea.KeyEnter), keyRunes("?"), keyType(tea.KeyF1), keyRunes("j"), keyType(tea.KeyEnter)} {
		var cmd tea.Cmd
		m, cmd = updateCmd(m, k)
		for _, msg := range runCmd(t, cmd) {
			t.Fatalf("key %q in the overlay did something: %T %+v", k.String(), msg, msg)
		}
	}
	if len(m.timeline.calls) != 0 || m.input.Value() != "" || m.showHelp || m.timeline.Open() {
		t.Fatalf("keys in the overlay acted on hidden panes: calls %d, input %q, help %v", len(m.timeline.calls), m.input.Value(), m.showHelp)
	}
	// The overlay says how to leave it, and esc does; focus goes to the
	// list now shown.
	if view := m.View(); !strings.Contains(view, "esc or ctrl+o: full console") {
		t.Fatalf("the overlay does not say how to leave it:\n%s", view)
	}
	m = update(m, keyType(tea.KeyEsc))
	if m.overlay || m.Focus() != "worlds" {
		t.Fatalf("esc should leave the overlay with focus on the worlds list; overlay %v, focus %s", m.overlay, m.Focus())
	}
	// Back into the overlay from the input line: the line loses the cursor.
	m = update(m, keyRunes("s"))
	m = update(m, keyType(tea.KeyCtrlO))
	if m.input.focused || m.Focus() != "none" {
		t.Fatal("entering the overlay should take focus from every pane")
	}
	m = update(m, keyType(tea.KeyCtrlO))
	if m.overlay || m.Focus() != "input" || m.input.Value() != "s" {
		t.Fatalf("ctrl+o should leave the overlay back to the input line, text kept; focus %s, %q", m.Focus(), m.input.Value())
	}
	// --overlay with --connect starts with the input line blurred.
	m = New(Options{Dispatcher: d, Overlay: true, NoPoll: true, Connect: "127.0.0.1:51234"})
	if m.input.focused {
		t.Fatal("the overlay hides the input line; it should not have the cursor")
	}
}

// Finding 1, as a person in a real program: the streamer starts with
// --overlay, a world is announced, they type into the wrong window.
func TestFlowOverlayTypingJoinsNothing(t *testing.T) {
	d := newDispatcher(t)
	var calls atomic.Int32
	stop := d.Observe(func(protocol.CallEvent) { calls.Add(1) })
	defer stop()
	tm := startFlow(t, d, Options{NoPoll: true, Overlay: true})
	d.Events().Emit("mc_lan_world_found", "127.0.0.1:51234", map[string]any{"host": "127.0.0.1", "port": 51234, "motd": "Eduard - Survival"})
	waitScreen(t, tm, "World found: Eduard - Survival")
	tm.Send(press(tea.KeyEnter))
	tm.Type("say hi")
	tm.Send(press(tea.KeyEnter))
	tm.Send(press(tea.KeyEsc))
	waitScreen(t, tm, "Worlds (1)")
	m := quitFlow(t, tm)
	if len(m.timeline.calls) != 0 || calls.Load() != 0 {
		t.Fatalf("typing in the overlay made calls: %d in the timeline, %d call events", len(m.timeline.calls), calls.Load())
	}
}

// Finding 2: a dead bot says so, with what to type.
func TestDeadIsShown(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  statusMsg
	}{
		{"health 0", statusMsg{Status: fixtureStatus(0)}},
		{"dead field", statusMsg{Status: func() api.Status { st := fixtureStatus(20); st.Dead = true; return st }()}},
		{"dead state", statusMsg{Status: func() api.Status { st := fixtureStatus(20); st.State = "dead"; return st }()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
			m = update(m, tc.msg)
			view := m.View()
			for _, want := range []string{"dead", "type respawn", "DEAD"} {
				if !strings.Contains(view, want) {
					t.Errorf("the status does not say %q:\n%s", want, view)
				}
			}
			if strings.Contains(view, "● playing") {
				t.Error("a dead bot should not show as playing")
			}
			m = update(m, keyType(tea.KeyCtrlO))
			if view := m.View(); !strings.Contains(view, "dead") || !strings.Contains(view, "type respawn") {
				t.Errorf("the overlay does not show the bot is dead:\n%s", view)
			}
		})
	}
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	m = update(m, statusMsg{Status: fixtureStatus(1)})
	if strings.Contains(m.View(), "dead") {
		t.Fatal("a bot with 1 health is alive")
	}
}

// Finding 2: mc_status's "dead" reaches the pane.
func TestStatusReadsTheDeadField(t *testing.T) {
	c := protocol.NewCatalog()
	d := protocol.NewDispatcher(c, protocol.NewBus(nil), nil)
	c.Add(protocol.Tool{Name: "mc_status", Description: "stand-in", Effect: protocol.Read,
		Handler: func(context.Context, protocol.Args) (any, error) {
			return json.RawMessage(`{"connected":true,"state":"playing","health":20,"dead":true,"task":[]}`), nil
		}})
	m := newModel(t, d, themes.Dark, 100, 30)
	msgs := runCmd(t, m.statusCmd())
	st, ok := msgs[0].(statusMsg)
	if !ok || !st.Status.Dead || !st.Status.Connected {
		t.Fatalf("mc_status said dead; the console read %+v", msgs[0])
	}
}

// Finding 3: every example the console shows is a call the real catalog
// accepts, and no made-up tool is named.
func TestExamplesComeFromTheCatalog(t *testing.T) {
	d := newBotDispatcher(t)
	c := d.Catalog()
	m := newModel(t, d, themes.Dark, 160, 60)
	help := strings.Join(m.helpLines(), "\n")
	ph := m.input.ti.Placeholder
	for _, text := range []string{help, ph, m.timeline.View()} {
		for _, bad := range []string{"collect", "goto", "oak_log"} {
			if strings.Contains(text, bad) {
				t.Errorf("the console names %q, which is no tool:\n%s", bad, text)
			}
		}
	}
	ex := examples(c, len(exampleLines))
	if len(ex) < 4 {
		t.Fatalf("only %d examples fit the catalog: %v", len(ex), ex)
	}
	for _, e := range ex {
		if _, err := parseLine(c, e); err != nil {
			t.Errorf("example %q does not parse: %v", e, err)
		}
		if !strings.Contains(help, e) {
			t.Errorf("the help does not show example %q", e)
		}
	}
	for _, part := range strings.Split(ph, " · ") {
		if _, err := parseLine(c, part); err != nil {
			t.Errorf("the placeholder's %q does not parse: %v", part, err)
		}
	}
	// A catalog without a tool leaves its example out.
	if got := examples(protocol.NewCatalog(), 9); len(got) != 0 {
		t.Fatalf("an empty catalog has no examples; got %v", got)
	}
}

// Finding 3: the unknown-tool sentence reads as sentences, and the help
// names panes as their frames do.
func TestUnknownToolSentenceAndPaneNames(t *testing.T) {
	c := newBotDispatcher(t).Catalog()
	_, err := parseLine(c, "frobnicate oak_log 4")
	if err == nil || strings.Contains(err.Error(), `" Tab`) || !strings.Contains(err.Error(), "press Tab") {
		t.Fatalf("unknown tool error: %v", err)
	}
	m := newModel(t, newDispatcher(t), themes.Dark, 160, 48)
	m = update(m, keyType(tea.KeyTab)) // worlds → Tool calls
	m = update(m, keyRunes("?"))
	if view := m.View(); !strings.Contains(view, "Keys (Tool calls)") {
		t.Fatalf("the help should name the pane as its frame does:\n%s", view)
	}
}

// Finding 4: after the bot leaves a world, focus goes to the worlds list
// whose hint says enter; join and Enter without an address asks for the
// port in words for a person.
func TestDisconnectPutsFocusWhereTheHintSays(t *testing.T) {
	d := newDispatcher(t)
	m := newModel(t, d, themes.Dark, 120, 36)
	m = update(m, batchMsg{Events: []protocol.Event{worldFound("127.0.0.1", 25589, 2)}})
	m = update(m, statusMsg{Status: fixtureStatus(20)})
	if m.Focus() != "input" {
		t.Fatalf("in a world focus should be on the input line; it is on %s", m.Focus())
	}
	m = update(m, statusMsg{Status: api.Status{State: "offline", Reason: "kicked"}})
	if m.Focus() != "worlds" || !strings.Contains(m.View(), "↑/↓ choose · enter joins") {
		t.Fatalf("after leaving focus should be on the worlds list (%s):\n%s", m.Focus(), m.View())
	}
	m = typeText(m, "join ")
	if m.Focus() != "input" || m.input.Value() != "join " {
		t.Fatalf("typing join should go to the input line; focus %s, %q", m.Focus(), m.input.Value())
	}
	m, cmd := updateCmd(m, keyType(tea.KeyEnter))
	if msgs := runCmd(t, cmd); len(msgs) != 0 || m.input.Err() != joinNeedsAddress {
		t.Fatalf("join without an address should be refused with a sentence; got %q and %v", m.input.Err(), msgs)
	}
	for _, line := range []string{`join host=127.0.0.1`, `{"tool":"mc_join","args":{}}`} {
		if _, err := parseLine(d.Catalog(), line); err == nil || err.Error() != joinNeedsAddress {
			t.Errorf("%s: %v", line, err)
		}
	}
	if strings.Contains(m.input.Err(), "mc_discover_lan") {
		t.Fatal("the sentence is the bot's, written for a program")
	}
	// Something being typed keeps focus; the hint then says what works
	// from there.
	m.input.SetValue("")
	m = update(m, keyType(tea.KeyEsc))
	m = update(m, statusMsg{Status: fixtureStatus(20)})
	m = typeText(m, "say bye")
	m = update(m, statusMsg{Status: api.Status{State: "offline"}})
	if m.Focus() != "input" || m.input.Value() != "say bye" {
		t.Fatalf("leaving a world should not take the line from someone typing: focus %s, %q", m.Focus(), m.input.Value())
	}
	if view := m.View(); !strings.Contains(view, "or type join and its port") {
		t.Fatalf("with focus on the input the worlds hint should say what to type:\n%s", view)
	}
}

// Finding 4: the player count of a world says how old it is.
func TestWorldPlayerCountSaysItsAge(t *testing.T) {
	now := epoch
	m := New(Options{Dispatcher: newDispatcher(t), NoPoll: true, Now: func() time.Time { return now }, Location: time.UTC})
	m = update(m, tea.WindowSizeMsg{Width: 120, Height: 36})
	m = update(m, batchMsg{Events: []protocol.Event{worldFound("127.0.0.1", 25589, 2)}})
	if view := m.View(); !strings.Contains(view, "2/10 players") || strings.Contains(view, "ago") {
		t.Fatalf("a fresh count shows without age:\n%s", view)
	}
	now = now.Add(5 * time.Minute)
	if view := m.View(); !strings.Contains(view, "2/10 players 5 min ago") {
		t.Fatalf("an old count should say its age:\n%s", view)
	}
	// Leaving a world asks LAN discovery again for fresh counts.
	d := newDispatcher(t)
	d.Catalog().Add(protocol.Tool{Name: "mc_discover_lan", Description: "stand-in", Effect: protocol.Read,
		Handler: func(context.Context, protocol.Args) (any, error) {
			return json.RawMessage(`{"found":1,"worlds":[{"host":"127.0.0.1","port":25589,"motd":"Eduard - Survival","players_online":1,"players_max":10}]}`), nil
		}})
	m = New(Options{Dispatcher: d, Now: func() time.Time { return now }, Location: time.UTC})
	m = update(m, tea.WindowSizeMsg{Width: 120, Height: 36})
	m = update(m, batchMsg{Events: []protocol.Event{worldFound("127.0.0.1", 25589, 2)}})
	m = update(m, statusMsg{Status: fixtureStatus(20)})
	now = now.Add(5 * time.Minute)
	m, cmd := updateCmd(m, statusMsg{Status: api.Status{State: "offline"}})
	for _, msg := range runCmd(t, cmd) {
		if _, tick := msg.(statusTickMsg); !tick {
			m = update(m, msg)
		}
	}
	if view := m.View(); !strings.Contains(view, "1/10 players") || strings.Contains(view, "ago") {
		t.Fatalf("after leaving, the world list should be asked again:\n%s", view)
	}
}

// Finding 5: the overlay and the streamer theme tell events in short
// sentences, never a LAN address; a world is announced once.
func TestEventsAsSentencesForAnAudience(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Streamer, 70, 14)
	evs := []protocol.Event{
		event("mc_death", epoch, map[string]any{"message": "Streamy died"}),
		worldFound("127.0.0.1", 25571, 1),
		worldFound("127.0.0.1", 25571, 2),
		worldFound("127.0.0.1", 25571, 3),
		event("mc_disconnected", epoch, map[string]any{"reason": "connection to 192.168.1.5:25571 was refused", "next_step": "call mc_join"}),
	}
	m = update(m, batchMsg{Events: evs[:2]})
	m = update(m, batchMsg{Events: evs[2:]})
	if n := len(m.events.entries); n != 3 {
		t.Fatalf("status changes of a known world should not repeat in the stream: %d events kept", n)
	}
	for _, overlay := range []bool{false, true} {
		if overlay {
			m = update(m, keyType(tea.KeyCtrlO))
			m = update(m, tea.WindowSizeMsg{Width: 70, Height: 14})
		} else {
			m = update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
		}
		// The worlds list keeps addresses (a player needs them); the
		// event lines, which the overlay shows, do not.
		view := m.events.View()
		if overlay {
			view = m.View()
		}
		for _, want := range []string{"Streamy died", "World found: Eduard - Survival", "Left the world"} {
			if !strings.Contains(view, want) {
				t.Errorf("overlay=%v: missing %q:\n%s", overlay, want, view)
			}
		}
		for _, bad := range []string{"127.0.0.1", "25571", "192.168", "message=", "is_local_machine"} {
			if strings.Contains(view, bad) {
				t.Errorf("overlay=%v: shows %q:\n%s", overlay, bad, view)
			}
		}
	}
	// A world that went away and came back is news again.
	m = update(m, batchMsg{Events: []protocol.Event{
		event("mc_lan_world_lost", epoch, map[string]any{"host": "127.0.0.1", "port": 25571, "motd": "Eduard - Survival"}),
		worldFound("127.0.0.1", 25571, 1),
	}})
	if n := len(m.events.entries); n != 5 {
		t.Fatalf("lost and found again should both show; %d events kept", n)
	}
}

// Finding 10: a theme switched at run time is saved, keeping the other
// settings; a file that cannot be written gives a one-line note.
func TestThemeSwitchIsSaved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "console.json")
	m := New(Options{Dispatcher: newDispatcher(t), NoPoll: true, ConfigPath: path, Theme: themes.Dark})
	m = update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m, cmd := updateCmd(m, keyType(tea.KeyCtrlT))
	for _, msg := range runCmd(t, cmd) {
		m = update(m, msg)
	}
	cfg, err := LoadConfig(path)
	if err != nil || cfg.Theme != "light" {
		t.Fatalf("after ctrl+t the settings say %+v (%v); want theme light", cfg, err)
	}
	// The switch says it wrote the file, and the help says it will.
	if view := m.View(); !strings.Contains(view, "Theme light, saved to") {
		t.Fatalf("the console did not say the theme was saved:\n%s", view)
	}
	if help := strings.Join(m.helpLines(), " "); !strings.Contains(help, "ctrl+t switches the theme; the choice is written to the settings file") {
		t.Fatalf("the help does not say the theme is saved:\n%s", help)
	}
	if err := os.WriteFile(path, []byte(`{"username":"Theo","theme":"light","future":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, cmd = updateCmd(m, keyType(tea.KeyCtrlT))
	for _, msg := range runCmd(t, cmd) {
		m = update(m, msg)
	}
	raw, _ := os.ReadFile(path)
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil || got["theme"] != "high-contrast" || got["username"] != "Theo" || got["future"] != 1.0 {
		t.Fatalf("saving the theme should keep the other settings: %s", raw)
	}

	// A path under a regular file cannot be written.
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m = New(Options{Dispatcher: newDispatcher(t), NoPoll: true, ConfigPath: filepath.Join(blocker, "console.json")})
	m = update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m, cmd = updateCmd(m, keyType(tea.KeyCtrlT))
	for _, msg := range runCmd(t, cmd) {
		m = update(m, msg)
	}
	if m.ThemeName() != "light" || !strings.Contains(m.View(), "could not be saved for next time") {
		t.Fatalf("a failed save should leave the theme switched and say so in a line:\n%s", m.View())
	}
}

// Findings 7 and 8: addresses and names are checked as the bot checks
// them, and the default name is the bot's.
func TestAddressAndUsernameChecks(t *testing.T) {
	if DefaultUsername != api.DefaultUsername {
		t.Fatalf("the console's default name %q is not the bot's %q", DefaultUsername, api.DefaultUsername)
	}
	for addr, ok := range map[string]bool{
		"127.0.0.1:51234": true, ":51234": true, "my-pc.local:25565": true, "[::1]:25565": true,
		"127.0.0.1:99999": false, "127.0.0.1:0": false, "127.0.0.1": false, "a b:1": false, "127.0.0.1:port": false,
		// mc_join's rule (lan.SplitHost): an IPv6 address without brackets
		// has no port, and brackets without a port are no address.
		"::1": false, "[::1]": false, "[::1:25565": false, " 127.0.0.1:51234 ": true,
	} {
		if _, _, err := CheckAddress(addr); (err == nil) != ok {
			t.Errorf("CheckAddress(%q) = %v", addr, err)
		}
	}
	// Each refusal is a sentence for a person, not mc_join's for a program.
	for addr, want := range map[string]string{
		"127.0.0.1":       `"127.0.0.1" is not host:port; give the world's address such as 127.0.0.1:51234`,
		"127.0.0.1:99999": `the port in "127.0.0.1:99999" must be a number from 1 to 65535`,
		"a b:1":           `the host in "a b:1" is not an IP address or a host name`,
		"[::1:25565":      `the host in "[::1:25565" is not an IP address or a host name`,
	} {
		if _, _, err := CheckAddress(addr); err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "mc_discover_lan") {
			t.Errorf("CheckAddress(%q) = %v, want a sentence starting %q", addr, err, want)
		}
	}
	if h, p, err := CheckAddress(":51234"); h != "127.0.0.1" || p != 51234 || err != nil {
		t.Errorf("CheckAddress(\":51234\") = %q %d %v, want this computer", h, p, err)
	}
	if h, p, err := CheckAddress("[::1]:25565"); h != "::1" || p != 25565 || err != nil {
		t.Errorf("CheckAddress(\"[::1]:25565\") = %q %d %v", h, p, err)
	}
	for name, ok := range map[string]bool{"Theo": true, "Blockmate": true, "a_b_123": true, "ab": false, "a b": false, "": false, "seventeen_chars_x": false, "Théo": false} {
		if err := CheckUsername(name); (err == nil) != ok {
			t.Errorf("CheckUsername(%q) = %v", name, err)
		}
	}
}
