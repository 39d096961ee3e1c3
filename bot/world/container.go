package world

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/blockmate/blockmate/bot/wire"
)

// container is a paletted container: the 4096 block states or the 64 biome
// cells of one section, packed as the wire sends them. Entries are
// bits-wide fields of 64-bit words, 64/bits to a word, none spanning two
// words (the game's SimpleBitStorage). The packed form is kept as is: a
// 16-state section costs 2 KiB rather than the 8 KiB of one uint16 per
// block, and decoding is a copy.
type container struct {
	bits   uint8 // bits per entry in data; 0: every entry is value
	direct bool  // entries are global ids, without a palette
	// value is every entry when bits is 0.
	value   uint32
	palette []uint32 // the local palette of an indirect container
	data    []uint64
}

// kind describes one sort of container: what the game's
// PalettedContainer.Strategy decides for blocks and for biomes.
type kind struct {
	what    string // "block" or "biome", for error messages
	entries int    // 4096 or 64
	// minBits is the narrowest indirect storage: the game stores block
	// palettes of 1–4 bits as 4 bits (LINEAR_PALETTE_FACTORY with 4), biome
	// palettes as sent.
	minBits int
	// maxIndirect is the widest palette; wider means the global palette.
	maxIndirect int
	// directBits is the global palette's width: ceil(log2(limit)).
	directBits int
	// limit bounds every value: the number of block states or biomes.
	limit uint32
}

func newKind(what string, entries, minBits, maxIndirect, limit int) kind {
	return kind{what: what, entries: entries, minBits: minBits, maxIndirect: maxIndirect,
		directBits: max(1, bits.Len(uint(limit-1))), limit: uint32(limit)}
}

// longsFor is how many words entries of width b fill.
func longsFor(entries, b int) int {
	per := 64 / b
	return (entries + per - 1) / per
}

func (c *container) get(i int) uint32 {
	if c.bits == 0 {
		return c.value
	}
	b := uint(c.bits)
	per := 64 / b
	v := uint32(c.data[uint(i)/per]>>((uint(i)%per)*b)) & (1<<b - 1)
	if c.direct {
		return v
	}
	return c.palette[v]
}

// read decodes one container: a bits byte, the palette (one value, a local
// palette or none), then the words, with a VarInt count before them unless
// noSizePrefix (1.21.5 and later compute it). Every value is checked: an
// index past the palette or an id past k.limit is an error, as the game
// refuses it (MissingPaletteEntryException, IdMap.byIdOrThrow).
func (c *container) read(r *wire.Reader, k *kind, noSizePrefix bool) error {
	sent := int(r.Byte())
	if r.Err() != nil {
		return r.Err()
	}
	var storage int
	switch {
	case sent == 0:
		v := r.VarInt()
		if r.Err() != nil {
			return r.Err()
		}
		if uint32(v) >= k.limit {
			return fmt.Errorf("single-value %s container holds %d; the version has %d", k.what, v, k.limit)
		}
		*c = container{value: uint32(v)}
		if !noSizePrefix {
			// The game reads (and drops) whatever count follows; a
			// well-formed single-value container sends 0.
			n := r.Count(8)
			r.Bytes(8 * n)
		}
		return r.Err()
	case sent <= k.maxIndirect:
		storage = max(sent, k.minBits)
		n := r.Count(1)
		if r.Err() != nil {
			return r.Err()
		}
		if n == 0 || n > 1<<storage {
			return fmt.Errorf("%d-bit %s palette has %d entries", storage, k.what, n)
		}
		palette := make([]uint32, n)
		for i := range palette {
			v := r.VarInt()
			if uint32(v) >= k.limit && r.Err() == nil {
				return fmt.Errorf("%s palette entry %d is %d; the version has %d", k.what, i, v, k.limit)
			}
			palette[i] = uint32(v)
		}
		*c = container{bits: uint8(storage), palette: palette}
	default:
		storage = k.directBits
		*c = container{bits: uint8(storage), direct: true}
	}
	want := longsFor(k.entries, storage)
	if !noSizePrefix {
		n := r.VarInt()
		if r.Err() != nil {
			return r.Err()
		}
		if int(n) != want {
			return fmt.Errorf("%d-bit %s container sends %d words; %d entries take %d", storage, k.what, n, k.entries, want)
		}
	}
	raw := r.Bytes(8 * want)
	if r.Err() != nil {
		return r.Err()
	}
	bound := k.limit
	if !c.direct {
		bound = uint32(len(c.palette))
	}
	c.data = make([]uint64, want)
	if i, v, bad := decodeWords(c.data, raw, storage, k.entries, bound); bad {
		if c.direct {
			return fmt.Errorf("%s %d is %d; the version has %d", k.what, i, v, k.limit)
		}
		return fmt.Errorf("%s %d points at palette entry %d of %d", k.what, i, v, bound)
	}
	return nil
}

