package path

import (
	"context"
	"math"
	"testing"

	"github.com/blockmate/blockmate/bot/world"
)

func countMoves(r Result) map[MoveKind]int {
	out := map[MoveKind]int{}
	for _, st := range r.Path.Steps {
		out[st.Move]++
	}
	return out
}

func TestFlatGroundIsAStraightSprint(t *testing.T) {
	v := flat(t, 2).view()
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(20, 64, 5)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	// 15 straight blocks and 5 diagonal ones, sprinted.
	want := (15 + 5*math.Sqrt2) * sprintTicks
	if math.Abs(r.Cost-want) > 1e-6 {
		t.Errorf("cost %.3f, want %.3f (15 blocks straight and 5 diagonally at sprint)\n%s", r.Cost, want, describe(r))
	}
	if r.Path.End() != pos(20, 64, 5) {
		t.Errorf("ends at %v", r.Path.End())
	}
	for _, st := range r.Path.Steps {
		if !st.Sprint || st.Jump || st.Support.Y != 63 {
			t.Fatalf("step %+v: want a sprint on the stone", st)
		}
	}
	// Walking speed when sprinting is off.
	r = plan(t, v, pos(0, 64, 0), Near{Pos: pos(20, 64, 0)}, Options{NoSprint: true})
	if want := 20 * walkTicks; math.Abs(r.Cost-want) > 1e-6 {
		t.Errorf("walking 20 blocks costs %.3f, want %.3f", r.Cost, want)
	}
}

func TestRangeGoalsStopAtTheRange(t *testing.T) {
	v := flat(t, 2).view()
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(20, 64, 0), Range: 3}, Options{})
	if r.Status != Complete || r.Path.End() != pos(17, 64, 0) {
		t.Fatalf("want to stop 3 short:\n%s", describe(r))
	}
	r = plan(t, v, pos(0, 64, 0), NearXZ{X: 10, Z: 10, Range: 2}, Options{})
	end := r.Path.End()
	if r.Status != Complete || (end.X-10)*(end.X-10)+(end.Z-10)*(end.Z-10) > 4 {
		t.Fatalf("NearXZ:\n%s", describe(r))
	}
	// Already there: an empty, complete path.
	r = plan(t, v, pos(3, 64, 3), Near{Pos: pos(3, 64, 4), Range: 1}, Options{})
	if r.Status != Complete || len(r.Path.Steps) != 0 {
		t.Fatalf("at the goal already:\n%s", describe(r))
	}
}

