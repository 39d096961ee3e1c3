package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// timelineTitle is the timeline pane's name, in its frame and in the help.
const timelineTitle = "Tool calls"

// maxCalls bounds the timeline; the oldest finished calls fall off.
const maxCalls = 500

// call is one tool call in the timeline.
type call struct {
	Key      string // the id as text, the timeline's key
	ID       json.RawMessage
	Tool     string
	Args     map[string]json.RawMessage
	ArgsText string
	Origin   protocol.Origin
	Started  time.Time
	Duration time.Duration
	Done     bool
	Response protocol.Response
	// observed and finObserved say the dispatcher's start and finish
	// events for this call have arrived, so their echoes add nothing.
	observed, finObserved bool
	// own marks a call this console made; a console call it did not make
	// (another console attached to the same blockmate) is marked as such.
	own bool
}

// timelinePane lists tool calls, newest at the bottom, with the selected
// one's full request and response a keypress away.
type timelinePane struct {
	styles  *themes.Styles
	keys    KeyMap
	catalog *protocol.Catalog
	now     func() time.Time
	width   int
	height  int
	focused bool
	// shared says other consoles may call through the same dispatcher (an
	// attached console): console calls this one did not make are marked.
	shared bool

	calls    []*call
	selected int
	// follow keeps the newest call selected and in view as calls come. It
	// ends when the person moves up the list or opens a call's details, and
	// comes back at the bottom of the list or when a call is submitted.
	follow bool
	// unseen counts the calls that came while not following, for the
	// title's "↓ N new".
	unseen   int
	spinner  spinner.Model
	spinning bool

	detail detailView
	// progress is the status pane's book of mc_task_progress (shared): a
	// running plan's step shows under its call.
	progress progressBook
	// dropped counts call events lost to a full observer queue.
	dropped int
}

func newTimelinePane(s *themes.Styles, k KeyMap, c *protocol.Catalog, now func() time.Time) timelinePane {
	p := timelinePane{styles: s, keys: k, catalog: c, now: now, follow: true, detail: newDetailView()}
	p.setStyles(s)
	return p
}

func (p *timelinePane) setStyles(s *themes.Styles) {
	p.styles = s
	p.spinner = spinner.New(spinner.WithSpinner(spinner.Spinner{Frames: s.Glyphs.Running, FPS: time.Second / 10}),
		spinner.WithStyle(s.Timeline.Running))
	p.spinning = false
	if p.detail.open {
		p.detail.refresh(p.detailText())
	}
}

func (p *timelinePane) SetSize(w, h int) { p.width, p.height = w, h }

// SetDetailSize sizes the full request/response view.
func (p *timelinePane) SetDetailSize(w, h int) {
	p.detail.setSize(w, h)
	if p.detail.open {
		p.detail.refresh(p.detailText())
	}
}

func (p *timelinePane) find(k string) *call {
	for i := len(p.calls) - 1; i >= 0; i-- {
		if p.calls[i].Key == k {
			return p.calls[i]
		}
	}
	return nil
}

func (p *timelinePane) argOrder(tool string) []string {
	if t, ok := p.catalog.Lookup(tool); ok {
		return t.Args.Names()
	}
	return nil
}

// startOwn adds a call the console itself made, before the dispatcher has
// seen it, so it shows at once. Submitting a call is looking for its
// result: the list follows again, and the new call is in view.
func (p *timelinePane) startOwn(req protocol.Request, at time.Time) tea.Cmd {
	p.followNewest()
	args := plainArgs(req.Args)
	p.push(&call{Key: idText(req.ID), ID: req.ID, Tool: clean(req.Tool), Args: args,
		ArgsText: argsSummary(args, p.argOrder(req.Tool)), Origin: protocol.OriginConsole, Started: at, own: true})
	return p.spin()
}

// followNewest closes the details and selects the newest call, following
// from now on.
func (p *timelinePane) followNewest() {
	p.detail.open = false
	p.follow, p.unseen = true, 0
	p.selected = max(len(p.calls)-1, 0)
}

// finishOwn records the response to a call the console made, and returns
// the call when this finished it.
func (p *timelinePane) finishOwn(k string, resp protocol.Response, d time.Duration) *call {
	if c := p.find(k); c != nil && !c.Done {
		p.done(c, resp, d)
		return c
	}
	return nil
}

