package conn

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
)

const (
	// MaxFrame is the longest frame the protocol allows: its length prefix
	// is at most three VarInt bytes.
	MaxFrame = 1<<21 - 1
	// MaxUncompressed is the largest packet a compressed frame may inflate
	// to: 8 MiB, the game's own limit (vanilla's CompressionDecoder).
	MaxUncompressed = 1 << 23
	// keepBuffer is the largest inflate buffer kept for the next packet;
	// a rare larger packet gets a buffer of its own that the garbage
	// collector takes back, so one huge registry does not pin 8 MiB.
	keepBuffer = 1 << 20
)

// ErrMalformed marks a frame that breaks the protocol's rules: a length out
// of bounds, a compressed size below the threshold or above the limit, or
// data that does not inflate to the size it declares. The connection cannot
// go on after one.
var ErrMalformed = errors.New("the server sent a malformed packet frame")

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// A Cut says how much of a packet's body its readers read, so that the
// rest of a compressed frame need not be inflated: given the body's first
// bytes (after the packet id), end (at most len(prefix)) when what is read
// ends within them, else need, more than len(prefix), the length of body
// that gets further. It must not keep prefix.
type Cut func(prefix []byte) (end, need int)

// frameReader reads frames from a stream and inflates compressed ones. It
// reuses its buffers and its zlib reader from one packet to the next, so a
// body it returns is valid until the next call. It is used by one goroutine.
type frameReader struct {
	br       *bufio.Reader
	frame    []byte
	inflated []byte
	src      bytes.Reader
	zr       io.ReadCloser // a zlib reader, Reset for every packet
	one      [1]byte       // the read past a packet's end, kept here so it does not escape
	max      int           // the longest frame taken, at most MaxFrame
	// cutFor gives the Cut of a packet id in the current state, or nil.
	cutFor func(id int32) Cut
}

// newFrameReader reads frames of at most max bytes from r (MaxFrame when
// max is 0 or more than MaxFrame).
func newFrameReader(r io.Reader, max int) *frameReader {
	if max <= 0 || max > MaxFrame {
		max = MaxFrame
	}
	return &frameReader{br: bufio.NewReaderSize(r, 32<<10), max: max}
}

// next reads one frame and returns its packet: the id and the payload after
// it, and whether the payload was cut (a compressed packet with a Cut whose
// end came before the body's). threshold is the compression threshold,
// negative while compression is off. Lengths are checked before anything
// is allocated for them.
//
// The whole frame is read from the stream whatever the cut, so the next
// frame starts where it should; only inflating stops early.
func (f *frameReader) next(threshold int) (id int32, payload []byte, cut bool, err error) {
	length, err := f.frameLength()
	if err != nil {
		return 0, nil, false, err
	}
	if cap(f.frame) < length {
		f.frame = make([]byte, length)
	}
	f.frame = f.frame[:length]
	if _, err := io.ReadFull(f.br, f.frame); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, false, err
	}
	body := f.frame
	if threshold >= 0 {
		declared, n := uvarint(body)
		if n <= 0 {
			return 0, nil, false, malformed("the uncompressed length is not a VarInt")
		}
		body = body[n:]
		if declared != 0 {
			// Vanilla's rules: a packet sent compressed must be at least
			// the threshold, and at most the 8 MiB limit.
			switch {
			case declared < uint32(threshold):
				return 0, nil, false, malformed("a compressed packet declares %d bytes, below the compression threshold of %d", declared, threshold)
			case declared > MaxUncompressed:
				return 0, nil, false, malformed("a compressed packet declares %d bytes, over the %d-byte limit", declared, MaxUncompressed)
			}
			if body, cut, err = f.inflate(body, int(declared)); err != nil {
				return 0, nil, false, err
			}
		}
	}
	pid, n := uvarint(body)
	if n <= 0 {
		return 0, nil, false, malformed("the packet id is not a VarInt")
	}
	return int32(pid), body[n:], cut, nil
}

