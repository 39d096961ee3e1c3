package conn

import (
	"bytes"
	"errors"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	pk "github.com/Tnze/go-mc/net/packet"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// tcpPair is a Conn over a loopback TCP connection and the server's end of
// it: the socket path (on Linux, raw reads and writes; socket_linux.go).
func tcpPair(t *testing.T, opts Options) (*Conn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		nc, _ := ln.Accept()
		accepted <- nc
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	srv := <-accepted
	if srv == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { nc.Close(); srv.Close() })
	return New(nc, table, opts), srv
}

// TestReadsAndWritesOverTCP: frames larger than the socket's buffers go
// both ways whole and in order, compressed and not: reads that find the
// socket empty wait for it, and writes the socket cannot take at once wait
// for room.
func TestReadsAndWritesOverTCP(t *testing.T) {
	for _, thr := range []int{-1, 256} {
		c, srv := tcpPair(t, Options{})
		c.SetCompression(thr)
		big := bytes.Repeat([]byte("blockmate "), 150_000) // 1.5 MB
		sent := []pk.Packet{{ID: 1, Data: []byte("hi")}, {ID: 2, Data: big}, {ID: 3, Data: big[:300]}}
		go func() {
			for _, p := range sent {
				// The server writes in small pieces, so a frame arrives
				// over many reads.
				b := packed(t, thr, p)
				for len(b) > 0 {
					n := min(len(b), 7000)
					if _, err := srv.Write(b[:n]); err != nil {
						return
					}
					b = b[n:]
				}
			}
		}()
		for _, want := range sent {
			got, err := c.ReadPacket()
			if err != nil || got.ID != want.ID || !bytes.Equal(got.Payload, want.Data) {
				t.Fatalf("threshold %d: read id %d, %d bytes, err %v; want id %d, %d bytes", thr, got.ID, len(got.Payload), err, want.ID, len(want.Data))
			}
		}

		// Three 1.5 MB frames in one write: more than loopback's buffers
		// hold, so the write waits while the server reads.
		done := make(chan error, 1)
		go func() {
			done <- c.WriteBatch(Outgoing{mcdata.ServerboundHandshakeSetProtocol, big}, Outgoing{mcdata.ServerboundHandshakeSetProtocol, big[:10]}, Outgoing{mcdata.ServerboundHandshakeSetProtocol, big})
		}()
		p := &peer{t: t, nc: srv, thr: thr}
		for i, want := range [][]byte{big, big[:10], big} {
			got, err := p.read()
			if err != nil || !bytes.Equal(got.Data, want) {
				t.Fatalf("threshold %d: packet %d: %d bytes, err %v", thr, i, len(got.Data), err)
			}
		}
		if err := <-done; err != nil {
			t.Fatalf("threshold %d: write: %v", thr, err)
		}
	}
}

// TestSocketEnds: the ways a socket ends reach the read loop and writers as
// errors the session can describe: the server closing (EOF), the read
// deadline (a timeout), our own Close, and writing to a server that has
// gone (an error, not a signal that kills the process).
func TestSocketEnds(t *testing.T) {
	t.Run("server closes", func(t *testing.T) {
		c, srv := tcpPair(t, Options{})
		srv.Close()
		if _, err := c.ReadPacket(); !errors.Is(err, io.EOF) {
			t.Fatalf("read after the server closed: %v, want EOF", err)
		}
	})
	t.Run("read deadline", func(t *testing.T) {
		c, _ := tcpPair(t, Options{ReadTimeout: time.Millisecond})
		_, err := c.ReadPacket()
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Fatalf("read from a silent server: %v, want a timeout", err)
		}
	})
	t.Run("closed while reading", func(t *testing.T) {
		c, _ := tcpPair(t, Options{})
		read := make(chan error, 1)
		go func() {
			_, err := c.ReadPacket()
			read <- err
		}()
		c.Close()
		if err := <-read; !errors.Is(err, net.ErrClosed) {
			t.Fatalf("read on a closed connection: %v, want net.ErrClosed", err)
		}
	})
	t.Run("write to a server that has gone", func(t *testing.T) {
		c, srv := tcpPair(t, Options{})
		// Unread data makes the server's close a reset.
		if err := c.Write(mcdata.ServerboundHandshakeSetProtocol, []byte{1}); err != nil {
			t.Fatal(err)
		}
		srv.Close()
		var err error
		for i := 0; i < 100_000 && err == nil; i++ {
			err = c.Write(mcdata.ServerboundHandshakeSetProtocol, []byte{1})
		}
		if !errors.Is(err, syscall.EPIPE) && !errors.Is(err, syscall.ECONNRESET) {
			t.Fatalf("writing to a closed server: %v, want a broken pipe or a reset", err)
		}
	})
}
