package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/tools"
	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

func TestMain(m *testing.M) {
	// Goldens and assertions read plain text: no colour, no styles.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// epoch is the fixed clock of view tests.
var epoch = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// newBotDispatcher wires a dispatcher as main.go does, with the built-in
// tools and the bot's.
func newBotDispatcher(t testing.TB) *protocol.Dispatcher {
	t.Helper()
	c := protocol.NewCatalog()
	d := protocol.NewDispatcher(c, protocol.NewBus(nil), nil)
	protocol.RegisterBuiltins(c, d)
	tools.Register(c, bot.NewClient(nil, d.Events().Emit, d, bot.Options{}), d)
	return d
}

// newDispatcher has the built-in tools and stand-ins for the bot's whose
// schemas exercise the short form. The stand-ins echo their arguments
// after a verdict, so every result comes from the call; they work without
// a world, so flows can be tested without one.
func newDispatcher(t testing.TB) *protocol.Dispatcher {
	t.Helper()
	c := protocol.NewCatalog()
	bus := protocol.NewBus(nil)
	d := protocol.NewDispatcher(c, bus, nil)
	protocol.RegisterBuiltins(c, d)
	echo := func(verdict string) protocol.Handler {
		return func(_ context.Context, a protocol.Args) (any, error) {
			out := map[string]json.RawMessage{verdict: json.RawMessage("true")}
			for k, v := range a {
				out[k] = v
			}
			return out, nil
		}
	}
	add := func(name string, args protocol.Schema, verdict string) {
		c.Add(protocol.Tool{Name: name, Description: "test stand-in for " + name, Args: args, Effect: protocol.Write, Handler: echo(verdict)})
	}
	add("mc_say", protocol.Schema{protocol.Str("message", "what to say").Req().Len(1, 256)}, "said")
	add("mc_collect", protocol.Schema{protocol.Str("block_type", "block"), protocol.Int("count", "how many", 1, 64).Req()}, "collected")
	add("mc_goto", protocol.Schema{protocol.Num("x", "x", -3e7, 3e7).Req(), protocol.Num("y", "y", -64, 320), protocol.Num("z", "z", -3e7, 3e7).Req(), protocol.Num("range", "range", 0, 64)}, "arrived")
	add("mc_join", protocol.Schema{protocol.Str("host", "host"), protocol.Int("port", "port", 1, 65535).Req(), protocol.Str("username", "name")}, "joined")
	add("mc_defend", protocol.Schema{protocol.Bool("enabled", "on or off").Req()}, "defending")
	add("mc_status", nil, "connected")
	return d
}

// newModel is a console sized w×h with a fixed clock and no background work.
func newModel(t testing.TB, d *protocol.Dispatcher, theme themes.Theme, w, h int) Model {
	t.Helper()
	m := New(Options{Dispatcher: d, Theme: theme, Now: func() time.Time { return epoch }, Location: time.UTC, NoPoll: true})
	return update(m, tea.WindowSizeMsg{Width: w, Height: h})
}

// update runs one message through the model.
func update(m Model, msg tea.Msg) Model {
	next, _ := m.Update(msg)
	return next.(Model)
}

// updateCmd runs one message and returns the command too.
func updateCmd(m Model, msg tea.Msg) (Model, tea.Cmd) {
	next, cmd := m.Update(msg)
	return next.(Model), cmd
}

// harness runs the model as the program would: commands run concurrently,
// each message they yield goes back into the model and what that returns
// runs in turn. Timer-driven messages (spinner frames, cursor blinks,
// status ticks) are applied but not followed, so things come to rest.
type harness struct {
	t    testing.TB
	m    Model
	msgs chan tea.Msg
}

func newHarness(t testing.TB, m Model) *harness {
	return &harness{t: t, m: m, msgs: make(chan tea.Msg, 256)}
}

func (h *harness) launch(c tea.Cmd) {
	if c != nil {
		go func() { h.msgs <- c() }()
	}
}

// send delivers one message and runs the command it returns.
func (h *harness) send(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil, statusTickMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			h.launch(c)
		}
	case spinner.TickMsg, cursor.BlinkMsg:
		h.m = update(h.m, msg)
	default:
		var next tea.Cmd
		h.m, next = updateCmd(h.m, msg)
		h.launch(next)
	}
}

