//go:build linux

package e2e

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
)

// procCPU is a process's CPU time (user and system) from /proc.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces; the fields resume after its ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, fmt.Errorf("unexpected /proc/%d/stat", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	// USER_HZ is 100 on every Linux the tests run on.
	return time.Duration(ut+st) * 10 * time.Millisecond, nil
}

// moveBench is one flying-squid 1.21.4 world with the route built and
// blockmate joined, for the movement benchmarks.
type moveBench struct {
	b          *testing.B
	srv        *peertest.Server
	sc         *sidecartest.Sidecar
	sx, sy, sz int
}

func startMoveBench(b *testing.B, ctx context.Context, opts peertest.ServerOptions, minChunks int) *moveBench {
	if testing.Short() {
		b.Skip("starts real peers")
	}
	// BLOCKMATE_BENCH_BIN names a built blockmate to measure instead of
	// this tree's (as in the module's MCP benchmark): to compare two
	// builds against the same mineflayer, run by run.
	bin := os.Getenv("BLOCKMATE_BENCH_BIN")
	if bin == "" {
		bin = sidecartest.Build(b)
	}
	srv := peertest.StartServer(b, opts)
	sc := sidecartest.Start(b, bin)
	mb := &moveBench{b: b, srv: srv, sc: sc}
	call := func(tool string, args, v any) {
		r := sc.Call(ctx, tool, args)
		if !r.OK {
			b.Fatalf("%s: %s", tool, r.Error)
		}
		if v != nil {
			if err := r.Decode(v); err != nil {
				b.Fatal(err)
			}
		}
	}
	call("mc_join", map[string]any{"port": srv.Port, "username": "Theo"}, nil)
	waitFor(ctx, b, "the chunks around the spawn", func() bool {
		var st struct {
			World *struct {
				ChunksLoaded int `json:"chunks_loaded"`
			} `json:"world"`
		}
		call("mc_status", nil, &st)
		return st.World != nil && st.World.ChunksLoaded >= minChunks
	})
	var pos struct{ Position xyz }
	call("mc_get_position", nil, &pos)
	mb.sx, mb.sy, mb.sz = int(math.Floor(pos.Position.X)), int(math.Floor(pos.Position.Y)), int(math.Floor(pos.Position.Z))
	return mb
}

func (mb *moveBench) call(ctx context.Context, tool string, args, v any) sidecartest.Reply {
	r := mb.sc.Call(ctx, tool, args)
	if !r.OK {
		mb.b.Fatalf("%s %v: %s", tool, args, r.Error)
	}
	if v != nil {
		if err := r.Decode(v); err != nil {
			mb.b.Fatal(err)
		}
	}
	return r
}

