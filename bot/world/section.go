package world

import (
	"sync"
	"unsafe"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Section is 16×16×16 blocks of a column and their 4×4×4 biome cells. A
// Section is immutable once a store holds it: a block change copies it, so
// a reader may keep and read a Section without a lock.
type Section struct {
	blocks container
	biomes container
}

// Block is the state at section-local coordinates (0–15 each).
func (s *Section) Block(x, y, z int) mcdata.StateID {
	return mcdata.StateID(s.blocks.get(y<<8 | z<<4 | x))
}

// Biome is the biome id (in the server's biome registry) of the 4×4×4 cell
// holding section-local block coordinates (0–15 each).
func (s *Section) Biome(x, y, z int) int32 {
	return int32(s.biomes.get((y>>2)<<4 | (z>>2)<<2 | x>>2))
}

// Single reports whether every block of the section is one state, and
// which; an all-air section answers quickly.
func (s *Section) Single() (mcdata.StateID, bool) {
	return mcdata.StateID(s.blocks.value), s.blocks.bits == 0
}

// Palette is the section's local block palette: one entry for a
// single-state section, nil for a section that stores global ids.
func (s *Section) Palette() []mcdata.StateID {
	if s.blocks.bits == 0 {
		return []mcdata.StateID{mcdata.StateID(s.blocks.value)}
	}
	if s.blocks.direct {
		return nil
	}
	out := make([]mcdata.StateID, len(s.blocks.palette))
	for i, v := range s.blocks.palette {
		out[i] = mcdata.StateID(v)
	}
	return out
}

// Bytes is the memory the section holds, its own struct included.
func (s *Section) Bytes() int {
	return int(unsafe.Sizeof(*s)) + s.blocks.bytes() + s.biomes.bytes()
}

// SectionCounts are a section's counts as the server sent them: blocks
// that are not air and, from 26.1, blocks holding a fluid. The store does
// not keep them (it answers from the states themselves).
type SectionCounts struct {
	Blocks int16
	Fluids int16
}

// singles shares one Section among all sections that hold a single state
// and a single biome: above the ground most of a column is air of one
// biome, and such a section then costs a pointer, not 100 bytes. Sections
// are immutable, so sharing is safe; the table is bounded.
var singles struct {
	sync.Mutex
	m map[uint64]*Section
}

const maxSingles = 4096

// keep returns the section to store: the shared one for a single state and
// biome, else a heap copy of s.
func keep(s *Section) *Section {
	if s.blocks.bits != 0 || s.biomes.bits != 0 {
		out := new(Section)
		*out = *s
		return out
	}
	key := uint64(s.blocks.value)<<32 | uint64(s.biomes.value)
	singles.Lock()
	defer singles.Unlock()
	if shared, ok := singles.m[key]; ok {
		return shared
	}
	out := new(Section)
	*out = *s
	if singles.m == nil {
		singles.m = make(map[uint64]*Section)
	}
	if len(singles.m) < maxSingles {
		singles.m[key] = out
	}
	return out
}
