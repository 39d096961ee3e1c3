package e2e

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
)

// blockData is the data number flying-squid's /setblock takes for a block
// state (the state's offset from its block's first) at a game version.
func blockData(t *testing.T, version, state string) (string, int) {
	t.Helper()
	for _, r := range mcdata.Releases() {
		if !slices.Contains(r.Names, version) {
			continue
		}
		g := mcdata.Game(int32(r.Protocol))
		set, err := g.MatchStates(state)
		if err != nil {
			t.Fatal(err)
		}
		for id := mcdata.StateID(0); int(id) < g.NumStates(); id++ {
			if set.Has(id) {
				b := g.BlockOf(id)
				return b.Name, int(id - b.MinState)
			}
		}
	}
	t.Fatalf("no state %s at %s", state, version)
	return "", 0
}

// TestDoorsAndGapsSurvival: through `blockmate sidecar`, on the survival
// plugin's server (flying-squid with doors and gates that answer a
// right-click, testdata/peers/survival/useblocks.js; 1.21.1, 1.21.3 and
// 1.21.4 side by side, each its own server), the bot walks into a
// walled yard whose only way in is a closed oak fence gate, then a closed
// oak door, and whose far side is cut off by a trench two deep from wall
// to wall (a one-block gap). mc_goto arrives on the far side; the server
// holds the gate and the door open and the bot standing beyond the trench
// on its floor, not in it.
func TestDoorsAndGapsSurvival(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	for _, version := range []string{"1.21.1", "1.21.3", "1.21.4"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			doorsAndGaps(t, bin, version)
		})
	}
}

func doorsAndGaps(t *testing.T, bin, version string) {
	s := startSkillScene(t, bin, version, peertest.SurvivalOptions{})
	sc := s.sc
	sx, sy, sz := s.at[0], s.at[1], s.at[2]

	// The yard, east of the bot: x +6 a wall with the gate at z 0, x +8 a
	// wall with the door at z 0, walls at z ±2 and x +13, all two high; the
	// trench at x +10 from wall to wall, its floor three below the ground.
	set := func(x, y, z int, block string, data int) {
		t.Helper()
		s.command(fmt.Sprintf("setblock %d %d %d %s %d", sx+x, sy+y, sz+z, block, data))
	}
	for z := -2; z <= 2; z++ {
		for y := 0; y <= 1; y++ {
			if z != 0 {
				set(6, y, z, "stone", 0)
				set(8, y, z, "stone", 0)
			}
			if z >= -1 && z <= 1 {
				set(13, y, z, "stone", 0)
			}
		}
	}
	for x := 6; x <= 13; x++ {
		for y := 0; y <= 1; y++ {
			set(x, y, -2, "stone", 0)
			set(x, y, 2, "stone", 0)
		}
	}
	for z := -1; z <= 1; z++ {
		set(10, -1, z, "air", 0)
		set(10, -2, z, "air", 0)
	}
	gate, gateData := blockData(t, version, "oak_fence_gate[facing=east,in_wall=false,open=false,powered=false]")
	door, lowerData := blockData(t, version, "oak_door[facing=east,half=lower,hinge=left,open=false,powered=false]")
	_, upperData := blockData(t, version, "oak_door[facing=east,half=upper,hinge=left,open=false,powered=false]")
	set(6, 0, 0, gate, gateData)
	set(6, 1, 0, "air", 0)
	set(8, 0, 0, door, lowerData)
	set(8, 1, 0, door, upperData)

	// The bot sees the yard as the server holds it.
	sees := func(x, y, z int, want string) {
		t.Helper()
		var at struct{ Block string }
		s.eventually(fmt.Sprintf("the bot sees %s at %+d %+d %+d", want, x, y, z), func() bool {
			s.call("mc_block_at", map[string]any{"x": sx + x, "y": sy + y, "z": sz + z}, &at)
			return at.Block == want
		}, func() string { return at.Block })
	}
	sees(10, -2, 1, "air")
	sees(13, 1, 1, "stone")
	sees(6, 0, 0, gate)
	sees(8, 1, 0, door)

	var walked gotoAnswer
	s.call("mc_goto", map[string]any{"x": sx + 12, "y": sy, "z": sz, "range": 1}, &walked)
	if !walked.Arrived {
		t.Fatalf("mc_goto into the yard: %+v\nstderr:\n%s", walked, sc.Stderr())
	}

	// The server agrees: the gate and the door stand open, and the bot
	// stands beyond the trench on the yard's floor.
	var block struct {
		Name       string         `json:"name"`
		Properties map[string]any `json:"properties"`
	}
	for _, b := range []struct {
		name string
		x, y int
	}{{gate, 6, 0}, {door, 8, 0}, {door, 8, 1}} {
		s.query(&block, "block", sx+b.x, sy+b.y, sz)
		if block.Name != b.name || block.Properties["open"] != true {
			t.Errorf("the server holds %s %+v at %+d %+d 0; want it open", block.Name, block.Properties, b.x, b.y)
		}
	}
	var p skillPlayer
	s.eventually("the server holds the bot beyond the trench", func() bool {
		s.query(&p, "player", s.bot)
		return p.Pos[0] > float64(sx+11) && math.Abs(p.Pos[1]-float64(sy)) < 1e-6 && p.Pos[2] > float64(sz-1) && p.Pos[2] < float64(sz+2)
	}, func() string { return fmt.Sprint(p.Pos) })
	if bad := sc.NonProtocol(); len(bad) > 0 {
		t.Errorf("stdout carried non-protocol lines: %q", bad)
	}
}
