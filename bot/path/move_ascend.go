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
	jump := rise > stepHeight+eps && !s.stairs(f, dx, dz, next)
	if jump && f.sp.lowJump {
		return // honey halves a jump: not one block
	}
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
	switch {
	case jump:
		cost, kind = cost+jumpUpExtra, Ascend
	case rise > stepHeight+eps:
		kind = Ascend // up a stairs block, without a jump
	}
	s.add(x, f.y+1, z, next, kind, cost, jump, opened || openedThere)
}

// stairs says whether the block under the node ahead rises in two steps
// the player walks up without jumping, as stairs do: the half it enters
// first no more than a step above the feet, the rest no more than a step
// above that.
func (s *search) stairs(f *from, dx, dz int, next spot) bool {
	if next.floor != 0 {
		return false
	}
	below := s.t.facts(f.x+dx, f.y, f.z+dz)
	near := s.t.spans(below.shape, nearHalf(dx, dz))
	if near.empty() {
		return false
	}
	low := float64(f.y) + float64(near.hi)
	return low-f.floor <= stepHeight+eps && float64(f.y+1)-low <= stepHeight+eps
}
