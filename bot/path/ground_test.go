package path

import (
	"context"
	"testing"
)

// TestGroundUnderACanopy: asked for the ground at x, z without a y, the
// answer is the forest floor under a tree's leaves, not the top of the
// canopy; a walk there from beside the tree is planned (no "every way
// down needs a fall longer…": there is no fall).
func TestGroundUnderACanopy(t *testing.T) {
	w := flat(t, 1)
	w.fill(3, 64, 0, 3, 68, 0, "oak_log")
	w.fill(1, 67, -2, 5, 69, 2, "oak_leaves")
	w.fill(3, 64, 0, 3, 68, 0, "oak_log") // the trunk again, through the leaves
	v := w.view()
	p := New(game, Options{})
	for _, c := range []struct {
		x, z int
		want int
	}{
		{2, 0, 64}, // beside the trunk, under the leaves
		{4, 1, 64},
		{9, 9, 64}, // in the open
		{3, 0, 70}, // the trunk's column: only its top (on the leaves) is a place to stand
	} {
		g := p.Ground(v, c.x, c.z, 0, false)
		if !g.Found || g.Node.Pos.Y != c.want {
			t.Errorf("Ground(%d, %d) = %+v, want feet at y %d", c.x, c.z, g, c.want)
		}
	}
	if g := p.Ground(v, 2, 0, 75, true); !g.Found || g.Node.Pos.Y != 64 {
		t.Errorf("Ground(2, 0, guess 75 over the canopy) = %+v, want the forest floor at 64", g)
	}
	g := p.Ground(v, 2, 0, 0, false)
	r := p.Plan(context.Background(), v, pos(-5, 64, 0), Near{Pos: g.Node.Pos})
	if r.Status != Complete {
		t.Errorf("no path to the ground under the canopy: %s", describe(r))
	}
	if g := p.Ground(v, 100, 100, 0, false); !g.Unloaded || g.Found {
		t.Errorf("an unloaded column: %+v", g)
	}
}

// TestGroundFromAGuess: a guessed y that a player can stand at is kept; one
// under the ground is the surface above it; one in the air the first
// place below.
func TestGroundFromAGuess(t *testing.T) {
	w := flat(t, 1)
	w.fill(5, 64, 5, 5, 66, 5, "dirt") // a pillar: its top is at 67
	v := w.view()
	p := New(game, Options{})
	for _, c := range []struct {
		x, y, z int
		want    int
	}{
		{0, 64, 0, 64},
		{0, 62, 0, 64}, // in the stone: up to the surface
		{0, 40, 0, 64}, // far under it (the air under the stone is no place: no floor)
		{0, 80, 0, 64}, // in the air: down to the ground
		{5, 65, 5, 67}, // inside the pillar: its top
	} {
		g := p.Ground(v, c.x, c.z, c.y, true)
		if !g.Found || g.Node.Pos.Y != c.want {
			t.Errorf("Ground(%d, %d, guess %d) = %+v, want feet at y %d", c.x, c.z, c.y, g, c.want)
		}
	}
}
