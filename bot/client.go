package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/blockmate/blockmate/bot/mcversion"
	"github.com/blockmate/blockmate/lan"
	"github.com/blockmate/blockmate/protocol"
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
	// cancelJoin cancels the join in progress (nil when none runs) and
	// joinDone is closed when that join has returned.
	cancelJoin context.CancelCauseFunc
	joinDone   chan struct{}
	// lastEnd is how the last session ended, for mc_status.
	lastEnd *lastEnd
	// leaveFirst holds the mc_join calls an mc_leave saw admitted (in the
	// dispatcher's running table) before their handlers had started: each
	// answers errJoinCancelled when it starts, so a leave sent after a
	// join always wins. joinEnded is when each mc_join call's handler
	// returned (by call id), so a leave does not mistake a finished join
	// that is still in the running table for one yet to start.
	leaveFirst   map[string]time.Time
	joinEnded    map[string]time.Time
	startedJoins map[string]bool
}

// lastEnd is a session's end as mc_status reports it.
type lastEnd struct {
	endReason
	at         time.Time
	host       string
	port       int
	leftOnPurp bool
}

// errJoinCancelled is the cause of a join cancelled by mc_leave.
var errJoinCancelled = errors.New("the join was cancelled by mc_leave; call mc_join again to join a world")

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

// DefaultUsername is the bot's name when the caller gives none. The
// sidecar and the console both use it.
const DefaultUsername = "Blockmate"

// usernameRule is the offline-mode name rule the game's clients enforce.
var usernameRule = regexp.MustCompile(`^[A-Za-z0-9_]{3,16}$`)

// ValidUsername reports whether name can be the bot's name in a world: 3
// to 16 characters of A-Z, a-z, 0-9 and _ (the rule offline-mode names
// follow). Its error is a sentence to show the player.
func ValidUsername(name string) error {
	if usernameRule.MatchString(name) {
		return nil
	}
	return fmt.Errorf("%q is not a Minecraft name: use 3 to 16 characters, each a letter A-Z or a-z, a digit or _, e.g. %q", name, DefaultUsername)
}

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
		return JoinResult{}, errors.New("join_in_progress: another mc_join is still connecting; wait for its answer, or call mc_leave to cancel it, then try again")
	case c.sess != nil:
		s := c.sess
		c.mu.Unlock()
		return JoinResult{}, fmt.Errorf("the bot is already in the world at %s as %s; call mc_leave first to join another world, or mc_status to see where it is", net.JoinHostPort(s.host, strconv.Itoa(s.port)), s.username)
	}
	c.joining = true
	ctx, cancelJoin := context.WithCancelCause(ctx)
	c.cancelJoin, c.joinDone = cancelJoin, make(chan struct{})
	done := c.joinDone
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.joining, c.cancelJoin, c.joinDone = false, nil, nil
		c.mu.Unlock()
		cancelJoin(nil)
		close(done)
	}()
	// ctxErr is what a cancelled join answers: mc_leave's sentence, or
	// the caller's own cancellation (mc_stop).
	ctxErr := func() error {
		if err := context.Cause(ctx); errors.Is(err, errJoinCancelled) {
			return err
		}
		return ctx.Err()
	}

	status, err := lan.Ping(ctx, host, port)
	if err != nil {
		if ctx.Err() != nil {
			return JoinResult{}, ctxErr()
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
			return JoinResult{}, ctxErr()
		}
		if joinCtx.Err() != nil {
			return JoinResult{}, fmt.Errorf("the server at %s accepted the connection but the bot had not spawned after 60 seconds; the world may be frozen or overloaded: try mc_join again", net.JoinHostPort(host, strconv.Itoa(port)))
		}
		return JoinResult{}, err
	}
	c.mu.Lock()
	if ctx.Err() != nil {
		// mc_leave (or mc_stop) came between the spawn and here.
		c.mu.Unlock()
		s.leave()
		return JoinResult{}, ctxErr()
	}
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
	s.mu.Lock()
	onPurpose := s.leaving
	s.mu.Unlock()
	c.mu.Lock()
	if c.sess == s {
		c.sess = nil
	}
	c.lastEnd = &lastEnd{endReason: s.end, at: time.Now(), host: s.host, port: s.port, leftOnPurp: onPurpose}
	c.mu.Unlock()
	c.emit("mc_disconnected", "", struct {
		Reason    string `json:"reason"`
		NextStep  string `json:"next_step"`
		Untrusted bool   `json:"untrusted,omitempty"` // the reason quotes the server's kick message
	}{s.end.Reason, s.end.NextStep, s.end.Kicked})
}

