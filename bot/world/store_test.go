package world

import (
	"math/rand/v2"
	"sort"
	"sync"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

var game = mcdata.Game(769)

func storeLayout() Layout {
	return Layout{MinY: -64, Height: 384, NumStates: game.NumStates(), NumBiomes: 65}
}

func state(t testing.TB, pattern string) mcdata.StateID {
	set, err := game.MatchStates(pattern)
	if err != nil {
		t.Fatal(err)
	}
	for id := mcdata.StateID(0); int(id) < game.NumStates(); id++ {
		if set.Has(id) {
			return id
		}
	}
	t.Fatalf("%s matches nothing", pattern)
	return 0
}

// buildChunk makes a chunk whose blocks fill says (world coordinates), with
// biome 1 everywhere, as if decoded.
func buildChunk(pos ChunkPos, l Layout, fill func(x, y, z int) mcdata.StateID) *Chunk {
	bk, _ := l.kinds()
	c := &Chunk{Pos: pos}
	for i := 0; i < l.Sections(); i++ {
		s := &Section{biomes: container{value: 1}}
		for b := 0; b < 4096; b++ {
			x, y, z := int(pos.X)<<4|b&15, l.MinY+i<<4|b>>8, int(pos.Z)<<4|(b>>4)&15
			s.blocks.set(b, uint32(fill(x, y, z)), &bk)
		}
		c.Sections = append(c.Sections, keep(s))
		c.Counts = append(c.Counts, SectionCounts{})
	}
	return c
}

func flat(stone, grass mcdata.StateID) func(x, y, z int) mcdata.StateID {
	return func(x, y, z int) mcdata.StateID {
		switch {
		case y < 60:
			return stone
		case y == 60:
			return grass
		}
		return 0
	}
}

func TestStoreBlocks(t *testing.T) {
	stone, grass, glass := state(t, "stone"), state(t, "grass_block[snowy=false]"), state(t, "glass")
	s, err := NewStore(game, storeLayout())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load(buildChunk(ChunkPos{0, 0}, storeLayout(), flat(stone, grass))); err != nil {
		t.Fatal(err)
	}
	if err := s.Load(buildChunk(ChunkPos{-1, 2}, storeLayout(), flat(stone, grass))); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p  BlockPos
		st mcdata.StateID
		ok bool
	}{
		{BlockPos{0, 59, 0}, stone, true},
		{BlockPos{15, 60, 15}, grass, true},
		{BlockPos{3, 61, 3}, 0, true},
		{BlockPos{-16, -64, 32}, stone, true},
		{BlockPos{-1, 60, 47}, grass, true},
		{BlockPos{16, 60, 0}, 0, false},   // not loaded
		{BlockPos{0, -65, 0}, 0, false},   // below the world
		{BlockPos{0, 320, 0}, 0, false},   // above it
		{BlockPos{-17, 60, 32}, 0, false}, // not loaded
	} {
		st, ok := s.BlockAt(c.p)
		if st != c.st || ok != c.ok {
			t.Errorf("BlockAt(%v) = %d %v, want %d %v", c.p, st, ok, c.st, c.ok)
		}
	}
	if b, ok := s.BiomeAt(BlockPos{5, 0, 5}); b != 1 || !ok {
		t.Errorf("biome %d %v", b, ok)
	}
	before := s.Snapshot()
	changed := s.Changed()
	if !s.SetBlock(BlockPos{1, 70, 1}, glass) {
		t.Fatal("SetBlock in a loaded column failed")
	}
	select {
	case <-changed:
	default:
		t.Error("a block change did not close Changed")
	}
	if st, _ := s.BlockAt(BlockPos{1, 70, 1}); st != glass {
		t.Errorf("after SetBlock: %d", st)
	}
	if st, _ := before.BlockAt(BlockPos{1, 70, 1}); st != 0 {
		t.Errorf("a snapshot taken before the change sees %d", st)
	}
	if s.SetBlock(BlockPos{100, 70, 1}, glass) || s.SetBlock(BlockPos{1, 400, 1}, glass) || s.SetBlock(BlockPos{1, 70, 1}, mcdata.StateID(game.NumStates())) {
		t.Error("SetBlock applied a change outside the world or of an unknown state")
	}
	n := s.SetBlocks([]BlockChange{
		{BlockPos{2, 59, 2}, glass}, {BlockPos{2, 58, 2}, glass}, {BlockPos{-5, 100, 40}, glass}, {BlockPos{500, 0, 0}, glass},
	})
	if n != 3 {
		t.Errorf("SetBlocks applied %d of 3", n)
	}
	for _, p := range []BlockPos{{2, 59, 2}, {2, 58, 2}, {-5, 100, 40}} {
		if st, _ := s.BlockAt(p); st != glass {
			t.Errorf("%v is %d after SetBlocks", p, st)
		}
	}
	// Every neighbour of the changed blocks kept its state.
	if st, _ := s.BlockAt(BlockPos{3, 59, 2}); st != stone {
		t.Errorf("a neighbour changed: %d", st)
	}
	s.Unload(ChunkPos{-1, 2})
	if s.Loaded(ChunkPos{-1, 2}) || s.Len() != 1 {
		t.Error("unload kept the column")
	}
	if _, ok := before.BlockAt(BlockPos{-1, 60, 47}); !ok {
		t.Error("the snapshot lost a column the store unloaded")
	}
	nether := Layout{MinY: 0, Height: 256, NumStates: game.NumStates(), NumBiomes: 65}
	if err := s.Reset(nether); err != nil || s.Len() != 0 {
		t.Fatalf("reset: %v, %d columns", err, s.Len())
	}
	if err := s.Load(buildChunk(ChunkPos{0, 0}, storeLayout(), flat(stone, grass))); err == nil {
		t.Error("a 24-section chunk loaded into a 16-section dimension")
	}
	if err := s.Reset(Layout{MinY: 0, Height: 256, NumStates: 5, NumBiomes: 1}); err == nil {
		t.Error("a layout with another version's state count was accepted")
	}
}

