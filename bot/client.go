package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/blockmate/blockmate/bot/mcversion"
	"github.com/blockmate/blockmate/lan"
)

// Client is the bot: at most one session (one world) at a time, and the
// state tools read. Its methods are safe from any goroutine.
type Client struct {
	log  *slog.Logger
	emit emitter
	opts Options

	mu      sync.Mutex
	sess    *session
	joining bool
}

// NewClient returns a client that publishes events through emit (nil
// drops them).
func NewClient(log *slog.Logger, emit func(name, subKey string, payload any), opts Options) *Client {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if emit == nil {
		emit = func(string, string, any) {}
	}
	return &Client{log: log, emit: emit, opts: opts.withDefaults()}
}

// DefaultUsername is the bot's name when the caller gives none.
const DefaultUsername = "Blockmate"

// JoinResult is mc_join's result.
type JoinResult struct {
	Joined   bool   `json:"joined"`
	Position Vec3   `json:"position"`
	GameMode string `json:"gameMode"`
	Version  string `json:"version"`
	Username string `json:"username"`
	Server   string `json:"server"`
}

var gameModes = [...]string{"survival", "creative", "adventure", "spectator"}

func gameModeName(m int8) string {
	if m >= 0 && int(m) < len(gameModes) {
		return gameModes[m]
	}
	return "unknown"
}

// Join pings the server for its version, then logs in as an offline player
// and returns once the bot has spawned. Only one join runs at a time, and
// only while the bot is in no world.
func (c *Client) Join(ctx context.Context, host string, port int, username string) (JoinResult, error) {
	c.mu.Lock()
	switch {
	case c.joining:
		c.mu.Unlock()
		return JoinResult{}, errors.New("join_in_progress: another mc_join is still connecting; wait for its answer, or call mc_stop to cancel it, then try again")
	case c.sess != nil:
		s := c.sess
		c.mu.Unlock()
		return JoinResult{}, fmt.Errorf("the bot is already in the world at %s as %s; call mc_leave first to join another world, or mc_status to see where it is", net.JoinHostPort(s.host, strconv.Itoa(s.port)), s.username)
	}
	c.joining = true
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.joining = false
		c.mu.Unlock()
	}()

	status, err := lan.Ping(ctx, host, port)
	if err != nil {
		if ctx.Err() != nil {
			return JoinResult{}, ctx.Err()
		}
		return JoinResult{}, err
	}
	if !mcversion.IsSupported(status.Protocol) {
		return JoinResult{}, errors.New(mcversion.Advice(status.Version, status.Protocol))
	}
	name := status.Version
	if r, ok := mcversion.Lookup(status.Protocol); ok && !contains(r.Names, name) {
		// Servers may report a name such as "Paper 1.21.4"; show the
		// game version the protocol belongs to.
		name = r.Names[len(r.Names)-1]
	}
	joinCtx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	s, err := dial(joinCtx, c.log, host, port, username, int32(status.Protocol), name, c.emit, c.opts)
	if err != nil {
		if ctx.Err() != nil {
			return JoinResult{}, ctx.Err()
		}
		if joinCtx.Err() != nil {
			return JoinResult{}, fmt.Errorf("the server at %s accepted the connection but the bot had not spawned after 60 seconds; the world may be frozen or overloaded: try mc_join again", net.JoinHostPort(host, strconv.Itoa(port)))
		}
		return JoinResult{}, err
	}
	c.mu.Lock()
	c.sess = s
	c.mu.Unlock()
	go c.watch(s)

	s.mu.Lock()
	defer s.mu.Unlock()
	return JoinResult{
		Joined: true, Position: round(s.st.pos), GameMode: gameModeName(s.st.gameMode), Version: s.version,
		Username: s.username, Server: net.JoinHostPort(host, strconv.Itoa(port)),
	}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// watch turns the end of a session into mc_disconnected.
func (c *Client) watch(s *session) {
	<-s.done
	c.mu.Lock()
	if c.sess == s {
		c.sess = nil
	}
	c.mu.Unlock()
	c.emit("mc_disconnected", "", struct {
		Reason   string `json:"reason"`
		NextStep string `json:"next_step"`
	}{s.end.Reason, s.end.NextStep})
}

// errNotConnected is what every in-world tool says when the bot is in no
// world.
var errNotConnected = errors.New("the bot is not in a world; call mc_join with the port first (mc_discover_lan finds it, or ask the player for the port shown in their chat after Open to LAN)")

// session returns the current session, or errNotConnected.
func (c *Client) session() (*session, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == nil {
		return nil, errNotConnected
	}
	return c.sess, nil
}

// Leave disconnects. It reports false when the bot was in no world.
func (c *Client) Leave() bool {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s == nil {
		return false
	}
	s.leave()
	c.mu.Lock()
	if c.sess == s {
		c.sess = nil
	}
	c.mu.Unlock()
	return true
}

// Close leaves the world, if in one, before blockmate exits.
func (c *Client) Close(ctx context.Context) {
	done := make(chan struct{})
	go func() { c.Leave(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// snapshot copies the session's state.
func (s *session) snapshot() state {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.st
	st.players = nil
	st.chat = nil
	return st
}
