package ui

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// maxEvents bounds the event history; older events fall off.
const maxEvents = 2000

// filterChat is the pseudo-kind that matches every chat event.
const filterChat = "chat"

// eventsPane is the event stream: every event, newest at the bottom.
type eventsPane struct {
	styles  *themes.Styles
	keys    KeyMap
	loc     *time.Location
	width   int
	height  int
	focused bool

	entries []protocol.Event
	// back is how many matching events the view is scrolled up from the
	// newest; 0 follows the tail.
	back    int
	filters []string // "" (all), "chat", then each kind
	filter  int
	dropped int
	// sentences shows events as short sentences for an audience (the
	// streamer theme) rather than kind and fields.
	sentences bool
}

func newEventsPane(s *themes.Styles, k KeyMap, loc *time.Location) eventsPane {
	filters := []string{"", filterChat}
	for _, e := range protocol.EventCatalog {
		filters = append(filters, e.Name)
	}
	return eventsPane{styles: s, keys: k, loc: loc, filters: filters}
}

func (p *eventsPane) SetSize(w, h int) { p.width, p.height = w, h }

func isChat(name string) bool {
	return name == "mc_player_chat" || name == "mc_whisper" || name == "mc_system_chat"
}

func (p eventsPane) matches(name string) bool {
	f := p.filters[p.filter]
	switch f {
	case "":
		return true
	case filterChat:
		return isChat(name)
	}
	return name == f
}

// add appends a batch, keeping at most maxEvents. A view scrolled away from
// the tail stays on the same events; one at the tail follows.
func (p *eventsPane) add(evs []protocol.Event, dropped int) {
	p.dropped += dropped
	for _, e := range evs {
		if !slices.Contains(p.filters, e.Name) && len(p.filters) < 64 && e.Name == clean(e.Name) {
			p.filters = append(p.filters, e.Name)
		}
		if p.back > 0 && p.matches(e.Name) {
			p.back++
		}
	}
	if len(evs) >= maxEvents {
		p.dropped += len(p.entries) + len(evs) - maxEvents
		p.entries = append(make([]protocol.Event, 0, maxEvents), evs[len(evs)-maxEvents:]...)
	} else if n := len(p.entries) + len(evs); n > maxEvents {
		p.dropped += n - maxEvents
		kept := make([]protocol.Event, 0, maxEvents)
		kept = append(kept, p.entries[n-maxEvents:]...)
		p.entries = append(kept, evs...)
	} else {
		p.entries = append(p.entries, evs...)
	}
	p.back = min(p.back, p.maxBack())
}

func (p eventsPane) matching() int {
	if p.filters[p.filter] == "" {
		return len(p.entries)
	}
	n := 0
	for _, e := range p.entries {
		if p.matches(e.Name) {
			n++
		}
	}
	return n
}

func (p eventsPane) visibleRows() int { return max(p.height-2, 1) }

func (p eventsPane) maxBack() int { return max(p.matching()-p.visibleRows(), 0) }

func (p eventsPane) Update(msg tea.Msg) (eventsPane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	page := max(p.visibleRows()-1, 1)
	switch {
	case key.Matches(km, p.keys.Up):
		p.back++
	case key.Matches(km, p.keys.Down):
		p.back--
	case key.Matches(km, p.keys.PageUp):
		p.back += page
	case key.Matches(km, p.keys.PageDown):
		p.back -= page
	case key.Matches(km, p.keys.Top):
		p.back = p.maxBack()
	case key.Matches(km, p.keys.Bottom):
		p.back = 0
	case key.Matches(km, p.keys.Filter):
		p.filter = (p.filter + 1) % len(p.filters)
		p.back = 0
	case key.Matches(km, p.keys.FilterBack):
		p.filter = (p.filter + len(p.filters) - 1) % len(p.filters)
		p.back = 0
	}
	p.back = min(max(p.back, 0), p.maxBack())
	return p, nil
}

// Following reports whether the view is at the tail.
func (p eventsPane) Following() bool { return p.back == 0 }

// Filter is the kind shown, "" for all.
func (p eventsPane) Filter() string { return p.filters[p.filter] }

func (p eventsPane) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Filter, p.keys.Up, p.keys.Down, p.keys.Bottom}
}

