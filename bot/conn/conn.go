// Package conn is the transport of one connection to a Java Edition server:
// framing, compression, the protocol state and serialised, batched writes,
// over the generated packet table of the connection's protocol version.
//
// Framing and compression are ours rather than go-mc's: go-mc caps a
// decompressed packet at 2 MiB, which large registry and chunk packets
// exceed (the game's own limit is 8 MiB), and it makes a new zlib reader
// for every compressed packet. Here the limit is the game's, checked before
// anything is allocated, and the zlib reader, the zlib writer and the
// buffers are reused.
//
// Reads happen on one goroutine (the session's read loop). Writes may come
// from any goroutine; one mutex serialises them, and a batch goes out under
// one hold of it, so the packets of a sequence never interleave with another
// goroutine's. State switches happen with the write that announces them
// (SwitchAfter), so no packet slips between an acknowledgement and the
// switch it announces.
package conn

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Options tune a connection.
type Options struct {
	// ReadTimeout is how long a read may wait for the next frame before the
	// connection is taken for dead: the keep-alive timeout. 0 means none.
	ReadTimeout time.Duration
	// WriteTimeout bounds each write; 0 means 10 s.
	WriteTimeout time.Duration
	// MaxFrame, when above 0, is the longest frame this connection takes:
	// lower than the protocol's MaxFrame for an exchange whose packets are
	// small (the status ping). A longer frame is refused before anything
	// is allocated for it.
	MaxFrame int
}

// Packet is one packet read from the server.
type Packet struct {
	// Kind is the packet in the connection's state, or mcdata.PacketNone
	// when the version has no clientbound packet with that id there.
	Kind mcdata.Packet
	// ID is the id on the wire.
	ID int32
	// State is the state the packet was read in.
	State mcdata.State
	// Payload is the packet's body after its id. It is valid only until
	// the next ReadPacket: a handler that keeps bytes copies them.
	Payload []byte
	// Cut is true when Payload is only the part of the body that the
	// packet's Cut (CutAt) asked for: the rest of the compressed frame was
	// read from the stream but never inflated, nor its checksum checked.
	Cut bool
}

// Outgoing is one packet to write: its kind and its encoded body.
type Outgoing struct {
	Packet  mcdata.Packet
	Payload []byte
}

// Conn is one connection to a server.
type Conn struct {
	sock  socket
	table *mcdata.Table
	opts  Options

	// The read side belongs to the read loop. readState and readThreshold
	// are atomics only so that other goroutines may look at them; they
	// change under wmu together with the write side.
	fr            *frameReader
	cuts          map[mcdata.Packet]Cut // CutAt's, set before the read loop
	readState     atomic.Uint32
	readThreshold atomic.Int32

	// wmu serialises writes and guards the write side.
	wmu        sync.Mutex
	writeState mcdata.State
	threshold  int
	out        []byte // the frames of one write, reused
	body       bytes.Buffer
	zw         *zlib.Writer
}

// New wraps nc. The connection starts in the handshake state, without
// compression.
func New(nc net.Conn, table *mcdata.Table, opts Options) *Conn {
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = 10 * time.Second
	}
	sock := detach(nc)
	c := &Conn{sock: sock, table: table, opts: opts, fr: newFrameReader(sock, opts.MaxFrame), threshold: -1}
	c.readThreshold.Store(-1)
	return c
}

// socket is what a connection reads and writes: the net.Conn it was given,
// or on Linux the same TCP socket detached from the runtime's poller
// (socket_linux.go).
type socket interface {
	io.Reader
	io.Writer
	SetReadDeadline(t time.Time) error
	SetWriteDeadline(t time.Time) error
	Close() error
}

// readier is a socket that can say whether a read would find data without
// waiting.
type readier interface{ Ready() bool }

// CanPoll says whether Ready can tell when a packet is waiting, so the
// session may read at its tick instead of waiting on the socket.
func (c *Conn) CanPoll() bool {
	_, ok := c.sock.(readier)
	return ok
}

// Ready says whether ReadPacket would find something without waiting for
// the server: bytes already read, data in the socket, or its end. Only the
// read loop calls it. Without CanPoll it is always true.
func (c *Conn) Ready() bool {
	if c.fr.br.Buffered() > 0 {
		return true
	}
	r, ok := c.sock.(readier)
	return !ok || r.Ready()
}

// Table is the connection's packet table.
func (c *Conn) Table() *mcdata.Table { return c.table }

// State is the state packets are read in. It changes only through
// SwitchAfter.
func (c *Conn) State() mcdata.State { return mcdata.State(c.readState.Load()) }

// ReadPacket reads the next packet. Only the read loop calls it.
func (c *Conn) ReadPacket() (Packet, error) {
	if c.opts.ReadTimeout > 0 {
		_ = c.sock.SetReadDeadline(time.Now().Add(c.opts.ReadTimeout))
	}
	id, payload, cut, err := c.fr.next(int(c.readThreshold.Load()))
	if err != nil {
		return Packet{}, err
	}
	state := c.State()
	return Packet{Kind: c.table.Lookup(state, mcdata.Clientbound, id), ID: id, State: state, Payload: payload, Cut: cut}, nil
}