func TestBlockEntitiesFollowBlocks(t *testing.T) {
	chest := game.BlockByName("chest")
	furnaceOff, _ := game.BlockByName("furnace").StateWith(map[string]string{"lit": "false"})
	furnaceOn, _ := game.BlockByName("furnace").StateWith(map[string]string{"lit": "true"})
	l := storeLayout()
	c := buildChunk(ChunkPos{0, 0}, l, func(x, y, z int) mcdata.StateID {
		switch {
		case x == 1 && y == 64 && z == 1:
			return chest.DefaultState
		case x == 2 && y == 64 && z == 2:
			return furnaceOff
		}
		return 0
	})
	c.BlockEntities = []BlockEntity{{Pos: BlockPos{1, 64, 1}, Type: 1, NBT: []byte{10, 0}}, {Pos: BlockPos{2, 64, 2}, Type: 2}}
	s, _ := NewStore(game, l)
	s.Load(c)
	s.SetBlock(BlockPos{2, 64, 2}, furnaceOn) // same block: the furnace keeps its data
	s.SetBlock(BlockPos{1, 64, 1}, 0)         // broken: the chest's data goes
	col := s.Snapshot().Column(ChunkPos{0, 0})
	if got := col.BlockEntities(); len(got) != 1 || got[0].Pos != (BlockPos{2, 64, 2}) {
		t.Errorf("block entities after the changes: %+v", got)
	}
	s.SetBlockEntity(BlockEntity{Pos: BlockPos{2, 64, 2}, Type: 2, NBT: []byte{10, 0}})
	s.SetBlockEntity(BlockEntity{Pos: BlockPos{3, 64, 3}, Type: 5})
	if got := s.Snapshot().Column(ChunkPos{0, 0}).BlockEntities(); len(got) != 2 || got[0].NBT == nil {
		t.Errorf("after SetBlockEntity: %+v", got)
	}
	if got := col.BlockEntities(); len(got) != 1 || got[0].NBT != nil {
		t.Errorf("an older column changed: %+v", got)
	}
	if s.SetBlockEntity(BlockEntity{Pos: BlockPos{99, 0, 0}}) {
		t.Error("a block entity in an unloaded column was kept")
	}
}

