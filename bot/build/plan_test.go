package build_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/build"
	"github.com/blockmate/blockmate/bot/material"
	"github.com/blockmate/blockmate/bot/mcdata"
)

var now = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// hut is a 5×5 hut of planks on the dirt at y 63: a floor, walls three
// high, a roof, a door in the south wall, a torch inside on the north
// wall, a bed and a sand block on the floor.
func hut() build.Recipe {
	return build.Recipe{Version: 1, Operations: []build.Operation{
		{Op: "box", Min: p(0, 64, 0), Max: p(4, 64, 4), Block: "oak_planks"},
		{Op: "box", Min: p(0, 65, 0), Max: p(4, 67, 4), Block: "oak_planks", Walls: true},
		{Op: "box", Min: p(0, 68, 0), Max: p(4, 68, 4), Block: "oak_planks"},
		{Op: "box", Min: p(1, 65, 1), Max: p(3, 67, 3), Block: "air"},
		{Op: "line", From: p(2, 65, 4), To: p(2, 65, 4), Block: "oak_door[facing=north,half=lower]"},
		{Op: "line", From: p(2, 66, 4), To: p(2, 66, 4), Block: "oak_door[facing=north,half=upper]"},
		{Op: "line", From: p(2, 66, 1), To: p(2, 66, 1), Block: "wall_torch[facing=south]"},
		{Op: "line", From: p(1, 65, 2), To: p(1, 65, 2), Block: "red_bed[facing=north,part=head]"},
		{Op: "line", From: p(1, 65, 3), To: p(1, 65, 3), Block: "red_bed[facing=north,part=foot]"},
		{Op: "line", From: p(3, 65, 3), To: p(3, 65, 3), Block: "sand"},
	}}
}

