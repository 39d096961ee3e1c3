package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcversion"
	"github.com/blockmate/blockmate/bot/ping"
	"github.com/blockmate/blockmate/protocol"
)

// Host is what the client needs from the dispatcher its tools run on:
// what runs (to know a join is admitted), cancelling admitted mc_join
// calls (mc_leave), and the event bus.
type Host interface {
	Running() []protocol.RunningCall
	CancelBefore(ctx context.Context, tool string, cause error) []string
	Events() *protocol.Bus
	// StartTask lists work the bot does by itself (reconnecting) among
	// the running tasks, so that mc_status shows it and mc_stop ends it.
	StartTask(name string) (context.Context, func())
}

// Client is the bot: idle, joining, or in a world (one session at a time),
// and the state its tools read. Its methods are safe from any goroutine.
type Client struct {
	log  *slog.Logger
	emit func(name, subKey string, payload any)
	opts Options
	// host is the dispatcher the tools run on, nil for a client used
	// without one: its running table says which mc_join calls are admitted.
	host Host

	mu sync.Mutex
	w  *Session
	// join is the join in progress, nil when none runs.
	join *joinAttempt
	// lastEnd is how the last session ended, for mc_status.
	lastEnd *LastEnd
	// onSession run at each session's start (hooks.go).
	onSession []func(*Session)
	// reconn is the reconnect in progress after a lost connection, nil
	// when none runs (reconnect.go).
	reconn *reconnecting
	// closing is set by Close: blockmate is exiting, so a connection
	// that ends now is not retried.
	closing bool
}

// joinAttempt is one running Join: its context (cancelled by mc_leave,
// mc_stop or the caller) and done, closed once it has returned.
type joinAttempt struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	done   chan struct{}
}

// LastEnd is how a session ended, as mc_status reports it: why, when, and
// the server's address.
type LastEnd struct {
	core.EndReason
	At   time.Time
	Host string
	Port int
}

// ErrJoinCancelled is the cause of a join cancelled by mc_leave.
var ErrJoinCancelled = errors.New("the join was cancelled by mc_leave; call mc_join again to join a world")

// joinPingTimeout bounds the status ping a join starts with.
const joinPingTimeout = 10 * time.Second

// joinUnwind bounds how long a new join waits for a cancelled one to
// finish unwinding (closing its socket) before it starts.
const joinUnwind = 10 * time.Second

// NewClient returns a client that publishes events through emit (nil
// drops them). host is the dispatcher the bot's tools run on (nil for a
// client used without one): its running calls say which mc_join calls are
// admitted, and mc_leave cancels them through it.
func NewClient(log *slog.Logger, emit func(name, subKey string, payload any), host Host, opts Options) *Client {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if emit == nil {
		emit = func(string, string, any) {}
	}
	return &Client{log: log, emit: emit, host: host, opts: opts}
}

var gameModes = [...]string{"survival", "creative", "adventure", "spectator"}

// GameModeName is the name of a game mode number ("survival" …).
func GameModeName(m int8) string {
	if m >= 0 && int(m) < len(gameModes) {
		return gameModes[m]
	}
	return "unknown"
}

// errJoinInProgress is what a second join answers while one connects.
var errJoinInProgress = errors.New("join_in_progress: another mc_join is still connecting; wait for its answer, or call mc_leave to cancel it, then try again")

// Join pings the server for its version, then logs in as an offline player
// and returns once the bot has spawned. Only one join runs at a time, and
// only while the bot is in no world. A join that finds a cancelled join
// still unwinding waits for it instead of refusing. A join asked for while
// the bot reconnects by itself ends the reconnecting first: the caller's
// choice of world wins.
func (c *Client) Join(ctx context.Context, host string, port int, username string) (api.JoinResult, error) {
	c.stopReconnect(errors.New("an mc_join asked for another join"))
	return c.joinWorld(ctx, host, port, username, nil)
}

