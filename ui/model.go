// Package ui is blockmate's console: a Bubble Tea program with one root
// model that owns focus and layout, and plain panes (worlds, status, event
// stream, tool-call timeline, input line) whose Update returns their own
// type. Every tool call goes through the same protocol.Dispatcher as the
// sidecar; the console never talks to the network itself.
package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// Sizes below which the layouts do not fit; a message says so instead.
const (
	MinWidth, MinHeight               = 80, 24
	MinOverlayWidth, MinOverlayHeight = 36, 8
)

// statusEvery is how often the status pane asks mc_status (3 Hz).
const statusEvery = 333 * time.Millisecond

// DefaultUsername is the bot's name when neither flag nor config names
// one: the bot's own default, so the console and the sidecar agree.
const DefaultUsername = bot.DefaultUsername

// Options configure the console.
type Options struct {
	Dispatcher *protocol.Dispatcher
	Theme      themes.Theme
	// Overlay starts in the compact layout for stream capture.
	Overlay bool
	// Username is the name the bot joins with.
	Username string
	// Connect, as host:port, joins that world at start.
	Connect string
	// Leave is called on quit after mc_leave, to stop background work; may be nil.
	Leave func(ctx context.Context)
	// Context bounds every call the console makes; nil means Background.
	Context context.Context
	// Now and Location make views reproducible in tests; nil means the clock
	// and the local time zone.
	Now      func() time.Time
	Location *time.Location
	// NoPoll turns off the status poll and LAN discovery at start, for
	// tests that feed the status themselves.
	NoPoll bool
	// ConfigPath is the settings file a theme switched at run time is saved
	// to; empty means nothing is saved.
	ConfigPath string
}

type focusID int

const (
	focusWorlds focusID = iota
	focusTimeline
	focusEvents
	focusInput
)

func (f focusID) String() string {
	return [...]string{"worlds", "timeline", "events", "input"}[f]
}

// Messages the root handles.
type (
	// batchMsg is what the pump gathered in one tick.
	batchMsg struct {
		Events  []protocol.Event
		Calls   []protocol.CallEvent
		Dropped int // events the pump let go to stay bounded
		// DroppedCalls are call events the observer queue had no room
		// for; the console's own calls still finish from their results.
		DroppedCalls int
	}
	// callDoneMsg is the response to a call the console made.
	callDoneMsg struct {
		Key      string
		Response protocol.Response
		Duration time.Duration
	}
	statusTickMsg struct{}
	statusMsg     struct {
		Status bot.Status
		Err    string
	}
	// configSavedMsg says how saving the settings went.
	configSavedMsg struct{ Err error }
	discoverMsg    struct {
		Reason, NextStep string
		Worlds           []world
	}
	leftMsg struct{}
)

// Model is the console's root model.
type Model struct {
	opts   Options
	ctx    context.Context
	now    func() time.Time
	theme  themes.Theme
	styles *themes.Styles
	keys   KeyMap
	help   help.Model

	worlds   worldsPane
	status   statusPane
	events   eventsPane
	timeline timelinePane
	input    inputPane

	focus    focusID
	width    int
	height   int
	showHelp bool
	// helpOffset is how far the full help is scrolled.
	helpOffset int
	overlay    bool
	quitting   bool
	connected  bool
	polling    bool
	nextID     int
	// announced are the LAN worlds (host:port) whose mc_lan_world_found is
	// already in the event stream; later status changes of the same world
	// update the worlds pane quietly.
	announced map[string]bool
}

// New builds the console's model.
func New(opts Options) Model {
	if opts.Theme.Name == "" {
		opts.Theme = themes.Dark
	}
	if opts.Username == "" {
		opts.Username = DefaultUsername
	}
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	loc := opts.Location
	if loc == nil {
		loc = time.Local
	}
	s := themes.New(opts.Theme)
	k := DefaultKeyMap()
	c := opts.Dispatcher.Catalog()
	m := Model{
		opts: opts, ctx: ctx, now: now, theme: opts.Theme, styles: s, keys: k,
		help:      help.New(),
		worlds:    newWorldsPane(s, k, now),
		status:    newStatusPane(s),
		events:    newEventsPane(s, k, loc),
		timeline:  newTimelinePane(s, k, c, now),
		input:     newInputPane(s, k, c),
		overlay:   opts.Overlay,
		announced: map[string]bool{},
	}
	m.help.Styles = s.Help
	m.events.sentences = opts.Theme.Name == themes.Streamer.Name
	if opts.Connect != "" {
		m.focus = focusInput
	}
	m.applyFocus()
	return m
}

