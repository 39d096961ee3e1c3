package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/bot/mcversion"
	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// sidecarCall is a finished call from another transport, as the pump
// delivers it.
func sidecarCall(id, tool string, args string, result string) []protocol.CallEvent {
	raw := json.RawMessage(`"` + id + `"`)
	var a map[string]json.RawMessage
	_ = json.Unmarshal([]byte(args), &a)
	resp := protocol.Response{ID: raw, OK: true, Result: json.RawMessage(result)}
	if result == "" {
		resp = protocol.Response{ID: raw, Error: "the bot is not in a world; call mc_join first"}
	}
	return []protocol.CallEvent{
		{Phase: protocol.Started, ID: raw, Tool: tool, Args: a, Origin: protocol.OriginSidecar, Started: epoch},
		{Phase: protocol.Finished, ID: raw, Tool: tool, Args: a, Origin: protocol.OriginSidecar, Started: epoch, Duration: time.Millisecond, Response: resp},
	}
}

// TestTimelineFollowsUnlessScrolledOrOpened: new calls are followed; once
// the person moves up or opens an older call they stay where they are and
// the title counts "↓ N new"; the bottom of the list or a submitted call
// follows again.
func TestTimelineFollowsUnlessScrolledOrOpened(t *testing.T) {
	d := newDispatcher(t)
	m := newModel(t, d, themes.Dark, 120, 36)
	m = update(m, statusMsg{Status: fixtureStatus(20)})
	m = update(m, batchMsg{Calls: moreCalls(3)})
	m = focusOn(m, "timeline")
	if !m.timeline.Following() || m.timeline.selectedCall().Key != "s3" {
		t.Fatal("the timeline should start by following the newest call")
	}
	// Scrolled up: a new call does not move the view, and is counted.
	m = update(m, keyType(tea.KeyUp))
	m = update(m, batchMsg{Calls: sidecarCall("n1", "mc_status", "", `{"connected":true}`)})
	if m.timeline.Following() || m.timeline.selectedCall().Key != "s2" || !strings.Contains(m.View(), "Tool calls · ↓ 1 new") {
		t.Fatalf("scrolled up, a new call should be counted, not followed:\n%s", m.View())
	}
	// Down to the bottom follows again.
	m = update(m, keyType(tea.KeyDown))
	m = update(m, keyType(tea.KeyDown))
	if !m.timeline.Following() || strings.Contains(m.View(), "new ·") || strings.Contains(m.View(), "↓ 1 new") {
		t.Fatalf("at the bottom the timeline should follow and the count go:\n%s", m.View())
	}
	m = update(m, batchMsg{Calls: sidecarCall("n2", "mc_status", "", `{"connected":true}`)})
	if m.timeline.selectedCall().Key != "n2" {
		t.Fatal("following, the newest call should be selected")
	}
	// Details of an older call stay on that call while new ones come.
	m = update(m, keyType(tea.KeyUp))
	m = update(m, keyType(tea.KeyEnter))
	m = update(m, batchMsg{Calls: sidecarCall("n3", "mc_status", "", `{"connected":true}`)})
	if !m.timeline.Open() || !strings.Contains(m.View(), "Call n1 · mc_status") {
		t.Fatalf("open details should stay on their call:\n%s", m.View())
	}
	// Even the newest call's details stay put.
	m = update(m, keyType(tea.KeyEsc))
	m = update(m, keyType(tea.KeyEnd))
	m = update(m, keyType(tea.KeyEnter))
	m = update(m, batchMsg{Calls: sidecarCall("n4", "mc_status", "", `{"connected":true}`)})
	if !strings.Contains(m.View(), "Call n3 · mc_status") {
		t.Fatalf("the details of the newest call should not jump to a newer one:\n%s", m.View())
	}
	m = update(m, keyType(tea.KeyEsc))
	if !strings.Contains(m.View(), "↓ 1 new") {
		t.Fatalf("a call that came while details were open is new:\n%s", m.View())
	}
	// Submitting a call follows again and closes details.
	m = update(m, keyType(tea.KeyUp))
	m = update(m, keyType(tea.KeyEnter))
	m = typeText(m, "status")
	m, cmd := updateCmd(m, keyType(tea.KeyEnter))
	m = settle(t, m, cmd, func(m Model) bool {
		return m.timeline.selectedCall().Tool == "mc_status" && m.timeline.selectedCall().Origin == protocol.OriginConsole
	})
	if !m.timeline.Following() || m.timeline.Open() || strings.Contains(m.View(), " new ") {
		t.Fatalf("a submitted call should bring the timeline back to following:\n%s", m.View())
	}
}

