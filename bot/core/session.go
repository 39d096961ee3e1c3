// Package core is one connection to a world: the read loop that frames,
// looks up and routes packets to the handlers features registered, the
// 20 Hz tick, sending, events and the connection's end. It holds no game
// logic; the features (bot/link, bot/self, bot/players, bot/talk …) do,
// each with its own state and lock.
//
// A session's life: New wraps a dialled connection; features attach by
// registering handlers (Handle, OnTick) before Start; Start runs the read
// loop; a feature marks the spawn (MarkSpawned), which starts the tick; the
// session ends when the server closes it, a handler returns an error, or
// the bot leaves (Leave). Done is closed then, and End says why.
package core

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/conn"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// TickInterval is the game's tick: 20 a second.
const TickInterval = 50 * time.Millisecond

// CatchUpTicks is how many ticks the session runs in a row, once a second,
// while only catch-up handlers (OnTickCatchUp) need the tick: waking 20
// times a second costs an idle bot more CPU than all its work.
const CatchUpTicks = 20

// Handler handles one packet. r reads the packet's payload and is its own
// (several handlers of one packet each get one). Returning an error ends
// the connection: an *EndError with its reason, anything else as a
// connection or decoding failure. A decode error left in r ends it too.
// Handlers run on the read loop: they may send, but must not wait on tools.
type Handler func(r *wire.Reader) error

// EndReason says why a session ended, in sentences for the caller.
type EndReason struct {
	Reason   string
	NextStep string
	// Kicked is true when the server ended it with a message.
	Kicked bool
	// Untrusted is true when Reason quotes text the server sent (a kick
	// message, a transfer's host), which its operator wrote: it has been
	// through the untrusted sanitiser, and readers must treat it as data.
	Untrusted bool
	// Left is true when the bot left on purpose.
	Left bool
	// Final is true when joining again would end the same way (a ban, a
	// duplicate login, a version or login mode the bot cannot meet), so
	// the client does not reconnect by itself.
	Final bool
}

// EndError ends a session with its reason when a handler returns it.
type EndError struct{ EndReason }

func (e *EndError) Error() string { return e.Reason }

// Ended returns an error that ends the session with reason.
func Ended(reason EndReason) error { return &EndError{reason} }

// ErrDecode marks a packet the bot could not read.
var ErrDecode = errors.New("malformed packet")

// ErrEnded is what sending on a session that has ended returns.
var ErrEnded = errors.New("the connection to the world has ended")

// Options tune a session.
type Options struct {
	Log *slog.Logger
	// Emit publishes an event; nil drops them.
	Emit func(name, subKey string, payload any)
	// Clock gives the time and the tick; nil means the real clock.
	Clock Clock
	// KeepAliveTimeout is how long the connection may stay silent before
	// it is taken for dead; 0 means 30 s, the servers' own number.
	KeepAliveTimeout time.Duration
	// Username and UUID are the profile the bot logs in with.
	Username string
	UUID     [16]byte
	// ReadOnTick reads the server's packets at the tick while the session
	// ticks in real time, where the connection can tell that a packet is
	// waiting without waiting for one (conn.CanPoll: TCP on Linux): the
	// process then wakes 20 times a second, not at every packet the server
	// sends, which is most of a busy bot's CPU time, for packets handled
	// up to a tick later. Before the spawn and while the tick wakes once a
	// second, packets are read as they come.
	ReadOnTick bool
}

// Out is one packet to send: its kind and a func that writes its body.
type Out struct {
	Packet mcdata.Packet
	Build  func(w *wire.Writer)
}

