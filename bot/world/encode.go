package world

import (
	"encoding/binary"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// AppendSections encodes sections as a chunk's section data in the
// layout's format, with the given counts (nil: zero counts), the inverse of
// DecodeSections. The bot does not send chunks; tests, fuzz seeds and
// benchmarks build chunk data with it.
func AppendSections(dst []byte, sections []*Section, counts []SectionCounts, l Layout) []byte {
	w := &wire.Writer{B: dst}
	for i, s := range sections {
		var c SectionCounts
		if counts != nil {
			c = counts[i]
		}
		w.Uint16(uint16(c.Blocks))
		if l.FluidCount {
			w.Uint16(uint16(c.Fluids))
		}
		s.blocks.write(w, l.NoSizePrefix)
		s.biomes.write(w, l.NoSizePrefix)
	}
	return w.B
}

func (c *container) write(w *wire.Writer, noSizePrefix bool) {
	w.Byte(c.bits)
	if c.bits == 0 {
		w.VarInt(int32(c.value))
		if !noSizePrefix {
			w.VarInt(0)
		}
		return
	}
	if !c.direct {
		w.VarInt(int32(len(c.palette)))
		for _, p := range c.palette {
			w.VarInt(int32(p))
		}
	}
	if !noSizePrefix {
		w.VarInt(int32(len(c.data)))
	}
	for _, v := range c.data {
		w.B = binary.BigEndian.AppendUint64(w.B, v)
	}
}

// BuildSection makes a section whose blocks block gives (section-local
// coordinates, 0–15 each) and whose every biome cell is biome. The bot
// builds sections only by decoding; tests, fuzz seeds and benchmarks of
// other packages build chunk data with it and AppendChunk.
func BuildSection(l Layout, biome int32, block func(x, y, z int) mcdata.StateID) *Section {
	bk, _ := l.kinds()
	s := &Section{biomes: container{value: uint32(biome)}}
	for i := 0; i < 4096; i++ {
		s.blocks.set(i, uint32(block(i&15, i>>8, i>>4&15)), &bk)
	}
	return keep(s)
}

// AppendChunk encodes a chunk data packet's body in the layout's format,
// the inverse of DecodeChunk: no heightmaps, the chunk's sections (zero
// counts unless it has Counts) and block entities, and empty light data.
func AppendChunk(dst []byte, c *Chunk, l Layout) []byte {
	w := &wire.Writer{B: dst}
	w.Int32(c.Pos.X)
	w.Int32(c.Pos.Z)
	if l.HeightmapArray {
		w.VarInt(0)
	} else {
		w.Byte(10) // an empty NBT compound
		w.Byte(0)
	}
	w.ByteArray(AppendSections(nil, c.Sections, c.Counts, l))
	w.VarInt(int32(len(c.BlockEntities)))
	for _, e := range c.BlockEntities {
		w.Byte(byte(e.Pos.X&15<<4 | e.Pos.Z&15))
		w.Uint16(uint16(e.Pos.Y))
		w.VarInt(e.Type)
		if e.NBT == nil {
			w.Byte(0)
		} else {
			w.Raw(e.NBT)
		}
	}
	for range 6 { // four empty bit sets, no sky light, no block light
		w.VarInt(0)
	}
	return w.B
}
