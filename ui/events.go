package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// maxEvents bounds the event history; older events fall off.
const maxEvents = 2000

// filterChat is the pseudo-kind that matches every chat event.
const filterChat = "chat"

// ownChatEvent is the console's own entry for a line the bot said: the bot
// emits no event for its own chat (a conversation would show one side), so
// when mc_say or mc_whisper succeeds, from any transport, the console adds
// the line itself. It has no mc_ prefix, so it can never be taken for an
// event of the catalog.
const ownChatEvent = "said"

// ownChat is the payload of an ownChatEvent.
type ownChat struct {
	Username string `json:"username"`
	Message  string `json:"message"`
	// To is whom it was whispered to; empty for public chat.
	To string `json:"to,omitempty"`
	// Call is the id of the call that said it, and Origin who made it.
	Call   string          `json:"call"`
	Origin protocol.Origin `json:"origin,omitempty"`
}

// sameNewsWithin is how close in time a player's join event and the
// server's "joined the game" line must be to be told once.
const sameNewsWithin = 10 * time.Second

// eventsPane is the event stream: every event, newest at the bottom, one
// sentence each; Enter opens one in full.
type eventsPane struct {
	styles  *themes.Styles
	keys    KeyMap
	loc     *time.Location
	width   int
	height  int
	focused bool

	entries []protocol.Event
	// sel is the selected event and back the bottom row of the view, each
	// counted in matching events back from the newest: both 0 follow the
	// tail, and every new event is shown as it comes.
	sel, back int
	// unseen counts matching events that came while not following, for
	// the title's "↓ N new".
	unseen int
	// kinds are the event kinds seen, in the order they first came: the
	// filter cycles through these only.
	kinds   []string
	filter  string // "" (all), filterChat, or a kind
	dropped int

	detail      detailView
	detailEvent protocol.Event
}

func newEventsPane(s *themes.Styles, k KeyMap, loc *time.Location) eventsPane {
	return eventsPane{styles: s, keys: k, loc: loc, detail: newDetailView()}
}

func (p *eventsPane) SetSize(w, h int) { p.width, p.height = w, h }

// SetDetailSize sizes the full view of one event.
func (p *eventsPane) SetDetailSize(w, h int) {
	p.detail.setSize(w, h)
	if p.detail.open {
		p.detail.refresh(p.detailText(p.detailEvent))
	}
}

func isChat(name string) bool {
	return name == "mc_player_chat" || name == "mc_whisper" || name == "mc_system_chat" || name == ownChatEvent
}

func (p eventsPane) matches(name string) bool {
	switch p.filter {
	case "":
		return true
	case filterChat:
		return isChat(name)
	}
	return name == p.filter
}

// filters are the choices the kind filter cycles through: all, chat once
// any chat was seen, then each kind seen.
func (p eventsPane) filters() []string {
	out := []string{""}
	for _, k := range p.kinds {
		if isChat(k) {
			out = append(out, filterChat)
			break
		}
	}
	return append(out, p.kinds...)
}

// Following reports whether the view is at the tail.
func (p eventsPane) Following() bool { return p.sel == 0 && p.back == 0 }

// add appends a batch, keeping at most maxEvents. A view scrolled away from
// the tail stays on the same events and counts what came; one at the tail
// follows.
func (p *eventsPane) add(evs []protocol.Event, dropped int) {
	p.dropped += dropped
	kept := evs[:0:0]
	for _, e := range evs {
		if p.sameNews(e, kept) {
			continue
		}
		if p.updateProgress(e, kept) {
			continue
		}
		kept = append(kept, e)
		if !slices.Contains(p.kinds, e.Name) && len(p.kinds) < 64 && e.Name == clean(e.Name) {
			p.kinds = append(p.kinds, e.Name)
		}
		if !p.Following() && p.matches(e.Name) {
			p.sel++
			p.back++
			p.unseen++
		}
	}
	evs = kept
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
	p.clamp()
}

// progressLookBack is how far back updateProgress looks for a call's
// progress line.
const progressLookBack = 64

// updateProgress changes a call's progress line in place: an
// mc_task_progress of a call that has one among the last events (or in
// the batch being added, pending) replaces it there instead of adding a
// line each second.
func (p *eventsPane) updateProgress(e protocol.Event, pending []protocol.Event) bool {
	id := progressID(e)
	if id == "" {
		return false
	}
	for i := len(pending) - 1; i >= 0; i-- {
		if progressID(pending[i]) == id {
			pending[i] = e
			return true
		}
	}
	for i := len(p.entries) - 1; i >= 0 && i >= len(p.entries)-progressLookBack; i-- {
		if progressID(p.entries[i]) == id {
			p.entries[i] = e
			return true
		}
	}
	return false
}

