package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// screens are the console's states worth a golden each: every pane shows in
// at least one, in every theme, at the smallest usable size and a large one.
// Run `go test ./ui -run TestGolden -update` to regenerate after a change
// that is meant, and read the diff.
var screens = []struct {
	name  string
	setup func(t *testing.T, m Model) Model
}{
	{"worlds", func(t *testing.T, m Model) Model {
		for _, w := range []map[string]any{
			{"host": "127.0.0.1", "port": 51234, "motd": "Eduard - Survival", "is_local_machine": true, "version": "1.21.4", "players_online": 1, "players_max": 8, "compatible": true},
			{"host": "192.0.2.7", "port": 25565, "motd": "Kid's \x1b[31mworld", "is_local_machine": false, "version": "1.22", "compatible": false},
		} {
			m = update(m, batchMsg{Events: []protocol.Event{event("mc_lan_world_found", epoch, w)}})
		}
		return m
	}},
	{"no-worlds", func(t *testing.T, m Model) Model { return m }},
	{"connected", func(t *testing.T, m Model) Model {
		m = update(m, statusMsg{Status: fixtureStatus(17)})
		return update(m, batchMsg{Events: fixtureEvents(), Calls: fixtureCalls()})
	}},
	{"low-health", func(t *testing.T, m Model) Model {
		m = update(m, statusMsg{Status: fixtureStatus(5)})
		return update(m, batchMsg{Events: fixtureEvents()[:6]})
	}},
	{"detail", func(t *testing.T, m Model) Model {
		m = update(m, statusMsg{Status: fixtureStatus(17)})
		m = update(m, batchMsg{Calls: fixtureCalls()[:4]})
		m = update(m, keyType(tea.KeyTab)) // input → timeline, on the newest call
		return update(m, keyType(tea.KeyEnter))
	}},
	{"help", func(t *testing.T, m Model) Model { return update(m, keyRunes("?")) }},
	{"input-error", func(t *testing.T, m Model) Model {
		m = typeText(m, "mc_collect block_type=oak_log count=lots")
		return update(m, keyType(tea.KeyEnter))
	}},
	{"overlay", func(t *testing.T, m Model) Model {
		m = update(m, statusMsg{Status: fixtureStatus(17)})
		m = update(m, batchMsg{Events: fixtureEvents(), Calls: fixtureCalls()})
		return update(m, keyType(tea.KeyCtrlO))
	}},
	{"event-detail", func(t *testing.T, m Model) Model {
		m = update(m, statusMsg{Status: fixtureStatus(17)})
		m = update(m, batchMsg{Events: fixtureEvents()})
		m = update(m, keyType(tea.KeyTab)) // input → timeline
		m = update(m, keyType(tea.KeyTab)) // → events, on the newest: the disconnect
		return update(m, keyType(tea.KeyEnter))
	}},
	{"timeline-new", func(t *testing.T, m Model) Model {
		m = update(m, statusMsg{Status: fixtureStatus(17)})
		m = update(m, batchMsg{Calls: fixtureCalls()})
		m = update(m, keyType(tea.KeyTab)) // input → timeline
		m = update(m, keyType(tea.KeyUp))  // away from the newest
		m = update(m, keyType(tea.KeyUp))
		return update(m, batchMsg{Calls: moreCalls(3)})
	}},
	{"map", func(t *testing.T, m Model) Model {
		m = update(m, statusMsg{Status: fixtureStatus(17)})
		m = update(m, batchMsg{Events: fixtureEvents(), Calls: fixtureCalls()})
		return update(m, mapMsg{Map: fixtureMap()})
	}},
	{"overlay-map", func(t *testing.T, m Model) Model {
		m = update(m, statusMsg{Status: fixtureStatus(17)})
		m = update(m, batchMsg{Events: fixtureEvents(), Calls: fixtureCalls()})
		m = update(m, mapMsg{Map: fixtureMap()})
		return update(m, keyType(tea.KeyCtrlO))
	}},
	{"confirm-quit", func(t *testing.T, m Model) Model {
		m = update(m, statusMsg{Status: fixtureStatus(17)})
		return update(m, keyType(tea.KeyCtrlC))
	}},
}

func TestGoldenScreens(t *testing.T) {
	sizes := [][2]int{{80, 24}, {160, 48}}
	for _, theme := range themes.All {
		for _, size := range sizes {
			for _, sc := range screens {
				t.Run(fmt.Sprintf("%s/%dx%d/%s", theme.Name, size[0], size[1], sc.name), func(t *testing.T) {
					m := newModel(t, newDispatcher(t), theme, size[0], size[1])
					m = sc.setup(t, m)
					view := m.View()
					checkFrame(t, view, size[0], size[1])
					golden.RequireEqual(t, []byte(view))
				})
			}
		}
	}
}

// TestGoldenTooSmall: below the minimum a sentence says so, in both layouts.
func TestGoldenTooSmall(t *testing.T) {
	for _, size := range [][2]int{{79, 24}, {100, 20}, {30, 6}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			m := newModel(t, newDispatcher(t), themes.Dark, size[0], size[1])
			view := m.View()
			if !strings.Contains(view, fmt.Sprintf("this one is %d×%d", size[0], size[1])) {
				t.Fatalf("no too-small message:\n%s", view)
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}

// checkFrame asserts the view fills the window exactly: no line wider than
// the terminal (which would wrap and break the layout), no more lines.
func checkFrame(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Errorf("view has %d lines; the window has %d", len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != w {
			t.Errorf("line %d is %d cells wide, want %d: %q", i+1, n, w, l)
		}
	}
	if strings.ContainsRune(view, '\x1b') {
		t.Errorf("an escape sequence reached the view in the ASCII profile: %q", view)
	}
}
