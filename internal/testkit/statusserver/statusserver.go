// Package statusserver is a minimal status-protocol speaker on a loopback
// (or namespace) port, for the tests of the status ping and LAN discovery.
// It frames with go-mc, so code we did not write reads what the ping
// writes. The integration tests ping flying-squid.
package statusserver

import (
	"bufio"
	"net"
	"testing"
	"time"

	pk "github.com/Tnze/go-mc/net/packet"

	"github.com/blockmate/blockmate/bot/wire"
)

// Behaviour is how the server answers.
type Behaviour struct {
	// StatusJSON is the status response's JSON.
	StatusJSON string
	// Raw, when set, is written instead of a status response.
	Raw []byte
	// SkipPong leaves the ping unanswered; Silent answers nothing at all.
	SkipPong bool
	Silent   bool
	// WrongID answers the status request with packet 1, not 0.
	WrongID bool
}

// Server answers status pings until the test ends.
type Server struct {
	ln net.Listener
	// Handshakes receives the next-state field of each handshake seen.
	Handshakes chan int32
}

// Start listens on a free loopback port.
func Start(t testing.TB, b Behaviour) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return Serve(t, ln, b)
}

// Serve answers status pings on ln until the test ends.
func Serve(t testing.TB, ln net.Listener, b Behaviour) *Server {
	s := &Server{ln: ln, Handshakes: make(chan int32, 64)}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c, b)
		}
	}()
	return s
}

// Port is the port the server listens on.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

func (s *Server) serve(c net.Conn, b Behaviour) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	var hs pk.Packet
	if err := hs.UnPack(br, -1); err != nil {
		return
	}
	// protocol, address, port, next state
	r := wire.NewReader(hs.Data)
	_, _, _ = r.VarInt(), r.String(255), r.Uint16()
	next := r.VarInt()
	select {
	case s.Handshakes <- next:
	default:
	}
	var req pk.Packet
	if err := req.UnPack(br, -1); err != nil {
		return
	}
	if b.Silent {
		_, _ = c.Read(make([]byte, 1))
		return
	}
	if b.Raw != nil {
		_, _ = c.Write(b.Raw)
		return
	}
	id := int32(0x00)
	if b.WrongID {
		id = 0x01
	}
	var w wire.Writer
	w.String(b.StatusJSON)
	resp := pk.Packet{ID: id, Data: w.Bytes()}
	_ = resp.Pack(c, -1)
	var ping pk.Packet
	if err := ping.UnPack(br, -1); err != nil || b.SkipPong {
		return
	}
	_ = ping.Pack(c, -1)
}
