package conn

import (
	"bytes"
	"compress/zlib"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// lengthCut is the Cut of a test packet whose body is a VarInt length, that
// many bytes the reader reads, then a tail it does not: the shape of a
// chunk packet (terrain, then light data).
func lengthCut(prefix []byte) (end, need int) {
	n, k := uvarint(prefix)
	if k == 0 {
		return 0, len(prefix) + 1
	}
	if want := k + int(n); want <= len(prefix) {
		return want, 0
	} else {
		return 0, want
	}
}

// cutBody is a body lengthCut cuts after head bytes, with tail after it.
func cutBody(head, tail []byte) []byte {
	return append(append(appendVarInt(nil, int32(len(head))), head...), tail...)
}

// compressedFrame frames id and body compressed, as a server does.
func compressedFrame(id int32, body []byte) []byte {
	packet := append(appendVarInt(nil, id), body...)
	return frame(int32(len(packet)), deflate(packet))
}

// uncompressedFrame frames id and body below the threshold.
func uncompressedFrame(id int32, body []byte) []byte {
	inner := append([]byte{0}, appendVarInt(nil, id)...)
	inner = append(inner, body...)
	return append(appendVarInt(nil, int32(len(inner))), inner...)
}

// junkAfterHead compresses id and the head of a body (up to cut) and
// flushes, then appends bytes that are not deflate data at all: a reader
// that inflated past the cut would fail on them.
func junkAfterHead(id int32, body []byte, cut int) []byte {
	packet := append(appendVarInt(nil, id), body...)
	var out bytes.Buffer
	zw := zlib.NewWriter(&out)
	zw.Write(packet[:varIntLen(id)+cut])
	zw.Flush()
	z := append(out.Bytes(), bytes.Repeat([]byte{0xff}, 64)...) // an invalid block type
	return frame(int32(len(packet)), z)
}

// TestCutLeavesTheStreamWhole: a compressed packet with a Cut is inflated
// only to the Cut's end, and the packets after it read exactly as they
// would have without the cut, whatever the rest of its frame holds (data
// that is not deflate at all, a wrong checksum); a packet the Cut wants
// whole, one it cannot read and one sent uncompressed arrive whole and
// checked.
func TestCutLeavesTheStreamWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	noise := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32() >> (rng.Uint32() % 8 * 4)) // compressible, not trivially
		}
		return b
	}
	const cutID, otherID = 7, 8
	head, tail := noise(3000), noise(40_000)
	chunk := cutBody(head, tail)
	badSum := compressedFrame(cutID, chunk)
	badSum[len(badSum)-1] ^= 1
	whole := cutBody(noise(500), nil)
	unreadable := append(appendVarInt(nil, 1<<20), noise(400)...) // claims more than it has
	type want struct {
		id   int32
		body []byte
		cut  bool
	}
	var stream []byte
	var wants []want
	add := func(f []byte, w want) { stream = append(stream, f...); wants = append(wants, w) }
	other := noise(2000)
	add(compressedFrame(cutID, chunk), want{cutID, chunk[:varIntLen(int32(len(head)))+len(head)], true})
	add(compressedFrame(otherID, other), want{otherID, other, false})
	add(junkAfterHead(cutID, chunk, varIntLen(int32(len(head)))+len(head)), want{cutID, chunk[:varIntLen(int32(len(head)))+len(head)], true})
	add(uncompressedFrame(otherID, []byte{1, 2, 3}), want{otherID, []byte{1, 2, 3}, false})
	add(badSum, want{cutID, chunk[:varIntLen(int32(len(head)))+len(head)], true})
	add(compressedFrame(cutID, whole), want{cutID, whole, false})
	add(compressedFrame(cutID, unreadable), want{cutID, unreadable, false})
	add(uncompressedFrame(cutID, cutBody([]byte{9, 9}, []byte{1})), want{cutID, cutBody([]byte{9, 9}, []byte{1}), false})
	add(compressedFrame(otherID, other), want{otherID, other, false})

	fr := newFrameReader(bytes.NewReader(stream), 0)
	fr.cutFor = func(id int32) Cut {
		if id == cutID {
			return lengthCut
		}
		return nil
	}
	for i, w := range wants {
		id, body, cut, err := fr.next(64)
		if err != nil {
			t.Fatalf("packet %d: %v", i, err)
		}
		if id != w.id || cut != w.cut || !bytes.Equal(body, w.body) {
			t.Fatalf("packet %d: id %d, cut %v, %d bytes; want id %d, cut %v, %d bytes", i, id, cut, len(body), w.id, w.cut, len(w.body))
		}
	}
	if _, _, _, err := fr.next(64); err != io.EOF {
		t.Errorf("after the last frame: %v, want io.EOF", err)
	}

	// Without the cut the same junk is an error, and a packet the Cut
	// wants whole is checked to its checksum: the cut is what spares them.
	fr = newFrameReader(bytes.NewReader(junkAfterHead(cutID, chunk, varIntLen(int32(len(head)))+len(head))), 0)
	if _, _, _, err := fr.next(64); !errors.Is(err, ErrMalformed) {
		t.Errorf("the junk read without a cut: %v, want ErrMalformed", err)
	}
	wrong := compressedFrame(cutID, whole)
	wrong[len(wrong)-1] ^= 1
	fr = newFrameReader(bytes.NewReader(wrong), 0)
	fr.cutFor = func(int32) Cut { return lengthCut }
	if _, _, _, err := fr.next(64); !errors.Is(err, ErrMalformed) {
		t.Errorf("a whole packet with a wrong checksum: %v, want ErrMalformed", err)
	}
}