func TestStairsSlabsAndJumps(t *testing.T) {
	w := flat(t, 2)
	// A staircase of full blocks going east: x 2 is one high, x 3 two …
	for i := 1; i <= 5; i++ {
		w.fill(1+i, 64, -1, 1+i, 63+i, 1, "stone")
	}
	// On top, a slab step up and a stairs block.
	w.fill(7, 64, -1, 12, 68, 1, "stone")
	w.set(8, 69, 0, "oak_slab[type=bottom]")
	w.fill(9, 69, -1, 12, 69, 1, "stone")
	v := w.view()
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(11, 70, 0)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	moves := countMoves(r)
	if moves[Ascend]+moves[Diagonal] < 5 {
		t.Errorf("five one-block rises need jumps:\n%s", describe(r))
	}
	var onSlab bool
	for _, st := range r.Path.Steps {
		if st.To == pos(8, 69, 0) {
			onSlab = true
			if st.Floor != 69.5 || st.Jump || st.Support != pos(8, 69, 0) {
				t.Errorf("onto the slab: floor %.2f jump %v support %v; want a step up to 69.5 standing in the slab's block", st.Floor, st.Jump, st.Support)
			}
		}
	}
	if !onSlab {
		t.Logf("the path did not cross the slab (fine, but unexpected):\n%s", describe(r))
	}
	// Stairs rising the way the bot walks are walked up, not jumped; from
	// the side they are a jump.
	w3 := flat(t, 1)
	w3.set(3, 64, 0, "oak_stairs[facing=east,half=bottom]")
	w3.fill(4, 64, -1, 8, 64, 1, "stone")
	r = plan(t, w3.view(), pos(0, 64, 0), Near{Pos: pos(6, 65, 0)}, Options{})
	if r.Status != Complete || r.Path.Steps[2].To != pos(3, 65, 0) || r.Path.Steps[2].Jump || r.Path.Steps[2].Move != Ascend {
		t.Errorf("up the stairs without a jump:\n%s", describe(r))
	}
	w3.set(3, 64, 0, "oak_stairs[facing=north,half=bottom]")
	r = plan(t, w3.view(), pos(0, 64, 0), Near{Pos: pos(6, 65, 0)}, Options{})
	for _, st := range r.Path.Steps {
		if st.To == pos(3, 65, 0) && !st.Jump {
			t.Errorf("stairs from the side need a jump:\n%s", describe(r))
		}
	}
	// Honey halves a jump: no jumping up from it.
	w3.fill(-3, 63, -3, 2, 63, 3, "honey_block")
	w3.fill(3, 64, -16, 3, 64, 15, "stone")
	r = plan(t, w3.view(), pos(0, 64, 0), Near{Pos: pos(6, 65, 0)}, Options{})
	for _, st := range r.Path.Steps {
		if st.Jump && st.From.X <= 2 && st.From.X >= -3 && st.From.Z >= -3 && st.From.Z <= 3 {
			t.Errorf("jumps from honey:\n%s", describe(r))
		}
	}
	// Two blocks up is not a jump. (The search meets the loaded area's
	// edge far from the goal: that is not the reason.)
	w2 := flat(t, 1)
	w2.fill(-16, 64, 3, 15, 65, 3, "stone")
	r = plan(t, w2.view(), pos(0, 64, 0), Near{Pos: pos(0, 64, 6)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonNeedsDigging {
		t.Errorf("a two-high wall across the world:\n%s", describe(r))
	}
}

func TestWallWithAGap(t *testing.T) {
	w := flat(t, 2)
	w.fill(5, 64, -32, 5, 66, 31, "stone")
	w.fill(5, 64, 7, 5, 65, 7, "air") // a door-sized gap at z 7
	r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	through := false
	for _, st := range r.Path.Steps {
		if st.To.X == 5 {
			through = st.To == pos(5, 64, 7)
		}
	}
	if !through {
		t.Errorf("the path should go through the gap at z 7:\n%s", describe(r))
	}
	// A gap one block high is no way through.
	w.set(5, 65, 7, "stone")
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{})
	if r.Status == Complete {
		t.Errorf("through a one-high gap:\n%s", describe(r))
	}
}

func TestFencesAreTooHighToJump(t *testing.T) {
	w := flat(t, 2)
	w.fill(5, 64, -32, 5, 64, 31, "oak_fence")
	w.fill(4, 64, -32, 4, 64, 31, "stone") // a block to jump from: still 0.5 short
	w.set(4, 64, 2, "air")
	r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{})
	if r.Status == Complete {
		t.Fatalf("over a fence:\n%s", describe(r))
	}
	// A gate in the fence is opened.
	w.set(5, 64, 2, "oak_fence_gate[facing=east,open=false]")
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	if !opens(r, pos(5, 64, 2)) {
		t.Errorf("the path should open the gate at 5 64 2:\n%s", describe(r))
	}
	for _, st := range r.Path.Steps {
		if len(st.Open) > 0 && st.To != pos(5, 64, 2) {
			t.Errorf("only the step into the gate opens it; %v → %v opens %v", st.From, st.To, st.Open)
		}
	}
}

// opens says whether a path opens a block.
func opens(r Result, p world.BlockPos) bool {
	for _, st := range r.Path.Steps {
		for _, o := range st.Open {
			if o == p {
				return true
			}
		}
	}
	return false
}

