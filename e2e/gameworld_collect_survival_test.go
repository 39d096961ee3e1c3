package e2e

import (
	"math"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
)

// TestGameWorldCollect runs mc_goto's x-z form and mc_collect by item
// name (issue 21) in the world the game generated, at 1.21.1 as the game
// saved it, through `blockmate sidecar`, one server for all the steps:
// mc_goto to the ground beside a trunk under the canopy with x and z alone
// and with a y guessed under the ground; dirt collected on grass (grass
// blocks drop dirt); cobblestone with a stone pickaxe given by /give
// (stone drops it); coal (coal ore and deepslate coal ore drop it), which
// near the spawn lies in the stone. After each collect the server's inventory holds what
// the answer says arrived, and mc_get_inventory agrees.
func TestGameWorldCollect(t *testing.T) {
	s, w := startGameWorldScene(t)
	g := &gameScene{skillScene: s, w: w}
	steps := []struct {
		name string
		run  func()
	}{
		{"goes to the ground at x z", g.gotoGround},
		{"collects dirt on grass", func() { g.collectItem("dirt", 3, "") }},
		{"collects cobblestone with a pickaxe", func() { g.collectItem("cobblestone", 3, "stone_pickaxe") }},
		// No coal ore near the spawn has a face on air the bot can walk
		// to: it tunnels, with the pickaxe it was given.
		{"collects coal", func() { g.collectItem("coal", 2, "") }},
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
}

// gotoGround: mc_goto with x and z alone walks to the ground beside the
// nearest trunk (under its leaves), and the server has the bot's feet on
// it; a y guessed under the ground there walks to the surface above it.
func (g *gameScene) gotoGround() {
	g.home()
	var spot [2]int
	var ground int
	found := false
	for _, tr := range g.w.Facts.Trees {
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			x, z := tr.Base[0]+d[0], tr.Base[2]+d[1]
			y, block, ok := g.w.Surface(x, z)
			if ok && (block == "grass_block" || block == "dirt") && g.w.BlockName(x, y+1, z) != "oak_log" && g.w.BlockName(x, y+2, z) == "air" {
				spot, ground, found = [2]int{x, z}, y, true
				break
			}
		}
		if found {
			break
		}
	}
	if !found {
		g.t.Fatal("no trunk in the region has ground beside it")
	}
	for _, args := range []map[string]any{
		{"x": spot[0], "z": spot[1], "range": 1},
		{"x": spot[0], "y": ground - 3, "z": spot[1], "range": 1},
	} {
		var r moveResult
		g.call("mc_goto", args, &r)
		if !r.Arrived {
			g.t.Fatalf("mc_goto %v = %+v", args, r)
		}
		var p skillPlayer
		g.query(&p, "player", g.bot)
		// Within the range (and the half block a bot may stand off a
		// block's middle) of the ground's top: not on the leaves above,
		// nor in the ground.
		dx, dy, dz := p.Pos[0]-float64(spot[0])-0.5, p.Pos[1]-float64(ground+1), p.Pos[2]-float64(spot[1])-0.5
		if math.Sqrt(dx*dx+dy*dy+dz*dz) > 1.5 {
			g.t.Errorf("mc_goto %v arrived; the server has the bot at %v, want within 1 of the ground at %d %d %d", args, p.Pos, spot[0], ground+1, spot[1])
		}
		g.home()
	}
}

// collectItem gives the bot a tool when one is named, then collects count
// of an item by its name and checks the answer against both inventories.
func (g *gameScene) collectItem(item string, count int, tool string) {
	g.home()
	if tool != "" {
		g.give(tool, 1)
	}
	before := g.botCounts()[item]
	var logged []struct {
		Seq int `json:"seq"`
	}
	g.query(&logged, "log", "*", 0)
	since := 0
	if len(logged) > 0 {
		since = logged[len(logged)-1].Seq + 1
	}
	var r struct {
		collectReply
		Dug        int `json:"dug"`
		DugThrough []struct {
			Item  string `json:"item"`
			Count int    `json:"count"`
		} `json:"dug_through"`
	}
	g.call("mc_collect", map[string]any{"item": item, "count": count}, &r)
	g.t.Logf("mc_collect %s %d: %+v", item, count, r)
	// A drop that arrives after the last one counted makes it more than
	// asked; what the answer says arrived must be what the server holds.
	if r.Collected < count || r.Item != item {
		g.t.Fatalf("mc_collect item=%s count=%d = %+v, want at least %d %s", item, count, r, count, item)
	}
	// Never silently: every block the server saw the bot break is in the
	// answer, as dug or as dug through.
	var digs []struct {
		Player    string `json:"player"`
		Block     string `json:"block"`
		Destroyed bool   `json:"destroyed"`
	}
	g.query(&digs, "log", "dig", since)
	broken, told := 0, r.Dug
	for _, d := range digs {
		if d.Player == g.bot && d.Destroyed {
			broken++
		}
	}
	for _, d := range r.DugThrough {
		told += d.Count
	}
	if broken != told {
		g.t.Errorf("the server saw the bot break %d blocks (%+v); the answer names %d", broken, digs, told)
	}
	g.agree(map[string]int{item: before + r.Collected})
}

// startGameWorldScene skips under -short outside CI, then starts a fresh
// copy of the world the game made (1.21.1) on the survival plugin's
// flying-squid and the bot through `blockmate sidecar` in it: the start of
// every goal-level test in the game-made world.
func startGameWorldScene(t *testing.T) (*skillScene, *peertest.GameWorld) {
	t.Helper()
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	w := peertest.StartGameWorld(t, "1.21.1", peertest.GameWorldOptions{})
	return startSkillSceneIn(t, bin, w.SurvivalServer), w
}
