package physics

import (
	"testing"
)

func TestQueries(t *testing.T) {
	e := engine(t, 774)
	w := newWorld(t, e, "stone")
	w.set(t, 2, 0, 0, "oak_slab[type=bottom]")
	w.set(t, 4, 0, 0, "oak_fence")
	w.fill(t, 6, 0, -1, 6, 1, 1, "stone")
	w.set(t, 8, 0, 0, "lava")
	w.fill(t, 10, 0, 0, 10, 0, 0, "air")
	w.fill(t, 10, -5, 0, 10, -1, 0, "air")

	for _, tc := range []struct {
		name  string
		pos   Vec3
		stand bool
	}{
		{"on the floor", Vec3{0.5, 0, 0.5}, true},
		{"floating", Vec3{0.5, 0.1, 0.5}, false},
		{"on a slab", Vec3{2.5, 0.5, 0.5}, true},
		{"in a slab", Vec3{2.5, 0.4, 0.5}, false},
		{"on a fence post", Vec3{4.5, 1.5, 0.5}, true},
		{"beside a fence, in its reach", Vec3{4.5, 0, 0.5}, false},
		{"in a wall", Vec3{6.5, 0, 0.5}, false},
		{"under a one-block gap's ceiling", Vec3{6.5, 2, 0.5}, true},
		{"in lava", Vec3{8.5, 0, 0.5}, false},
	} {
		if got := e.CanStandAt(w, tc.pos); got != tc.stand {
			t.Errorf("CanStandAt %s %v = %v, want %v", tc.name, tc.pos, got, tc.stand)
		}
	}
	if y, ok := e.FloorBelow(w, Vec3{10.5, 3, 0.5}, 10); !ok || y != -5 {
		t.Errorf("FloorBelow over a 5-deep hole = %v, %v; want -5", y, ok)
	}
	if _, ok := e.FloorBelow(w, Vec3{10.5, 3, 0.5}, 4); ok {
		t.Errorf("FloorBelow found a floor further down than allowed")
	}
	if y, ok := e.FloorBelow(w, Vec3{2.5, 3, 0.5}, 10); !ok || y != 0.5 {
		t.Errorf("FloorBelow over a slab = %v, %v; want 0.5", y, ok)
	}
	if !e.Collides(w, AABB{4.4, 1.4, 0.4, 4.6, 1.45, 0.6}) || e.Collides(w, AABB{4.0, 1.4, 0.0, 4.3, 1.45, 0.3}) {
		t.Error("Collides misjudges a fence post")
	}

	// "If I sprint-jump from here, where do I land?"
	a := DefaultAttributes()
	s := e.StandingState(w, Vec3{0.5, 0, -5.5}, 0)
	l := e.Land(w, s, Controls{Forward: true, Sprint: true, Jump: true}, a, 40)
	if !l.Landed || l.Ticks != 12 || l.State.Pos.Y != 0 || l.Damage != 0 {
		t.Errorf("a sprint jump: landed %v after %d ticks at %v, damage %v", l.Landed, l.Ticks, l.State.Pos, l.Damage)
	}
	if d := l.State.Pos.Z - s.Pos.Z; d < 2 || d > 4 {
		t.Errorf("a sprint jump from standing covered %.3f blocks", d)
	}
	// Walking into the hole: a 5-block drop, 2 damage.
	s = e.StandingState(w, Vec3{10.5, 0, -1.5}, 0)
	l = e.Land(w, s, Controls{Forward: true}, a, 60)
	if !l.Landed || l.State.Pos.Y != -5 || l.Damage != 2 {
		t.Errorf("walking into a 5-deep hole: landed %v at %v after falling %.3f, damage %v", l.Landed, l.State.Pos, l.FallDistance, l.Damage)
	}
}

// The bot's chunk store, its snapshot (read column by column) and a plain
// World give the same movement, bit for bit; a column the store has not
// loaded freezes the player.
func TestWorldStore(t *testing.T) {
	e := engine(t, 775)
	tw := newWorld(t, e, "stone")
	tw.fill(t, -3, 0, 3, 3, 0, 3, "oak_slab[type=bottom]")
	tw.fill(t, -3, 0, 6, 3, 1, 6, "cobblestone_wall")
	tw.fill(t, -3, -3, 9, 3, -1, 12, "water")
	tw.fill(t, 1, 0, 14, 1, 4, 14, "ladder[facing=south]")
	st := storeOf(t, e, tw, -3, -2, 3, 5)
	view := st.Snapshot()
	a := DefaultAttributes()
	s1, s2, s3 := State{Pos: Vec3{0.5, 0, 0.5}}, State{Pos: Vec3{0.5, 0, 0.5}}, State{Pos: Vec3{0.5, 0, 0.5}}
	for i := 0; i < 200; i++ {
		c := Controls{Forward: true, Sprint: i%50 < 30, Jump: i%20 < 3, Sneak: i%70 > 60, Yaw: float32(i%90) - 45}
		s1, s2, s3 = e.Step(tw, s1, c, a), e.Step(st, s2, c, a), e.Step(view, s3, c, a)
		if s1 != s2 || s1 != s3 {
			t.Fatalf("tick %d: the test world, the store and its snapshot part:\n%+v\n%+v\n%+v", i+1, s1, s2, s3)
		}
	}
	far := State{Pos: Vec3{100.5, 0, 0.5}, Vel: Vec3{0, -0.5, 0}}
	for _, w := range []World{st, view} {
		if got := e.Step(w, far, Controls{Forward: true}, a); !got.Frozen || got.Pos != far.Pos {
			t.Errorf("%T: a player in an unloaded column moved: %+v", w, got)
		}
	}
}