// TestSkySectionsAreShared: an all-air section costs a pointer, so a column
// of sky costs far less than its 24 sections.
func TestSkySectionsAreShared(t *testing.T) {
	l := storeLayout()
	s, _ := NewStore(game, l)
	data := AppendSections(nil, buildChunk(ChunkPos{}, l, func(int, int, int) mcdata.StateID { return 0 }).Sections, nil, l)
	for i := range 100 {
		secs, counts, err := DecodeSections(data, l)
		if err != nil {
			t.Fatal(err)
		}
		s.Load(&Chunk{Pos: ChunkPos{int32(i), 0}, Sections: secs, Counts: counts})
	}
	if per := s.Bytes() / 100; per > 400 {
		t.Errorf("an empty column costs %d bytes", per)
	}
}

// TestReadersNeverSeeHalfAChange: one writer sets two blocks of one column
// (in different sections) to the same state in each batch; readers, through
// snapshots and BlockAt, must always see the pair equal.
func TestReadersNeverSeeHalfAChange(t *testing.T) {
	l := storeLayout()
	s, _ := NewStore(game, l)
	s.Load(buildChunk(ChunkPos{0, 0}, l, func(int, int, int) mcdata.StateID { return 0 }))
	a, b := BlockPos{1, 10, 1}, BlockPos{1, 200, 1}
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(done)
		for i := range 2000 {
			st := mcdata.StateID(1 + i%50)
			s.SetBlocks([]BlockChange{{a, st}, {b, st}})
			if i%100 == 0 { // loads and unloads of another column meanwhile
				s.Load(buildChunk(ChunkPos{5, 5}, l, func(int, int, int) mcdata.StateID { return 1 }))
				s.Unload(ChunkPos{5, 5})
			}
		}
	}()
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				v := s.Snapshot()
				x, _ := v.BlockAt(a)
				y, _ := v.BlockAt(b)
				if x != y {
					t.Errorf("a snapshot holds half a change: %d and %d", x, y)
					return
				}
				if _, ok := s.BlockAt(a); !ok {
					t.Error("the column vanished")
					return
				}
			}
		}()
	}
	wg.Wait()
	if x, _ := s.BlockAt(a); x != mcdata.StateID(1+1999%50) {
		t.Errorf("the last change is missing: %d", x)
	}
}