// Init starts the status poll, asks for LAN worlds, and joins --connect.
func (m Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.focus == focusInput && !m.overlay {
		cmds = append(cmds, m.input.ti.Focus())
	}
	if !m.opts.NoPoll {
		cmds = append(cmds, func() tea.Msg { return statusTickMsg{} }, m.discoverCmd())
	}
	if m.opts.Connect != "" {
		addr := m.opts.Connect
		cmds = append(cmds, func() tea.Msg {
			host, port, err := CheckAddress(addr)
			if err != nil {
				return joinWorldMsg{Host: addr}
			}
			return joinWorldMsg{Host: host, Port: port}
		})
	}
	return tea.Batch(cmds...)
}

// focusOrder lists the panes Tab visits in the current layout. The
// overlay shows no pane that takes keys, so it has none.
func (m Model) focusOrder() []focusID {
	if m.overlay {
		return nil
	}
	if m.connected {
		return []focusID{focusTimeline, focusEvents, focusInput}
	}
	return []focusID{focusWorlds, focusTimeline, focusEvents, focusInput}
}

func (m *Model) moveFocus(step int) tea.Cmd {
	order := m.focusOrder()
	if len(order) == 0 {
		return nil
	}
	i := 0
	for j, f := range order {
		if f == m.focus {
			i = j
		}
	}
	m.focus = order[(i+step+len(order))%len(order)]
	return m.applyFocus()
}

func (m *Model) setFocus(f focusID) tea.Cmd {
	m.focus = f
	return m.applyFocus()
}

// applyFocus tells each pane whether it has focus. In the overlay no pane
// is shown that takes keys, so none has it.
func (m *Model) applyFocus() tea.Cmd {
	if m.overlay {
		m.worlds.focused, m.timeline.focused, m.events.focused = false, false, false
		m.input.Blur()
		return nil
	}
	m.worlds.focused = m.focus == focusWorlds
	m.timeline.focused = m.focus == focusTimeline
	m.events.focused = m.focus == focusEvents
	if m.focus == focusInput {
		return m.input.Focus()
	}
	m.input.Blur()
	return nil
}

// Focus names the focused pane, for tests; "none" in the overlay.
func (m Model) Focus() string {
	if m.overlay {
		return "none"
	}
	return m.focus.String()
}

// paneTitle is the focused pane's name as its frame shows it.
func (f focusID) paneTitle() string {
	return [...]string{"Worlds", timelineTitle, "Events", "input line"}[f]
}

// setOverlay switches layout; focus follows. Entering the overlay closes
// what it cannot show (help, call details) and no pane has focus there;
// leaving it gives focus back to the pane that had it, if that pane is
// shown now (the worlds list is not while the bot is in a world).
func (m *Model) setOverlay(on bool) tea.Cmd {
	m.overlay = on
	m.showHelp = false
	m.timeline.open = false
	if !on && m.connected && m.focus == focusWorlds {
		m.focus = focusInput
	}
	m.layout()
	return m.applyFocus()
}

// switchTheme is setTheme for a switch the person made: the choice is also
// saved to the settings file.
func (m *Model) switchTheme(t themes.Theme) tea.Cmd {
	return tea.Batch(m.setTheme(t), saveThemeCmd(m.opts.ConfigPath, t.Name))
}

// setTheme restyles every pane; the returned command restarts the spinner
// (its frames belong to the theme) when calls are running.
func (m *Model) setTheme(t themes.Theme) tea.Cmd {
	m.theme = t
	m.styles = themes.New(t)
	s := m.styles
	m.help.Styles = s.Help
	m.worlds.styles, m.status.styles, m.events.styles = s, s, s
	m.events.sentences = t.Name == themes.Streamer.Name
	m.timeline.setStyles(s)
	m.input.setStyles(s)
	m.layout()
	if m.timeline.running() > 0 {
		return m.timeline.spin()
	}
	return nil
}

// ThemeName is the theme in use.
func (m Model) ThemeName() string { return m.theme.Name }

