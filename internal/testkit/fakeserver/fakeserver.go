// Package fakeserver is a scripted Java Edition server on loopback for the
// bot's tests of what real peers cannot be made to send (vanilla chat
// types, death messages, kicks, encryption requests). It encodes packets by
// hand from the protocol documentation, and frames them with go-mc, so it
// is independent of the bot's own codec and transport.
package fakeserver

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	pk "github.com/Tnze/go-mc/net/packet"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
	"github.com/blockmate/blockmate/protocol"
)

// Server is one scripted connection.
type Server struct {
	T     testing.TB
	Proto int32
	Table *mcdata.Table
	Conn  net.Conn
	br    *bufio.Reader
	State mcdata.State
	thr   int
	// CodeOfConduct, when set on 1.21.9 or later, is sent in Configure,
	// which then waits for the bot's accept as a vanilla server does.
	CodeOfConduct string
	// chats counts the player chat sent, for 1.21.5's global index.
	chats int32
}

// Start listens on a free loopback port and runs script on the first
// connection. It returns the port. The listener closes, and the script is
// waited for, when the test ends.
func Start(t testing.TB, proto int32, script func(f *Server)) int {
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
		f := &Server{T: t, Proto: proto, Table: mcdata.For(proto), Conn: c, br: bufio.NewReader(c), thr: -1}
		_ = c.SetDeadline(time.Now().Add(20 * time.Second))
		script(f)
	}()
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	return ln.Addr().(*net.TCPAddr).Port
}

// StartWorld is Start for a server that a whole mc_join reaches: it
// answers every status ping (the version of proto, as a world reports it)
// and runs script on the first login connection, skipping its handshake.
func StartWorld(t testing.TB, proto int32, script func(f *Server)) int {
	t.Helper()
	var once sync.Once
	return StartWorlds(t, proto, func(_ int, f *Server) { once.Do(func() { script(f) }) })
}

// StartWorlds is StartWorld for a server that the bot joins more than once
// (a reconnect): script runs on every login connection, n counting them
// from 1.
func StartWorlds(t testing.TB, proto int32, script func(n int, f *Server)) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return Serve(t, ln, proto, script)
}

// Serve is StartWorlds on a listener the test opened (a port it chose, to
// bring a world back on the same port after closing it). The listener
// closes, and the scripts are waited for, when the test ends.
func Serve(t testing.TB, ln net.Listener, proto int32, script func(n int, f *Server)) int {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	logins := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				f := &Server{T: t, Proto: proto, Table: mcdata.For(proto), Conn: c, br: bufio.NewReader(c), thr: -1}
				_ = c.SetDeadline(time.Now().Add(20 * time.Second))
				_, r := f.Next()
				if r == nil {
					return
				}
				_, _, _ = r.VarInt(), r.String(255), r.Uint16()
				if r.VarInt() == 1 {
					f.answerStatus()
					return
				}
				mu.Lock()
				logins++
				n := logins
				mu.Unlock()
				script(n, f)
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	return ln.Addr().(*net.TCPAddr).Port
}

// answerStatus answers a status request and a ping with the version of
// the server's protocol.
func (f *Server) answerStatus() {
	f.State = mcdata.StateStatus
	if _, r := f.Next(); r == nil {
		return
	}
	name := f.Table.Name()
	var w wire.Writer
	w.String(`{"version":{"name":"` + name + `","protocol":` + itoa(int(f.Proto)) + `},"players":{"max":8,"online":1},"description":"fake"}`)
	f.SendRaw(0, w.Bytes())
	if _, r := f.Next(); r != nil {
		f.SendRaw(1, r.Rest())
	}
}

