package conn

import (
	"bytes"
	"compress/zlib"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"

	pk "github.com/Tnze/go-mc/net/packet"

	"github.com/blockmate/blockmate/bot/mcdata"
)

var table = mcdata.For(767)

// id is the packet's id in the test table.
func id(t testing.TB, p mcdata.Packet) int32 {
	t.Helper()
	n, ok := table.ID(p)
	if !ok {
		t.Fatalf("%v is not in 767", p)
	}
	return n
}

// packed frames packets with go-mc's encoder, which is independent of ours.
func packed(t testing.TB, threshold int, packets ...pk.Packet) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, p := range packets {
		if err := p.Pack(&b, threshold); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// TestReadsWhatGoMCWrites: frames from an independent encoder read back
// whole, with compression off, below and above the threshold, and larger
// than go-mc's own 2 MiB read limit (up to the game's 8 MiB).
func TestReadsWhatGoMCWrites(t *testing.T) {
	big := bytes.Repeat([]byte("chunk data "), 600_000) // 6.6 MB, compresses well
	cases := []struct {
		name      string
		threshold int
		payloads  [][]byte
	}{
		{"uncompressed", -1, [][]byte{{1, 2, 3}, {}, bytes.Repeat([]byte{7}, 70_000)}},
		{"threshold 0", 0, [][]byte{{1}, bytes.Repeat([]byte{9}, 1000)}},
		{"threshold 256", 256, [][]byte{{1, 2}, bytes.Repeat([]byte{5}, 255), bytes.Repeat([]byte{5}, 256), bytes.Repeat([]byte{6}, 100_000)}},
		{"beyond go-mc's limit", 256, [][]byte{big, {4}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var in []pk.Packet
			for i, p := range c.payloads {
				in = append(in, pk.Packet{ID: int32(i + 1), Data: p})
			}
			fr := newFrameReader(bytes.NewReader(packed(t, c.threshold, in...)), 0)
			for i, want := range in {
				gotID, got, _, err := fr.next(c.threshold)
				if err != nil {
					t.Fatalf("packet %d: %v", i, err)
				}
				if gotID != want.ID || !bytes.Equal(got, want.Data) {
					t.Fatalf("packet %d: id %d, %d bytes; want id %d, %d bytes", i, gotID, len(got), want.ID, len(want.Data))
				}
			}
			if _, _, _, err := fr.next(c.threshold); err != io.EOF {
				t.Errorf("after the last frame: %v, want io.EOF", err)
			}
		})
	}
}

// frame builds one compressed frame by hand: declared data length, then
// the given zlib stream.
func frame(declared int32, compressed []byte) []byte {
	body := appendVarInt(nil, declared)
	body = append(body, compressed...)
	return append(appendVarInt(nil, int32(len(body))), body...)
}

func deflate(b []byte) []byte {
	var out bytes.Buffer
	zw := zlib.NewWriter(&out)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

// TestRefusesMalformedFrames: every broken rule is an ErrMalformed naming
// it, never a panic or a huge allocation.
func TestRefusesMalformedFrames(t *testing.T) {
	packet := append([]byte{0x05}, bytes.Repeat([]byte{1}, 299)...) // id 5, 300 bytes in all
	cases := []struct {
		name      string
		threshold int
		stream    []byte
		want      string
	}{
		{"length prefix of 4 bytes", -1, []byte{0xff, 0xff, 0xff, 0x7f}, "length prefix longer than 3 bytes"},
		{"empty frame", -1, []byte{0}, "length 0"},
		{"no packet id", -1, []byte{1, 0x80}, "packet id is not a VarInt"},
		{"declared below the threshold", 256, frame(255, deflate(packet[:255])), "below the compression threshold of 256"},
		{"declared over 8 MiB", 256, frame(MaxUncompressed+1, deflate(packet)), "over the 8388608-byte limit"},
		{"inflates to less", 256, frame(301, deflate(packet)), "declares 301 bytes but inflates to 300"},
		{"inflates to more", 256, frame(299, deflate(packet)), "declares 299 bytes but inflates to more"},
		{"not zlib", 256, frame(300, []byte("not a zlib stream")), "compressed data"},
		{"bad checksum", 256, frame(300, func() []byte { b := deflate(packet); b[len(b)-1] ^= 1; return b }()), "checksum"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fr := newFrameReader(bytes.NewReader(c.stream), 0)
			_, _, _, err := fr.next(c.threshold)
			if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want ErrMalformed saying %q", err, c.want)
			}
		})
	}
	// A frame cut short is an unexpected end, not a clean one.
	fr := newFrameReader(bytes.NewReader([]byte{10, 1, 2}), 0)
	if _, _, _, err := fr.next(-1); err != io.ErrUnexpectedEOF {
		t.Errorf("cut frame: %v", err)
	}
}

