package wire

// NBTRaw reads one network NBT value (a type byte and a nameless payload)
// without building it and returns its bytes, type byte included; they alias
// the packet. A TAG_End root (no value) returns nil. Lengths are checked
// against the bytes left and nesting is bounded as in NBT, so it costs no
// allocation whatever the input: a chunk's block entities can be kept
// undecoded until a skill needs one.
func (r *Reader) NBTRaw() []byte {
	start := r.off
	t := r.Byte()
	if r.err != nil || t == tagEnd {
		return nil
	}
	r.skipNBT(t, 0)
	if r.err != nil {
		return nil
	}
	return r.b[start:r.off]
}

func (r *Reader) skipNBT(t byte, depth int) {
	if r.err != nil {
		return
	}
	switch t {
	case tagByte:
		r.take(1)
	case tagShort:
		r.take(2)
	case tagInt, tagFloat:
		r.take(4)
	case tagLong, tagDouble:
		r.take(8)
	case tagByteArray:
		r.take(r.nbtLen(1))
	case tagString:
		r.take(int(r.Uint16()))
	case tagIntArray:
		r.take(4 * r.nbtLen(4))
	case tagLongArray:
		r.take(8 * r.nbtLen(8))
	case tagList:
		if depth >= maxNBTDepth {
			r.Failf("NBT nests deeper than %d", maxNBTDepth)
			return
		}
		et := r.Byte()
		n := r.Int32()
		if r.err != nil {
			return
		}
		size, ok := nbtMinSize(et)
		if !ok {
			r.Failf("NBT list of unknown tag type %d", et)
			return
		}
		if n <= 0 {
			return
		}
		if et == tagEnd {
			r.Failf("NBT list of %d TAG_End elements", n)
			return
		}
		if int(n) > r.Remaining()/size {
			r.Failf("NBT list of %d elements does not fit in the %d bytes left", n, r.Remaining())
			return
		}
		for i := int32(0); i < n && r.err == nil; i++ {
			r.skipNBT(et, depth+1)
		}
	case tagCompound:
		if depth >= maxNBTDepth {
			r.Failf("NBT nests deeper than %d", maxNBTDepth)
			return
		}
		for r.err == nil {
			et := r.Byte()
			if et == tagEnd || r.err != nil {
				return
			}
			if _, ok := nbtMinSize(et); !ok {
				r.Failf("NBT compound entry of unknown tag type %d", et)
				return
			}
			r.take(int(r.Uint16()))
			r.skipNBT(et, depth+1)
		}
	default:
		r.Failf("unknown NBT tag type %d", t)
	}
}
