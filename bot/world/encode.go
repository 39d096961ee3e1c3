package world

import (
	"encoding/binary"

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
