package e2e

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
)

// gotoReply is mc_goto's answer.
type gotoReply struct {
	Arrived      bool     `json:"arrived"`
	DistanceLeft *float64 `json:"distance_left"`
	Reason       string   `json:"reason"`
	NextStep     string   `json:"next_step"`
}

// TestDigAndBridgeSurvival drives `blockmate sidecar` on the survival
// plugin's server at 1.21.4 (break times as the game's): a goal shut in a
// stone box is "no path … shut in" for mc_goto, and with dig=true the bot
// digs its way in with the wooden pickaxe it carries (the server records
// each stone destroyed, not early) and arrives where the server sees it;
// a goal across a gap 3 wide between two pillars (a fall of 6 on every
// side: no way around) is no path, and with bridge=true and dirt given
// with /give the bot places three blocks the server agrees exist and
// walks over them.
func TestDigAndBridgeSurvival(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	s := startSkillScene(t, bin, "1.21.4", peertest.SurvivalOptions{})
	sc := s.sc

	// setblocks sets blocks with the console and waits until the bot sees
	// the last one.
	setblocks := func(name string, at ...[3]int) {
		t.Helper()
		for _, b := range at {
			s.command(fmt.Sprintf("setblock %d %d %d %s", b[0], b[1], b[2], name))
		}
		last := at[len(at)-1]
		s.eventually(fmt.Sprintf("the bot sees %s at %v", name, last), func() bool {
			var r struct {
				Block string `json:"block"`
			}
			s.call("mc_block_at", map[string]any{"x": last[0], "y": last[1], "z": last[2]}, &r)
			return r.Block == name
		}, func() string { return "" })
	}
	serverBlock := func(b [3]int) string {
		t.Helper()
		var st struct {
			Name string `json:"name"`
		}
		s.query(&st, "block", b[0], b[1], b[2])
		return st.Name
	}
	// arrivedAt checks that the server holds the bot within d of the
	// bottom middle of block b.
	arrivedAt := func(b [3]int, d float64) {
		t.Helper()
		var me skillPlayer
		s.query(&me, "player", s.bot)
		dx, dy, dz := me.Pos[0]-(float64(b[0])+0.5), me.Pos[1]-float64(b[1]), me.Pos[2]-(float64(b[2])+0.5)
		if math.Sqrt(dx*dx+dy*dy+dz*dz) > d {
			t.Errorf("the server has the bot at %v, more than %.1f from %v", me.Pos, d, b)
		}
	}

	t.Run("dig into a box", func(t *testing.T) {
		s.t = t
		s.give("wooden_pickaxe", 1)
		g := [3]int{s.at[0] + 5, s.at[1], s.at[2]}
		var box [][3]int
		for dy := 0; dy <= 1; dy++ {
			box = append(box, [3]int{g[0] - 1, g[1] + dy, g[2]}, [3]int{g[0] + 1, g[1] + dy, g[2]},
				[3]int{g[0], g[1] + dy, g[2] - 1}, [3]int{g[0], g[1] + dy, g[2] + 1})
		}
		box = append(box, [3]int{g[0], g[1] + 2, g[2]})
		setblocks("stone", box...)
		to := map[string]any{"x": g[0], "y": g[1], "z": g[2], "range": 0.5}
		var r gotoReply
		s.call("mc_goto", to, &r)
		if r.Arrived || !strings.Contains(r.Reason, "no path") || !strings.Contains(r.Reason, "shut in") || !strings.Contains(r.NextStep, "dig") {
			t.Fatalf("mc_goto into a shut box without dig = %+v", r)
		}
		var log []digEntry
		s.query(&log, "log", "dig", 0)
		before := len(log)
		to["dig"] = true
		r = gotoReply{}
		s.call("mc_goto", to, &r)
		if !r.Arrived {
			t.Fatalf("mc_goto into a shut box with dig = %+v\n%s", r, sc.Stderr())
		}
		arrivedAt(g, 0.6)
		var broken []string
		for _, b := range box {
			if name := serverBlock(b); name != "stone" {
				broken = append(broken, fmt.Sprintf("%v=%s", b, name))
				if name != "air" {
					t.Errorf("the server has %s at %v", name, b)
				}
			}
		}
		s.query(&log, "log", "dig", 0)
		destroyed := 0
		for _, e := range log[before:] {
			switch e.Verdict {
			case "destroyed":
				destroyed++
				if e.Block != "stone" || e.TicksNeeded != 23 {
					t.Errorf("the server destroyed %+v; want stone, 23 ticks with the wooden pickaxe", e)
				}
			case "too early", "too far":
				t.Errorf("the server refused a finish: %+v", e)
			}
		}
		// The way in is one wall's two blocks (head first, then feet).
		if destroyed != 2 || len(broken) != 2 {
			t.Errorf("the server destroyed %d blocks; the box lost %v, want one wall's two", destroyed, broken)
		}
		t.Logf("dug in: %v; %+v", broken, r)
	})

	t.Run("bridge a gap", func(t *testing.T) {
		s.t = t
		// Two stone pillars 6 high, 4 apart on x (a gap of 3), away from
		// the box: the bot stands on the first.
		a := [3]int{s.at[0] - 6, s.at[1] + 5, s.at[2] + 6}
		b := [3]int{a[0] + 4, a[1], a[2]}
		var pillars [][3]int
		for y := s.at[1]; y <= a[1]; y++ {
			pillars = append(pillars, [3]int{a[0], y, a[2]}, [3]int{b[0], y, b[2]})
		}
		setblocks("stone", pillars...)
		// %.1f of the middle: "%d.5" of a negative x is the block west of it.
		s.command(fmt.Sprintf("survival tp %s %.1f %d %.1f", s.bot, float64(a[0])+0.5, a[1]+1, float64(a[2])+0.5))
		var pos struct {
			Position struct{ X, Y, Z float64 } `json:"position"`
		}
		var server skillPlayer
		s.eventually("the bot stands on the first pillar", func() bool {
			s.call("mc_get_position", nil, &pos)
			s.query(&server, "player", s.bot)
			return math.Abs(pos.Position.X-(float64(a[0])+0.5)) < 0.01 && math.Abs(pos.Position.Y-float64(a[1]+1)) < 0.01 &&
				math.Abs(pos.Position.Z-(float64(a[2])+0.5)) < 0.01
		}, func() string {
			return fmt.Sprintf("the pillar at %v; mc_get_position says %+v, the server %v", a, pos.Position, server.Pos)
		})
		s.give("dirt", 16)
		to := map[string]any{"x": b[0], "y": b[1] + 1, "z": b[2], "range": 0.5}
		var r gotoReply
		s.call("mc_goto", to, &r)
		if r.Arrived || !strings.Contains(r.Reason, "no path") {
			t.Fatalf("mc_goto across the gap without bridge = %+v", r)
		}
		to["bridge"] = true
		r = gotoReply{}
		s.call("mc_goto", to, &r)
		if !r.Arrived {
			t.Fatalf("mc_goto across the gap with bridge = %+v\n%s", r, sc.Stderr())
		}
		arrivedAt([3]int{b[0], b[1] + 1, b[2]}, 0.6)
		for x := a[0] + 1; x < b[0]; x++ {
			if name := serverBlock([3]int{x, a[1], a[2]}); name != "dirt" {
				t.Errorf("the server has %s at %v, want the bridge's dirt", name, [3]int{x, a[1], a[2]})
			}
		}
		s.agree(map[string]int{"dirt": 13})
		t.Logf("bridged: %+v", r)
	})
	if errs := s.srv.Events("error"); len(errs) > 0 {
		t.Errorf("the survival server reported errors: %+v", errs)
	}
}
