// Package talk is chat: lines coming in (system, player and profileless
// chat, kept in a log and sent on as events, marked as text other players
// wrote) and going out (public chat, commands with their replies,
// whispers), and the acknowledgements signed chat needs.
package talk

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/untrusted"
)

// LogSize is how many chat lines the log keeps.
const LogSize = 100

// ackEvery is how many signed messages the bot lets pass before it
// acknowledges them; the server stops relaying chat to a client that falls
// too far behind.
const ackEvery = 64

// Line is one chat line the bot saw.
type Line struct {
	From string // "" for the server
	Text string
	At   time.Time
	// Kind is "chat", "whisper" or "system".
	Kind string
	// Segments are the styled runs of the whole line, for the console.
	Segments []chat.Segment
	// WhisperSent marks the server's confirmation of the bot's own
	// whisper (vanilla's commands.message.display.outgoing).
	WhisperSent bool
}

// Talk is one session's chat. Its methods are safe from any goroutine.
type Talk struct {
	s   *core.Session
	c   *codec.Codec
	reg *registry.Registry

	mu      sync.Mutex
	log     []Line
	seq     int // lines ever added, so a reader can find what is new
	unacked int32
	changed core.Notify

	// cmdMu lets one command at a time wait for its reply, so a reply is
	// never handed to another command sent at the same moment.
	cmdMu sync.Mutex
	// lastStamp keeps outgoing chat timestamps increasing: the server
	// kicks a client whose chat goes back in time.
	stampMu   sync.Mutex
	lastStamp int64
}

// Attach registers the feature's handlers on s. reg resolves chat types.
func Attach(s *core.Session, reg *registry.Registry) *Talk {
	t := &Talk{s: s, c: s.Codec, reg: reg}
	s.Handle(mcdata.ClientboundPlaySystemChat, t.systemChat)
	s.Handle(mcdata.ClientboundPlayPlayerChat, t.playerChat)
	s.Handle(mcdata.ClientboundPlayProfilelessChat, t.profilelessChat)
	return t
}

func (t *Talk) systemChat(r *wire.Reader) error {
	m := t.c.SystemChat(r)
	if r.Err() == nil && !m.Overlay {
		t.onSystemChat(m.Content)
	}
	return nil
}

func (t *Talk) playerChat(r *wire.Reader) error {
	m := t.c.PlayerChat(r)
	if r.Err() != nil {
		return nil
	}
	if m.Signature != nil {
		// Signed messages must be acknowledged now and then, or the server
		// stops relaying chat.
		t.mu.Lock()
		t.unacked++
		ack := t.unacked >= ackEvery
		if ack {
			t.unacked = 0
		}
		t.mu.Unlock()
		if ack {
			if err := t.s.Send(mcdata.ServerboundPlayMessageAcknowledgement, func(w *wire.Writer) { t.c.WriteMessageAcknowledgement(w, ackEvery) }); err != nil {
				return err
			}
		}
	}
	text := m.Body
	if m.Unsigned != nil {
		text = chat.Plain(m.Unsigned)
	}
	t.onTypedChat(chat.Plain(m.SenderName), text, t.chatType(m.ChatType), m.Target)
	return nil
}

func (t *Talk) profilelessChat(r *wire.Reader) error {
	m := t.c.ProfilelessChat(r)
	if r.Err() == nil {
		t.onTypedChat(chat.Plain(m.SenderName), chat.Plain(m.Message), t.chatType(m.ChatType), m.Target)
	}
	return nil
}

// chatType resolves a chat type reference; an unknown entry reads as
// ordinary chat.
func (t *Talk) chatType(ref codec.ChatTypeRef) registry.ChatType {
	if ref.Registry < 0 {
		return registry.ChatType{TranslationKey: ref.Inline.TranslationKey, Parameters: ref.Inline.Parameters}
	}
	if ct, ok := t.reg.ChatType(ref.Registry); ok {
		return ct
	}
	return registry.ChatType{TranslationKey: "chat.type.text", Parameters: []string{"sender", "content"}}
}

// onTypedChat files player and profileless chat by its chat type.
func (t *Talk) onTypedChat(sender, text string, ct registry.ChatType, target any) {
	kind := "chat"
	switch ct.TranslationKey {
	case "commands.message.display.incoming":
		kind = "whisper"
	case "commands.message.display.outgoing":
		kind = "whisper-sent"
	case "chat.type.team.sent":
		kind = "own"
	}
	if ct.Name == "minecraft:msg_command_outgoing" {
		kind = "whisper-sent"
	}
	var args []any
	for _, p := range ct.Parameters {
		switch p {
		case "sender":
			args = append(args, sender)
		case "content":
			args = append(args, text)
		case "target":
			args = append(args, target)
		}
	}
	line := map[string]any{"translate": ct.TranslationKey, "with": args}
	t.add(sender, text, kind, chat.Segments(line))
}