// Next reads the client's next packet, following its state changes; it
// returns a nil reader when the connection ends.
func (f *Server) Next() (mcdata.Packet, *wire.Reader) {
	var p pk.Packet
	if err := p.UnPack(f.br, f.thr); err != nil {
		return mcdata.PacketNone, nil
	}
	var kind mcdata.Packet
	if f.State == mcdata.StateHandshake {
		kind = mcdata.ServerboundHandshakeSetProtocol
	} else {
		kind = f.Table.Lookup(f.State, mcdata.Serverbound, p.ID)
	}
	switch kind {
	case mcdata.ServerboundHandshakeSetProtocol:
		f.State = mcdata.StateLogin
	case mcdata.ServerboundLoginLoginAcknowledged, mcdata.ServerboundPlayConfigurationAcknowledged:
		f.State = mcdata.StateConfig
	case mcdata.ServerboundConfigFinishConfiguration:
		f.State = mcdata.StatePlay
	}
	return kind, wire.NewReader(p.Data)
}

// Expect skips packets until want arrives and returns its payload; it
// fails the test when the connection ends first.
func (f *Server) Expect(want mcdata.Packet) *wire.Reader {
	for {
		p, r := f.Next()
		if r == nil {
			f.T.Errorf("fake server: connection ended while waiting for %v", want)
			return wire.NewReader(nil)
		}
		if p == want {
			return r
		}
	}
}

// Send writes one packet in the connection's compression.
func (f *Server) Send(p mcdata.Packet, build func(w *wire.Writer)) {
	id, ok := f.Table.ID(p)
	if !ok {
		f.T.Fatalf("fake server: %v does not exist in %d", p, f.Proto)
	}
	var w wire.Writer
	if build != nil {
		build(&w)
	}
	pkt := pk.Packet{ID: id, Data: w.Bytes()}
	_ = pkt.Pack(f.Conn, f.thr)
}

// SendRaw writes an uncompressed frame with any id.
func (f *Server) SendRaw(id int32, data []byte) {
	var w wire.Writer
	w.VarInt(id)
	w.Raw(data)
	var frame wire.Writer
	frame.ByteArray(w.Bytes())
	_, _ = f.Conn.Write(frame.Bytes())
}

// NBTString writes a network NBT string tag, the simplest text component.
func NBTString(w *wire.Writer, s string) {
	w.Byte(8)
	w.Uint16(uint16(len(s)))
	w.Raw([]byte(s))
}