// TestEventsCountNewWhileScrolledUp: the events pane says how many came
// while it was scrolled up, and Enter opens the selected event in full.
func TestEventsCountNewWhileScrolledUp(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	var evs []protocol.Event
	for i := range 30 {
		evs = append(evs, event("mc_player_chat", epoch, map[string]any{"username": "alex", "message": fmt.Sprintf("line %d", i)}))
	}
	m = update(m, batchMsg{Events: evs})
	m = focusOn(m, "events")
	m = update(m, keyType(tea.KeyPgUp))
	m = update(m, batchMsg{Events: []protocol.Event{event("mc_hurt", epoch, map[string]any{"health": 3}), event("mc_hurt", epoch, map[string]any{"health": 2})}})
	if !strings.Contains(m.View(), "↓ 2 new") || strings.Contains(m.View(), "Hurt") {
		t.Fatalf("scrolled up, two new events should be counted, not shown:\n%s", m.View())
	}
	m = update(m, keyType(tea.KeyEnd))
	if strings.Contains(m.View(), "new") || !strings.Contains(m.View(), "Hurt, health 2") {
		t.Fatalf("at the bottom the new events show and the count goes:\n%s", m.View())
	}
}

// TestLongEventsOpenInFull: a disconnect's next_step is too long for a
// line; Enter on it shows it whole, with every raw field, and Esc goes back.
func TestLongEventsOpenInFull(t *testing.T) {
	next := "the server closed the connection because it is restarting; wait a minute, then ask the player whether the world is open again and call mc_join with the same host and port"
	m := newModel(t, newDispatcher(t), themes.Dark, 80, 24)
	m = update(m, batchMsg{Events: []protocol.Event{event("mc_disconnected", epoch, map[string]any{"reason": "server restarting", "next_step": next})}})
	if strings.Contains(m.View(), "next_step") {
		t.Fatal("the event line should be a sentence, not fields")
	}
	m = focusOn(m, "events")
	m = update(m, keyType(tea.KeyEnter))
	view := m.View()
	flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(view)), " ")
	for _, want := range []string{"Event · disconnected", "Left the world: server restarting", `"reason": "server restarting"`, next, "esc goes back"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the event in full does not show %q:\n%s", want, view)
		}
	}
	m = update(m, keyType(tea.KeyEsc))
	if m.events.Open() || m.Focus() != "events" {
		t.Fatal("esc should close the event and stay on the events pane")
	}
}

// TestOneSentencePerEventInEveryTheme: every theme tells each event as one
// readable sentence; no theme shows kind=value fields in the list.
func TestOneSentencePerEventInEveryTheme(t *testing.T) {
	evs := []protocol.Event{
		event("mc_player_joined", epoch, map[string]any{"username": "alex"}),
		event("mc_player_chat", epoch, map[string]any{"username": "alex", "message": "hi"}),
		event("mc_low_food", epoch, map[string]any{"food": 5}),
		event("mc_hostile_nearby", epoch, map[string]any{"type": "minecraft:zombie", "distance": 6.52}),
		event("mc_player_left", epoch, map[string]any{"username": "alex"}),
		event("mc_events_dropped", epoch, map[string]any{"count": 12, "next_step": "read faster"}),
		event("mc_someday_new", epoch, map[string]any{"thing": 1}),
	}
	for _, theme := range themes.All {
		m := newModel(t, newDispatcher(t), theme, 120, 36)
		m = update(m, batchMsg{Events: evs})
		view := m.events.View()
		for _, want := range []string{"alex joined", "<alex> hi", "Hungry: food 5 of 20", "zombie nearby (6.5 blocks)", "alex left", "12 events were missed", "someday new"} {
			if !strings.Contains(view, want) {
				t.Errorf("%s: no %q:\n%s", theme.Name, want, view)
			}
		}
		for _, bad := range []string{"username=", "player_joined", "food=", "thing="} {
			if strings.Contains(view, bad) {
				t.Errorf("%s: shows fields (%q):\n%s", theme.Name, bad, view)
			}
		}
	}
}

