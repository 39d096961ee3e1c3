package world

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/wire"
)

// testLayout is an overworld of 1.21.4's size in the given format.
func testLayout(f Format) Layout {
	return Layout{Format: f, MinY: -64, Height: 384, NumStates: 27866, NumBiomes: 65}
}

var allFormats = []Format{{}, {NoSizePrefix: true, HeightmapArray: true}, {NoSizePrefix: true, HeightmapArray: true, FluidCount: true},
	{NoSizePrefix: true, HeightmapArray: true, FluidCount: true, LightMaskBytes: true}}

// randomSection fills a section with values drawn from distinct states and
// biomes, through set, and returns it with the values it should hold.
func randomSection(rng *rand.Rand, l Layout, states, biomes int) (*Section, []uint32, []uint32) {
	bk, vk := l.kinds()
	s := &Section{}
	palette := make([]uint32, states)
	for i, v := range rng.Perm(l.NumStates)[:states] { // distinct states
		palette[i] = uint32(v)
	}
	s.blocks = container{value: palette[0]}
	want := make([]uint32, 4096)
	for i := range want {
		want[i] = palette[0]
		if i < states {
			want[i] = palette[i]
		} else if states > 1 {
			want[i] = palette[rng.IntN(states)]
		}
		s.blocks.set(i, want[i], &bk)
	}
	bp := make([]uint32, biomes)
	for i, v := range rng.Perm(l.NumBiomes)[:biomes] {
		bp[i] = uint32(v)
	}
	s.biomes = container{value: bp[0]}
	wantB := make([]uint32, 64)
	for i := range wantB {
		wantB[i] = bp[0]
		if i < biomes {
			wantB[i] = bp[i]
		} else if biomes > 1 {
			wantB[i] = bp[rng.IntN(biomes)]
		}
		s.biomes.set(i, wantB[i], &vk)
	}
	return s, want, wantB
}

// TestContainersRoundTrip: sections of every palette width, set block by
// block, read back what was set, and decode from their encoding to the
// same blocks in every format.
func TestContainersRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, f := range allFormats {
		l := testLayout(f)
		var sections []*Section
		var wants, wantBs [][]uint32
		for i := 0; i < l.Sections(); i++ {
			states := []int{1, 2, 16, 17, 32, 100, 256, 257, 600}[i%9]
			biomes := []int{1, 2, 4, 8, 9, 30}[i%6]
			s, want, wantB := randomSection(rng, l, states, biomes)
			sections, wants, wantBs = append(sections, s), append(wants, want), append(wantBs, wantB)
		}
		data := AppendSections(nil, sections, nil, l)
		decoded, _, err := DecodeSections(data, l)
		if err != nil {
			t.Fatalf("%+v: %v", f, err)
		}
		for si, s := range []([]*Section){sections, decoded} {
			for i, sec := range s {
				for b := 0; b < 4096; b++ {
					if got := uint32(sec.Block(b&15, b>>8, (b>>4)&15)); got != wants[i][b] {
						t.Fatalf("%+v pass %d section %d block %d: %d, want %d", f, si, i, b, got, wants[i][b])
					}
				}
				for c := 0; c < 64; c++ {
					if got := uint32(sec.Biome((c&3)*4, (c>>4)*4, ((c>>2)&3)*4)); got != wantBs[i][c] {
						t.Fatalf("%+v pass %d section %d biome %d: %d, want %d", f, si, i, c, got, wantBs[i][c])
					}
				}
			}
		}
		// The widths the game uses: 4 bits for up to 16 states, 8 for 256,
		// global ids (15 bits) past that; biomes 1–3 bits, then global.
		checks := []struct {
			i    int
			bits uint8
			dir  bool
		}{{0, 0, false}, {1, 4, false}, {2, 4, false}, {3, 5, false}, {5, 7, false}, {6, 8, false}, {7, 15, true}}
		for _, c := range checks {
			if b := decoded[c.i].blocks; b.bits != c.bits || b.direct != c.dir {
				t.Errorf("section %d stores %d bits (direct %v), want %d (%v)", c.i, b.bits, b.direct, c.bits, c.dir)
			}
		}
		if b := decoded[4].biomes; b.bits != 7 || !b.direct { // 9 biomes: global, ceil(log2(65)) = 7 bits
			t.Errorf("9 biomes store %d bits (direct %v)", b.bits, b.direct)
		}
	}
}

// section builds one section's bytes by hand.
func sectionBytes(f Format, blocks, biomes []byte) []byte {
	w := &wire.Writer{}
	w.Uint16(4096)
	if f.FluidCount {
		w.Uint16(0)
	}
	w.Raw(blocks)
	w.Raw(biomes)
	return w.B
}

func words(n int, v uint64) []byte {
	out := make([]byte, 0, 8*n)
	for range n {
		out = binary.BigEndian.AppendUint64(out, v)
	}
	return out
}

// singleBiome is a single-value biome container, for the given format.
func singleBiome(f Format) []byte {
	if f.NoSizePrefix {
		return []byte{0, 1}
	}
	return []byte{0, 1, 0}
}

