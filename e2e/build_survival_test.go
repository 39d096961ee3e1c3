//go:build hut

// The survival hut does not pass reliably yet: after alex's teleport 48
// blocks from the spawn the mineflayer player (and at times the bot) never
// gets the chunks there from the game-world server, and the test waits
// until its deadline. It runs with `go test -tags hut ./e2e -run
// TestBuildHutSurvival` until that is found; CI leaves it out rather than
// fail on it.

package e2e

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
)

// TestBuildHutSurvival: through `blockmate sidecar`, in the world the game
// generated (1.21.1, survival rules, one server for every step), the bot
// prepares a 5×5 hut of oak planks two high with an oak door, with
// materials given by /give. alex, a mineflayer player, puts cobblestone
// where one wall block goes between the prepare and the apply: the apply
// reports it as a conflict and leaves it, and places the rest from the
// inventory; mineflayer's blockAt agrees with the plan for every other
// block. The same apply again with its key does nothing twice. The undo
// takes the hut away, names the block it left, and leaves alex's
// cobblestone.
func TestBuildHutSurvival(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	t.Setenv("BLOCKMATE_DIR", t.TempDir())
	bin := sidecartest.Build(t)
	w := peertest.StartGameWorld(t, "1.21.1", peertest.GameWorldOptions{ViewDistance: 4})
	alex := peertest.StartSurvivor(t, w.Server, "alex")
	s := startSkillSceneIn(t, bin, w.SurvivalServer)

	x0, gy, z0 := flatSpot(t, w, s.at)
	// The door is in the west wall, facing east: the way someone looks
	// who walks in from the west.
	door := [3]int{x0, gy, z0 + 2}
	recipe := map[string]any{"version": 1, "operations": []any{
		map[string]any{"op": "box", "min": posArg(x0, gy, z0), "max": posArg(x0+4, gy+1, z0+4), "block": "oak_planks", "walls": true},
		map[string]any{"op": "line", "from": posArg(door[0], gy, door[2]), "to": posArg(door[0], gy, door[2]), "block": "oak_door[facing=east,half=lower]"},
		map[string]any{"op": "line", "from": posArg(door[0], gy+1, door[2]), "to": posArg(door[0], gy+1, door[2]), "block": "oak_door[facing=east,half=upper]"},
	}}
	want := map[[3]int]string{}
	for y := gy; y <= gy+1; y++ {
		for x := x0; x <= x0+4; x++ {
			for z := z0; z <= z0+4; z++ {
				if x == x0 || x == x0+4 || z == z0 || z == z0+4 {
					want[[3]int{x, y, z}] = "oak_planks"
				}
			}
		}
	}
	want[door] = "oak_door[facing=east,half=lower,hinge=left,open=false,powered=false]"
	want[[3]int{door[0], gy + 1, door[2]}] = "oak_door[facing=east,half=upper,hinge=left,open=false,powered=false]"

	// The bot has the hut's chunks before anything is asked of them.
	var seenRegion struct {
		Unloaded []any `json:"unloaded"`
		Loaded   int   `json:"loaded"`
	}
	s.eventually("the bot has the hut's chunks", func() bool {
		s.call("mc_region_inspect", map[string]any{"min": posArg(x0-2, gy-1, z0-2), "max": posArg(x0+6, gy+2, z0+6)}, &seenRegion)
		return len(seenRegion.Unloaded) == 0
	}, func() string { return fmt.Sprintf("%d loaded, unloaded %v", seenRegion.Loaded, seenRegion.Unloaded) })
	// The plants on the hut's square go, so the plan starts from air.
	for x := x0; x <= x0+4; x++ {
		for z := z0; z <= z0+4; z++ {
			for y := gy; y <= gy+2; y++ {
				if w.Block(x, y, z) != "air" {
					s.setblock([3]int{x, y, z}, "air")
				}
			}
		}
	}
	s.give("oak_planks", 32)
	s.give("oak_door", 1)
	s.give("iron_axe", 1)

	type material struct {
		Item       string `json:"item"`
		Need, Have int
	}
	var prep struct {
		PlanID        string     `json:"plan_id"`
		PlanHash      string     `json:"plan_hash"`
		ChangedBlocks int        `json:"changed_blocks"`
		Materials     []material `json:"materials"`
	}
	s.call("mc_build_prepare", map[string]any{"recipe": recipe}, &prep)
	if prep.ChangedBlocks != 32 || len(prep.Materials) != 2 {
		t.Fatalf("prepare: %+v", prep)
	}

	// alex walks up to the south-east corner and puts cobblestone there.
	corner := [3]int{x0 + 4, gy, z0 + 4}
	if err := w.Give("alex", "cobblestone", 1); err != nil {
		t.Fatal(err)
	}
	if err := w.Teleport("alex", float64(x0+6)+0.5, float64(gy), float64(z0+4)+0.5); err != nil {
		t.Fatal(err)
	}
	if err := alex.Do(s.ctx, nil, map[string]any{"cmd": "waitPosition", "pos": []float64{float64(x0+6) + 0.5, float64(gy), float64(z0+4) + 0.5}}); err != nil {
		t.Fatal(err)
	}
	if err := alex.Do(s.ctx, nil, map[string]any{"cmd": "waitItem", "item": "cobblestone", "count": 1}); err != nil {
		t.Fatal(err)
	}
	if err := alex.Do(s.ctx, nil, map[string]any{"cmd": "place", "item": "cobblestone", "against": []int{corner[0], gy - 1, corner[2]}, "face": []int{0, 1, 0}}); err != nil {
		t.Fatalf("alex places cobblestone: %v\n%s", err, alex.Log())
	}
	var seen struct {
		Block string `json:"block"`
	}
	s.eventually("the bot sees alex's cobblestone", func() bool {
		s.call("mc_block_at", map[string]any{"x": corner[0], "y": corner[1], "z": corner[2]}, &seen)
		return seen.Block == "cobblestone"
	}, func() string { return seen.Block })

	type conflict struct {
		Pos   struct{ X, Y, Z int } `json:"pos"`
		Found string                `json:"found"`
	}
	type applied struct {
		OperationID string     `json:"operation_id"`
		Status      string     `json:"status"`
		Placed      int        `json:"placed"`
		Conflicts   []conflict `json:"conflicts"`
		Mismatches  []any      `json:"mismatches"`
		Repeated    bool       `json:"repeated"`
		Reason      string     `json:"reason"`
	}
	apply := func(plan, hash, key string) applied {
		var r applied
		s.call("mc_build_apply", map[string]any{"plan_id": plan, "plan_hash": hash, "idempotency_key": key}, &r)
		return r
	}
	res := apply(prep.PlanID, prep.PlanHash, "hut-1")
	if res.Status != "applied" || res.Placed != 31 || len(res.Conflicts) != 1 || len(res.Mismatches) != 0 {
		t.Fatalf("apply: %+v\n%s", res, s.sc.Stderr())
	}
	if c := res.Conflicts[0]; [3]int{c.Pos.X, c.Pos.Y, c.Pos.Z} != corner || c.Found != "cobblestone" {
		t.Fatalf("the conflict: %+v", c)
	}
	want[corner] = "cobblestone"
	s.eventually("mineflayer sees the hut as planned", func() bool { return len(mineflayerDiffers(t, s, alex, want)) == 0 },
		func() string { return strings.Join(mineflayerDiffers(t, s, alex, want), "; ") })

	// The same key again answers with the same operation and uses nothing.
	counts := s.botCounts()
	again := apply(prep.PlanID, prep.PlanHash, "hut-1")
	if again.OperationID != res.OperationID || !again.Repeated || again.Placed != 31 {
		t.Fatalf("the repeated apply: %+v", again)
	}
	if now := s.botCounts(); now["oak_planks"] != counts["oak_planks"] || now["oak_door"] != counts["oak_door"] {
		t.Fatalf("the repeated apply used materials: %v, then %v", counts, now)
	}

	var undo struct {
		PlanID        string     `json:"plan_id"`
		PlanHash      string     `json:"plan_hash"`
		ChangedBlocks int        `json:"changed_blocks"`
		Kept          []any      `json:"kept"`
		Untouched     []conflict `json:"untouched"`
	}
	s.call("mc_build_undo_prepare", map[string]any{"operation_id": res.OperationID}, &undo)
	if undo.ChangedBlocks != 31 || len(undo.Kept) != 0 || len(undo.Untouched) != 1 || undo.Untouched[0].Found != "cobblestone" {
		t.Fatalf("undo: %+v", undo)
	}
	ur := apply(undo.PlanID, undo.PlanHash, "hut-1-undo")
	if ur.Status != "applied" || ur.Placed != 31 || len(ur.Conflicts) != 0 {
		t.Fatalf("the undo's apply: %+v\n%s", ur, s.sc.Stderr())
	}
	for p := range want {
		if p != corner {
			want[p] = "air"
		}
	}
	s.eventually("mineflayer sees the hut gone but for alex's block", func() bool { return len(mineflayerDiffers(t, s, alex, want)) == 0 },
		func() string { return strings.Join(mineflayerDiffers(t, s, alex, want), "; ") })
	if errs := w.Events("error"); len(errs) > 0 {
		t.Errorf("the server reported errors: %+v", errs)
	}
}