// typeText types s, then optionally more keys.
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(keyRunes(string(r)))
	}
}

// until processes messages until done holds; it fails the test if that
// never happens.
func (h *harness) until(done func(Model) bool) {
	h.t.Helper()
	deadline := time.After(10 * time.Second)
	poll := time.NewTicker(2 * time.Millisecond)
	defer poll.Stop()
	for !done(h.m) {
		select {
		case msg := <-h.msgs:
			h.send(msg)
		case <-poll.C:
		case <-deadline:
			h.t.Fatalf("the console never reached the state the test waits for; it shows:\n%s", h.m.View())
		}
	}
}

// settle runs cmd through a harness until done holds.
func settle(t testing.TB, m Model, cmd tea.Cmd, done func(Model) bool) Model {
	t.Helper()
	h := newHarness(t, m)
	h.launch(cmd)
	h.until(done)
	return h.m
}

func keyRunes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func keyType(k tea.KeyType) tea.KeyMsg { return tea.KeyMsg{Type: k} }

// typeText sends s one rune at a time, as a person types.
func typeText(m Model, s string) Model {
	for _, r := range s {
		m = update(m, keyRunes(string(r)))
	}
	return m
}

func ptr[T any](v T) *T { return &v }

func event(name string, at time.Time, payload any) protocol.Event {
	raw, _ := json.Marshal(payload)
	return protocol.Event{Name: name, Payload: raw, Time: at}
}

// fixtureStatus is a bot in a world, as mc_status reports it.
func fixtureStatus(health float64) api.Status {
	return api.Status{
		Connected: true, Server: "127.0.0.1:51234", Version: "1.21.4",
		Position: &geom.Vec3{X: 120.5, Y: 64, Z: -33.25}, Dimension: "minecraft:overworld",
		Health: ptr(health), Food: ptr(17), GameMode: "survival", PlayersOnline: ptr(2),
		Task: []protocol.RunningCall{}, Username: "blockmate", MaxHealth: ptr(20.0),
		XPLevel: ptr(5), XPProgress: ptr(0.4), TimeOfDay: ptr(int64(6000)), Day: ptr(int64(3)),
		Raining: ptr(false), Thundering: ptr(false), LatencyMS: ptr(int64(23)), State: "playing",
		HeldItem: &api.StatusItem{Name: "stone_pickaxe", Count: 1},
		Inventory: &api.StatusInventory{
			HeldSlot: 2, UsedSlots: 6, Head: &api.StatusItem{Name: "iron_helmet", Count: 1}, Feet: &api.StatusItem{Name: "leather_boots", Count: 1},
			Offhand: &api.StatusItem{Name: "shield", Count: 1},
			Hotbar: [9]*api.StatusItem{
				{Name: "oak_log", Count: 12}, {Name: "crafting_table", Count: 1}, {Name: "stone_pickaxe", Count: 1},
				nil, {Name: "cobblestone", Count: 64}, nil, nil, {Name: "torch", Count: 16}, {Name: "cooked_porkchop", Count: 3},
			},
		},
	}
}

