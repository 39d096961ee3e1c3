package ui

import (
	"strings"
	"testing"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/themes"
)

// TestStatusShowsTheWalk: while the bot walks, the status pane names the
// walk, its goal and the steps walked of the path; standing, it has no
// walk line.
func TestStatusShowsTheWalk(t *testing.T) {
	p := newStatusPane(themes.New(themes.Dark))
	p.set(api.Status{Connected: true, State: "playing"}, "")
	if view := strings.Join(p.lines(60), "\n"); strings.Contains(view, "Walk") {
		t.Errorf("a bot standing still shows a walk:\n%s", view)
	}
	p.set(api.Status{Connected: true, State: "playing", Movement: &api.MovementTask{
		Kind: "goto_player", Goal: geom.Vec3{X: 12.4, Y: 64, Z: -3.6}, Walked: 14, Left: 17,
	}}, "")
	view := strings.Join(p.lines(60), "\n")
	for _, want := range []string{"Walk", "goto player", "→ 12 64 -4", "14/31 steps"} {
		if !strings.Contains(view, want) {
			t.Errorf("the walk line lacks %q:\n%s", want, view)
		}
	}
}

// TestStatusShowsSleep: while the server shows the bot asleep, the status
// pane says so in one line, with the bed; awake, it has no such line.
func TestStatusShowsSleep(t *testing.T) {
	p := newStatusPane(themes.New(themes.Dark))
	p.set(api.Status{Connected: true, State: "playing"}, "")
	if view := strings.Join(p.lines(60), "\n"); strings.Contains(view, "Sleep") || strings.Contains(view, "asleep") {
		t.Errorf("an awake bot shows a sleep line:\n%s", view)
	}
	p.set(api.Status{Connected: true, State: "playing", Sleeping: true, Bed: &geom.Vec3{X: 12, Y: 64, Z: -4}}, "")
	view := strings.Join(p.lines(60), "\n")
	var lines int
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "Sleep") {
			lines++
			if !strings.Contains(l, "asleep in the bed at 12 64 -4") {
				t.Errorf("the sleep line is %q, want it to name the bed", l)
			}
		}
	}
	if lines != 1 {
		t.Errorf("%d sleep lines, want one:\n%s", lines, view)
	}
}