// waitFor asks again every 100 ms until ok holds (across the process
// boundary there is no notification to wait on).
func waitFor(ctx context.Context, b *testing.B, what string, ok func() bool) {
	for !ok() {
		select {
		case <-ctx.Done():
			b.Fatalf("waiting for %s: %v", what, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// progress tells a person watching a long benchmark where it is.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

// BenchmarkWalkVsMineflayer: the same 40-block route on flying-squid 1.21.4
// (east from the spawn over a step, a two-high wall with one gap and a
// platform), walked by blockmate (mc_goto, range 1) and by mineflayer with
// mineflayer-pathfinder (GoalBlock), planning included, in alternating
// rounds; it reports the median seconds of each and their ratio (goal: ≤ 1).
//
//	go test -run '^$' -bench WalkVsMineflayer -benchtime 1x ./bot/
func BenchmarkWalkVsMineflayer(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	mb := startMoveBench(b, ctx, peertest.ServerOptions{Version: "1.21.4", ViewDistance: 4}, 36)
	sx, sy, sz := mb.sx, mb.sy, mb.sz
	for dz := -3; dz <= 3; dz++ {
		lines := []string{fmt.Sprintf("setblock %d %d %d stone", sx+8, sy, sz+dz)}
		if dz != 3 {
			lines = append(lines, fmt.Sprintf("setblock %d %d %d stone", sx+14, sy, sz+dz), fmt.Sprintf("setblock %d %d %d stone", sx+14, sy+1, sz+dz))
		}
		for dx := 20; dx <= 23; dx++ {
			lines = append(lines, fmt.Sprintf("setblock %d %d %d stone", sx+dx, sy, sz+dz))
		}
		for _, l := range lines {
			if err := mb.srv.Command(l); err != nil {
				b.Fatal(err)
			}
		}
	}
	waitFor(ctx, b, "the route built", func() bool {
		var at struct{ Block string }
		mb.call(ctx, "mc_block_at", map[string]any{"x": sx + 23, "y": sy, "z": sz + 3}, &at)
		return at.Block == "stone"
	})
	mf := peertest.StartPlayer(b, mb.srv, "mf")
	var ours, theirs []time.Duration
	b.ResetTimer()
	for round := 0; round < 3; round++ {
		// blockmate: there, timed, and back.
		start := time.Now()
		var there gotoAnswer
		mb.call(ctx, "mc_goto", map[string]any{"x": sx + 40, "y": sy, "z": sz, "range": 1}, &there)
		ours = append(ours, time.Since(start))
		if !there.Arrived {
			b.Fatalf("blockmate did not arrive: %+v", there)
		}
		mb.call(ctx, "mc_goto", map[string]any{"x": sx - 3, "y": sy, "z": sz, "range": 1}, nil)

		// mineflayer with mineflayer-pathfinder: the same.
		start = time.Now()
		if _, _, _, err := mf.Goto(ctx, sx+40, sy, sz); err != nil {
			b.Fatalf("mineflayer: %v", err)
		}
		theirs = append(theirs, time.Since(start))
		if _, _, _, err := mf.Goto(ctx, sx-3, sy, sz+1); err != nil {
			b.Fatalf("mineflayer back: %v", err)
		}
	}
	b.StopTimer()
	slices.Sort(ours)
	slices.Sort(theirs)
	med := func(d []time.Duration) float64 { return d[len(d)/2].Seconds() }
	b.ReportMetric(med(ours), "blockmate-s")
	b.ReportMetric(med(theirs), "mineflayer-s")
	b.ReportMetric(med(ours)/med(theirs), "ratio")
	b.Logf("40 blocks: blockmate %v, mineflayer-pathfinder %v", ours, theirs)
}

// BenchmarkFollowCPUVsMineflayer: on mpserver.js at 26.1 (flying-squid
// shows a mineflayer no player that joined before it, so a mineflayer cannot
// follow there), a player walks back and forth over 20 blocks at 5 blocks a
// second (a bare client sending a position each tick, as a walking player's
// client does) for 30 s while blockmate follows it (mc_follow, distance 3),
// then for another 30 s while a mineflayer follows it (mineflayer-
// pathfinder's GoalFollow, distance 3); it reports the CPU time of each
// follower's process over its 30 s and their ratio (goal: ≤ 0.2), having
// checked that each kept up.
//
// The walker walks rather than being teleported by a console command each
// tick: a teleport's command feedback reaches every player as a system line
// (20 a second), which a walking player never causes, and which blockmate
// reports to its client while mineflayer drops it.
//
//	go test -run '^$' -bench FollowCPUVsMineflayer -benchtime 1x ./bot/
func BenchmarkFollowCPUVsMineflayer(b *testing.B) {
	const span = 30 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	mb := startMoveBench(b, ctx, peertest.ServerOptions{Flavor: peertest.FlavorMinecraftProtocol, Version: "26.1", ViewDistance: 4}, 81)
	sx, sy, sz := mb.sx, mb.sy, mb.sz
	mf := peertest.StartPlayer(b, mb.srv, "mf")
	walker := peertest.StartBarePlayer(b, mb.srv, "walker")
	// Block centres: the tp command centres whole numbers, as vanilla does.
	from := [3]float64{float64(sx) + 10.5, float64(sy), float64(sz) - 9.5}
	to := [3]float64{float64(sx) + 10.5, float64(sy), float64(sz) + 10.5}
	if err := mb.srv.Command(fmt.Sprintf("tp walker %.2f %d %.2f", from[0], sy, from[2])); err != nil {
		b.Fatal(err)
	}
	walkerAt := func() xyz {
		x, y, z, err := mb.srv.PlayerPosition(ctx, "walker")
		if err != nil {
			b.Fatal(err)
		}
		return xyz{x, y, z}
	}
	placed, stopPlaced := context.WithTimeout(ctx, 30*time.Second)
	waitFor(placed, b, "the walker at the start of its route", func() bool {
		return distance(walkerAt(), xyz{from[0], from[1], from[2]}) < 0.01
	})
	stopPlaced()
	// walk paces the walker until the returned stop is called.
	walk := func() (stop func()) {
		if err := walker.Pace(from, to, 5); err != nil {
			b.Fatal(err)
		}
		return func() {
			if err := walker.StopWalking(); err != nil {
				b.Fatal(err)
			}
		}
	}
	near := func(a, c xyz) bool { return distance(a, c) <= 6 }
	waitFor(ctx, b, "the bot sees the walker", func() bool {
		var near struct{ Players []struct{ Username string } }
		mb.call(ctx, "mc_nearby", map[string]any{"radius": 32}, &near)
		for _, p := range near.Players {
			if p.Username == "walker" {
				return true
			}
		}
		return false
	})

	// blockmate follows.
	follow := make(chan sidecartest.Reply, 1)
	go func() { follow <- mb.sc.Call(ctx, "mc_follow", map[string]any{"username": "walker", "distance": 3}) }()
	stopWalking := walk()
	b.ResetTimer()
	before, err := procCPU(mb.sc.Pid())
	if err != nil {
		b.Fatal(err)
	}
	time.Sleep(span)
	after, err := procCPU(mb.sc.Pid())
	if err != nil {
		b.Fatal(err)
	}
	stopWalking()
	ours := after - before
	progress("blockmate followed: %v cpu", ours)
	var pos struct{ Position xyz }
	catchUp, stopCatchUp := context.WithTimeout(ctx, 30*time.Second)
	waitFor(catchUp, b, "blockmate catching up", func() bool {
		mb.call(ctx, "mc_get_position", nil, &pos)
		w := walkerAt()
		progress("blockmate at %+v, the walker at %+v", pos.Position, w)
		return near(pos.Position, w)
	})
	stopCatchUp()
	mb.call(ctx, "mc_stop", nil, nil)
	if r := <-follow; r.OK {
		b.Fatalf("mc_follow ended on its own: %s", r.Result)
	}

	// mineflayer follows.
	followed, stopFollowed := context.WithTimeout(ctx, 30*time.Second)
	waitFor(followed, b, "mineflayer following the walker", func() bool { return mf.Follow(ctx, "walker", 3) == nil })
	stopFollowed()
	stopWalking = walk()
	before, err = procCPU(mf.Pid())
	if err != nil {
		b.Fatal(err)
	}
	time.Sleep(span)
	after, err = procCPU(mf.Pid())
	if err != nil {
		b.Fatal(err)
	}
	stopWalking()
	theirs := after - before
	progress("mineflayer followed: %v cpu", theirs)
	catchUp, stopCatchUp = context.WithTimeout(ctx, 30*time.Second)
	waitFor(catchUp, b, "mineflayer catching up", func() bool {
		x, y, z, err := mf.Position(ctx)
		w := walkerAt()
		progress("mineflayer at %v %v %v, the walker at %+v", x, y, z, w)
		return err == nil && near(xyz{x, y, z}, w)
	})
	stopCatchUp()
	b.StopTimer()
	b.ReportMetric(float64(ours.Milliseconds()), "blockmate-cpu-ms")
	b.ReportMetric(float64(theirs.Milliseconds()), "mineflayer-cpu-ms")
	b.ReportMetric(ours.Seconds()/theirs.Seconds(), "ratio")
}