func posArg(x, y, z int) map[string]int { return map[string]int{"x": x, "y": y, "z": z} }

// flatSpot finds, nearest the bot, a 5×5 square of grass or dirt at one
// height with no tree over it (plants the scene clears), around it a ring
// of ground within a block of its height to walk on, and two blocks west
// of the door such ground to stand on while placing it; its floor is within two blocks of the bot's feet. It answers
// the square's north-west corner and the feet's level on it. The world is
// the game's, so the spot is always the same.
func flatSpot(t *testing.T, w *peertest.GameWorld, at [3]int) (x, y, z int) {
	t.Helper()
	f := &w.Facts
	l := f.Land
	// clear says the three blocks over the ground are air or plants (grass,
	// flowers: the scene clears them from the hut's square); a canopy
	// higher up is no matter, a trunk or low leaves are.
	column := func(x, z int) (ground int, clear, grass bool) {
		if !w.InLand(x, z) {
			return 0, false, false
		}
		i := (z-l.MinZ)*(l.MaxX-l.MinX+1) + (x - l.MinX)
		name := f.Surface.Names[f.Surface.Block[i]]
		g := f.Surface.Y[i]
		clear = name != "water" && name != "lava"
		for y := g + 1; y <= g+3 && clear; y++ {
			b := w.BlockName(x, y, z)
			for _, solid := range []string{"log", "leaves", "wood", "water", "lava", "stone", "dirt", "grass_block", "sand", "gravel", "mushroom_block"} {
				if strings.Contains(b, solid) {
					clear = false
				}
			}
		}
		return g, clear, name == "grass_block" || name == "dirt"
	}
	type spot struct{ x, z, y int }
	var found []spot
	for dx := -30; dx <= 30; dx++ {
		for dz := -30; dz <= 30; dz++ {
			hx, hz := at[0]+dx, at[2]+dz
			ground, clear, grass := column(hx, hz)
			if !clear || !grass || ground+1 < at[1]-2 || ground+1 > at[1]+2 {
				continue
			}
			approach, c, _ := column(hx-2, hz+2)
			ok := c && approach >= ground-1 && approach <= ground+1
			for x := hx - 1; x <= hx+5 && ok; x++ {
				for z := hz - 1; z <= hz+5 && ok; z++ {
					g, c, gr := column(x, z)
					if x >= hx && x <= hx+4 && z >= hz && z <= hz+4 {
						ok = c && gr && g == ground
					} else {
						ok = c && g >= ground-1 && g <= ground+1
					}
				}
			}
			// Not where the bot stands.
			if ok && !(at[0] >= hx && at[0] <= hx+4 && at[2] >= hz && at[2] <= hz+4) {
				found = append(found, spot{hx, hz, ground + 1})
			}
		}
	}
	if len(found) == 0 {
		for dz := -15; dz <= 15; dz++ {
			var row strings.Builder
			for dx := -15; dx <= 15; dx++ {
				g, c, gr := column(at[0]+dx, at[2]+dz)
				ch := byte('a' + byte(g-at[1]+13)%26)
				if !c {
					ch = '#'
				} else if !gr {
					ch = '~'
				}
				row.WriteByte(ch)
			}
			t.Log(row.String())
		}
		t.Fatalf("no clear 5×5 of grass with room around it within 30 blocks of %v", at)
	}
	sort.Slice(found, func(i, j int) bool {
		di := math.Hypot(float64(found[i].x-at[0]), float64(found[i].z-at[2]))
		dj := math.Hypot(float64(found[j].x-at[0]), float64(found[j].z-at[2]))
		return di < dj || di == dj && (found[i].x < found[j].x || found[i].x == found[j].x && found[i].z < found[j].z)
	})
	return found[0].x, found[0].y, found[0].z
}

