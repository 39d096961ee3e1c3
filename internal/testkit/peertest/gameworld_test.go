package peertest_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// TestGameWorld serves the game-made world at every version and checks it
// with mineflayer, a client we did not write: the facts found in the
// region are the same at every version (the conversion by name kept every
// block), mineflayer's blocks are prismarine-chunk's reading of the
// region, a player who joins after another knows it (the player list as
// the game sends it) and the other knows the newcomer, a dug block is gone
// for the digger and for the other, and a player who leaves is dropped
// from the list.
func TestGameWorld(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	var first *peertest.WorldFacts
	for _, version := range peertest.GameWorldVersions {
		t.Run(version, func(t *testing.T) {
			ctx, cancel := testctx.New(t)
			defer cancel()
			w := peertest.StartGameWorld(t, version, peertest.GameWorldOptions{})
			f := &w.Facts
			checkFacts(t, w)
			if first == nil {
				first = f
			} else if diff := factsDiff(first, f); diff != "" {
				t.Errorf("the facts at %s differ from %s's: %s", version, first.Version, diff)
			}

			// alex is in the world first, as players usually are; bob comes after.
			alex := peertest.StartSurvivor(t, w.Server, "alex")
			bob := peertest.StartSurvivor(t, w.Server, "bob")
			var list []struct {
				Username string     `json:"username"`
				Entity   bool       `json:"entity"`
				Pos      [3]float64 `json:"pos"`
			}
			if err := bob.Do(ctx, &list, map[string]any{"cmd": "waitPlayer", "username": "alex"}); err != nil {
				t.Fatalf("bob, who joined second, never knew alex: %v", err)
			}
			if err := alex.Do(ctx, &list, map[string]any{"cmd": "waitPlayer", "username": "bob"}); err != nil {
				t.Fatalf("alex never knew bob: %v", err)
			}
			var st struct {
				Pos [3]float64 `json:"pos"`
			}
			if err := bob.Do(ctx, &st, map[string]any{"cmd": "state"}); err != nil {
				t.Fatal(err)
			}
			if want := [3]float64{float64(f.Spawn[0]) + 0.5, float64(f.Spawn[1]), float64(f.Spawn[2]) + 0.5}; st.Pos != want {
				t.Errorf("bob appeared at %v, want the spawn %v", st.Pos, want)
			}

			// mineflayer's blocks against the region: the spawn column
			// whole, and a row across the nearest tree.
			var checks [][3]int
			for y := f.MinY; y < f.MinY+f.Height; y += 3 {
				checks = append(checks, [3]int{f.Spawn[0], y, f.Spawn[2]})
			}
			tree := f.Trees[0].Base
			for x := tree[0] - 6; x <= tree[0]+6; x++ {
				for y := tree[1] - 2; y <= tree[1]+8; y++ {
					checks = append(checks, [3]int{x, y, tree[2]})
				}
			}
			bad := 0
			for _, p := range checks {
				var b *struct {
					Name       string         `json:"name"`
					Properties map[string]any `json:"properties"`
				}
				if err := bob.Do(ctx, &b, map[string]any{"cmd": "blockAt", "pos": p}); err != nil {
					t.Fatal(err)
				}
				got := "(not loaded)"
				if b != nil {
					got = stateText(b.Name, b.Properties)
				}
				if want := w.Block(p[0], p[1], p[2]); got != want && bad < 10 {
					bad++
					t.Errorf("mineflayer sees %s at %v, the region has %s", got, p, want)
				}
			}

			// alex digs the grass block next to the spawn; bob sees it go.
			dig := [3]int{f.Spawn[0] + 1, f.Spawn[1] - 1, f.Spawn[2]}
			if err := alex.Do(ctx, nil, map[string]any{"cmd": "dig", "pos": dig}); err != nil {
				t.Fatalf("alex digs %s at %v: %v", w.Block(dig[0], dig[1], dig[2]), dig, err)
			}
			if err := bob.Do(ctx, nil, map[string]any{"cmd": "waitBlock", "pos": dig, "name": "air"}); err != nil {
				t.Fatalf("bob never saw alex's dig at %v: %v", dig, err)
			}
			if err := alex.Do(ctx, nil, map[string]any{"cmd": "waitBlock", "pos": dig, "name": "air"}); err != nil {
				t.Fatalf("alex never saw its own dig at %v: %v", dig, err)
			}
			var sb serverBlock
			if err := w.Query(ctx, &sb, "block", dig[0], dig[1], dig[2]); err != nil || sb.Name != "air" {
				t.Errorf("the server has %q at %v after the dig (%v)", sb.Name, dig, err)
			}

			// alex digs the ground at the lake's shore: the lake flows into
			// the hole, for the server and for mineflayer.
			shore := f.Lakes[0].Shore
			hole := [3]int{shore[0], shore[1] - 1, shore[2]}
			if err := w.Teleport("alex", float64(shore[0])+0.5, float64(shore[1]), float64(shore[2])+0.5); err != nil {
				t.Fatal(err)
			}
			if err := alex.Do(ctx, nil, map[string]any{"cmd": "waitPosition", "pos": []float64{float64(shore[0]) + 0.5, float64(shore[1]), float64(shore[2]) + 0.5}}); err != nil {
				t.Fatalf("alex never stood on the shore: %v", err)
			}
			if err := alex.Do(ctx, nil, map[string]any{"cmd": "dig", "pos": hole}); err != nil {
				t.Fatalf("alex digs %s at %v on the shore: %v", w.Block(hole[0], hole[1], hole[2]), hole, err)
			}
			var water json.RawMessage
			if err := alex.Do(ctx, &water, map[string]any{"cmd": "waitBlock", "pos": hole, "name": "water"}); err != nil {
				t.Fatalf("the lake never flowed into the hole at %v: %v", hole, err)
			}
			if err := w.Query(ctx, &sb, "block", hole[0], hole[1], hole[2]); err != nil || sb.Name != "water" {
				t.Errorf("the server has %q at %v, where the lake flowed in (%v)", sb.Name, hole, err)
			}
			t.Logf("the lake flowed into the hole dug at %v on the shore: mineflayer sees %s", hole, water)

			// bob leaves: alex's list drops him.
			if err := bob.Do(ctx, nil, map[string]any{"cmd": "quit"}); err != nil {
				t.Fatal(err)
			}
			for {
				if err := alex.Do(ctx, &list, map[string]any{"cmd": "players"}); err != nil {
					t.Fatal(err)
				}
				gone := true
				for _, p := range list {
					gone = gone && p.Username != "bob"
				}
				if gone {
					break
				}
				if ctx.Err() != nil {
					t.Fatalf("bob left, and alex still lists him: %+v", list)
				}
				if err := w.Query(ctx, nil, "tick"); err != nil {
					t.Fatal(err)
				}
			}
			if errs := w.Events("error"); len(errs) > 0 {
				t.Errorf("the server reported errors: %+v", errs)
			}
		})
	}
}

