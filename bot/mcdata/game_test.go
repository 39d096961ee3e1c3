package mcdata_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// newest is the newest data version, where the rule tables must name real
// blocks.
func newest(t testing.TB) *mcdata.GameData {
	ps := mcdata.GameProtocols()
	return mcdata.Game(ps[len(ps)-1])
}

func TestEveryReleaseHasGameData(t *testing.T) {
	for _, r := range mcdata.Releases() {
		if mcdata.Game(int32(r.Protocol)) == nil {
			t.Errorf("protocol %d (%v) has packet tables but no game data", r.Protocol, r.Names)
		}
	}
	// Game data and packet tables come from the one release list.
	var want []int32
	for _, r := range mcdata.Releases() {
		want = append(want, int32(r.Protocol))
	}
	if got := mcdata.GameProtocols(); !slices.Equal(got, want) {
		t.Errorf("game data covers %v, the release list is %v", got, want)
	}
	if mcdata.Game(1) != nil {
		t.Error("protocol 1 has game data")
	}
	if mcdata.Game(767) != mcdata.Game(767) {
		t.Error("Game decodes again on the second call")
	}
}

// TestStatesRoundTrip: every state of every version reads back its own
// property values, and StateWith with those values finds the same state.
func TestStatesRoundTrip(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		for id := mcdata.StateID(0); int(id) < g.NumStates(); id++ {
			s, ok := g.StateByID(id)
			if !ok {
				t.Fatalf("%s: state %d unknown", g.Version, id)
			}
			values := map[string]string{}
			for i, prop := range s.Block.Props {
				values[prop.Name] = prop.Values[s.ValueIndex(i)]
			}
			back, err := s.Block.StateWith(values)
			if err != nil || back != id {
				t.Fatalf("%s: %s → %v → %d, %v", g.Version, s, values, back, err)
			}
		}
		if _, ok := g.StateByID(mcdata.StateID(g.NumStates())); ok {
			t.Errorf("%s: state %d past the end is known", g.Version, g.NumStates())
		}
		if _, ok := g.StateByID(-1); ok || g.Shapes(-1) != nil || g.BlockOf(1<<30) != nil {
			t.Errorf("%s: a negative or huge state id is known", g.Version)
		}
	}
}

