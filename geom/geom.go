// Package geom holds the geometry types shared by the bot's features, its
// tools and the shapes of their results (package api): a leaf, so that
// the console can decode a position without compiling the bot.
package geom

import "math"

// Vec3 is a position in the world, in blocks.
type Vec3 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	Z float64 `json:"z"`
}

// Round rounds each coordinate to hundredths, for answers.
func (v Vec3) Round() Vec3 {
	r := func(f float64) float64 { return math.Round(f*100) / 100 }
	return Vec3{r(v.X), r(v.Y), r(v.Z)}
}

// Finite reports whether every coordinate is a finite number.
func (v Vec3) Finite() bool { return Finite(v.X) && Finite(v.Y) && Finite(v.Z) }

// Finite reports whether f is neither NaN nor infinite.
func Finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