// checkFacts checks that the survey found what a forest by a lake has.
func checkFacts(t *testing.T, w *peertest.GameWorld) {
	t.Helper()
	f := &w.Facts
	t.Logf("%s (%s, converted %s→%s: %d states, %d renumbered): land %d..%d × %d..%d in %d chunks; spawn %v; %d trees (nearest %s at %v, %.1f blocks); lake %d blocks at y %d (shore %v, %.1f blocks); %d caves (largest %d blocks, open %v); coal: %+v; iron: %+v",
		f.Version, f.Source, f.Conversion.From, f.Conversion.To, f.Conversion.States, f.Conversion.Renumbered,
		f.Land.MinX, f.Land.MaxX, f.Land.MinZ, f.Land.MaxZ, len(f.Land.Chunks), f.Spawn, len(f.Trees), f.Trees[0].Kind, f.Trees[0].Base, f.Trees[0].Distance,
		f.Lakes[0].Blocks, f.Lakes[0].SurfaceY, f.Lakes[0].Shore, f.Lakes[0].Distance, f.CaveCount, f.Caves[0].Blocks, f.Caves[0].Open,
		oreText(f.Ores["coal_ore"]), oreText(f.Ores["iron_ore"]))
	if f.Version != w.Version || f.Conversion.To != w.Version || (w.Version != "1.21.1") != (f.Conversion.States > 0) {
		t.Errorf("facts of %s, converted %+v, for a %s server", f.Version, f.Conversion, w.Version)
	}
	s := f.Spawn
	if w.Block(s[0], s[1], s[2]) != "air" || w.Block(s[0], s[1]+1, s[2]) != "air" || w.BlockName(s[0], s[1]-1, s[2]) != "grass_block" {
		t.Errorf("the spawn %v: feet in %s, head in %s, on %s", s, w.Block(s[0], s[1], s[2]), w.Block(s[0], s[1]+1, s[2]), w.Block(s[0], s[1]-1, s[2]))
	}
	if y, b, ok := w.Surface(s[0], s[2]); !ok || y != s[1]-1 || b != "grass_block" {
		t.Errorf("the spawn's surface: %d %s %v", y, b, ok)
	}
	oaks := 0
	for _, tr := range f.Trees {
		if tr.Kind == "oak_log" {
			oaks++
		}
		if w.BlockName(tr.Base[0], tr.Base[1], tr.Base[2]) != tr.Kind {
			t.Errorf("tree %+v: the region has %s at its base", tr, w.Block(tr.Base[0], tr.Base[1], tr.Base[2]))
		}
	}
	if oaks < 20 || f.Counts["oak_log"] < 100 || f.Counts["oak_leaves"] < 1000 {
		t.Errorf("%d oak trees, %d oak logs, %d leaves: not a forest", oaks, f.Counts["oak_log"], f.Counts["oak_leaves"])
	}
	if len(f.Lakes) == 0 || f.Lakes[0].Blocks < 1000 || f.Lakes[0].Distance > 16 {
		t.Errorf("the lake: %+v", f.Lakes)
	}
	for _, ore := range []string{"coal_ore", "iron_ore"} {
		o := f.Ores[ore]
		if o.Count == 0 || o.NearestBuried == nil || w.BlockName(o.NearestBuried.Position[0], o.NearestBuried.Position[1], o.NearestBuried.Position[2]) != ore {
			t.Errorf("%s: %+v", ore, o)
		}
	}
}

