package peertest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// ChatLine is one chat line a player saw. Username is the sender for player
// chat (flying-squid's "<name> text" lines included) and empty for system
// lines; Message is what they said; Text is the whole line as shown.
type ChatLine struct {
	Username string
	Message  string
	Text     string
}

// Client kinds a Player can be.
const (
	// ClientMineflayer is mineflayer 4.39.0 (testdata/peers/player.js): a
	// whole bot, with a world, entities and chat rendering.
	ClientMineflayer = "mineflayer"
	// ClientBare is a bare minecraft-protocol 1.68.0 client
	// (testdata/peers/bare.js): login, configuration, chat, respawn, no
	// world. It is the second player where mineflayer cannot join.
	ClientBare = "bare"
)

// Player is a player peer (mineflayer or a bare client) in a test server.
type Player struct {
	Username string
	Client   string // ClientMineflayer or ClientBare

	proc *Peer
	log  *eventLog
}

// ErrPlayerGone is wrapped by errors from a player that has left the server.
var ErrPlayerGone = errors.New("the player has left the server")

// StartPlayer starts a mineflayer player called username in srv and returns
// once it has spawned. It leaves and is stopped in t.Cleanup.
func StartPlayer(t testing.TB, srv *Server, username string) *Player {
	t.Helper()
	return startPlayer(t, srv, username, ClientMineflayer)
}

// StartBarePlayer starts a bare minecraft-protocol client called username
// in srv and returns once the server has placed it. It leaves and is
// stopped in t.Cleanup.
func StartBarePlayer(t testing.TB, srv *Server, username string) *Player {
	t.Helper()
	return startPlayer(t, srv, username, ClientBare)
}

func startPlayer(t testing.TB, srv *Server, username, kind string) *Player {
	t.Helper()
	script := "player.js"
	if kind == ClientBare {
		script = "bare.js"
	}
	cfg := struct {
		Host     string `json:"host"`
		Port     int    `json:"port"`
		Username string `json:"username"`
		Version  string `json:"version"`
	}{srv.Host, srv.Port, username, srv.Version}
	p := &Player{Username: username, Client: kind}
	p.proc = startNode(t, kind+" "+username, script, cfg)
	p.log = newEventLog("player " + username)
	go p.follow()
	ctx, cancel := context.WithTimeoutCause(context.Background(), startTimeout, errNotReady)
	defer cancel()
	if _, err := p.log.wait(ctx, "spawn", nil); err != nil {
		t.Fatalf("peertest: %s player %s did not spawn in %s: %v", kind, username, srv.Addr(), err)
	}
	return p
}

// follow records events until the player's process closes its channel.
func (p *Player) follow() {
	for ev := range p.proc.events {
		var gone error
		switch ev.Event {
		case "kicked":
			gone = fmt.Errorf("%w: kicked: %s", ErrPlayerGone, ev.Reason)
		case "end":
			gone = fmt.Errorf("%w: connection ended: %s", ErrPlayerGone, ev.Reason)
		case "error":
			fmt.Fprintf(p.proc.log, "peertest: %s reported error: %s\n", p.proc.name, ev.Message)
		}
		p.log.add(ev, gone)
	}
	<-p.proc.done
	p.log.end(fmt.Errorf("%w: its process exited (%v)", ErrPlayerGone, p.proc.err))
}

// Chat says msg (or runs it, if it starts with a slash).
func (p *Player) Chat(msg string) error {
	return p.command(struct {
		Cmd  string `json:"cmd"`
		Text string `json:"text"`
	}{"chat", msg})
}

func (p *Player) command(v any) error {
	if err := p.log.gone(); err != nil {
		return err
	}
	if err := p.proc.send(marshalLine(v)); err != nil {
		return fmt.Errorf("player %s: %w", p.Username, err)
	}
	return nil
}

// WaitChat returns the first chat line this player has seen (since it
// started, or from now on) for which match is true and that no earlier
// wait returned. It fails when ctx ends or the player leaves first.
func (p *Player) WaitChat(ctx context.Context, match func(ChatLine) bool) (ChatLine, error) {
	ev, err := p.log.wait(ctx, "chat", func(ev Event) bool { return match(chatLine(ev)) })
	if err != nil {
		return ChatLine{}, err
	}
	return chatLine(ev), nil
}