// TestFindBlocksMatchesBruteForce compares FindBlocks with a scan of every
// block, over worlds with every palette kind, from many origins.
func TestFindBlocksMatchesBruteForce(t *testing.T) {
	l := storeLayout()
	l.Height = 64
	l.MinY = 0
	rng := rand.New(rand.NewPCG(7, 8))
	s, _ := NewStore(game, l)
	target := state(t, "oak_log[axis=y]")
	for cx := int32(-2); cx <= 2; cx++ {
		for cz := int32(-2); cz <= 2; cz++ {
			kind := rng.IntN(4)
			s.Load(buildChunk(ChunkPos{cx, cz}, l, func(x, y, z int) mcdata.StateID {
				switch kind {
				case 0: // sparse targets in stone
					if rng.IntN(500) == 0 {
						return target
					}
					return 1
				case 1: // many states: global palette
					if rng.IntN(50) == 0 {
						return target
					}
					return mcdata.StateID(rng.IntN(600))
				case 2: // a whole section of targets
					if y >= 16 && y < 32 {
						return target
					}
					return 0
				}
				return 0 // none
			}))
		}
	}
	v := s.Snapshot()
	var all []Found
	for cx := -2; cx <= 2; cx++ {
		for cz := -2; cz <= 2; cz++ {
			for y := 0; y < 64; y++ {
				for x := 0; x < 16; x++ {
					for z := 0; z < 16; z++ {
						p := BlockPos{cx<<4 | x, y, cz<<4 | z}
						if st, _ := v.BlockAt(p); st == target {
							all = append(all, Found{Pos: p, State: st})
						}
					}
				}
			}
		}
	}
	match := func(st mcdata.StateID) bool { return st == target }
	for range 100 {
		from := BlockPos{rng.IntN(100) - 50, rng.IntN(80) - 8, rng.IntN(100) - 50}
		radius, count := rng.IntN(60), 1+rng.IntN(40)
		var want []Found
		for _, f := range all {
			dx, dy, dz := f.Pos.X-from.X, f.Pos.Y-from.Y, f.Pos.Z-from.Z
			if d := dx*dx + dy*dy + dz*dz; d <= radius*radius {
				f.DistSq = d
				want = append(want, f)
			}
		}
		sort.Slice(want, func(i, j int) bool { return want[i].before(want[j]) })
		if len(want) > count {
			want = want[:count]
		}
		got := v.FindBlocks(from, radius, count, match)
		if len(got) != len(want) {
			t.Fatalf("from %v radius %d count %d: %d found, want %d", from, radius, count, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("from %v radius %d count %d: #%d is %+v, want %+v", from, radius, count, i, got[i], want[i])
			}
		}
	}
	if got := v.FindBlocks(BlockPos{}, 10, 0, match); got != nil {
		t.Errorf("count 0 found %v", got)
	}
}

// TestMemoryFollowsLoadedColumns: the store's memory grows with the columns
// loaded and falls back to nothing when they unload.
func TestMemoryFollowsLoadedColumns(t *testing.T) {
	s, _ := NewStore(game, storeLayout())
	l := storeLayout()
	tc := terrainColumn(t, ChunkPos{}, 1)
	data := AppendSections(nil, tc.Sections, tc.Counts, l)
	one := 0
	for i := range 20 {
		secs, _, err := DecodeSections(data, l) // sections of its own, as from the wire
		if err != nil {
			t.Fatal(err)
		}
		s.Load(&Chunk{Pos: ChunkPos{int32(i), 0}, Sections: secs})
		if i == 0 {
			one = s.Bytes()
		}
	}
	if one < 4096 || s.Bytes() < 20*one/2 {
		t.Errorf("one column %d bytes, twenty %d", one, s.Bytes())
	}
	for i := range 20 {
		s.Unload(ChunkPos{int32(i), 0})
	}
	if s.Bytes() != 0 || s.Len() != 0 {
		t.Errorf("after unloading everything: %d bytes, %d columns", s.Bytes(), s.Len())
	}
}

func TestAppendChunkRoundTrip(t *testing.T) {
	stone, glass := state(t, "stone"), state(t, "glass")
	for _, f := range []Format{{}, {NoSizePrefix: true, HeightmapArray: true}, {NoSizePrefix: true, HeightmapArray: true, FluidCount: true}} {
		l := storeLayout()
		l.Format = f
		c := &Chunk{Pos: ChunkPos{-3, 9}}
		for i := 0; i < l.Sections(); i++ {
			c.Sections = append(c.Sections, BuildSection(l, int32(i%2), func(x, y, z int) mcdata.StateID {
				if (x+y+z+i)%5 == 0 {
					return glass
				}
				return stone
			}))
		}
		c.BlockEntities = []BlockEntity{{Pos: BlockPos{-40, 70, 150}, Type: 3, NBT: []byte{10, 0}}, {Pos: BlockPos{-33, -64, 159}, Type: 1}}
		got, err := DecodeChunk(wire.NewReader(AppendChunk(nil, c, l)), l)
		if err != nil {
			t.Fatalf("%+v: %v", f, err)
		}
		if got.Pos != c.Pos || len(got.Sections) != len(c.Sections) || len(got.BlockEntities) != 2 {
			t.Fatalf("%+v: decoded %+v", f, got)
		}
		for i, s := range got.Sections {
			for b := 0; b < 4096; b += 7 {
				if s.Block(b&15, b>>8, b>>4&15) != c.Sections[i].Block(b&15, b>>8, b>>4&15) || s.Biome(b&15, b>>8, b>>4&15) != int32(i%2) {
					t.Fatalf("%+v: section %d block %d differs", f, i, b)
				}
			}
		}
		for i, e := range got.BlockEntities {
			if e.Pos != c.BlockEntities[i].Pos || e.Type != c.BlockEntities[i].Type || string(e.NBT) != string(c.BlockEntities[i].NBT) {
				t.Errorf("%+v: block entity %d = %+v, want %+v", f, i, e, c.BlockEntities[i])
			}
		}
	}
}

