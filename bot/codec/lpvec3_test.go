package codec

import (
	"encoding/hex"
	"math"
	"testing"

	"github.com/blockmate/blockmate/bot/wire"
)

// lpVectors are minecraft-protocol 1.68.0's encodings of LpVec3 (the
// team's notes/protodiff/vectors/vectors.json, cross-checked there by an
// independent port of the game's LpVec3): the input, the bytes, and what
// decoding the bytes gives.
var lpVectors = []struct {
	in, decoded [3]float64
	hex         string
}{
	{[3]float64{0, 0, 0}, [3]float64{0, 0, 0}, "00"},
	{[3]float64{0.1, -0.2, 0.3}, [3]float64{0.09998168833546961, -0.2000244155527071, 0.3000061038881767}, "2933a664ccca"},
	{[3]float64{1, 0, -1}, [3]float64{1, 0, -1}, "f1ff0000ffff"},
	{[3]float64{3.5, 0, 0}, [3]float64{3.499969480559116, 0, 0}, "f4bf7ffeffff01"},
	{[3]float64{10, -20, 5.25}, [3]float64{10.000610388817677, -20, 5.250564609656352}, "fcffa198000205"},
	{[3]float64{1e-05, 0, 0}, [3]float64{0, 0, 0}, "00"},
}

func TestLpVec3MatchesThePeer(t *testing.T) {
	for _, v := range lpVectors {
		var w wire.Writer
		WriteLpVec3(&w, v.in[0], v.in[1], v.in[2])
		if got := hex.EncodeToString(w.Bytes()); got != v.hex {
			t.Errorf("WriteLpVec3(%v) = %s, want %s", v.in, got, v.hex)
		}
		raw, _ := hex.DecodeString(v.hex)
		r := wire.NewReader(raw)
		x, y, z := ReadLpVec3(r)
		if r.Err() != nil || r.Remaining() != 0 {
			t.Errorf("ReadLpVec3(%s): err %v, %d bytes left", v.hex, r.Err(), r.Remaining())
		}
		for i, got := range [3]float64{x, y, z} {
			if math.Abs(got-v.decoded[i]) > 1e-12 {
				t.Errorf("ReadLpVec3(%s)[%d] = %v, want %v", v.hex, i, got, v.decoded[i])
			}
		}
	}
}

func TestLpVec3Truncated(t *testing.T) {
	for _, h := range []string{"f1", "f1ff00", "f4bf7ffeffff"} {
		raw, _ := hex.DecodeString(h)
		r := wire.NewReader(raw)
		if x, y, z := ReadLpVec3(r); r.Err() == nil || x != 0 || y != 0 || z != 0 {
			t.Errorf("ReadLpVec3(%s) = %v %v %v, err %v; want an error and zeros", h, x, y, z, r.Err())
		}
	}
}
