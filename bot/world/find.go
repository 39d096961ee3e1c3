package world

import (
	"sort"
	"sync"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Found is a block FindBlocks found.
type Found struct {
	Pos   BlockPos
	State mcdata.StateID
	// DistSq is the squared distance between the block's position and the
	// search's origin, in blocks.
	DistSq int
}

// before orders finds nearest first, then by y, x and z, so that a search
// answers the same whatever order it met the blocks in.
func (a Found) before(b Found) bool {
	if a.DistSq != b.DistSq {
		return a.DistSq < b.DistSq
	}
	if a.Pos.Y != b.Pos.Y {
		return a.Pos.Y < b.Pos.Y
	}
	if a.Pos.X != b.Pos.X {
		return a.Pos.X < b.Pos.X
	}
	return a.Pos.Z < b.Pos.Z
}

// FindBlocks returns up to count blocks whose state match accepts, within
// radius blocks of from (Euclidean, between block positions), nearest
// first. match is asked once per palette entry of each section in range,
// so a section without the block is skipped without reading its blocks
// (only sections that store global ids ask per block); sections are read
// nearest first and the search stops as soon as no unread section can hold
// a nearer block. Use a mcdata.StateSet's Has as match.
func (v *View) FindBlocks(from BlockPos, radius, count int, match func(mcdata.StateID) bool) []Found {
	if radius < 0 || count <= 0 {
		return nil
	}
	r2 := radius * radius
	l := v.layout
	buf := candidatePool.Get().(*[]candidate)
	defer candidatePool.Put(buf)
	cands := (*buf)[:0]
	visit := func(col *Column) {
		for i, sec := range col.sections {
			base := BlockPos{int(col.Pos.X) << 4, l.MinY + i<<4, int(col.Pos.Z) << 4}
			d2 := boxDist2(from, base)
			if d2 > r2 || sec.blocks.bits == 0 && !match(mcdata.StateID(sec.blocks.value)) {
				continue // out of range, or one state that is not wanted (the sky)
			}
			cands = append(cands, candidate{sec: sec, base: base, minD2: d2})
		}
	}
	cx0, cx1 := (from.X-radius)>>4, (from.X+radius)>>4
	cz0, cz1 := (from.Z-radius)>>4, (from.Z+radius)>>4
	if (cx1-cx0+1)*(cz1-cz0+1) > len(v.columns) {
		for _, col := range v.columns {
			if int(col.Pos.X) >= cx0 && int(col.Pos.X) <= cx1 && int(col.Pos.Z) >= cz0 && int(col.Pos.Z) <= cz1 {
				visit(col)
			}
		}
	} else {
		for cx := cx0; cx <= cx1; cx++ {
			for cz := cz0; cz <= cz1; cz++ {
				if col := v.columns[ChunkPos{int32(cx), int32(cz)}]; col != nil {
					visit(col)
				}
			}
		}
	}
	*buf = cands
	// Sections leave a min-heap nearest first; only those nearer than the
	// worst block kept are read, and their palettes are asked only then.
	h := candidateHeap(cands)
	h.init()
	best := &foundHeap{limit: count}
	var mask [256]bool
	for len(h) > 0 {
		c := h.pop()
		if best.full() && c.minD2 > best.worst().DistSq {
			break
		}
		var m *[256]bool
		if c.sec.blocks.bits != 0 && !c.sec.blocks.direct {
			any := false
			for j, st := range c.sec.blocks.palette {
				mask[j] = match(mcdata.StateID(st))
				any = any || mask[j]
			}
			if !any {
				continue
			}
			m = &mask
		}
		scanSection(c.sec, c.base, m, match, from, r2, best)
	}
	return best.sorted()
}

type candidate struct {
	sec   *Section
	base  BlockPos
	minD2 int
}

// candidatePool keeps the candidate lists of past searches: a view
// distance of 10 has ten thousand sections.
var candidatePool = sync.Pool{New: func() any { return new([]candidate) }}

// candidateHeap is a min-heap of sections by distance.
type candidateHeap []candidate

func (h candidateHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h candidateHeap) down(i int) {
	for {
		l, r, low := 2*i+1, 2*i+2, i
		if l < len(h) && h[l].minD2 < h[low].minD2 {
			low = l
		}
		if r < len(h) && h[r].minD2 < h[low].minD2 {
			low = r
		}
		if low == i {
			return
		}
		h[i], h[low] = h[low], h[i]
		i = low
	}
}

func (h *candidateHeap) pop() candidate {
	old := *h
	c := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return c
}

// boxDist2 is the squared distance from p to the nearest block of the
// section whose lowest corner is base.
func boxDist2(p, base BlockPos) int {
	d := func(v, lo int) int {
		switch {
		case v < lo:
			return lo - v
		case v > lo+15:
			return v - lo - 15
		}
		return 0
	}
	dx, dy, dz := d(p.X, base.X), d(p.Y, base.Y), d(p.Z, base.Z)
	return dx*dx + dy*dy + dz*dz
}

// scanSection offers every matching block of a section to best.
func scanSection(sec *Section, base BlockPos, mask *[256]bool, match func(mcdata.StateID) bool, from BlockPos, r2 int, best *foundHeap) {
	offer := func(i int, st mcdata.StateID) {
		p := BlockPos{base.X + i&15, base.Y + i>>8, base.Z + (i>>4)&15}
		dx, dy, dz := p.X-from.X, p.Y-from.Y, p.Z-from.Z
		d2 := dx*dx + dy*dy + dz*dz
		if d2 <= r2 {
			best.offer(Found{p, st, d2})
		}
	}
	c := &sec.blocks
	if c.bits == 0 {
		st := mcdata.StateID(c.value)
		for i := 0; i < 4096; i++ {
			offer(i, st)
		}
		return
	}
	b := uint(c.bits)
	per := int(64 / b)
	field := uint64(1)<<b - 1
	i := 0
	for _, w := range c.data {
		for j := 0; j < per && i < 4096; j++ {
			raw := uint32(w & field)
			w >>= b
			if c.direct {
				if match(mcdata.StateID(raw)) {
					offer(i, mcdata.StateID(raw))
				}
			} else if mask[raw] {
				offer(i, mcdata.StateID(c.palette[raw]))
			}
			i++
		}
	}
}

// foundHeap keeps the best limit finds: a max-heap on before, so the worst
// kept find is at the root and leaves first.
type foundHeap struct {
	limit int
	items []Found
}

func (h *foundHeap) full() bool   { return len(h.items) >= h.limit }
func (h *foundHeap) worst() Found { return h.items[0] }

func (h *foundHeap) offer(f Found) {
	if !h.full() {
		h.items = append(h.items, f)
		for i := len(h.items) - 1; i > 0; {
			parent := (i - 1) / 2
			if !h.items[parent].before(h.items[i]) {
				break
			}
			h.items[parent], h.items[i] = h.items[i], h.items[parent]
			i = parent
		}
		return
	}
	if !f.before(h.items[0]) {
		return
	}
	h.items[0] = f
	for i := 0; ; {
		l, r, top := 2*i+1, 2*i+2, i
		if l < len(h.items) && h.items[top].before(h.items[l]) {
			top = l
		}
		if r < len(h.items) && h.items[top].before(h.items[r]) {
			top = r
		}
		if top == i {
			return
		}
		h.items[i], h.items[top] = h.items[top], h.items[i]
		i = top
	}
}

func (h *foundHeap) sorted() []Found {
	out := h.items
	sort.Slice(out, func(i, j int) bool { return out[i].before(out[j]) })
	return out
}

// FindBlocks searches a snapshot of the store; see View.FindBlocks.
func (s *Store) FindBlocks(from BlockPos, radius, count int, match func(mcdata.StateID) bool) []Found {
	return s.Snapshot().FindBlocks(from, radius, count, match)
}

// CountBlocks counts the loaded blocks of each state in the cube of
// radius r around from (every axis within r, the dimension's height
// bounding y), calling add once per state and section with a count. A
// section of one state is counted without reading its blocks; others are
// read once, palette index by palette index.
func (v *View) CountBlocks(from BlockPos, r int, add func(st mcdata.StateID, n int)) {
	if r < 0 {
		return
	}
	l := v.layout
	x0, x1, z0, z1 := from.X-r, from.X+r, from.Z-r, from.Z+r
	y0, y1 := max(from.Y-r, l.MinY), min(from.Y+r, l.MinY+l.Height-1)
	if y0 > y1 {
		return
	}
	var counts [256]int
	for cx := x0 >> 4; cx <= x1>>4; cx++ {
		for cz := z0 >> 4; cz <= z1>>4; cz++ {
			col := v.columns[ChunkPos{int32(cx), int32(cz)}]
			if col == nil {
				continue
			}
			lx0, lx1 := max(x0-cx<<4, 0), min(x1-cx<<4, 15)
			lz0, lz1 := max(z0-cz<<4, 0), min(z1-cz<<4, 15)
			for i := (y0 - l.MinY) >> 4; i <= (y1-l.MinY)>>4; i++ {
				sec := col.Section(i)
				if sec == nil {
					continue
				}
				base := l.MinY + i<<4
				ly0, ly1 := max(y0-base, 0), min(y1-base, 15)
				c := &sec.blocks
				if c.bits == 0 {
					add(mcdata.StateID(c.value), (lx1-lx0+1)*(ly1-ly0+1)*(lz1-lz0+1))
					continue
				}
				b := uint(c.bits)
				per := 64 / b
				field := uint64(1)<<b - 1
				for y := ly0; y <= ly1; y++ {
					for z := lz0; z <= lz1; z++ {
						for x := lx0; x <= lx1; x++ {
							i := uint(y<<8 | z<<4 | x)
							raw := uint32(c.data[i/per]>>((i%per)*b)) & uint32(field)
							if c.direct {
								add(mcdata.StateID(raw), 1)
							} else {
								counts[raw]++
							}
						}
					}
				}
				if !c.direct {
					for j, st := range c.palette {
						if counts[j] > 0 {
							add(mcdata.StateID(st), counts[j])
							counts[j] = 0
						}
					}
				}
			}
		}
	}
}
