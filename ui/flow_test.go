package ui

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// startFlow runs the console in a real Bubble Tea program (teatest) with
// the pump feeding it, as Run does.
func startFlow(t *testing.T, d *protocol.Dispatcher, opts Options) *teatest.TestModel {
	t.Helper()
	opts.Dispatcher = d
	if opts.Now == nil {
		opts.Location = time.UTC
	}
	tm := teatest.NewTestModel(t, New(opts), teatest.WithInitialTermSize(120, 36))
	// A flow that fails half-way must not leave its program (status poll,
	// spinner) running through the tests after it: quit it. Quit, not
	// Kill, so the program ends without an error teatest would report
	// after the test.
	t.Cleanup(func() { _ = tm.Quit() })
	ctx, cancel := context.WithCancel(context.Background())
	stop := StartPump(ctx, tm.GetProgram(), Local(d))
	t.Cleanup(func() { cancel(); stop() })
	return tm
}

// waitScreen waits until the program has drawn all of wants.
func waitScreen(t *testing.T, tm *teatest.TestModel, wants ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, w := range wants {
			if !bytes.Contains(b, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
}

func press(k tea.KeyType) tea.KeyMsg { return tea.KeyMsg{Type: k} }

// quitFlow quits the console the way a person does and returns its last model.
func quitFlow(t *testing.T, tm *teatest.TestModel) Model {
	t.Helper()
	tm.Send(press(tea.KeyCtrlC))
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
}

func TestFlowTypeACallAndSeeItsResult(t *testing.T) {
	d := newDispatcher(t)
	tm := startFlow(t, d, Options{NoPoll: true})
	// From the worlds pane, where a fresh console starts: typing goes to
	// the input line.
	tm.Type("collect oak_log 4")
	tm.Send(press(tea.KeyEnter))
	waitScreen(t, tm, "c1", "mc_collect", "collected=true")
	tm.Type(`{"id":"mine","tool":"mc_wait","args":{"ms":5}}`)
	tm.Send(press(tea.KeyEnter))
	waitScreen(t, tm, "mine", "waited_ms=")
	m := quitFlow(t, tm)
	if len(m.timeline.calls) != 2 {
		t.Fatalf("timeline has %d calls; want 2", len(m.timeline.calls))
	}
	for _, c := range m.timeline.calls {
		if !c.Done || !c.Response.OK {
			t.Errorf("call %s %s: done=%v response %+v", c.Key, c.Tool, c.Done, c.Response)
		}
	}
}

func TestFlowStopARunningCall(t *testing.T) {
	d := newDispatcher(t)
	tm := startFlow(t, d, Options{NoPoll: true})
	tm.Type("mc_wait ms=600000")
	tm.Send(press(tea.KeyEnter))
	waitScreen(t, tm, "1 running")
	tm.Send(press(tea.KeyCtrlX))
	waitScreen(t, tm, "mc_stop", "stopped by mc_stop")
	m := quitFlow(t, tm)
	if len(d.Running()) != 0 {
		t.Fatalf("calls still running after stop: %v", d.Running())
	}
	if c := m.timeline.calls[0]; !c.Done || c.Response.OK {
		t.Fatalf("the wait should have ended stopped: %+v", c.Response)
	}
}

func TestFlowSwitchTheme(t *testing.T) {
	tm := startFlow(t, newDispatcher(t), Options{NoPoll: true, Theme: themes.Dark})
	waitScreen(t, tm, "theme dark")
	tm.Send(press(tea.KeyCtrlT))
	waitScreen(t, tm, "theme light")
	tm.Send(press(tea.KeyCtrlT))
	tm.Send(press(tea.KeyCtrlT))
	waitScreen(t, tm, "theme streamer")
	tm.Send(press(tea.KeyCtrlO))
	waitScreen(t, tm, "Task ", "esc or ctrl+o: full console")
	m := quitFlow(t, tm)
	if m.ThemeName() != "streamer" || !m.overlay {
		t.Fatalf("after three switches the theme is %s (want streamer), overlay=%v", m.ThemeName(), m.overlay)
	}
}

func TestFlowFilterEvents(t *testing.T) {
	d := newDispatcher(t)
	tm := startFlow(t, d, Options{NoPoll: true})
	bus := d.Events()
	bus.Emit("mc_player_chat", "", map[string]string{"username": "Eduard", "message": "follow me"})
	bus.Emit("mc_hurt", "zombie", map[string]any{"health": 12, "attacker": "zombie"})
	waitScreen(t, tm, "<Eduard> follow me", "Hurt by zombie, health 12")
	tm.Send(press(tea.KeyTab)) // timeline
	tm.Send(press(tea.KeyTab)) // events
	tm.Send(press(tea.KeyRight))
	waitScreen(t, tm, "Events · chat")
	m := quitFlow(t, tm)
	if m.events.Filter() != filterChat {
		t.Fatalf("filter is %q", m.events.Filter())
	}
	view := m.events.View()
	if !strings.Contains(view, "follow me") || strings.Contains(view, "zombie") {
		t.Fatalf("the chat filter shows:\n%s", view)
	}
}

// TestFlowStatusIsPolledThroughTheDispatcher: the status pane reads the
// real mc_status, and its polls stay out of the timeline.
func TestFlowStatusIsPolledThroughTheDispatcher(t *testing.T) {
	d := newBotDispatcher(t)
	var seen []string
	stop := d.Observe(func(ev protocol.CallEvent) { seen = append(seen, ev.Tool) })
	defer stop()
	tm := startFlow(t, d, Options{})
	waitScreen(t, tm, "blockmate  not in a world")
	m := quitFlow(t, tm)
	if len(m.timeline.calls) != 0 || len(seen) != 0 {
		t.Fatalf("status polls showed as calls: timeline %d, observed %v", len(m.timeline.calls), seen)
	}
	if !m.status.known || m.status.status.Connected {
		t.Fatal("the status pane did not read mc_status")
	}
}
