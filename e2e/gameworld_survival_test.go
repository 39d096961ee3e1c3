package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// TestGameWorld runs `blockmate sidecar` in the world the game generated
// (peertest.StartGameWorld: forest, a lake, hills, caves, ores behind
// stone), with today's tools, at 1.21.1 as the game saved it and at 1.21.4
// converted by block name: one server per version for all the steps. A
// mineflayer player is there before the bot, as players usually are.
//
// The steps prove the world and the harness; mc_collect's is a record of
// what the tool does there today (issue 21), checked only for honesty (the
// answer matches the server's inventory).
func TestGameWorld(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	// 1.21.4 runs at view distance 2, so chunks load as the bot walks.
	for _, c := range []struct {
		version string
		view    int
	}{{"1.21.1", 4}, {"1.21.4", 2}} {
		version := c.version
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			w := peertest.StartGameWorld(t, version, peertest.GameWorldOptions{ViewDistance: c.view})
			// alex is in the world before the bot joins.
			alex := peertest.StartSurvivor(t, w.Server, "alex")
			s := startSkillSceneIn(t, bin, w.SurvivalServer)
			g := &gameScene{skillScene: s, w: w, alex: alex}
			steps := []struct {
				name string
				run  func()
			}{
				{"sees the player already there", g.seesAlex},
				{"chunks match the region", g.chunksMatch},
				{"finds the trees", g.findsTrees},
				{"maps forest and lake", g.mapsForestAndLake},
				{"walks among trees", g.walksAmongTrees},
				{"collects oak logs", g.collectsLogs},
				{"both see each other dig", g.digsBothWays},
				{"loads chunks as it walks", func() { g.loadsChunksWalking(c.view) }},
			}
			for _, st := range steps {
				t.Run(st.name, func(t *testing.T) {
					s.t = t
					st.run()
				})
			}
			s.t = t
			if errs := w.Events("error"); len(errs) > 0 {
				t.Errorf("the server reported errors: %+v", errs)
			}
		})
	}
}

// startSkillSceneIn is startSkillScene on a server already running.
func startSkillSceneIn(t *testing.T, bin string, srv *peertest.SurvivalServer) *skillScene {
	sc := sidecartest.Start(t, bin)
	ctx, cancel := testctx.New(t)
	t.Cleanup(cancel)
	s := &skillScene{t: t, ctx: ctx, srv: srv, sc: sc, bot: "Theo"}
	if r := sc.Call(ctx, "mc_join", map[string]any{"port": srv.Port, "username": s.bot}); !r.OK {
		t.Fatalf("mc_join: %s\n%s", r.Error, sc.Stderr())
	}
	var p skillPlayer
	s.eventually("the bot's join is over on the server", func() bool {
		s.query(&p, "player", s.bot)
		return p.Joined
	}, func() string { return fmt.Sprint(p) })
	s.at = [3]int{int(math.Floor(p.Pos[0])), int(math.Floor(p.Pos[1])), int(math.Floor(p.Pos[2]))}
	return s
}

type gameScene struct {
	*skillScene
	w     *peertest.GameWorld
	alex  *peertest.Survivor
	batch int // blocksAt's calls so far
}

// seesAlex: the bot, who joined after alex, lists alex and sees where he
// stands; alex sees the bot.
func (g *gameScene) seesAlex() {
	type listed struct {
		Username string `json:"username"`
		Position *struct {
			X, Y, Z float64
		} `json:"position"`
		IsBot bool `json:"is_bot"`
	}
	var list struct {
		Players []listed `json:"players"`
	}
	var alex *listed
	g.eventually("the bot lists alex with his position", func() bool {
		g.call("mc_list_players", nil, &list)
		alex = nil
		for i, p := range list.Players {
			if p.Username == "alex" {
				alex = &list.Players[i]
			}
		}
		return alex != nil && alex.Position != nil
	}, func() string { return fmt.Sprintf("%+v", list.Players) })
	sp := g.w.Facts.Spawn
	if math.Abs(alex.Position.X-float64(sp[0])-0.5) > 1 || math.Abs(alex.Position.Z-float64(sp[2])-0.5) > 1 {
		g.t.Errorf("the bot sees alex at %+v; he stands at the spawn %v", *alex.Position, sp)
	}
	var nearby struct {
		Players []struct {
			Username string `json:"username"`
		} `json:"players"`
	}
	g.call("mc_nearby", map[string]any{"radius": 16}, &nearby)
	if len(nearby.Players) != 1 || nearby.Players[0].Username != "alex" {
		g.t.Errorf("mc_nearby players = %+v, want alex", nearby.Players)
	}
	if err := g.alex.Do(g.ctx, nil, map[string]any{"cmd": "waitPlayer", "username": g.bot}); err != nil {
		g.t.Errorf("alex never saw the bot: %v", err)
	}
}