// Session is one connection to one world.
type Session struct {
	// Codec is the connection's protocol version's wire layouts.
	Codec *codec.Codec
	// Log is the session's logger.
	Log *slog.Logger

	conn    *conn.Conn
	emit    func(name, subKey string, payload any)
	clock   Clock
	timeout time.Duration

	// handlers are registered before Start and only read after it.
	handlers map[mcdata.Packet][]Handler
	tickers  []func(tick uint64) // real time (OnTick)
	catchUp  []func(tick uint64) // every tick, possibly late (OnTickCatchUp)
	late     atomic.Bool         // the ticks being run are catch-up ticks (TickIsLate)
	started  atomic.Bool
	// realTime counts the holds (HoldRealTime) that want every tick at its
	// moment; realTimeWake tells the tick loop that the count changed.
	realTime     atomic.Int32
	realTimeWake chan struct{}
	// tickN is the number of the tick being run or last run, 0 before the
	// first; ticked is broadcast once each tick's handlers have run. They
	// are the one tick service every feature waits on (Tick, Await).
	tickN  atomic.Uint64
	ticked Notify
	// onTime counts the ticks run at their moment (not catch-up ticks):
	// waits count these, so that the second of ticks a switch to real
	// time owes (run at once, late) does not end a wait that just began.
	onTime atomic.Uint64

	// readOnTick is Options.ReadOnTick where the connection can do it;
	// paced is true while the tick runs in real time, so the read loop
	// waits for the tick (readGate) when nothing is waiting to be read.
	readOnTick bool
	paced      atomic.Bool
	readGate   chan struct{}
	// awaiting is true while the read loop waits for a tick (for tests).
	awaiting atomic.Bool
	closed   chan struct{}

	profile atomic.Pointer[profile]

	spawnOnce sync.Once
	spawned   chan struct{}
	spawnedAt atomic.Pointer[time.Time]

	done      chan struct{}
	end       EndReason
	leaving   atomic.Bool
	closeOnce sync.Once
	// failure is why something off the read loop (a tick handler) ended
	// the connection.
	failure atomic.Pointer[error]
}

// New wraps a connection dialled to a server that speaks cd's protocol.
func New(nc net.Conn, cd *codec.Codec, opts Options) *Session {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Emit == nil {
		opts.Emit = func(string, string, any) {}
	}
	if opts.Clock == nil {
		opts.Clock = RealClock{}
	}
	if opts.KeepAliveTimeout <= 0 {
		opts.KeepAliveTimeout = 30 * time.Second
	}
	s := &Session{
		Codec: cd, Log: opts.Log, emit: opts.Emit, clock: opts.Clock, timeout: opts.KeepAliveTimeout,
		conn:     conn.New(nc, cd.Packets, conn.Options{ReadTimeout: opts.KeepAliveTimeout}),
		handlers: map[mcdata.Packet][]Handler{},
		spawned:  make(chan struct{}), done: make(chan struct{}),
		realTimeWake: make(chan struct{}, 1),
		readGate:     make(chan struct{}, 1),
		closed:       make(chan struct{}),
	}
	s.readOnTick = opts.ReadOnTick && s.conn.CanPoll()
	s.profile.Store(&profile{opts.Username, opts.UUID})
	return s
}

type profile struct {
	name string
	uuid [16]byte
}

// Handle registers h for clientbound packet p, in p's state. Several
// handlers may take one packet; they run in the order they registered.
// Registering after Start panics: the read loop reads the table unlocked.
// So does registering for a packet the session's version does not have: a
// packet of some versions only is registered with HandleIfPresent.
func (s *Session) Handle(p mcdata.Packet, h Handler) {
	if s.started.Load() {
		panic(fmt.Sprintf("core: a handler for %v was registered after the read loop started; features attach before Start", p))
	}
	if p.Dir() != mcdata.Clientbound {
		panic(fmt.Sprintf("core: %v is not a packet the server sends", p))
	}
	if !s.Has(p) {
		panic(fmt.Sprintf("core: %v does not exist in %v; check Has before registering a handler for it", p, s.Codec))
	}
	s.handlers[p] = append(s.handlers[p], h)
}

// HandleIfPresent registers h for p when the session's version has p, and
// does nothing otherwise: for packets some versions have and others lack
// (set_cursor_item from 1.21.2, the orb's own spawn until 1.21.5). It
// reports whether it registered.
func (s *Session) HandleIfPresent(p mcdata.Packet, h Handler) bool {
	if !s.Has(p) {
		return false
	}
	s.Handle(p, h)
	return true
}

// CutAt makes the connection inflate packet p only as far as cut asks
// (conn.Conn.CutAt): for a packet whose handlers read only its beginning,
// so the rest costs nothing to read. Every handler of p then gets the body
// up to cut's end when the packet came compressed, the whole body when it
// came uncompressed. A packet the version lacks is ignored. Like Handle,
// only before Start.
func (s *Session) CutAt(p mcdata.Packet, cut conn.Cut) {
	if s.started.Load() {
		panic(fmt.Sprintf("core: a cut of %v was set after the read loop started; features attach before Start", p))
	}
	s.conn.CutAt(p, cut)
}