// NBTTranslate writes {"translate": key, "with": [args as strings]}.
func NBTTranslate(w *wire.Writer, key string, args ...string) {
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

// Login runs the login state: compression at threshold (unless negative)
// and success.
func (f *Server) Login(threshold int) {
	f.Expect(mcdata.ServerboundLoginLoginStart)
	if threshold >= 0 {
		f.Send(mcdata.ClientboundLoginCompress, func(w *wire.Writer) { w.VarInt(int32(threshold)) })
		f.thr = threshold
	}
	f.Send(mcdata.ClientboundLoginSuccess, func(w *wire.Writer) {
		w.UUID([16]byte{1})
		w.String("Theo")
		w.VarInt(0)
		if f.Proto == 767 {
			w.Bool(true) // strict error handling
		}
		if f.Proto >= 776 {
			w.UUID([16]byte{2}) // the session id (26.2)
		}
	})
	f.Expect(mcdata.ServerboundLoginLoginAcknowledged)
}

// Configure sends known packs, the chat type registry (chat, then incoming
// and outgoing whispers, entries sent without data as for a client that
// knows them), the damage types, and finishes.
func (f *Server) Configure() {
	f.Expect(mcdata.ServerboundConfigSettings)
	f.Send(mcdata.ClientboundConfigSelectKnownPacks, func(w *wire.Writer) {
		w.VarInt(1)
		w.String("minecraft")
		w.String("core")
		w.String("1.21")
	})
	f.Expect(mcdata.ServerboundConfigSelectKnownPacks)
	f.Send(mcdata.ClientboundConfigRegistryData, func(w *wire.Writer) {
		w.String("minecraft:chat_type")
		w.VarInt(3)
		w.String("minecraft:chat")
		w.Bool(false)
		w.String("minecraft:msg_command_incoming")
		w.Bool(false)
		w.String("minecraft:msg_command_outgoing")
		w.Bool(false)
	})
	f.Send(mcdata.ClientboundConfigRegistryData, func(w *wire.Writer) {
		w.String("minecraft:damage_type")
		w.VarInt(2)
		w.String("minecraft:fall")
		w.Bool(false)
		w.String("minecraft:mob_attack")
		w.Bool(false)
	})
	f.Send(mcdata.ClientboundConfigRegistryData, func(w *wire.Writer) {
		w.String("minecraft:dimension_type")
		w.VarInt(int32(len(DimensionTypes)))
		for _, d := range DimensionTypes {
			w.String(d.Name)
			w.Bool(true)
			data := map[string]any{"min_y": d.MinY, "height": d.Height, "logical_height": d.Height}
			// 26.1 keeps time by world clocks: the overworld's dimension
			// type names its default clock, the second of the world_clock
			// registry; the nether has none.
			if f.Proto >= 775 && d.Name == "minecraft:overworld" {
				data["default_clock"] = "minecraft:overworld"
			}
			_ = w.NBT(data)
		}
	})
	if f.Proto >= 775 {
		f.Send(mcdata.ClientboundConfigRegistryData, func(w *wire.Writer) {
			w.String("minecraft:world_clock")
			w.VarInt(2)
			w.String("minecraft:the_end")
			w.Bool(false)
			w.String("minecraft:overworld")
			w.Bool(false)
		})
	}
	f.Send(mcdata.ClientboundConfigRegistryData, func(w *wire.Writer) {
		w.String("minecraft:worldgen/biome")
		w.VarInt(int32(len(Biomes)))
		for _, b := range Biomes {
			w.String(b)
			w.Bool(false)
		}
	})
	if _, ok := f.Table.ID(mcdata.ClientboundConfigCodeOfConduct); ok && f.CodeOfConduct != "" {
		f.Send(mcdata.ClientboundConfigCodeOfConduct, func(w *wire.Writer) { w.String(f.CodeOfConduct) })
		if p, r := f.Next(); r == nil || p != mcdata.ServerboundConfigAcceptCodeOfConduct {
			f.T.Errorf("fake server: the bot answered the code of conduct with %v", p)
		}
	}
	f.Send(mcdata.ClientboundConfigFinishConfiguration, nil)
	f.Expect(mcdata.ServerboundConfigFinishConfiguration)
}

// overworldClock is the overworld clock's index in the world_clock
// registry Configure sends.
const overworldClock = 1

// Time sends the time in the version's layout: from 26.1 the overworld's
// clock holds the time of day.
func (f *Server) Time(age, timeOfDay int64) {
	f.Send(mcdata.ClientboundPlayUpdateTime, func(w *wire.Writer) {
		w.Int64(age)
		switch {
		case f.Proto >= 775:
			w.VarInt(1)
			w.VarInt(overworldClock)
			w.VarLong(timeOfDay)
			w.Float32(0)
			w.Float32(1)
		case f.Proto >= 768:
			w.Int64(timeOfDay)
			w.Bool(true)
		default:
			w.Int64(timeOfDay)
		}
	})
}

// PlayerChatStart writes what starts a player chat packet before the
// sender: from 1.21.5 the message's global index, counted per connection.
func (f *Server) PlayerChatStart(w *wire.Writer) {
	if f.Proto >= 770 {
		w.VarInt(f.chats)
	}
	f.chats++
}

// DimensionTypes are the dimension types Configure sends, in registry
// order (the spawn info's dimension type 0 is the overworld).
var DimensionTypes = []struct {
	Name         string
	MinY, Height int32
}{{"minecraft:overworld", -64, 384}, {"minecraft:the_nether", 0, 256}}

// Biomes are the biomes Configure sends, in registry order (sent without
// data, as to a client that knows the vanilla pack).
var Biomes = []string{"minecraft:plains", "minecraft:desert", "minecraft:forest"}

// NBTInts writes a network NBT compound of int tags, in key order.
func NBTInts(w *wire.Writer, values map[string]int32) {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w.Byte(10)
	for _, k := range keys {
		w.Byte(3)
		w.Uint16(uint16(len(k)))
		w.Raw([]byte(k))
		w.Int32(values[k])
	}
	w.Byte(0)
}

// OverworldLayout is the layout of the overworld Configure describes, for
// proto's static data with the biomes Configure sends, in the chunk format
// of proto's codec (the one source of the per-version flags).
func OverworldLayout(proto int32) world.Layout {
	return world.Layout{Format: codec.For(proto).ChunkFormat, MinY: -64, Height: 384, NumStates: mcdata.Game(proto).NumStates(), NumBiomes: len(Biomes)}
}

// Column builds an overworld column whose blocks block gives (world
// coordinates) and whose biome is biome (an index in Biomes).
func Column(proto int32, x, z int32, biome int32, block func(x, y, z int) mcdata.StateID) *world.Chunk {
	l := OverworldLayout(proto)
	c := &world.Chunk{Pos: world.ChunkPos{X: x, Z: z}}
	for i := 0; i < l.Sections(); i++ {
		baseY := l.MinY + 16*i
		c.Sections = append(c.Sections, world.BuildSection(l, biome, func(lx, ly, lz int) mcdata.StateID {
			return block(int(x)<<4|lx, baseY+ly, int(z)<<4|lz)
		}))
	}
	return c
}

// SendChunk sends a column as a chunk data packet.
func (f *Server) SendChunk(c *world.Chunk) {
	f.Send(mcdata.ClientboundPlayMapChunk, func(w *wire.Writer) { w.Raw(world.AppendChunk(nil, c, OverworldLayout(f.Proto))) })
}

// SpawnInfo writes the spawn info of the play login and respawn: the
// overworld, survival.
func (f *Server) SpawnInfo(w *wire.Writer) { SpawnInfo(w, f.Proto, 0, "minecraft:overworld") }

// SpawnInfo writes a spawn info of proto's layout into a dimension (its
// index in DimensionTypes, and its name), in survival.
func SpawnInfo(w *wire.Writer, proto int32, dimType int32, dimension string) {
	w.VarInt(dimType)
	w.String(dimension)
	w.Int64(0)
	if proto >= 777 {
		w.VarInt(0) // survival (26.3: a VarInt)
		w.VarInt(0) // no previous game mode (26.3: 0 for none, else the mode plus one)
	} else {
		w.Int8(0) // survival
		w.Byte(255)
	}
	w.Bool(false)
	w.Bool(true)
	w.Bool(false) // no death location
	w.VarInt(0)
	if proto >= 768 {
		w.VarInt(63)
	}
}

// LoginBody is a play login for the bot's entity id in the overworld, with
// a view distance.
func LoginBody(proto int32, entityID int32, viewDistance int32) []byte {
	var w wire.Writer
	w.Int32(entityID)
	w.Bool(false)
	w.VarInt(1)
	w.String("minecraft:overworld")
	w.VarInt(20)
	w.VarInt(viewDistance)
	w.VarInt(viewDistance)
	w.Bool(false)
	w.Bool(true)
	w.Bool(false)
	SpawnInfo(&w, proto, 0, "minecraft:overworld")
	if proto >= 776 {
		w.Bool(false) // online mode (26.2)
	}
	w.Bool(false)
	return w.B
}

// RespawnBody is a respawn into a dimension (see SpawnInfo).
func RespawnBody(proto int32, dimType int32, dimension string) []byte {
	var w wire.Writer
	SpawnInfo(&w, proto, dimType, dimension)
	w.Byte(0)
	return w.B
}

// PositionBody is a position sync of proto's layout (yaw 90, pitch 0).
func PositionBody(proto int32, id int32, x, y, z float64, relative uint32) []byte {
	var w wire.Writer
	if proto >= 768 {
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
	return w.B
}

// Play sends the login packet and a position sync, and checks the bot's
// answers to it.
func (f *Server) Play(entityID int32, x, y, z float64) {
	f.Send(mcdata.ClientboundPlayLogin, func(w *wire.Writer) { w.Raw(LoginBody(f.Proto, entityID, 4)) })
	f.Position(7, x, y, z, 0)
	if got := f.Expect(mcdata.ServerboundPlayTeleportConfirm).VarInt(); got != 7 {
		f.T.Errorf("teleport confirm id %d, want 7", got)
	}
	f.Expect(mcdata.ServerboundPlayPositionLook)
	if f.Proto >= 769 {
		f.Expect(mcdata.ServerboundPlayPlayerLoaded)
	}
}

// Position sends a position sync in the version's layout.
func (f *Server) Position(id int32, x, y, z float64, relative uint32) {
	f.Send(mcdata.ClientboundPlayPosition, func(w *wire.Writer) { w.Raw(PositionBody(f.Proto, id, x, y, z, relative)) })
}

// SystemLine sends a system chat line.
func (f *Server) SystemLine(text string) {
	f.Send(mcdata.ClientboundPlaySystemChat, func(w *wire.Writer) {
		NBTString(w, text)
		w.Bool(false)
	})
}

// ListPlayers adds players to the list: name i gets UUID {100+i}.
func (f *Server) ListPlayers(names ...string) {
	f.Send(mcdata.ClientboundPlayPlayerInfo, func(w *wire.Writer) {
		w.Byte(0x01 | 0x04 | 0x08 | 0x10)
		w.VarInt(int32(len(names)))
		for i, name := range names {
			w.UUID([16]byte{byte(100 + i)})
			w.String(name)
			w.VarInt(0)
			w.VarInt(0)
			w.Bool(true)
			w.VarInt(5)
		}
	})
}

// SpawnBody is a spawn_entity of proto's layout for an entity standing
// still, facing south.
func SpawnBody(proto int32, id int32, uuid [16]byte, typ int32, x, y, z float64) []byte {
	var w wire.Writer
	w.VarInt(id)
	w.UUID(uuid)
	w.VarInt(typ)
	w.Float64(x)
	w.Float64(y)
	w.Float64(z)
	if proto >= 773 {
		w.Byte(0) // a zero velocity (LpVec3)
	}
	w.Raw([]byte{0, 0, 0}) // pitch, yaw, head yaw
	w.VarInt(0)
	if proto < 773 {
		w.Raw(make([]byte, 6)) // velocity: three shorts
	}
	return w.B
}

// Recorder collects emitted events, and checks each payload against the
// catalog entry that documents it (protocol.CheckEventPayload): a payload
// the catalog does not describe fails the test that recorded it.
type Recorder struct {
	mu     sync.Mutex
	events []Event
	ch     chan struct{}
	// undocumented lists payloads that do not match their catalog entry.
	undocumented []string
}

// Event is one recorded event.
type Event struct {
	Name    string
	SubKey  string
	Payload any
}

// NewRecorder returns an empty recorder. When t ends, it fails t for every
// recorded payload that does not match its catalog entry. Make the recorder
// before the session that emits into it: cleanups run last first, so the
// check then sees everything the session emitted up to its leaving.
func NewRecorder(t testing.TB) *Recorder {
	r := &Recorder{ch: make(chan struct{}, 1)}
	t.Cleanup(func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		for _, u := range r.undocumented {
			t.Errorf("undocumented event payload: %s", u)
		}
	})
	return r
}

// Emit records an event; it has the signature of an emitter. The payload is
// encoded as the sidecar would write it and checked against the catalog.
func (r *Recorder) Emit(name, subKey string, payload any) {
	raw, err := protocol.Marshal(payload)
	if err == nil {
		err = protocol.CheckEventPayload(name, raw)
	}
	r.mu.Lock()
	if err != nil {
		r.undocumented = append(r.undocumented, err.Error()+": "+string(raw))
	}
	r.events = append(r.events, Event{name, subKey, payload})
	r.mu.Unlock()
	select {
	case r.ch <- struct{}{}:
	default:
	}
}

// Wait returns the first event called name, waiting for it up to 5 s.
func (r *Recorder) Wait(t testing.TB, name string) any {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		r.mu.Lock()
		for _, e := range r.events {
			if e.Name == name {
				r.mu.Unlock()
				return e.Payload
			}
		}
		r.mu.Unlock()
		select {
		case <-r.ch:
		case <-deadline:
			t.Fatalf("no %s event; saw %+v", name, r.Names())
			return nil
		}
	}
}

