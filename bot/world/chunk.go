package world

import (
	"errors"
	"fmt"

	"github.com/blockmate/blockmate/bot/wire"
)

// Format is how one protocol lays out chunk data. The per-version codec
// sets it (minecraft-data's protocol.json and prismarine-chunk's
// src/pc/1.18 agree on these three changes); the world knows no versions.
type Format struct {
	// NoSizePrefix: a paletted container sends no VarInt word count before
	// its words; the reader computes it (1.21.5, protocol 770, on).
	NoSizePrefix bool
	// FluidCount: each section sends a short count of fluid blocks after its
	// block count (26.1, protocol 775, on).
	FluidCount bool
	// HeightmapArray: heightmaps are an array of (type, words) rather than
	// an NBT compound (1.21.5, protocol 770, on).
	HeightmapArray bool
	// LightMaskBytes: each light mask is a VarInt count of bytes and the
	// bytes (java.util.BitSet.toByteArray), not a VarInt count of longs
	// (26.3, protocol 777, on).
	LightMaskBytes bool
}

// Layout is everything the decoder needs besides the bytes: the format,
// the dimension's height (from the dimension type the server's registry
// data describes) and the sizes of the two global palettes.
type Layout struct {
	Format
	// MinY is the lowest block y (-64 in the overworld), Height the number
	// of block layers (384); both are multiples of 16.
	MinY, Height int
	// NumStates is the version's number of block states
	// (mcdata.GameData.NumStates); NumBiomes the number of entries of the
	// biome registry the server sent in configuration.
	NumStates, NumBiomes int
}

// maxHeight is the game's limit on a dimension's height (DimensionType).
const maxHeight = 4064

// Check says what is wrong with a layout, or nil.
func (l Layout) Check() error {
	switch {
	case l.Height <= 0 || l.Height%16 != 0 || l.Height > maxHeight:
		return fmt.Errorf("dimension height %d is not a positive multiple of 16 up to %d", l.Height, maxHeight)
	case l.MinY%16 != 0:
		return fmt.Errorf("dimension minimum y %d is not a multiple of 16", l.MinY)
	case l.NumStates < 2 || l.NumStates > 1<<24:
		return fmt.Errorf("%d block states is not a version's", l.NumStates)
	case l.NumBiomes < 1 || l.NumBiomes > 1<<16:
		return fmt.Errorf("a biome registry of %d entries is not usable", l.NumBiomes)
	}
	return nil
}

// Sections is how many sections a column of the layout has.
func (l Layout) Sections() int { return l.Height / 16 }

func (l Layout) kinds() (blocks, biomes kind) {
	return newKind("block", 4096, 4, 8, l.NumStates), newKind("biome", 64, 1, 3, l.NumBiomes)
}

// ChunkPos is a column's position: block x and z divided by 16.
type ChunkPos struct{ X, Z int32 }

// BlockPos is a block's position in the world.
type BlockPos struct{ X, Y, Z int }

// Chunk of returns the column holding the block.
func (p BlockPos) Chunk() ChunkPos { return ChunkPos{int32(p.X >> 4), int32(p.Z >> 4)} }

// Chunk is one decoded chunk data packet ("level_chunk_with_light").
type Chunk struct {
	Pos        ChunkPos
	Heightmaps []Heightmap
	// Sections are the column's sections from the bottom; Counts their
	// counts as sent.
	Sections      []*Section
	Counts        []SectionCounts
	BlockEntities []BlockEntity
}

// BlockEntity is a block's extra data as a chunk sends it: its position,
// its type (an id in the block_entity_type registry) and its NBT, kept as
// the bytes of one network NBT value (nil when the server sent none) for
// the skill that needs it to decode.
type BlockEntity struct {
	Pos  BlockPos
	Type int32
	NBT  []byte
}

// HeightmapKind names a heightmap; the numbers are the wire's since 1.21.5.
type HeightmapKind int32

const (
	WorldSurfaceWG HeightmapKind = iota
	WorldSurface
	OceanFloorWG
	OceanFloor
	MotionBlocking
	MotionBlockingNoLeaves
)

// heightmapNames are the NBT keys before 1.21.5, by kind.
var heightmapNames = [...]string{"WORLD_SURFACE_WG", "WORLD_SURFACE", "OCEAN_FLOOR_WG", "OCEAN_FLOOR", "MOTION_BLOCKING", "MOTION_BLOCKING_NO_LEAVES"}

// Heightmap is, per column of blocks, one more than the height of its
// highest block of a kind, counted from the dimension's MinY, packed as
// the wire sends it.
type Heightmap struct {
	Kind HeightmapKind
	Data []int64
}

