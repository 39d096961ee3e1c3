package ui

// The console's layout and view: the panes' sizes, the title bar, the
// footer, the help and the overlay.

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
)

// layout sizes every pane for the window.
func (m *Model) layout() {
	w, h := m.width, m.height
	m.help.Width = w
	m.input.SetWidth(w)
	bodyH := h - 2 - m.input.Height()
	topH := max(bodyH/2, 11)
	leftW := max(w*2/5, 38)
	if !m.connected {
		leftW = w / 2
	}
	m.worlds.SetSize(leftW, topH)
	m.status.SetSize(leftW, topH)
	m.timeline.SetSize(w-leftW, topH)
	eventsW := w
	if mw := m.mapPaneWidth(); mw > 0 && m.worldMap.shown() {
		eventsW = w - mw
		m.worldMap.SetSize(mw, bodyH-topH)
	}
	m.events.SetSize(eventsW, bodyH-topH)
	m.timeline.SetDetailSize(w-4, bodyH-4)
	m.events.SetDetailSize(w-4, bodyH-4)
}

func (m Model) View() string {
	if m.width == 0 {
		return ""
	}
	if m.overlay {
		if m.width < MinOverlayWidth || m.height < MinOverlayHeight {
			return m.tooSmall(MinOverlayWidth, MinOverlayHeight)
		}
		return m.overlayView()
	}
	if m.width < MinWidth || m.height < MinHeight {
		return m.tooSmall(MinWidth, MinHeight)
	}
	bodyH := m.height - 2 - m.input.Height()
	var body string
	switch {
	case m.showHelp:
		body = m.helpView(bodyH)
	case m.timeline.Open():
		body = m.timeline.DetailView(m.width, bodyH)
	case m.events.Open():
		body = m.events.DetailView(m.width, bodyH)
	default:
		left := m.status.View(false)
		if !m.connected {
			left = m.worlds.View()
		}
		top := lipgloss.JoinHorizontal(lipgloss.Top, left, m.timeline.View())
		bottom := m.events.View()
		if m.connected && m.worldMap.shown() && m.mapPaneWidth() > 0 {
			bottom = lipgloss.JoinHorizontal(lipgloss.Top, bottom, m.worldMap.View())
		}
		body = top + "\n" + bottom
	}
	return strings.Join([]string{m.bar(), body, m.input.View(), m.footer()}, "\n")
}

// bar is the title line: who, where, theme.
func (m Model) bar() string {
	s := m.styles
	st := m.status.status
	conn := "not in a world"
	if !m.status.known && !m.opts.NoPoll {
		conn = "asking the bot…"
	}
	if m.connected {
		conn = "in " + orDefault(clean(st.Server), "a world")
		if st.Username != "" {
			conn = clean(st.Username) + " " + conn
		}
	}
	if m.quitting {
		conn = "leaving the world…"
	}
	left := s.BarTitle.Render(" blockmate ") + s.Bar.Render(" "+conn+" ")
	right := s.BarDim.Render(fmt.Sprintf(" theme %s · F1 help ", m.theme.Name))
	gap := m.width - lipgloss.Width(left) - lipgloss.Width(right)
	if gap < 0 {
		return padRight(left, m.width)
	}
	return left + s.Bar.Render(strings.Repeat(" ", gap)) + right
}

// focusedKeys is the help.KeyMap of the focused pane.
func (m Model) focusedKeys() help.KeyMap {
	switch {
	case m.focus == focusInput:
		return m.input
	case m.focus == focusTimeline:
		return m.timeline
	case m.focus == focusEvents:
		return m.events
	}
	return m.worlds
}

// footer is the keys that work now: the focused pane's, then the global
// ones. While a quit waits for its confirmation it says so instead.
func (m Model) footer() string {
	if m.confirmQuit {
		return padRight(m.styles.Warn.Render("ctrl+c again: leave the world and quit · any other key: stay"), m.width)
	}
	bindings := append(m.focusedKeys().ShortHelp(), m.keys.globalHelp()...)
	return padRight(m.help.ShortHelpView(bindings), m.width)
}

// focusedPaneTitle names the pane whose keys the help lists, as its frame
// is titled.
func (m Model) focusedPaneTitle() string { return m.focus.paneTitle() }

// helpText is what the full help says besides the keys: how typing works,
// what a refused line does, and where the theme is saved.
func (m Model) helpText() string {
	saved := "it is not saved (no settings file)."
	if m.opts.ConfigPath != "" {
		saved = "the choice is written to the settings file " + m.opts.ConfigPath + ", so the next start uses it too."
	}
	return "Whatever you type or paste, from any pane, goes to the input line; Enter sends it. " +
		"A pasted call waits there for Enter, even when it ends in a line break, so you can read it first. " +
		"The panes keep only keys that type nothing: arrows, PgUp/PgDn, Home/End, Enter and Esc. " +
		"Actions are on ctrl keys: ctrl+x stops what the bot is doing, ctrl+o switches to the compact overlay and back, " +
		"and ctrl+c quits (asking first while the bot is in a world). F1, or ? on an empty line, opens and closes this help.\n\n" +
		"A call that does not fit its tool is not sent: the reason shows under the line and the line stays, marked as refused. " +
		"Typing then replaces it (so new text never runs on from the refused text); ←/→ or backspace edit it instead, and ↑ brings it back.\n\n" +
		"ctrl+t switches the theme; " + saved
}

