// Package ui is blockmate's console: a Bubble Tea program with one root
// model that owns focus and layout, and plain panes (worlds, status, event
// stream, tool-call timeline, input line) whose Update returns their own
// type. Every tool call goes through the same protocol.Dispatcher as the
// sidecar; the console never talks to the network itself.
package ui

import (
	"context"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/api"
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
const DefaultUsername = api.DefaultUsername

// Options configure the console.
type Options struct {
	// Dispatcher is the dispatcher in this process the console drives.
	Dispatcher *protocol.Dispatcher
	// Backend, when set, is driven instead of Dispatcher: a blockmate the
	// console attached to (see Attached).
	Backend Backend
	// Attached names the blockmate the console is attached to (its watch
	// socket). Then quitting only detaches: it stops nothing and leaves no
	// world, and the console does not search the LAN itself.
	Attached string
	// IDPrefix starts every call id the console makes, so that several
	// consoles attached to one blockmate never reuse each other's ids.
	IDPrefix string
	// Note is shown under the input line at start (where the MCP server
	// listens, what the console is attached to).
	Note  string
	Theme themes.Theme
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
		Status api.Status
		Err    string
	}
	// configSavedMsg says how saving the theme to the settings file went.
	configSavedMsg struct {
		Theme, Path string
		Err         error
	}
	discoverMsg struct {
		Found  int
		Reason string
		Worlds []world
	}
	leftMsg struct{}
)

