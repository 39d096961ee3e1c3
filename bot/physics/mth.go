package physics

import (
	"math"
	"sync"
)

// The game's arithmetic helpers (net.minecraft.util.Mth and the Java
// conversions it leans on), reproduced bit for bit: movement mixes float and
// double arithmetic, and a look-up table for sine whose granularity shows in
// every tick's velocity.

// floorInt is Mth.floor for a double: the largest integer not above d,
// clamped to the int range the way Java's (int) cast clamps, and 0 for NaN.
func floorInt(d float64) int {
	if d != d {
		return 0
	}
	f := math.Floor(d)
	switch {
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int(f)
}

// ceilInt is Mth.ceil for a double.
func ceilInt(d float64) int {
	if d != d {
		return 0
	}
	f := math.Ceil(d)
	switch {
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int(f)
}

// f2i is Java's (int) cast of a float: truncation toward zero, NaN to 0,
// out-of-range values clamped.
func f2i(f float32) int32 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int32(f)
}

// d2l is Java's (long) cast of a double.
func d2l(d float64) int64 {
	switch {
	case d != d:
		return 0
	case d >= math.MaxInt64:
		return math.MaxInt64
	case d <= math.MinInt64:
		return math.MinInt64
	}
	return int64(d)
}

// sinTables holds the game's two sine tables: the float-indexed one of
// 1.21.1–1.21.8 (Mth.SIN[i] = sin(i·2π/65536), looked up with
// (int)(f·10430.378F)) and the double-indexed one of 1.21.9 on
// (sin(i/10430.378350470453), looked up with (long)(d·10430.378350470453);
// Mth in 1.21.11's and 26.1.2's sources).
var sinTables struct {
	once     sync.Once
	old, new [65536]float32
}

func buildSinTables() {
	for i := range sinTables.old {
		sinTables.old[i] = float32(math.Sin(float64(i) * math.Pi * 2.0 / 65536.0))
		sinTables.new[i] = float32(math.Sin(float64(i) / 10430.378350470453))
	}
}

// trig evaluates the game's Mth.sin and Mth.cos of an angle in radians
// given as a float, the way one version's Mth does.
type trig struct{ double bool }

func (t trig) sin(rad float32) float32 {
	sinTables.once.Do(buildSinTables)
	if t.double {
		return sinTables.new[d2l(float64(rad)*10430.378350470453)&0xffff]
	}
	return sinTables.old[f2i(rad*10430.378)&0xffff]
}

func (t trig) cos(rad float32) float32 {
	sinTables.once.Do(buildSinTables)
	if t.double {
		return sinTables.new[d2l(float64(float64(rad)*10430.378350470453)+16384.0)&0xffff]
	}
	return sinTables.old[f2i(float32(rad*10430.378)+16384.0)&0xffff]
}

// degToRad is (float)(Math.PI / 180.0), the factor every version multiplies
// a float yaw or pitch by (26.1.2 writes (float)Math.PI / 180F, which is
// the same float).
const degToRad float32 = math.Pi / 180.0

// mthEqual is Mth.equal for doubles: |a−b| < 1.0E-5F.
func mthEqual(a, b float64) bool { return math.Abs(b-a) < float64(float32(1.0e-5)) }

// f32 is a float constant of the game's code, as the double Java widens it
// to (0.98F is 0.9800000190734863).
func f32(f float32) float64 { return float64(f) }
