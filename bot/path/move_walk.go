package path

// walk is one block straight to a node on the same level: flat ground, a
// step up or down the player walks without jumping (a slab, a carpet, a
// snow layer), or a jump onto something in the same block that is higher
// than a step (soul sand from a slab's top is not, a composter's rim is).
// Closed wooden doors and fence gates on the way are opened when the
// options allow it. next is the node at (f.x+dx, f.y, f.z+dz).
func (s *search) walk(f *from, dx, dz int, next spot) {
	x, z := f.x+dx, f.z+dz
	to := float64(f.y) + float64(next.floor)
	rise := to - f.floor
	if rise > jumpHeight+eps {
		return
	}
	top := max(f.floor, to) + playerHeight
	ok, opened := s.t.clearSpan(f.x, f.z, sweep(dx, dz), f.floor, top, s.doors)
	if !ok {
		return
	}
	ok, openedThere := s.t.clearSpan(x, z, sweep(-dx, -dz), to, top, s.doors)
	if !ok {
		return
	}
	cost, kind, jump := s.perBlock(f.sp, next), Walk, false
	if rise > stepHeight+eps {
		if f.sp.lowJump {
			return
		}
		cost, kind, jump = cost+jumpUpExtra, Ascend, true
	}
	s.add(x, f.y, z, next, kind, cost, jump, opened || openedThere)
}
