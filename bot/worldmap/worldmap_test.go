package worldmap

import (
	"fmt"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// stateOf is the first state matching a block-state pattern.
func stateOf(t testing.TB, g *mcdata.GameData, pattern string) mcdata.StateID {
	t.Helper()
	set, err := g.MatchStates(pattern)
	if err != nil {
		t.Fatal(err)
	}
	for id := mcdata.StateID(0); int(id) < g.NumStates(); id++ {
		if set.Has(id) {
			return id
		}
	}
	t.Fatalf("%s matches no state", pattern)
	return 0
}

// TestClassesOfEveryVersion: in every version's data, the blocks a map
// must tell apart get their class, see-through blocks are looked through,
// fluids come from the state (kelp is water, a waterlogged stair is a
// stair), and no state is left unclassified.
func TestClassesOfEveryVersion(t *testing.T) {
	for _, proto := range mcdata.GameProtocols() {
		g := mcdata.Game(proto)
		tab := Classes(g)
		if Classes(g) != tab {
			t.Fatalf("%d: the table is built again instead of shared", proto)
		}
		for pattern, want := range map[string]Class{
			"grass_block": Grass, "dirt": Dirt, "podzol": Dirt, "sand": Sand, "sandstone": Sand, "stone": Stone,
			"deepslate": Stone, "gravel": Stone, "water": Water, "water[level=3]": Water, "lava": Lava, "kelp": Water,
			"seagrass": Water, "oak_leaves": Leaves, "cherry_leaves": Leaves, "oak_log": Wood, "crimson_stem": Wood,
			"snow[layers=1]": Snow, "snow_block": Snow, "ice": Ice, "netherrack": Nether, "iron_ore": Mineral,
			"deepslate_diamond_ore": Mineral, "gold_block": Mineral, "diamond_block": Mineral, "cactus": Plant,
			"pumpkin": Plant, "oak_planks": Built, "stone_bricks": Built, "oak_stairs[waterlogged=true]": Built,
			"white_wool": Built, "glass": Built, "bedrock": Stone, "sponge": Other,
		} {
			got, ok := tab.Of(stateOf(t, g, pattern))
			if !ok || got != want {
				t.Errorf("%d: %s is %s (shown %v), want %s", proto, pattern, got.Name(), ok, want.Name())
			}
		}
		for _, pattern := range []string{"air", "cave_air", "short_grass", "poppy", "torch", "rail[waterlogged=false]", "oak_sign[waterlogged=false]", "redstone_wire"} {
			if c, ok := tab.Of(stateOf(t, g, pattern)); ok {
				t.Errorf("%d: %s shows as %s; the map must look through it", proto, pattern, c.Name())
			}
		}
		for id := 0; id < g.NumStates(); id++ {
			if c := tab.of(mcdata.StateID(id)); c == Unknown || c == Empty {
				t.Fatalf("%d: state %d has class %s", proto, id, c.Name())
			}
		}
		if c, ok := tab.Of(mcdata.StateID(g.NumStates() + 5)); !ok || c != Other {
			t.Errorf("%d: a state the version lacks is %s", proto, c.Name())
		}
	}
}

func TestLettersAndNamesAreDistinct(t *testing.T) {
	letters, names := map[byte]Class{}, map[string]Class{}
	for c := Class(0); c < numClasses; c++ {
		if o, dup := letters[c.Letter()]; dup {
			t.Errorf("%s and %s share the letter %q", c.Name(), o.Name(), c.Letter())
		}
		if o, dup := names[c.Name()]; dup || c.Name() == "" {
			t.Errorf("%d and %s share the name %q", c, o.Name(), c.Name())
		}
		if l := c.Letter(); l >= 'A' && l <= 'Z' {
			t.Errorf("%s's letter %q is a capital; capitals are left for players", c.Name(), l)
		}
		letters[c.Letter()], names[c.Name()] = c, c
	}
}

// TestScan builds a small world: a grass field at y 60 over stone, a pond,
// a lava pool, an oak (a log with leaves on top), flowers and a torch on
// the grass (looked through), snow on one column, a column of nothing but
// air, and beyond the 2×2 chunks around 0 0 nothing loaded.
func TestScan(t *testing.T) {
	const proto = 769
	g := mcdata.Game(proto)
	st := func(p string) mcdata.StateID { return stateOf(t, g, p) }
	stone, grass, water, lava, log, leaves, poppy, torch, snow := st("stone"), st("grass_block"), st("water"), st("lava"),
		st("oak_log"), st("oak_leaves"), st("poppy"), st("torch"), st("snow[layers=1]")
	store, err := world.NewStore(g, fakeserver.OverworldLayout(proto))
	if err != nil {
		t.Fatal(err)
	}
	for cx := int32(-1); cx <= 0; cx++ {
		for cz := int32(-1); cz <= 0; cz++ {
			c := fakeserver.Column(proto, cx, cz, 0, func(x, y, z int) mcdata.StateID {
				switch {
				case x == -10 && z == -10:
					return 0 // nothing at all
				case x >= 2 && x <= 4 && z >= -3 && z <= -2 && y == 60:
					return water
				case x == -5 && z == -5 && y == 60:
					return lava
				case x == 6 && z == -6 && y >= 61 && y <= 64:
					return log
				case x >= 5 && x <= 7 && z >= -7 && z <= -5 && y == 65:
					return leaves
				case x == 0 && z == -1 && y == 61:
					return poppy
				case x == 1 && z == -1 && y == 61:
					return torch
				case x == -2 && z == -2 && y == 61:
					return snow
				case y < 60:
					return stone
				case y == 60:
					return grass
				}
				return 0
			})
			if err := store.Load(c); err != nil {
				t.Fatal(err)
			}
		}
	}
	m := Scan(store.Snapshot(), Classes(g), 0, -1, 20)
	if m.Side() != 41 || len(m.Cells) != 41*41 {
		t.Fatalf("side %d, %d cells", m.Side(), len(m.Cells))
	}
	for _, c := range []struct {
		x, z int
		want Class
	}{
		{0, -1, Grass}, {1, -1, Grass}, // a flower and a torch are looked through
		{3, -2, Water}, {2, -3, Water}, {5, -2, Grass}, {-5, -5, Lava},
		{6, -6, Wood}, {5, -7, Leaves}, {8, -6, Grass}, {-2, -2, Snow}, // the trunk under its canopy; leaves over grass
		{-10, -10, Empty}, {-12, -12, Grass},
		{15, -1, Grass}, {16, -1, Unknown}, {5, 17, Unknown}, {-17, 0, Unknown}, {-16, -16, Grass},
	} {
		if got := m.At(c.x-m.CX, c.z-m.CZ); got != c.want {
			t.Errorf("at %d %d: %s, want %s", c.x, c.z, got.Name(), c.want.Name())
		}
	}
	if m.At(40, 0) != Unknown {
		t.Error("outside the grid must be Unknown")
	}
	// Rows run north to south, each west to east: cell 21 of row 5 is
	// x 1, z -16.
	if m.Cells[5*41+21] != Grass || m.Cells[5*41+19] != Grass || m.Cells[0] != Unknown || m.Cells[5*41+4] != Grass {
		t.Error("cells are not row by row from the north-west")
	}
	// A scanner that looked before follows a block change (the changed
	// column is a new column) and keeps what did not change.
	sc := NewScanner(Classes(g))
	if got := sc.Scan(store.Snapshot(), 0, -1, 20); got.At(8+0, 4+1) != Grass || got.At(3, -1) != Water {
		t.Fatalf("first scan: %s at 8 4, %s at 3 -2", got.At(8, 5).Name(), got.At(3, -1).Name())
	}
	store.SetBlock(world.BlockPos{X: 8, Y: 61, Z: 4}, lava)
	if got := sc.Scan(store.Snapshot(), 0, -1, 20); got.At(8, 5) != Lava || got.At(3, -1) != Water || got.At(-10, -9) != Empty {
		t.Errorf("after a block change: %s at 8 4, %s at 3 -2, %s at -10 -10", got.At(8, 5).Name(), got.At(3, -1).Name(), got.At(-10, -9).Name())
	}
	m2 := Scan(store.Snapshot(), Classes(g), 3, -2, 0)
	if len(m2.Cells) != 1 || m2.Cells[0] != Water {
		t.Errorf("a radius-0 map is %v", m2.Cells)
	}
}

func TestFacing(t *testing.T) {
	for yaw, want := range map[float32]string{
		0: "south", 90: "west", 180: "north", -90: "east", 270: "east", 45: "south-west", -45: "south-east",
		135: "north-west", -135: "north-east", 22: "south", 23: "south-west", 359: "south", -720: "south", 1e9: "east",
	} {
		if got := Facing(yaw); got != want {
			t.Errorf("Facing(%v) = %q, want %q", yaw, got, want)
		}
	}
	var zero float32
	if got := Facing(zero / zero); got != "" {
		t.Errorf("Facing(NaN) = %q", got)
	}
}

func BenchmarkScan(b *testing.B) {
	const proto = 769
	g := mcdata.Game(proto)
	store, err := world.NewStore(g, fakeserver.OverworldLayout(proto))
	if err != nil {
		b.Fatal(err)
	}
	stone, grass, water := stateOf(b, g, "stone"), stateOf(b, g, "grass_block"), stateOf(b, g, "water")
	for cx := int32(-10); cx <= 10; cx++ {
		for cz := int32(-10); cz <= 10; cz++ {
			c := fakeserver.Column(proto, cx, cz, 0, func(x, y, z int) mcdata.StateID {
				top := 62 + (x*7+z*13)&3
				switch {
				case y < top:
					return stone
				case y == top && (x+z)%9 == 0:
					return water
				case y == top:
					return grass
				}
				return 0
			})
			if err := store.Load(c); err != nil {
				b.Fatal(err)
			}
		}
	}
	tab := Classes(g)
	for _, r := range []int{16, 32} {
		// A first look reads every column; a scanner that looked before
		// reads only the columns that changed (none here).
		b.Run(fmt.Sprint("first-radius-", r), func(b *testing.B) {
			for b.Loop() {
				if m := Scan(store.Snapshot(), tab, 8, 8, r); m.At(0, 0) == Unknown {
					b.Fatal("nothing loaded")
				}
			}
		})
		b.Run(fmt.Sprint("again-radius-", r), func(b *testing.B) {
			sc := NewScanner(tab)
			for b.Loop() {
				if m := sc.Scan(store.Snapshot(), 8, 8, r); m.At(0, 0) == Unknown {
					b.Fatal("nothing loaded")
				}
			}
		})
	}
}