// joinWorld is Join, also for the reconnect loop r (nil for a caller's join).
func (c *Client) joinWorld(ctx context.Context, host string, port int, username string, r *reconnecting) (api.JoinResult, error) {
	c.mu.Lock()
	for c.join != nil {
		prev := c.join
		if prev.ctx.Err() == nil {
			c.mu.Unlock()
			return api.JoinResult{}, errJoinInProgress
		}
		c.mu.Unlock()
		select {
		case <-prev.done:
		case <-ctx.Done():
			return api.JoinResult{}, ctx.Err()
		case <-time.After(joinUnwind):
			return api.JoinResult{}, errJoinInProgress
		}
		c.mu.Lock()
	}
	if w := c.w; w != nil {
		c.mu.Unlock()
		return api.JoinResult{}, fmt.Errorf("the bot is already in the world at %s as %s; call mc_leave first to join another world, or mc_status to see where it is", net.JoinHostPort(w.host, strconv.Itoa(w.port)), w.cs.Username())
	}
	ctx, cancel := context.WithCancelCause(ctx)
	j := &joinAttempt{ctx: ctx, cancel: cancel, done: make(chan struct{})}
	c.join = j
	c.mu.Unlock()
	// The guard is released before Join returns, so a call sent after
	// this one's answer never finds it.
	defer func() {
		c.mu.Lock()
		if c.join == j {
			c.join = nil
		}
		c.mu.Unlock()
		cancel(nil)
		close(j.done)
	}()
	// ctxErr is what a cancelled join answers: mc_leave's sentence, or
	// the caller's own cancellation (mc_stop).
	ctxErr := func() error {
		if err := context.Cause(ctx); errors.Is(err, ErrJoinCancelled) {
			return err
		}
		return ctx.Err()
	}

	// A world busy generating chunks or saving can take a few seconds to
	// answer its status ping (a node test server starting chunks for a
	// player on a loaded machine took over 3 s, lan's default); the join
	// allows the world 60 s to spawn the bot, so its ping may take 10.
	pingCtx, cancelPing := context.WithTimeout(ctx, joinPingTimeout)
	status, err := ping.Server(pingCtx, host, port)
	cancelPing()
	if err != nil {
		if ctx.Err() != nil {
			return api.JoinResult{}, ctxErr()
		}
		return api.JoinResult{}, err
	}
	if !mcversion.IsSupported(status.Protocol) {
		return api.JoinResult{}, errors.New(mcversion.Advice(status.Version, status.Protocol))
	}
	name := status.Version
	if r, ok := mcversion.Lookup(status.Protocol); ok && !slices.Contains(r.Names, name) {
		// Servers may report a name such as "Paper 1.21.4"; show the
		// game version the protocol belongs to.
		name = r.Names[len(r.Names)-1]
	}
	joinCtx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	defer cancelTimeout()
	w, err := connect(joinCtx, c.log, c.emit, host, port, username, int32(status.Protocol), name, c.opts)
	if err == nil {
		w.motd = status.MOTD
	}
	if err != nil {
		if ctx.Err() != nil {
			return api.JoinResult{}, ctxErr()
		}
		if joinCtx.Err() != nil {
			return api.JoinResult{}, fmt.Errorf("the server at %s accepted the connection but the bot had not spawned after 60 seconds; the world may be frozen or overloaded: try mc_join again", net.JoinHostPort(host, strconv.Itoa(port)))
		}
		return api.JoinResult{}, err
	}
	c.mu.Lock()
	if ctx.Err() != nil || (r != nil && c.reconn != r) {
		// mc_leave (or mc_stop) came between the spawn and here.
		c.mu.Unlock()
		w.cs.Leave()
		return api.JoinResult{}, ctxErr()
	}
	c.w = w
	if r != nil {
		// The reconnect is over once the bot is back: a session that
		// ends at once after this starts a loop of its own, and its
		// mc_disconnected comes after this mc_reconnected.
		c.reconn = nil
		c.emit("mc_reconnected", "", reconnected{Server: net.JoinHostPort(host, strconv.Itoa(port)), AfterS: time.Since(r.since).Round(100 * time.Millisecond).Seconds(), Attempts: r.attempt})
	}
	c.mu.Unlock()
	go c.watch(w)
	c.sessionStarted(w)

	st := w.self.Snapshot()
	return api.JoinResult{
		Joined: true, Position: st.Position.Round(), GameMode: GameModeName(st.GameMode), Version: w.version,
		Username: w.cs.Username(), Server: net.JoinHostPort(host, strconv.Itoa(port)),
	}, nil
}

