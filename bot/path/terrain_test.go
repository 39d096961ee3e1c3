package path

import (
	"encoding/binary"
	"math"
	"math/bits"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
)

// Generated terrain for the property tests and the benchmark: rolling
// hills with one-block steps and some two-block cliffs, grass over dirt
// over stone, ponds where the ground dips under the sea level, trees, tall
// grass and flowers. Columns are encoded as chunk section data, the bytes
// a server sends, and decoded back: the same bytes the benchmark hands to
// prismarine-chunk for mineflayer-pathfinder.

// valueNoise is smooth noise in [0, 1) on a grid of cell-sized squares.
func valueNoise(seed uint32, x, z, cell float64) float64 {
	gx, gz := math.Floor(x/cell), math.Floor(z/cell)
	fx, fz := x/cell-gx, z/cell-gz
	corner := func(i, j float64) float64 {
		h := uint32(int32(gx+i))*374761393 + uint32(int32(gz+j))*668265263 + seed*2246822519
		h = (h ^ h>>13) * 1274126177
		return float64((h^h>>16)&0xFFFF) / 65536
	}
	sx, sz := fx*fx*(3-2*fx), fz*fz*(3-2*fz)
	a := corner(0, 0) + (corner(1, 0)-corner(0, 0))*sx
	b := corner(0, 1) + (corner(1, 1)-corner(0, 1))*sx
	return a + (b-a)*sz
}

func hash3(seed uint32, x, y, z int) uint32 {
	h := uint32(x)*374761393 + uint32(y)*668265263 + uint32(z)*2147483647 + seed*2654435761
	h = (h ^ h>>13) * 1274126177
	return h ^ h>>16
}

// terrainGen describes the generated world.
type terrainGen struct {
	seed uint32
	// chunks -r … r-1 on both axes.
	r int
}

const seaLevel = 62

// height is the ground's top block at a column.
func (g terrainGen) height(x, z int) int {
	fx, fz := float64(x), float64(z)
	h := 60 + 14*valueNoise(g.seed, fx, fz, 28) + 4*valueNoise(g.seed+1, fx, fz, 9)
	// Terraces: round to steps, with a cliff where the noise says so.
	return int(math.Floor(h))
}

// tree says whether a tree grows at a column, and how tall its trunk is.
func (g terrainGen) tree(x, z int) (int, bool) {
	if g.height(x, z) <= seaLevel {
		return 0, false
	}
	h := hash3(g.seed+7, x, 0, z)
	if h%97 != 0 {
		return 0, false
	}
	return 4 + int(h>>8)%3, true
}

// column fills the states of a chunk column: cells[y-minY][z][x].
func (g terrainGen) column(s *terrainStates, cx, cz int, l world.Layout) [][16][16]mcdata.StateID {
	cells := make([][16][16]mcdata.StateID, l.Height)
	put := func(x, y, z int, st mcdata.StateID) {
		lx, lz, ly := x-cx*16, z-cz*16, y-l.MinY
		if lx >= 0 && lx < 16 && lz >= 0 && lz < 16 && ly >= 0 && ly < l.Height {
			cells[ly][lz][lx] = st
		}
	}
	for lx := range 16 {
		for lz := range 16 {
			x, z := cx*16+lx, cz*16+lz
			top := g.height(x, z)
			for y := l.MinY; y <= max(top, seaLevel); y++ {
				st := s.stone
				switch {
				case y == l.MinY:
					st = s.bedrock
				case y < top-3:
				case y < top:
					st = s.dirt
				case y == top && top < seaLevel:
					st = s.dirt
				case y == top:
					st = s.grass
				default:
					st = s.water
				}
				put(x, y, z, st)
			}
			if top >= seaLevel {
				switch hash3(g.seed+3, x, top+1, z) % 10 {
				case 0, 1:
					put(x, top+1, z, s.grassPlant)
				case 2:
					put(x, top+1, z, s.flower)
				}
			}
		}
	}
	// Trees whose leaves may reach into the column.
	for x := cx*16 - 2; x < cx*16+18; x++ {
		for z := cz*16 - 2; z < cz*16+18; z++ {
			trunk, ok := g.tree(x, z)
			if !ok {
				continue
			}
			base := g.height(x, z)
			for dx := -2; dx <= 2; dx++ {
				for dz := -2; dz <= 2; dz++ {
					for ly := -1; ly <= 1; ly++ {
						if ly == 1 && (abs(dx) > 1 || abs(dz) > 1) {
							continue
						}
						if lx, lz := x+dx-cx*16, z+dz-cz*16; lx >= 0 && lx < 16 && lz >= 0 && lz < 16 {
							if cells[base+trunk+ly-l.MinY][lz][lx] == s.air {
								put(x+dx, base+trunk+ly, z+dz, s.leaves)
							}
						}
					}
				}
			}
			for y := base + 1; y <= base+trunk; y++ {
				put(x, y, z, s.log)
			}
		}
	}
	return cells
}

