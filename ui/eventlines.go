package ui

// What one event looks like in the events pane and the overlay: its
// colour (the catalog's kind), its sentence (the catalog's), chat as chat.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// kindStyle colours an event by what it is about: its kind in the event
// catalog (the console's own lines are chat).
func kindStyle(s *themes.Styles, name string) lipgloss.Style {
	if name == ownChatEvent {
		return s.Event.Chat
	}
	spec, _ := protocol.EventSpecFor(name)
	switch spec.Kind {
	case protocol.KindChat:
		return s.Event.Chat
	case protocol.KindSystem:
		return s.Event.System
	case protocol.KindDanger:
		return s.Event.Danger
	case protocol.KindGood:
		return s.Event.Good
	case protocol.KindWorld:
		return s.Event.World
	case protocol.KindProgress:
		return s.Event.Progress
	case protocol.KindConnection:
		return s.Event.Conn
	}
	return s.Event.Other
}

// shortKind drops the mc_ prefix for display.
func shortKind(name string) string { return strings.TrimPrefix(clean(name), "mc_") }

// line is an event as its time and one sentence; selected marks the time
// of the event Enter would open.
func (p eventsPane) line(e protocol.Event, width int, selected bool) string {
	s := p.styles
	ts := s.Event.Time.Render(e.Time.In(p.loc).Format("15:04:05"))
	if selected {
		ts = s.Selected.Render(e.Time.In(p.loc).Format("15:04:05"))
	}
	return truncate(ts+" "+eventSentence(s, e), width)
}

// chatPayload is what chat events carry.
type chatPayload struct {
	Username string    `json:"username"`
	Message  string    `json:"message"`
	Segments []segment `json:"segments"`
}

// segment is one styled run of a chat component, as the bot sends it.
type segment struct {
	Text          string `json:"text"`
	Color         string `json:"color"`
	Bold          bool   `json:"bold"`
	Italic        bool   `json:"italic"`
	Underlined    bool   `json:"underlined"`
	Strikethrough bool   `json:"strikethrough"`
	Obfuscated    bool   `json:"obfuscated"`
}

// chatLine renders a chat event as the game shows chat.
func chatLine(s *themes.Styles, e protocol.Event) string {
	ks := kindStyle(s, e.Name)
	if e.Name == ownChatEvent {
		var o ownChat
		_ = json.Unmarshal(e.Payload, &o)
		if o.To != "" {
			return s.Event.Own.Render(clean(o.Username)+" whispers to "+clean(o.To)+":") + " " + s.Event.ChatText.Render(clean(o.Message))
		}
		return s.Event.Own.Render("<"+clean(o.Username)+">") + " " + s.Event.ChatText.Render(clean(o.Message))
	}
	var c chatPayload
	if json.Unmarshal(e.Payload, &c) != nil {
		return ks.Render(strings.ReplaceAll(shortKind(e.Name), "_", " "))
	}
	text := s.Event.ChatText.Render(clean(c.Message))
	if len(c.Segments) > 0 {
		text = renderSegments(s, c.Segments)
		// Segments that already name the sender are the whole line as the
		// game shows it ("<alex> hi"); show them alone.
		if c.Username != "" && strings.Contains(segmentText(c.Segments), c.Username) {
			return text
		}
	}
	switch {
	case e.Name == "mc_whisper":
		return ks.Render(clean(c.Username)+" whispers:") + " " + text
	case c.Username != "":
		return s.Event.ChatName.Render("<"+clean(c.Username)+">") + " " + text
	default:
		return text
	}
}

func segmentText(segs []segment) string {
	var b strings.Builder
	for _, sg := range segs {
		b.WriteString(sg.Text)
	}
	return b.String()
}

// renderSegments draws a chat component with its colours and styles, all
// mapped through the theme; obfuscated text is shown as a run of block
// characters of the same length, as the game shows it scrambled.
func renderSegments(s *themes.Styles, segs []segment) string {
	var b strings.Builder
	for i, sg := range segs {
		if i >= 64 {
			break
		}
		text := clean(sg.Text)
		if sg.Obfuscated {
			text = strings.Repeat("▒", len([]rune(text)))
		}
		b.WriteString(s.Segment(sg.Color, sg.Bold, sg.Italic, sg.Underlined, sg.Strikethrough).Render(text))
	}
	return b.String()
}

// eventSentence renders an event as one sentence for people, in every
// theme and in the overlay: the event catalog's sentence ("alex joined",
// "Streamy died", "World found: Eduard - Survival") in its kind's colour.
// Chat stays chat, in its own styles. It never shows a LAN address (the
// overlay is captured for an audience; the worlds pane and the details
// have the addresses). The details view (Enter) shows every field.
func eventSentence(s *themes.Styles, e protocol.Event) string {
	if isChat(e.Name) {
		return chatLine(s, e)
	}
	text := protocol.EventSentence(e)
	if e.Name == protocol.CallEventsDropped {
		var p struct {
			Count *int `json:"count"`
		}
		_ = json.Unmarshal(e.Payload, &p)
		text = "Some call events were missed"
		if p.Count != nil {
			text = fmt.Sprintf("%d call events were missed", *p.Count)
		}
		text += " (the console fell behind; the timeline may lack calls)"
	}
	return kindStyle(s, e.Name).Render(lanAddress.ReplaceAllString(text, "the world"))
}

// lanAddress matches an IPv4 address with or without a port, which a
// disconnect reason may carry; sentences for an audience leave it out.
var lanAddress = regexp.MustCompile(`\b\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?\b`)