// watch turns the end of a session into mc_disconnected, and starts
// reconnecting after an end the bot did not ask for and that joining again
// would not simply repeat (a ban, a duplicate login).
func (c *Client) watch(w *Session) {
	end := w.cs.End()
	now := time.Now()
	c.mu.Lock()
	if c.w == w {
		c.w = nil
	}
	c.lastEnd = &LastEnd{EndReason: end, At: now, Host: w.host, Port: w.port}
	ev := disconnected{Reason: end.Reason, NextStep: end.NextStep, Untrusted: end.Untrusted}
	if !end.Left && !end.Final && !c.opts.Reconnect.Off && !c.closing && c.reconn == nil && c.w == nil {
		r := c.startReconnectLocked(w, now)
		wait := r.nextAt.Sub(now).Seconds()
		ev.WillRetry, ev.NextAttemptS = true, &wait
		ev.NextStep = "the bot joins again by itself; tool calls meanwhile answer that it is reconnecting (mc_leave or mc_stop stops the retrying)"
	}
	// Emitted under the lock so that mc_disconnected always comes before
	// the mc_reconnected of the loop it started (Emit only queues).
	c.emit("mc_disconnected", "", ev)
	c.mu.Unlock()
}

// ErrNotConnected is what every in-world tool says when the bot is in no
// world.
var ErrNotConnected = errors.New("the bot is not in a world; call mc_join with the port first (mc_discover_lan finds it, or ask the player for the port shown in their chat after Open to LAN)")

// ErrStillJoining is what every in-world tool says while a join is
// admitted or runs, so that a caller waits rather than joins again.
var ErrStillJoining = errors.New("the bot is still joining a world; wait for mc_join's answer (or call mc_leave to cancel it)")

// Session returns the session of the world the bot is in, or an error
// that every in-world tool answers with: the bot is still joining (an
// mc_join is admitted or running), or it is in no world.
func (c *Client) Session() (*Session, error) {
	c.mu.Lock()
	w, j, r := c.w, c.join, c.reconn
	c.mu.Unlock()
	switch {
	case w != nil:
		return w, nil
	case r != nil:
		return nil, ErrReconnecting
	case j != nil && j.ctx.Err() == nil, c.joinAdmitted():
		return nil, ErrStillJoining
	}
	return nil, ErrNotConnected
}

// joinAdmitted reports whether the dispatcher has admitted an mc_join call
// that is not cancelled: sent, but perhaps not started yet.
func (c *Client) joinAdmitted() bool {
	if c.host == nil {
		return false
	}
	for _, r := range c.host.Running() {
		if r.Tool == "mc_join" && !r.Cancelled {
			return true
		}
	}
	return false
}

// Joining reports whether a join is admitted or runs.
func (c *Client) Joining() bool {
	c.mu.Lock()
	j, r := c.join, c.reconn
	c.mu.Unlock()
	return r == nil && ((j != nil && j.ctx.Err() == nil) || c.joinAdmitted())
}

// StopReconnecting ends a reconnect in progress (mc_leave), and reports
// whether one ran.
func (c *Client) StopReconnecting() bool { return c.stopReconnect(ErrJoinCancelled) }

// Leave disconnects, or cancels a join in progress, and says which it did:
// left is false when the bot was in no world and joining none. Called from
// mc_leave (ctx is then its call's), it first cancels, through the
// dispatcher, every mc_join call admitted before it, started or not: a
// leave sent after a join always wins. A cancelled join has returned (and
// left nothing behind) when Leave returns.
func (c *Client) Leave(ctx context.Context) (left, cancelledJoin bool) {
	// A session that ends by itself while this leave runs must not start
	// retrying after it: the leave is stopped again at the end.
	c.stopReconnect(ErrJoinCancelled)
	defer c.stopReconnect(ErrJoinCancelled)
	var cancelled []string
	if c.host != nil {
		cancelled = c.host.CancelBefore(ctx, "mc_join", ErrJoinCancelled)
	}
	c.mu.Lock()
	w, j := c.w, c.join
	c.mu.Unlock()
	if j != nil {
		j.cancel(ErrJoinCancelled)
		<-j.done
	}
	cancelledJoin = j != nil || len(cancelled) > 0
	if w == nil {
		c.mu.Lock()
		w = c.w // a join that spawned just before the cancel
		c.mu.Unlock()
	}
	if w == nil {
		return cancelledJoin, cancelledJoin
	}
	w.cs.Leave()
	c.mu.Lock()
	if c.w == w {
		c.w = nil
	}
	c.mu.Unlock()
	return true, cancelledJoin
}

// Close leaves the world, if in one, before blockmate exits.
func (c *Client) Close(ctx context.Context) {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	done := make(chan struct{})
	go func() { c.Leave(context.Background()); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// LastEnd is how the last session ended, and false while none has.
func (c *Client) LastEnd() (LastEnd, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lastEnd == nil {
		return LastEnd{}, false
	}
	return *c.lastEnd, true
}
