package ui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// TestTaskProgressInStatusAndOverlay: the latest mc_task_progress of a
// running mc_collect shows as "collected 2/4 oak_log" on the status pane's
// Task line and in the overlay; a later one replaces it; when the call
// finishes its progress goes.
func TestTaskProgressInStatusAndOverlay(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	st := fixtureStatus(20)
	args := map[string]json.RawMessage{"block_type": json.RawMessage(`"oak_log"`), "count": json.RawMessage(`4`)}
	st.Task = []protocol.RunningCall{{ID: "c7", Tool: "mc_collect", Args: args, Started: epoch}}
	m = update(m, statusMsg{Status: st})
	m.applyBatch(batchMsg{Calls: []protocol.CallEvent{{Phase: protocol.Started, ID: json.RawMessage(`"c7"`), Tool: "mc_collect", Args: args, Started: epoch}}})
	progress := func(done int) {
		m.applyBatch(batchMsg{Events: []protocol.Event{event("mc_task_progress", epoch, map[string]any{"tool": "mc_collect", "id": "c7", "done": done, "total": 4})}})
	}
	statusTask := func() string {
		for _, l := range m.status.lines(60) {
			if l := ansi.Strip(l); strings.HasPrefix(l, "Task") {
				return l
			}
		}
		return ""
	}
	if got := statusTask(); !strings.Contains(got, "mc_collect") || strings.Contains(got, "collected") {
		t.Errorf("before any progress the task line is %q", got)
	}
	progress(1)
	progress(2)
	if got := statusTask(); !strings.Contains(got, "collected 2/4 oak_log") {
		t.Errorf("the status pane's task line is %q, want collected 2/4 oak_log", got)
	}
	m.overlay = true
	if v := ansi.Strip(m.overlayView()); !strings.Contains(v, "collected 2/4 oak_log") {
		t.Errorf("the overlay does not show the progress:\n%s", v)
	}
	m.applyBatch(batchMsg{Calls: []protocol.CallEvent{{Phase: protocol.Finished, ID: json.RawMessage(`"c7"`), Tool: "mc_collect", Started: epoch,
		Response: protocol.Response{ID: json.RawMessage(`"c7"`), OK: true, Result: json.RawMessage(`{"collected":4}`)}}}})
	if _, ok := m.status.progress["c7"]; ok {
		t.Error("the finished call's progress is still kept")
	}
}

// TestProgressBookIsBounded: ids that never finish do not grow the book
// past its bound, and a payload without an id is ignored.
func TestProgressBookIsBounded(t *testing.T) {
	b := progressBook{}
	for i := range 2 * maxProgress {
		raw, _ := json.Marshal(taskProgress{Tool: "mc_wait", ID: strings.Repeat("x", i+1), Done: 1, Total: 2})
		b.note(raw)
	}
	b.note(json.RawMessage(`{"tool":"mc_wait","done":1}`))
	b.note(json.RawMessage(`not json`))
	if len(b) != maxProgress {
		t.Errorf("the book holds %d entries, want %d", len(b), maxProgress)
	}
	if got := taskText(b, "x", "mc_wait", nil); got != "mc_wait 1/2" {
		t.Errorf("taskText = %q", got)
	}
}

// TestABackgroundTaskShowsItsCallsProgress: a long call that answered
// early is listed as a task with an id of its own, and its progress still
// comes under the call's id: the status pane matches the two.
func TestABackgroundTaskShowsItsCallsProgress(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 30)
	st := fixtureStatus(20)
	args := map[string]json.RawMessage{"block_type": json.RawMessage(`"oak_log"`), "count": json.RawMessage(`16`)}
	st.Task = []protocol.RunningCall{{ID: "task-1", CallID: "mcp-3", Tool: "mc_collect", Args: args, Started: epoch, Background: true}}
	m = update(m, statusMsg{Status: st})
	m.applyBatch(batchMsg{Events: []protocol.Event{event("mc_task_progress", epoch, map[string]any{"tool": "mc_collect", "id": "mcp-3", "done": 5, "total": 16})}})
	for _, l := range m.status.lines(60) {
		if l := ansi.Strip(l); strings.HasPrefix(l, "Task") {
			if !strings.Contains(l, "collected 5/16 oak_log") {
				t.Errorf("the task line is %q, want collected 5/16 oak_log", l)
			}
			return
		}
	}
	t.Error("no task line")
}