// TestCutReadsLittle: a cut packet is inflated to about its Cut's end, not
// to its end: the reason for cutting. The bytes inflated are counted
// through the zlib reader.
func TestCutReadsLittle(t *testing.T) {
	head := bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 100)
	tail := make([]byte, 1<<20)
	body := cutBody(head, tail)
	fr := newFrameReader(bytes.NewReader(compressedFrame(7, body)), 0)
	fr.cutFor = func(int32) Cut { return lengthCut }
	zr, _ := zlib.NewReader(bytes.NewReader(deflate([]byte{0})))
	counted := &countingReadCloser{ReadCloser: zr}
	fr.zr = counted
	if _, got, cut, err := fr.next(0); err != nil || !cut || len(got) != varIntLen(int32(len(head)))+len(head) {
		t.Fatalf("cut %v, %d bytes, err %v", cut, len(got), err)
	}
	if counted.n > 2*len(head)+64 {
		t.Errorf("%d bytes inflated for a cut at %d of %d", counted.n, len(head), len(body))
	}
}

// countingReadCloser counts what is read through a zlib reader and keeps
// it resettable.
type countingReadCloser struct {
	io.ReadCloser
	n int
}

func (c *countingReadCloser) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n += n
	return n, err
}

func (c *countingReadCloser) Reset(r io.Reader, dict []byte) error {
	return c.ReadCloser.(zlib.Resetter).Reset(r, dict)
}

// TestCutAtByKindAndState: CutAt names a packet, which the connection finds
// by its id in the state it reads in; the same id in another state, and a
// packet the version lacks, are not cut.
func TestCutAtByKindAndState(t *testing.T) {
	a, b := net.Pipe()
	t.Cleanup(func() { a.Close(); b.Close() })
	c := New(a, table, Options{})
	c.CutAt(mcdata.ClientboundPlayMapChunk, lengthCut)
	c.CutAt(mcdata.ServerboundPlayChatMessage, lengthCut) // not a clientbound packet: ignored, no panic
	c.SetCompression(0)
	chunkID := id(t, mcdata.ClientboundPlayMapChunk)
	body := cutBody([]byte{1, 2, 3}, bytes.Repeat([]byte{4}, 500))
	go func() {
		// Read in the handshake state: nothing of it is clientbound, so
		// the id is no packet there and is read whole.
		b.Write(compressedFrame(chunkID, body))
		b.Write(compressedFrame(chunkID, body))
	}()
	p, err := c.ReadPacket()
	if err != nil || p.Cut || !bytes.Equal(p.Payload, body) {
		t.Fatalf("outside play: cut %v, %d bytes, %v", p.Cut, len(p.Payload), err)
	}
	c.readState.Store(uint32(mcdata.StatePlay))
	p, err = c.ReadPacket()
	if err != nil || !p.Cut || p.Kind != mcdata.ClientboundPlayMapChunk || !bytes.Equal(p.Payload, body[:4]) {
		t.Fatalf("in play: %v, cut %v, %d bytes, %v", p.Kind, p.Cut, len(p.Payload), err)
	}
}

// FuzzCutFrames reads a stream of compressed frames whose packets are cut at
// arbitrary points by a Cut that asks for arbitrary amounts: each packet
// must come out as the prefix of its body the Cut chose (or whole), and
// the frames after it exactly as sent.
func FuzzCutFrames(f *testing.F) {
	f.Add([]byte("terrain and light"), uint16(7), uint16(3), uint8(2))
	f.Add(bytes.Repeat([]byte{0}, 5000), uint16(4000), uint16(1), uint8(5))
	f.Add([]byte{}, uint16(0), uint16(0), uint8(0))
	f.Fuzz(func(t *testing.T, body []byte, cutAt, step uint16, packets uint8) {
		end := int(cutAt) % (len(body) + 2) // len(body)+1: a cut past the end
		cut := func(prefix []byte) (int, int) {
			if end == 0 || end > len(body) {
				return 0, len(prefix) + int(step) // never an end: the whole body
			}
			if len(prefix) >= end {
				return end, 0
			}
			// Ask for an arbitrary amount, sometimes no more than there
			// is (the reader must still move on) or past the end.
			return 0, len(prefix) + int(step)%(end+3) - 1
		}
		var stream []byte
		n := 1 + int(packets)%6
		for i := range n {
			stream = append(stream, compressedFrame(int32(7+i%2), body)...)
		}
		fr := newFrameReader(bytes.NewReader(stream), 0)
		fr.cutFor = func(id int32) Cut {
			if id == 7 {
				return cut
			}
			return nil
		}
		for i := range n {
			id, got, wasCut, err := fr.next(0)
			if err != nil {
				t.Fatalf("packet %d: %v", i, err)
			}
			want, wantCut := body, false
			if id == 7 && end > 0 && end < len(body) {
				want, wantCut = body[:end], true
			}
			if id != int32(7+i%2) || wasCut != wantCut || !bytes.Equal(got, want) {
				t.Fatalf("packet %d: id %d, cut %v, %d bytes; want %d bytes, cut %v (end %d of %d)", i, id, wasCut, len(got), len(want), wantCut, end, len(body))
			}
		}
		if _, _, _, err := fr.next(0); err != io.EOF {
			t.Fatalf("after the frames: %v", err)
		}
	})
}