func TestBlockFacts(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		stone := g.BlockByName("minecraft:stone")
		if stone == nil || len(g.Shapes(stone.DefaultState)) != 1 || g.Shapes(stone.DefaultState)[0] != (mcdata.AABB{0, 0, 0, 1, 1, 1}) {
			t.Fatalf("%s: stone is not a full cube: %+v", g.Version, stone)
		}
		if !g.IsAir(0) || g.IsAir(stone.DefaultState) || !g.IsAir(g.BlockByName("cave_air").DefaultState) {
			t.Errorf("%s: air is wrong", g.Version)
		}
		slab, _ := g.BlockByName("oak_slab").StateWith(map[string]string{"type": "bottom"})
		if sh := g.Shapes(slab); len(sh) != 1 || sh[0].MaxY != 0.5 {
			t.Errorf("%s: a bottom slab is %v", g.Version, sh)
		}
		water := g.BlockByName("water")
		if f := g.Fluid(water.DefaultState); f != (mcdata.Fluid{Kind: mcdata.Water, Level: 0}) {
			t.Errorf("%s: water's default state holds %+v", g.Version, f)
		}
		flowing, _ := water.StateWith(map[string]string{"level": "9"})
		if f := g.Fluid(flowing); f != (mcdata.Fluid{Kind: mcdata.Water, Level: 9}) {
			t.Errorf("%s: water[level=9] holds %+v", g.Version, f)
		}
		lava := g.BlockByName("lava")
		if f := g.Fluid(lava.DefaultState + 2); f != (mcdata.Fluid{Kind: mcdata.Lava, Level: 2}) || !lava.Physics.Hurts {
			t.Errorf("%s: lava[level=2] holds %+v", g.Version, f)
		}
		wet, _ := g.BlockByName("oak_stairs").StateWith(map[string]string{"waterlogged": "true"})
		dry, _ := g.BlockByName("oak_stairs").StateWith(map[string]string{"waterlogged": "false"})
		if g.Fluid(wet).Kind != mcdata.Water || g.Fluid(dry).Kind != mcdata.NoFluid {
			t.Errorf("%s: waterlogged stairs: %+v, dry: %+v", g.Version, g.Fluid(wet), g.Fluid(dry))
		}
		if g.Fluid(g.BlockByName("kelp").DefaultState).Kind != mcdata.Water || g.Fluid(stone.DefaultState).Kind != mcdata.NoFluid {
			t.Errorf("%s: kelp is not water or stone is", g.Version)
		}
		if g.BlockByName("blue_ice").Physics.Friction != 0.989 || g.BlockByName("stone").Physics.Friction != 0.6 ||
			g.BlockByName("honey_block").Physics.JumpFactor != 0.5 || g.BlockByName("soul_sand").Physics.SpeedFactor != 0.4 ||
			!g.BlockByName("ladder").Physics.Climbable || g.BlockByName("cobweb").Physics.Stuck[0] != 0.25 ||
			!g.BlockByName("oak_trapdoor").Physics.Trapdoor || g.BlockByName("stone").Physics.Climbable {
			t.Errorf("%s: the physics table is not applied", g.Version)
		}
		// 26.3's 35,723 states are more than 2^15: a direct palette takes
		// 16 bits a block there.
		wantBits := 15
		if g.NumStates() > 1<<15 {
			wantBits = 16
		}
		if g.StateBits() != wantBits {
			t.Errorf("%s: %d states need %d bits, want %d", g.Version, g.NumStates(), g.StateBits(), wantBits)
		}
		pick, wood := g.ItemByName("diamond_pickaxe"), g.ItemByName("wooden_pickaxe")
		ore := g.BlockByName("diamond_ore")
		if ore.CanHarvest(wood.ID) || !ore.CanHarvest(pick.ID) || !stone.CanHarvest(wood.ID) || stone.CanHarvest(mcdata.NoItem) {
			t.Errorf("%s: harvest tools are wrong", g.Version)
		}
		if !g.BlockByName("dirt").CanHarvest(mcdata.NoItem) {
			t.Errorf("%s: dirt needs a tool", g.Version)
		}
		if sp, ok := stone.Material.Speed(pick.ID); !ok || sp != 8 {
			t.Errorf("%s: a diamond pickaxe mines stone at %v %v, want 8", g.Version, sp, ok)
		}
		if _, ok := stone.Material.Speed(g.ItemByName("diamond_shovel").ID); ok {
			t.Errorf("%s: a shovel speeds up stone", g.Version)
		}
		if pick.MaxDurability != 1561 || pick.StackSize != 1 || g.ItemByName("stick").StackSize != 64 {
			t.Errorf("%s: %+v", g.Version, pick)
		}
		if f := g.ItemByName("bread").Food; f == nil || f.Points != 5 || f.Saturation != 6 {
			t.Errorf("%s: bread is %+v, want 5 points and 6 saturation", g.Version, f)
		}
		if g.ItemByName("stone").Food != nil {
			t.Errorf("%s: stone is food", g.Version)
		}
		if e := g.EffectByName("haste"); e == nil || e.ID != 2 || !e.Beneficial {
			t.Errorf("%s: haste is %+v", g.Version, e)
		}
		if e := g.EffectByName("minecraft:mining_fatigue"); e == nil || e.ID != 3 || e.Beneficial {
			t.Errorf("%s: mining fatigue is %+v", g.Version, e)
		}
		if e := g.EnchantmentByName("efficiency"); e == nil || e.MaxLevel != 5 {
			t.Errorf("%s: efficiency is %+v", g.Version, e)
		}
		if b := g.BiomeByName("plains"); b == nil || b.Temperature != 0.8 || b.Dimension != "overworld" {
			t.Errorf("%s: plains is %+v", g.Version, b)
		}
	}
}

// TestRulesNameRealBlocks: every name in the physics table is a block of the
// newest version, so a typo cannot silently drop a rule.
func TestRulesNameRealBlocks(t *testing.T) {
	g := newest(t)
	for _, name := range mcdata.PhysicsRuleBlocks() {
		if g.BlockByName(name) == nil {
			t.Errorf("the physics table names %q, which is not a block of %s", name, g.Version)
		}
	}
	for _, name := range mcdata.NotHostileRuleEntities() {
		if g.EntityByName(name) == nil {
			t.Errorf("the hostile rule names %q, which is not an entity of %s", name, g.Version)
		}
	}
}