// TestTheStatusPaneNamesTheBehavioursOn: mc_status's behaviours show as a
// Care line naming those that are on, and "none" when all are off.
func TestTheStatusPaneNamesTheBehavioursOn(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 100, 40)
	st := fixtureStatus(20)
	st.Behaviors = []api.Behavior{{Name: "eat", Enabled: true}, {Name: "respawn"}, {Name: "held_item", Enabled: true}}
	m = update(m, statusMsg{Status: st})
	care := func() string {
		for _, l := range m.status.lines(60) {
			if l := ansi.Strip(l); strings.HasPrefix(l, "Care") {
				return l
			}
		}
		return ""
	}
	if got := care(); !strings.Contains(got, "eat, held_item") || strings.Contains(got, "respawn") {
		t.Errorf("the Care line is %q, want eat, held_item", got)
	}
	st.Behaviors = []api.Behavior{{Name: "eat"}}
	m = update(m, statusMsg{Status: st})
	if got := care(); !strings.Contains(got, "none") {
		t.Errorf("with every behaviour off the Care line is %q", got)
	}
}

// TestObtainStepsInTaskLineTimelineAndEvents: a running mc_obtain's
// progress names the plan's step on the status pane's task line and in
// the overlay ("obtain stone_pickaxe: step 3/8 craft 12 oak_planks") and
// under its call in the timeline; each update changes the one progress
// line in the events pane instead of adding one. Once it has answered,
// the timeline lists the answer's steps under the call, ticked where done.
func TestObtainStepsInTaskLineTimelineAndEvents(t *testing.T) {
	m := newModel(t, newDispatcher(t), themes.Dark, 120, 40)
	st := fixtureStatus(20)
	args := map[string]json.RawMessage{"item": json.RawMessage(`"stone_pickaxe"`)}
	st.Task = []protocol.RunningCall{{ID: "o1", Tool: "mc_obtain", Args: args, Started: epoch}}
	m = update(m, statusMsg{Status: st})
	m.applyBatch(batchMsg{Calls: []protocol.CallEvent{{Phase: protocol.Started, ID: json.RawMessage(`"o1"`), Tool: "mc_obtain", Args: args, Started: epoch}}})
	before := len(m.events.entries)
	progress := func(done int, step string) {
		m.applyBatch(batchMsg{Events: []protocol.Event{event("mc_task_progress", epoch, map[string]any{"tool": "mc_obtain", "id": "o1", "done": done, "total": 8, "step": step})}})
	}
	progress(0, "gather 3 oak_log")
	progress(1, "craft 12 oak_planks")
	progress(2, "craft 12 oak_planks (4/12)")
	const want = "obtain stone_pickaxe: step 3/8 craft 12 oak_planks (4/12)"
	var task string
	for _, l := range m.status.lines(80) {
		if l := ansi.Strip(l); strings.HasPrefix(l, "Task") {
			task = l
		}
	}
	if !strings.Contains(task, want) {
		t.Errorf("the task line is %q, want %q", task, want)
	}
	if v := ansi.Strip(m.timeline.View()); !strings.Contains(v, "└ step 3/8 craft 12 oak_planks (4/12)") {
		t.Errorf("the timeline does not show the step under the call:\n%s", v)
	}
	m.overlay = true
	if v := ansi.Strip(m.overlayView()); !strings.Contains(v, want) {
		t.Errorf("the overlay does not show the step:\n%s", v)
	}
	m.overlay = false
	if n := len(m.events.entries) - before; n != 1 {
		t.Errorf("three progress updates added %d event lines, want one changed in place", n)
	}
	if last := ansi.Strip(m.events.line(m.events.entries[len(m.events.entries)-1], 100, false)); !strings.Contains(last, "obtain: 2 of 8, craft 12 oak_planks (4/12)") {
		t.Errorf("the progress line is %q", last)
	}

	result := `{"obtained":false,"item":"stone_pickaxe","count":0,"steps":[{"action":"gather","item":"oak_log","count":3,"done":true},` +
		`{"action":"place_table","item":"crafting_table","count":1,"done":true},{"action":"gather","item":"cobblestone","count":3,"done":false}],"missing":[{"item":"cobblestone","count":3}],"reason":"stopped"}`
	m.applyBatch(batchMsg{Calls: []protocol.CallEvent{{Phase: protocol.Finished, ID: json.RawMessage(`"o1"`), Tool: "mc_obtain", Started: epoch,
		Response: protocol.Response{ID: json.RawMessage(`"o1"`), OK: true, Result: json.RawMessage(result)}}}})
	v := ansi.Strip(m.timeline.View())
	for _, line := range []string{"✓ gather 3 oak_log", "✓ place crafting_table", "· gather 3 cobblestone"} {
		if !strings.Contains(v, line) {
			t.Errorf("the finished call's steps lack %q:\n%s", line, v)
		}
	}
	if strings.Contains(v, "└ step") {
		t.Errorf("the finished call still shows its running step:\n%s", v)
	}
}

