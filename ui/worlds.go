package ui

import (
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/lan"
	"github.com/blockmate/blockmate/themes"
)

// world is a LAN world as the watcher announced it: lan.World, the one
// definition of the event's payload, decoded from the event. Every text
// field came from the network and is cleaned before it is stored.
type world struct {
	lan.World

	// seen is when the console last heard of the world's status.
	seen time.Time
}

func (w world) addr() string { return net.JoinHostPort(w.Host, strconv.Itoa(w.Port)) }

// worldAddr is the host:port a LAN world event is about.
func worldAddr(payload json.RawMessage) (string, bool) {
	var w world
	if json.Unmarshal(payload, &w) != nil || w.Port <= 0 {
		return "", false
	}
	w.Host = clean(w.Host)
	return w.addr(), true
}

// staleAfter is the age from which a world's player count is shown with
// how old it is.
const staleAfter = time.Minute

// noWorldsAdvice is shown until mc_discover_lan has answered with its own
// advice (which then replaces it, so the two never disagree for long).
const noWorldsAdvice = "No world opened to LAN has been seen yet. In Minecraft: Esc → Open to LAN → Start LAN World; it appears here within a few seconds. If it does not, press c and type the port Minecraft printed in chat."

// joinWorldMsg asks the root to join a world.
type joinWorldMsg struct {
	Host string
	Port int
}

// promptConnectMsg asks the root to open the input line for a host:port.
type promptConnectMsg struct{}

// worldsPane lists the LAN worlds found; Enter joins the selected one.
type worldsPane struct {
	styles  *themes.Styles
	keys    KeyMap
	width   int
	height  int
	focused bool
	worlds  []world
	cursor  int
	advice  string
	now     func() time.Time
}

func newWorldsPane(s *themes.Styles, k KeyMap, now func() time.Time) worldsPane {
	return worldsPane{styles: s, keys: k, advice: noWorldsAdvice, now: now}
}

func (p *worldsPane) SetSize(w, h int) { p.width, p.height = w, h }

// applyEvent takes mc_lan_world_found and mc_lan_world_lost.
func (p *worldsPane) applyEvent(name string, payload json.RawMessage) {
	var w world
	if json.Unmarshal(payload, &w) != nil || w.Port <= 0 {
		return
	}
	w.Host, w.MOTD, w.Version, w.PingError = clean(w.Host), clean(w.MOTD), clean(w.Version), clean(w.PingError)
	w.seen = p.now()
	idx := -1
	for i, have := range p.worlds {
		if have.Host == w.Host && have.Port == w.Port {
			idx = i
			break
		}
	}
	switch {
	case name == "mc_lan_world_lost" && idx >= 0:
		p.worlds = append(p.worlds[:idx], p.worlds[idx+1:]...)
		if p.cursor >= len(p.worlds) && p.cursor > 0 {
			p.cursor--
		}
	case name == "mc_lan_world_found" && idx >= 0:
		p.worlds[idx] = w
	case name == "mc_lan_world_found" && len(p.worlds) < 64:
		p.worlds = append(p.worlds, w)
	}
}

// setAdvice keeps mc_discover_lan's own advice for when nothing is found.
func (p *worldsPane) setAdvice(reason, next string) {
	reason, next = strings.TrimSpace(clean(reason)), strings.TrimSpace(clean(next))
	if reason == "" && next == "" {
		return
	}
	if reason != "" && !strings.ContainsAny(reason[len(reason)-1:], ".!?") {
		reason += "."
	}
	p.advice = strings.TrimSpace(reason+" "+next) + " (Here: press c to type host:port.)"
}

func (p worldsPane) Update(msg tea.Msg) (worldsPane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	switch {
	case key.Matches(km, p.keys.Up):
		if p.cursor > 0 {
			p.cursor--
		}
	case key.Matches(km, p.keys.Down):
		if p.cursor < len(p.worlds)-1 {
			p.cursor++
		}
	case key.Matches(km, p.keys.Join):
		if p.cursor < len(p.worlds) {
			w := p.worlds[p.cursor]
			return p, func() tea.Msg { return joinWorldMsg{Host: w.Host, Port: w.Port} }
		}
	case key.Matches(km, p.keys.Connect):
		return p, func() tea.Msg { return promptConnectMsg{} }
	}
	return p, nil
}

func (p worldsPane) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Join, p.keys.Connect, p.keys.Up, p.keys.Down}
}

func (p worldsPane) FullHelp() [][]key.Binding {
	return [][]key.Binding{p.ShortHelp(), p.keys.paneHelp()}
}

func (p worldsPane) View() string {
	s := p.styles
	innerW := p.width - 4
	var lines []string
	if len(p.worlds) == 0 {
		lines = append(lines, s.Muted.Render("Looking for worlds opened to LAN…"), "")
		for _, l := range wrapText(p.advice, innerW) {
			lines = append(lines, s.Text.Render(l))
		}
	}
	for i, w := range p.worlds {
		sel := "  "
		title := s.Text.Render(w.MOTD)
		if i == p.cursor {
			sel = s.Selected.Render(s.Glyphs.Selector) + " "
			title = s.Selected.Render(w.MOTD)
		}
		lines = append(lines, sel+title)
		for _, d := range p.detail(w) {
			lines = append(lines, "  "+d)
		}
	}
	if len(p.worlds) > 0 {
		hint := "enter joins · c joins another host:port"
		if !p.focused {
			// The keys above act only here; say how to get here, or what
			// to type where the person is.
			hint = "tab to here, then enter joins · or type join host:port"
		}
		lines = append(lines, "", s.Muted.Render(truncate(hint, innerW)))
	}
	style, titleStyle := s.Pane, s.PaneTitle
	if p.focused {
		style, titleStyle = s.PaneFocused, s.PaneTitleFocused
	}
	return frame(style, titleStyle, fmt.Sprintf("Worlds (%d)", len(p.worlds)), lines, p.width, p.height)
}

// detail is a world's address, version and players, then whether the bot
// can join it.
func (p worldsPane) detail(w world) []string {
	s := p.styles
	sep := s.Muted.Render(" · ")
	parts := []string{s.Info.Render(w.addr())}
	if w.Version != "" {
		parts = append(parts, s.Muted.Render(w.Version))
	}
	if w.PlayersOnline != nil {
		players := strconv.Itoa(*w.PlayersOnline)
		if w.PlayersMax != nil {
			players += "/" + strconv.Itoa(*w.PlayersMax)
		}
		players += " players"
		if age := p.now().Sub(w.seen); !w.seen.IsZero() && age >= staleAfter {
			players += " " + ago(age)
		}
		parts = append(parts, s.Muted.Render(players))
	}
	var second []string
	if w.Compatible != nil {
		if *w.Compatible {
			second = append(second, s.Good.Render(s.Glyphs.Compatible+" can join"))
		} else {
			second = append(second, s.Bad.Render(s.Glyphs.Incompatible+" version not supported"))
		}
	}
	if w.IsLocalMachine {
		second = append(second, s.Muted.Render("this computer"))
	}
	if w.PingError != "" {
		second = append(second, s.Warn.Render(w.PingError))
	}
	out := []string{strings.Join(parts, sep)}
	if len(second) > 0 {
		out = append(out, strings.Join(second, sep))
	}
	return out
}

// ago says how long ago, roughly: "2 min ago", "1 h ago".
func ago(d time.Duration) string {
	if d < time.Hour {
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	}
	return fmt.Sprintf("%d h ago", int(d/time.Hour))
}
