package bot

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	pk "github.com/Tnze/go-mc/net/packet"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/protocol"
)

// fakeServer is a scripted Java Edition server on loopback for tests of
// what real peers cannot be made to send (vanilla chat types, death
// messages, kicks, encryption requests). It encodes packets from the
// protocol documentation, independently of the bot's decoders.
type fakeServer struct {
	t     *testing.T
	proto int32
	tab   *mcdata.Table
	c     net.Conn
	br    *bufio.Reader
	state mcdata.State
	thr   int
}

// startFake listens on a free loopback port and runs script on the first
// connection. It returns the port.
func startFake(t *testing.T, proto int32, script func(f *fakeServer)) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		f := &fakeServer{t: t, proto: proto, tab: mcdata.For(proto), c: c, br: bufio.NewReader(c), thr: -1}
		_ = c.SetDeadline(time.Now().Add(20 * time.Second))
		script(f)
	}()
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	return ln.Addr().(*net.TCPAddr).Port
}

// next reads the client's next packet, following state changes.
func (f *fakeServer) next() (mcdata.Packet, *wire.Reader) {
	var p pk.Packet
	if err := p.UnPack(f.br, f.thr); err != nil {
		return mcdata.PacketNone, nil
	}
	var kind mcdata.Packet
	if f.state == mcdata.StateHandshake {
		kind = mcdata.ServerboundHandshakeSetProtocol
	} else {
		kind = f.tab.Lookup(f.state, mcdata.Serverbound, p.ID)
	}
	switch kind {
	case mcdata.ServerboundHandshakeSetProtocol:
		f.state = mcdata.StateLogin
	case mcdata.ServerboundLoginLoginAcknowledged, mcdata.ServerboundPlayConfigurationAcknowledged:
		f.state = mcdata.StateConfig
	case mcdata.ServerboundConfigFinishConfiguration:
		f.state = mcdata.StatePlay
	}
	return kind, wire.NewReader(p.Data)
}

// expect skips packets until want arrives and returns its payload; it
// fails the test when the connection ends first.
func (f *fakeServer) expect(want mcdata.Packet) *wire.Reader {
	for {
		p, r := f.next()
		if r == nil {
			f.t.Errorf("fake server: connection ended while waiting for %v", want)
			return wire.NewReader(nil)
		}
		if p == want {
			return r
		}
	}
}

func (f *fakeServer) send(p mcdata.Packet, build func(w *wire.Writer)) {
	id, ok := f.tab.ID(p)
	if !ok {
		f.t.Fatalf("fake server: %v does not exist in %d", p, f.proto)
	}
	var w wire.Writer
	if build != nil {
		build(&w)
	}
	pkt := pk.Packet{ID: id, Data: w.Bytes()}
	_ = pkt.Pack(f.c, f.thr)
}

// nbtString writes a network NBT string tag, the simplest text component.
func nbtString(w *wire.Writer, s string) {
	w.Byte(8)
	w.Uint16(uint16(len(s)))
	w.Raw([]byte(s))
}

// nbtTranslate writes {"translate": key, "with": [args as strings]}.
func nbtTranslate(w *wire.Writer, key string, args ...string) {
	w.Byte(10)
	w.Byte(8)
	w.Uint16(9)
	w.Raw([]byte("translate"))
	w.Uint16(uint16(len(key)))
	w.Raw([]byte(key))
	w.Byte(9)
	w.Uint16(4)
	w.Raw([]byte("with"))
	w.Byte(8)
	w.Int32(int32(len(args)))
	for _, a := range args {
		w.Uint16(uint16(len(a)))
		w.Raw([]byte(a))
	}
	w.Byte(0)
}

// login runs the login state: compression at threshold (unless negative)
// and success.
func (f *fakeServer) login(threshold int) {
	f.expect(mcdata.ServerboundLoginLoginStart)
	if threshold >= 0 {
		f.send(mcdata.ClientboundLoginCompress, func(w *wire.Writer) { w.VarInt(int32(threshold)) })
		f.thr = threshold
	}
	f.send(mcdata.ClientboundLoginSuccess, func(w *wire.Writer) {
		w.UUID([16]byte{1})
		w.String("Theo")
		w.VarInt(0)
		if f.proto == 767 {
			w.Bool(true) // strict error handling
		}
	})
	f.expect(mcdata.ServerboundLoginLoginAcknowledged)
}