func chatLine(ev Event) ChatLine {
	return ChatLine{Username: ev.Username, Message: ev.Message, Text: ev.Text}
}

// WaitEvent returns the first event named name ("death", "respawn",
// "dialog", "code_of_conduct", …; see player.js and bare.js) for which
// match (nil matches all) is true and that no earlier wait returned.
func (p *Player) WaitEvent(ctx context.Context, name string, match func(Event) bool) (Event, error) {
	return p.log.wait(ctx, name, match)
}

// Events returns every event named name the player has reported so far.
func (p *Player) Events(name string) []Event { return p.log.all(name) }

// Lines returns every chat line the player has seen so far.
func (p *Player) Lines() []ChatLine {
	var out []ChatLine
	for _, ev := range p.log.all("chat") {
		out = append(out, chatLine(ev))
	}
	return out
}

// BlockAt asks a mineflayer player which block it has at x, y, z: its name,
// or "" where it has no chunk loaded.
func (p *Player) BlockAt(ctx context.Context, x, y, z int) (string, error) {
	if p.Client != ClientMineflayer {
		return "", fmt.Errorf("player %s is a %s client, which keeps no world", p.Username, p.Client)
	}
	if err := p.command(struct {
		Cmd string `json:"cmd"`
		X   int    `json:"x"`
		Y   int    `json:"y"`
		Z   int    `json:"z"`
	}{"block", x, y, z}); err != nil {
		return "", err
	}
	ev, err := p.log.wait(ctx, "block", func(ev Event) bool {
		return ev.X != nil && int(*ev.X) == x && int(*ev.Y) == y && int(*ev.Z) == z
	})
	if err != nil {
		return "", err
	}
	return ev.Name, nil
}

// Entity asks a mineflayer player which entity it has for the player
// called username: its type name ("player") and position, or "" if it has
// none (the other player is out of sight, or gone).
func (p *Player) Entity(ctx context.Context, username string) (name string, x, y, z float64, err error) {
	if p.Client != ClientMineflayer {
		return "", 0, 0, 0, fmt.Errorf("player %s is a %s client, which keeps no entities", p.Username, p.Client)
	}
	if err := p.command(struct {
		Cmd      string `json:"cmd"`
		Username string `json:"username"`
	}{"entity", username}); err != nil {
		return "", 0, 0, 0, err
	}
	ev, err := p.log.wait(ctx, "entity", func(ev Event) bool { return ev.Username == username })
	if err != nil {
		return "", 0, 0, 0, err
	}
	if ev.Name != "" && (ev.X == nil || ev.Y == nil || ev.Z == nil) {
		return "", 0, 0, 0, fmt.Errorf("player %s reported an entity without a position", p.Username)
	}
	if ev.Name == "" {
		return "", 0, 0, 0, nil
	}
	return ev.Name, *ev.X, *ev.Y, *ev.Z, nil
}

// Position asks a mineflayer player where it is.
func (p *Player) Position(ctx context.Context) (x, y, z float64, err error) {
	if p.Client != ClientMineflayer {
		return 0, 0, 0, fmt.Errorf("player %s is a %s client; ask the server instead", p.Username, p.Client)
	}
	if err := p.command(struct {
		Cmd string `json:"cmd"`
	}{"position"}); err != nil {
		return 0, 0, 0, err
	}
	ev, err := p.log.wait(ctx, "position", nil)
	if err != nil {
		return 0, 0, 0, err
	}
	if ev.X == nil || ev.Y == nil || ev.Z == nil {
		return 0, 0, 0, fmt.Errorf("player %s reported a position without coordinates", p.Username)
	}
	return *ev.X, *ev.Y, *ev.Z, nil
}