// mineflayerDiffers lists the positions where alex's mineflayer sees other
// than want ("name" or "name[prop=value,…]" with the properties sorted).
func mineflayerDiffers(t *testing.T, s *skillScene, alex *peertest.Survivor, want map[[3]int]string) []string {
	t.Helper()
	var out []string
	keys := make([][3]int, 0, len(want))
	for p := range want {
		keys = append(keys, p)
	}
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
	for _, p := range keys {
		var b *struct {
			Name       string         `json:"name"`
			Properties map[string]any `json:"properties"`
		}
		ctx, cancel := context.WithCancel(s.ctx)
		err := alex.Do(ctx, &b, map[string]any{"cmd": "blockAt", "pos": p})
		cancel()
		if err != nil {
			t.Fatalf("blockAt %v: %v", p, err)
		}
		got := "not loaded"
		if b != nil {
			got = b.Name
			var kv []string
			for k, v := range b.Properties {
				kv = append(kv, fmt.Sprintf("%s=%v", k, v))
			}
			sort.Strings(kv)
			if len(kv) > 0 {
				got += "[" + strings.Join(kv, ",") + "]"
			}
		}
		if got != want[p] {
			out = append(out, fmt.Sprintf("%v is %s, want %s", p, got, want[p]))
		}
	}
	return out
}