// blocksAt asks mc_block_at for every position, many calls in flight at
// once, and returns each block as "name[prop=value,…]". Each call has an
// id of its own (the sidecar's replies are kept by id).
func (g *gameScene) blocksAt(ps [][3]int) []string {
	g.t.Helper()
	out := make([]string, len(ps))
	const window = 64
	g.batch++
	prefix := "b" + strconv.Itoa(g.batch) + "."
	send := func(i int) {
		line, _ := json.Marshal(map[string]any{"id": prefix + strconv.Itoa(i), "tool": "mc_block_at", "args": map[string]int{"x": ps[i][0], "y": ps[i][1], "z": ps[i][2]}})
		g.sc.Send(string(line))
	}
	for i := 0; i < len(ps) && i < window; i++ {
		send(i)
	}
	for i := range ps {
		r := g.sc.WaitReply(g.ctx, prefix+strconv.Itoa(i))
		if i+window < len(ps) {
			send(i + window)
		}
		var b struct {
			Block string            `json:"block"`
			State map[string]string `json:"state"`
		}
		if err := r.Decode(&b); err != nil {
			g.t.Fatalf("mc_block_at %v: %v", ps[i], err)
		}
		var kv []string
		for k, v := range b.State {
			kv = append(kv, k+"="+v)
		}
		sort.Strings(kv)
		out[i] = b.Block
		if len(kv) > 0 {
			out[i] += "[" + strings.Join(kv, ",") + "]"
		}
	}
	return out
}

// chunksMatch: the bot's blocks are prismarine-chunk's reading of the
// served region, block for block, in two whole chunk columns (the spawn's,
// and the one holding the nearest buried iron ore), from the bottom of
// the world to the highest block of the land; and mc_nearby's count of
// every block kind in the 33-block cube around the bot is the region's.
func (g *gameScene) chunksMatch() {
	f := &g.w.Facts
	top := f.MinY
	for _, y := range f.Surface.Top {
		top = max(top, y)
	}
	iron := f.Ores["iron_ore"].NearestBuried.Position
	chunks := [][2]int{{f.Spawn[0] >> 4, f.Spawn[2] >> 4}, {iron[0] >> 4, iron[2] >> 4}}
	if chunks[1] == chunks[0] {
		chunks[1][0]++
	}
	for _, c := range chunks {
		var ps [][3]int
		for y := f.MinY; y <= top; y++ {
			for z := 0; z < 16; z++ {
				for x := 0; x < 16; x++ {
					ps = append(ps, [3]int{c[0]*16 + x, y, c[1]*16 + z})
				}
			}
		}
		got := g.blocksAt(ps)
		bad := 0
		kinds := map[string]bool{}
		for i, p := range ps {
			want := g.w.Block(p[0], p[1], p[2])
			kinds[want] = true
			if got[i] != want {
				if bad++; bad <= 10 {
					g.t.Errorf("chunk %v: the bot has %s at %v, the region %s", c, got[i], p, want)
				}
			}
		}
		if bad > 0 {
			g.t.Errorf("chunk %v: %d of %d blocks differ", c, bad, len(ps))
		}
		g.t.Logf("chunk %v: %d blocks (y %d to %d, %d block states) as the region has them", c, len(ps), f.MinY, top, len(kinds))
	}

	var nearby struct {
		Blocks       map[string]int `json:"blocks"`
		BlocksRadius int            `json:"blocks_radius"`
	}
	g.call("mc_nearby", map[string]any{"radius": 16}, &nearby)
	r := nearby.BlocksRadius
	want := map[string]int{}
	for x := g.at[0] - r; x <= g.at[0]+r; x++ {
		for y := g.at[1] - r; y <= g.at[1]+r; y++ {
			for z := g.at[2] - r; z <= g.at[2]+r; z++ {
				if n := g.w.BlockName(x, y, z); n != "air" && n != "cave_air" {
					want[n]++
				}
			}
		}
	}
	// mc_nearby lists the 32 most common kinds: compare those.
	for name, n := range nearby.Blocks {
		if want[name] != n {
			g.t.Errorf("mc_nearby counts %d %s in the cube of %d around %v, the region %d", n, name, r, g.at, want[name])
		}
	}
	if len(nearby.Blocks) < min(len(want), 32) {
		g.t.Errorf("mc_nearby counts %d kinds, the region has %d in the cube", len(nearby.Blocks), len(want))
	}
}

