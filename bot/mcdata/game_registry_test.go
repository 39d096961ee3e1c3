package mcdata_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/mcdata/internal/gen"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// registryDump is one line of testdata/peers/registry_dump.js: what
// prismarine-registry and prismarine-block report for one game version.
type registryDump struct {
	Version   string
	Folders   map[string]string
	NumStates int
	States    [][3]json.RawMessage // block id, "prop=value,…", shape index
	Shapes    [][][6]float64
	Blocks    []struct {
		ID                     int
		Name, DisplayName      string
		MinStateID, MaxStateID int
		DefaultState           int
		Hardness, Resistance   float64
		Diggable, Transparent  bool
		EmitLight, FilterLight int
		Material               string
		HarvestTools, Drops    []int
	}
	Items []struct {
		ID                       int
		Name, DisplayName        string
		StackSize, MaxDurability int
	}
	Foods []struct {
		Name                   string
		FoodPoints, Saturation float64
	}
	Entities []struct {
		ID                                int
		Name, DisplayName, Type, Category string
		Width, Height                     float64
	}
	Enchantments []struct {
		ID       int
		Name     string
		MaxLevel int
	}
	Effects []struct {
		ID         int
		Name, Type string
	}
	Materials map[string]map[string]float64
	Recipes   map[string][]struct {
		InShape     [][]*int
		Ingredients []int
		Result      struct{ ID, Count int }
	}
	Biomes []struct {
		ID          int
		Name        string
		Temperature float64
	}
}

// TestGameDataMatchesPrismarineRegistry compares every version's tables
// with what prismarine-registry and prismarine-block (what mineflayer uses)
// report from the same minecraft-data: every state id's block, properties
// and collision boxes, and every block, item, food, entity, enchantment,
// effect, material, recipe and biome.
func TestGameDataMatchesPrismarineRegistry(t *testing.T) {
	var versions []string
	byVersion := map[string]*mcdata.GameData{}
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		if byVersion[g.Version] == nil {
			versions = append(versions, g.Version)
			byVersion[g.Version] = g
		}
	}
	out := peertest.RunNode(t, "registry_dump.js", versions...)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	seen := 0
	for sc.Scan() {
		var d registryDump
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("registry_dump.js line %d: %v", seen+1, err)
		}
		g := byVersion[d.Version]
		if g == nil {
			t.Fatalf("registry_dump.js printed version %q nobody asked for", d.Version)
		}
		seen++
		t.Run(d.Version, func(t *testing.T) { compareWithRegistry(t, g, &d) })
	}
	if seen != len(versions) {
		t.Fatalf("registry_dump.js printed %d versions, want %d", seen, len(versions))
	}
}

