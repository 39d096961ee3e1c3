package build_test

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/build"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/schematic"
)

func TestInspect(t *testing.T) {
	g := newest()
	w := newWorld(t, g)
	w.set(build.Pos{1, 64, 1}, state(t, g, "oak_stairs[facing=east]"))
	w.set(build.Pos{2, 64, 1}, state(t, g, "oak_stairs[facing=east]"))
	w.unloaded[[2]int{1, 0}] = true // x 16–31
	in, err := build.Inspect(g, w.read, build.Pos{18, 65, 3}, build.Pos{0, 63, 0}, build.DetailBlocks)
	if err != nil {
		t.Fatal(err)
	}
	// 19 × 3 × 4 positions, 3 of the columns x in 16–18 unloaded.
	if in.Loaded != 16*3*4 || len(in.Unloaded) != 1 || in.Unloaded[0].Count != 3*3*4 ||
		in.Unloaded[0].Min != (build.Pos{16, 63, 0}) || in.Unloaded[0].Max != (build.Pos{18, 65, 3}) {
		t.Fatalf("loaded %d, unloaded %+v", in.Loaded, in.Unloaded)
	}
	total := 0
	for i, e := range in.Palette {
		total += e.Count
		if i > 0 && e.Count > in.Palette[i-1].Count {
			t.Errorf("the palette is not most first: %+v", in.Palette)
		}
	}
	if total != in.Loaded || len(in.Blocks) != in.Loaded {
		t.Errorf("palette counts %d, blocks %d, loaded %d", total, len(in.Blocks), in.Loaded)
	}
	if in.Palette[0].State != "air" || in.Palette[2].State != "oak_stairs[facing=east,half=bottom,shape=straight,waterlogged=false]" || in.Palette[2].Count != 2 {
		t.Errorf("palette %+v", in.Palette)
	}
	for i, b := range in.Blocks {
		s, ok := w.read(b.Pos)
		if !ok || mustName(g, s) != b.State {
			t.Fatalf("%v: %s, the world has %s", b.Pos, b.State, mustName(g, s))
		}
		if i > 0 && !(in.Blocks[i-1].Pos.Y < b.Pos.Y || in.Blocks[i-1].Pos.Y == b.Pos.Y && (in.Blocks[i-1].Pos.Z < b.Pos.Z || in.Blocks[i-1].Pos.Z == b.Pos.Z && in.Blocks[i-1].Pos.X < b.Pos.X)) {
			t.Fatalf("block %d out of order", i)
		}
	}
	sum, _ := build.Inspect(g, w.read, build.Pos{0, 63, 0}, build.Pos{18, 65, 3}, "")
	if sum.Blocks != nil || len(sum.Palette) != len(in.Palette) {
		t.Errorf("summary: %+v", sum)
	}
	for _, c := range []struct {
		a, b   build.Pos
		detail string
		says   string
	}{
		{build.Pos{0, 0, 0}, build.Pos{16, 15, 15}, "", "at most 4096 are read at once"},
		{build.Pos{0, 0, 0}, build.Pos{1, 1, 1}, "all", "not summary or blocks"},
		{build.Pos{0, 0, 0}, build.Pos{1 << 40, 1, 1}, "", "outside the world"},
	} {
		if _, err := build.Inspect(g, w.read, c.a, c.b, c.detail); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

// BenchmarkInspect4096 inspects 16×16×16 positions of a real world store
// with detail blocks: the issue asks under 5 ms.
func BenchmarkInspect4096(b *testing.B) {
	g := newest()
	s := storeWithColumns(b, g, 2)
	read := build.ViewReader(s.Snapshot())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := build.Inspect(g, read, build.Pos{-8, 60, -8}, build.Pos{7, 75, 7}, build.DetailBlocks); err != nil {
			b.Fatal(err)
		}
	}
}

// TestInspectUnderFiveMilliseconds runs the benchmark's work and fails
// when the median of a few runs is over the 5 ms, with room for a
// machine shared by the race detector.
func TestInspectUnderFiveMilliseconds(t *testing.T) {
	g := newest()
	s := storeWithColumns(t, g, 2)
	read := build.ViewReader(s.Snapshot())
	var times []time.Duration
	for range 9 {
		start := time.Now()
		in, err := build.Inspect(g, read, build.Pos{-8, 60, -8}, build.Pos{7, 75, 7}, build.DetailBlocks)
		times = append(times, time.Since(start))
		if err != nil || in.Loaded != 4096 {
			t.Fatalf("%v, %d loaded", err, in.Loaded)
		}
	}
	for i := range times { // sort for the median
		for j := i; j > 0 && times[j] < times[j-1]; j-- {
			times[j], times[j-1] = times[j-1], times[j]
		}
	}
	limit := 5 * time.Millisecond
	if raceEnabled {
		limit *= 10
	}
	if times[4] > limit {
		t.Errorf("inspecting 4096 positions takes %v (median of 9), over %v", times[4], limit)
	}
}

// TestExportImport exports a region of a real world store, imports the
// file at another place and checks it block for block, then turned a
// quarter: every position moved and every state turned as RotateState
// says.
func TestExportImport(t *testing.T) {
	g := newest()
	s := storeWithColumns(t, g, 2)
	read := build.ViewReader(s.Snapshot())
	lo, hi := build.Pos{-3, 76, -2}, build.Pos{4, 81, 5} // y 80+ is air above the terrain
	exp, file, err := build.ExportRegion(g, read, "tower-1", hi, lo)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(file)
	if exp.AssetID != "tower-1" || exp.Width != 8 || exp.Height != 6 || exp.Length != 8 || exp.SHA256 != hex.EncodeToString(sum[:]) || exp.Bytes != len(file) {
		t.Errorf("%+v", exp)
	}
	if dv, _ := schematic.DataVersionOf(g.Version); exp.DataVersion != dv {
		t.Errorf("data version %d", exp.DataVersion)
	}
	target := build.Pos{100, 70, -40}
	for q := 0; q < 4; q++ {
		tg, sch, err := build.Import(g, file, target, q*90)
		if err != nil {
			t.Fatal(err)
		}
		if len(tg.Blocks) != 8*6*8 || sch.Volume() != 8*6*8 {
			t.Fatalf("%d blocks", len(tg.Blocks))
		}
		at := map[build.Pos]mcdata.StateID{}
		for _, b := range tg.Blocks {
			at[b.Pos] = b.State
		}
		for y := lo.Y; y <= hi.Y; y++ {
			for z := lo.Z; z <= hi.Z; z++ {
				for x := lo.X; x <= hi.X; x++ {
					src, _ := read(build.Pos{x, y, z})
					st, _ := g.StateByID(src)
					want, _ := build.RotateState(st, q)
					local := build.RotatePos(build.Pos{x - lo.X, y - lo.Y, z - lo.Z}, q)
					dst := build.Pos{target.X + local.X, target.Y + local.Y, target.Z + local.Z}
					if got, ok := at[dst]; !ok || got != want.ID {
						t.Fatalf("turned %d: %v (from %v) is %s, want %s", q, dst, build.Pos{x, y, z}, mustName(g, got), want)
					}
				}
			}
		}
	}
	// Placed where it already stands, the import changes nothing.
	tg, _, _ := build.Import(g, file, lo, 0)
	plan, err := build.Prepare(g, tg, read, build.Options{Now: now})
	if err != nil || len(plan.Writes) != 0 || plan.Unchanged != 8*6*8 {
		t.Errorf("importing over the original: %d writes, %v", len(plan.Writes), err)
	}
	for _, c := range []struct {
		name string
		says string
	}{{"../x", "not accepted"}, {"x.schem", "not accepted"}} {
		if _, _, err := build.ExportRegion(g, read, c.name, lo, hi); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q: %v", c.name, err)
		}
	}
	if _, _, err := build.ExportRegion(g, read, "far", build.Pos{200, 64, 200}, build.Pos{201, 64, 201}); err == nil || !strings.Contains(err.Error(), "not loaded") {
		t.Errorf("unloaded: %v", err)
	}
	if _, _, err := build.Import(g, file, target, 45); err == nil || !strings.Contains(err.Error(), "not one of 0, 90, 180, 270") {
		t.Errorf("45°: %v", err)
	}
}

func TestExportCountsBlockData(t *testing.T) {
	g := newest()
	w := newWorld(t, g)
	w.set(build.Pos{0, 64, 0}, state(t, g, "chest"))
	w.set(build.Pos{1, 64, 0}, state(t, g, "oak_sign"))
	exp, _, err := build.ExportRegion(g, w.read, "chests", build.Pos{0, 64, 0}, build.Pos{2, 64, 0})
	if err != nil || exp.WithoutData != 2 || exp.BlockCount != 2 {
		t.Errorf("%+v %v", exp, err)
	}
}