// findsTrees: mc_find_blocks oak_log answers the oak logs nearest the bot
// that the region has, at the region's distances.
func (g *gameScene) findsTrees() {
	var r struct {
		Found  int `json:"found"`
		Blocks []struct {
			Position struct{ X, Y, Z int } `json:"position"`
			Distance float64               `json:"distance"`
			Block    string                `json:"block"`
		} `json:"blocks"`
		Reason string `json:"reason"`
	}
	const radius, count = 32, 64
	g.call("mc_find_blocks", map[string]any{"block_type": "oak_log", "max_distance": radius, "count": count}, &r)
	// The region's oak logs within the radius of the bot's feet, nearest
	// first.
	var want []float64
	for x := g.at[0] - radius; x <= g.at[0]+radius; x++ {
		for y := g.at[1] - radius; y <= g.at[1]+radius; y++ {
			for z := g.at[2] - radius; z <= g.at[2]+radius; z++ {
				dx, dy, dz := x-g.at[0], y-g.at[1], z-g.at[2]
				if d2 := dx*dx + dy*dy + dz*dz; d2 <= radius*radius && g.w.BlockName(x, y, z) == "oak_log" {
					want = append(want, math.Round(math.Sqrt(float64(d2))*10)/10)
				}
			}
		}
	}
	sort.Float64s(want)
	if len(want) > count {
		want = want[:count]
	}
	if r.Found != len(want) {
		g.t.Errorf("mc_find_blocks oak_log found %d, the region has %d within %d blocks (%s)", r.Found, len(want), radius, r.Reason)
	}
	for i, b := range r.Blocks {
		if n := g.w.BlockName(b.Position.X, b.Position.Y, b.Position.Z); n != "oak_log" {
			g.t.Errorf("mc_find_blocks found oak_log at %+v, the region has %s", b.Position, n)
		}
		if i < len(want) && b.Distance != want[i] {
			g.t.Errorf("the %d. oak log found is %.1f blocks away, the region's %d. nearest %.1f", i+1, b.Distance, i+1, want[i])
		}
	}
	trunks := map[[2]int]bool{}
	for _, b := range r.Blocks {
		trunks[[2]int{b.Position.X, b.Position.Z}] = true
	}
	g.t.Logf("mc_find_blocks oak_log: %d logs in %d columns within %d blocks, the nearest %.1f blocks away", r.Found, len(trunks), radius, r.Blocks[0].Distance)
}

// mapsForestAndLake: mc_map around the bot shows the lake's water, the
// canopy and the trunks.
func (g *gameScene) mapsForestAndLake() {
	var m struct {
		Rows   []string          `json:"rows"`
		Legend map[string]string `json:"legend"`
	}
	g.call("mc_map", map[string]any{"radius": 24}, &m)
	seen := map[string]int{}
	for _, row := range m.Rows {
		for _, ch := range row {
			seen[m.Legend[string(ch)]]++
		}
	}
	// The map's legend names kinds of ground: the lake is water, the
	// canopy leaves, the clearings grass, and the trunks under the
	// canopy wood.
	for _, want := range []string{"water", "leaves", "grass", "wood"} {
		if seen[want] == 0 {
			g.t.Errorf("mc_map shows no %s: %v", want, seen)
		}
	}
	g.t.Logf("mc_map radius 24 around %v:\n%s\nlegend %v", g.at, strings.Join(m.Rows, "\n"), m.Legend)
}