func TestDoors(t *testing.T) {
	// A stone hut from x 4 to 10, z -3 to 3, with one door at x 4, z 0.
	hut := func(door string) *testWorld {
		w := flat(t, 2)
		w.fill(4, 64, -3, 10, 67, 3, "stone")
		w.fill(5, 64, -2, 9, 66, 2, "air")
		if door != "" {
			w.set(4, 64, 0, door+"[facing=east,half=lower,hinge=left,open=false]")
			w.set(4, 65, 0, door+"[facing=east,half=upper,hinge=left,open=false]")
		}
		return w
	}
	r := plan(t, hut("oak_door").view(), pos(0, 64, 0), Near{Pos: pos(7, 64, 0)}, Options{})
	if r.Status != Complete || !opens(r, pos(4, 64, 0)) {
		t.Fatalf("want the path to open the oak door at 4 64 0:\n%s", describe(r))
	}
	for _, st := range r.Path.Steps {
		if len(st.Open) > 1 {
			t.Errorf("a door is opened once (its lower half), not %v", st.Open)
		}
	}
	// Out again from inside.
	r = plan(t, hut("oak_door").view(), pos(7, 64, 0), Near{Pos: pos(0, 64, 0)}, Options{})
	if r.Status != Complete || !opens(r, pos(4, 64, 0)) {
		t.Fatalf("out through the door:\n%s", describe(r))
	}
	// Copper doors open by hand too; iron doors do not.
	r = plan(t, hut("copper_door").view(), pos(0, 64, 0), Near{Pos: pos(7, 64, 0)}, Options{})
	if r.Status != Complete {
		t.Errorf("copper door:\n%s", describe(r))
	}
	r = plan(t, hut("iron_door").view(), pos(0, 64, 0), Near{Pos: pos(7, 64, 0)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonGoalEnclosed {
		t.Errorf("behind an iron door the goal is shut in:\n%s", describe(r))
	}
	r = plan(t, hut("oak_door").view(), pos(0, 64, 0), Near{Pos: pos(7, 64, 0)}, Options{NoDoors: true})
	if r.Status == Complete {
		t.Errorf("NoDoors, yet:\n%s", describe(r))
	}
}

func TestClosedBoxes(t *testing.T) {
	w := flat(t, 2)
	w.fill(10, 64, 10, 14, 68, 14, "glass")
	w.fill(11, 65, 11, 13, 67, 13, "air")
	v := w.view()
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(12, 65, 12)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonGoalEnclosed {
		t.Fatalf("goal in a closed box:\n%s", describe(r))
	}
	if r.Reason.Explain() == "" || r.Reason.NextStep() == "" || r.Reason.String() != "goal_enclosed" {
		t.Errorf("reason %v: %q / %q", r.Reason, r.Reason.Explain(), r.Reason.NextStep())
	}
	r = plan(t, v, pos(12, 65, 12), Near{Pos: pos(0, 64, 0)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonStartEnclosed {
		t.Fatalf("start in a closed box:\n%s", describe(r))
	}
	// Inside the same box, the goal is reachable.
	r = plan(t, v, pos(11, 65, 11), Near{Pos: pos(13, 65, 13)}, Options{})
	if r.Status != Complete {
		t.Fatalf("inside the box:\n%s", describe(r))
	}
	// A goal inside solid stone is shut in too.
	w.fill(-32, 40, -32, 31, 61, 31, "stone")
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(5, 50, 5)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonGoalEnclosed {
		t.Fatalf("goal in the rock:\n%s", describe(r))
	}
}

func TestPits(t *testing.T) {
	w := flat(t, 2)
	w.fill(-32, 50, -32, 31, 61, 31, "stone")
	w.fill(4, 61, -1, 6, 63, 1, "air") // a pit 3 deep: its floor is at 61
	v := w.view()
	// In: a drop of 3 is allowed.
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(5, 61, 0)}, Options{})
	if r.Status != Complete || countMoves(r)[Descend]+countMoves(r)[Diagonal] == 0 {
		t.Fatalf("into the pit:\n%s", describe(r))
	}
	// Out: the walls are three high.
	r = plan(t, v, pos(5, 61, 0), Near{Pos: pos(0, 64, 0)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonNeedsDigging {
		t.Fatalf("out of the pit:\n%s", describe(r))
	}
	// A deeper pit is a fall too far.
	w.fill(4, 58, -1, 6, 60, 1, "air") // floor at 58: a drop of 6
	v = w.view()
	r = plan(t, v, pos(0, 64, 0), Near{Pos: pos(5, 58, 0)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonLongFall {
		t.Fatalf("a drop of 6:\n%s", describe(r))
	}
	r = plan(t, v, pos(0, 64, 0), Near{Pos: pos(5, 58, 0)}, Options{MaxFall: 6})
	if r.Status != Complete {
		t.Fatalf("a drop of 6 with MaxFall 6:\n%s", describe(r))
	}
	// With water at the bottom the drop is safe.
	w.fill(4, 58, -1, 6, 58, 1, "water")
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(5, 58, 0)}, Options{})
	if r.Status != Complete {
		t.Fatalf("a drop of 6 into water:\n%s", describe(r))
	}
}

func TestWaterCrossing(t *testing.T) {
	w := flat(t, 2)
	// A river 8 wide (x 4 … 11), 3 deep, across the whole world.
	w.fill(4, 61, -32, 11, 63, 31, "water")
	v := w.view()
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(15, 64, 0)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	if countMoves(r)[Swim] == 0 {
		t.Errorf("the path should swim:\n%s", describe(r))
	}
	for _, st := range r.Path.Steps {
		if st.Water && !st.Sprint && st.Cost < swimTicks-1e-9 {
			t.Errorf("a step in water costs %.2f, less than swimming", st.Cost)
		}
	}
	r = plan(t, v, pos(0, 64, 0), Near{Pos: pos(15, 64, 0)}, Options{MaxSwim: 4})
	if r.Status != NoPath || r.Reason != ReasonTooMuchWater {
		t.Fatalf("a swim of 8 with MaxSwim 4:\n%s", describe(r))
	}
	r = plan(t, v, pos(0, 64, 0), Near{Pos: pos(15, 64, 0)}, Options{NoSwim: true})
	if r.Status != NoPath || r.Reason != ReasonTooMuchWater {
		t.Fatalf("NoSwim:\n%s", describe(r))
	}
	// Shallow water is waded, not swum.
	w2 := flat(t, 2)
	w2.fill(4, 63, -32, 11, 63, 31, "water")
	r = plan(t, w2.view(), pos(0, 64, 0), Near{Pos: pos(15, 63, 0), Range: 1}, Options{NoSwim: true})
	if r.Status != Complete {
		t.Fatalf("wading:\n%s", describe(r))
	}
}

func TestLadderTower(t *testing.T) {
	w := flat(t, 2)
	w.fill(5, 64, 0, 5, 73, 0, "stone")               // a pillar 10 high
	w.fill(4, 64, 0, 4, 73, 0, "ladder[facing=west]") // a ladder on its west face
	v := w.view()
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(5, 74, 0)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	if c := countMoves(r)[Climb]; c < 9 {
		t.Errorf("%d climbs, want 9 or more:\n%s", c, describe(r))
	}
	// And down again.
	r = plan(t, v, pos(5, 74, 0), Near{Pos: pos(0, 64, 0)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	// Without the ladder the top is out of reach.
	w.fill(4, 64, 0, 4, 73, 0, "air")
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(5, 74, 0)}, Options{})
	if r.Status != NoPath {
		t.Fatal(describe(r))
	}
}

func TestLavaMoat(t *testing.T) {
	w := flat(t, 2)
	// An island x, z 8 … 12 in a lava moat two wide.
	w.fill(6, 63, 6, 14, 63, 14, "lava")
	w.fill(8, 63, 8, 12, 63, 12, "stone")
	v := w.view()
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(10, 64, 10)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonHazard {
		t.Fatalf("across a lava moat:\n%s", describe(r))
	}
	// A moat one wide is not jumped either: a missed jump lands in lava.
	w.fill(6, 63, 6, 14, 63, 14, "stone")
	w.fill(7, 63, 7, 13, 63, 13, "lava")
	w.fill(8, 63, 8, 12, 63, 12, "stone")
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 10)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonHazard {
		t.Fatalf("across a one-wide lava moat:\n%s", describe(r))
	}
}

func TestParkourOverSafeGaps(t *testing.T) {
	w := flat(t, 2)
	w.fill(-32, 40, -32, 31, 61, 31, "stone")
	// A corridor along x between walls, with a trench one wide and two
	// deep across it at x 5, and another two wide at x 10 … 11.
	w.fill(-2, 64, -1, 20, 66, -1, "stone")
	w.fill(-2, 64, 1, 20, 66, 1, "stone")
	w.fill(5, 62, -1, 5, 63, 1, "air")
	w.fill(10, 62, -1, 11, 63, 1, "air")
	w.fill(-2, 64, -1, 20, 66, -1, "stone")
	w.fill(-2, 64, 1, 20, 66, 1, "stone")
	v := w.view()
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(15, 64, 0)}, Options{})
	if r.Status != Complete || countMoves(r)[Parkour] != 2 {
		t.Fatalf("want two jumps over the trenches:\n%s", describe(r))
	}
	// Without sprint the two-wide trench is no jump: the way goes round
	// the end of the corridor.
	r = plan(t, v, pos(0, 64, 0), Near{Pos: pos(15, 64, 0)}, Options{NoSprint: true})
	if r.Status != Complete || countMoves(r)[Parkour] != 0 {
		t.Fatalf("no sprint: no two-block jump:\n%s", describe(r))
	}
	r = plan(t, v, pos(0, 64, 0), Near{Pos: pos(8, 64, 0)}, Options{NoSprint: true})
	if r.Status != Complete || countMoves(r)[Parkour] != 1 {
		t.Fatalf("no sprint: a one-block jump:\n%s", describe(r))
	}
	r = plan(t, v, pos(0, 64, 0), Near{Pos: pos(15, 64, 0)}, Options{NoParkour: true})
	if r.Status != Complete || countMoves(r)[Parkour] != 0 {
		t.Fatalf("no parkour:\n%s", describe(r))
	}
	// A gap over a deep drop is not jumped: with the trenches deep and
	// across the whole world, there is no way.
	w.fill(5, 50, -32, 5, 63, 31, "air")
	w.fill(10, 50, -32, 11, 63, 31, "air")
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(15, 64, 0)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonLongFall {
		t.Fatalf("gaps over deep drops:\n%s", describe(r))
	}
}

func TestHazardsAreAvoided(t *testing.T) {
	w := flat(t, 2)
	// A line of harmful blocks across the straight way, with a way around
	// at z 6.
	hazards := []string{"cactus", "magma_block", "sweet_berry_bush[age=3]", "fire", "powder_snow", "wither_rose", "cobweb", "campfire[lit=true]"}
	for z := -30; z <= 5; z++ {
		h := hazards[(z+30)%len(hazards)]
		if h == "magma_block" || h == "powder_snow" {
			w.set(5, 63, z, h)
		} else {
			w.set(5, 64, z, h)
		}
		w.set(5, 65, z, "air")
	}
	w.fill(5, 64, 7, 5, 66, 30, "stone")
	r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(10, 64, 0)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	for _, st := range r.Path.Steps {
		if st.To.X == 5 && st.To.Z != 6 {
			t.Fatalf("crosses the hazards at %v:\n%s", st.To, describe(r))
		}
	}
}

func TestSoulSandIsSlow(t *testing.T) {
	w := flat(t, 2)
	w.fill(3, 63, -1, 12, 63, 1, "soul_sand")
	r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(15, 64, 0)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	for _, st := range r.Path.Steps {
		if st.Support.X >= 3 && st.Support.X <= 12 && st.Support.Z >= -1 && st.Support.Z <= 1 {
			t.Fatalf("walks on soul sand at %v rather than around the strip:\n%s", st.Support, describe(r))
		}
	}
	// Where there is no way around, it walks on it, slowly, feet in the
	// block.
	w.fill(3, 63, -32, 12, 63, 31, "soul_sand")
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(15, 64, 0)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	var slow bool
	for _, st := range r.Path.Steps {
		if st.Support.Y == 63 && st.To.Y == 63 && st.Floor == 63.875 {
			slow = st.Cost > 2*sprintTicks
		}
	}
	if !slow {
		t.Errorf("no slow step on soul sand:\n%s", describe(r))
	}
}

func TestCarpetsSnowAndSlabsAreFloors(t *testing.T) {
	w := flat(t, 1)
	w.fill(1, 64, -1, 3, 64, 1, "white_carpet")
	w.fill(4, 64, -1, 6, 64, 1, "snow[layers=3]")
	w.fill(7, 64, -1, 9, 64, 1, "oak_slab[type=bottom]")
	r := plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(12, 64, 0)}, Options{})
	if r.Status != Complete {
		t.Fatal(describe(r))
	}
	floors := map[int]float64{}
	for _, st := range r.Path.Steps {
		if st.To.Z == 0 {
			floors[st.To.X] = st.Floor
		}
	}
	for x, want := range map[int]float64{2: 64.0625, 5: 64.25, 8: 64.5, 11: 64} {
		if got, ok := floors[x]; ok && math.Abs(got-want) > 1e-6 {
			t.Errorf("floor at x %d is %.4f, want %.4f", x, got, want)
		}
	}
}