// TestTaskLineNamesTheStep: a call of several steps (mc_craft with its
// intermediates) shows the step it runs on the Task line, in the tool's
// words, with how far through the steps it is.
func TestTaskLineNamesTheStep(t *testing.T) {
	b := progressBook{}
	b.note(json.RawMessage(`{"tool":"mc_craft","id":"c9","done":0,"total":2,"step":"crafting 4 oak_planks for crafting_table"}`))
	if got := taskText(b, "c9", "mc_craft", nil); got != "crafting 4 oak_planks for crafting_table (step 1/2)" {
		t.Errorf("task text %q", got)
	}
	b.note(json.RawMessage(`{"tool":"mc_craft","id":"c9","done":2,"total":2,"step":"crafted crafting_table\u001b[31m"}`))
	if got := taskText(b, "c9", "mc_craft", nil); strings.ContainsRune(got, 0x1b) || !strings.HasSuffix(got, "(step 2/2)") {
		t.Errorf("task text %q", got)
	}
}

// TestTimelineShowsACallsSteps: a finished mc_craft lists what it crafted
// on the way under its line in the timeline; a call without steps keeps
// its one line, and the window still ends at the newest call.
func TestTimelineShowsACallsSteps(t *testing.T) {
	p := newTimelinePane(themes.New(themes.Dark), DefaultKeyMap(), protocol.NewCatalog(), func() time.Time { return epoch })
	p.SetSize(100, 7)
	craft := &call{Key: "c1", Tool: "mc_craft", Done: true, Response: protocol.Response{OK: true, Result: json.RawMessage(
		`{"crafted":true,"item":"crafting_table","count":1,"steps":[{"did":"craft","item":"oak_planks","count":4,"for":"crafting_table"},{"did":"place","item":"crafting_table","count":1,"for":"wooden_pickaxe"},{"did":"craft","item":"crafting_table","count":1}]}`)}}
	p.push(craft)
	p.push(&call{Key: "c2", Tool: "mc_say", Done: true, Response: protocol.Response{OK: true, Result: json.RawMessage(`{"said":true}`)}})
	p.selected = 1
	v := ansi.Strip(p.View())
	for _, want := range []string{"↳ crafted 4 oak_planks for crafting_table", "↳ placed a crafting_table for wooden_pickaxe", "↳ crafted 1 crafting_table", "c2 mc_say"} {
		if !strings.Contains(v, want) {
			t.Errorf("the timeline lacks %q:\n%s", want, v)
		}
	}
	// Five rows: the craft's four lines and the say's fit; a third call
	// pushes the craft out whole rather than cutting it.
	p.push(&call{Key: "c3", Tool: "mc_say", Done: true, Response: protocol.Response{OK: true, Result: json.RawMessage(`{"said":true}`)}})
	p.selected = 2
	v = ansi.Strip(p.View())
	if strings.Contains(v, "oak_planks") || !strings.Contains(v, "c3 mc_say") || !strings.Contains(v, "c2 mc_say") {
		t.Errorf("with three calls in five rows:\n%s", v)
	}
}
