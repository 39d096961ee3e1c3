package path

// Open-addressing hash tables keyed by block position: the search looks
// positions up millions of times, and Go's map costs several times more
// per lookup than a flat probe.

// posKey packs a block position into 64 bits: x and z in 26 bits each
// (the world border is at ±30 million, under 2^25), y in 12 (a dimension
// spans at most -2032 … 2031). No real position packs to 0, the empty slot.
func posKey(x, y, z int) uint64 {
	return uint64(x+1<<25)<<38 | uint64(y+1<<11)&0xFFF<<26 | uint64(z+1<<25)&(1<<26-1)
}

func unpackKey(k uint64) (x, y, z int) {
	return int(k>>38) - 1<<25, int(k>>26&0xFFF) - 1<<11, int(k&(1<<26-1)) - 1<<25
}

func hashKey(k uint64) uint64 {
	k ^= k >> 29
	k *= 0x9E3779B97F4A7C15
	return k ^ k>>32
}

// spotTable memoises stand: every move asks it of the same few positions.
type spotTable struct {
	keys []uint64
	vals []spot
	n    int
}

func (t *spotTable) reset() {
	if len(t.keys) == 0 || len(t.keys) > 1<<18 { // start small again after a huge search
		t.keys = make([]uint64, 1<<12)
		t.vals = make([]spot, 1<<12)
	} else {
		clear(t.keys)
	}
	t.n = 0
}

func (t *spotTable) get(x, y, z int) (spot, bool) {
	k := posKey(x, y, z)
	mask := uint64(len(t.keys) - 1)
	for i := hashKey(k) & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return t.vals[i], true
		case 0:
			return spot{}, false
		}
	}
}

func (t *spotTable) put(x, y, z int, s spot) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	k := posKey(x, y, z)
	mask := uint64(len(t.keys) - 1)
	for i := hashKey(k) & mask; ; i = (i + 1) & mask {
		if t.keys[i] == 0 || t.keys[i] == k {
			if t.keys[i] == 0 {
				t.n++
			}
			t.keys[i], t.vals[i] = k, s
			return
		}
	}
}

func (t *spotTable) grow() {
	oldK, oldV := t.keys, t.vals
	t.keys = make([]uint64, 2*len(oldK))
	t.vals = make([]spot, 2*len(oldK))
	mask := uint64(len(t.keys) - 1)
	for j, k := range oldK {
		if k == 0 {
			continue
		}
		i := hashKey(k) & mask
		for t.keys[i] != 0 {
			i = (i + 1) & mask
		}
		t.keys[i], t.vals[i] = k, oldV[j]
	}
}

// indexTable maps positions to node indices of the search.
type indexTable struct {
	keys []uint64
	vals []int32
	n    int
}

func (t *indexTable) reset() {
	if len(t.keys) == 0 || len(t.keys) > 1<<18 {
		t.keys = make([]uint64, 1<<12)
		t.vals = make([]int32, 1<<12)
	} else {
		clear(t.keys)
	}
	t.n = 0
}

// slot returns the index stored for k, or -1 and inserts k with val.
func (t *indexTable) getOrPut(k uint64, val int32) int32 {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	mask := uint64(len(t.keys) - 1)
	for i := hashKey(k) & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return t.vals[i]
		case 0:
			t.keys[i], t.vals[i] = k, val
			t.n++
			return -1
		}
	}
}

func (t *indexTable) grow() {
	oldK, oldV := t.keys, t.vals
	t.keys = make([]uint64, 2*len(oldK))
	t.vals = make([]int32, 2*len(oldK))
	mask := uint64(len(t.keys) - 1)
	for j, k := range oldK {
		if k == 0 {
			continue
		}
		i := hashKey(k) & mask
		for t.keys[i] != 0 {
			i = (i + 1) & mask
		}
		t.keys[i], t.vals[i] = k, oldV[j]
	}
}
