package path

import "math"

// diagonal is one block diagonally: on the level (or up a step), a jump up
// one block, or a step off and a fall. The player's box clips the corners
// of the two blocks beside the line. Both corners open is a clean step;
// one open and the other solid is a step that slides along the solid
// corner, as the game's collision does, and costs a little more (so the
// search prefers clean ones; mineflayer-pathfinder and Baritone take these
// too); nothing harmful may be in either. For a jump up, at least one
// side must be open above the new floor; when neither is open below it
// the jump stops against the corners until it has risen, which costs a
// little more again. Doors are not opened on a diagonal.
func (s *search) diagonal(f *from, dx, dz int) {
	x, z := f.x+dx, f.z+dz
	if next := s.t.stand(x, f.y, z); next.kind != spotNone {
		to := float64(f.y) + float64(next.floor)
		if to-f.floor > stepHeight+eps {
			return
		}
		lo, top := min(f.floor, to), max(f.floor, to)+playerHeight
		if !s.ends(f, dx, dz, f.floor, to, top) {
			return
		}
		extra, ok := s.sides(f, dx, dz, lo, top)
		if ok {
			s.add(x, f.y, z, next, Diagonal, math.Sqrt2*s.perBlock(f.sp, next)+extra, false, false)
		}
		return
	}
	if next := s.t.stand(x, f.y+1, z); next.kind != spotNone {
		to := float64(f.y+1) + float64(next.floor)
		rise := to - f.floor
		if rise > jumpHeight+eps || rise > stepHeight+eps && f.sp.lowJump {
			return
		}
		top := to + playerHeight
		if !s.t.bodyClear(f.x, f.z, fpCenter, f.floor, top, false) || !s.ends(f, dx, dz, to, to, top) {
			return
		}
		extra, ok := s.sides(f, dx, dz, to, top)
		if !ok {
			return
		}
		// Below the new floor both sides may be solid (the jump stalls
		// against them until it has risen), never harmful.
		a := s.t.sideOf(f.x+dx, f.z, corner(-dx, dz), f.floor, to)
		b := s.t.sideOf(f.x, f.z+dz, corner(dx, -dz), f.floor, to)
		switch {
		case a == sideBad || b == sideBad:
			return
		case a == sideSolid && b == sideSolid:
			extra += 2 * cornerTicks
		case a == sideSolid || b == sideSolid:
			extra += cornerTicks
		}
		cost, jump := math.Sqrt2*s.perBlock(f.sp, next)+extra, false
		if rise > stepHeight+eps {
			cost, jump = cost+jumpUpExtra, true
		}
		s.add(x, f.y+1, z, next, Diagonal, cost, jump, false)
		return
	}
	top := f.floor + playerHeight
	if !s.ends(f, dx, dz, f.floor, f.floor, top) {
		return
	}
	extra, ok := s.sides(f, dx, dz, f.floor, top)
	if !ok {
		return
	}
	y, land, ok := s.fall(x, f.y, z, f.floor)
	if !ok {
		return
	}
	drop := f.floor - (float64(y) + float64(land.floor))
	s.add(x, y, z, land, Diagonal, descendTicks(math.Sqrt2*s.perBlock(f.sp, land), drop)+extra, false, false)
}

// cornerTicks is what sliding along a solid corner costs.
const cornerTicks = 1.5

// ends checks the two columns a diagonal step starts and ends in: the
// start from its feet (fromLo), the end from toLo, both up to top.
func (s *search) ends(f *from, dx, dz int, fromLo, toLo, top float64) bool {
	return s.t.bodyClear(f.x, f.z, sweep(dx, dz), fromLo, top, false) &&
		s.t.bodyClear(f.x+dx, f.z+dz, sweep(-dx, -dz), toLo, top, false)
}

// sides checks the corners of the two blocks beside a diagonal step
// between heights lo and top: fine when both are open (no extra cost) or
// one is open and the other solid (cornerTicks more); not when both are
// solid or either holds something harmful.
func (s *search) sides(f *from, dx, dz int, lo, top float64) (float64, bool) {
	a := s.t.sideOf(f.x+dx, f.z, corner(-dx, dz), lo, top)
	if a == sideBad {
		return 0, false
	}
	b := s.t.sideOf(f.x, f.z+dz, corner(dx, -dz), lo, top)
	switch {
	case b == sideBad || a == sideSolid && b == sideSolid:
		return 0, false
	case a == sideSolid || b == sideSolid:
		return cornerTicks, true
	}
	return 0, true
}