// walksAmongTrees: mc_goto to the ground beside a trunk 10 to 20 blocks
// away, under the canopy; the server has the bot there.
func (g *gameScene) walksAmongTrees() {
	var goal [3]int
	var tree peertest.Tree
	for _, tr := range g.w.Facts.Trees {
		if tr.Kind != "oak_log" || tr.Distance < 10 || tr.Distance > 20 {
			continue
		}
		// a standable block next to the trunk
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			x, z := tr.Base[0]+d[0], tr.Base[2]+d[1]
			y, block, ok := g.w.Surface(x, z)
			if ok && y == tr.Base[1]-1 && block != "water" && g.w.Block(x, y+1, z) == "air" && g.w.Block(x, y+2, z) == "air" {
				goal, tree = [3]int{x, y + 1, z}, tr
				break
			}
		}
		if goal != ([3]int{}) {
			break
		}
	}
	if goal == ([3]int{}) {
		g.t.Fatal("no oak 10 to 20 blocks from the spawn with ground beside its trunk")
	}
	var r moveResult
	g.call("mc_goto", map[string]any{"x": goal[0], "y": goal[1], "z": goal[2], "range": 1}, &r)
	g.t.Logf("mc_goto %v (beside the oak at %v, %.1f blocks from the spawn): %+v", goal, tree.Base, tree.Distance, r)
	if !r.Arrived {
		g.t.Errorf("mc_goto %v: %+v", goal, r)
		return
	}
	var p skillPlayer
	g.query(&p, "player", g.bot)
	if d := math.Hypot(p.Pos[0]-float64(goal[0])-0.5, p.Pos[2]-float64(goal[2])-0.5); d > 1.5 || math.Abs(p.Pos[1]-float64(goal[1])) > 1 {
		g.t.Errorf("the server has the bot at %v, %.1f blocks from %v", p.Pos, d, goal)
	}
}

