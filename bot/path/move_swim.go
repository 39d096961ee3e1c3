package path

// swimVertical is a block up or down in water: rising toward the surface
// (from the bottom too) or sinking. Moves across water are the walks and
// diagonals, charged at swimming speed; those that end with nothing under
// the feet count toward Options.MaxSwim (see swum in search.go).
func (s *search) swimVertical(f *from) {
	if !f.sp.water() {
		return
	}
	if up := s.t.stand(f.x, f.y+1, f.z); up.water() {
		s.add(f.x, f.y+1, f.z, up, Swim, swimTicks, false, false)
	}
	if f.sp.kind == spotSwim {
		if down := s.t.stand(f.x, f.y-1, f.z); down.kind != spotNone {
			s.add(f.x, f.y-1, f.z, down, Swim, swimTicks, false, false)
		}
	}
}