func compareWithRegistry(t *testing.T, g *mcdata.GameData, d *registryDump) {
	errs := 0
	fail := func(format string, args ...any) {
		t.Helper()
		if errs++; errs <= 20 {
			t.Errorf(format, args...)
		}
	}
	if g.NumStates() != d.NumStates {
		t.Fatalf("%d states, prismarine-registry has %d", g.NumStates(), d.NumStates)
	}
	for id, st := range d.States {
		var blockID, shape int
		var props string
		json.Unmarshal(st[0], &blockID)
		json.Unmarshal(st[1], &props)
		json.Unmarshal(st[2], &shape)
		s, ok := g.StateByID(mcdata.StateID(id))
		if !ok {
			fail("state %d is unknown", id)
			continue
		}
		if int(s.Block.ID) != blockID {
			fail("state %d is block %d (%s), prismarine-block says %d", id, s.Block.ID, s.Block.Name, blockID)
		}
		want := s.Block.Name
		if props != "" {
			want += "[" + props + "]"
		}
		if got := s.String(); got != want {
			fail("state %d is %s, prismarine-block says %s", id, got, want)
		}
		if !sameBoxes(g.Shapes(s.ID), d.Shapes[shape]) {
			fail("state %d (%s) collides as %v, prismarine-block says %v", id, s, g.Shapes(s.ID), d.Shapes[shape])
		}
	}
	if len(g.Blocks) != len(d.Blocks) {
		t.Fatalf("%d blocks, prismarine-registry has %d", len(g.Blocks), len(d.Blocks))
	}
	for i, w := range d.Blocks {
		b := &g.Blocks[i]
		got := fmt.Sprint(b.ID, b.Name, b.DisplayName, b.MinState, b.MaxState, b.DefaultState, b.Hardness, b.Resistance,
			b.Diggable, b.Transparent, b.EmitLight, b.FilterLight, b.Material.Name, ids(b.HarvestTools), ids(b.Drops))
		want := fmt.Sprint(w.ID, w.Name, w.DisplayName, w.MinStateID, w.MaxStateID, w.DefaultState, w.Hardness, w.Resistance,
			w.Diggable, w.Transparent, w.EmitLight, w.FilterLight, w.Material, w.HarvestTools, w.Drops)
		if got != want {
			fail("block %d:\n got %s\nwant %s", i, got, want)
		}
	}
	if len(g.Items) != len(d.Items) {
		t.Fatalf("%d items, prismarine-registry has %d", len(g.Items), len(d.Items))
	}
	for i, w := range d.Items {
		it := &g.Items[i]
		if got, want := fmt.Sprint(it.ID, it.Name, it.DisplayName, it.StackSize, it.MaxDurability),
			fmt.Sprint(w.ID, w.Name, w.DisplayName, w.StackSize, w.MaxDurability); got != want {
			fail("item %d: got %s, want %s", i, got, want)
		}
	}
	// Foods are matched by name (their ids are another version's where
	// dataPaths borrows an older foods.json), and the saturation of the
	// folders gen.FoodSaturationScaled lists is divided back.
	scaled := slices.Contains(gen.FoodSaturationScaled, d.Folders["foods"])
	foods := 0
	for _, it := range g.Items {
		if it.Food != nil {
			foods++
		}
	}
	if foods != len(d.Foods) {
		fail("%d foods, prismarine-registry has %d", foods, len(d.Foods))
	}
	for _, w := range d.Foods {
		it := g.ItemByName(w.Name)
		if it == nil || it.Food == nil {
			fail("%s is not a food", w.Name)
			continue
		}
		sat := w.Saturation
		if scaled {
			sat /= 2 * w.FoodPoints
		}
		if it.Food.Points != w.FoodPoints || math.Abs(it.Food.Saturation-sat) > 1e-9 {
			fail("food %s: %+v, prismarine-registry says %v points, %v saturation (scaled %v)", w.Name, *it.Food, w.FoodPoints, w.Saturation, scaled)
		}
	}
	if len(g.Entities) != len(d.Entities) {
		t.Fatalf("%d entity types, prismarine-registry has %d", len(g.Entities), len(d.Entities))
	}
	for i, w := range d.Entities {
		e := &g.Entities[i]
		if got, want := fmt.Sprint(e.ID, e.Name, e.DisplayName, e.Kind, e.Category, e.Width, e.Height),
			fmt.Sprint(w.ID, w.Name, w.DisplayName, w.Type, w.Category, w.Width, w.Height); got != want {
			fail("entity %d: got %s, want %s", i, got, want)
		}
	}
	if len(g.Enchantments) != len(d.Enchantments) {
		fail("%d enchantments, prismarine-registry has %d", len(g.Enchantments), len(d.Enchantments))
	}
	for i, w := range d.Enchantments {
		if i < len(g.Enchantments) {
			e := g.Enchantments[i]
			if int(e.ID) != w.ID || e.Name != w.Name || e.MaxLevel != w.MaxLevel {
				fail("enchantment %d: %+v, prismarine-registry has %+v", i, e, w)
			}
		}
	}
	if len(g.Effects) != len(d.Effects) {
		fail("%d effects, prismarine-registry has %d", len(g.Effects), len(d.Effects))
	}
	for i, w := range d.Effects {
		if i < len(g.Effects) {
			e := g.Effects[i]
			if int(e.ID) != w.ID || strings.ReplaceAll(e.Name, "_", "") != strings.ToLower(w.Name) || e.Beneficial != (w.Type == "good") {
				fail("effect %d: %+v, prismarine-registry has %+v", i, e, w)
			}
		}
	}
	if len(g.Materials) != len(d.Materials) {
		fail("%d materials, prismarine-registry has %d", len(g.Materials), len(d.Materials))
	}
	for name, speeds := range d.Materials {
		m := g.MaterialByName(name)
		if m == nil {
			fail("material %s is missing", name)
			continue
		}
		if len(m.Speeds) != len(speeds) {
			fail("material %s has %d tools, prismarine-registry %d", name, len(m.Speeds), len(speeds))
		}
		for item, speed := range speeds {
			id, _ := strconv.Atoi(item)
			if got, ok := m.Speed(mcdata.ItemID(id)); !ok || got != speed {
				fail("material %s, tool %d: speed %v %v, prismarine-registry %v", name, id, got, ok, speed)
			}
		}
	}
	recipes := 0
	for item, list := range d.Recipes {
		id, _ := strconv.Atoi(item)
		got := g.RecipesFor(mcdata.ItemID(id))
		// The generator adds the white alternative to the dye recipes
		// (corrections_recipes.go), after minecraft-data's own.
		for len(got) > len(list) && whiteDyeRecipe(g, &got[len(got)-1]) {
			got = got[:len(got)-1]
			recipes++
		}
		recipes += len(list)
		if len(got) != len(list) {
			fail("item %d has %d recipes, prismarine-registry %d", id, len(got), len(list))
			continue
		}
		for i, w := range list {
			r := got[i]
			if int(r.Result) != w.Result.ID || r.Count != w.Result.Count {
				fail("recipe %d of item %d makes %d×%d, prismarine-registry %d×%d", i, id, r.Count, r.Result, w.Result.Count, w.Result.ID)
			}
			if w.InShape != nil {
				var cells []int
				for _, row := range w.InShape {
					for _, c := range row {
						if c == nil {
							cells = append(cells, -1)
						} else {
							cells = append(cells, *c)
						}
					}
				}
				if !r.Shaped || r.Height != len(w.InShape) || r.Width != len(w.InShape[0]) || fmt.Sprint(ids(r.Grid)) != fmt.Sprint(cells) {
					fail("recipe %d of item %d: %+v, prismarine-registry's shape %v", i, id, r, cells)
				}
			} else if r.Shaped || fmt.Sprint(ids(r.Ingredients)) != fmt.Sprint(w.Ingredients) {
				fail("recipe %d of item %d: %+v, prismarine-registry's ingredients %v", i, id, r, w.Ingredients)
			}
		}
	}
	if recipes != len(g.Recipes) {
		fail("%d recipes, prismarine-registry has %d", len(g.Recipes), recipes)
	}
	if len(g.Biomes) != len(d.Biomes) {
		fail("%d biomes, prismarine-registry has %d", len(g.Biomes), len(d.Biomes))
	}
	for i, w := range d.Biomes {
		if i < len(g.Biomes) {
			b := g.Biomes[i]
			if int(b.ID) != w.ID || b.Name != w.Name || b.Temperature != w.Temperature {
				fail("biome %d: %+v, prismarine-registry has %+v", i, b, w)
			}
		}
	}
	if errs > 20 {
		t.Errorf("… and %d more differences", errs-20)
	}
}

// whiteDyeRecipe says whether r dyes a white thing C: a C_dye and a
// white_S making C_S.
func whiteDyeRecipe(g *mcdata.GameData, r *mcdata.Recipe) bool {
	if r.Shaped || len(r.Ingredients) != 2 {
		return false
	}
	out := g.Item(r.Result).Name
	for _, pair := range [][2]mcdata.ItemID{{r.Ingredients[0], r.Ingredients[1]}, {r.Ingredients[1], r.Ingredients[0]}} {
		dye, thing := g.Item(pair[0]).Name, g.Item(pair[1]).Name
		if c, ok := strings.CutSuffix(dye, "_dye"); ok && strings.HasPrefix(thing, "white_") && out == c+strings.TrimPrefix(thing, "white") {
			return true
		}
	}
	return false
}

func ids(list []mcdata.ItemID) []int {
	out := make([]int, len(list))
	for i, id := range list {
		out[i] = int(id)
	}
	return out
}

func sameBoxes(got []mcdata.AABB, want [][6]float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i, b := range got {
		if [6]float64{b.MinX, b.MinY, b.MinZ, b.MaxX, b.MaxY, b.MaxZ} != want[i] {
			return false
		}
	}
	return true
}
