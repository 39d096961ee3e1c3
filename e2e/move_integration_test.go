package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

type gotoAnswer struct {
	Arrived      bool
	Position     xyz
	DistanceLeft *float64 `json:"distance_left"`
	Walked       int
	Reason       string
	NextStep     string `json:"next_step"`
}

func distance(a, b xyz) float64 {
	return math.Sqrt((a.X-b.X)*(a.X-b.X) + (a.Y-b.Y)*(a.Y-b.Y) + (a.Z-b.Z)*(a.Z-b.Z))
}

// TestMoveThePeers: through `blockmate sidecar`, on flying-squid 1.21.4 and
// on minecraft-protocol's server (mpserver.js) at 26.1, the bot walks 32
// blocks over terrain the test builds (a step to jump up, a wall to go
// around, a platform to climb and leave) and arrives within range, and the
// server agrees where it is (a mineflayer player's view of the bot, which
// the server relays); mc_goto_player reaches that player after it moved
// away; mc_follow keeps near it along a route of moves, mc_stop ends it
// and the next call works; mc_find_blocks then mc_goto reaches a block,
// taking the legs from a second mc_follow, which answers that mc_goto took
// over; a
// goal inside a closed box answers no path with the reason.
func TestMoveThePeers(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	for _, c := range []struct {
		flavor, version string
		minChunks       int
	}{
		{peertest.FlavorFlyingSquid, "1.21.4", 36},
		{peertest.FlavorMinecraftProtocol, "26.1", 81},
		{peertest.FlavorMinecraftProtocol, "26.3", 81},
	} {
		t.Run(c.flavor+"/"+c.version, func(t *testing.T) {
			srv := peertest.StartServer(t, peertest.ServerOptions{Flavor: c.flavor, Version: c.version, ViewDistance: 4})
			sc := sidecartest.Start(t, bin)
			ctx, cancel := testctx.New(t)
			defer cancel()
			s := seeing{t, sc, ctx}

			s.call("mc_join", map[string]any{"port": srv.Port, "username": "Theo"}, nil)
			s.until("the chunks around the spawn", func() bool { return s.figures().ChunksLoaded >= c.minChunks })
			var pos struct{ Position xyz }
			s.call("mc_get_position", nil, &pos)
			sx, sy, sz := int(math.Floor(pos.Position.X)), int(math.Floor(pos.Position.Y)), int(math.Floor(pos.Position.Z))
			// mpserver's world has a pond west of the spawn and trees; the
			// route runs east, clear of them.
			place := func(block string, blocks ...[3]int) {
				t.Helper()
				for _, b := range blocks {
					if err := srv.Command(fmt.Sprintf("setblock %d %d %d %s", b[0], b[1], b[2], block)); err != nil {
						t.Fatal(err)
					}
				}
				last := blocks[len(blocks)-1]
				s.until(block+" placed", func() bool {
					var at struct{ Block string }
					s.call("mc_block_at", map[string]any{"x": last[0], "y": last[1], "z": last[2]}, &at)
					return at.Block == block
				})
			}
			var terrain [][3]int
			for dz := -3; dz <= 3; dz++ {
				// A step one block high across the way at +8.
				terrain = append(terrain, [3]int{sx + 8, sy, sz + dz})
				// A wall two high at +14, open only at dz = 3.
				if dz != 3 {
					terrain = append(terrain, [3]int{sx + 14, sy, sz + dz}, [3]int{sx + 14, sy + 1, sz + dz})
				}
				// A platform one high from +20 to +23.
				for dx := 20; dx <= 23; dx++ {
					terrain = append(terrain, [3]int{sx + dx, sy, sz + dz})
				}
			}
			place("stone", terrain...)

			// Walk 32 blocks east over it.
			goal := xyz{float64(sx+32) + 0.5, float64(sy), float64(sz) + 0.5}
			var walked gotoAnswer
			sc.Send(fmt.Sprintf(`{"id":"walk32","tool":"mc_goto","args":{"x":%d,"y":%d,"z":%d,"range":1.5}}`, sx+32, sy, sz))
			// While it walks, mc_map (the console's map) draws the path
			// ahead and the goal east of the bot.
			var drawn struct {
				Path []struct{ DX, DZ int } `json:"path"`
				Goal *struct{ DX, DZ int }  `json:"goal"`
			}
			s.until("mc_map draws the walk", func() bool {
				s.call("mc_map", map[string]any{"radius": 32}, &drawn)
				return len(drawn.Path) > 0 && drawn.Goal != nil && drawn.Goal.DX > 0
			})
			if r := sc.WaitReply(ctx, "walk32"); !r.OK || r.Decode(&walked) != nil {
				t.Fatalf("mc_goto 32 blocks: %+v\nstderr:\n%s", r, sc.Stderr())
			}
			s.call("mc_get_position", nil, &pos)
			if !walked.Arrived || distance(pos.Position, goal) > 1.5 {
				t.Fatalf("mc_goto 32 blocks: %+v; the bot stands at %+v\nstderr:\n%s", walked, pos.Position, sc.Stderr())
			}
			if !hasEvent(sc, "mc_task_progress", `"tool":"mc_goto"`) {
				t.Errorf("a 32-block walk sent no mc_task_progress: %+v", sc.Events())
			}

			// The server agrees: it holds the bot where the bot says it is
			// (flying-squid and mpserver take a client's position packets as
			// they come).
			// The bot's own position is read again each time: a walk ends
			// within range while the body still slides a few ticks to rest.
			s.until("the server's view of the bot", func() bool {
				x, y, z, err := srv.PlayerPosition(ctx, "Theo")
				s.call("mc_get_position", nil, &pos)
				return err == nil && distance(xyz{x, y, z}, pos.Position) < 0.05
			})
			cole := peertest.StartPlayer(t, srv, "cole")

			// "Come here": cole moves away, the bot comes to him.
			coleAt := xyz{float64(sx+6) + 0.5, float64(sy), float64(sz+12) + 0.5}
			// cole moves: on flying-squid he walks there (mineflayer-pathfinder;
			// flying-squid's /tp fails at 1.21.4 with a SizeOf error), on
			// mpserver the console teleports him.
			tp := func(p xyz) {
				t.Helper()
				if c.flavor == peertest.FlavorFlyingSquid {
					if _, _, _, err := cole.Goto(ctx, int(math.Floor(p.X)), int(math.Floor(p.Y)), int(math.Floor(p.Z))); err != nil {
						t.Fatal(err)
					}
				} else if err := srv.Command(fmt.Sprintf("tp cole %.1f %.1f %.1f", p.X, p.Y, p.Z)); err != nil {
					t.Fatal(err)
				}
				s.until("cole moved", func() bool {
					x, y, z, err := cole.Position(ctx)
					return err == nil && distance(xyz{x, y, z}, p) < 0.8
				})
			}
			tp(coleAt)
			s.until("the bot sees cole", func() bool {
				var near struct {
					Players []struct{ Position xyz }
				}
				s.call("mc_nearby", map[string]any{"radius": 64}, &near)
				return len(near.Players) == 1 && distance(near.Players[0].Position, coleAt) < 0.6
			})
			var came gotoAnswer
			s.call("mc_goto_player", map[string]any{"username": "cole", "range": 2}, &came)
			s.call("mc_get_position", nil, &pos)
			if !came.Arrived || distance(pos.Position, coleAt) > 2.2 {
				t.Fatalf("mc_goto_player: %+v; the bot at %+v, cole at %+v", came, pos.Position, coleAt)
			}

			// Follow cole along a route of moves; stop; the next call works.
			follow := make(chan sidecartest.Reply, 1)
			go func() { follow <- sc.Call(ctx, "mc_follow", map[string]any{"username": "cole", "distance": 3}) }()
			route := []xyz{}
			for i := 1; i <= 4; i++ {
				route = append(route, xyz{coleAt.X + float64(4*i), coleAt.Y, coleAt.Z + float64(2*i)})
			}
			for _, p := range route {
				tp(p)
				s.until(fmt.Sprintf("the bot following cole to %+v", p), func() bool {
					s.call("mc_get_position", nil, &pos)
					return distance(pos.Position, p) <= 4.2
				})
			}
			stop := s.call("mc_stop", nil, nil)
			r := <-follow
			if !stop.OK || r.OK || !strings.Contains(r.Error, "stopped") {
				t.Errorf("mc_stop during mc_follow: stop %+v, follow %+v", stop, r)
			}
			s.call("mc_get_position", nil, &pos)
			stoppedAt := pos.Position
			tp(xyz{coleAt.X + 30, coleAt.Y, coleAt.Z})
			var status struct {
				Movement *struct{ Kind string } `json:"movement"`
			}
			s.call("mc_status", nil, &status)
			if status.Movement != nil {
				t.Errorf("after mc_stop mc_status still shows a walk: %+v", status.Movement)
			}
			s.call("mc_get_position", nil, &pos)
			if distance(pos.Position, stoppedAt) > 0.5 {
				t.Errorf("the bot walked on after mc_stop: from %+v to %+v", stoppedAt, pos.Position)
			}

			// "Go to the gold": found, then reached.
			gold := [3]int{sx + 3, sy, sz - 8}
			place("gold_block", gold)
			var found foundBlocks
			s.call("mc_find_blocks", map[string]any{"block_type": "gold_block", "max_distance": 48}, &found)
			if found.Found == 0 {
				t.Fatalf("mc_find_blocks gold_block: %+v", found)
			}
			b := found.Blocks[0].Position
			// ... while following cole again: the walk to the gold takes
			// the legs, and the follow answers that it was taken over
			// (it used to wait for ever, listed by mc_status).
			follow = make(chan sidecartest.Reply, 1)
			go func() { follow <- sc.Call(ctx, "mc_follow", map[string]any{"username": "cole", "distance": 3}) }()
			s.until("the bot following cole again", func() bool {
				s.call("mc_status", nil, &status)
				return status.Movement != nil && status.Movement.Kind == "follow"
			})
			var reached gotoAnswer
			s.call("mc_goto", map[string]any{"x": b.X, "y": b.Y, "z": b.Z, "range": 2}, &reached)
			var followed struct {
				Following bool   `json:"following"`
				Reason    string `json:"reason"`
			}
			if r := <-follow; !r.OK || json.Unmarshal(r.Result, &followed) != nil || followed.Following || followed.Reason != "stopped: mc_goto took over" {
				t.Errorf("mc_follow taken over by mc_goto answered %+v", r)
			}
			var tasks struct {
				Task []struct{ Tool string } `json:"task"`
			}
			s.call("mc_status", nil, &tasks)
			for _, task := range tasks.Task {
				if task.Tool == "mc_follow" {
					t.Errorf("mc_status lists mc_follow after it answered: %+v", tasks.Task)
				}
			}
			s.call("mc_get_position", nil, &pos)
			if !reached.Arrived || distance(pos.Position, xyz{float64(b.X) + 0.5, float64(b.Y), float64(b.Z) + 0.5}) > 2 {
				t.Errorf("mc_goto the gold block at %+v: %+v, the bot at %+v", b, reached, pos.Position)
			}

			// A goal inside a closed box: no path, and why.
			bx, bz := sx-2, sz+20
			var box [][3]int
			for dx := -1; dx <= 1; dx++ {
				for dz := -1; dz <= 1; dz++ {
					for dy := 0; dy <= 3; dy++ {
						if dx == 0 && dz == 0 && (dy == 0 || dy == 1) {
							continue
						}
						box = append(box, [3]int{bx + dx, sy + dy, bz + dz})
					}
				}
			}
			place("stone", box...)
			var boxed gotoAnswer
			s.call("mc_goto", map[string]any{"x": bx, "y": sy, "z": bz, "range": 0.5}, &boxed)
			if boxed.Arrived || !strings.Contains(boxed.Reason, "no path") || !strings.Contains(boxed.Reason, "shut in") || boxed.NextStep == "" {
				t.Errorf("mc_goto into a closed box: %+v", boxed)
			}
			if bad := sc.NonProtocol(); len(bad) > 0 {
				t.Errorf("stdout carried non-protocol lines: %q", bad)
			}
		})
	}
}

func hasEvent(sc *sidecartest.Sidecar, name, contains string) bool {
	for _, e := range sc.Events() {
		if e.Name == name && strings.Contains(string(e.Payload), contains) {
			return true
		}
	}
	return false
}