// Model is the console's root model.
type Model struct {
	opts    Options
	backend Backend
	ctx     context.Context
	now     func() time.Time
	theme   themes.Theme
	styles  *themes.Styles
	keys    KeyMap
	help    help.Model

	worlds   worldsPane
	status   statusPane
	events   eventsPane
	timeline timelinePane
	input    inputPane
	worldMap mapPane

	focus focusID
	// typedFrom is the list pane that had focus when typing took it to the
	// input line; Esc there goes back to it.
	typedFrom focusID
	width     int
	height    int
	showHelp  bool
	// confirmQuit is set by ctrl+c while the bot is in a world: a second
	// ctrl+c leaves and quits, any other key carries on.
	confirmQuit bool
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
	backend := opts.Backend
	if backend == nil {
		backend = Local(opts.Dispatcher)
	}
	c := backend.Catalog()
	m := Model{
		opts: opts, backend: backend, ctx: ctx, now: now, theme: opts.Theme, styles: s, keys: k,
		help:      help.New(),
		worlds:    newWorldsPane(s, k, now),
		status:    newStatusPane(s),
		events:    newEventsPane(s, k, loc),
		timeline:  newTimelinePane(s, k, c, now),
		input:     newInputPane(s, k, c),
		worldMap:  newMapPane(s),
		overlay:   opts.Overlay,
		announced: map[string]bool{},
	}
	m.help.Styles = s.Help
	m.input.note = opts.Note
	m.timeline.shared = opts.Attached != ""
	m.worlds.attached = opts.Attached
	if r, ok := backend.(Replayer); ok {
		m.replay(r.Replay())
	}
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
		cmds = append(cmds, func() tea.Msg { return statusTickMsg{} })
		if m.opts.Attached == "" {
			cmds = append(cmds, m.discoverCmd())
		}
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
// what it cannot show (help, details) and no pane has focus there;
// leaving it gives focus back to the pane that had it, if that pane is
// shown now (the worlds list is not while the bot is in a world).
func (m *Model) setOverlay(on bool) tea.Cmd {
	m.overlay = on
	m.showHelp = false
	m.timeline.detail.open = false
	m.events.detail.open = false
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
	m.worlds.styles, m.status.styles, m.events.styles, m.worldMap.styles = s, s, s, s
	if m.events.detail.open {
		m.events.detail.refresh(m.events.detailText(m.events.detailEvent))
	}
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
		m.sayFinished(m.timeline.finishOwn(msg.Key, msg.Response, msg.Duration))
		return m, nil
	case submitMsg:
		return m, m.submit(msg.Req)
	case joinWorldMsg:
		return m, m.join(msg.Host, msg.Port)
	case noticeMsg:
		m.input.note = msg.Text
		m.layout()
		return m, nil
	case openHelpMsg:
		m.showHelp, m.helpOffset = true, 0
		return m, nil
	case configSavedMsg:
		if msg.Err != nil {
			m.input.note = "Theme " + msg.Theme + ", but it could not be saved for next time: " + msg.Err.Error()
		} else {
			m.input.note = "Theme " + msg.Theme + ", saved to " + msg.Path + " for next time."
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
		return m, tea.Batch(refresh, m.askMap(), tea.Tick(statusEvery, func(time.Time) tea.Msg { return statusTickMsg{} }))
	case mapMsg:
		// A map that comes back after the bot left is of no world.
		if !m.connected {
			m.worldMap.reset()
			return m, nil
		}
		shown := m.worldMap.shown()
		m.worldMap.set(msg)
		if m.worldMap.shown() != shown {
			m.layout()
		}
		return m, nil
	case discoverMsg:
		m.applyDiscovery(msg)
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
	if !c {
		m.worldMap.reset()
	}
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

// handleKey routes a key. The order matters: a quit being confirmed
// first, then the global keys (ctrl keys and F1, which nobody presses while
// typing a word), then the overlay's few, then the help, then text (which
// always goes to the input line, from any pane), and last the focused
// pane's own keys.
func (m Model) handleKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	// A note (a theme saved, why a world cannot be joined) stays until the
	// next key.
	if m.input.note != "" {
		m.input.note = ""
		m.layout()
	}
	if m.quitting {
		// A third ctrl+c does not wait for the bot to leave.
		if key.Matches(msg, k.Quit) {
			return m, tea.Quit
		}
		return m, nil
	}
	if m.confirmQuit {
		m.confirmQuit = false
		switch {
		case key.Matches(msg, k.Quit):
			return m.quit()
		case key.Matches(msg, k.Back):
			return m, nil
		}
		// Any other key is the person carrying on: it does what it does.
	}
	switch {
	case key.Matches(msg, k.Quit):
		if m.connected && m.opts.Attached == "" {
			m.confirmQuit = true
			return m, nil
		}
		return m.quit()
	case key.Matches(msg, k.Stop):
		return m, m.submit(protocol.Request{Tool: "mc_stop"})
	case key.Matches(msg, k.Theme):
		return m, m.switchTheme(themes.Next(m.theme.Name))
	case key.Matches(msg, k.Overlay):
		return m, m.setOverlay(!m.overlay)
	}
	// The overlay shows no pane that takes keys: typing into the wrong
	// window joins, sends or selects nothing. Its last line says how back.
	if m.overlay {
		if key.Matches(msg, k.Back) {
			return m, m.setOverlay(false)
		}
		return m, nil
	}
	if key.Matches(msg, k.Help) || (!msg.Paste && key.Matches(msg, k.HelpOnEmptyLine) && m.input.Value() == "") {
		m.showHelp, m.helpOffset = !m.showHelp, 0
		return m, nil
	}
	if m.showHelp {
		rows := m.helpRows()
		scrolled := true
		switch {
		case key.Matches(msg, k.Back):
			m.showHelp = false
			return m, nil
		case key.Matches(msg, k.Up):
			m.helpOffset--
		case key.Matches(msg, k.Down):
			m.helpOffset++
		case key.Matches(msg, k.PageUp):
			m.helpOffset -= rows
		case key.Matches(msg, k.PageDown):
			m.helpOffset += rows
		default:
			scrolled = false
		}
		if scrolled {
			m.helpOffset = min(max(m.helpOffset, 0), max(len(m.helpLines())-rows, 0))
			return m, nil
		}
		// The help covers the panes, so their keys would act unseen; text
		// and the input line's keys go on (the help stays open while the
		// person types an example from it).
		if m.focus != focusInput && !isText(msg) {
			return m, nil
		}
	}
	switch {
	case key.Matches(msg, k.PrevPane):
		return m, m.moveFocus(-1)
	case key.Matches(msg, k.NextPane):
		if !(m.focus == focusInput && m.input.HasCompletion()) {
			return m, m.moveFocus(+1)
		}
	}
	var cmds []tea.Cmd
	if isText(msg) && m.focus != focusInput {
		// Typing from a list pane: the text goes to the input line, and so
		// does the cursor, so that Enter then sends it. A key that came
		// with Alt is an Esc pressed just before it (terminals send the two
		// as one): the Esc has nothing left to do, the key is text.
		m.timeline.detail.open, m.events.detail.open = false, false
		m.typedFrom = m.focus
		cmds = append(cmds, m.setFocus(focusInput))
		msg.Alt = false
	}
	if m.focus == focusInput {
		switch {
		case key.Matches(msg, k.LeaveInput):
			return m, m.setFocus(m.paneBack())
		case key.Matches(msg, k.PageUp):
			m.events.scroll(m.events.page())
			return m, nil
		case key.Matches(msg, k.PageDown):
			m.events.scroll(-m.events.page())
			return m, nil
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		m.layout()
		return m, tea.Batch(append(cmds, cmd)...)
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

// paneBack is the list pane Esc in the input line goes to: the one typing
// came from, if it is shown.
func (m Model) paneBack() focusID {
	for _, f := range m.focusOrder() {
		if f == m.typedFrom && f != focusInput {
			return f
		}
	}
	return focusTimeline
}
