package world_test

import (
	"reflect"
	"testing"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// checkTerrainEnd holds TerrainEnd to DecodeTerrain on one chunk packet's
// body: it finds the place the decoder stops, from the whole body and
// from every prefix that holds it; no shorter prefix claims an end; the
// connection's loop (ask for need, again, until an end) gets there without
// inflating much past it; and the body cut there decodes to the same
// chunk as the whole.
func checkTerrainEnd(t *testing.T, l world.Layout, body []byte) {
	t.Helper()
	r := wire.NewReader(body)
	whole, err := world.DecodeTerrain(r, l)
	if err != nil {
		t.Fatalf("decode terrain: %v", err)
	}
	want := len(body) - r.Remaining()
	if end, need := l.TerrainEnd(body); end != want {
		t.Fatalf("TerrainEnd of the whole body: end %d (need %d), DecodeTerrain stops at %d of %d", end, need, want, len(body))
	}
	for p := 0; p < want; p++ {
		if end, need := l.TerrainEnd(body[:p]); end != 0 || need <= p {
			t.Fatalf("prefix of %d of %d bytes: end %d, need %d", p, want, end, need)
		}
	}
	steps, p := 0, 5
	for ; ; steps++ {
		end, need := l.TerrainEnd(body[:p])
		if end > 0 {
			if end != want {
				t.Fatalf("the loop ended at %d, the terrain at %d", end, want)
			}
			break
		}
		p = min(need, len(body))
	}
	if p > want+1024+16 || steps > 8 {
		t.Errorf("the loop inflated %d bytes in %d steps for a terrain of %d", p, steps, want)
	}
	cut, err := world.DecodeTerrain(wire.NewReader(body[:want]), l)
	if err != nil || !reflect.DeepEqual(cut, whole) {
		t.Fatalf("the body cut at the terrain's end decodes otherwise: %v", err)
	}
}

// TestTerrainEndIsDecodeTerrains: on every chunk a real peer sent
// (testdata/chunks, every version's format), TerrainEnd finds where
// DecodeTerrain stops, the light data after it.
func TestTerrainEndIsDecodeTerrains(t *testing.T) {
	for _, v := range peertest.ChunkCaptureVersions(t) {
		t.Run(v, func(t *testing.T) {
			capt := peertest.LoadChunkCaptures(t, v)
			c, g := codec.For(int32(capt.Protocol)), mcdata.Game(int32(capt.Protocol))
			if c == nil || g == nil {
				t.Fatalf("capture of protocol %d, which the bot does not speak", capt.Protocol)
			}
			l := world.Layout{Format: c.ChunkFormat, MinY: capt.MinY, Height: capt.Height, NumStates: g.NumStates(), NumBiomes: len(g.Biomes)}
			for _, ch := range capt.Chunks {
				r := wire.NewReader(ch.Packet)
				r.VarInt() // the packet id
				body := ch.Packet[len(ch.Packet)-r.Remaining():]
				checkTerrainEnd(t, l, body)
			}
		})
	}
}