// Has reports whether the session's version has packet p.
func (s *Session) Has(p mcdata.Packet) bool {
	_, ok := s.Codec.Packets.ID(p)
	return ok
}

// OnTick registers f to run on every tick, in real time (20 times a
// second), on the tick goroutine (never on the read loop), with the tick's
// number from 1. Ticks start at the spawn. f must not wait for a packet: with
// ReadOnTick, the read loop reads what came at the tick, after the tick
// goroutine let it.
func (s *Session) OnTick(f func(tick uint64)) {
	if s.started.Load() {
		panic("core: a tick handler was registered after the read loop started; features attach before Start")
	}
	s.tickers = append(s.tickers, f)
}

// OnTickCatchUp registers f to run on every tick, like OnTick, for work that
// must see every tick but not at its moment (the world's clock, a once-a-
// second reminder, a scan whose news may wait a second). While no OnTick
// handler is registered, the session wakes once a second and runs the
// CatchUpTicks ticks of that second in a row; with one, catch-up handlers
// run on each real tick after the real-time ones. The tick numbers are the
// same either way.
func (s *Session) OnTickCatchUp(f func(tick uint64)) {
	if s.started.Load() {
		panic("core: a tick handler was registered after the read loop started; features attach before Start")
	}
	s.catchUp = append(s.catchUp, f)
}

// TickIsLate says, inside a tick handler, whether this tick runs late: one
// of a second's catch-up ticks run in a row (OnTickCatchUp), not at its
// moment. Work that must not happen faster than the game's 20 ticks a
// second (a step of a walk that just began) waits for the ticks on time.
func (s *Session) TickIsLate() bool { return s.late.Load() }

// HoldRealTime asks for every tick at its moment (20 a second) until the
// returned release is called, even with only catch-up handlers: a feature
// whose catch-up work must run in real time for a while (the body while it
// walks or falls) holds it, and lets the session go back to waking once a
// second when it is at rest. Holds count; release is idempotent.
func (s *Session) HoldRealTime() (release func()) {
	s.realTime.Add(1)
	s.wakeTick()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.realTime.Add(-1)
			s.wakeTick()
		})
	}
}

func (s *Session) wakeTick() {
	select {
	case s.realTimeWake <- struct{}{}:
	default:
	}
}

// Start runs the read loop on its own goroutine.
func (s *Session) Start() {
	if s.started.Swap(true) {
		return
	}
	go s.run()
}

// Username is the name the bot plays under (the server may change it at
// login).
func (s *Session) Username() string { return s.profile.Load().name }

// UUID is the bot's profile id, as the server has it once logged in.
func (s *Session) UUID() [16]byte { return s.profile.Load().uuid }

// SetProfile records the name and id the server gave the bot at login.
func (s *Session) SetProfile(name string, uuid [16]byte) { s.profile.Store(&profile{name, uuid}) }

// State is the state the connection reads packets in.
func (s *Session) State() mcdata.State { return s.conn.State() }

// Now is the session's clock's time.
func (s *Session) Now() time.Time { return s.clock.Now() }

// Emit publishes an event.
func (s *Session) Emit(name, subKey string, payload any) { s.emit(name, subKey, payload) }

// Send writes one packet; build writes its body (nil for none). It is safe
// from any goroutine. A packet of another state, or one this version lacks,
// fails with a sentence and sends nothing.
func (s *Session) Send(p mcdata.Packet, build func(w *wire.Writer)) error {
	return s.Batch(Out{p, build})
}

// Batch writes packets in order, none of another goroutine's between them.
func (s *Session) Batch(packets ...Out) error {
	if s.isDone() {
		return ErrEnded
	}
	out := make([]conn.Outgoing, len(packets))
	for i, p := range packets {
		out[i] = conn.Outgoing{Packet: p.Packet, Payload: encode(p.Build)}
	}
	return s.conn.WriteBatch(out...)
}

// SwitchAfter writes the acknowledgement p and switches the connection to
// state next with no other packet between (see conn.SwitchAfter). Only
// handlers call it, on the read loop.
func (s *Session) SwitchAfter(p mcdata.Packet, build func(w *wire.Writer), next mcdata.State) error {
	return s.conn.SwitchAfter(p, encode(build), next)
}