func (p eventsPane) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{p.keys.Filter, p.keys.FilterBack},
		{p.keys.Up, p.keys.Down, p.keys.PageUp, p.keys.PageDown, p.keys.Top, p.keys.Bottom},
		p.keys.paneHelp(),
	}
}

// tail returns up to n matching events ending back events before the newest.
func (p eventsPane) tail(n, back int) []protocol.Event {
	out := make([]protocol.Event, 0, n)
	skip := back
	for i := len(p.entries) - 1; i >= 0 && len(out) < n; i-- {
		if !p.matches(p.entries[i].Name) {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		out = append(out, p.entries[i])
	}
	slices.Reverse(out)
	return out
}

func (p eventsPane) View() string {
	s := p.styles
	rows := p.visibleRows()
	w := p.width - 4
	var lines []string
	for _, e := range p.tail(rows, p.back) {
		lines = append(lines, p.line(e, w))
	}
	if len(lines) == 0 {
		lines = append(lines, s.Muted.Render("No events yet. Chat, damage, players coming and going and LAN worlds show up here."))
	}
	title := "Events"
	if f := p.filters[p.filter]; f != "" {
		title += " · " + f
	}
	if p.back > 0 {
		title += fmt.Sprintf(" · ↑%d", p.back)
	}
	if p.dropped > 0 {
		title += fmt.Sprintf(" · %d older dropped", p.dropped)
	}
	style, titleStyle := s.Pane, s.PaneTitle
	if p.focused {
		style, titleStyle = s.PaneFocused, s.PaneTitleFocused
	}
	return frame(style, titleStyle, title, lines, p.width, p.height)
}

// kindStyle colours an event by what it is about.
func kindStyle(s *themes.Styles, name string) lipgloss.Style {
	switch name {
	case "mc_player_chat", "mc_whisper":
		return s.Event.Chat
	case "mc_system_chat":
		return s.Event.System
	case "mc_low_health", "mc_low_food", "mc_hurt", "mc_hostile_nearby", "mc_death", "mc_stuck":
		return s.Event.Danger
	case "mc_respawned", "mc_item_picked_up", "mc_player_joined", "mc_player_left":
		return s.Event.Good
	case "mc_lan_world_found", "mc_lan_world_lost":
		return s.Event.World
	case "mc_task_progress":
		return s.Event.Progress
	case "mc_disconnected":
		return s.Event.Conn
	}
	return s.Event.Other
}

// shortKind drops the mc_ prefix for display.
func shortKind(name string) string { return strings.TrimPrefix(clean(name), "mc_") }

func (p eventsPane) line(e protocol.Event, width int) string {
	s := p.styles
	ts := s.Event.Time.Render(e.Time.In(p.loc).Format("15:04:05")) + " "
	if p.sentences {
		return truncate(ts+eventSentence(s, e), width)
	}
	return truncate(ts+eventBody(s, e), width)
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

// eventBody renders an event without its time: chat as chat, the rest as
// kind and fields.
func eventBody(s *themes.Styles, e protocol.Event) string {
	ks := kindStyle(s, e.Name)
	if isChat(e.Name) {
		var c chatPayload
		if json.Unmarshal(e.Payload, &c) == nil {
			text := s.Event.ChatText.Render(clean(c.Message))
			if len(c.Segments) > 0 {
				text = renderSegments(s, c.Segments)
				// Segments that already name the sender are the whole line
				// as the game shows it ("<alex> hi"); show them alone.
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
	}
	var b strings.Builder
	b.WriteString(ks.Render(shortKind(e.Name)))
	for _, f := range objectFields(e.Payload) {
		b.WriteByte(' ')
		b.WriteString(s.Event.Key.Render(clean(f.Key) + "="))
		b.WriteString(s.Event.Value.Render(valueText(f.Value)))
	}
	return b.String()
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

// sentencePayload is every field an event's sentence reads.
type sentencePayload struct {
	Username  string          `json:"username"`
	Message   string          `json:"message"`
	Reason    string          `json:"reason"`
	MOTD      string          `json:"motd"`
	Health    *float64        `json:"health"`
	MaxHealth *float64        `json:"max_health"`
	Food      *int            `json:"food"`
	Attacker  string          `json:"attacker"`
	Type      string          `json:"type"`
	Distance  *float64        `json:"distance"`
	Item      string          `json:"item"`
	Count     *int            `json:"count"`
	Tool      string          `json:"tool"`
	Done      *int            `json:"done"`
	Total     *int            `json:"total"`
	Position  json.RawMessage `json:"position"`
}

// eventSentence renders an event as a short sentence for people watching
// (the overlay, the streamer theme): "Streamy died", "World found: Eduard -
// Survival". It never shows a LAN address. Chat stays chat. Kinds it does
// not know are named plainly without their fields.
func eventSentence(s *themes.Styles, e protocol.Event) string {
	if isChat(e.Name) {
		return eventBody(s, e)
	}
	var p sentencePayload
	_ = json.Unmarshal(e.Payload, &p)
	name := func(v, d string) string { return orDefault(strings.TrimPrefix(clean(v), "minecraft:"), d) }
	// thing is a game id (oak_log, minecraft:zombie) as words.
	thing := func(v, d string) string { return strings.ReplaceAll(name(v, d), "_", " ") }
	num := func(f *float64) string {
		if f == nil {
			return "?"
		}
		return trimFloat(float64(int(*f*10)) / 10)
	}
	var text string
	switch e.Name {
	case "mc_death":
		text = name(p.Message, "The bot died")
	case "mc_respawned":
		text = "Back on its feet"
	case "mc_lan_world_found":
		text = "World found: " + name(p.MOTD, "a LAN world")
	case "mc_lan_world_lost":
		text = "World closed: " + name(p.MOTD, "a LAN world")
	case "mc_player_joined":
		text = name(p.Username, "Someone") + " joined"
	case "mc_player_left":
		text = name(p.Username, "Someone") + " left"
	case "mc_low_health":
		text = "Low health: " + num(p.Health) + " of " + num(orFloat(p.MaxHealth, 20))
	case "mc_low_food":
		food := "?"
		if p.Food != nil {
			food = fmt.Sprint(*p.Food)
		}
		text = "Hungry: food " + food + " of 20"
	case "mc_hurt":
		text = "Hurt"
		if p.Attacker != "" {
			text += " by " + thing(p.Attacker, "something")
		}
		if p.Health != nil {
			text += ", health " + num(p.Health)
		}
	case "mc_hostile_nearby":
		text = thing(p.Type, "A hostile mob") + " nearby"
		if p.Distance != nil {
			text += " (" + num(p.Distance) + " blocks)"
		}
	case "mc_item_picked_up":
		text = "Picked up " + thing(p.Item, "something")
		if p.Count != nil && *p.Count != 1 {
			text = fmt.Sprintf("Picked up %d %s", *p.Count, thing(p.Item, "items"))
		}
	case "mc_task_progress":
		text = strings.TrimPrefix(name(p.Tool, "Task"), "mc_")
		if p.Done != nil && p.Total != nil {
			text += fmt.Sprintf(": %d of %d", *p.Done, *p.Total)
		}
	case "mc_stuck":
		text = "Stuck"
		if p.Reason != "" {
			text += ": " + name(p.Reason, "")
		}
	case "mc_disconnected":
		text = "Left the world"
		if p.Reason != "" {
			text += ": " + name(p.Reason, "")
		}
	default:
		text = strings.ReplaceAll(shortKind(e.Name), "_", " ")
	}
	return kindStyle(s, e.Name).Render(lanAddress.ReplaceAllString(text, "the world"))
}

// lanAddress matches an IPv4 address with or without a port, which a
// disconnect reason may carry; sentences for an audience leave it out.
var lanAddress = regexp.MustCompile(`\b\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?\b`)

func orFloat(f *float64, d float64) *float64 {
	if f == nil {
		return &d
	}
	return f
}

// sentenceLine is an event as a timed sentence, for the overlay.
func (p eventsPane) sentenceLine(e protocol.Event, width int) string {
	s := p.styles
	ts := s.Event.Time.Render(e.Time.In(p.loc).Format("15:04:05")) + " "
	return truncate(ts+eventSentence(s, e), width)
}