// TestAJoinIsToldOnce: the bot's mc_player_joined and the server's "alex
// joined the game" are one piece of news, whichever comes first; a
// different player, or the same one much later, is news again. The lines
// carry what the bot reads in them (presence and username, bot/talk's
// TestPresence), as mc_system_chat does.
func TestAJoinIsToldOnce(t *testing.T) {
	line := func(text string, at time.Time) protocol.Event {
		pl := map[string]any{"message": text, "segments": []map[string]any{{"text": text, "color": "yellow"}}}
		if name, what, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(text, "&e"), "."), " "); ok {
			pl["presence"], pl["username"] = map[string]string{"joined the game": "joined", "left the game": "left"}[what], name
		}
		return event("mc_system_chat", at, pl)
	}
	joined := func(name string, at time.Time) protocol.Event {
		return event("mc_player_joined", at, map[string]any{"username": name})
	}
	left := func(name string, at time.Time) protocol.Event {
		return event("mc_player_left", at, map[string]any{"username": name})
	}
	count := func(m Model, s string) int { return strings.Count(m.events.View(), s) }
	for _, order := range []string{"event first", "line first"} {
		m := newModel(t, newDispatcher(t), themes.Dark, 120, 36)
		first, second := joined("alex", epoch), line("alex joined the game", epoch.Add(300*time.Millisecond))
		if order == "line first" {
			first, second = line("alex joined the game", epoch), joined("alex", epoch.Add(300*time.Millisecond))
		}
		m = update(m, batchMsg{Events: []protocol.Event{first}})
		m = update(m, batchMsg{Events: []protocol.Event{second, line("Eduard joined the game", epoch.Add(time.Second)), left("alex", epoch.Add(2*time.Second)), line("alex left the game", epoch.Add(2*time.Second))}})
		if count(m, "alex joined") != 1 || count(m, "alex joined the game") != 0 || count(m, "alex left") != 1 {
			t.Fatalf("%s: alex's join and leave should each show once, as the event's sentence:\n%s", order, m.events.View())
		}
		// A server that formats chat itself (flying-squid) words it its own way.
		m = update(m, batchMsg{Events: []protocol.Event{joined("Theo", epoch.Add(3*time.Second)), line("&eTheo joined the game.", epoch.Add(3*time.Second))}})
		if count(m, "Theo joined") != 1 {
			t.Fatalf("%s: flying-squid's join line should be the same news:\n%s", order, m.events.View())
		}
		if count(m, "Eduard joined the game") != 1 {
			t.Fatalf("%s: another player's join line was lost:\n%s", order, m.events.View())
		}
	}
	m := newModel(t, newDispatcher(t), themes.Dark, 120, 36)
	m = update(m, batchMsg{Events: []protocol.Event{joined("alex", epoch), line("alex joined the game", epoch.Add(time.Minute))}})
	if count(m, "alex joined") != 2 {
		t.Fatalf("a join line a minute later is not the same news:\n%s", m.events.View())
	}
}

// TestTheBotsOwnLinesAreShown: a conversation is two-sided. The bot emits
// no event for its own chat, so the console shows what mc_say and
// mc_whisper said when they succeed, whoever called them; a failed call
// said nothing.
func TestTheBotsOwnLinesAreShown(t *testing.T) {
	d := newDispatcher(t)
	d.Catalog().Add(protocol.Tool{Name: "mc_whisper", Description: "stand-in", Effect: protocol.Write,
		Args: protocol.Schema{protocol.Str("username", "who").Req(), protocol.Str("message", "what").Req()},
		Handler: func(context.Context, protocol.Args) (any, error) {
			return json.RawMessage(`{"whispered":true}`), nil
		}})
	m := New(Options{Dispatcher: d, Username: "Theo", NoPoll: true, Now: func() time.Time { return epoch }, Location: time.UTC})
	m = update(m, tea.WindowSizeMsg{Width: 120, Height: 36})
	m = update(m, batchMsg{Events: []protocol.Event{event("mc_player_chat", epoch, map[string]any{"username": "alex", "message": "follow me"})}})
	m = typeText(m, "say hi alex")
	m, cmd := updateCmd(m, keyType(tea.KeyEnter))
	m = settle(t, m, cmd, func(m Model) bool { return len(m.timeline.calls) == 1 && m.timeline.calls[0].Done })
	m = typeText(m, "whisper alex see you")
	m, cmd = updateCmd(m, keyType(tea.KeyEnter))
	m = settle(t, m, cmd, func(m Model) bool { return len(m.timeline.calls) == 2 && m.timeline.calls[1].Done })
	// From the sidecar: one that worked and one that did not.
	m = update(m, batchMsg{Calls: append(sidecarCall("x1", "mc_say", `{"message":"from the model"}`, `{"said":true}`),
		sidecarCall("x2", "mc_say", `{"message":"never said"}`, "")...)})
	// The dispatcher's echo of the console's own call adds nothing.
	c := m.timeline.calls[0]
	m = update(m, batchMsg{Calls: []protocol.CallEvent{{Phase: protocol.Finished, ID: c.ID, Tool: c.Tool, Args: c.Args, Origin: c.Origin, Started: c.Started, Response: c.Response}}})
	view := m.events.View()
	for _, want := range []string{"<alex> follow me", "<Theo> hi alex", "Theo whispers to alex: see you", "<Theo> from the model"} {
		if strings.Count(view, want) != 1 {
			t.Errorf("%q should show once:\n%s", want, view)
		}
	}
	if strings.Contains(view, "never said") {
		t.Fatalf("a failed say is shown as said:\n%s", view)
	}
	// The chat filter shows both sides.
	m = focusOn(m, "events")
	m = update(m, keyType(tea.KeyRight))
	if m.events.Filter() != filterChat || !strings.Contains(m.events.View(), "<Theo> hi alex") || !strings.Contains(m.events.View(), "<alex> follow me") {
		t.Fatalf("the chat filter should show both sides:\n%s", m.events.View())
	}
}

