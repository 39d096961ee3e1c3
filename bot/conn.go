package bot

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	mcnet "github.com/Tnze/go-mc/net"
	pk "github.com/Tnze/go-mc/net/packet"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// maxFrame is the longest frame the protocol allows: its length prefix is
// at most three VarInt bytes.
const maxFrame = 1<<21 - 1

// conn is one connection to a server: go-mc's framing, compression and
// cipher underneath, the generated packet table on top. Reads happen on one
// goroutine (the read loop); writes may come from any goroutine and are
// serialised.
type conn struct {
	nc    net.Conn
	mc    *mcnet.Conn
	br    *bufio.Reader
	table *mcdata.Table

	// wmu serialises writes. state and threshold change only on the read
	// loop, under wmu so that no write goes out half in the old state;
	// the read loop reads its own copies without waiting behind a write.
	wmu       sync.Mutex
	state     mcdata.State
	threshold int
	readThr   atomic.Int32
	readState atomic.Uint32

	frame   []byte
	packet  pk.Packet
	lenBuf  [5]byte
	timeout time.Duration
}

func newConn(nc net.Conn, table *mcdata.Table) *conn {
	c := &conn{nc: nc, mc: mcnet.WrapConn(nc), br: bufio.NewReaderSize(nc, 32<<10), table: table, threshold: -1, timeout: 30 * time.Second}
	c.readThr.Store(-1)
	return c
}

// setState moves the connection to another state; packet ids are looked up
// in that state from then on.
func (c *conn) setState(s mcdata.State) {
	c.wmu.Lock()
	c.state = s
	c.readState.Store(uint32(s))
	c.wmu.Unlock()
}

func (c *conn) getState() mcdata.State { return mcdata.State(c.readState.Load()) }

func (c *conn) setThreshold(t int) {
	c.wmu.Lock()
	c.threshold = t
	c.readThr.Store(int32(t))
	c.mc.SetThreshold(t)
	c.wmu.Unlock()
}

// errFrame marks a frame that breaks the protocol's limits.
var errFrame = errors.New("the server sent a malformed packet frame")

// read returns the next packet: its kind in the current state (PacketNone
// for ids this version does not define) and a reader over its payload. The
// payload is valid until the next read. A frame longer than the protocol
// allows is refused before anything is allocated for it.
func (c *conn) read(state mcdata.State) (mcdata.Packet, int32, *wire.Reader, error) {
	if c.timeout > 0 {
		_ = c.nc.SetReadDeadline(time.Now().Add(c.timeout))
	}
	n, length := 0, uint32(0)
	for {
		b, err := c.br.ReadByte()
		if err != nil {
			return 0, 0, nil, err
		}
		c.lenBuf[n] = b
		length |= uint32(b&0x7f) << (7 * n)
		n++
		if b&0x80 == 0 {
			break
		}
		if n == 3 {
			return 0, 0, nil, fmt.Errorf("%w: length prefix longer than 3 bytes", errFrame)
		}
	}
	if length == 0 || length > maxFrame {
		return 0, 0, nil, fmt.Errorf("%w: length %d", errFrame, length)
	}
	if cap(c.frame) < n+int(length) {
		c.frame = make([]byte, n+int(length))
	}
	c.frame = c.frame[:n+int(length)]
	copy(c.frame, c.lenBuf[:n])
	if _, err := io.ReadFull(c.br, c.frame[n:]); err != nil {
		return 0, 0, nil, err
	}
	if err := c.packet.UnPack(bytes.NewReader(c.frame), int(c.readThr.Load())); err != nil {
		return 0, 0, nil, fmt.Errorf("%w: %v", errFrame, err)
	}
	p := c.table.Lookup(state, mcdata.Clientbound, c.packet.ID)
	return p, c.packet.ID, wire.NewReader(c.packet.Data), nil
}

// errNotInVersion means the packet does not exist in the connected version.
var errNotInVersion = errors.New("this game version has no such packet")

// write sends one packet. It is safe from any goroutine.
func (c *conn) write(p mcdata.Packet, w *wire.Writer) error {
	id, ok := c.table.ID(p)
	if !ok {
		return fmt.Errorf("%w: %v", errNotInVersion, p)
	}
	var data []byte
	if w != nil {
		data = w.Bytes()
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if p.State() != c.state {
		return fmt.Errorf("cannot send %v while the connection is in %v", p, c.state)
	}
	_ = c.nc.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return c.mc.WritePacket(pk.Packet{ID: id, Data: data})
}

func (c *conn) close() error { return c.nc.Close() }