// errNotConnected is what every in-world tool says when the bot is in no
// world.
var errNotConnected = errors.New("the bot is not in a world; call mc_join with the port first (mc_discover_lan finds it, or ask the player for the port shown in their chat after Open to LAN)")

// errStillJoining is what every in-world tool says while a join runs, so
// that a caller waits rather than joins again.
var errStillJoining = errors.New("the bot is still joining a world; wait for mc_join's answer (or call mc_leave to cancel it)")

// session returns the current session, or errStillJoining or
// errNotConnected.
func (c *Client) session() (*session, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == nil && c.joining {
		return nil, errStillJoining
	}
	if c.sess == nil {
		return nil, errNotConnected
	}
	return c.sess, nil
}

// Leave disconnects, or cancels a join in progress. It reports false when
// the bot was in no world and joining none.
func (c *Client) Leave() bool {
	left, _ := c.leave(nil)
	return left
}

// startJoinCall claims an mc_join call's start: it reports false when an
// mc_leave sent after the call was admitted has already cancelled it.
func (c *Client) startJoinCall(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.joinEnded, id)
	if c.startedJoins == nil {
		c.startedJoins = map[string]bool{}
	}
	c.startedJoins[id] = true
	if _, cancelled := c.leaveFirst[id]; cancelled {
		delete(c.leaveFirst, id)
		return false
	}
	return true
}

// endJoinCall records that an mc_join call's handler has returned.
func (c *Client) endJoinCall(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.startedJoins, id)
	if c.joinEnded == nil {
		c.joinEnded = map[string]time.Time{}
	}
	c.joinEnded[id] = time.Now()
	if len(c.joinEnded) > 64 {
		// Old ends matter only while their calls are still listed as
		// running, a moment after they return.
		for k, at := range c.joinEnded {
			if time.Since(at) > time.Minute {
				delete(c.joinEnded, k)
			}
		}
	}
}

// leave is Leave that also says whether it cancelled a join. A cancelled
// join has returned (and left nothing behind) when leave returns. running
// is the dispatcher's running table, read before leave takes the client's
// lock: an mc_join listed there whose handler has not started yet is
// cancelled too (it answers errJoinCancelled when it starts).
func (c *Client) leave(running []protocol.RunningCall) (left, cancelledJoin bool) {
	c.mu.Lock()
	s, cancel, joinDone := c.sess, c.cancelJoin, c.joinDone
	pending := false
	admitted := map[string]bool{}
	for _, r := range running {
		if r.Tool != "mc_join" {
			continue
		}
		admitted[r.ID] = true
		if c.startedJoins[r.ID] {
			continue // its handler runs: cancelled through cancelJoin below
		}
		if ended, ok := c.joinEnded[r.ID]; ok && !r.Started.After(ended) {
			continue // its handler has already returned
		}
		if c.leaveFirst == nil {
			c.leaveFirst = map[string]time.Time{}
		}
		c.leaveFirst[r.ID] = r.Started
		pending = true
	}
	if running != nil {
		// Forget marks for calls no longer admitted.
		for id := range c.leaveFirst {
			if !admitted[id] {
				delete(c.leaveFirst, id)
			}
		}
	}
	c.mu.Unlock()
	if s == nil && cancel != nil {
		cancel(errJoinCancelled)
		<-joinDone
		return true, true
	}
	if s == nil {
		return pending, pending
	}
	s.leave()
	c.mu.Lock()
	if c.sess == s {
		c.sess = nil
	}
	c.mu.Unlock()
	return true, pending
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