// observeStart takes a dispatcher call event. The console's own calls are
// already listed (startOwn) and are only matched up; calls from elsewhere
// are added.
func (p *timelinePane) observeStart(ev protocol.CallEvent) tea.Cmd {
	k := idText(ev.ID)
	if c := p.find(k); c != nil {
		switch {
		case !c.observed && c.Origin == ev.Origin:
			c.observed = true
			if !c.Done {
				c.Started = ev.Started
			}
			return nil
		case !c.Done:
			return nil
		}
	}
	args := plainArgs(ev.Args)
	p.push(&call{Key: k, ID: ev.ID, Tool: clean(ev.Tool), Args: args, ArgsText: argsSummary(args, p.argOrder(ev.Tool)),
		Origin: ev.Origin, Started: ev.Started, observed: true})
	return p.spin()
}

// observeFinish takes a dispatcher's finished event. A call the timeline
// never saw start (the dispatcher refused it before running) is added
// finished; the echo of a call already finished is ignored. It returns the
// call when this finished it.
func (p *timelinePane) observeFinish(ev protocol.CallEvent) *call {
	k := idText(ev.ID)
	c := p.find(k)
	switch {
	case c != nil && !c.Done:
		c.observed, c.finObserved = true, true
		p.done(c, ev.Response, ev.Duration)
		return c
	case c != nil && !c.finObserved && c.Origin == ev.Origin && c.Tool == clean(ev.Tool):
		c.finObserved = true
		return nil
	}
	args := plainArgs(ev.Args)
	c = &call{Key: k, ID: ev.ID, Tool: clean(ev.Tool), Args: args, ArgsText: argsSummary(args, p.argOrder(ev.Tool)),
		Origin: ev.Origin, Started: ev.Started, observed: true, finObserved: true}
	p.push(c)
	p.done(c, ev.Response, ev.Duration)
	return c
}

func (p *timelinePane) done(c *call, resp protocol.Response, d time.Duration) {
	resp.Result = plainJSON(resp.Result)
	c.Done, c.Response, c.Duration = true, resp, d
	if p.detail.open && p.selectedCall() == c {
		p.detail.refresh(p.detailText())
	}
}

func (p *timelinePane) push(c *call) {
	p.calls = append(p.calls, c)
	if len(p.calls) > maxCalls {
		// Drop the oldest finished call; running ones stay until they end.
		for i, old := range p.calls {
			if old.Done {
				p.calls = append(p.calls[:i:i], p.calls[i+1:]...)
				if p.selected > i {
					p.selected--
				}
				break
			}
		}
	}
	switch {
	case len(p.calls) == 1:
		p.selected = 0
	case p.follow && !p.detail.open:
		p.selected = len(p.calls) - 1
	default:
		p.unseen++
	}
}

func (p *timelinePane) running() int {
	n := 0
	for _, c := range p.calls {
		if !c.Done {
			n++
		}
	}
	return n
}

func (p *timelinePane) spin() tea.Cmd {
	if p.spinning {
		return nil
	}
	p.spinning = true
	return p.spinner.Tick
}

// idText is an id as shown and as the timeline's key: a string id without
// its quotes, a number as written.
func idText(id json.RawMessage) string { return protocol.Request{ID: id}.IDString() }

func (p timelinePane) Update(msg tea.Msg) (timelinePane, tea.Cmd) {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if msg.ID != p.spinner.ID() {
			return p, nil
		}
		if p.running() == 0 {
			p.spinning = false
			return p, nil
		}
		var cmd tea.Cmd
		p.spinner, cmd = p.spinner.Update(msg)
		return p, cmd
	case tea.KeyMsg:
		if p.detail.open {
			var cmd tea.Cmd
			p.detail, cmd = p.detail.update(msg, p.keys)
			if !p.detail.open {
				p.follow = p.selected >= len(p.calls)-1
			}
			return p, cmd
		}
		switch {
		case key.Matches(msg, p.keys.Up):
			if p.selected > 0 {
				p.selected--
			}
		case key.Matches(msg, p.keys.Down):
			if p.selected < len(p.calls)-1 {
				p.selected++
			}
		case key.Matches(msg, p.keys.PageUp):
			p.selected = max(p.selected-p.rows()/p.linesPerCall()+1, 0)
		case key.Matches(msg, p.keys.PageDown):
			p.selected = max(min(p.selected+p.rows()/p.linesPerCall()-1, len(p.calls)-1), 0)
		case key.Matches(msg, p.keys.Top):
			p.selected = 0
		case key.Matches(msg, p.keys.Bottom):
			p.selected = max(len(p.calls)-1, 0)
		case key.Matches(msg, p.keys.Select):
			if len(p.calls) > 0 {
				p.detail.show(p.detailText())
			}
		}
		p.follow = p.selected >= len(p.calls)-1 && !p.detail.open
		if p.follow {
			p.unseen = 0
		}
	}
	return p, nil
}

