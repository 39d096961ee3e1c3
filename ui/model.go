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

// sayFinished adds the bot's own chat line to the events when c is a
// successful mc_say or mc_whisper: the bot sends no event for what it says
// itself, and a conversation shown one-sided reads as the bot ignoring
// everyone.
func (m *Model) sayFinished(c *call) {
	if c == nil || !c.Response.OK || (c.Tool != "mc_say" && c.Tool != "mc_whisper") {
		return
	}
	var args struct {
		Message  string `json:"message"`
		Username string `json:"username"`
	}
	raw, _ := protocol.Marshal(c.Args)
	if json.Unmarshal(raw, &args) != nil || args.Message == "" {
		return
	}
	said := ownChat{Username: orDefault(m.status.status.Username, m.opts.Username), Message: args.Message, Call: c.Key, Origin: c.Origin}
	if c.Tool == "mc_whisper" {
		said.To = args.Username
	}
	payload, _ := protocol.Marshal(said)
	at := m.now()
	if !c.Started.IsZero() {
		at = c.Started.Add(c.Duration)
	}
	m.events.add([]protocol.Event{{Name: ownChatEvent, Payload: payload, Time: at}}, 0)
}

// applyDiscovery lists the worlds an mc_discover_lan found, and passes on
// a failure of discovery itself.
func (m *Model) applyDiscovery(d discoverMsg) {
	m.worlds.setDiscovery(d.Found, d.Reason)
	for _, w := range d.Worlds {
		raw, _ := protocol.Marshal(w)
		m.worlds.applyEvent("mc_lan_world_found", raw)
		if len(m.announced) < 256 {
			m.announced[w.addr()] = true
		}
	}
}

// discoveryResult reads an mc_discover_lan result.
func discoveryResult(raw json.RawMessage) discoverMsg {
	var out struct {
		Found  int     `json:"found"`
		Worlds []world `json:"worlds"`
		Reason string  `json:"reason"`
	}
	_ = json.Unmarshal(raw, &out)
	return discoverMsg{Found: out.Found, Reason: out.Reason, Worlds: out.Worlds}
}

// replay shows what happened before the console opened, in the order it
// happened: events and finished calls interleaved by time, so the bot's
// own lines (from its mc_say calls) sit among the chat they answered.
func (m *Model) replay(events []protocol.Event, calls []protocol.CallEvent) {
	for len(events) > 0 || len(calls) > 0 {
		if len(calls) == 0 || (len(events) > 0 && !events[0].Time.After(calls[0].Started.Add(calls[0].Duration))) {
			m.applyBatch(batchMsg{Events: events[:1]})
			events = events[1:]
			continue
		}
		m.applyBatch(batchMsg{Calls: calls[:1]})
		calls = calls[1:]
	}
}

// applyBatch hands a pump batch to the panes that own its data.
func (m *Model) applyBatch(b batchMsg) tea.Cmd {
	var cmds []tea.Cmd
	shown := b.Events[:0:0]
	for _, e := range b.Events {
		if e.Name == protocol.CallEventsDropped {
			var lost struct {
				Count int `json:"count"`
			}
			if json.Unmarshal(e.Payload, &lost) == nil && lost.Count > 0 {
				m.timeline.dropped += lost.Count
			}
		}
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
		if e.Name == "mc_task_progress" {
			if m.status.progress == nil {
				m.status.progress = progressBook{}
			}
			m.status.progress.note(e.Payload)
		}
		shown = append(shown, e)
	}
	m.events.add(shown, b.Dropped)
	// Calls after events: a line the bot said goes into the events after
	// what came with it in the same frame.
	for _, ev := range b.Calls {
		switch ev.Phase {
		case protocol.Started:
			cmds = append(cmds, m.timeline.observeStart(ev))
		case protocol.Finished:
			delete(m.status.progress, idText(ev.ID))
			m.sayFinished(m.timeline.observeFinish(ev))
			// Worlds found by a discovery someone else asked for (the
			// program driving an attached blockmate, a console's typed
			// mc_discover_lan) are worlds this console can show too.
			if ev.Tool == "mc_discover_lan" && ev.Response.OK {
				m.applyDiscovery(discoveryResult(ev.Response.Result))
			}
		}
	}
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
			if t, ok := m.backend.Catalog().Lookup("mc_join"); ok {
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
			id := m.opts.IDPrefix + "c" + strconv.Itoa(m.nextID)
			if m.timeline.find(id) == nil {
				req.ID = json.RawMessage(strconv.Quote(id))
				break
			}
		}
	}
	// A call sent is a call whose result the person wants to see: the help
	// and any details close, and the timeline follows again (startOwn).
	m.showHelp = false
	m.events.detail.open = false
	spin := m.timeline.startOwn(req, m.now())
	d, ctx, k := m.backend, m.ctx, idText(req.ID)
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
	d, ctx, id := m.backend, m.ctx, m.internalID("console-status")
	return func() tea.Msg {
		resp := d.Call(protocol.WithOrigin(ctx, protocol.OriginInternal),
			protocol.Request{ID: id, Tool: "mc_status"})
		if !resp.OK {
			return statusMsg{Err: resp.Error}
		}
		var st api.Status
		if err := json.Unmarshal(resp.Result, &st); err != nil {
			return statusMsg{Err: "mc_status answered in a shape the console does not read: " + err.Error()}
		}
		return statusMsg{Status: st}
	}
}

// discoverCmd asks mc_discover_lan once, for worlds already announced and
// for its advice when there are none. Worlds found later arrive as events.
func (m Model) discoverCmd() tea.Cmd {
	d, ctx, id := m.backend, m.ctx, m.internalID("console-discover")
	if _, ok := d.Catalog().Lookup("mc_discover_lan"); !ok {
		return nil
	}
	return func() tea.Msg {
		resp := d.Call(protocol.WithOrigin(ctx, protocol.OriginInternal),
			protocol.Request{ID: id, Tool: "mc_discover_lan"})
		if !resp.OK {
			return discoverMsg{}
		}
		return discoveryResult(resp.Result)
	}
}

// internalID is the id of a call the console makes for its own display.
func (m Model) internalID(name string) json.RawMessage {
	return json.RawMessage(strconv.Quote(m.opts.IDPrefix + name))
}

// quit cancels what runs, leaves the world (mc_leave, then the wiring's
// Leave) and exits. An attached console only detaches: what runs in the
// blockmate it watched goes on as if it had never looked.
func (m Model) quit() (tea.Model, tea.Cmd) {
	m.quitting = true
	if m.opts.Attached != "" {
		return m, func() tea.Msg { return leftMsg{} }
	}
	d, b, ctx, leave, connected := m.opts.Dispatcher, m.backend, m.ctx, m.opts.Leave, m.connected
	id := m.internalID("console-leave")
	return m, func() tea.Msg {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if d != nil {
			d.Stop("", protocol.ErrShutdown)
		}
		if _, ok := b.Catalog().Lookup("mc_leave"); ok && connected {
			b.Call(protocol.WithOrigin(lctx, protocol.OriginInternal), protocol.Request{ID: id, Tool: "mc_leave"})
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