func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.KeyMsg:
		return m.handleKey(msg)
	case batchMsg:
		return m, m.applyBatch(msg)
	case callDoneMsg:
		m.timeline.finishOwn(msg.Key, msg.Response, msg.Duration)
		return m, nil
	case submitMsg:
		return m, m.submit(msg.Req)
	case joinWorldMsg:
		return m, m.join(msg.Host, msg.Port)
	case promptConnectMsg:
		if m.overlay {
			return m, nil
		}
		m.input.SetValue("join ")
		return m, m.setFocus(focusInput)
	case configSavedMsg:
		if msg.Err != nil {
			m.input.note = "The theme could not be saved: " + msg.Err.Error()
		}
		m.layout()
		return m, nil
	case statusTickMsg:
		if m.polling || m.quitting {
			return m, nil
		}
		m.polling = true
		return m, m.statusCmd()
	case statusMsg:
		m.polling = false
		m.status.set(msg.Status, msg.Err)
		var refresh tea.Cmd
		if msg.Err == "" {
			refresh = m.setConnected(msg.Status.Connected)
		}
		if m.opts.NoPoll {
			return m, refresh
		}
		return m, tea.Batch(refresh, tea.Tick(statusEvery, func(time.Time) tea.Msg { return statusTickMsg{} }))
	case discoverMsg:
		m.worlds.setAdvice(msg.Reason, msg.NextStep)
		for _, w := range msg.Worlds {
			raw, _ := json.Marshal(w)
			m.worlds.applyEvent("mc_lan_world_found", raw)
			m.announced[w.addr()] = true
		}
		return m, nil
	case leftMsg:
		return m, tea.Quit
	}
	// Anything else (spinner ticks, cursor blinks) goes to the panes that
	// own such messages; each ignores what is not its own.
	var cmds []tea.Cmd
	var cmd tea.Cmd
	m.timeline, cmd = m.timeline.Update(msg)
	cmds = append(cmds, cmd)
	m.input, cmd = m.input.Update(msg)
	cmds = append(cmds, cmd)
	return m, tea.Batch(cmds...)
}

// setConnected follows the bot into and out of a world. Out of one, the
// worlds list comes back: focus goes to it (unless something is being
// typed) so its keys work as its hint says, and LAN discovery runs again
// so the player counts shown are fresh, not from before the bot left.
func (m *Model) setConnected(c bool) tea.Cmd {
	if c == m.connected {
		return nil
	}
	m.connected = c
	var cmds []tea.Cmd
	switch {
	case c && m.focus == focusWorlds:
		cmds = append(cmds, m.setFocus(focusInput))
	case !c && (m.focus != focusInput || strings.TrimSpace(m.input.Value()) == ""):
		cmds = append(cmds, m.setFocus(focusWorlds))
	}
	if !c && !m.opts.NoPoll {
		cmds = append(cmds, m.discoverCmd())
	}
	m.layout()
	return tea.Batch(cmds...)
}

func (m Model) handleKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if m.quitting {
		if key.Matches(msg, k.ForceQuit) {
			return m, tea.Quit
		}
		return m, nil
	}
	// Global keys work whatever has focus.
	switch {
	case key.Matches(msg, k.ForceQuit):
		return m.quit()
	case key.Matches(msg, k.Stop):
		return m, m.submit(protocol.Request{Tool: "mc_stop"})
	case key.Matches(msg, k.NextTheme):
		return m, m.switchTheme(themes.Next(m.theme.Name))
	}
	// The overlay shows no pane that takes keys: only its own few act, so
	// typing into the wrong window cannot join, send or select anything.
	if m.overlay {
		switch {
		case key.Matches(msg, k.Overlay):
			return m, m.setOverlay(false)
		case key.Matches(msg, k.ThemeKey):
			return m, m.switchTheme(themes.Next(m.theme.Name))
		case key.Matches(msg, k.Quit):
			return m.quit()
		}
		return m, nil
	}
	switch {
	case key.Matches(msg, k.PrevPane):
		return m, m.moveFocus(-1)
	case key.Matches(msg, k.NextPane):
		if !(m.focus == focusInput && m.input.HasCompletion()) {
			return m, m.moveFocus(+1)
		}
	case key.Matches(msg, k.AnyHelp) && !m.showHelp:
		m.showHelp, m.helpOffset = true, 0
		return m, nil
	}
	if m.showHelp {
		rows := m.height - 2 - m.input.Height() - 2
		switch {
		case key.Matches(msg, k.Help, k.Back, k.Quit, k.AnyHelp):
			m.showHelp = false
		case key.Matches(msg, k.Up):
			m.helpOffset--
		case key.Matches(msg, k.Down):
			m.helpOffset++
		case key.Matches(msg, k.PageUp):
			m.helpOffset -= rows
		case key.Matches(msg, k.PageDown):
			m.helpOffset += rows
		}
		m.helpOffset = min(max(m.helpOffset, 0), max(len(m.helpLines())-rows, 0))
		return m, nil
	}
	// The input line, when focused, gets every other key.
	if m.focus == focusInput {
		if key.Matches(msg, k.LeaveInput) {
			return m, m.setFocus(focusTimeline)
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		m.layout()
		return m, cmd
	}
	if m.timeline.Open() {
		var cmd tea.Cmd
		m.timeline, cmd = m.timeline.Update(msg)
		return m, cmd
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.showHelp, m.helpOffset = true, 0
		return m, nil
	case key.Matches(msg, k.ThemeKey):
		return m, m.switchTheme(themes.Next(m.theme.Name))
	case key.Matches(msg, k.Overlay):
		return m, m.setOverlay(true)
	case key.Matches(msg, k.StopKey):
		return m, m.submit(protocol.Request{Tool: "mc_stop"})
	case key.Matches(msg, k.FocusInput):
		return m, m.setFocus(focusInput)
	}
	// Keys go to the focused pane only.
	var cmd tea.Cmd
	switch m.focus {
	case focusWorlds:
		m.worlds, cmd = m.worlds.Update(msg)
	case focusTimeline:
		m.timeline, cmd = m.timeline.Update(msg)
	case focusEvents:
		m.events, cmd = m.events.Update(msg)
	}
	return m, cmd
}