// Open reports whether the detail view is showing.
func (p timelinePane) Open() bool { return p.detail.open }

// Following reports whether the newest call is kept in view.
func (p timelinePane) Following() bool { return p.follow }

func (p timelinePane) ShortHelp() []key.Binding {
	if p.detail.open {
		return []key.Binding{p.keys.Back, p.keys.Up, p.keys.Down}
	}
	return []key.Binding{p.keys.Select, p.keys.Up, p.keys.Down, p.keys.Bottom}
}

func (p timelinePane) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{p.keys.Select, p.keys.Back},
		{p.keys.Up, p.keys.Down, p.keys.PageUp, p.keys.PageDown, p.keys.Top, p.keys.Bottom},
	}
}

func (p timelinePane) rows() int { return max(p.height-2, 1) }

// narrow panes give each call two lines: what was called, then the result.
func (p timelinePane) linesPerCall() int {
	if p.width-4 < 70 {
		return 2
	}
	return 1
}

func (p timelinePane) View() string {
	s := p.styles
	per := p.linesPerCall()
	rows, w := p.rows()/per, p.width-4
	first := 0
	if len(p.calls) > rows {
		first = min(max(p.selected-rows+1, 0), len(p.calls)-rows)
	}
	var lines []string
	selStart, selEnd := -1, -1
	for i := first; i < len(p.calls) && i < first+rows; i++ {
		if i == p.selected {
			selStart = len(lines)
		}
		lines = append(lines, p.line(p.calls[i], i == p.selected && p.focused, w, per == 2)...)
		lines = append(lines, p.planLines(p.calls[i], i == p.selected, w)...)
		if i == p.selected {
			selEnd = len(lines)
		}
	}
	// A plan's steps make some calls taller: keep the selected call whole
	// in view, the calls nearest it around it.
	if n := p.rows(); len(lines) > n {
		from := len(lines) - n
		if selStart >= 0 && selStart < from {
			from = max(min(selStart, selEnd-n), 0)
		}
		lines = lines[from:min(from+n, len(lines))]
	}
	if len(lines) == 0 {
		lines = append(lines, s.Muted.Render("No tool calls yet. Type one below,"))
		if ex := examples(p.catalog, 2); len(ex) > 0 {
			lines = append(lines, s.Muted.Render("e.g. "+strings.Join(ex, " · ")))
		}
	}
	title := timelineTitle
	if n := p.running(); n > 0 {
		title += fmt.Sprintf(" · %d running", n)
	}
	if p.unseen > 0 {
		title += fmt.Sprintf(" · ↓ %d new", p.unseen)
	}
	if p.dropped > 0 {
		title += fmt.Sprintf(" · %d call events missed", p.dropped)
	}
	style, titleStyle := s.Pane, s.PaneTitle
	if p.focused {
		style, titleStyle = s.PaneFocused, s.PaneTitleFocused
	}
	return frame(style, titleStyle, title, lines, p.width, p.height)
}

// line renders a call as one line, or as two (call, then result) when split.
func (p timelinePane) line(c *call, selected bool, width int, split bool) []string {
	s := p.styles
	var mark, preview string
	dur := c.Duration
	switch {
	case !c.Done:
		mark = p.spinner.View()
		dur = p.now().Sub(c.Started)
		preview = s.Timeline.Running.Render("running")
	case c.Response.OK:
		mark = s.Timeline.OK.Render(s.Glyphs.OK)
		preview = s.Text.Render(summary(c.Response.Result))
	default:
		mark = s.Timeline.Fail.Render(s.Glyphs.Fail)
		preview = s.Bad.Render(clean(c.Response.Error))
	}
	id := s.Timeline.ID.Render(clean(c.Key))
	if selected {
		id = s.Selected.Render(clean(c.Key))
	}
	parts := []string{mark, id, s.Timeline.Tool.Render(c.Tool)}
	if c.ArgsText != "" {
		budget := max(width/3, 12)
		if split {
			budget = width
		}
		parts = append(parts, s.Timeline.Args.Render(truncate(c.ArgsText, budget)))
	}
	if c.Origin != "" && (c.Origin != protocol.OriginConsole || (p.shared && !c.own)) {
		parts = append(parts, s.Timeline.Origin.Render("["+string(c.Origin)+"]"))
	}
	took := s.Timeline.Duration.Render(formatDuration(dur))
	if split {
		return []string{
			truncate(strings.Join(parts, " "), width),
			truncate("  "+took+" "+preview, width),
		}
	}
	parts = append(parts, took, preview)
	return []string{truncate(strings.Join(parts, " "), width)}
}