func TestRetain(t *testing.T) {
	s, err := NewStore(game, storeLayout())
	if err != nil {
		t.Fatal(err)
	}
	for x := int32(-2); x <= 2; x++ {
		if err := s.Load(buildChunk(ChunkPos{x, 0}, storeLayout(), func(x, y, z int) mcdata.StateID { return 0 })); err != nil {
			t.Fatal(err)
		}
	}
	changed := s.Changed()
	if n := s.Retain(func(p ChunkPos) bool { return p.X >= 0 }); n != 2 {
		t.Errorf("Retain unloaded %d columns, want 2", n)
	}
	select {
	case <-changed:
	default:
		t.Error("Retain did not notify")
	}
	if s.Len() != 3 || s.Loaded(ChunkPos{-1, 0}) || !s.Loaded(ChunkPos{2, 0}) {
		t.Errorf("after Retain: %d columns, -1 loaded %v", s.Len(), s.Loaded(ChunkPos{-1, 0}))
	}
}

// TestCountBlocks counts a cube by reading every block one by one and
// compares.
func TestCountBlocks(t *testing.T) {
	stone, grass, glass := state(t, "stone"), state(t, "grass_block[snowy=false]"), state(t, "glass")
	s, err := NewStore(game, storeLayout())
	if err != nil {
		t.Fatal(err)
	}
	for x := int32(-1); x <= 1; x++ {
		for z := int32(-1); z <= 1; z++ {
			if err := s.Load(buildChunk(ChunkPos{x, z}, storeLayout(), func(x, y, z int) mcdata.StateID {
				switch {
				case (x*31+y*17+z*7)%11 == 0 && y < 70:
					return glass
				case y < 60:
					return stone
				case y == 60:
					return grass
				}
				return 0
			})); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A column of sections with over 256 states stores global ids.
	if err := s.Load(buildChunk(ChunkPos{5, 5}, storeLayout(), func(x, y, z int) mcdata.StateID {
		return mcdata.StateID(uint(x*y*z+y) % 600)
	})); err != nil {
		t.Fatal(err)
	}
	v := s.Snapshot()
	for _, c := range []struct {
		from BlockPos
		r    int
	}{{BlockPos{88, 10, 90}, 9}, {BlockPos{0, 60, 0}, 5}, {BlockPos{-7, 58, 13}, 12}, {BlockPos{3, 300, 3}, 30}, {BlockPos{40, 60, 0}, 30}, {BlockPos{0, -60, 0}, 8}} {
		got := map[mcdata.StateID]int{}
		v.CountBlocks(c.from, c.r, func(st mcdata.StateID, n int) { got[st] += n })
		want := map[mcdata.StateID]int{}
		for x := c.from.X - c.r; x <= c.from.X+c.r; x++ {
			for y := c.from.Y - c.r; y <= c.from.Y+c.r; y++ {
				for z := c.from.Z - c.r; z <= c.from.Z+c.r; z++ {
					if st, ok := v.BlockAt(BlockPos{x, y, z}); ok {
						want[st]++
					}
				}
			}
		}
		if len(got) != len(want) {
			t.Errorf("%+v: %v, want %v", c, got, want)
		}
		for st, n := range want {
			if got[st] != n {
				t.Errorf("%+v: state %d counted %d, want %d", c, st, got[st], n)
			}
		}
	}
}
