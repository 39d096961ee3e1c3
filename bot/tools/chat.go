package tools

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/blockmate/blockmate/bot/talk"
	"github.com/blockmate/blockmate/protocol"
)

var validName = regexp.MustCompile(`^[A-Za-z0-9_]{1,16}$`)

func (t *Tools) registerChat(c *protocol.Catalog) {
	c.Add(protocol.Tool{
		Name:        "mc_say",
		Description: "Says a message in public chat, as the bot. Longer than 256 characters, it is sent as several lines, together. Control characters and § are refused.",
		Args:        protocol.Schema{protocol.Str("message", "what to say").Req().Len(1, 2048)},
		Effect:      protocol.Write,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			msg, err := cleanMessage(a.String("message"))
			if err != nil {
				return nil, err
			}
			// The parts of one message go out as one batch: together, in
			// order, with no other message between them.
			parts := splitMessage(msg, 256)
			if err := w.Talk().Say(parts); err != nil {
				return nil, sendErr(err)
			}
			return struct {
				Said  bool `json:"said"`
				Lines int  `json:"lines"`
			}{true, len(parts)}, nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_whisper",
		Description: "Whispers a private message to one player online (the game's /msg; mc_list_players shows who is). Longer than 256 characters, it is sent as several whispers. " +
			"Answers whispered=true when the server confirms it (or, with a note, when the server says nothing), and whispered=false with the server's answer as reason when it answers anything else (no /msg, no such player).",
		Args: protocol.Schema{
			protocol.Str("username", "who to whisper to").Req().Len(1, 16),
			protocol.Str("message", "what to whisper").Req().Len(1, 2048),
		},
		Effect: protocol.Write,
		// reason quotes the server's answer, and a refusal lists the names
		// of the players online.
		UntrustedText: true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			type result struct {
				Whispered bool   `json:"whispered"`
				Reason    string `json:"reason,omitempty"`
				NextStep  string `json:"next_step,omitempty"`
				Note      string `json:"note,omitempty"`
			}
			to := a.String("username")
			if !validName.MatchString(to) {
				return nil, fmt.Errorf("%q is not a player name; call mc_list_players to see who is here", to)
			}
			msg, err := cleanMessage(a.String("message"))
			if err != nil {
				return nil, err
			}
			name, online := w.Players().Find(to)
			if !online {
				return nil, fmt.Errorf("%s is not online; players online: %s (mc_list_players lists them)", to, strings.Join(w.Players().Names(), ", "))
			}
			// The first whisper's reply tells whether the server took it:
			// vanilla confirms with the outgoing-whisper line; any other
			// answer is the server's reason for not taking it.
			reply, err := w.Talk().Whisper(ctx, name, splitMessage(msg, 256), talk.DefaultReplyWait)
			if err != nil {
				return nil, sendErr(err)
			}
			confirmed := false
			var other []string
			for _, l := range reply {
				if l.WhisperSent {
					confirmed = true
				} else {
					other = append(other, l.Text)
				}
			}
			switch {
			case confirmed:
				return result{Whispered: true}, nil
			case len(other) > 0:
				return result{Whispered: false, Reason: strings.Join(other, "\n"),
					NextStep: "reason is the server's answer to /msg; tell the player, or use mc_say to speak in public chat"}, nil
			}
			return result{Whispered: true, Note: "the server did not confirm the whisper within a second; it was sent, but may not have reached " + name}, nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_command",
		Description: "Runs a game command as the bot, e.g. \"time set day\" (the leading slash is optional). It acts with the bot's permissions: on a LAN world those are what the host allowed (cheats on or off). " +
			"Answers sent=true and, when the server answered within a second, its reply: the server's next system lines after the command, joined by newlines (commands run one at a time, so the reply is not another command's; on a busy server it may still include unrelated lines). " +
			"Without a reply, a note says so.",
		Args:          protocol.Schema{protocol.Str("command", "the command, with or without the leading /").Req().Len(1, 32000)},
		Effect:        protocol.Destructive,
		UntrustedText: true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			cmd := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(a.String("command")), "/"))
			if cmd == "" {
				return nil, errors.New("the command is empty; give it without the slash, e.g. \"time set day\"")
			}
			if _, err := cleanMessage(cmd); err != nil {
				return nil, err
			}
			reply, err := w.Talk().Command(ctx, cmd, talk.DefaultReplyWait)
			if err != nil {
				return nil, sendErr(err)
			}
			out := struct {
				Sent  bool   `json:"sent"`
				Reply string `json:"reply,omitempty"`
				Note  string `json:"note,omitempty"`
			}{Sent: true}
			lines := make([]string, len(reply))
			for i, l := range reply {
				lines[i] = l.Text
			}
			out.Reply = strings.Join(lines, "\n")
			if len(lines) == 0 {
				out.Note = "the server sent no reply within a second; the command may still have worked (many commands answer nothing): check its effect, e.g. with mc_status or mc_read_chat"
			}
			return out, nil
		},
	})
}