// progressID is the call id of an mc_task_progress event, "" for other
// events.
func progressID(e protocol.Event) string {
	if e.Name != "mc_task_progress" {
		return ""
	}
	var pr taskProgress
	if json.Unmarshal(e.Payload, &pr) != nil {
		return ""
	}
	return pr.ID
}

// sameNews tells a player's arrival (or leaving) once: the bot's
// mc_player_joined and the server's "alex joined the game" line are the
// same news. Whichever comes second is absorbed: a server line after the
// event is dropped; an event after the server line takes the line's place.
// pending are the events of the batch being added, not yet in entries.
func (p *eventsPane) sameNews(e protocol.Event, pending []protocol.Event) bool {
	for _, pr := range []struct{ event, presence string }{{"mc_player_joined", "joined"}, {"mc_player_left", "left"}} {
		var name string
		lineEvent := false
		switch e.Name {
		case pr.event:
			if name = usernameOf(e); name == "" {
				continue
			}
		case "mc_system_chat":
			// The bot says which system lines are a player's coming or
			// going (presence and username in the payload).
			what, who := presenceOf(e)
			if what != pr.presence || who == "" {
				continue
			}
			name, lineEvent = who, true
		default:
			continue
		}
		// The last 64 events, newest first: the batch's, then the pane's.
		for i := 0; i < 64; i++ {
			var old *protocol.Event
			if i < len(pending) {
				old = &pending[len(pending)-1-i]
			} else if j := i - len(pending); j < len(p.entries) {
				old = &p.entries[len(p.entries)-1-j]
			} else {
				break
			}
			if absDuration(e.Time.Sub(old.Time)) > sameNewsWithin {
				continue
			}
			switch {
			case lineEvent && old.Name == pr.event && usernameOf(*old) == name:
				return true
			case !lineEvent && old.Name == "mc_system_chat":
				if what, who := presenceOf(*old); what == pr.presence && who == name {
					*old = e
					return true
				}
			}
		}
	}
	return false
}

// presenceOf is what a system line's payload says of a player coming or
// going: "joined" or "left", and whom.
func presenceOf(e protocol.Event) (what, username string) {
	var pl struct {
		Presence string `json:"presence"`
		Username string `json:"username"`
	}
	_ = json.Unmarshal(e.Payload, &pl)
	return pl.Presence, pl.Username
}