// TestWorldsPaneSpeaksToThePlayer: advice for a person (what to do in the
// game, what to type here), never a tool name or a listening window; the
// model-facing reasons of mc_discover_lan stay out, except a failure of
// discovery itself, told in words.
func TestWorldsPaneSpeaksToThePlayer(t *testing.T) {
	d := newBotDispatcher(t)
	m := newModel(t, d, themes.Dark, 120, 36)
	m = update(m, discoverMsg{Found: 0, Reason: "no world announced itself on the local network within 1.7 s"})
	view := m.worlds.View()
	flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(view)), " ")
	if !strings.Contains(flat, "Open your world to LAN (Esc → Open to LAN → Start LAN World) and it appears here. Or type join and the port Minecraft shows in chat, such as join 51234.") {
		t.Fatalf("the worlds pane does not speak to the player:\n%s", view)
	}
	for _, bad := range []string{"mc_", "call ", "within", "1.7"} {
		if strings.Contains(view, bad) {
			t.Errorf("the worlds pane says %q, words for a program:\n%s", bad, view)
		}
	}
	// What it tells the player to type works.
	if req, err := parseLine(d.Catalog(), "join 51234"); err != nil || req.Tool != "mc_join" {
		t.Fatalf("the advice's join 51234 does not parse: %v", err)
	}
	m = update(m, discoverMsg{Found: 0, Reason: "could not listen for LAN announcements: listen udp4 0.0.0.0:4445: bind: address already in use"})
	flat = strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(m.worlds.View())), " ")
	if !strings.Contains(flat, "blockmate could not listen for LAN announcements") || !strings.Contains(flat, "type join and the port instead") {
		t.Fatalf("a discovery that cannot listen should say so:\n%s", m.worlds.View())
	}
}

// TestJoinableWorldsFirstAndWhyNot: worlds the bot can join are listed
// first; Enter on one it cannot join says why instead of trying.
func TestJoinableWorldsFirstAndWhyNot(t *testing.T) {
	d := newDispatcher(t)
	rec := recordTools(t, d)
	m := newModel(t, d, themes.Dark, 120, 36)
	newer := event("mc_lan_world_found", epoch, map[string]any{"host": "192.0.2.7", "port": 25565, "motd": "Kid's world", "version": "1.22", "protocol": 800, "compatible": false, "next_step": mcversion.Advice("1.22", 800)})
	dead := event("mc_lan_world_found", epoch, map[string]any{"host": "192.0.2.8", "port": 25566, "motd": "Gone world", "ping_error": "connection refused"})
	m = update(m, batchMsg{Events: []protocol.Event{newer, dead}})
	m = update(m, batchMsg{Events: []protocol.Event{worldFound("127.0.0.1", 51234, 1)}})
	var order []string
	for _, w := range m.worlds.worlds {
		order = append(order, w.MOTD+"@"+w.addr())
	}
	if order[0] != "Eduard - Survival@127.0.0.1:51234" {
		t.Fatalf("the joinable world should come first; order %v", order)
	}
	// The selection stayed on the world it was on (the first one found).
	if m.worlds.worlds[m.worlds.cursor].MOTD != "Kid's world" {
		t.Fatalf("the selection moved with the reordering to %q", m.worlds.worlds[m.worlds.cursor].MOTD)
	}
	for _, tc := range []struct{ motd, want string }{
		{"Kid's world", mcversion.Advice("1.22", 800)},
		{"Gone world", "Gone world did not answer when blockmate asked for its status (connection refused)"},
	} {
		for m.worlds.worlds[m.worlds.cursor].MOTD != tc.motd {
			m = update(m, keyType(tea.KeyDown))
		}
		m, cmd := updateCmd(m, keyType(tea.KeyEnter))
		for _, msg := range runCmd(t, cmd) {
			m = update(m, msg)
		}
		flat := strings.Join(strings.Fields(m.View()), " ")
		if !strings.Contains(flat, strings.Join(strings.Fields(tc.want), " ")[:60]) {
			t.Fatalf("Enter on %s should say why it cannot be joined:\n%s", tc.motd, m.View())
		}
		if len(rec.list()) != 0 || len(m.timeline.calls) != 0 {
			t.Fatalf("Enter on %s tried to join: %v", tc.motd, rec.list())
		}
		m = update(m, keyType(tea.KeyUp)) // the remark goes with the next key
		if strings.Contains(m.View(), "did not answer when") {
			t.Fatal("the remark should go with the next key")
		}
	}
}

