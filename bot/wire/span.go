package wire

// Pos is how many bytes of the payload have been read; with Since it lets
// a decoder keep the exact bytes of a value it skipped (an item component
// kept undecoded until someone asks for it).
func (r *Reader) Pos() int { return r.off }

// Since returns the bytes read from pos (an earlier Pos) to now; they alias
// the packet, so a caller that keeps them copies them. It is nil after an
// error or for a pos that is not an earlier position.
func (r *Reader) Since(pos int) []byte {
	if r.err != nil || pos < 0 || pos > r.off {
		return nil
	}
	return r.b[pos:r.off:r.off]
}
