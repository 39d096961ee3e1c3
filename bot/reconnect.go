package bot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/untrusted"
)

// ReconnectOptions tune how the bot comes back after a disconnect it did
// not ask for (the world closed, the server restarted, a timeout, the
// network). The zero value reconnects with the default backoff.
type ReconnectOptions struct {
	// Off turns reconnecting off (--no-reconnect, or the config's
	// reconnect = false): a lost connection then leaves the bot out.
	Off bool
	// Backoff is the wait before each attempt, the last repeating for as
	// long as it tries; nil means DefaultBackoff.
	Backoff []time.Duration
	// After is the timer the waits use; nil means time.After. Tests give
	// one that fires when they say, so no test sleeps through a backoff.
	After func(time.Duration) <-chan time.Time
	// LANWorlds lists the LAN worlds announced now (the console's and
	// --watch-lan's lan.Watcher), nil when nothing listens for them: a LAN
	// world reopened by the game comes back on a new port, and this is
	// how the bot finds it again (same host, same world name).
	LANWorlds func() []api.LANWorld
}

// DefaultBackoff is the wait before each reconnect attempt: quick at
// first (a server restart takes seconds), then every 30 s for as long as
// the world stays away (a LAN world closed for dinner).
var DefaultBackoff = []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second}

// ErrReconnecting is what every in-world tool answers while the bot is
// reconnecting by itself, so that no call acts on a world that has gone.
var ErrReconnecting = errors.New("reconnecting: the bot lost its connection and is joining the world again; call again in a moment (mc_status shows the attempts; mc_leave or mc_stop stops the retrying)")

// reconnecting is the retry loop that runs after a lost connection.
type reconnecting struct {
	cancel context.CancelCauseFunc
	done   chan struct{}
	// host, port, username and motd are the world to go back to: motd
	// (the world's name, from its status ping) finds a LAN world that
	// came back on another port.
	host     string
	port     int
	username string
	motd     string
	since    time.Time
	// attempt is the attempt waited for or running, 1 first.
	attempt int
	// nextAt is when the next attempt starts; lastErr why the last failed.
	nextAt  time.Time
	lastErr string
}

// Reconnecting is the state of a reconnect in progress, as mc_status
// shows it.
type Reconnecting struct {
	Server    string
	Attempt   int
	NextAt    time.Time
	LastError string
	Since     time.Time
}

// Reconnecting says whether the bot is reconnecting by itself, and how far
// it got.
func (c *Client) Reconnecting() (Reconnecting, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.reconn
	if r == nil {
		return Reconnecting{}, false
	}
	return Reconnecting{Server: net.JoinHostPort(r.host, strconv.Itoa(r.port)), Attempt: r.attempt, NextAt: r.nextAt, LastError: r.lastErr, Since: r.since}, true
}

// backoff is the wait before attempt n (1 first).
func (o ReconnectOptions) backoff(n int) time.Duration {
	b := o.Backoff
	if len(b) == 0 {
		b = DefaultBackoff
	}
	return b[min(n, len(b))-1]
}

func (o ReconnectOptions) after(d time.Duration) <-chan time.Time {
	if o.After != nil {
		return o.After(d)
	}
	return time.After(d)
}

// disconnected is mc_disconnected's payload.
type disconnected struct {
	Reason    string `json:"reason"`
	NextStep  string `json:"next_step"`
	WillRetry bool   `json:"will_retry"`
	// NextAttemptS is the wait, in seconds, before the first attempt.
	NextAttemptS *float64 `json:"next_attempt_s,omitempty"`
	Untrusted    bool     `json:"untrusted,omitempty"` // the reason quotes the server's own text (a kick message)
}

// reconnected is mc_reconnected's payload.
type reconnected struct {
	Server   string  `json:"server"`
	AfterS   float64 `json:"after_s"`
	Attempts int     `json:"attempts"`
}