func usernameOf(e protocol.Event) string {
	var pl struct {
		Username string `json:"username"`
	}
	_ = json.Unmarshal(e.Payload, &pl)
	return pl.Username
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func (p eventsPane) matching() int {
	if p.filter == "" {
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

// clamp keeps the selection among the events and in view.
func (p *eventsPane) clamp() {
	rows := p.visibleRows()
	p.sel = min(max(p.sel, 0), max(p.matching()-1, 0))
	p.back = min(max(p.back, 0), p.maxBack())
	if p.sel < p.back {
		p.back = p.sel
	}
	if p.sel > p.back+rows-1 {
		p.back = p.sel - rows + 1
	}
	if p.Following() {
		p.unseen = 0
	}
}

// scroll moves the view and the selection by n events, up for positive n;
// the input line's PgUp/PgDn use it.
func (p *eventsPane) scroll(n int) {
	p.sel += n
	p.back += n
	p.clamp()
}

// page is how far PgUp/PgDn move.
func (p eventsPane) page() int { return max(p.visibleRows()-1, 1) }

func (p eventsPane) Update(msg tea.Msg) (eventsPane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	if p.detail.open {
		var cmd tea.Cmd
		p.detail, cmd = p.detail.update(km, p.keys)
		return p, cmd
	}
	switch {
	case key.Matches(km, p.keys.Up):
		p.sel++
	case key.Matches(km, p.keys.Down):
		p.sel--
	case key.Matches(km, p.keys.PageUp):
		p.scroll(p.page())
	case key.Matches(km, p.keys.PageDown):
		p.scroll(-p.page())
	case key.Matches(km, p.keys.Top):
		p.sel, p.back = p.matching()-1, p.maxBack()
	case key.Matches(km, p.keys.Bottom):
		p.sel, p.back = 0, 0
	case key.Matches(km, p.keys.NextKind), key.Matches(km, p.keys.PrevKind):
		step := 1
		if key.Matches(km, p.keys.PrevKind) {
			step = -1
		}
		fs := p.filters()
		i := max(slices.Index(fs, p.filter), 0)
		p.filter = fs[(i+step+len(fs))%len(fs)]
		p.sel, p.back, p.unseen = 0, 0, 0
	case key.Matches(km, p.keys.Select):
		if e, ok := p.selected(); ok {
			p.detailEvent = e
			p.detail.show(p.detailText(e))
		}
	}
	p.clamp()
	return p, nil
}

// selected is the event the selection is on.
func (p eventsPane) selected() (protocol.Event, bool) {
	evs := p.tail(1, p.sel)
	if len(evs) == 0 {
		return protocol.Event{}, false
	}
	return evs[0], true
}

// Open reports whether one event is shown in full.
func (p eventsPane) Open() bool { return p.detail.open }

// Filter is the kind shown, "" for all.
func (p eventsPane) Filter() string { return p.filter }

func (p eventsPane) ShortHelp() []key.Binding {
	if p.detail.open {
		return []key.Binding{p.keys.Back, p.keys.Up, p.keys.Down}
	}
	return []key.Binding{p.keys.Select, p.keys.NextKind, p.keys.Up, p.keys.Bottom}
}

func (p eventsPane) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{p.keys.Select, p.keys.Back, p.keys.NextKind, p.keys.PrevKind},
		{p.keys.Up, p.keys.Down, p.keys.PageUp, p.keys.PageDown, p.keys.Top, p.keys.Bottom},
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
	evs := p.tail(rows, p.back)
	var lines []string
	for i, e := range evs {
		selected := p.focused && len(evs)-1-i == p.sel-p.back
		lines = append(lines, p.line(e, w, selected))
	}
	if len(lines) == 0 {
		lines = append(lines, s.Muted.Render("No events yet. Chat, damage, players coming and going and LAN worlds show up here."))
	}
	title := "Events"
	if p.filter != "" {
		title += " · " + shortKind(p.filter)
	}
	if p.back > 0 {
		title += fmt.Sprintf(" · ↑%d", p.back)
	}
	if p.unseen > 0 {
		title += fmt.Sprintf(" · ↓ %d new", p.unseen)
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

// DetailView is one event in full: its sentence, when and what it is, and
// every field of its payload.
func (p eventsPane) DetailView(w, h int) string {
	return p.detail.view(p.styles, "Event · "+shortKind(p.detailEvent.Name), w, h)
}

// untrustedKind reports whether an event's payload can carry text someone
// else wrote (a player, a server operator, a world's owner): the catalog's
// word for it, the one place that says so.
func untrustedKind(name string) bool {
	spec, ok := protocol.EventSpecFor(name)
	return ok && spec.UntrustedText
}

func (p eventsPane) detailText(e protocol.Event) string {
	s := p.styles
	w := p.detail.width()
	var b strings.Builder
	for _, l := range wrapText(ansi.Strip(eventSentence(s, e)), max(w, 8)) {
		b.WriteString(s.Doc.Render(l) + "\n")
	}
	b.WriteString("\n")
	b.WriteString(s.Muted.Render("at "+e.Time.In(p.loc).Format("2006-01-02 15:04:05")+" · kind "+clean(e.Name)) + "\n")
	switch {
	case e.Name == ownChatEvent:
		for _, l := range wrapText("The bot's own line: the bot sends no event for what it says, so the console shows the line when the call that said it succeeds.", max(w, 8)) {
			b.WriteString(s.Muted.Render(l) + "\n")
		}
	case untrustedKind(e.Name):
		for _, l := range wrapText("Text in it was written by someone else (a player, a server, a world's owner): it is shown as data, never acted on.", max(w, 8)) {
			b.WriteString(s.Muted.Render(l) + "\n")
		}
	}
	b.WriteString("\n" + s.DocHeading.Render("Fields") + "\n")
	payload := any(json.RawMessage(`{}`))
	if len(e.Payload) > 0 && json.Valid(e.Payload) {
		payload = json.RawMessage(e.Payload)
	}
	b.WriteString(s.Doc.Render(wrapBlock(indentJSON(payload), w)) + "\n")
	return b.String()
}
