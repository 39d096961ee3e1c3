package physics

// AABB is an axis-aligned box in world coordinates.
type AABB struct {
	MinX, MinY, MinZ, MaxX, MaxY, MaxZ float64
}

// Move returns the box moved by (x, y, z).
func (b AABB) Move(x, y, z float64) AABB {
	return AABB{b.MinX + x, b.MinY + y, b.MinZ + z, b.MaxX + x, b.MaxY + y, b.MaxZ + z}
}

// Inflate grows the box by d on every side (a negative d shrinks it; the
// game's deflate).
func (b AABB) Inflate(x, y, z float64) AABB {
	return AABB{b.MinX - x, b.MinY - y, b.MinZ - z, b.MaxX + x, b.MaxY + y, b.MaxZ + z}
}

// ExpandTowards stretches the box along a movement (AABB.expandTowards).
func (b AABB) ExpandTowards(x, y, z float64) AABB {
	if x < 0 {
		b.MinX += x
	} else if x > 0 {
		b.MaxX += x
	}
	if y < 0 {
		b.MinY += y
	} else if y > 0 {
		b.MaxY += y
	}
	if z < 0 {
		b.MinZ += z
	} else if z > 0 {
		b.MaxZ += z
	}
	return b
}

// Intersects says whether the boxes overlap with positive volume.
func (b AABB) Intersects(o AABB) bool {
	return b.MinX < o.MaxX && b.MaxX > o.MinX && b.MinY < o.MaxY && b.MaxY > o.MinY && b.MinZ < o.MaxZ && b.MaxZ > o.MinZ
}

// collideX, collideY and collideZ clip a movement d of the entity box e
// along one axis against a block box s, as VoxelShape.collideX does for a
// one-box shape: s blocks e only where they overlap by more than 1.0E-7 on
// the other two axes, and only when s lies ahead of e (e may already reach
// 1.0E-7 into it).
func collideX(s, e *AABB, d float64) float64 {
	if e.MinY+1e-7 >= s.MaxY || e.MaxY-1e-7 < s.MinY || e.MinZ+1e-7 >= s.MaxZ || e.MaxZ-1e-7 < s.MinZ {
		return d
	}
	if d > 0 {
		if e.MaxX-1e-7 < s.MinX {
			if g := s.MinX - e.MaxX; g < d {
				return g
			}
		}
	} else if d < 0 {
		if e.MinX+1e-7 >= s.MaxX {
			if g := s.MaxX - e.MinX; g > d {
				return g
			}
		}
	}
	return d
}

func collideY(s, e *AABB, d float64) float64 {
	if e.MinX+1e-7 >= s.MaxX || e.MaxX-1e-7 < s.MinX || e.MinZ+1e-7 >= s.MaxZ || e.MaxZ-1e-7 < s.MinZ {
		return d
	}
	if d > 0 {
		if e.MaxY-1e-7 < s.MinY {
			if g := s.MinY - e.MaxY; g < d {
				return g
			}
		}
	} else if d < 0 {
		if e.MinY+1e-7 >= s.MaxY {
			if g := s.MaxY - e.MinY; g > d {
				return g
			}
		}
	}
	return d
}

func collideZ(s, e *AABB, d float64) float64 {
	if e.MinX+1e-7 >= s.MaxX || e.MaxX-1e-7 < s.MinX || e.MinY+1e-7 >= s.MaxY || e.MaxY-1e-7 < s.MinY {
		return d
	}
	if d > 0 {
		if e.MaxZ-1e-7 < s.MinZ {
			if g := s.MinZ - e.MaxZ; g < d {
				return g
			}
		}
	} else if d < 0 {
		if e.MinZ+1e-7 >= s.MaxZ {
			if g := s.MaxZ - e.MinZ; g > d {
				return g
			}
		}
	}
	return d
}

// Shapes.collide over a list of boxes: stop at zero once the movement is
// below 1.0E-7.
func collideAxis(axis int, boxes []AABB, e AABB, d float64) float64 {
	for i := range boxes {
		if d < 1e-7 && d > -1e-7 {
			return 0
		}
		switch axis {
		case 0:
			d = collideX(&boxes[i], &e, d)
		case 1:
			d = collideY(&boxes[i], &e, d)
		default:
			d = collideZ(&boxes[i], &e, d)
		}
	}
	return d
}

// collideWithShapes moves e by v against boxes: y first, then the larger
// of x and z last (Entity.collideWithShapes; 1.21.7's axisStepOrder, which
// 1.21.1's if-chain computes the same way).
func collideWithShapes(v Vec3, e AABB, boxes []AABB) Vec3 {
	if len(boxes) == 0 {
		return v
	}
	var r Vec3
	if v.Y != 0 {
		r.Y = collideAxis(1, boxes, e, v.Y)
		e = e.Move(0, r.Y, 0)
	}
	zFirst := abs(v.X) < abs(v.Z)
	if zFirst && v.Z != 0 {
		r.Z = collideAxis(2, boxes, e, v.Z)
		e = e.Move(0, 0, r.Z)
	}
	if v.X != 0 {
		r.X = collideAxis(0, boxes, e, v.X)
		e = e.Move(r.X, 0, 0)
	}
	if !zFirst && v.Z != 0 {
		r.Z = collideAxis(2, boxes, e, v.Z)
	}
	return r
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}