// CutAt makes the connection inflate clientbound packet p only as far as
// cut asks: for a packet whose readers read only its beginning (the bot
// reads a chunk's terrain, not its light data, most of the packet's
// bytes), so the rest of it costs neither inflating nor its checksum.
// Packets sent uncompressed arrive whole. A packet the version does not
// have is ignored. Only before the read loop starts: it reads the cuts
// unlocked.
func (c *Conn) CutAt(p mcdata.Packet, cut Cut) {
	if _, ok := c.table.ID(p); !ok || p.Dir() != mcdata.Clientbound {
		return
	}
	if c.cuts == nil {
		c.cuts = map[mcdata.Packet]Cut{}
		c.fr.cutFor = func(id int32) Cut {
			return c.cuts[c.table.Lookup(c.State(), mcdata.Clientbound, id)]
		}
	}
	c.cuts[p] = cut
}

// SetCompression turns compression on for packets of at least threshold
// bytes in both directions (negative turns it off). The read loop calls it
// when the server says so; the server compresses from its next packet on,
// and so do we.
func (c *Conn) SetCompression(threshold int) {
	c.wmu.Lock()
	c.threshold = threshold
	c.readThreshold.Store(int32(threshold))
	c.wmu.Unlock()
}

// ErrNotInVersion means the packet does not exist in the connected version.
var ErrNotInVersion = errors.New("this game version has no such packet")

// StateError is a packet sent in a state it does not belong to.
type StateError struct {
	Packet mcdata.Packet
	State  mcdata.State
}

func (e *StateError) Error() string {
	return fmt.Sprintf("cannot send %v while the connection is in the %v state", e.Packet, e.State)
}

// Write sends one packet. It is safe from any goroutine.
func (c *Conn) Write(p mcdata.Packet, payload []byte) error {
	return c.WriteBatch(Outgoing{p, payload})
}

// WriteBatch sends packets in order under one hold of the write lock and
// in one write to the socket, so no other goroutine's packet comes between
// them. Nothing is sent when any of them cannot be (wrong state, not in
// this version, too large).
func (c *Conn) WriteBatch(packets ...Outgoing) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.out = c.out[:0]
	for _, p := range packets {
		if err := c.appendFrame(p); err != nil {
			return err
		}
	}
	return c.flush()
}

// SwitchAfter sends p and moves the connection to state next in the same
// hold of the write lock: the write side at once, so no other packet goes
// out between the acknowledgement and the switch; the read side too, which
// is right because the read loop (where the handler calling this runs) has
// read the packet that asked for the switch and reads the next one in the
// new state.
func (c *Conn) SwitchAfter(p mcdata.Packet, payload []byte, next mcdata.State) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.out = c.out[:0]
	if err := c.appendFrame(Outgoing{p, payload}); err != nil {
		return err
	}
	if err := c.flush(); err != nil {
		return err
	}
	c.writeState = next
	c.readState.Store(uint32(next))
	return nil
}

// appendFrame encodes one packet as a frame onto c.out. Caller holds wmu.
func (c *Conn) appendFrame(p Outgoing) error {
	if p.Packet.Dir() != mcdata.Serverbound {
		return fmt.Errorf("%v is not a packet the client sends", p.Packet)
	}
	id, ok := c.table.ID(p.Packet)
	if !ok {
		return fmt.Errorf("%w: %v", ErrNotInVersion, p.Packet)
	}
	if p.Packet.State() != c.writeState {
		return &StateError{p.Packet, c.writeState}
	}
	size := varIntLen(id) + len(p.Payload)
	if size > MaxUncompressed {
		return fmt.Errorf("%v is %d bytes, over the protocol's %d-byte limit", p.Packet, size, MaxUncompressed)
	}
	tooLarge := func(frame int) error {
		return fmt.Errorf("%v does not fit in one frame (%d bytes, the protocol allows %d)", p.Packet, frame, MaxFrame)
	}
	switch {
	case c.threshold < 0:
		if size > MaxFrame {
			return tooLarge(size)
		}
		c.out = appendVarInt(c.out, int32(size))
		c.out = appendVarInt(c.out, id)
		c.out = append(c.out, p.Payload...)
	case size < c.threshold:
		if size+1 > MaxFrame {
			return tooLarge(size + 1)
		}
		c.out = appendVarInt(c.out, int32(size+1))
		c.out = append(c.out, 0) // data length 0: sent uncompressed
		c.out = appendVarInt(c.out, id)
		c.out = append(c.out, p.Payload...)
	default:
		c.body.Reset()
		if c.zw == nil {
			c.zw = zlib.NewWriter(&c.body)
		} else {
			c.zw.Reset(&c.body)
		}
		var idBuf [5]byte
		_, _ = c.zw.Write(appendVarInt(idBuf[:0], id))
		_, _ = c.zw.Write(p.Payload)
		if err := c.zw.Close(); err != nil {
			return err
		}
		frame := varIntLen(int32(size)) + c.body.Len()
		if frame > MaxFrame {
			return tooLarge(frame)
		}
		c.out = appendVarInt(c.out, int32(frame))
		c.out = appendVarInt(c.out, int32(size))
		c.out = append(c.out, c.body.Bytes()...)
	}
	return nil
}

// flush writes c.out to the socket. Caller holds wmu.
func (c *Conn) flush() error {
	if len(c.out) == 0 {
		return nil
	}
	_ = c.sock.SetWriteDeadline(time.Now().Add(c.opts.WriteTimeout))
	_, err := c.sock.Write(c.out)
	if cap(c.out) > keepBuffer {
		c.out = nil
	}
	return err
}

// Close closes the socket; a read or write waiting on it ends.
func (c *Conn) Close() error { return c.sock.Close() }