// TestReadReusesItsBuffers: reading small compressed packets allocates
// at most once per packet once warm: one zlib reader and the buffers are
// reused; the one allocation left is the 8-byte checksum state the standard
// library's zlib reader makes on every Reset.
func TestReadReusesItsBuffers(t *testing.T) {
	var in []pk.Packet
	for i := 0; i < 200; i++ {
		in = append(in, pk.Packet{ID: 1, Data: bytes.Repeat([]byte{byte(i)}, 300+i)})
	}
	stream := packed(t, 256, in...)
	src := bytes.NewReader(stream)
	fr := newFrameReader(src, 0)
	readAll := func() {
		src.Reset(stream)
		fr.br.Reset(src)
		for range in {
			if _, _, _, err := fr.next(256); err != nil {
				t.Fatal(err)
			}
		}
	}
	readAll()
	if allocs := testing.AllocsPerRun(20, readAll); allocs/float64(len(in)) > 1.05 {
		t.Errorf("%.2f allocations per compressed packet, want at most the zlib checksum's one", allocs/float64(len(in)))
	}
}

// pipe returns a Conn and a reader of what it writes, decoded with go-mc.
type peer struct {
	t   *testing.T
	nc  net.Conn
	thr int
}

func newPipe(t *testing.T) (*Conn, *peer) {
	a, b := net.Pipe()
	t.Cleanup(func() { a.Close(); b.Close() })
	return New(a, table, Options{}), &peer{t: t, nc: b, thr: -1}
}

func (p *peer) read() (pk.Packet, error) {
	var pkt pk.Packet
	err := pkt.UnPack(p.nc, p.thr)
	return pkt, err
}

// TestWritesWhatGoMCReads: our frames decode with go-mc, compressed or not.
func TestWritesWhatGoMCReads(t *testing.T) {
	for _, thr := range []int{-1, 0, 64} {
		c, p := newPipe(t)
		c.SetCompression(thr)
		p.thr = thr
		small, large := []byte{1, 2, 3}, bytes.Repeat([]byte("x"), 5000)
		done := make(chan error, 1)
		go func() {
			done <- c.WriteBatch(Outgoing{mcdata.ServerboundHandshakeSetProtocol, small}, Outgoing{mcdata.ServerboundHandshakeSetProtocol, large})
		}()
		for _, want := range [][]byte{small, large} {
			got, err := p.read()
			if err != nil || got.ID != id(t, mcdata.ServerboundHandshakeSetProtocol) || !bytes.Equal(got.Data, want) {
				t.Fatalf("threshold %d: read %d bytes, id %d, err %v", thr, len(got.Data), got.ID, err)
			}
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestWriteRefusals: a packet of another state, another direction or not
// in this version is refused with a sentence, and a batch holding one sends
// nothing.
func TestWriteRefusals(t *testing.T) {
	c, _ := newPipe(t)
	err := c.WriteBatch(Outgoing{mcdata.ServerboundHandshakeSetProtocol, nil}, Outgoing{mcdata.ServerboundPlayKeepAlive, nil})
	var se *StateError
	if !errors.As(err, &se) || err.Error() != "cannot send play serverbound keep_alive while the connection is in the handshake state" {
		t.Errorf("wrong state: %v", err)
	}
	if err := c.Write(mcdata.ClientboundPlayKeepAlive, nil); err == nil || !strings.Contains(err.Error(), "not a packet the client sends") {
		t.Errorf("clientbound: %v", err)
	}
	if err := c.Write(mcdata.ServerboundPlayPlayerLoaded, nil); !errors.Is(err, ErrNotInVersion) {
		t.Errorf("player_loaded in 1.21.1: %v", err)
	}
	// Nothing was written: a write would block on the unread pipe, and the
	// refusals returned.
}

// TestSwitchIsAtomicWithItsAcknowledgement: play packets written by other
// goroutines while the read loop acknowledges a switch to configuration go
// out before the acknowledgement or fail; none follows it.
func TestSwitchIsAtomicWithItsAcknowledgement(t *testing.T) {
	ack := id(t, mcdata.ServerboundPlayConfigurationAcknowledged)
	keepAlive := id(t, mcdata.ServerboundPlayKeepAlive)
	for round := 0; round < 100; round++ {
		c, p := newPipe(t)
		c.wmu.Lock()
		c.writeState = mcdata.StatePlay
		c.wmu.Unlock()
		var wg sync.WaitGroup
		for w := 0; w < 3; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					err := c.Write(mcdata.ServerboundPlayKeepAlive, []byte{0, 0, 0, 0, 0, 0, 0, 1})
					var se *StateError
					if errors.As(err, &se) {
						return // the switch happened
					}
					if err != nil {
						t.Errorf("write: %v", err)
						return
					}
				}
			}()
		}
		go func() {
			_ = c.SwitchAfter(mcdata.ServerboundPlayConfigurationAcknowledged, nil, mcdata.StateConfig)
			wg.Wait()
			// One configuration packet marks the end of the stream.
			_ = c.Write(mcdata.ServerboundConfigFinishConfiguration, nil)
		}()
		sawAck := false
		for {
			pkt, err := p.read()
			if err != nil {
				t.Fatal(err)
			}
			if sawAck && pkt.ID == id(t, mcdata.ServerboundConfigFinishConfiguration) {
				break
			}
			switch {
			case pkt.ID == ack && !sawAck:
				sawAck = true
			case pkt.ID == keepAlive && sawAck:
				t.Fatalf("round %d: a play keep-alive went out after the configuration acknowledgement", round)
			}
		}
		if c.State() != mcdata.StateConfig {
			t.Fatalf("read state %v after the switch", c.State())
		}
	}
}