func TestHostileRule(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		for _, name := range []string{"zombie", "creeper", "skeleton", "spider", "enderman", "slime", "ghast", "phantom", "hoglin", "warden", "witch"} {
			if e := g.EntityByName(name); e == nil || !e.Hostile {
				t.Errorf("%s: %s is not hostile: %+v", g.Version, name, e)
			}
		}
		for _, name := range []string{"cow", "player", "villager", "strider", "skeleton_horse", "zombie_horse", "evoker_fangs", "end_crystal", "item", "iron_golem", "arrow"} {
			if e := g.EntityByName(name); e == nil || e.Hostile {
				t.Errorf("%s: %s is hostile or missing: %+v", g.Version, name, e)
			}
		}
		if z := g.EntityByName("zombie"); z.Width != 0.6 || z.Height != 1.95 || g.EntityType(z.ID) != z {
			t.Errorf("%s: zombie is %+v", g.Version, z)
		}
	}
}

func TestRecipes(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		planks, stick := g.ItemByName("oak_planks").ID, g.ItemByName("stick").ID
		pick := g.ItemByName("wooden_pickaxe")
		var found bool
		for _, r := range g.RecipesFor(pick.ID) {
			if r.Shaped && r.Width == 3 && r.Height == 3 && r.Grid[0] == planks && r.Grid[4] == stick && r.Grid[3] == mcdata.NoItem {
				found = true
				if in := r.Inputs(); len(in) != 2 || in[0].Count+in[1].Count != 5 {
					t.Errorf("%s: a wooden pickaxe takes %v", g.Version, in)
				}
				if r.FitsInventory() {
					t.Errorf("%s: a pickaxe fits the 2×2 grid", g.Version)
				}
			}
		}
		if !found {
			t.Errorf("%s: no oak-plank wooden pickaxe recipe in %+v", g.Version, g.RecipesFor(pick.ID))
		}
		rs := g.RecipesFor(planks)
		if len(rs) == 0 || rs[0].Shaped || rs[0].Count != 4 || !rs[0].FitsInventory() {
			t.Errorf("%s: oak planks: %+v", g.Version, rs)
		}
		table := g.RecipesFor(g.ItemByName("crafting_table").ID)
		if len(table) < 10 || !table[0].FitsInventory() {
			t.Errorf("%s: crafting table: %d recipes, first %+v", g.Version, len(table), table)
		}
		if g.RecipesFor(g.ItemByName("diamond").ID) == nil && len(g.RecipesFor(g.ItemByName("stone").ID)) != 0 {
			t.Errorf("%s: stone is crafted", g.Version)
		}
		if g.RecipesFor(-1) != nil || g.RecipesFor(1<<20) != nil {
			t.Errorf("%s: recipes for a bad item id", g.Version)
		}
	}
}

func TestMatchStates(t *testing.T) {
	g := mcdata.Game(769)
	logs, err := g.MatchStates("oak_log")
	if err != nil || logs.Len() != 3 {
		t.Fatalf("oak_log: %v %v", logs, err)
	}
	y, err := g.MatchStates(" minecraft:oak_log[axis=y] ")
	if err != nil || y.Len() != 1 || !y.Has(g.BlockByName("oak_log").DefaultState) {
		t.Fatalf("oak_log[axis=y]: %v", err)
	}
	stairs, err := g.MatchStates("oak_stairs[half=top,facing=east]")
	if err != nil || stairs.Len() != 10 { // 5 shapes × 2 waterlogged
		t.Fatalf("stairs: %d %v", stairs.Len(), err)
	}
	for id := mcdata.StateID(0); int(id) < g.NumStates(); id++ {
		s, _ := g.StateByID(id)
		want := s.Block.Name == "oak_stairs" && strings.Contains(s.String(), "facing=east") && strings.Contains(s.String(), "half=top")
		if stairs.Has(id) != want {
			t.Fatalf("stairs set has %s: %v", s, stairs.Has(id))
		}
	}
	if stairs.Has(-1) || stairs.Has(1<<30) {
		t.Error("the set has an impossible state")
	}
	for _, c := range []struct{ pattern, says string }{
		{"oak_logg", `no block named "oak_logg"`},
		{"log", "did you mean"},
		{"oak_log[axis=w]", "axis cannot be \"w\"; it is one of x, y, z"},
		{"oak_log[color=red]", "has no property \"color\"; it has axis"},
		{"oak_log[axis=y", "no closing ]"},
		{"oak_log[axis]", "is not property=value"},
		{"[axis=y]", "names no block"},
	} {
		_, err := g.MatchStates(c.pattern)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q: %v, want it to say %q", c.pattern, err, c.says)
		}
	}
	wet := g.StatesWhere(func(s mcdata.BlockState) bool { v, _ := s.Value("waterlogged"); return v == "true" })
	if wet.Has(stairs.Blocks[0].DefaultState) || !wet.Has(stairs.Blocks[0].DefaultState-1) || wet.Has(0) {
		t.Errorf("waterlogged states: %d", wet.Len())
	}
	all := g.StatesOf(func(b *mcdata.Block) bool { return strings.HasSuffix(b.Name, "_log") })
	if len(all.Blocks) < 8 || !all.Has(g.BlockByName("birch_log").MinState) || all.Has(0) {
		t.Errorf("logs: %d blocks", len(all.Blocks))
	}
}