// SetCompression turns compression on at threshold; only a handler calls it.
func (s *Session) SetCompression(threshold int) { s.conn.SetCompression(threshold) }

func encode(build func(w *wire.Writer)) []byte {
	if build == nil {
		return nil
	}
	var w wire.Writer
	build(&w)
	return w.Bytes()
}

// MarkSpawned records that the bot has spawned (its first position sync in
// play): Spawned is closed and the tick starts (when a feature registered
// a tick handler). Later calls do nothing.
func (s *Session) MarkSpawned() {
	s.spawnOnce.Do(func() {
		now := s.clock.Now()
		s.spawnedAt.Store(&now)
		close(s.spawned)
		// The tick runs even without tick handlers: waiters (Await)
		// count on it. At rest it wakes once a second.
		go s.tick()
	})
}

// Spawned is closed once the bot has spawned.
func (s *Session) Spawned() <-chan struct{} { return s.spawned }

// SpawnedAt is when the bot spawned, and false before.
func (s *Session) SpawnedAt() (time.Time, bool) {
	if t := s.spawnedAt.Load(); t != nil {
		return *t, true
	}
	return time.Time{}, false
}

// Done is closed when the connection has ended.
func (s *Session) Done() <-chan struct{} { return s.done }

func (s *Session) isDone() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// End says why the session ended; it is set once Done is closed.
func (s *Session) End() EndReason {
	<-s.done
	return s.end
}

// Close ends the connection; the read loop then ends.
func (s *Session) Close() {
	s.closeOnce.Do(func() {
		close(s.closed)
		_ = s.conn.Close()
	})
}

// Leave disconnects on purpose and returns once the read loop has ended.
func (s *Session) Leave() {
	s.leaving.Store(true)
	s.Close()
	s.Start() // a session never started ends at once, as left
	<-s.done
}

// fail ends the connection from off the read loop with err as its cause.
func (s *Session) fail(err error) {
	s.failure.CompareAndSwap(nil, &err)
	s.Close()
}

// run is the read loop. It ends the session however the loop ends.
func (s *Session) run() {
	err := s.loop()
	s.Close()
	if f := s.failure.Load(); f != nil {
		err = *f
	}
	var end *EndError
	switch {
	case s.leaving.Load():
		s.end = EndReason{Reason: "the bot left the world", NextStep: "call mc_join to join again", Left: true}
	case errors.As(err, &end):
		s.end = end.EndReason
	default:
		s.end = EndReason{Reason: s.describe(err), NextStep: "check that the world is still open to LAN, then call mc_join again (mc_discover_lan finds the port)"}
	}
	s.Log.Info("connection ended", "reason", s.end.Reason)
	close(s.done)
}