// TestBatchIsNotInterleaved: two goroutines each writing a batch of three
// packets: every batch arrives whole.
func TestBatchIsNotInterleaved(t *testing.T) {
	c, p := newPipe(t)
	const batches = 200
	var wg sync.WaitGroup
	for g := byte(1); g <= 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < batches; i++ {
				if err := c.WriteBatch(Outgoing{mcdata.ServerboundHandshakeSetProtocol, []byte{g, 1}}, Outgoing{mcdata.ServerboundHandshakeSetProtocol, []byte{g, 2}}, Outgoing{mcdata.ServerboundHandshakeSetProtocol, []byte{g, 3}}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i := 0; i < 2*batches; i++ {
		var owner byte
		for part := byte(1); part <= 3; part++ {
			pkt, err := p.read()
			if err != nil {
				t.Fatal(err)
			}
			if part == 1 {
				owner = pkt.Data[0]
			}
			if pkt.Data[0] != owner || pkt.Data[1] != part {
				t.Fatalf("batch %d: part %d came from writer %d, part %d (batches interleaved)", i, part, pkt.Data[0], pkt.Data[1])
			}
		}
	}
	wg.Wait()
}

// FuzzFrameReader reads arbitrary bytes as a stream of frames; the first
// byte picks the compression threshold. No input may panic, and no packet
// may be larger than the game's limit.
func FuzzFrameReader(f *testing.F) {
	f.Add(append([]byte{1}, packed(f, 256, pk.Packet{ID: 3, Data: bytes.Repeat([]byte{1}, 500)}, pk.Packet{ID: 4, Data: []byte{2}})...))
	f.Add(append([]byte{0}, packed(f, -1, pk.Packet{ID: 1, Data: []byte("hello")})...))
	f.Add(append([]byte{2}, frame(300, deflate(bytes.Repeat([]byte{1}, 300)))...))
	f.Add([]byte{1, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		threshold := [...]int{-1, 256, 0, 64}[b[0]%4]
		fr := newFrameReader(bytes.NewReader(b[1:]), 0)
		for i := 0; i < 64; i++ {
			_, payload, _, err := fr.next(threshold)
			if err != nil {
				return
			}
			if len(payload) > MaxUncompressed {
				t.Fatalf("a packet of %d bytes", len(payload))
			}
		}
	})
}

// benchStream is what a server sends after login: many small packets
// (movement, keep-alives), some medium compressed ones and a few chunk-sized
// ones, at vanilla's threshold of 256.
func benchStream(b *testing.B) ([]byte, int) {
	var in []pk.Packet
	for i := 0; i < 300; i++ {
		switch {
		case i%100 == 0:
			in = append(in, pk.Packet{ID: 0x27, Data: bytes.Repeat([]byte{byte(i), 0, 0, 1, 2, 3, 4, 5}, 8000)})
		case i%10 == 0:
			in = append(in, pk.Packet{ID: 0x58, Data: bytes.Repeat([]byte("entity metadata "), 100)})
		default:
			in = append(in, pk.Packet{ID: 0x2e, Data: []byte{byte(i), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}})
		}
	}
	total := 0
	for _, p := range in {
		total += len(p.Data)
	}
	return packed(b, 256, in...), total
}

// BenchmarkRead compares reading the same compressed stream with our frame
// reader and with go-mc's Packet.UnPack (the path the bot used before).
func BenchmarkRead(b *testing.B) {
	stream, total := benchStream(b)
	b.Run("conn", func(b *testing.B) {
		src := bytes.NewReader(stream)
		fr := newFrameReader(src, 0)
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			src.Reset(stream)
			fr.br.Reset(src)
			for {
				if _, _, _, err := fr.next(256); err != nil {
					if err != io.EOF {
						b.Fatal(err)
					}
					break
				}
			}
		}
	})
	b.Run("go-mc", func(b *testing.B) {
		src := bytes.NewReader(stream)
		var p pk.Packet
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			src.Reset(stream)
			for {
				if err := p.UnPack(src, 256); err != nil {
					if err != io.EOF {
						b.Fatal(err)
					}
					break
				}
			}
		}
	})
}