type terrainStates struct {
	bedrock, stone, dirt, grass, water, log, leaves, grassPlant, flower, air mcdata.StateID
}

func statesFor(tb testing.TB) *terrainStates {
	return &terrainStates{
		bedrock: stateOf(tb, "bedrock"), stone: stateOf(tb, "stone"), dirt: stateOf(tb, "dirt"),
		grass: stateOf(tb, "grass_block[snowy=false]"), water: stateOf(tb, "water[level=0]"),
		log: stateOf(tb, "oak_log[axis=y]"), leaves: stateOf(tb, "oak_leaves[distance=1,persistent=true,waterlogged=false]"),
		grassPlant: stateOf(tb, "short_grass"), flower: stateOf(tb, "dandelion"), air: stateOf(tb, "air"),
	}
}

// columnData encodes a column's sections as a 1.21.4 server sends them.
func (g terrainGen) columnData(s *terrainStates, cx, cz int, l world.Layout) []byte {
	w := &wire.Writer{}
	cells := g.column(s, cx, cz, l)
	var states [4096]mcdata.StateID
	for i := range l.Sections() {
		for b := range 4096 {
			states[b] = cells[16*i+b>>8][(b>>4)&15][b&15]
		}
		appendSection(w, &states, l)
	}
	return w.B
}

// appendSection writes one section: the block count, the blocks as a
// paletted container (one value, a local palette of 4–8 bits, or global
// ids), and one biome.
func appendSection(w *wire.Writer, states *[4096]mcdata.StateID, l world.Layout) {
	var palette []mcdata.StateID
	index := map[mcdata.StateID]int{}
	count := 0
	for _, st := range states {
		if !game.IsAir(st) {
			count++
		}
		if _, ok := index[st]; !ok {
			index[st] = len(palette)
			palette = append(palette, st)
		}
	}
	w.Uint16(uint16(count))
	if len(palette) == 1 {
		w.Byte(0)
		w.VarInt(int32(palette[0]))
		w.VarInt(0)
	} else {
		b := max(4, bits.Len(uint(len(palette)-1)))
		direct := b > 8
		if direct {
			b = bits.Len(uint(l.NumStates - 1))
		}
		w.Byte(byte(b))
		if !direct {
			w.VarInt(int32(len(palette)))
			for _, p := range palette {
				w.VarInt(int32(p))
			}
		}
		per := 64 / b
		words := make([]uint64, (4096+per-1)/per)
		for i, st := range states {
			v := uint64(st)
			if !direct {
				v = uint64(index[st])
			}
			words[i/per] |= v << (uint(i%per) * uint(b))
		}
		w.VarInt(int32(len(words)))
		for _, word := range words {
			w.B = binary.BigEndian.AppendUint64(w.B, word)
		}
	}
	w.Byte(0) // biomes: one value
	w.VarInt(0)
	w.VarInt(0)
}

// store decodes every column into a store.
func (g terrainGen) store(tb testing.TB, datas map[world.ChunkPos][]byte) *world.Store {
	l := testLayout()
	st, err := world.NewStore(game, l)
	if err != nil {
		tb.Fatal(err)
	}
	for pos, data := range datas {
		secs, _, err := world.DecodeSections(data, l)
		if err != nil {
			tb.Fatal(err)
		}
		if err := st.Load(&world.Chunk{Pos: pos, Sections: secs}); err != nil {
			tb.Fatal(err)
		}
	}
	return st
}

// encode encodes every column of the generated world.
func (g terrainGen) encode(tb testing.TB) map[world.ChunkPos][]byte {
	s := statesFor(tb)
	out := map[world.ChunkPos][]byte{}
	for cx := -g.r; cx < g.r; cx++ {
		for cz := -g.r; cz < g.r; cz++ {
			out[world.ChunkPos{X: int32(cx), Z: int32(cz)}] = g.columnData(s, cx, cz, testLayout())
		}
	}
	return out
}

// surface is where a player stands on the ground at a column (in the
// water's top block, for a pond).
func (g terrainGen) surface(x, z int) world.BlockPos {
	if h := g.height(x, z); h >= seaLevel {
		return world.BlockPos{X: x, Y: h + 1, Z: z}
	}
	return world.BlockPos{X: x, Y: seaLevel, Z: z}
}