// maxPlanLines bounds the steps shown under an mc_obtain call.
const maxPlanLines = 12

// planLines are an mc_obtain call's steps, under its line: while it runs,
// the step under way (from its latest mc_task_progress, so each update
// changes this one line); once it has answered, for the selected call,
// every step of the answer, ticked where done.
func (p timelinePane) planLines(c *call, selected bool, width int) []string {
	if c.Tool != "mc_obtain" {
		return nil
	}
	s := p.styles
	if !c.Done {
		pr, ok := p.progress[c.Key]
		if !ok {
			return nil
		}
		return []string{truncate("    "+s.Timeline.Running.Render("└ "+stepLine(pr)), width)}
	}
	if !selected || !c.Response.OK {
		return nil
	}
	var r struct {
		Steps []struct {
			Action, Item string
			Count        int
			Done         bool
		} `json:"steps"`
	}
	if json.Unmarshal(c.Response.Result, &r) != nil {
		return nil
	}
	var out []string
	for i, st := range r.Steps {
		if i == maxPlanLines {
			out = append(out, s.Muted.Render(truncate(fmt.Sprintf("    … %d more steps", len(r.Steps)-i), width)))
			break
		}
		text := fmt.Sprintf("%s %d %s", clean(st.Action), st.Count, clean(st.Item))
		if st.Action == "place_table" || st.Action == "place_furnace" {
			text = "place " + clean(st.Item)
		}
		mark := s.Muted.Render("·")
		if st.Done {
			mark = s.Timeline.OK.Render(s.Glyphs.OK)
		}
		out = append(out, truncate("    "+mark+" "+s.Text.Render(text), width))
	}
	return out
}

// formatDuration is short and stable: 850ms, 1.2s, 3m04s.
func formatDuration(d time.Duration) string {
	switch {
	case d < 0:
		return "0ms"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	default:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
}

// selectedCall is the call the cursor is on, if any.
func (p timelinePane) selectedCall() *call {
	if p.selected < len(p.calls) {
		return p.calls[p.selected]
	}
	return nil
}

// detailText is the selected call's full request and response, indented
// JSON, cleaned of anything a terminal would act on.
func (p timelinePane) detailText() string {
	c := p.selectedCall()
	if c == nil {
		return ""
	}
	s := p.styles
	var b strings.Builder
	b.WriteString(s.DocHeading.Render("Request") + "\n")
	req := struct {
		ID   json.RawMessage            `json:"id"`
		Tool string                     `json:"tool"`
		Args map[string]json.RawMessage `json:"args"`
	}{c.ID, c.Tool, c.Args}
	if req.Args == nil {
		req.Args = map[string]json.RawMessage{}
	}
	w := p.detail.width()
	b.WriteString(s.Doc.Render(wrapBlock(indentJSON(req), w)) + "\n\n")
	b.WriteString(s.DocHeading.Render("Response") + "\n")
	if !c.Done {
		b.WriteString(s.Timeline.Running.Render("still running, for "+formatDuration(p.now().Sub(c.Started))) + "\n")
	} else {
		b.WriteString(s.Doc.Render(wrapBlock(indentJSON(c.Response), w)) + "\n")
		b.WriteString(s.Muted.Render("took "+formatDuration(c.Duration)) + "\n")
	}
	return b.String()
}

// wrapBlock wraps every line of text to w cells, continuing under its
// indentation, so long strings in a response stay readable.
func wrapBlock(text string, w int) string {
	if w < 8 {
		return text
	}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if ansi.StringWidth(l) <= w || indent > w/2 {
			out = append(out, l)
			continue
		}
		pad := strings.Repeat(" ", indent+2)
		for i, part := range strings.Split(ansi.Wrap(strings.TrimLeft(l, " "), w-indent-2, " ,"), "\n") {
			if i == 0 {
				out = append(out, strings.Repeat(" ", indent)+part)
			} else {
				out = append(out, pad+part)
			}
		}
	}
	return strings.Join(out, "\n")
}

func (p timelinePane) DetailView(w, h int) string {
	title := "Call"
	if c := p.selectedCall(); c != nil {
		title = "Call " + clean(c.Key) + " · " + c.Tool
	}
	return p.detail.view(p.styles, title, w, h)
}
