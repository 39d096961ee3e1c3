package path

import "math"

// diagonal is one block diagonally: on the level (or up a step), a jump up
// one block, or a step off and a fall. The player's box clips the corners
// of the two blocks beside the line, so those corners must be open too,
// over the heights the body passes at; for a jump up, one of the two must
// also be open below, where the body starts. Doors are not opened on a
// diagonal.
func (s *search) diagonal(f *from, dx, dz int) {
	x, z := f.x+dx, f.z+dz
	if next := s.t.stand(x, f.y, z); next.kind != spotNone {
		to := float64(f.y) + float64(next.floor)
		if to-f.floor > stepHeight+eps {
			return
		}
		top := max(f.floor, to) + playerHeight
		if s.diagonalClear(f, dx, dz, f.floor, to, top, min(f.floor, to)) {
			s.add(x, f.y, z, next, Diagonal, math.Sqrt2*s.perBlock(f.sp, next), false, false)
		}
		return
	}
	if next := s.t.stand(x, f.y+1, z); next.kind != spotNone {
		to := float64(f.y+1) + float64(next.floor)
		rise := to - f.floor
		if rise > jumpHeight+eps {
			return
		}
		top := to + playerHeight
		if !s.diagonalClear(f, dx, dz, f.floor, to, top, to) {
			return
		}
		// One side open from the feet up, for the first half of the move.
		if !s.t.bodyClear(f.x+dx, f.z, corner(-dx, dz), f.floor, to, false) &&
			!s.t.bodyClear(f.x, f.z+dz, corner(dx, -dz), f.floor, to, false) {
			return
		}
		cost, jump := math.Sqrt2*s.perBlock(f.sp, next), false
		if rise > stepHeight+eps {
			cost, jump = cost+jumpUpExtra, true
		}
		s.add(x, f.y+1, z, next, Diagonal, cost, jump, false)
		return
	}
	top := f.floor + playerHeight
	if !s.diagonalClear(f, dx, dz, f.floor, f.floor, top, f.floor) {
		return
	}
	y, land, ok := s.fall(x, f.y, z, f.floor)
	if !ok {
		return
	}
	drop := f.floor - (float64(y) + float64(land.floor))
	s.add(x, y, z, land, Diagonal, descendTicks(math.Sqrt2*s.perBlock(f.sp, land), drop), false, false)
}

// diagonalClear checks the four columns a diagonal step sweeps: the
// start from its feet, the end from its floor, and the corners of the two
// blocks beside the line from sideLo, all up to top.
func (s *search) diagonalClear(f *from, dx, dz int, fromLo, toLo, top, sideLo float64) bool {
	t := &s.t
	return t.bodyClear(f.x, f.z, sweep(dx, dz), fromLo, top, false) &&
		t.bodyClear(f.x+dx, f.z+dz, sweep(-dx, -dz), toLo, top, false) &&
		t.bodyClear(f.x+dx, f.z, corner(-dx, dz), sideLo, top, false) &&
		t.bodyClear(f.x, f.z+dz, corner(dx, -dz), sideLo, top, false)
}