var (
	// chatLine is how flying-squid (and plugins that format chat
	// themselves) send player chat: a system line "<name> text".
	chatLine = regexp.MustCompile(`^<([A-Za-z0-9_]{1,16})> (.*)$`)
	// whisperLine is vanilla's incoming whisper, when rendered as text.
	whisperLine = regexp.MustCompile(`^([A-Za-z0-9_]{1,16}) whispers to you: (.*)$`)
)

func (t *Talk) onSystemChat(content any) {
	// A system line built from a known translation names its parts.
	if m, ok := content.(map[string]any); ok {
		if key, _ := m["translate"].(string); key == "chat.type.text" || key == "commands.message.display.incoming" {
			if with, ok := m["with"].([]any); ok && len(with) == 2 {
				kind := "chat"
				if key != "chat.type.text" {
					kind = "whisper"
				}
				t.add(chat.Plain(with[0]), chat.Plain(with[1]), kind, chat.Segments(content))
				return
			}
		}
	}
	// One render: the plain text is the segments' text (chat.Plain), and
	// a server may send many system lines (a console's command feedback
	// to every op, 20 a second while it moves a player).
	segs := chat.Segments(content)
	var b strings.Builder
	for _, sg := range segs {
		b.WriteString(sg.Text)
	}
	text := b.String()
	if m, ok := content.(map[string]any); ok {
		if key, _ := m["translate"].(string); key == "commands.message.display.outgoing" {
			// The server's confirmation of the bot's own /msg.
			t.add("", text, "whisper-sent", segs)
			return
		}
	}
	// The cheap tests first: most system lines are neither.
	if strings.HasPrefix(text, "<") {
		if m := chatLine.FindStringSubmatch(text); m != nil {
			t.add(m[1], m[2], "chat", segs)
			return
		}
	}
	if strings.Contains(text, " whispers to you: ") {
		if m := whisperLine.FindStringSubmatch(text); m != nil {
			t.add(m[1], m[2], "whisper", segs)
			return
		}
	}
	t.add("", text, "system", segs)
}

// add logs a line and sends it on as an event, unless the bot wrote it.
func (t *Talk) add(from, text, kind string, segs []chat.Segment) {
	whisperSent := kind == "whisper-sent"
	if kind == "own" || whisperSent {
		kind = "system"
	}
	// Names and messages are text other players wrote: the one sanitiser
	// cleans them (a name to one line) before anything logs or sends them.
	from, text = untrusted.Line(from), untrusted.Text(text)
	for i := range segs {
		segs[i].Text = untrusted.Text(segs[i].Text)
	}
	line := Line{From: from, Text: text, At: t.s.Now(), Kind: kind, Segments: segs, WhisperSent: whisperSent}
	if kind == "system" {
		line.From = ""
	}
	t.mu.Lock()
	if len(t.log) >= LogSize {
		copy(t.log, t.log[1:])
		t.log = t.log[:LogSize-1]
	}
	t.log = append(t.log, line)
	t.seq++
	t.mu.Unlock()
	t.changed.Broadcast()
	if from == t.s.Username() {
		return
	}
	// Untrusted marks, in the payload itself, text other players wrote,
	// for a reader that sees the payload without the event catalog.
	type said struct {
		Username  string         `json:"username"`
		Message   string         `json:"message"`
		Segments  []chat.Segment `json:"segments,omitempty"`
		Untrusted bool           `json:"untrusted"`
	}
	switch kind {
	case "chat":
		t.s.Emit("mc_player_chat", "", said{from, text, segs, true})
	case "whisper":
		t.s.Emit("mc_whisper", "", said{from, text, segs, true})
	case "system":
		what, who := presence(text)
		t.s.Emit("mc_system_chat", "", struct {
			Message   string         `json:"message"`
			Segments  []chat.Segment `json:"segments,omitempty"`
			Presence  string         `json:"presence,omitempty"`
			Username  string         `json:"username,omitempty"`
			Untrusted bool           `json:"untrusted"`
		}{text, segs, what, who, true})
	}
}

// Lines returns the last limit lines of the log, oldest first.
func (t *Talk) Lines(limit int) []Line {
	t.mu.Lock()
	defer t.mu.Unlock()
	all := t.log
	if len(all) > limit {
		all = all[len(all)-limit:]
	}
	return append([]Line(nil), all...)
}

// stamp is the timestamp of an outgoing chat message: now, in
// milliseconds, but never before the last one.
func (t *Talk) stamp() int64 {
	t.stampMu.Lock()
	defer t.stampMu.Unlock()
	t.lastStamp = max(t.s.Now().UnixMilli(), t.lastStamp)
	return t.lastStamp
}