// helpLines are the full help: the focused pane's keys, the global keys,
// how typing works, and what the input line accepts.
func (m Model) helpLines() []string {
	s := m.styles
	groups := append(m.focusedKeys().FullHelp(), m.keys.globalFullHelp())
	var lines []string
	lines = append(lines, s.DocHeading.Render("Keys ("+m.focusedPaneTitle()+")"))
	lines = append(lines, strings.Split(m.help.FullHelpView(groups), "\n")...)
	lines = append(lines, "", s.DocHeading.Render("Typing, pasting, quitting"))
	w := max(m.width-4, 20)
	for _, para := range strings.Split(m.helpText(), "\n") {
		for _, l := range wrapText(para, w) {
			lines = append(lines, s.Doc.Render(l))
		}
	}
	lines = append(lines, "", s.DocHeading.Render("Typing a tool call"))
	for _, l := range strings.Split(shortFormHelp(m.backend.Catalog()), "\n") {
		lines = append(lines, s.Doc.Render(l))
	}
	return lines
}

// helpRows is how many help lines fit.
func (m Model) helpRows() int { return m.height - 2 - m.input.Height() - 2 }

func (m Model) helpView(h int) string {
	s := m.styles
	lines := m.helpLines()
	rows := h - 2
	title := "Help · esc or F1 closes"
	if len(lines) > rows {
		title += " · ↑/↓ scroll"
		end := min(m.helpOffset+rows, len(lines))
		lines = lines[min(m.helpOffset, end):end]
	}
	return frame(s.PaneFocused, s.PaneTitleFocused, title, lines, m.width, h)
}

func (m Model) tooSmall(minW, minH int) string {
	s := m.styles
	msg := fmt.Sprintf("blockmate needs a window of at least %d×%d; this one is %d×%d.", minW, minH, m.width, m.height)
	hint := "Make the window bigger"
	if !m.overlay {
		hint += ", or press ctrl+o for the compact overlay layout"
	}
	hint += ". ctrl+c quits."
	lines := append(wrapText(msg, m.width), wrapText(hint, m.width)...)
	for i, l := range lines {
		lines[i] = s.Warn.Render(l)
	}
	return strings.Join(fit(lines, m.width, min(m.height, len(lines))), "\n")
}

// overlayView is the compact layout for stream capture: status, current
// task, last events; no frames, no input line.
func (m Model) overlayView() string {
	s := m.styles
	w := m.width
	var lines []string
	lines = append(lines, s.OverlayTitle.Render("blockmate ")+m.status.connLine())
	st := m.status.status
	if st.Connected {
		lines = append(lines, s.Status.Label.Render("Health ")+m.status.hearts(st.Health, st.MaxHealth))
		lines = append(lines, s.Status.Label.Render("Food   ")+m.status.food(st.Food))
	}
	task := s.Muted.Render("idle")
	for i := len(m.timeline.calls) - 1; i >= 0; i-- {
		if c := m.timeline.calls[i]; !c.Done {
			name, args := taskText(m.status.progress, c.Key, c.Tool, c.Args), c.ArgsText
			if name != c.Tool {
				args = "" // the progress line names what the call works on
			}
			task = m.timeline.spinner.View() + " " + s.Timeline.Tool.Render(name) + " " + s.Timeline.Args.Render(args) +
				" " + s.Timeline.Duration.Render(formatDuration(m.now().Sub(c.Started)))
			break
		}
	}
	lines = append(lines, s.Status.Label.Render("Task ")+task)
	if walk := m.status.walkLine(); walk != "" {
		lines = append(lines, s.Status.Label.Render("Walk ")+walk)
	}
	// The map goes beside the status and events where the window is wide
	// enough for both.
	textW := w
	mapW, mapH := 0, 0
	if m.connected && m.worldMap.shown() {
		mapW, mapH = m.overlayMapSize()
	}
	if mapW > 0 {
		textW = w - mapW - 1
	}
	// The last line says how to get back: a person who pressed ctrl+o by
	// mistake, or types into this window, must not be left guessing.
	rest := m.height - len(lines) - 1
	for _, e := range m.events.tail(rest, 0) {
		lines = append(lines, m.events.line(e, textW, false))
	}
	lines = fit(lines, textW, m.height-1)
	if mapW > 0 {
		for i, l := range fit(m.worldMap.body(mapW, mapH), mapW, mapH) {
			lines[i] += " " + l
		}
	}
	back := "esc or ctrl+o: full console · ctrl+c: quit"
	if m.confirmQuit {
		back = "ctrl+c again leaves the world and quits"
	}
	lines = append(lines, padRight(s.Muted.Render(truncate(back, w)), w))
	return strings.Join(lines, "\n")
}
