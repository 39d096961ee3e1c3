package move

import (
	"math"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// bodyPackets are the packets whose handlers move the body: the position
// sync (through self) and the velocity.
var bodyPackets = []mcdata.Packet{mcdata.ClientboundPlayPosition, mcdata.ClientboundPlayEntityVelocity}

// FuzzBodyStream feeds position syncs and velocities of any bytes to a
// body standing on flat ground, ticking between them: nothing panics, and
// the body never takes a position or a motion that is not a number.
func FuzzBodyStream(f *testing.F) {
	proto := int32(769)
	sync := fakeserver.PositionBody(proto, 3, 0.5, 70, 0.5, 0)
	f.Add(append([]byte{0, byte(len(sync))}, sync...))
	f.Add([]byte{1, 7, 42, 0, 100, 0, 0, 0, 0})
	f.Add([]byte{1, 7, 42, 0x7f, 0xff, 0x7f, 0xff, 0x7f, 0xff})
	// The ground is built once: one column of stone up to y 63 under the
	// spawn, the same for every input.
	var chunks [][]byte
	stone := mcdata.Game(proto).BlockByName("stone").DefaultState
	c := fakeserver.Column(proto, 0, 0, 1, func(_, y, _ int) mcdata.StateID {
		if y < 64 {
			return stone
		}
		return 0
	})
	chunks = append(chunks, world.AppendChunk(nil, c, fakeserver.OverworldLayout(proto)))
	f.Fuzz(func(t *testing.T, b []byte) {
		h := joinedOver(t, proto, 0.5, 64, 0.5, chunks)
		for len(b) >= 2 {
			p := bodyPackets[int(b[0])%len(bodyPackets)]
			n := min(int(b[1]), len(b)-2)
			payload := b[2 : 2+n]
			b = b[2+n:]
			_ = h.RouteErr(p, func(w *wire.Writer) { w.Raw(payload) })
			h.Clock.Tick()
			st := h.m.State()
			for _, v := range []float64{st.Pos.X, st.Pos.Y, st.Pos.Z, st.Vel.X, st.Vel.Y, st.Vel.Z} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("the body took a state that is not a number: %+v", st)
				}
			}
		}
	})
}
