package ui

import (
	"encoding/json"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/themes"
)

// world is a LAN world as the watcher announced it: api.LANWorld, the one
// definition of the event's payload, decoded from the event. Every text
// field came from the network and is cleaned before it is stored.
type world struct {
	api.LANWorld

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

// noWorldsAdvice speaks to the player while no world is listed. The
// console keeps listening, so it promises the world will appear rather
// than naming a time; typing works from any pane, so no key is needed for
// the port.
const noWorldsAdvice = "Open your world to LAN (Esc → Open to LAN → Start LAN World) and it appears here. Or type join and the port Minecraft shows in chat, such as join 51234."

// attachedWorldsAdvice speaks to the player of an attached console while
// no world is listed: the console shows another blockmate's bot, and only
// hears of the worlds that blockmate hears of.
const attachedWorldsAdvice = "This console shows the bot of the blockmate running there; it does not search the LAN itself. Worlds appear here when that blockmate hears of them: when it was started with --watch-lan, or when its program calls mc_discover_lan. To have the bot join a world, type join and the port Minecraft shows in chat, such as join 51234."

// joinWorldMsg asks the root to join a world.
type joinWorldMsg struct {
	Host string
	Port int
}

// worldsPane lists the LAN worlds found, those the bot can join first;
// Enter joins the selected one, or says why it cannot.
type worldsPane struct {
	styles  *themes.Styles
	keys    KeyMap
	width   int
	height  int
	focused bool
	worlds  []world
	cursor  int
	// problem is a failure of discovery itself (it cannot listen), in
	// words for the player; empty when discovery works.
	problem string
	now     func() time.Time
	// attached is the watch socket of the blockmate an attached console
	// shows; this console then does not search the LAN itself.
	attached string
}

// noticeMsg asks the root to show a remark for the player under the input
// line (full width, so a long one is readable), until the next key.
type noticeMsg struct{ Text string }

func newWorldsPane(s *themes.Styles, k KeyMap, now func() time.Time) worldsPane {
	return worldsPane{styles: s, keys: k, now: now}
}

func (p *worldsPane) SetSize(w, h int) { p.width, p.height = w, h }

// rank orders worlds for the list: joinable first, then those whose status
// is not known yet, then those the bot cannot join.
func (w world) rank() int {
	switch {
	case w.Compatible != nil && w.Joinable():
		return 0
	case w.Joinable():
		return 1
	}
	return 2
}

// applyEvent takes mc_lan_world_found and mc_lan_world_lost. The list is
// kept in rank order (stable, so worlds of one rank stay in the order they
// came) and the selection stays on the world it was on.
func (p *worldsPane) applyEvent(name string, payload json.RawMessage) {
	var w world
	if json.Unmarshal(payload, &w) != nil || w.Port <= 0 {
		return
	}
	w.Host, w.MOTD, w.Version, w.PingError = clean(w.Host), clean(w.MOTD), clean(w.Version), clean(w.PingError)
	w.seen = p.now()
	selected := ""
	if p.cursor < len(p.worlds) {
		selected = p.worlds[p.cursor].addr()
	}
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
	case name == "mc_lan_world_found" && idx >= 0:
		p.worlds[idx] = w
	case name == "mc_lan_world_found" && len(p.worlds) < 64:
		p.worlds = append(p.worlds, w)
	}
	sort.SliceStable(p.worlds, func(i, j int) bool { return p.worlds[i].rank() < p.worlds[j].rank() })
	p.cursor = min(p.cursor, max(len(p.worlds)-1, 0))
	for i, have := range p.worlds {
		if have.addr() == selected {
			p.cursor = i
		}
	}
}

// setDiscovery takes mc_discover_lan's reason when it found nothing. Its
// words are written for a program (they name tools and a listening window
// the console does not have), so only a failure of discovery itself (a
// reason saying it could not do something) is passed on to the player.
func (p *worldsPane) setDiscovery(found int, reason string) {
	reason = strings.TrimSpace(clean(reason))
	lower := strings.ToLower(reason)
	if found > 0 || !(strings.HasPrefix(lower, "could not") || strings.HasPrefix(lower, "cannot")) {
		p.problem = ""
		return
	}
	p.problem = "blockmate " + strings.TrimSuffix(reason, ".") + ", so worlds may not appear here: type join and the port instead."
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
			if !w.Joinable() {
				why := whyNotJoinable(w)
				return p, func() tea.Msg { return noticeMsg{Text: why} }
			}
			return p, func() tea.Msg { return joinWorldMsg{Host: w.Host, Port: w.Port} }
		}
	}
	return p, nil
}

// whyNotJoinable says, for the player, why Enter does not join a world and
// what to do instead.
func whyNotJoinable(w world) string {
	if w.PingError != "" {
		return fmt.Sprintf("%s did not answer when blockmate asked for its status (%s). Check that the world is still open to LAN and that no firewall blocks Java; it is listed again when it answers. To try anyway, type join %s.",
			orDefault(w.MOTD, "This world"), w.PingError, w.addr())
	}
	if w.NextStep != "" {
		return clean(w.NextStep)
	}
	return fmt.Sprintf("%s runs Minecraft %s, which this blockmate cannot join. To try anyway, type join %s.", orDefault(w.MOTD, "This world"), orDefault(w.Version, "of another version"), w.addr())
}

func (p worldsPane) ShortHelp() []key.Binding {
	if len(p.worlds) == 0 {
		return nil
	}
	return []key.Binding{p.keys.Join, p.keys.Up, p.keys.Down}
}

func (p worldsPane) FullHelp() [][]key.Binding {
	return [][]key.Binding{{p.keys.Join, p.keys.Up, p.keys.Down}}
}

func (p worldsPane) View() string {
	s := p.styles
	innerW := p.width - 4
	var lines []string
	switch {
	case len(p.worlds) == 0 && p.attached != "":
		for _, l := range wrapText("Attached to "+p.attached, innerW) {
			lines = append(lines, s.Muted.Render(l))
		}
		lines = append(lines, "")
		for _, l := range wrapText(attachedWorldsAdvice, innerW) {
			lines = append(lines, s.Text.Render(l))
		}
	case len(p.worlds) == 0:
		lines = append(lines, s.Muted.Render("Looking for worlds opened to LAN…"), "")
		for _, l := range wrapText(noWorldsAdvice, innerW) {
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
	if p.problem != "" {
		lines = append(lines, "")
		for _, l := range wrapText(p.problem, innerW) {
			lines = append(lines, s.Warn.Render(l))
		}
	}
	if len(p.worlds) > 0 {
		hint := "↑/↓ choose · enter joins"
		if !p.focused {
			// The keys above act only here; say how to get here, or what
			// to type where the person is.
			hint = "tab here, enter joins · or type join and its port"
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
