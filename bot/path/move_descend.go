package path

// descend is a step off a ledge and a fall down the next column to the
// first floor below: no further than Options.MaxFall blocks (three, the
// most that does no damage), or Options.MaxWaterFall into water or onto a
// ladder, which break a fall. The column must hold nothing harmful on the
// way down.
func (s *search) descend(f *from, dx, dz int) {
	x, z := f.x+dx, f.z+dz
	top := f.floor + playerHeight
	ok, opened := s.t.clearSpan(f.x, f.z, sweep(dx, dz), f.floor, top, s.doors)
	if !ok {
		return
	}
	ok, openedThere := s.t.clearSpan(x, z, sweep(-dx, -dz), f.floor, top, s.doors)
	if !ok {
		return
	}
	y, land, ok := s.fall(x, f.y, z, f.floor)
	if !ok {
		return
	}
	drop := f.floor - (float64(y) + float64(land.floor))
	s.add(x, y, z, land, Descend, descendTicks(s.perBlock(f.sp, land), drop), false, opened || openedThere)
}

// fall finds where a player falling from feet height top down the column
// at (x, z), starting in block y, lands: the first node below y it can
// stay at, if the fall there is allowed and nothing on the way hurts.
func (s *search) fall(x, y, z int, top float64) (int, spot, bool) {
	longest := float64(max(s.maxFall, s.maxWaterFall))
	for cy := y - 1; ; cy-- {
		if top-float64(cy) > longest+1 {
			s.tooFar = true
			return 0, spot{}, false
		}
		if sp := s.t.stand(x, cy, z); sp.kind != spotNone {
			drop := top - (float64(cy) + float64(sp.floor))
			limit := float64(s.maxFall)
			if sp.water() || sp.kind == spotClimb {
				limit = float64(s.maxWaterFall) // water and ladders break a fall
			}
			if drop > limit+eps {
				s.tooFar = true
				return 0, spot{}, false
			}
			return cy, sp, true
		}
		fa := s.t.facts(x, cy, z)
		switch {
		case fa.flags&fLoaded == 0:
			s.t.metUnloaded = true
			return 0, spot{}, false
		case fa.flags&fHazard != 0:
			s.t.metHazard = true
			return 0, spot{}, false
		case !s.t.spanOf(fa, fpCenter, s.doors).empty():
			return 0, spot{}, false // lands on something it cannot stand on (a fence)
		}
	}
}