// decodeWords copies big-endian words into data and checks, in the same
// pass, that none of the entries (b bits each, 64/b to a word) is bound or
// more, returning the first that is. The check is SWAR: the even fields of
// a word, then the odd ones, each with a spare field above it, get
// 2^b - bound added at once, and a carry into a spare field's low bit marks
// a field at or past bound. A word costs a few operations, not one per
// entry.
func decodeWords(data []uint64, raw []byte, b, entries int, bound uint32) (int, uint32, bool) {
	for i := range data {
		data[i] = binary.BigEndian.Uint64(raw[8*i:])
	}
	if bound >= 1<<b {
		return 0, 0, false // every b-bit value is valid
	}
	per := 64 / b
	var lanes, carries, add uint64
	for k := 0; k < per; k += 2 {
		lanes |= (1<<b - 1) << (k * b)
		carries |= 1 << (k*b + b)
		add |= (uint64(1)<<b - uint64(bound)) << (k * b)
	}
	// The odd fields shifted down by b land on the even lanes; a word with
	// an odd number of fields has one odd lane fewer.
	oddLanes, oddCarries, oddAdd := lanes, carries, add
	if per%2 == 1 {
		top := (per - 1) * b
		oddLanes &^= (1<<b - 1) << top
		oddCarries &^= 1 << (top + b)
		oddAdd &^= (uint64(1)<<b - uint64(bound)) << top
	}
	full := entries / per // words whose every field is an entry
	for i, w := range data[:full] {
		if (w&lanes+add)&carries != 0 || (w>>b&oddLanes+oddAdd)&oddCarries != 0 {
			return firstAtLeast(data[i:i+1], b, per, bound, i*per)
		}
	}
	if full < len(data) {
		return firstAtLeast(data[full:full+1], b, entries-full*per, bound, full*per)
	}
	return 0, 0, false
}

// firstAtLeast finds, one field at a time, the first of the entries in
// data (the first numbered from) whose value is bound or more.
func firstAtLeast(data []uint64, b, entries int, bound uint32, from int) (int, uint32, bool) {
	per := 64 / b
	mask := uint64(1)<<b - 1
	i := 0
	for _, w := range data {
		for j := 0; j < per && i < entries; j++ {
			if v := uint32(w & mask); v >= bound {
				return from + i, v, true
			}
			w >>= uint(b)
			i++
		}
	}
	return 0, 0, false
}

// clone returns a copy that shares nothing mutable with c.
func (c *container) clone() container {
	out := *c
	out.palette = append([]uint32(nil), c.palette...)
	out.data = append([]uint64(nil), c.data...)
	return out
}

// set stores v at entry i, growing the palette (and, past maxIndirect bits,
// turning into a global-palette container) as the game does. c must be a
// private copy.
func (c *container) set(i int, v uint32, k *kind) {
	if c.bits == 0 {
		if v == c.value {
			return
		}
		b := k.minBits
		*c = container{bits: uint8(b), palette: []uint32{c.value}, data: make([]uint64, longsFor(k.entries, b))}
	}
	if c.direct {
		c.put(i, v)
		return
	}
	idx := -1
	for j, p := range c.palette {
		if p == v {
			idx = j
			break
		}
	}
	if idx < 0 {
		idx = len(c.palette)
		if idx >= 1<<c.bits {
			c.grow(k)
			if c.direct {
				c.put(i, v)
				return
			}
		}
		c.palette = append(c.palette, v)
	}
	c.put(i, uint32(idx))
}

// put writes a raw field (a palette index or a global id).
func (c *container) put(i int, raw uint32) {
	b := uint(c.bits)
	per := 64 / b
	shift := (uint(i) % per) * b
	w := &c.data[uint(i)/per]
	*w = *w&^((1<<b-1)<<shift) | uint64(raw)<<shift
}

// grow widens a full indirect container by one bit, or makes it direct.
func (c *container) grow(k *kind) {
	old := *c
	nb := int(c.bits) + 1
	if nb > k.maxIndirect {
		*c = container{bits: uint8(k.directBits), direct: true, data: make([]uint64, longsFor(k.entries, k.directBits))}
		for i := 0; i < k.entries; i++ {
			c.put(i, old.get(i))
		}
		return
	}
	*c = container{bits: uint8(nb), palette: old.palette, data: make([]uint64, longsFor(k.entries, nb))}
	ob := uint(old.bits)
	per := 64 / ob
	for i := 0; i < k.entries; i++ {
		c.put(i, uint32(old.data[uint(i)/per]>>((uint(i)%per)*ob))&(1<<ob-1))
	}
}

// bytes is the memory the container holds beyond its own struct.
func (c *container) bytes() int { return 4*cap(c.palette) + 8*cap(c.data) }
