package world

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/blockmate/blockmate/bot/wire"
)

// chunkPacket builds a whole chunk data packet body around section data.
func chunkPacket(l Layout, sectionData []byte, entities int) []byte {
	w := &wire.Writer{}
	w.Int32(-3)
	w.Int32(7)
	if l.HeightmapArray {
		w.VarInt(1)
		w.VarInt(int32(MotionBlocking))
		w.VarInt(2)
		w.Int64(1)
		w.Int64(2)
	} else {
		// {"MOTION_BLOCKING": [L; 1, 2]}
		w.Raw([]byte{10, 12, 0, 15})
		w.Raw([]byte("MOTION_BLOCKING"))
		w.Int32(2)
		w.Int64(1)
		w.Int64(2)
		w.Byte(0)
	}
	w.ByteArray(sectionData)
	w.VarInt(int32(entities))
	for i := range entities {
		w.Byte(byte(i))
		w.Uint16(64)
		w.VarInt(3)
		w.Raw([]byte{10, 8, 0, 2, 'i', 'd', 0, 1, 'x', 0})
	}
	for range 4 { // light masks: one long, or from 26.3 one byte
		w.VarInt(1)
		if l.LightMaskBytes {
			w.Byte(1)
		} else {
			w.Int64(1)
		}
	}
	w.VarInt(1) // one sky light array
	w.ByteArray(make([]byte, 2048))
	w.VarInt(0)
	return w.B
}

func seedChunks(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	for fi, format := range allFormats {
		l := testLayout(format)
		l.Height = 32
		var secs []*Section
		for i := range 2 {
			s, _, _ := randomSection(rng, l, []int{1, 20, 300}[(fi+i)%3], []int{1, 3, 10}[(fi+i)%3])
			secs = append(secs, s)
		}
		f.Add(byte(fi), chunkPacket(l, AppendSections(nil, secs, nil, l), fi))
	}
}

// FuzzDecodeChunk feeds arbitrary bytes to the chunk decoder in every
// format: it must return a chunk or an error, never panic, and a chunk it
// returns must survive re-encoding unchanged.
func FuzzDecodeChunk(f *testing.F) {
	seedChunks(f)
	f.Fuzz(func(t *testing.T, format byte, b []byte) {
		l := testLayout(allFormats[int(format)%len(allFormats)])
		l.Height = 32
		c, err := DecodeChunk(wire.NewReader(b), l)
		if err != nil {
			return
		}
		again, _, err := DecodeSections(AppendSections(nil, c.Sections, c.Counts, l), l)
		if err != nil {
			t.Fatalf("a decoded chunk does not decode after encoding: %v", err)
		}
		for i, s := range c.Sections {
			for j := 0; j < 4096; j++ {
				if s.Block(j&15, j>>8, (j>>4)&15) != again[i].Block(j&15, j>>8, (j>>4)&15) {
					t.Fatalf("section %d block %d changed in a round trip", i, j)
				}
			}
		}
	})
}

// TestHostileLengthsAllocateLittle: inputs that claim huge palettes, word
// arrays, block entities, heightmaps or light arrays in a few bytes fail
// before allocating for the claim.
func TestHostileLengthsAllocateLittle(t *testing.T) {
	l := testLayout(Format{})
	l.Height = 16
	huge := []byte{0xff, 0xff, 0xff, 0xff, 0x07}
	cases := map[string][]byte{
		"palette":        append([]byte{0, 0, 4}, huge...),
		"words":          append([]byte{0, 0, 15}, huge...),
		"single's words": append([]byte{0, 0, 0, 1}, huge...),
	}
	packets := map[string][]byte{
		// x, z, no heightmaps (TAG_End), one air section, a huge block
		// entity count.
		"block entities": append(append([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 8}, AppendSections(nil, []*Section{{}}, nil, l)...), huge...),
		// x, z, heightmaps: a root long array claiming 2^31-1 longs.
		"heightmaps": {0, 0, 0, 0, 0, 0, 0, 0, 12, 0x7f, 0xff, 0xff, 0xff},
	}
	measure := func(name string, fn func() error) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := fn()
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
			t.Errorf("%s: %d bytes allocated for a claim in a few bytes", name, got)
		}
	}
	for name, b := range cases {
		measure(name, func() error { _, _, err := DecodeSections(b, l); return err })
	}
	for name, b := range packets {
		measure(name, func() error { _, err := DecodeChunk(wire.NewReader(b), l); return err })
	}
	light := &wire.Writer{}
	for range 4 {
		light.VarInt(0)
	}
	light.VarInt(0x7fffffff)
	for _, f := range []Format{{}, {LightMaskBytes: true}} {
		measure("light arrays", func() error {
			r := wire.NewReader(light.B)
			f.SkipLight(r)
			return r.Err()
		})
	}
}

func TestWholePacketDecodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, format := range allFormats {
		l := testLayout(format)
		var secs []*Section
		for range l.Sections() {
			s, _, _ := randomSection(rng, l, 1+rng.IntN(40), 1+rng.IntN(4))
			secs = append(secs, s)
		}
		b := chunkPacket(l, AppendSections(nil, secs, nil, l), 3)
		r := wire.NewReader(append(b, 0xAA))
		c, err := DecodeChunk(r, l)
		if err != nil {
			t.Fatalf("%+v: %v", format, err)
		}
		if r.Remaining() != 1 || r.Byte() != 0xAA {
			t.Errorf("%+v: the decoder did not stop at the packet's end", format)
		}
		if c.Pos != (ChunkPos{-3, 7}) || len(c.Sections) != 24 || len(c.BlockEntities) != 3 ||
			c.BlockEntities[1].Pos != (BlockPos{-48, 64, 7<<4 | 1}) || c.BlockEntities[1].Type != 3 || len(c.BlockEntities[1].NBT) != 10 {
			t.Errorf("%+v: %+v", format, c.BlockEntities)
		}
		if len(c.Heightmaps) != 1 || c.Heightmaps[0].Kind != MotionBlocking || len(c.Heightmaps[0].Data) != 2 {
			t.Errorf("%+v: heightmaps %+v", format, c.Heightmaps)
		}
		// The same bytes read in another format fail rather than misread:
		// an error, or bytes left after the light data, which ends the
		// packet (the world feature refuses such a chunk).
		for _, other := range allFormats {
			if other == format {
				continue
			}
			lo := l
			lo.Format = other
			r := wire.NewReader(b)
			if _, err := DecodeChunk(r, lo); err == nil && r.Remaining() == 0 {
				t.Errorf("a %+v chunk decoded as %+v", format, other)
			}
		}
	}
}

// FuzzTerrainEnd holds TerrainEnd to DecodeTerrain on arbitrary bytes in
// every format: an end it claims is within the bytes, where DecodeTerrain
// stops when it reads them, and the bytes up to it decode as the whole
// does; a prefix of the bytes claims the same end or asks for more than it
// has. No input panics.
func FuzzTerrainEnd(f *testing.F) {
	seedChunks(f)
	f.Fuzz(func(t *testing.T, format byte, b []byte) {
		l := testLayout(allFormats[int(format)%len(allFormats)])
		l.Height = 32
		end, need := l.TerrainEnd(b)
		if end <= 0 {
			if end < 0 || need <= len(b) {
				t.Fatalf("no end, and need %d of %d bytes", need, len(b))
			}
		} else {
			if end > len(b) {
				t.Fatalf("end %d of %d bytes", end, len(b))
			}
			r := wire.NewReader(b)
			whole, err := DecodeTerrain(r, l)
			if err == nil && len(b)-r.Remaining() != end {
				t.Fatalf("DecodeTerrain stops at %d, TerrainEnd says %d", len(b)-r.Remaining(), end)
			}
			rc := wire.NewReader(b[:end])
			cut, errCut := DecodeTerrain(rc, l)
			if (err == nil) != (errCut == nil) || err == nil && (rc.Remaining() != 0 || len(cut.Sections) != len(whole.Sections) || len(cut.BlockEntities) != len(whole.BlockEntities)) {
				t.Fatalf("cut at its end the terrain decodes otherwise: %v, whole: %v", errCut, err)
			}
		}
		p := int(format) % (len(b) + 1)
		pend, pneed := l.TerrainEnd(b[:p])
		switch {
		case end > 0 && end <= p && pend != end:
			t.Fatalf("a prefix of %d holding the end %d says end %d", p, end, pend)
		case pend > 0 && pend != end:
			t.Fatalf("a prefix of %d claims end %d, the whole %d", p, pend, end)
		case pend == 0 && pneed <= p:
			t.Fatalf("a prefix of %d asks for %d", p, pneed)
		}
	})
}