// startReconnectLocked begins retrying the world w was in, and returns the
// loop to run; c.mu is held.
func (c *Client) startReconnectLocked(w *Session, at time.Time) *reconnecting {
	var cancel context.CancelCauseFunc
	ctx := context.Background()
	done := func() {}
	if c.host != nil {
		// A task of the dispatcher's own, so that mc_status lists it and
		// mc_stop ends it like any running call.
		ctx, done = c.host.StartTask("reconnect")
	}
	ctx, cancel = context.WithCancelCause(ctx)
	r := &reconnecting{cancel: cancel, done: make(chan struct{}), host: w.host, port: w.port, username: w.cs.Username(), motd: w.motd, since: at, attempt: 1}
	r.nextAt = at.Add(c.opts.Reconnect.backoff(1))
	c.reconn = r
	go func() {
		defer done()
		c.retry(ctx, r)
	}()
	return r
}

// retry joins the world again, waiting the backoff before each attempt,
// until it is back, it is stopped (mc_leave, mc_stop, an mc_join of the
// caller's own), or an attempt fails in a way that joining again would
// only repeat.
func (c *Client) retry(ctx context.Context, r *reconnecting) {
	defer close(r.done)
	end := func() {
		c.mu.Lock()
		if c.reconn == r {
			c.reconn = nil
		}
		c.mu.Unlock()
	}
	defer end()
	for n := 1; ; n++ {
		wait := c.opts.Reconnect.backoff(n)
		c.mu.Lock()
		r.attempt = n
		c.mu.Unlock()
		select {
		case <-c.opts.Reconnect.after(wait):
		case <-ctx.Done():
			return
		}
		host, port, err := c.findAgain(r)
		if err != nil {
			// Two worlds of that name: guessing could put the bot in
			// someone else's world.
			end()
			c.emit("mc_disconnected", "", disconnected{Reason: err.Error(), NextStep: "call mc_join with the port of the world to join (mc_discover_lan lists them)", Untrusted: true})
			return
		}
		// A join that succeeds says mc_reconnected itself, under the
		// client's lock, before the new session can end.
		_, err = c.joinWorld(ctx, host, port, r.username, r)
		if err == nil {
			return
		}
		if ctx.Err() != nil {
			return
		}
		c.log.Info("reconnect attempt failed", "attempt", n, "err", err)
		var je *JoinError
		if errors.As(err, &je) && je.Final {
			end()
			c.emit("mc_disconnected", "", disconnected{Reason: "the bot could not join the world again: " + je.Msg, NextStep: "call mc_join when the world lets the bot in again", Untrusted: true})
			return
		}
		c.mu.Lock()
		r.lastErr = err.Error()
		r.nextAt = time.Now().Add(c.opts.Reconnect.backoff(n + 1))
		c.mu.Unlock()
	}
}

// findAgain is where to try next: the LAN world of the same name on the
// same host when it announces itself on another port (the game picks a new
// port each time a world is opened to LAN), else the same address (a
// server that restarts keeps its port). It refuses to choose between two
// worlds of that name on that host.
func (c *Client) findAgain(r *reconnecting) (string, int, error) {
	list := c.opts.Reconnect.LANWorlds
	if list == nil || r.motd == "" {
		return r.host, r.port, nil
	}
	var ports []int
	for _, w := range list() {
		if w.MOTD != r.motd || !sameHost(w, r.host) {
			continue
		}
		if w.Port == r.port {
			return r.host, r.port, nil
		}
		ports = append(ports, w.Port)
	}
	switch len(ports) {
	case 0:
		return r.host, r.port, nil
	case 1:
		return r.host, ports[0], nil
	}
	names := make([]string, len(ports))
	for i, p := range ports {
		names[i] = strconv.Itoa(p)
	}
	return "", 0, fmt.Errorf("two LAN worlds named %q are open on %s (ports %s), so the bot did not guess which to rejoin", untrusted.Line(r.motd), r.host, strings.Join(names, ", "))
}

// sameHost reports whether a LAN world is on host: the same address, or
// this machine's own world when the bot joined it through loopback (the
// lan package names this machine's worlds 127.0.0.1).
func sameHost(w api.LANWorld, host string) bool {
	if w.Host == host {
		return true
	}
	ip := net.ParseIP(host)
	return w.IsLocalMachine && (host == "localhost" || (ip != nil && ip.IsLoopback()))
}

// stopReconnect ends a reconnect in progress and waits for its loop to
// return; it reports whether one ran.
func (c *Client) stopReconnect(cause error) bool {
	c.mu.Lock()
	r := c.reconn
	c.mu.Unlock()
	if r == nil {
		return false
	}
	r.cancel(cause)
	<-r.done
	return true
}
