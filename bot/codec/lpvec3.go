package codec

import (
	"math"

	"github.com/blockmate/blockmate/bot/wire"
)

// LpVec3 is the game's low-precision vector (net.minecraft.network.LpVec3,
// 1.21.9 on): velocities in blocks per tick, 15 bits per axis scaled by a
// whole number, in 6 bytes (a 1-byte zero for no motion). minecraft-
// protocol's src/datatypes/lpVec3.js is the same algorithm; the team's
// vectors (notes/protodiff/vectors) check both directions.

// lpMax is the largest 15-bit value the game writes per axis.
const lpMax = 32766

// ReadLpVec3 reads a low-precision vector.
func ReadLpVec3(r *wire.Reader) (x, y, z float64) {
	a := r.Byte()
	if r.Err() != nil || a == 0 {
		return 0, 0, 0
	}
	b := r.Byte()
	c := uint32(r.Int32())
	packed := uint64(c)<<16 | uint64(b)<<8 | uint64(a)
	scale := int64(a & 3)
	if a&4 != 0 {
		scale |= int64(uint32(r.VarInt())) << 2
	}
	if r.Err() != nil {
		return 0, 0, 0
	}
	axis := func(shift uint) float64 {
		q := min(float64(packed>>shift&0x7fff), lpMax)
		return (q*2/lpMax - 1) * float64(scale)
	}
	return axis(3), axis(18), axis(33)
}

// WriteLpVec3 writes a low-precision vector as the game does: a vector
// shorter than the smallest step on every axis is the single byte 0.
func WriteLpVec3(w *wire.Writer, x, y, z float64) {
	sanitize := func(v float64) float64 {
		if math.IsNaN(v) {
			return 0
		}
		return max(-1.7179869183e10, min(v, 1.7179869183e10))
	}
	x, y, z = sanitize(x), sanitize(y), sanitize(z)
	m := max(math.Abs(x), math.Abs(y), math.Abs(z))
	if m < 3.051944088384301e-5 {
		w.Byte(0)
		return
	}
	scale := int64(math.Ceil(m))
	pack := func(v float64) uint64 { return uint64(math.Round((v/float64(scale)*0.5 + 0.5) * lpMax)) }
	extended := scale&3 != scale
	low := uint64(scale & 3)
	if extended {
		low |= 4
	}
	packed := low | pack(x)<<3 | pack(y)<<18 | pack(z)<<33
	w.Byte(byte(packed))
	w.Byte(byte(packed >> 8))
	w.Int32(int32(uint32(packed >> 16)))
	if extended {
		w.VarInt(int32(scale >> 2))
	}
}