// fixtureEvents covers every colour class, chat with segments, and a chat
// line that tries to inject terminal escapes.
func fixtureEvents() []protocol.Event {
	at := epoch.Add(-time.Minute)
	return []protocol.Event{
		event("mc_lan_world_found", at, map[string]any{"host": "192.0.2.7", "port": 51234, "motd": "Eduard - Survival"}),
		event("mc_player_joined", at.Add(time.Second), map[string]any{"username": "Eduard"}),
		event("mc_player_chat", at.Add(2*time.Second), map[string]any{"username": "Eduard", "message": "follow me"}),
		event("mc_system_chat", at.Add(3*time.Second), map[string]any{"message": "Eduard has made the advancement [Getting Wood]",
			"segments": []map[string]any{{"text": "Eduard has made the advancement "}, {"text": "[Getting Wood]", "color": "green", "bold": true}}}),
		event("mc_player_chat", at.Add(4*time.Second), map[string]any{"username": "Mallory\x1b[2J", "message": "hi\x1b]0;pwned\x07 there\u202e"}),
		event("mc_hurt", at.Add(5*time.Second), map[string]any{"health": 12, "attacker": "zombie"}),
		event("mc_item_picked_up", at.Add(6*time.Second), map[string]any{"item": "oak_log", "count": 4}),
		event("mc_task_progress", at.Add(7*time.Second), map[string]any{"tool": "mc_collect", "id": "c2", "done": 2, "total": 4}),
		event("mc_disconnected", at.Add(8*time.Second), map[string]any{"reason": "the server closed", "next_step": "call mc_join"}),
	}
}

// fixtureCalls is a timeline with a finished, a failed and a running call.
func fixtureCalls() []protocol.CallEvent {
	at := epoch.Add(-30 * time.Second)
	ok := protocol.Response{ID: json.RawMessage(`"c1"`), OK: true, Result: json.RawMessage(`{"said":true}`)}
	fail := protocol.Response{ID: json.RawMessage(`"c2"`), Error: "mc_collect was stopped by mc_stop after 2.5s; nothing more of it will happen, and the next call starts clean"}
	args := func(s string) map[string]json.RawMessage {
		var m map[string]json.RawMessage
		_ = json.Unmarshal([]byte(s), &m)
		return m
	}
	return []protocol.CallEvent{
		{Phase: protocol.Started, ID: json.RawMessage(`"c1"`), Tool: "mc_say", Args: args(`{"message":"hi"}`), Origin: protocol.OriginConsole, Started: at},
		{Phase: protocol.Finished, ID: json.RawMessage(`"c1"`), Tool: "mc_say", Args: args(`{"message":"hi"}`), Origin: protocol.OriginConsole, Started: at, Duration: 12 * time.Millisecond, Response: ok},
		{Phase: protocol.Started, ID: json.RawMessage(`"c2"`), Tool: "mc_collect", Args: args(`{"block_type":"oak_log","count":4}`), Origin: protocol.OriginSidecar, Started: at.Add(time.Second)},
		{Phase: protocol.Finished, ID: json.RawMessage(`"c2"`), Tool: "mc_collect", Args: args(`{"block_type":"oak_log","count":4}`), Origin: protocol.OriginSidecar, Started: at.Add(time.Second), Duration: 2500 * time.Millisecond, Response: fail},
		{Phase: protocol.Started, ID: json.RawMessage(`"c3"`), Tool: "mc_wait", Args: args(`{"ms":60000}`), Origin: protocol.OriginConsole, Started: epoch.Add(-4200 * time.Millisecond)},
	}
}

// moreCalls are n finished calls from the sidecar, after fixtureCalls.
func moreCalls(n int) []protocol.CallEvent {
	var out []protocol.CallEvent
	for i := 1; i <= n; i++ {
		id := json.RawMessage(fmt.Sprintf(`"s%d"`, i))
		at := epoch.Add(time.Duration(i) * time.Second)
		out = append(out,
			protocol.CallEvent{Phase: protocol.Started, ID: id, Tool: "mc_status", Origin: protocol.OriginSidecar, Started: at},
			protocol.CallEvent{Phase: protocol.Finished, ID: id, Tool: "mc_status", Origin: protocol.OriginSidecar, Started: at,
				Duration: time.Millisecond, Response: protocol.Response{ID: id, OK: true, Result: json.RawMessage(`{"connected":true}`)}})
	}
	return out
}
