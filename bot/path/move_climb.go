package path

// climb is a block up or down a ladder, vine or other climbable block.
// Up: from a ladder to the block above (a ladder, or the top), or from the
// ground into a ladder that starts at head height (a jump to grab it).
// Down: from a ladder to the block below it. Water columns are swum
// (move_swim.go), not climbed.
func (s *search) climb(f *from) {
	if up := s.t.stand(f.x, f.y+1, f.z); up.kind != spotNone && !up.water() {
		switch {
		case f.sp.kind == spotClimb:
			s.add(f.x, f.y+1, f.z, up, Climb, climbUp, false, false)
		case up.kind == spotClimb && f.sp.kind != spotSwim && !f.sp.lowJump:
			s.add(f.x, f.y+1, f.z, up, Climb, climbUp+jumpUpExtra, true, false)
		}
	}
	if f.sp.kind == spotClimb {
		if down := s.t.stand(f.x, f.y-1, f.z); down.kind != spotNone {
			s.add(f.x, f.y-1, f.z, down, Climb, climbDown, false, false)
		}
	}
}