// At is the heightmap's value at column-local x, z (0–15) for a dimension
// of the given height: the y just above the highest block is MinY plus it.
// It is -1 when the heightmap is too short to hold the entry.
func (h Heightmap) At(x, z, height int) int {
	b := 1
	for 1<<b <= height { // ceil(log2(height+1)), the game's width
		b++
	}
	per := 64 / b
	i := z<<4 | x
	if i/per >= len(h.Data) {
		return -1
	}
	return int(uint64(h.Data[i/per])>>(uint(i%per)*uint(b))) & (1<<b - 1)
}

// maxBlockEntities bounds a chunk's block entities; the packet's size
// bounds them anyway (5 bytes each at least), this only refuses absurd
// chunks early.
const maxBlockEntities = 1 << 16

// DecodeChunk reads a chunk data packet's body: the terrain (DecodeTerrain)
// and the light data, which the bot does not keep and skips (SkipLight).
// Everything allocated is bounded by the bytes read.
func DecodeChunk(r *wire.Reader, l Layout) (*Chunk, error) {
	c, err := DecodeTerrain(r, l)
	if err != nil {
		return nil, err
	}
	l.Format.SkipLight(r)
	if r.Err() != nil {
		return nil, fmt.Errorf("chunk %d,%d: %w", c.Pos.X, c.Pos.Z, r.Err())
	}
	return c, nil
}

// DecodeTerrain reads a chunk data packet's body up to its light data: x
// and z, the heightmaps, the section data (a byte array holding every
// section) and the block entities. It leaves r at the light data, which is
// all the packet's bytes that follow (TerrainEnd finds the same place
// without decoding). Everything allocated is bounded by the bytes read.
func DecodeTerrain(r *wire.Reader, l Layout) (*Chunk, error) {
	if err := l.Check(); err != nil {
		return nil, err
	}
	c := &Chunk{Pos: ChunkPos{r.Int32(), r.Int32()}}
	var err error
	if c.Heightmaps, err = readHeightmaps(r, l.HeightmapArray); err != nil {
		return nil, fmt.Errorf("chunk %d,%d: heightmaps: %w", c.Pos.X, c.Pos.Z, err)
	}
	data := r.ByteArray()
	if r.Err() != nil {
		return nil, fmt.Errorf("chunk %d,%d: section data: %w", c.Pos.X, c.Pos.Z, r.Err())
	}
	if c.Sections, c.Counts, err = DecodeSections(data, l); err != nil {
		return nil, fmt.Errorf("chunk %d,%d: %w", c.Pos.X, c.Pos.Z, err)
	}
	n := r.Count(5)
	if n > maxBlockEntities {
		return nil, fmt.Errorf("chunk %d,%d sends %d block entities", c.Pos.X, c.Pos.Z, n)
	}
	if n > 0 {
		c.BlockEntities = make([]BlockEntity, 0, n)
	}
	for i := 0; i < n && r.Err() == nil; i++ {
		xz := r.Byte()
		y := int(r.Int16())
		typ := r.VarInt()
		raw := r.NBTRaw()
		c.BlockEntities = append(c.BlockEntities, BlockEntity{
			Pos:  BlockPos{int(c.Pos.X)<<4 | int(xz>>4), y, int(c.Pos.Z)<<4 | int(xz&15)},
			Type: typ,
			NBT:  append([]byte(nil), raw...),
		})
	}
	if r.Err() != nil {
		return nil, fmt.Errorf("chunk %d,%d: %w", c.Pos.X, c.Pos.Z, r.Err())
	}
	return c, nil
}

// terrainSlack is how far past what it has seen TerrainEnd asks for when
// it cannot tell the length of what comes next (a VarInt, NBT): enough
// for the counts and the few block entities of most chunks in one step,
// little beside a chunk's light data.
const terrainSlack = 1 << 10