// frameLength reads the frame's length prefix.
func (f *frameReader) frameLength() (int, error) {
	var length uint32
	for i := 0; ; i++ {
		b, err := f.br.ReadByte()
		if err != nil {
			if i > 0 && errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		length |= uint32(b&0x7f) << (7 * i)
		if b&0x80 == 0 {
			break
		}
		if i == 2 {
			return 0, malformed("length prefix longer than 3 bytes")
		}
	}
	if length == 0 || int(length) > f.max {
		return 0, malformed("length %d (the limit is %d bytes)", length, f.max)
	}
	return int(length), nil
}

// inflate decompresses data, which must inflate to exactly size bytes:
// the packet id and its body. When the packet's id has a Cut, it inflates
// only as far as the Cut asks and returns the id and the body up to the
// Cut's end (cut true): the rest of the stream, and so its checksum, is
// never inflated. The zlib reader is Reset on the next packet, so nothing
// of this one's stream carries over.
func (f *frameReader) inflate(data []byte, size int) (body []byte, cut bool, err error) {
	f.src.Reset(data)
	if f.zr == nil {
		zr, err := zlib.NewReader(&f.src)
		if err != nil {
			return nil, false, malformed("compressed data: %v", err)
		}
		f.zr = zr
	} else if err := f.zr.(zlib.Resetter).Reset(&f.src, nil); err != nil {
		return nil, false, malformed("compressed data: %v", err)
	}
	var out []byte
	if size <= keepBuffer {
		if cap(f.inflated) < size {
			f.inflated = make([]byte, size, max(size, 64<<10))
		}
		out = f.inflated[:size]
	} else {
		out = make([]byte, size)
	}
	n := 0 // bytes of out inflated
	fill := func(to int) error {
		m, err := io.ReadFull(f.zr, out[n:to])
		n += m
		switch {
		case err == nil:
			return nil
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return malformed("a compressed packet declares %d bytes but inflates to %d", size, n)
		}
		return malformed("compressed data: %v", err)
	}
	if f.cutFor != nil {
		// The id first (a VarInt of at most 5 bytes), to find the Cut.
		if err := fill(min(size, 5)); err != nil {
			return nil, false, err
		}
		if id, k := uvarint(out[:n]); k > 0 {
			if c := f.cutFor(int32(id)); c != nil {
				for {
					end, need := c(out[k:n])
					if end > 0 && end <= n-k {
						if k+end < size {
							return out[:k+end], true, nil
						}
						break // the Cut wants it all: checked to its end below
					}
					if n == size {
						break // the whole body: its readers meet what is wrong with it
					}
					// need is the Cut's; a Cut that asks for no more
					// than it has is still moved on, so this ends.
					if err := fill(k + min(max(need, n-k+1), size-k)); err != nil {
						return nil, false, err
					}
				}
			}
		}
	}
	if n < size {
		if err := fill(size); err != nil {
			return nil, false, err
		}
	}
	// The stream must end here. Reading to its end also checks the zlib
	// checksum.
	switch n, err := io.ReadAtLeast(f.zr, f.one[:], 1); {
	case n > 0:
		return nil, false, malformed("a compressed packet declares %d bytes but inflates to more", size)
	case !errors.Is(err, io.EOF):
		return nil, false, malformed("compressed data: %v", err)
	}
	return out, false, nil
}

// uvarint decodes a VarInt of at most 5 bytes from b. n is the bytes it
// used, or 0 when b ends first or the VarInt is too long.
func uvarint(b []byte) (v uint32, n int) {
	for i := 0; i < 5 && i < len(b); i++ {
		v |= uint32(b[i]&0x7f) << (7 * i)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}

// appendVarInt appends v as a VarInt.
func appendVarInt(b []byte, v int32) []byte {
	u := uint32(v)
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}

func varIntLen(v int32) int {
	u, n := uint32(v), 1
	for u >= 0x80 {
		u >>= 7
		n++
	}
	return n
}
