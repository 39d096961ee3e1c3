package path

// ascend is a jump up onto the block in front: to the node one block up,
// whose floor is at most 1.25 above the feet (a standing jump peaks at
// 1.2522), or a walk when it is no more than a step higher (from a slab
// onto a full block). There must be head room for the rise in both
// columns. A jump rises in the middle of its block and crosses to the next
// at the new height, so the face it leaves by need only be open from
// there up: that lets the bot off a ladder's top onto the block the ladder
// hangs on. It works from water (jumping out onto the bank) too.
func (s *search) ascend(f *from, dx, dz int) {
	x, z := f.x+dx, f.z+dz
	next := s.t.stand(x, f.y+1, z)
	if next.kind == spotNone {
		return
	}
	to := float64(f.y+1) + float64(next.floor)
	rise := to - f.floor
	if rise > jumpHeight+eps {
		return
	}
	top := to + playerHeight
	jump := rise > stepHeight+eps
	leaveFrom := f.floor
	if jump {
		if !s.t.bodyClear(f.x, f.z, fpCenter, f.floor, top, s.doors) {
			return
		}
		leaveFrom = to
	}
	ok, opened := s.t.clearSpan(f.x, f.z, sweep(dx, dz), leaveFrom, top, s.doors)
	if !ok {
		return
	}
	ok, openedThere := s.t.clearSpan(x, z, sweep(-dx, -dz), to, top, s.doors)
	if !ok {
		return
	}
	cost, kind := s.perBlock(f.sp, next), Walk
	if jump {
		cost, kind = cost+jumpUpExtra, Ascend
	}
	s.add(x, f.y+1, z, next, kind, cost, jump, opened || openedThere)
}