// configure sends known packs, the chat type registry (chat, then incoming
// whisper, entries sent without data as for a client that knows them) and
// finishes.
func (f *fakeServer) configure() {
	f.expect(mcdata.ServerboundConfigSettings)
	f.send(mcdata.ClientboundConfigSelectKnownPacks, func(w *wire.Writer) {
		w.VarInt(1)
		w.String("minecraft")
		w.String("core")
		w.String("1.21")
	})
	f.expect(mcdata.ServerboundConfigSelectKnownPacks)
	f.send(mcdata.ClientboundConfigRegistryData, func(w *wire.Writer) {
		w.String("minecraft:chat_type")
		w.VarInt(3)
		w.String("minecraft:chat")
		w.Bool(false)
		w.String("minecraft:msg_command_incoming")
		w.Bool(false)
		w.String("minecraft:msg_command_outgoing")
		w.Bool(false)
	})
	f.send(mcdata.ClientboundConfigRegistryData, func(w *wire.Writer) {
		w.String("minecraft:damage_type")
		w.VarInt(2)
		w.String("minecraft:fall")
		w.Bool(false)
		w.String("minecraft:mob_attack")
		w.Bool(false)
	})
	f.send(mcdata.ClientboundConfigFinishConfiguration, nil)
	f.expect(mcdata.ServerboundConfigFinishConfiguration)
}

func (f *fakeServer) spawnInfo(w *wire.Writer) {
	w.VarInt(0)
	w.String("minecraft:overworld")
	w.Int64(0)
	w.Int8(0) // survival
	w.Byte(255)
	w.Bool(false)
	w.Bool(true)
	w.Bool(false) // no death location
	w.VarInt(0)
	if f.proto >= 768 {
		w.VarInt(63)
	}
}

// play sends the login packet and a position sync, and checks the bot's
// answers to it.
func (f *fakeServer) play(entityID int32, x, y, z float64) {
	f.send(mcdata.ClientboundPlayLogin, func(w *wire.Writer) {
		w.Int32(entityID)
		w.Bool(false)
		w.VarInt(1)
		w.String("minecraft:overworld")
		w.VarInt(20)
		w.VarInt(4)
		w.VarInt(4)
		w.Bool(false)
		w.Bool(true)
		w.Bool(false)
		f.spawnInfo(w)
		w.Bool(false)
	})
	f.position(7, x, y, z, 0)
	if got := f.expect(mcdata.ServerboundPlayTeleportConfirm).VarInt(); got != 7 {
		f.t.Errorf("teleport confirm id %d, want 7", got)
	}
	f.expect(mcdata.ServerboundPlayPositionLook)
	if f.proto >= 769 {
		f.expect(mcdata.ServerboundPlayPlayerLoaded)
	}
}

// position sends a position sync in the version's layout.
func (f *fakeServer) position(id int32, x, y, z float64, relative uint32) {
	f.send(mcdata.ClientboundPlayPosition, func(w *wire.Writer) {
		if f.proto >= 768 {
			w.VarInt(id)
			w.Float64(x)
			w.Float64(y)
			w.Float64(z)
			w.Float64(0)
			w.Float64(0)
			w.Float64(0)
			w.Float32(90)
			w.Float32(0)
			w.Int32(int32(relative))
		} else {
			w.Float64(x)
			w.Float64(y)
			w.Float64(z)
			w.Float32(90)
			w.Float32(0)
			w.Byte(byte(relative))
			w.VarInt(id)
		}
	})
}

// recorder collects emitted events.
type recorder struct {
	mu     sync.Mutex
	events []recorded
	ch     chan struct{}
	// undocumented lists payloads that do not match their catalog entry.
	undocumented []string
}

type recorded struct {
	name    string
	payload any
}

func newRecorder() *recorder { return &recorder{ch: make(chan struct{}, 1000)} }

func (r *recorder) emit(name, _ string, payload any) {
	raw, _ := protocol.Marshal(payload)
	err := protocol.CheckEventPayload(name, raw)
	r.mu.Lock()
	if err != nil {
		r.undocumented = append(r.undocumented, err.Error()+": "+string(raw))
	}
	r.events = append(r.events, recorded{name, payload})
	r.mu.Unlock()
	r.ch <- struct{}{}
}

// wait returns the first event called name, waiting up to 5 s.
func (r *recorder) wait(t *testing.T, name string) any {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		r.mu.Lock()
		for _, e := range r.events {
			if e.name == name {
				r.mu.Unlock()
				return e.payload
			}
		}
		r.mu.Unlock()
		select {
		case <-r.ch:
		case <-deadline:
			t.Fatalf("no %s event; saw %+v", name, r.names())
			return nil
		}
	}
}

func (r *recorder) count(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.events {
		if e.name == name {
			n++
		}
	}
	return n
}

func (r *recorder) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		out = append(out, e.name)
	}
	return out
}

func testLog() *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

func dialFake(t *testing.T, port int, proto int32, rec *recorder, opts Options) (*session, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	t.Cleanup(func() {
		// Every payload the bot emitted, up to its leaving (cleanups run
		// last first), matches the catalog entry that documents it.
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, u := range rec.undocumented {
			t.Errorf("undocumented event payload: %s", u)
		}
	})
	s, err := dial(ctx, testLog(), "127.0.0.1", port, "Theo", proto, "test", rec.emit, opts)
	if err == nil {
		t.Cleanup(func() { s.leave() })
	}
	return s, err
}

// discardConn is a net.Conn whose writes vanish, for handler fuzzing.
func discardConn() net.Conn {
	a, b := net.Pipe()
	go func() { _, _ = io.Copy(io.Discard, b) }()
	return a
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
