package path

// parkour is a running jump straight over a gap of one block, or two when
// sprinting is allowed, to a floor on the same level or lower within the
// same block. It is offered only when it is safe and cheap: the gap below
// must hold a floor within the allowed fall and nothing harmful (so never
// over lava or a deep drop), there must be head room for the whole arc,
// and it costs the jump's time in the air plus a penalty, so the search
// takes it only where walking around is clearly longer.
func (s *search) parkour(f *from, dx, dz int) {
	if !s.parkourOK || f.sp.kind != spotGround || f.sp.lowJump {
		return
	}
	apex := f.floor + jumpHeight + playerHeight
	maxGap := 1
	if s.sprint {
		maxGap = 2
	}
	if ok, _ := s.t.clearSpan(f.x, f.z, sweep(dx, dz), f.floor, apex, false); !ok {
		return
	}
	for gap := 1; gap <= maxGap; gap++ {
		gx, gz := f.x+gap*dx, f.z+gap*dz
		// The gap's column is open over the whole arc, along both halves
		// of the block …
		if ok, _ := s.t.clearSpan(gx, gz, sweep(-dx, -dz), f.floor, apex, false); !ok {
			return
		}
		if ok, _ := s.t.clearSpan(gx, gz, sweep(dx, dz), f.floor, apex, false); !ok {
			return
		}
		// … and falling into it would be a safe drop.
		tooFar := s.tooFar
		_, _, safe := s.fall(gx, f.y, gz, f.floor)
		s.tooFar = tooFar // a deep gap is not a reason the goal is unreachable
		if !safe {
			return
		}
		lx, lz := f.x+(gap+1)*dx, f.z+(gap+1)*dz
		land := s.t.stand(lx, f.y, lz)
		if land.kind == spotNone {
			continue
		}
		to := float64(f.y) + float64(land.floor)
		if land.kind != spotGround || to > f.floor+eps {
			return
		}
		if ok, _ := s.t.clearSpan(lx, lz, sweep(-dx, -dz), to, apex, false); !ok {
			return
		}
		dist := float64(gap + 1)
		cost := max(dist*s.perBlock(f.sp, land), jumpAirTicks) + parkourPenalty
		s.add(lx, f.y, lz, land, Parkour, cost, true, false)
		return
	}
}