// Say sends the parts of one message to public chat, in one batch, so
// they arrive together and in order.
func (t *Talk) Say(parts []string) error {
	out := make([]core.Out, len(parts))
	for i, p := range parts {
		msg := codec.ChatMessage{Message: p, Timestamp: t.stamp(), Salt: salt()}
		out[i] = core.Out{Packet: mcdata.ServerboundPlayChatMessage, Build: func(w *wire.Writer) { t.c.WriteChatMessage(w, msg) }}
	}
	return t.s.Batch(out...)
}

func salt() int64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return int64(binary.BigEndian.Uint64(b[:]))
}

// ReplyWait is how long a command waits for its reply: First for the first
// system line, then until Quiet passes without another, at most Total in
// all and Max lines.
type ReplyWait struct {
	First, Quiet, Total time.Duration
	Max                 int
}

// DefaultReplyWait is what mc_command and mc_whisper wait.
var DefaultReplyWait = ReplyWait{First: time.Second, Quiet: 200 * time.Millisecond, Total: 3 * time.Second, Max: 20}

// Command runs a command and waits for the server's reply: the system
// lines that follow it (see ReplyWait). Commands run one at a time, so a
// reply is not another command's.
func (t *Talk) Command(ctx context.Context, command string, wait ReplyWait) ([]Line, error) {
	t.cmdMu.Lock()
	defer t.cmdMu.Unlock()
	since := t.seqNow()
	if err := t.sendCommands(command); err != nil {
		return nil, err
	}
	return t.replies(ctx, since, wait, false), nil
}

// Whisper sends /msg to name with each part, under the command lock, and
// returns the first part's reply: it stops waiting as soon as the server
// confirms the whisper. The other parts go out (in one batch) only when the
// first was confirmed or met silence.
func (t *Talk) Whisper(ctx context.Context, name string, parts []string, wait ReplyWait) ([]Line, error) {
	t.cmdMu.Lock()
	defer t.cmdMu.Unlock()
	since := t.seqNow()
	if err := t.sendCommands("msg " + name + " " + parts[0]); err != nil {
		return nil, err
	}
	reply := t.replies(ctx, since, wait, true)
	confirmed := false
	for _, l := range reply {
		confirmed = confirmed || l.WhisperSent
	}
	if (confirmed || len(reply) == 0) && len(parts) > 1 {
		rest := make([]string, len(parts)-1)
		for i, p := range parts[1:] {
			rest[i] = "msg " + name + " " + p
		}
		if err := t.sendCommands(rest...); err != nil {
			return reply, err
		}
	}
	return reply, nil
}

func (t *Talk) sendCommands(commands ...string) error {
	out := make([]core.Out, len(commands))
	for i, cmd := range commands {
		out[i] = core.Out{Packet: mcdata.ServerboundPlayChatCommand, Build: func(w *wire.Writer) { t.c.WriteChatCommand(w, cmd) }}
	}
	return t.s.Batch(out...)
}

func (t *Talk) seqNow() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seq
}

// replies collects the system lines that arrive after line number since:
// nothing when none comes within First, else every line until Quiet passes
// without a new one (a multi-line reply such as help's). With untilWhisper
// it returns as soon as the server confirms the bot's whisper. It waits on
// the log's notifications, not by polling.
func (t *Talk) replies(ctx context.Context, since int, wait ReplyWait, untilWhisper bool) []Line {
	first := time.NewTimer(wait.First)
	defer first.Stop()
	total := time.NewTimer(wait.Total)
	defer total.Stop()
	quiet := time.NewTimer(wait.Quiet)
	quiet.Stop()
	defer quiet.Stop()
	var lines []Line
	seen := since
	for {
		changed := t.changed.Wait()
		t.mu.Lock()
		n := min(t.seq-seen, len(t.log)) // lines that scrolled out are gone
		fresh := append([]Line(nil), t.log[len(t.log)-n:]...)
		seen = t.seq
		t.mu.Unlock()
		confirmed, got := false, false
		for _, l := range fresh {
			if l.Kind == "system" && len(lines) < wait.Max {
				lines = append(lines, l)
				got = true
				confirmed = confirmed || l.WhisperSent
			}
		}
		switch {
		case untilWhisper && confirmed, len(lines) >= wait.Max:
			return lines
		case got:
			quiet.Reset(wait.Quiet)
		}
		select {
		case <-changed:
		case <-first.C:
			if len(lines) == 0 {
				return nil
			}
		case <-quiet.C:
			return lines
		case <-total.C:
			return lines
		case <-ctx.Done():
			return lines
		case <-t.s.Done():
			return lines
		}
	}
}