// applyBatch hands a pump batch to the panes that own its data.
func (m *Model) applyBatch(b batchMsg) tea.Cmd {
	var cmds []tea.Cmd
	for _, ev := range b.Calls {
		switch ev.Phase {
		case protocol.Started:
			cmds = append(cmds, m.timeline.observeStart(ev))
		case protocol.Finished:
			m.timeline.observeFinish(ev)
		}
	}
	shown := b.Events[:0:0]
	for _, e := range b.Events {
		if e.Name == "mc_lan_world_found" || e.Name == "mc_lan_world_lost" {
			m.worlds.applyEvent(e.Name, e.Payload)
			// The watcher says found again whenever a world's status
			// changes; the stream tells of a world once, when it appears.
			addr, ok := worldAddr(e.Payload)
			if ok && e.Name == "mc_lan_world_found" {
				if m.announced[addr] {
					continue
				}
				if len(m.announced) < 256 {
					m.announced[addr] = true
				}
			}
			if ok && e.Name == "mc_lan_world_lost" {
				delete(m.announced, addr)
			}
		}
		shown = append(shown, e)
	}
	m.events.add(shown, b.Dropped)
	m.timeline.dropped += b.DroppedCalls
	return tea.Batch(cmds...)
}

// submit gives a request an id if it has none, shows it in the timeline as
// running, and returns the command that runs it through the dispatcher. A
// join without a username gets the console's (--username, the settings
// file, or the default).
func (m *Model) submit(req protocol.Request) tea.Cmd {
	if req.Tool == "mc_join" {
		if _, given := req.Args["username"]; !given {
			if t, ok := m.opts.Dispatcher.Catalog().Lookup("mc_join"); ok {
				if _, takes := t.Args.Lookup("username"); takes {
					args := make(map[string]json.RawMessage, len(req.Args)+1)
					for k, v := range req.Args {
						args[k] = v
					}
					args["username"] = json.RawMessage(strconv.Quote(m.opts.Username))
					req.Args = args
				}
			}
		}
	}
	if len(req.ID) == 0 {
		for {
			m.nextID++
			id := "c" + strconv.Itoa(m.nextID)
			if m.timeline.find(id) == nil {
				req.ID = json.RawMessage(strconv.Quote(id))
				break
			}
		}
	}
	spin := m.timeline.startOwn(req, m.now())
	d, ctx, k := m.opts.Dispatcher, m.ctx, idText(req.ID)
	run := func() tea.Msg {
		start := time.Now()
		resp := d.Call(protocol.WithOrigin(ctx, protocol.OriginConsole), req)
		return callDoneMsg{Key: k, Response: resp, Duration: time.Since(start)}
	}
	return tea.Batch(spin, run)
}

// join calls mc_join for a world; submit adds the username.
func (m *Model) join(host string, port int) tea.Cmd {
	args := map[string]json.RawMessage{"port": json.RawMessage(strconv.Itoa(port))}
	if host != "" {
		args["host"] = json.RawMessage(strconv.Quote(host))
	}
	return m.submit(protocol.Request{Tool: "mc_join", Args: args})
}

func (m Model) statusCmd() tea.Cmd {
	d, ctx := m.opts.Dispatcher, m.ctx
	return func() tea.Msg {
		resp := d.Call(protocol.WithOrigin(ctx, protocol.OriginInternal),
			protocol.Request{ID: json.RawMessage(`"console-status"`), Tool: "mc_status"})
		if !resp.OK {
			return statusMsg{Err: resp.Error}
		}
		var st bot.Status
		if err := json.Unmarshal(resp.Result, &st); err != nil {
			return statusMsg{Err: "mc_status answered in a shape the console does not read: " + err.Error()}
		}
		return statusMsg{Status: st}
	}
}