// WalkTo makes a mineflayer player walk, as a person would (looking that
// way and holding forward), until x, z is under it, and returns where it
// stopped; an error says when it stopped short.
func (p *Player) WalkTo(ctx context.Context, x, z float64) (px, py, pz float64, err error) {
	if p.Client != ClientMineflayer {
		return 0, 0, 0, fmt.Errorf("player %s is a %s client, which cannot walk", p.Username, p.Client)
	}
	if err := p.command(struct {
		Cmd string  `json:"cmd"`
		X   float64 `json:"x"`
		Z   float64 `json:"z"`
	}{"walk", x, z}); err != nil {
		return 0, 0, 0, err
	}
	ev, err := p.log.wait(ctx, "walked", nil)
	if err != nil {
		return 0, 0, 0, err
	}
	if ev.X == nil || ev.Y == nil || ev.Z == nil {
		return 0, 0, 0, fmt.Errorf("player %s reported a walk without a position", p.Username)
	}
	if ev.Reason != "" {
		return *ev.X, *ev.Y, *ev.Z, fmt.Errorf("player %s walking to %.1f %.1f: %s", p.Username, x, z, ev.Reason)
	}
	return *ev.X, *ev.Y, *ev.Z, nil
}

// Goto walks a mineflayer player to a block with mineflayer-pathfinder (a
// player on a route, as a person walks) and returns where it ended; an
// error when the pathfinder gave up.
func (p *Player) Goto(ctx context.Context, x, y, z int) (ex, ey, ez float64, err error) {
	if p.Client != ClientMineflayer {
		return 0, 0, 0, fmt.Errorf("player %s is a %s client, which cannot walk", p.Username, p.Client)
	}
	if err := p.command(struct {
		Cmd string `json:"cmd"`
		X   int    `json:"x"`
		Y   int    `json:"y"`
		Z   int    `json:"z"`
	}{"goto", x, y, z}); err != nil {
		return 0, 0, 0, err
	}
	ev, err := p.log.wait(ctx, "arrived", nil)
	if err != nil {
		return 0, 0, 0, err
	}
	if ev.X == nil || ev.Y == nil || ev.Z == nil {
		return 0, 0, 0, fmt.Errorf("player %s reported an arrival without coordinates", p.Username)
	}
	if ev.Message != "" {
		return *ev.X, *ev.Y, *ev.Z, fmt.Errorf("player %s did not arrive: %s", p.Username, ev.Message)
	}
	return *ev.X, *ev.Y, *ev.Z, nil
}

// Follow makes a mineflayer player follow another player with
// mineflayer-pathfinder's GoalFollow, keeping within distance blocks, until
// StopWalking.
func (p *Player) Follow(ctx context.Context, username string, distance int) error {
	if p.Client != ClientMineflayer {
		return fmt.Errorf("player %s is a %s client, which cannot walk", p.Username, p.Client)
	}
	if err := p.command(struct {
		Cmd      string `json:"cmd"`
		Username string `json:"username"`
		Distance int    `json:"distance"`
	}{"follow", username, distance}); err != nil {
		return err
	}
	ev, err := p.log.wait(ctx, "following", func(ev Event) bool { return ev.Username == username })
	if err != nil {
		return err
	}
	if ev.Message != "" {
		return fmt.Errorf("player %s cannot follow %s: %s", p.Username, username, ev.Message)
	}
	return nil
}

// Pace makes a bare player walk back and forth between two points on flat
// ground at speed blocks a second, sending a position each tick as a
// walking client does, until StopWalking: a player walking a route, with
// none of the chat a teleporting command would add.
func (p *Player) Pace(from, to [3]float64, speed float64) error {
	if p.Client != ClientBare {
		return fmt.Errorf("player %s is a %s client; pacing is the bare client's", p.Username, p.Client)
	}
	return p.command(struct {
		Cmd   string     `json:"cmd"`
		From  [3]float64 `json:"from"`
		To    [3]float64 `json:"to"`
		Speed float64    `json:"speed"`
	}{"pace", from, to, speed})
}

// StopWalking ends a mineflayer player's goto or follow, or a bare
// player's pacing.
func (p *Player) StopWalking() error {
	return p.command(struct {
		Cmd string `json:"cmd"`
	}{"stop"})
}

// Pid is the player's process id, to measure what it costs.
func (p *Player) Pid() int { return p.proc.Pid() }

// Close makes the player leave and stops its process. It is safe to call
// more than once and is also done in t.Cleanup.
func (p *Player) Close() {
	_ = p.proc.send(marshalLine(struct {
		Cmd string `json:"cmd"`
	}{"quit"}))
	select {
	case <-p.proc.done:
	case <-time.After(2 * time.Second):
	}
	p.proc.Stop()
}