func BenchmarkGameDecode(b *testing.B) {
	for b.Loop() {
		mcdata.DecodeGameForBenchmark(len(mcdata.GameProtocols()) - 1)
	}
}

func BenchmarkStateByID(b *testing.B) {
	g := mcdata.Game(775)
	n := mcdata.StateID(g.NumStates())
	var sink int
	for i := 0; b.Loop(); i++ {
		s, _ := g.StateByID(mcdata.StateID(i * 7919 % int(n)))
		sink += int(s.Block.ID)
	}
	_ = sink
}

func BenchmarkShapes(b *testing.B) {
	g := mcdata.Game(775)
	n := mcdata.StateID(g.NumStates())
	var sink int
	for i := 0; b.Loop(); i++ {
		sink += len(g.Shapes(mcdata.StateID(i * 7919 % int(n))))
	}
	_ = sink
}

func BenchmarkFluid(b *testing.B) {
	g := mcdata.Game(775)
	n := mcdata.StateID(g.NumStates())
	var sink int
	for i := 0; b.Loop(); i++ {
		sink += int(g.Fluid(mcdata.StateID(i * 7919 % int(n))).Level)
	}
	_ = sink
}

// TestBlockPhysicsClasses checks the name rules for the block classes
// physics reads against the game's tags: #minecraft:fences and
// #minecraft:walls have 12 and 25 members in 1.21.1 (data/minecraft/tags/
// block/fences.json and walls.json); the pale oak fence joins in 1.21.2 and
// the resin brick wall in 1.21.4. Wall-mounted torches, signs and heads are
// not walls.
func TestBlockPhysicsClasses(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		var fences, walls int
		for i := range g.Blocks {
			b := &g.Blocks[i]
			if b.Physics.Fence {
				fences++
			}
			if b.Physics.Wall {
				walls++
			}
			if b.Physics.FenceGate != strings.HasSuffix(b.Name, "_fence_gate") {
				t.Errorf("%s: %s fence gate = %v", g.Version, b.Name, b.Physics.FenceGate)
			}
		}
		wantFences, wantWalls := 13, 26
		if p < 768 {
			wantFences = 12
		}
		if p < 769 {
			wantWalls = 25
		}
		if p >= 776 {
			wantWalls = 32
		}
		if p >= 777 {
			wantFences = 14 // the poplar fence
		}
		if fences != wantFences || walls != wantWalls {
			t.Errorf("%s: %d fences and %d walls, want %d and %d", g.Version, fences, walls, wantFences, wantWalls)
		}
		for name, want := range map[string]mcdata.BlockPhysics{
			"nether_brick_fence":  {Fence: true},
			"cobblestone_wall":    {Wall: true},
			"red_bed":             {Bed: true},
			"ice":                 {Ice: true},
			"frosted_ice":         {Ice: true},
			"packed_ice":          {},
			"oak_wall_sign":       {},
			"wall_torch":          {},
			"skeleton_wall_skull": {},
		} {
			got := g.BlockByName(name).Physics
			if got.Fence != want.Fence || got.Wall != want.Wall || got.Bed != want.Bed || got.Ice != want.Ice {
				t.Errorf("%s: %s: %+v", g.Version, name, got)
			}
		}
	}
}