// inView is the game's ChunkTrackingView.isWithinDistance with the edge:
// the chunks a server sends a player whose chunk is cx, cz.
func inView(cx, cz, view, x, z int) bool {
	i := max(0, abs(x-cx)-1)
	j := max(0, abs(z-cz)-1)
	l := max(0, max(i, j)-1)
	m := min(i, j)
	return m*m+l*l < view*view
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// loadsChunksWalking: at a small view distance, a chunk of the land that
// is out of view from the spawn arrives once the bot has walked to where
// it is in view, block for block as the region has it.
func (g *gameScene) loadsChunksWalking(view int) {
	g.home()
	f := &g.w.Facts
	sc := [2]int{f.Spawn[0] >> 4, f.Spawn[2] >> 4}
	var far *[2]int
	for _, c := range f.Land.Chunks {
		if !inView(sc[0], sc[1], view, c[0], c[1]) {
			far = &c
			break
		}
	}
	if far == nil {
		g.t.Skipf("at view distance %d every chunk of the land is in view from the spawn", view)
	}
	// A trunk whose chunk has the far chunk in view, nearest the spawn,
	// with dry ground beside it.
	var goal [3]int
	for _, tr := range f.Trees {
		if !inView(tr.Base[0]>>4, tr.Base[2]>>4, view, far[0], far[1]) {
			continue
		}
		x, z := tr.Base[0]+1, tr.Base[2]
		if y, block, ok := g.w.Surface(x, z); ok && y == tr.Base[1]-1 && block != "water" && g.w.Block(x, y+1, z) == "air" && g.w.Block(x, y+2, z) == "air" {
			goal = [3]int{x, y + 1, z}
			break
		}
	}
	if goal == ([3]int{}) {
		g.t.Fatalf("no tree from which chunk %v is in view", *far)
	}
	probe := [3]int{far[0]*16 + 8, 0, far[1]*16 + 8}
	probe[1], _, _ = g.w.Surface(probe[0], probe[2])
	if r := g.sc.Call(g.ctx, "mc_block_at", map[string]any{"x": probe[0], "y": probe[1], "z": probe[2]}); r.OK {
		g.t.Errorf("chunk %v is out of the spawn's view at distance %d, and the bot has it: %s", *far, view, r.Result)
	}
	var r moveResult
	g.call("mc_goto", map[string]any{"x": goal[0], "y": goal[1], "z": goal[2], "range": 1}, &r)
	if !r.Arrived {
		g.t.Fatalf("mc_goto %v: %+v", goal, r)
	}
	want := g.w.Block(probe[0], probe[1], probe[2])
	var got string
	g.eventually(fmt.Sprintf("chunk %v arrives once the bot stands at %v", *far, goal), func() bool {
		rep := g.sc.Call(g.ctx, "mc_block_at", map[string]any{"x": probe[0], "y": probe[1], "z": probe[2]})
		if !rep.OK {
			got = rep.Error
			return false
		}
		got = g.blocksAt([][3]int{probe})[0]
		return true
	}, func() string { return got })
	if got != want {
		g.t.Errorf("the bot has %s at %v, the region %s", got, probe, want)
	}
	g.t.Logf("view distance %d: chunk %v, out of view from the spawn, arrived when the bot walked to %v (%d steps)", view, *far, goal, r.Walked)
}

// moveResult is mc_goto's answer.
type moveResult struct {
	Arrived  bool `json:"arrived"`
	Position struct {
		X, Y, Z float64
	} `json:"position"`
	Walked   int    `json:"walked"`
	Reason   string `json:"reason"`
	NextStep string `json:"next_step"`
}

// collectsLogs runs the protocol's worked example's first step,
// mc_collect oak_log 4, and records what happens (the time it took, what
// the server saw dug, the logs left on the ground); the answer must match
// the server's inventory.
func (g *gameScene) collectsLogs() {
	g.home()
	var before []struct {
		Seq int `json:"seq"`
	}
	g.query(&before, "log", "*", 0)
	since := 0
	if len(before) > 0 {
		since = before[len(before)-1].Seq + 1
	}
	var r collectReply
	start := time.Now()
	rep := g.sc.Call(g.ctx, "mc_collect", map[string]any{"block_type": "oak_log", "count": 4})
	took := time.Since(start)
	if !rep.OK {
		g.t.Logf("mc_collect oak_log 4 failed: %s", rep.Error)
	} else if err := rep.Decode(&r); err != nil {
		g.t.Fatal(err)
	}
	var digs []struct {
		Verdict string `json:"verdict"`
		Block   string `json:"block"`
		Pos     []int  `json:"pos"`
		Player  string `json:"player"`
	}
	g.query(&digs, "log", "dig", since)
	var dug []string
	for _, d := range digs {
		if d.Player == g.bot && d.Verdict != "started" {
			dug = append(dug, fmt.Sprintf("%s %v %s", d.Block, d.Pos, d.Verdict))
		}
	}
	var items []struct {
		Item  string    `json:"item"`
		Count int       `json:"count"`
		Pos   []float64 `json:"pos"`
	}
	g.query(&items, "items")
	var left []string
	for _, it := range items {
		if it.Item == "oak_log" {
			left = append(left, fmt.Sprintf("%d at %.1f %.1f %.1f", it.Count, it.Pos[0], it.Pos[1], it.Pos[2]))
		}
	}
	var inv skillInventory
	g.query(&inv, "inventory", g.bot)
	g.t.Logf("mc_collect oak_log 4 in %.1f s: %s; the server saw the bot dig %d blocks: %s; oak logs left on the ground: %v; the server's inventory: %v",
		took.Seconds(), rep.Result, len(dug), strings.Join(dug, "; "), left, inv.Counts)
	if rep.OK && inv.Counts["oak_log"] != r.Collected {
		// Items may still be on their way: wait for the server to agree.
		g.agree(map[string]int{"oak_log": r.Collected})
	}
}

// digsBothWays: alex digs a block beside the bot and the bot sees it
// gone; the bot digs one beside alex and alex sees it gone; the server
// agrees with both.
func (g *gameScene) digsBothWays() {
	g.home()
	sp := g.w.Facts.Spawn
	// alex stands at the spawn; the bot at its home (the spawn too).
	ground := func(x, z int) [3]int {
		y, _, _ := g.w.Surface(x, z)
		return [3]int{x, y, z}
	}
	a, b := ground(sp[0]+1, sp[2]), ground(sp[0]-1, sp[2])
	if err := g.alex.Do(g.ctx, nil, map[string]any{"cmd": "dig", "pos": a}); err != nil {
		g.t.Fatalf("alex digs %s at %v: %v", g.w.Block(a[0], a[1], a[2]), a, err)
	}
	var blk struct {
		Block string `json:"block"`
	}
	g.eventually(fmt.Sprintf("the bot sees alex's dig at %v", a), func() bool {
		g.call("mc_block_at", map[string]any{"x": a[0], "y": a[1], "z": a[2]}, &blk)
		return blk.Block == "air"
	}, func() string { return blk.Block })

	var dug struct {
		Dug    bool   `json:"dug"`
		Block  string `json:"block"`
		Reason string `json:"reason"`
	}
	g.call("mc_dig", map[string]any{"x": b[0], "y": b[1], "z": b[2]}, &dug)
	if !dug.Dug {
		g.t.Fatalf("mc_dig %v (%s): %+v", b, g.w.Block(b[0], b[1], b[2]), dug)
	}
	if err := g.alex.Do(g.ctx, nil, map[string]any{"cmd": "waitBlock", "pos": b, "name": "air"}); err != nil {
		g.t.Errorf("alex never saw the bot's dig at %v: %v", b, err)
	}
	for _, p := range [][3]int{a, b} {
		var sb struct {
			Name string `json:"name"`
		}
		g.query(&sb, "block", p[0], p[1], p[2])
		if sb.Name != "air" {
			g.t.Errorf("the server has %s at %v after the dig", sb.Name, p)
		}
	}
}
