package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// TestDialogAndCodeOfConductSentences: a server's dialog and code of
// conduct read as sentences that quote the server's words (control
// characters removed) and say what the bot did.
func TestDialogAndCodeOfConductSentences(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Streamer, 70, 14)
	m = update(m, batchMsg{Events: []protocol.Event{
		event("mc_dialog", epoch, map[string]any{"title": "Rules", "body": []string{"No griefing.", "Have\x1b[31m fun"}, "buttons": []string{"Ok"}, "untrusted": true}),
		event("mc_code_of_conduct", epoch, map[string]any{"text": "Be kind.\nNo spam.", "accepted": true, "untrusted": true}),
	}})
	m = update(m, tea.WindowSizeMsg{Width: 200, Height: 30})
	view := m.events.View()
	for _, want := range []string{
		"The server showed a dialog “Rules”: “No griefing. / Have fun” (buttons: Ok); the bot closed it",
		"The server's code of conduct: “Be kind. No spam.”; the bot accepted it to join",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("missing %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "\x1b[31m") || strings.Contains(view, "[31m") {
		t.Errorf("a control sequence from the server reached the screen:\n%q", view)
	}
}

// TestStatusSaysNoDayTime: where mc_status says the dimension has no day
// time (the nether, from 26.1), the pane says so instead of "unknown".
func TestStatusSaysNoDayTime(t *testing.T) {
	p := newStatusPane(themes.New(themes.Dark))
	p.set(api.Status{Connected: true, State: "playing", DayCycle: "none"}, "")
	if view := strings.Join(p.lines(60), "\n"); !strings.Contains(view, "no day time here") {
		t.Errorf("status pane:\n%s", view)
	}
}