func TestNarrowBlockPalettesAreReadAsFourBits(t *testing.T) {
	// The game reads a block palette of 1–3 bits as 4 bits wide
	// (PalettedContainer.Strategy.SECTION_STATES): two states, 256 words.
	for _, f := range allFormats {
		l := testLayout(f)
		l.Height = 16
		blocks := []byte{2, 2, 1, 9}
		if !f.NoSizePrefix {
			blocks = append(blocks, 0x80, 0x02) // 256 as a VarInt
		}
		blocks = append(blocks, words(256, 0x1111111111111110)...) // 0,1,1,…
		secs, _, err := DecodeSections(sectionBytes(f, blocks, singleBiome(f)), l)
		if err != nil {
			t.Fatalf("%+v: %v", f, err)
		}
		if secs[0].Block(0, 0, 0) != 1 || secs[0].Block(1, 0, 0) != 9 || secs[0].Block(15, 15, 15) != 9 {
			t.Errorf("%+v: read %d %d", f, secs[0].Block(0, 0, 0), secs[0].Block(1, 0, 0))
		}
	}
}

func TestMalformedSectionsFail(t *testing.T) {
	f := Format{}
	l := testLayout(f)
	l.Height = 16
	cases := []struct {
		name   string
		data   []byte
		reason string
	}{
		{"state past the version", sectionBytes(f, []byte{0, 0xff, 0xff, 0x03, 0}, singleBiome(f)), "single-value block container holds"},
		{"palette entry past the version", sectionBytes(f, append([]byte{4, 1, 0xff, 0xff, 0x03, 0x80, 0x02}, words(256, 0)...), singleBiome(f)), "block palette entry 0 is"},
		{"index past the palette", sectionBytes(f, append([]byte{4, 2, 1, 2, 0x80, 0x02}, words(256, 0x2)...), singleBiome(f)), "points at palette entry 2 of 2"},
		{"empty palette", sectionBytes(f, append([]byte{4, 0, 0x80, 0x02}, words(256, 0)...), singleBiome(f)), "palette has 0 entries"},
		{"wrong word count", sectionBytes(f, append([]byte{4, 1, 1, 100}, words(100, 0)...), singleBiome(f)), "sends 100 words; 4096 entries take 256"},
		{"global id past the version", sectionBytes(f, append([]byte{15, 0x80, 0x08}, words(1024, 0x7fff)...), singleBiome(f)), "block 0 is 32767"},
		{"biome past the registry", sectionBytes(f, []byte{0, 1, 0}, []byte{0, 70, 0}), "single-value biome container holds 70"},
		{"short", sectionBytes(f, append([]byte{4, 1, 1, 0x80, 0x02}, words(10, 0)...), nil), "packet ended early"},
		{"trailing bytes", append(sectionBytes(f, []byte{0, 1, 0}, singleBiome(f)), 0), "1 bytes follow the 1 sections"},
	}
	for _, c := range cases {
		_, _, err := DecodeSections(c.data, l)
		if err == nil || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s: %v, want it to say %q", c.name, err, c.reason)
		}
	}
	if _, _, err := DecodeSections(nil, Layout{Height: 10, NumStates: 100, NumBiomes: 1}); err == nil || !strings.Contains(err.Error(), "multiple of 16") {
		t.Errorf("a bad layout: %v", err)
	}
}

func TestHeightmapAt(t *testing.T) {
	// 384 high: 9 bits, 7 to a word; entry 8 is the second word's second.
	h := Heightmap{Kind: MotionBlocking, Data: []int64{0, 5 << 9}}
	if got := h.At(8, 0, 384); got != 5 {
		t.Errorf("At(8, 0) = %d", got)
	}
	if got := h.At(15, 15, 384); got != -1 {
		t.Errorf("an entry past the data gives %d", got)
	}
}

func TestSectionChange(t *testing.T) {
	// Section x -2, z 3, y -4; record state 1234 at local x 5, z 6, y 7.
	sec := int64(-2)<<42 | int64(3)<<20 | int64(-4)&0xfffff
	rec := int64(1234)<<12 | 5<<8 | 6<<4 | 7
	got := SectionChange(sec, rec)
	want := BlockChange{Pos: BlockPos{-32 + 5, -64 + 7, 48 + 6}, State: 1234}
	if got != want {
		t.Errorf("%+v, want %+v", got, want)
	}
}

// TestDecodeWordsFindsEveryBadEntry: the word-at-a-time check finds the
// first entry at or past the bound, for every width, bound and position,
// as the one-field-at-a-time scan does.
func TestDecodeWordsFindsEveryBadEntry(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for b := 1; b <= 24; b++ {
		for _, entries := range []int{64, 4096} {
			per := 64 / b
			n := (entries + per - 1) / per
			for trial := 0; trial < 30; trial++ {
				bound := uint32(1 + rng.IntN(1<<b))
				data := make([]uint64, n)
				for i := 0; i < entries; i++ {
					v := uint64(rng.IntN(int(bound)))
					if rng.IntN(entries) == 0 {
						v = uint64(bound) + uint64(rng.IntN(1<<b-int(bound)+1))
						v &= 1<<b - 1
					}
					data[i/per] |= v << (i % per * b)
				}
				// Garbage in the unused high bits and past the last entry
				// must not count.
				if per*b < 64 {
					data[0] |= ^uint64(0) << (per * b)
				}
				for i := entries; i < n*per; i++ {
					data[i/per] |= (1<<b - 1) << (i % per * b)
				}
				raw := make([]byte, 0, 8*n)
				for _, w := range data {
					raw = binary.BigEndian.AppendUint64(raw, w)
				}
				got := make([]uint64, n)
				i1, v1, bad1 := decodeWords(got, raw, b, entries, bound)
				i2, v2, bad2 := firstAtLeast(data, b, entries, bound, 0)
				if bad1 != bad2 || i1 != i2 || v1 != v2 {
					t.Fatalf("b=%d entries=%d bound=%d: %d %d %v, the scan says %d %d %v", b, entries, bound, i1, v1, bad1, i2, v2, bad2)
				}
			}
		}
	}
}