// TerrainEnd says where the terrain of a chunk data packet's body ends (the
// bytes DecodeTerrain reads), given b, the body's first bytes, without
// decoding anything: end when the terrain ends within b; otherwise need,
// more than len(b), the length of prefix that gets further. It walks the
// fields DecodeTerrain reads (the heightmaps and block entities as raw
// NBT, the section data by its length) and is held to it on every
// captured chunk and by fuzzing (TestTerrainEndIsDecodeTerrains,
// FuzzTerrainEnd). The connection uses it to stop inflating a chunk
// packet at its light data, the most of its bytes, which the bot does not
// read. A body that is malformed rather than short gets need too: the
// caller, once it has the whole body, decodes it and meets the error.
func (f Format) TerrainEnd(b []byte) (end, need int) {
	r := wire.NewReader(b)
	at := func() int { return len(b) - r.Remaining() }
	more := func(n int) int { return max(n, len(b)+terrainSlack) }
	r.Int32()
	r.Int32()
	if f.HeightmapArray {
		n := int(r.VarInt())
		for i := 0; i < n && r.Err() == nil; i++ {
			r.VarInt()
			r.Bytes(8 * int(r.VarInt()))
		}
	} else {
		r.NBTRaw()
	}
	size := r.VarInt()
	if r.Err() != nil {
		return 0, more(0)
	}
	if start := at(); int(size) > len(b)-start {
		// The section data alone says how far to go: to its end and the
		// block entity count after it.
		return 0, more(start + int(max(size, 0)) + 1)
	}
	r.Bytes(int(size))
	n := r.VarInt()
	for i := 0; i < int(n) && r.Err() == nil; i++ {
		r.Byte()
		r.Int16()
		r.VarInt()
		r.NBTRaw()
	}
	if r.Err() != nil || n < 0 {
		return 0, more(0)
	}
	return at(), 0
}

// maxLightArrays bounds the light arrays of a chunk or light update: one per
// section plus the two beyond the ends.
const maxLightArrays = maxHeight/16 + 2

// SkipLight reads past light data, as chunk data and light updates carry
// it: four bit sets (sky, block, empty sky, empty block; a VarInt count of
// longs each, or from 26.3 of bytes), then the sky and block light arrays
// (a VarInt count of VarInt-prefixed arrays of at most 2048 bytes, the
// game's limit).
func (f Format) SkipLight(r *wire.Reader) {
	for range 4 {
		if f.LightMaskBytes {
			r.Bytes(r.Count(1))
		} else {
			r.Bytes(8 * r.Count(8))
		}
	}
	for range 2 {
		n := r.Count(1)
		if n > maxLightArrays {
			r.Failf("light data has %d arrays; a column has at most %d", n, maxLightArrays)
			return
		}
		for i := 0; i < n && r.Err() == nil; i++ {
			size := r.VarInt()
			if size < 0 || size > 2048 {
				r.Failf("light array of %d bytes; the game sends 2048", size)
				return
			}
			r.Bytes(int(size))
		}
	}
}

func readHeightmaps(r *wire.Reader, array bool) ([]Heightmap, error) {
	if array {
		n := r.Count(2)
		if n > 64 {
			return nil, fmt.Errorf("%d heightmaps", n)
		}
		out := make([]Heightmap, 0, n)
		for i := 0; i < n && r.Err() == nil; i++ {
			kind := HeightmapKind(r.VarInt())
			words := make([]int64, r.Count(8))
			for j := range words {
				words[j] = r.Int64()
			}
			out = append(out, Heightmap{Kind: kind, Data: words})
		}
		return out, r.Err()
	}
	v := r.NBT()
	if r.Err() != nil {
		return nil, r.Err()
	}
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("heightmaps are not an NBT compound")
	}
	var out []Heightmap
	for kind, name := range heightmapNames {
		if words, ok := m[name].([]int64); ok {
			out = append(out, Heightmap{Kind: HeightmapKind(kind), Data: words})
		}
	}
	return out, nil
}

// DecodeSections reads the section data of a chunk: for each of the
// layout's sections, its block count (and, with FluidCount, its fluid
// count), its block states and its biomes. Bytes left after the last
// section are an error: they mean the layout does not match the server's.
func DecodeSections(data []byte, l Layout) ([]*Section, []SectionCounts, error) {
	if err := l.Check(); err != nil {
		return nil, nil, err
	}
	blockKind, biomeKind := l.kinds()
	r := wire.NewReader(data)
	n := l.Sections()
	sections := make([]*Section, n)
	counts := make([]SectionCounts, n)
	for i := range sections {
		var s Section
		counts[i].Blocks = r.Int16()
		if l.FluidCount {
			counts[i].Fluids = r.Int16()
		}
		if err := s.blocks.read(r, &blockKind, l.NoSizePrefix); err != nil {
			return nil, nil, fmt.Errorf("section %d (y %d): %w", i, l.MinY+16*i, err)
		}
		if err := s.biomes.read(r, &biomeKind, l.NoSizePrefix); err != nil {
			return nil, nil, fmt.Errorf("section %d (y %d): %w", i, l.MinY+16*i, err)
		}
		sections[i] = keep(&s)
	}
	if r.Remaining() != 0 {
		return nil, nil, fmt.Errorf("%d bytes follow the %d sections of the chunk data; the chunk format or dimension height does not match the server's", r.Remaining(), n)
	}
	return sections, counts, nil
}
