package peertest

import (
	"context"
	"errors"
	"fmt"
	"sync"
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

// Player is a mineflayer player in a test server.
type Player struct {
	Username string

	proc *Peer

	mu      sync.Mutex
	lines   []ChatLine
	taken   []bool
	changed chan struct{} // closed and replaced when lines or ended change
	ended   error         // why the player left, once it has
}

// ErrPlayerGone is wrapped by errors from a player that has left the server.
var ErrPlayerGone = errors.New("the player has left the server")

// StartPlayer starts a mineflayer player called username in srv and returns
// once it has spawned. It leaves and is stopped in t.Cleanup.
func StartPlayer(t testing.TB, srv *Server, username string) *Player {
	t.Helper()
	cfg := struct {
		Host     string `json:"host"`
		Port     int    `json:"port"`
		Username string `json:"username"`
		Version  string `json:"version"`
	}{srv.Host, srv.Port, username, srv.Version}
	p := &Player{Username: username, changed: make(chan struct{})}
	p.proc = startNode(t, "player "+username, "player.js", cfg)
	ctx, cancel := context.WithTimeoutCause(context.Background(), startTimeout, errNotReady)
	defer cancel()
	if _, err := p.proc.waitFor(ctx, "spawn", p.record); err != nil {
		t.Fatalf("peertest: player %s did not spawn in %s: %v", username, srv.Addr(), err)
	}
	go p.follow()
	return p
}

// record keeps one event from the player.
func (p *Player) record(ev Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev.Event {
	case "chat":
		p.lines = append(p.lines, ChatLine{Username: ev.Username, Message: ev.Message, Text: ev.Text})
		p.taken = append(p.taken, false)
	case "kicked":
		p.ended = fmt.Errorf("%w: kicked: %s", ErrPlayerGone, ev.Reason)
	case "end":
		if p.ended == nil {
			p.ended = fmt.Errorf("%w: connection ended: %s", ErrPlayerGone, ev.Reason)
		}
	default:
		return
	}
	close(p.changed)
	p.changed = make(chan struct{})
}

// follow records events until the player's process closes its channel.
func (p *Player) follow() {
	for ev := range p.proc.events {
		p.record(ev)
	}
	<-p.proc.done
	p.mu.Lock()
	if p.ended == nil {
		p.ended = fmt.Errorf("%w: its process exited (%v)", ErrPlayerGone, p.proc.err)
	}
	close(p.changed)
	p.changed = make(chan struct{})
	p.mu.Unlock()
}

// Chat says msg (or runs it, if it starts with a slash).
func (p *Player) Chat(msg string) error {
	p.mu.Lock()
	ended := p.ended
	p.mu.Unlock()
	if ended != nil {
		return ended
	}
	if err := p.proc.send(marshalLine(struct {
		Cmd  string `json:"cmd"`
		Text string `json:"text"`
	}{"chat", msg})); err != nil {
		return fmt.Errorf("player %s: %w", p.Username, err)
	}
	return nil
}

// WaitChat returns the first chat line this player has seen (since it
// started, or from now on) for which match is true and that no earlier
// WaitChat returned. It fails when ctx ends or the player leaves first.
func (p *Player) WaitChat(ctx context.Context, match func(ChatLine) bool) (ChatLine, error) {
	for {
		p.mu.Lock()
		for i, l := range p.lines {
			if !p.taken[i] && match(l) {
				p.taken[i] = true
				p.mu.Unlock()
				return l, nil
			}
		}
		changed, ended := p.changed, p.ended
		p.mu.Unlock()
		if ended != nil {
			return ChatLine{}, fmt.Errorf("player %s: waiting for chat: %w", p.Username, ended)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ChatLine{}, fmt.Errorf("player %s: waiting for chat: %w (lines seen: %d)", p.Username, context.Cause(ctx), p.seen())
		}
	}
}

// Lines returns every chat line the player has seen so far.
func (p *Player) Lines() []ChatLine {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]ChatLine(nil), p.lines...)
}

func (p *Player) seen() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.lines)
}

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