func prepareHut(t *testing.T, g *mcdata.GameData, w *fakeWorld, o build.Options) *build.Plan {
	t.Helper()
	tg, err := build.Expand(g, hut())
	if err != nil {
		t.Fatal(err)
	}
	plan, err := build.Prepare(g, tg, w.read, o)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func TestPrepareHut(t *testing.T) {
	g := newest()
	w := newWorld(t, g)
	plan := prepareHut(t, g, w, build.Options{Now: now, Have: map[string]int{"oak_planks": 64}})
	// 5×5 floor and roof, walls 16 around × 3 high less the door's two;
	// the inside (3×3×3 of air) is already air, so it is unchanged.
	planks := 25 + 25 + 16*3 - 2
	if got := len(plan.Writes); got != planks+2+1+2+1 {
		t.Errorf("%d writes", got)
	}
	if plan.Unchanged != 27-4 {
		t.Errorf("%d unchanged", plan.Unchanged)
	}
	need := map[string]int{}
	for _, m := range plan.Materials {
		need[m.Item] = m.Need
		if m.Item == "oak_planks" && m.Have != 64 {
			t.Errorf("have %d planks", m.Have)
		}
	}
	want := map[string]int{"oak_planks": planks, "oak_door": 1, "torch": 1, "red_bed": 1, "sand": 1}
	if fmt.Sprint(need) != fmt.Sprint(want) {
		t.Errorf("materials %v, want %v", need, want)
	}
	if len(plan.Short()) != 5 { // 64 planks of 96, and none of the rest
		t.Errorf("short of %v", plan.Short())
	}
	// The order stands: y never falls among the standalone blocks, the
	// attached ones come after every block they could hang on, each door
	// and bed half right after its partner.
	index := map[build.Pos]int{}
	for i, wr := range plan.Writes {
		index[wr.Pos] = i
	}
	lastStandalone := 0
	for i, wr := range plan.Writes {
		s, _ := g.StateByID(wr.AfterID)
		if material.SupportOf(s) == material.Standalone {
			lastStandalone = i
			if i > 0 {
				prev, _ := g.StateByID(plan.Writes[i-1].AfterID)
				if material.SupportOf(prev) == material.Standalone && material.PartsOf(prev) == material.OnePart && plan.Writes[i-1].Pos.Y > wr.Pos.Y && material.PartsOf(s) == material.OnePart {
					t.Errorf("%v (y %d) after %v", wr.Pos, wr.Pos.Y, plan.Writes[i-1].Pos)
				}
			}
		}
	}
	torch, door := index[build.Pos{2, 66, 1}], index[build.Pos{2, 65, 4}]
	if torch < lastStandalone || door < lastStandalone {
		t.Errorf("the torch (%d) or the door (%d) comes before the last standalone block (%d)", torch, door, lastStandalone)
	}
	upper := index[build.Pos{2, 66, 4}]
	if upper != door+1 || plan.Writes[upper].Placed || !plan.Writes[door].Placed || *plan.Writes[door].Partner != (build.Pos{2, 66, 4}) {
		t.Errorf("door: lower %d upper %d, %+v %+v", door, upper, plan.Writes[door], plan.Writes[upper])
	}
	foot, head := index[build.Pos{1, 65, 3}], index[build.Pos{1, 65, 2}]
	if head != foot+1 || plan.Writes[head].Placed || !plan.Writes[foot].Placed {
		t.Errorf("bed: foot %d head %d", foot, head)
	}
	if plan.ID != "plan-"+plan.Hash[:16] || len(plan.Hash) != 64 || !plan.ExpiresAt.Equal(now.Add(build.DefaultTTL)) {
		t.Errorf("id %s hash %s expires %v", plan.ID, plan.Hash, plan.ExpiresAt)
	}
	if plan.Expired(now.Add(build.DefaultTTL-time.Second)) || !plan.Expired(now.Add(build.DefaultTTL)) {
		t.Error("the expiry")
	}
	if r := plan.Region; r.Min != (build.Pos{0, 64, 0}) || r.Max != (build.Pos{4, 68, 4}) {
		t.Errorf("region %+v", r)
	}
	raw, _ := json.Marshal(plan.Summary())
	if !strings.HasPrefix(string(raw), `{"plan_id":"plan-`) || !strings.Contains(string(raw), `"changed_blocks":`) || !strings.Contains(string(raw), `"materials":[{"item":"oak_door","need":1,"have":0}`) {
		t.Errorf("summary %s", raw)
	}
}

// TestPlanHash checks the hash against its definition, and that it does
// not depend on the order the recipe wrote the positions in.
func TestPlanHash(t *testing.T) {
	g := newest()
	w := newWorld(t, g)
	plan := prepareHut(t, g, w, build.Options{Now: now})
	h := sha256.New()
	fmt.Fprintf(h, "blockmate plan 1 %s\n", g.Version)
	for _, wr := range plan.Writes {
		fmt.Fprintf(h, "%d %d %d %s %s\n", wr.Pos.X, wr.Pos.Y, wr.Pos.Z, wr.Before, wr.After)
	}
	if want := hex.EncodeToString(h.Sum(nil)); plan.Hash != want {
		t.Errorf("hash %s, the definition gives %s", plan.Hash, want)
	}
	r := hut()
	slices.Reverse(r.Operations[4:]) // the single blocks written in another order
	tg, _ := build.Expand(g, r)
	again, _ := build.Prepare(g, tg, w.read, build.Options{Now: now.Add(time.Hour)})
	if again.Hash != plan.Hash || again.ID != plan.ID {
		t.Errorf("the same writes hash as %s and %s", plan.Hash, again.Hash)
	}
	w.set(build.Pos{0, 64, 0}, state(t, g, "stone"))
	other := prepareHut(t, g, w, build.Options{Now: now})
	if other.Hash == plan.Hash {
		t.Error("a different world before gives the same hash")
	}
	for _, wr := range plan.Writes {
		if wr.Before != mustName(g, wr.BeforeID) || wr.After != mustName(g, wr.AfterID) {
			t.Fatalf("%+v: text and ids disagree", wr)
		}
	}
}

func mustName(g *mcdata.GameData, id mcdata.StateID) string {
	s, _ := g.StateByID(id)
	return s.String()
}

func TestPrepareRefuses(t *testing.T) {
	g := newest()
	w := newWorld(t, g)
	w.unloaded[[2]int{0, 0}] = true
	tg, _ := build.Expand(g, hut())
	if _, err := build.Prepare(g, tg, w.read, build.Options{Now: now}); err == nil || !strings.Contains(err.Error(), "positions (0 64 0, 1 64 0, 2 64 0, 3 64 0, 4 64 0, and") || !strings.Contains(err.Error(), "not loaded") {
		t.Errorf("unloaded: %v", err)
	}
	w = newWorld(t, g)
	if _, err := build.Prepare(g, tg, w.read, build.Options{Now: now, MinY: -64, MaxY: 66}); err == nil || !strings.Contains(err.Error(), "outside the world's build height (y -64 to 65)") {
		t.Errorf("build height: %v", err)
	}
	if _, err := build.Prepare(g, &build.Target{}, w.read, build.Options{}); err == nil || !strings.Contains(err.Error(), "no positions") {
		t.Errorf("empty: %v", err)
	}
}

func TestExpectedBlocks(t *testing.T) {
	g := newest()
	w := newWorld(t, g)
	tg, _ := build.Expand(g, hut())
	var expected []build.ExpectedBlock
	for _, b := range tg.Blocks {
		s, _ := w.read(b.Pos)
		expected = append(expected, build.ExpectedBlock{Pos: b.Pos, State: "minecraft:" + mustName(g, s)})
	}
	if _, err := build.Prepare(g, tg, w.read, build.Options{Now: now, Expected: expected}); err != nil {
		t.Fatalf("what was inspected: %v", err)
	}
	for _, c := range []struct {
		name     string
		expected []build.ExpectedBlock
		change   func()
		says     string
	}{
		{"one missing", expected[1:], nil, "covers 124 of the plan's 125 positions"},
		{"one twice", append(slices.Clone(expected), expected[0]), nil, "twice"},
		{"one outside", append(slices.Clone(expected), build.ExpectedBlock{Pos: build.Pos{100, 64, 100}, State: "air"}), nil, "does not cover"},
		{"a bad state", append(slices.Clone(expected[1:]), build.ExpectedBlock{Pos: expected[0].Pos, State: "oak_log[axis=w]"}), nil, "cannot be \"w\""},
		{"changed since", expected, func() { w.set(expected[3].Pos, state(t, g, "cobblestone")) }, "the world changed since it was inspected: 3 64 0 was air and is now cobblestone"},
	} {
		if c.change != nil {
			c.change()
		}
		_, err := build.Prepare(g, tg, w.read, build.Options{Now: now, Expected: c.expected})
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want it to say %q", c.name, err, c.says)
		}
	}
}