// loop reads, looks up and routes until something ends it. It holds no
// lock while handlers run.
func (s *Session) loop() (err error) {
	defer func() {
		// Handlers check every length, but a bug must still end one
		// connection, not the whole program.
		if p := recover(); p != nil {
			s.Log.Error("packet handler panicked", "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("%w: %v", ErrDecode, p)
		}
	}()
	last := s.clock.Now()
	for {
		if s.readOnTick && s.paced.Load() && !s.conn.Ready() {
			if err := s.awaitTick(last); err != nil {
				return err
			}
			continue
		}
		pkt, err := s.conn.ReadPacket()
		if err != nil {
			return err
		}
		last = s.clock.Now()
		if pkt.Kind == mcdata.PacketNone {
			s.Log.Debug("packet not in this version's tables", "state", pkt.State, "id", pkt.ID)
			continue
		}
		if err := s.route(pkt.Kind, pkt.Payload); err != nil {
			return err
		}
	}
}

// awaitTick waits for the next tick (or the session's end) when the read
// loop reads at the tick and nothing is waiting. A server silent for the
// keep-alive timeout ends the connection here, as the read deadline does
// when the loop waits on the socket.
func (s *Session) awaitTick(last time.Time) error {
	if s.clock.Now().Sub(last) > s.timeout {
		return fmt.Errorf("no packet for %v: %w", s.timeout, os.ErrDeadlineExceeded)
	}
	s.awaiting.Store(true)
	defer s.awaiting.Store(false)
	select {
	case <-s.readGate:
	case <-s.closed:
	}
	return nil
}

// releaseReads lets a read loop waiting for the tick read, and says whether
// it should wait for ticks at all (paced).
func (s *Session) releaseReads(paced bool) {
	s.paced.Store(paced)
	select {
	case s.readGate <- struct{}{}:
	default:
	}
}

// route runs p's handlers over payload, in the order they registered, each
// with its own reader, and returns the first error: a handler's, or the
// decode error a handler left in its reader.
func (s *Session) route(p mcdata.Packet, payload []byte) error {
	for _, h := range s.handlers[p] {
		r := wire.NewReader(payload)
		if err := h(r); err != nil {
			return err
		}
		if r.Err() != nil {
			return fmt.Errorf("%w: %v: %v", ErrDecode, p, r.Err())
		}
	}
	return nil
}

// Route feeds one packet to its handlers as the read loop does, without a
// socket: for fuzzing the features' handlers, where a panic must surface
// (the read loop recovers it). It must not run beside a started read loop.
func (s *Session) Route(p mcdata.Packet, payload []byte) error {
	if s.started.Load() {
		panic("core: Route called on a started session")
	}
	return s.route(p, payload)
}

// describe turns the error that ended the read loop into a sentence.
func (s *Session) describe(err error) string {
	var ne net.Error
	switch {
	case err == nil:
		return "the connection ended"
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Sprintf("the server stopped answering (no keep-alive for %v): the world was probably closed, or the game is paused or frozen", s.timeout.Round(time.Second))
	case errors.Is(err, conn.ErrMalformed), errors.Is(err, ErrDecode):
		return "the server sent data the bot could not read (" + err.Error() + "), so the bot disconnected"
	}
	return "the connection to the world was lost (" + ShortErr(err) + ")"
}

// ShortErr is a network error without the address noise around it.
func ShortErr(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	return err.Error()
}

// tick runs the tick handlers 20 times a second from the spawn until the
// session ends, or, with only catch-up handlers and no real-time hold, 20
// ticks in a row once a second. A change of holds (HoldRealTime) switches
// between the two at once; the ticks a second of catch-up still owed are
// run first, so every handler sees every tick. A panicking tick handler
// ends the connection.
func (s *Session) tick() {
	defer func() {
		if p := recover(); p != nil {
			s.Log.Error("tick handler panicked", "panic", p, "stack", string(debug.Stack()))
			s.fail(fmt.Errorf("%w: a tick handler failed: %v", ErrDecode, p))
		}
	}()
	var n uint64
	run := func(per int) {
		for range per {
			n++
			s.tickN.Store(n)
			for _, f := range s.tickers {
				f(n)
			}
			for _, f := range s.catchUp {
				f(n)
			}
			if !s.late.Load() {
				s.onTime.Add(1)
			}
			s.ticked.Broadcast()
		}
	}
	for {
		realTime := s.wantsRealTime()
		interval, per := TickInterval, 1
		if !realTime {
			interval, per = CatchUpTicks*TickInterval, CatchUpTicks
		}
		t := s.clock.NewTicker(interval)
		since := s.clock.Now()
		switched := false
		for !switched {
			select {
			case <-s.done:
				t.Stop()
				return
			case <-t.C():
				if s.readOnTick {
					s.releaseReads(realTime)
					// Let the read loop take what came before the tick's
					// handlers run, as the game's client handles packets
					// before its tick: on one processor (main.go) it runs
					// now, so a position sync that came since the last tick
					// is confirmed before the body sends where it was.
					// Nothing depends on this order; it only makes it the
					// usual one.
					runtime.Gosched()
				}
				since = s.clock.Now()
				s.late.Store(!realTime)
				run(per)
				s.late.Store(false)
				// The last hold went: back to a wake a second, after this
				// tick rather than at the release, so that a waiter that
				// lets go and waits again at once (a loop of Awaits) keeps
				// the ticks on time instead of switching twice a tick.
				if realTime && !s.wantsRealTime() {
					switched = true
					if s.readOnTick {
						s.releaseReads(false)
					}
				}
			case <-s.realTimeWake:
				if realTime || !s.wantsRealTime() {
					continue // real time ends at a tick, above
				}
				// The part of the second already gone is owed to the
				// catch-up handlers.
				s.late.Store(true)
				run(min(int(s.clock.Now().Sub(since)/TickInterval), CatchUpTicks))
				s.late.Store(false)
				switched = true
				if s.readOnTick {
					s.releaseReads(true)
				}
			}
		}
		t.Stop()
	}
}
