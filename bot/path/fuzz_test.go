package path

import (
	"context"
	"testing"
)

// FuzzPlan builds a small world from the fuzzer's bytes (a block of the
// random palette per byte over a 12×6×12 region on a stone floor, the
// first bytes choosing the start, the goal and the options, the length
// whether it digs and bridges) and plans in
// it: no panic, the node budget kept (the bound on time: tests count
// nodes, never the clock), every step valid.
func FuzzPlan(f *testing.F) {
	f.Add([]byte{0, 0, 0, 11, 5, 11, 0})
	f.Add([]byte{3, 1, 3, 8, 2, 9, 1, 0, 0, 5, 5, 5, 10, 10, 12, 12, 13, 40, 41, 42})
	f.Add([]byte("a stone wall, lava, water and a door or two across the middle of it all"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 7 {
			return
		}
		w := newWorld(t, 1)
		w.fill(-2, 60, -2, 13, 60, 13, "stone")
		cells := data[7:]
		for i, b := range cells {
			if i >= 12*6*12 {
				break
			}
			if int(b) >= len(randomBlocks)*2 {
				continue // mostly air
			}
			if int(b) >= len(randomBlocks) {
				b -= byte(len(randomBlocks))
			}
			w.set(i%12, 61+i/144, i/12%12, randomBlocks[b])
		}
		v := w.view()
		start := pos(int(data[0])%12, 61+int(data[1])%6, int(data[2])%12)
		goal := Near{Pos: pos(int(data[3])%12, 61+int(data[4])%6, int(data[5])%12), Range: float64(data[6] % 3)}
		opts := Options{MaxNodes: 2000, NoSprint: data[6]&4 != 0, NoDoors: data[6]&8 != 0, MaxFall: int(data[6]>>4) % 6}
		switch len(data) % 3 { // digging and bridging on some inputs
		case 1:
			opts.Movers = []Mover{digger()}
		case 2:
			opts.Movers = []Mover{digger(), &Bridger{Blocks: int(data[0] % 8)}}
		}
		r := New(game, opts).Plan(context.Background(), v, start, goal)
		if r.Nodes > 2000 {
			t.Fatalf("%d nodes over a budget of 2000", r.Nodes)
		}
		if r.Status != Complete && r.Reason == ReasonNone {
			t.Fatalf("%s without a reason", r.Status)
		}
		checkPath(t, v, New(game, opts).Options(), r)
		if len(opts.Movers) == 2 && len(placed(r)) > opts.Movers[1].(*Bridger).Blocks {
			t.Fatalf("placed %d blocks with %d to build with", len(placed(r)), opts.Movers[1].(*Bridger).Blocks)
		}
	})
}