// TestApplyConflictAndUndo runs the flow the tools will: prepare, someone
// changes a block, apply skips it as a conflict, someone changes a written
// block, undo restores the rest and keeps that one.
func TestApplyConflictAndUndo(t *testing.T) {
	g := newest()
	w := newWorld(t, g)
	before := map[build.Pos]mcdata.StateID{}
	tg, _ := build.Expand(g, hut())
	for _, b := range tg.Blocks {
		before[b.Pos], _ = w.read(b.Pos)
	}
	plan := prepareHut(t, g, w, build.Options{Now: now})
	cobble := state(t, g, "cobblestone")
	w.set(build.Pos{4, 68, 4}, cobble) // the player builds on the roof's corner
	conflicts := plan.Conflicts(w.read)
	if len(conflicts) != 1 || conflicts[0].Pos != (build.Pos{4, 68, 4}) || conflicts[0].Expected != "air" || conflicts[0].Found != "cobblestone" {
		t.Fatalf("conflicts %+v", conflicts)
	}
	made, skipped := w.apply(plan)
	if skipped != 1 || len(made) != len(plan.Writes)-1 {
		t.Fatalf("made %d, skipped %d", len(made), skipped)
	}
	for _, b := range tg.Blocks {
		if got, _ := w.read(b.Pos); got != b.State && b.Pos != (build.Pos{4, 68, 4}) {
			t.Fatalf("%v holds %s after the apply, the plan says %s", b.Pos, mustName(g, got), mustName(g, b.State))
		}
	}
	again, err := build.Prepare(g, tg, w.read, build.Options{Now: now})
	if err != nil || len(again.Writes) != 1 {
		t.Errorf("preparing the same again: %d writes, %v", len(again.Writes), err)
	}

	glass := state(t, g, "glass")
	w.set(build.Pos{0, 64, 0}, glass) // someone swaps a floor block after the apply
	undo, kept, err := build.Undo(g, made, w.read, build.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 1 || kept[0].Pos != (build.Pos{0, 64, 0}) || kept[0].Found != "glass" || kept[0].Wrote != "oak_planks" {
		t.Fatalf("kept %+v", kept)
	}
	if len(undo.Writes) != len(made)-1 {
		t.Fatalf("undo writes %d of %d", len(undo.Writes), len(made))
	}
	// The undo removes attached things first, top down.
	first, _ := g.StateByID(undo.Writes[0].BeforeID)
	if material.SupportOf(first) == material.Standalone {
		t.Errorf("the undo starts with %s", first)
	}
	if _, skipped := w.apply(undo); skipped != 0 {
		t.Fatalf("the undo skipped %d", skipped)
	}
	for pos, s := range before {
		got, _ := w.read(pos)
		switch pos {
		case build.Pos{0, 64, 0}:
			if got != glass {
				t.Errorf("the kept block is %s", mustName(g, got))
			}
		case build.Pos{4, 68, 4}:
			if got != cobble {
				t.Errorf("the player's block is %s", mustName(g, got))
			}
		default:
			if got != s {
				t.Errorf("%v is %s after the undo, was %s", pos, mustName(g, got), mustName(g, s))
			}
		}
	}
	// Rebuilt from text, as after a restart, the writes undo the same.
	text := make([]build.Write, len(made))
	for i, m := range made {
		text[i] = build.Write{Pos: m.Pos, Before: m.Before, After: m.After}
	}
	back, err := build.WritesFromText(g, text)
	if err != nil {
		t.Fatal(err)
	}
	for i := range back {
		if back[i].BeforeID != made[i].BeforeID || back[i].AfterID != made[i].AfterID {
			t.Fatalf("write %d reads back as %+v", i, back[i])
		}
	}
}

func TestRemovalOrder(t *testing.T) {
	g := newest()
	w := newWorld(t, g)
	// A column of stone with a torch on its side and a lantern under its
	// top, all to be cleared.
	for y := 64; y < 70; y++ {
		w.set(build.Pos{0, y, 0}, state(t, g, "stone"))
	}
	w.set(build.Pos{1, 66, 0}, state(t, g, "wall_torch[facing=east]"))
	w.set(build.Pos{0, 63, 1}, state(t, g, "stone"))
	tg, _ := build.Expand(g, build.Recipe{Version: 1, Operations: []build.Operation{{Op: "box", Min: p(0, 64, 0), Max: p(1, 69, 0), Block: "air"}}})
	plan, err := build.Prepare(g, tg, w.read, build.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Writes[0].Pos != (build.Pos{1, 66, 0}) {
		t.Errorf("the torch goes at %d", slices.IndexFunc(plan.Writes, func(w build.Write) bool { return w.Pos == build.Pos{1, 66, 0} }))
	}
	for i := 2; i < len(plan.Writes); i++ {
		if plan.Writes[i].Pos.Y > plan.Writes[i-1].Pos.Y {
			t.Errorf("removal %d at y %d after y %d: not top down", i, plan.Writes[i].Pos.Y, plan.Writes[i-1].Pos.Y)
		}
	}
	if len(plan.Materials) != 0 {
		t.Errorf("clearing needs %v", plan.Materials)
	}
}

func TestReplacesBlockEntityAndUnplaceable(t *testing.T) {
	g := newest()
	w := newWorld(t, g)
	w.set(build.Pos{0, 64, 0}, state(t, g, "chest"))
	tg, _ := build.Expand(g, build.Recipe{Version: 1, Operations: []build.Operation{{Op: "line", From: p(0, 64, 0), To: p(1, 64, 0), Block: "fire"}}})
	plan, err := build.Prepare(g, tg, w.read, build.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.ReplacesData, []build.Pos{{0, 64, 0}}) || !slices.Equal(plan.Unplaceable, []string{"fire"}) || len(plan.Materials) != 0 {
		t.Errorf("%+v", plan.Summary())
	}
}

func TestRemovingADoorIsOneAction(t *testing.T) {
	g := newest()
	w := newWorld(t, g)
	w.set(build.Pos{0, 64, 0}, state(t, g, "oak_door[half=lower]"))
	w.set(build.Pos{0, 65, 0}, state(t, g, "oak_door[half=upper]"))
	w.set(build.Pos{1, 64, 0}, state(t, g, "stone"))
	tg, _ := build.Expand(g, build.Recipe{Version: 1, Operations: []build.Operation{{Op: "box", Min: p(0, 64, 0), Max: p(1, 65, 0), Block: "air"}}})
	plan, err := build.Prepare(g, tg, w.read, build.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Writes) != 3 || plan.Writes[0].Pos != (build.Pos{0, 64, 0}) || !plan.Writes[0].Placed ||
		plan.Writes[1].Pos != (build.Pos{0, 65, 0}) || plan.Writes[1].Placed || *plan.Writes[1].Partner != (build.Pos{0, 64, 0}) {
		t.Errorf("%+v", plan.Writes)
	}
}