// discoverCmd asks mc_discover_lan once, for worlds already announced and
// for its advice when there are none. Worlds found later arrive as events.
func (m Model) discoverCmd() tea.Cmd {
	d, ctx := m.opts.Dispatcher, m.ctx
	if _, ok := d.Catalog().Lookup("mc_discover_lan"); !ok {
		return nil
	}
	return func() tea.Msg {
		resp := d.Call(protocol.WithOrigin(ctx, protocol.OriginInternal),
			protocol.Request{ID: json.RawMessage(`"console-discover"`), Tool: "mc_discover_lan"})
		var out struct {
			Worlds   []world `json:"worlds"`
			Reason   string  `json:"reason"`
			NextStep string  `json:"next_step"`
		}
		if resp.OK {
			_ = json.Unmarshal(resp.Result, &out)
		}
		return discoverMsg{Reason: out.Reason, NextStep: out.NextStep, Worlds: out.Worlds}
	}
}

// quit cancels what runs, leaves the world (mc_leave, then the wiring's
// Leave) and exits.
func (m Model) quit() (tea.Model, tea.Cmd) {
	m.quitting = true
	d, ctx, leave, connected := m.opts.Dispatcher, m.ctx, m.opts.Leave, m.connected
	return m, func() tea.Msg {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		d.Stop("", protocol.ErrShutdown)
		if _, ok := d.Catalog().Lookup("mc_leave"); ok && connected {
			d.Call(protocol.WithOrigin(lctx, protocol.OriginInternal),
				protocol.Request{ID: json.RawMessage(`"console-leave"`), Tool: "mc_leave"})
		}
		if leave != nil {
			leave(lctx)
		}
		return leftMsg{}
	}
}

// Quitting reports whether the console is leaving.
func (m Model) Quitting() bool { return m.quitting }

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
	m.events.SetSize(w, bodyH-topH)
	m.timeline.SetDetailSize(w-4, bodyH-4)
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
	default:
		left := m.status.View(false)
		if !m.connected {
			left = m.worlds.View()
		}
		top := lipgloss.JoinHorizontal(lipgloss.Top, left, m.timeline.View())
		body = top + "\n" + m.events.View()
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
	right := s.BarDim.Render(fmt.Sprintf(" theme %s · ? help ", m.theme.Name))
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
	case m.timeline.Open(), m.focus == focusTimeline:
		return m.timeline
	case m.focus == focusEvents:
		return m.events
	}
	return m.worlds
}

func (m Model) footer() string {
	bindings := append(m.focusedKeys().ShortHelp(), m.keys.globalHelp()...)
	if m.focus != focusInput {
		bindings = append(bindings, m.keys.Help, m.keys.Quit)
	}
	return padRight(m.help.ShortHelpView(bindings), m.width)
}

// focusedPaneTitle names the pane whose keys the help lists, as its frame
// is titled.
func (m Model) focusedPaneTitle() string {
	if m.timeline.Open() {
		return timelineTitle
	}
	return m.focus.paneTitle()
}

// helpLines are the full help: the focused pane's keys, the global keys,
// and what the input line accepts.
func (m Model) helpLines() []string {
	s := m.styles
	groups := append(m.focusedKeys().FullHelp(), m.keys.globalHelp())
	var lines []string
	lines = append(lines, s.DocHeading.Render("Keys ("+m.focusedPaneTitle()+")"))
	lines = append(lines, strings.Split(m.help.FullHelpView(groups), "\n")...)
	lines = append(lines, "", s.DocHeading.Render("Typing a tool call"))
	for _, l := range strings.Split(shortFormHelp(m.opts.Dispatcher.Catalog()), "\n") {
		lines = append(lines, s.Doc.Render(l))
	}
	return lines
}

func (m Model) helpView(h int) string {
	s := m.styles
	lines := m.helpLines()
	rows := h - 2
	title := "Help · ? or esc closes"
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
		hint += ", or press o for the compact overlay layout"
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
			task = m.timeline.spinner.View() + " " + s.Timeline.Tool.Render(c.Tool) + " " + s.Timeline.Args.Render(c.ArgsText) +
				" " + s.Timeline.Duration.Render(formatDuration(m.now().Sub(c.Started)))
			break
		}
	}
	lines = append(lines, s.Status.Label.Render("Task ")+task)
	rest := m.height - len(lines)
	for _, e := range m.events.tail(rest, 0) {
		lines = append(lines, m.events.sentenceLine(e, w))
	}
	return strings.Join(fit(lines, w, m.height), "\n")
}