func oreText(o peertest.Ore) string {
	at := func(b *peertest.OreBlock) string {
		if b == nil {
			return "none"
		}
		return fmt.Sprintf("%v (%.1f blocks, %d deep)", b.Position, b.Distance, b.Depth)
	}
	return fmt.Sprintf("%d, %d exposed, %d open to the sky; nearest open %s, exposed %s, buried %s", o.Count, o.Exposed, o.Open, at(o.NearestOpen), at(o.NearestExposed), at(o.NearestBuried))
}

// factsDiff names the facts (other than the version's own) that differ.
func factsDiff(a, b *peertest.WorldFacts) string {
	x, y := *a, *b
	x.Version, y.Version = "", ""
	x.Conversion = y.Conversion
	var diff []string
	vx, vy := reflect.ValueOf(x), reflect.ValueOf(y)
	for i := 0; i < vx.NumField(); i++ {
		if !reflect.DeepEqual(vx.Field(i).Interface(), vy.Field(i).Interface()) {
			diff = append(diff, vx.Type().Field(i).Name)
		}
	}
	return strings.Join(diff, ", ")
}

// stateText writes a block state as GameWorld.Block does.
func stateText(name string, props map[string]any) string {
	if len(props) == 0 {
		return name
	}
	var kv []string
	for k, v := range props {
		kv = append(kv, fmt.Sprintf("%s=%v", k, v))
	}
	sort.Strings(kv)
	return name + "[" + strings.Join(kv, ",") + "]"
}