func TestUnloadedGoal(t *testing.T) {
	v := flat(t, 1).view() // blocks -16 … 15
	r := plan(t, v, pos(0, 64, 0), Near{Pos: pos(100, 64, 0)}, Options{})
	if r.Status != Partial || r.Reason != ReasonGoalUnloaded || r.Nodes > unloadedBudget {
		t.Fatalf("goal in an unloaded chunk (%d nodes):\n%s", r.Nodes, describe(r))
	}
	if end := r.Path.End(); end.X != 15 {
		t.Errorf("the partial path should lead to the loaded edge nearest the goal, x 15; it ends at %v", end)
	}
	// A start in an unloaded chunk.
	r = plan(t, v, pos(100, 64, 0), Near{Pos: pos(0, 64, 0)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonStartUnloaded {
		t.Fatalf("start unloaded:\n%s", describe(r))
	}
	// The only way on crosses an unloaded chunk: a loaded island beyond.
	w := newWorld(t, 1)
	w.fill(-16, 63, -16, 15, 63, 15, "stone")
	w.loadAir(2, 0)
	w.fill(32, 63, 0, 47, 63, 15, "stone")
	r = plan(t, w.view(), pos(0, 64, 0), Near{Pos: pos(40, 64, 0), Range: 30}, Options{})
	if r.Status != Complete {
		t.Fatalf("within range of the loaded area:\n%s", describe(r))
	}
}

func TestBadInputIsRefused(t *testing.T) {
	v := flat(t, 1).view()
	p := New(game, Options{})
	for _, c := range []struct {
		name  string
		view  *world.View
		start world.BlockPos
		goal  Goal
		want  Reason
	}{
		{"no goal", v, pos(0, 64, 0), nil, ReasonNoGoal},
		{"no world", nil, pos(0, 64, 0), Near{}, ReasonStartUnloaded},
		{"past the world border", v, pos(1<<26, 64, 0), Near{}, ReasonStartInvalid},
		{"far below", v, pos(0, -1<<20, 0), Near{}, ReasonStartInvalid},
	} {
		r := p.Plan(context.Background(), c.view, c.start, c.goal)
		if r.Status != NoPath || r.Reason != c.want || len(r.Path.Steps) != 0 {
			t.Errorf("%s: %s (%s), want no path (%s)", c.name, r.Status, r.Reason, c.want)
		}
		if r.Reason.Explain() == "" || r.Reason.NextStep() == "" {
			t.Errorf("%s: the reason %s has no sentence", c.name, r.Reason)
		}
	}
	// Every reason has an id, a sentence and a next step.
	for r := ReasonBudget; r <= ReasonNoGoal; r++ {
		if r.String() == "" || r.String() == "unknown" || r.Explain() == "" || r.NextStep() == "" {
			t.Errorf("reason %d: %q %q %q", r, r, r.Explain(), r.NextStep())
		}
	}
	// A goal whose heuristic misbehaves does not break the search.
	r := p.Plan(context.Background(), v, pos(0, 64, 0), badHeuristic{Near{Pos: pos(5, 64, 0)}})
	if r.Status != Complete {
		t.Errorf("a NaN heuristic: %s", describe(r))
	}
}

type badHeuristic struct{ Near }

func (badHeuristic) Heuristic(world.BlockPos) float64 { return math.NaN() }

func TestFeetBlock(t *testing.T) {
	for _, c := range []struct {
		x, y, z float64
		want    world.BlockPos
	}{
		{0.5, 64, 0.5, pos(0, 64, 0)},
		{-0.5, 63.99999999, 10.2, pos(-1, 64, 10)}, // on a block's top, rounded down
		{3.3, 64.5, -7.9, pos(3, 64, -8)},          // on a slab
		{1.5, 63.875, 1.5, pos(1, 63, 1)},          // on soul sand
	} {
		if got := FeetBlock(c.x, c.y, c.z); got != c.want {
			t.Errorf("FeetBlock(%v, %v, %v) = %v, want %v", c.x, c.y, c.z, got, c.want)
		}
	}
}

func TestStartInTheAirLands(t *testing.T) {
	v := flat(t, 1).view()
	r := plan(t, v, pos(0, 66, 0), Near{Pos: pos(5, 64, 0)}, Options{})
	if r.Status != Complete || r.Path.Start != pos(0, 64, 0) {
		t.Fatalf("a jumping bot plans from where it lands:\n%s", describe(r))
	}
	r = plan(t, v, pos(0, 40, 0), Near{Pos: pos(5, 64, 0)}, Options{})
	if r.Status != NoPath || r.Reason != ReasonStartInvalid {
		t.Fatalf("inside the rock:\n%s", describe(r))
	}
}

func TestBudgetAndCancel(t *testing.T) {
	v := flat(t, 4).view()
	w := flat(t, 4)
	// A maze-like field of pillars makes the search work.
	for x := -40; x < 40; x += 3 {
		for z := -40; z < 40; z += 3 {
			w.fill(x, 64, z, x, 65, z, "stone")
		}
	}
	v = w.view()
	r := plan(t, v, pos(0, 64, 1), Near{Pos: pos(50, 64, 50)}, Options{MaxNodes: 200})
	if r.Status != Partial || r.Reason != ReasonBudget || r.Nodes != 200 {
		t.Fatalf("a budget of 200 nodes:\n%s", describe(r))
	}
	if len(r.Path.Steps) == 0 {
		t.Errorf("a partial path should lead somewhere")
	}
	d0 := Near{Pos: pos(50, 64, 50)}.Heuristic(pos(0, 64, 1))
	if d1 := (Near{Pos: pos(50, 64, 50)}).Heuristic(r.Path.End()); d1 >= d0 {
		t.Errorf("the partial path ends no nearer the goal (%.1f from %.1f)", d1, d0)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = New(game, Options{}).Plan(ctx, v, pos(0, 64, 1), Near{Pos: pos(50, 64, 50)})
	if r.Status != Partial || r.Reason != ReasonCancelled || r.Nodes > 0 {
		t.Fatalf("cancelled:\n%s", describe(r))
	}
}
