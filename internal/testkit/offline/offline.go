// Package offline runs a session in play without a server, for the feature
// packages' tests: packets are fed to the handlers with Route, the order
// the read loop would run them in, and what the bot writes is recorded by
// kind. The session's clock is a manual one, so the tick runs only when a
// test calls Clock.Tick.
package offline

import (
	"bufio"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	pk "github.com/Tnze/go-mc/net/packet"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// Session is a session in play fed by Route.
type Session struct {
	T     testing.TB
	S     *core.Session
	Proto int32
	Clock *core.ManualClock
	Rec   *fakeserver.Recorder

	mu      sync.Mutex
	sent    []Sent
	changed chan struct{}
}

// Sent is one packet the bot wrote.
type Sent struct {
	Packet mcdata.Packet
	Body   []byte
}

// New makes a session of proto in the play state; attach registers the
// features under test on it before it is used. It leaves when the test
// ends.
func New(t testing.TB, proto int32, attach func(s *core.Session)) *Session {
	t.Helper()
	a, b := net.Pipe()
	o := &Session{T: t, Proto: proto, Clock: core.NewManualClock(time.Unix(1_700_000_000, 0)), Rec: fakeserver.NewRecorder(t), changed: make(chan struct{})}
	table := mcdata.For(proto)
	state := mcdata.StateHandshake
	go func() {
		br := bufio.NewReader(b)
		for {
			var p pk.Packet
			if p.UnPack(br, -1) != nil {
				_, _ = io.Copy(io.Discard, br)
				return
			}
			kind := table.Lookup(state, mcdata.Serverbound, p.ID)
			state = mcdata.StatePlay // the handshake below is the only other one
			o.mu.Lock()
			o.sent = append(o.sent, Sent{kind, append([]byte(nil), p.Data...)})
			close(o.changed)
			o.changed = make(chan struct{})
			o.mu.Unlock()
		}
	}()
	o.S = core.New(a, codec.For(proto), core.Options{Emit: o.Rec.Emit, Username: "Theo", Clock: o.Clock})
	attach(o.S)
	// The session's writer must be in play for the features' sends: a
	// handshake switches it.
	if err := o.S.SwitchAfter(mcdata.ServerboundHandshakeSetProtocol, nil, mcdata.StatePlay); err != nil {
		t.Fatal(err)
	}
	o.WaitSent(1)
	o.mu.Lock()
	o.sent = nil
	o.mu.Unlock()
	t.Cleanup(o.S.Leave)
	return o
}

// Route feeds one packet, built by build, to its handlers and fails the
// test on a handler's error.
func (o *Session) Route(p mcdata.Packet, build func(w *wire.Writer)) {
	o.T.Helper()
	if err := o.RouteErr(p, build); err != nil {
		o.T.Fatalf("%v: %v", p, err)
	}
}

// RouteErr feeds one packet and returns the handlers' error.
func (o *Session) RouteErr(p mcdata.Packet, build func(w *wire.Writer)) error {
	var w wire.Writer
	if build != nil {
		build(&w)
	}
	return o.S.Route(p, w.Bytes())
}

// RouteBytes feeds one packet body.
func (o *Session) RouteBytes(p mcdata.Packet, body []byte) {
	o.T.Helper()
	o.Route(p, func(w *wire.Writer) { w.Raw(body) })
}

// Registry feeds a registry_data packet in configuration: entries by name,
// each with its NBT data written by data (nil: sent without data).
func (o *Session) Registry(id string, names []string, data func(w *wire.Writer, i int)) {
	o.T.Helper()
	var w wire.Writer
	w.String(id)
	w.VarInt(int32(len(names)))
	for i, n := range names {
		w.String(n)
		w.Bool(data != nil)
		if data != nil {
			data(&w, i)
		}
	}
	if err := o.S.Route(mcdata.ClientboundConfigRegistryData, w.Bytes()); err != nil {
		o.T.Fatal(err)
	}
}

// Configure feeds the registries fakeserver.Server.Configure sends (the
// dimension types and biomes).
func (o *Session) Configure() {
	o.T.Helper()
	dims := make([]string, len(fakeserver.DimensionTypes))
	for i, d := range fakeserver.DimensionTypes {
		dims[i] = d.Name
	}
	o.Registry("minecraft:dimension_type", dims, func(w *wire.Writer, i int) {
		d := fakeserver.DimensionTypes[i]
		fakeserver.NBTInts(w, map[string]int32{"min_y": d.MinY, "height": d.Height})
	})
	o.Registry("minecraft:worldgen/biome", fakeserver.Biomes, nil)
}

// Join feeds a play login (entity id 42) and a position sync, which marks
// the spawn.
func (o *Session) Join(x, y, z float64, viewDistance int32) {
	o.T.Helper()
	o.RouteBytes(mcdata.ClientboundPlayLogin, fakeserver.LoginBody(o.Proto, 42, viewDistance))
	o.RouteBytes(mcdata.ClientboundPlayPosition, fakeserver.PositionBody(o.Proto, 1, x, y, z, 0))
}

// Sent returns what the bot has written so far.
func (o *Session) Sent() []Sent {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]Sent(nil), o.sent...)
}

// WaitSent waits until the bot has written n packets (the pipe delivers
// them after Route returns) and returns them.
func (o *Session) WaitSent(n int) []Sent {
	o.T.Helper()
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	for {
		o.mu.Lock()
		if len(o.sent) >= n {
			out := append([]Sent(nil), o.sent...)
			o.mu.Unlock()
			return out
		}
		ch := o.changed
		o.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			o.T.Fatalf("the bot wrote %d packets, want %d", len(o.Sent()), n)
		}
	}
}

// WaitFor waits until the bot has written n packets of kind p and returns
// their bodies, oldest first.
func (o *Session) WaitFor(p mcdata.Packet, n int) [][]byte {
	o.T.Helper()
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	for {
		o.mu.Lock()
		var bodies [][]byte
		for _, s := range o.sent {
			if s.Packet == p {
				bodies = append(bodies, s.Body)
			}
		}
		ch := o.changed
		o.mu.Unlock()
		if len(bodies) >= n {
			return bodies
		}
		select {
		case <-ch:
		case <-deadline.C:
			o.T.Fatalf("the bot wrote %d %v, want %d", len(bodies), p, n)
		}
	}
}