// TestTypedToolNames: tool names typed in the short form run the tool the
// catalog has; a word that is no tool stays unknown; the words the console
// answers itself (quit, help) say what to do.
func TestTypedToolNames(t *testing.T) {
	c := newBotDispatcher(t).Catalog()
	if req, err := parseLine(c, "sleep"); err != nil || req.Tool != "mc_sleep" {
		t.Fatalf("mc_sleep is built, yet: %v", err)
	}
	if req, err := parseLine(newDispatcher(t).Catalog(), "goto 10 64 -3"); err != nil || req.Tool != "mc_goto" {
		t.Fatalf("mc_goto exists in this catalog, yet: %v", err)
	}
	if req, err := parseLine(c, "follow Alex"); err != nil || req.Tool != "mc_follow" {
		t.Fatalf("mc_follow is built, yet: %v", err)
	}
	// Typed words the console answers itself.
	if _, err := parseLine(c, "frobnicate"); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Fatalf("an unknown word should stay unknown: %v", err)
	}
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	m = typeText(m, "quit")
	m = update(m, keyType(tea.KeyEnter))
	if m.Quitting() || !strings.Contains(m.input.Err(), "press ctrl+c") {
		t.Fatalf("typing quit should say which key quits, and not quit: %q", m.input.Err())
	}
	m = typeText(m, "help")
	m, cmd := updateCmd(m, keyType(tea.KeyEnter))
	for _, msg := range runCmd(t, cmd) {
		m = update(m, msg)
	}
	if !m.showHelp {
		t.Fatal("typing help and Enter should open the help")
	}
}

// TestStatusShowsTheInventory: the status pane says what the bot holds at
// every size; where it has room, the hotbar (held slot marked, keys 1–9),
// the armour and the off-hand as a grid; a short pane drops Holds before
// the task; an inventory not known yet reads as unknown.
func TestStatusShowsTheInventory(t *testing.T) {
	for _, theme := range themes.All {
		s := themes.New(theme)
		p := newStatusPane(s)
		st := fixtureStatus(17)
		p.set(st, "")
		p.SetSize(38, 11) // the 80×24 layout
		small := strings.Join(p.lines(34), "\n")
		if !strings.Contains(small, "Holds  stone_pickaxe · slot 3") || strings.Contains(small, "Hotbar") || !strings.Contains(small, "Task") {
			t.Errorf("%s at 80×24:\n%s", theme.Name, small)
		}
		p.SetSize(64, 22) // the 160×48 layout
		big := strings.Join(p.lines(60), "\n")
		for _, want := range []string{"Hotbar", s.Glyphs.Selector + "3 stone_pickaxe", "1 oak_log ×12", "head     iron_helmet", "feet     leather_boots", "off-hand shield", "chest    —"} {
			if !strings.Contains(big, want) {
				t.Errorf("%s at 160×48 lacks %q:\n%s", theme.Name, want, big)
			}
		}
		dead := st
		dead.Dead = true
		p.set(dead, "")
		p.SetSize(38, 11)
		if l := strings.Join(p.lines(34), "\n"); strings.Contains(l, "Holds") || !strings.Contains(l, "Task") {
			t.Errorf("%s dead at 80×24:\n%s", theme.Name, l)
		}
		unknown := fixtureStatus(17)
		unknown.HeldItem, unknown.Inventory = nil, nil
		p.set(unknown, "")
		if l := strings.Join(p.lines(34), "\n"); !strings.Contains(l, "Holds  unknown") {
			t.Errorf("%s without an inventory:\n%s", theme.Name, l)
		}
		empty := fixtureStatus(17)
		empty.HeldItem = nil
		p.set(empty, "")
		if l := strings.Join(p.lines(34), "\n"); !strings.Contains(l, "Holds  empty hand · slot 3") {
			t.Errorf("%s with an empty hand:\n%s", theme.Name, l)
		}
	}
}