// WaitFor returns the first event called name whose payload match accepts,
// waiting for it as long as the test may run (testctx): for a scripted
// scene whose packets take a loaded machine longer than a command's reply
// window to arrive.
func (r *Recorder) WaitFor(t testing.TB, name string, match func(payload string) bool) any {
	t.Helper()
	ctx, cancel := testctx.New(t)
	defer cancel()
	for {
		r.mu.Lock()
		for _, e := range r.events {
			if e.Name == name && match(JSON(e.Payload)) {
				r.mu.Unlock()
				return e.Payload
			}
		}
		r.mu.Unlock()
		select {
		case <-r.ch:
		case <-ctx.Done():
			t.Fatalf("no %s event that matches; saw %+v", name, r.Names())
			return nil
		}
	}
}

// WaitCount waits up to 5 s until n events called name were recorded.
func (r *Recorder) WaitCount(t testing.TB, name string, n int) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for r.Count(name) < n {
		select {
		case <-r.ch:
		case <-deadline:
			t.Fatalf("%d %s events, want %d; saw %+v", r.Count(name), name, n, r.Names())
		}
	}
}

// Named returns the recorded events called name, oldest first.
func (r *Recorder) Named(name string) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Event
	for _, e := range r.events {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// Count is how many events called name were recorded.
func (r *Recorder) Count(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.events {
		if e.Name == name {
			n++
		}
	}
	return n
}

// Events copies the recorded events, in order.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// Names lists the recorded events' names in order.
func (r *Recorder) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		out = append(out, e.Name)
	}
	return out
}

// Log is a logger for tests: debug lines on stderr with -v, else nothing.
func Log() *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// JSON renders v as JSON, for comparing payloads.
func JSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Dial connects to a fake server on port, for tests that build a session
// themselves.
func Dial(t testing.TB, port int) net.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", itoa(port)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return nc
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// WaitFor waits, up to 5 s, for cond, for the state a test cannot be told
// of by a notification (it looks every 5 ms); it fails the test when cond
// has not come.
func WaitFor(t testing.TB, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Routed is a packet to feed to an offline session's handlers.
type Routed struct {
	Packet mcdata.Packet
	Body   []byte
}

// OfflineSetup is what an offline session (bot.Offline) is fed before
// anything else, as a server would send it: the dimension types and biomes
// registries (so chunk data decodes) and the login.
func OfflineSetup(proto int32) []Routed {
	var dims, biomes wire.Writer
	dims.String("minecraft:dimension_type")
	dims.VarInt(int32(len(DimensionTypes)))
	for _, d := range DimensionTypes {
		dims.String(d.Name)
		dims.Bool(true)
		NBTInts(&dims, map[string]int32{"min_y": d.MinY, "height": d.Height})
	}
	biomes.String("minecraft:worldgen/biome")
	biomes.VarInt(int32(len(Biomes)))
	for _, b := range Biomes {
		biomes.String(b)
		biomes.Bool(false)
	}
	return []Routed{
		{mcdata.ClientboundConfigRegistryData, dims.Bytes()},
		{mcdata.ClientboundConfigRegistryData, biomes.Bytes()},
		{mcdata.ClientboundPlayLogin, LoginBody(proto, 42, 4)},
	}
}
