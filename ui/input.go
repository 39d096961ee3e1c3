package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// maxHistory bounds the input line's history.
const maxHistory = 200

// submitMsg carries a call the input line parsed and validated; the root
// gives it an id if it has none and sends it to the dispatcher.
type submitMsg struct {
	Req  protocol.Request
	Line string
}

// inputPane is the line where tool calls are typed or pasted.
type inputPane struct {
	styles  *themes.Styles
	keys    KeyMap
	catalog *protocol.Catalog
	width   int
	focused bool

	ti   textinput.Model
	err  string
	hint string
	// refused is set when the line was refused and nothing has been done to
	// it since: the text is kept, marked as refused, and the first text typed
	// or pasted replaces it rather than running on from its end (that is how
	// `join 42905` and then `leave` once became a bot named 42905leave). Any
	// editing key (arrows, backspace, Home/End) clears the mark and edits the
	// kept text instead.
	refused bool
	// note is a one-line remark from the console (a setting saved or not),
	// shown until the next key.
	note    string
	history []string
	// histPos is where ↑/↓ are in history; len(history) is the line being
	// written, kept in draft.
	histPos int
	draft   string
}

func newInputPane(s *themes.Styles, k KeyMap, c *protocol.Catalog) inputPane {
	ti := textinput.New()
	ti.Placeholder = placeholder(c)
	ti.CharLimit = protocol.DefaultMaxLine
	p := inputPane{keys: k, catalog: c, ti: ti}
	p.setStyles(s)
	return p
}

// placeholder shows what can be typed, from the catalog in use.
func placeholder(c *protocol.Catalog) string {
	parts := examples(c, 3)
	if _, ok := c.Lookup("mc_status"); ok {
		parts = append(parts, `{"tool":"mc_status"}`)
	}
	return strings.Join(parts, " · ")
}

func (p *inputPane) setStyles(s *themes.Styles) {
	p.styles = s
	p.ti.Prompt = s.Glyphs.Prompt
	p.ti.PromptStyle = s.Input.Prompt
	p.ti.TextStyle = s.Input.Text
	p.ti.PlaceholderStyle = s.Input.Placeholder
	p.ti.Cursor.Style = s.Input.Prompt
}

func (p *inputPane) SetWidth(w int) {
	p.width = w
	p.ti.Width = max(w-ansi.StringWidth(p.ti.Prompt)-1, 1)
}

// Focus gives the line the cursor.
func (p *inputPane) Focus() tea.Cmd { p.focused = true; return p.ti.Focus() }

// Blur takes it away.
func (p *inputPane) Blur() { p.focused = false; p.ti.Blur() }

// SetValue replaces the text, for prompts such as "join ".
func (p *inputPane) SetValue(s string) {
	p.ti.SetValue(s)
	p.ti.CursorEnd()
	p.err, p.refused = "", false
}

// Value is the text typed so far.
func (p inputPane) Value() string { return p.ti.Value() }

// Err is the inline error shown under the line, if any.
func (p inputPane) Err() string { return p.err }

// Refused reports whether the line shows a refused call that typing would
// replace.
func (p inputPane) Refused() bool { return p.refused }

// HasCompletion reports whether Tab would complete something now, so the
// root can let Tab complete rather than move focus.
func (p inputPane) HasCompletion() bool {
	_, cands := p.completion()
	return len(cands) > 0
}

// consoleWords are lines the input line answers itself, because people
// type them: help opens the help; quit and exit say which key quits.
var consoleWords = map[string]string{
	"help": "", "?": "",
	"quit": quitHint, "exit": quitHint, "q": quitHint, ":q": quitHint,
}

// quitHint says how to quit: a typed word never quits, so that no line
// typed in a hurry takes the bot out of the world.
const quitHint = "To quit blockmate press ctrl+c (twice while the bot is in a world, so it never leaves by accident)."

// openHelpMsg asks the root to show the help.
type openHelpMsg struct{}

func (p inputPane) Update(msg tea.Msg) (inputPane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		var cmd tea.Cmd
		p.ti, cmd = p.ti.Update(msg)
		return p, cmd
	}
	switch {
	case key.Matches(km, p.keys.Submit) && !km.Paste:
		line := p.ti.Value()
		if hint, ok := consoleWords[strings.ToLower(strings.TrimSpace(line))]; ok {
			if hint == "" {
				p.SetValue("")
				return p, func() tea.Msg { return openHelpMsg{} }
			}
			p.err, p.refused = hint, true
			return p, nil
		}
		req, err := parseLine(p.catalog, line)
		if err != nil {
			// The line stays for editing, marked as refused; it also goes
			// to the history, so if typing replaces it ↑ brings it back.
			p.err, p.refused, p.hint = err.Error(), true, ""
			p.remember(line)
			p.ti.CursorEnd()
			return p, nil
		}
		p.remember(line)
		p.ti.SetValue("")
		p.err, p.hint, p.refused = "", "", false
		return p, func() tea.Msg { return submitMsg{Req: req, Line: line} }
	case key.Matches(km, p.keys.Complete):
		p.refused = false
		p.complete()
		return p, nil
	case key.Matches(km, p.keys.HistoryPrev):
		p.recall(-1)
		return p, nil
	case key.Matches(km, p.keys.HistoryNext):
		p.recall(+1)
		return p, nil
	}
	if km.Paste {
		// A multi-line paste (pretty-printed JSON) becomes one line; JSON
		// does not mind, and the short form reads spaces the same way.
		km.Runes = []rune(strings.Join(strings.Fields(string(km.Runes)), " "))
	}
	if p.refused && isText(km) {
		// Typing over a refused line replaces it, as typing over selected
		// text does.
		p.ti.SetValue("")
	}
	before := p.ti.Value()
	var cmd tea.Cmd
	p.ti, cmd = p.ti.Update(km)
	p.refused = false
	p.note = ""
	if p.ti.Value() != before {
		p.err, p.hint = "", ""
		if _, cands := p.completion(); len(cands) > 1 && len(cands) <= 12 {
			p.hint = strings.Join(cands, " ")
		}
	}
	return p, cmd
}

func (p *inputPane) remember(line string) {
	if n := len(p.history); n == 0 || p.history[n-1] != line {
		p.history = append(p.history, line)
		if len(p.history) > maxHistory {
			p.history = p.history[len(p.history)-maxHistory:]
		}
	}
	p.histPos, p.draft = len(p.history), ""
}

func (p *inputPane) recall(step int) {
	if len(p.history) == 0 {
		return
	}
	if p.histPos == len(p.history) {
		p.draft = p.ti.Value()
	}
	p.histPos = min(max(p.histPos+step, 0), len(p.history))
	if p.histPos == len(p.history) {
		p.ti.SetValue(p.draft)
	} else {
		p.ti.SetValue(p.history[p.histPos])
	}
	p.ti.CursorEnd()
	p.err, p.refused = "", false
}

// completion finds what the word before the cursor could become: a tool
// name (full, or the short name typed without mc_) for the first word, an
// argument name of that tool for later words. It returns the word's start
// and the candidates.
func (p inputPane) completion() (start int, cands []string) {
	val := []rune(p.ti.Value())
	pos := min(p.ti.Position(), len(val))
	if len(val) > 0 && val[0] == '{' {
		return 0, nil
	}
	start = pos
	for start > 0 && val[start-1] != ' ' {
		start--
	}
	word := string(val[start:pos])
	if strings.ContainsAny(word, "=\"'") {
		return start, nil
	}
	before := strings.Fields(string(val[:start]))
	if len(before) == 0 {
		if word == "" {
			return start, nil
		}
		for _, name := range p.catalog.Names() {
			switch {
			case strings.HasPrefix(name, word):
				cands = append(cands, name)
			case strings.HasPrefix(strings.TrimPrefix(name, "mc_"), word):
				cands = append(cands, strings.TrimPrefix(name, "mc_"))
			}
		}
		return start, cands
	}
	t, ok := p.catalog.Lookup(toolName(p.catalog, before[0]))
	if !ok {
		return start, nil
	}
	given := map[string]bool{}
	for _, w := range before[1:] {
		if name, _, ok := strings.Cut(w, "="); ok {
			given[name] = true
		}
	}
	for _, a := range t.Args {
		if strings.HasPrefix(a.Name, word) && !given[a.Name] {
			cands = append(cands, a.Name+"=")
		}
	}
	return start, cands
}

// complete replaces the word before the cursor with the candidates' common
// prefix (the whole candidate when there is one).
func (p *inputPane) complete() {
	start, cands := p.completion()
	if len(cands) == 0 {
		return
	}
	common := cands[0]
	for _, c := range cands[1:] {
		for !strings.HasPrefix(c, common) {
			common = common[:len(common)-1]
		}
	}
	val := []rune(p.ti.Value())
	pos := min(p.ti.Position(), len(val))
	insert := common
	if len(cands) == 1 && !strings.HasSuffix(common, "=") {
		insert += " "
	}
	if len([]rune(insert)) < pos-start {
		return
	}
	next := string(val[:start]) + insert + string(val[pos:])
	p.ti.SetValue(next)
	p.ti.SetCursor(start + len([]rune(insert)))
	if len(cands) > 1 {
		p.hint = strings.Join(cands, " ")
	} else {
		p.hint = ""
	}
}

func (p inputPane) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Submit, p.keys.Complete, p.keys.HistoryPrev, p.keys.LeaveInput}
}

func (p inputPane) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{p.keys.Submit, p.keys.Complete, p.keys.HistoryPrev, p.keys.HistoryNext, p.keys.ScrollEvents, p.keys.LeaveInput},
	}
}

// maxErrLines bounds how much of the layout an inline error may take, and
// maxNoteLines a note (why a world cannot be joined is the longest).
const maxErrLines, maxNoteLines = 3, 4

// refusedHint is shown under a refused line, after the reason: the line is
// still there, and what the next key will do to it.
const refusedHint = "Kept: typing replaces it · ←/→ or backspace edit it · ↑ earlier lines"

// underLines are the lines under the input: the error (wrapped, up to
// maxErrLines) and, while the line is marked refused, what typing will do;
// or the completion hint, or a note; or one blank line so the layout does
// not jump as you type.
func (p inputPane) underLines() []string {
	s := p.styles
	switch {
	case p.err != "":
		lines := wrapText(clean(p.err), p.width)
		if len(lines) > maxErrLines {
			lines = lines[:maxErrLines]
			lines[maxErrLines-1] = truncate(lines[maxErrLines-1]+" …", p.width)
		}
		for i, l := range lines {
			lines[i] = s.Input.Error.Render(l)
		}
		if p.refused {
			lines = append(lines, s.Input.Hint.Render(truncate(refusedHint, p.width)))
		}
		return lines
	case p.hint != "":
		return []string{s.Input.Hint.Render(truncate(p.hint, p.width))}
	case p.note != "":
		lines := wrapText(clean(p.note), p.width)
		if len(lines) > maxNoteLines {
			lines = lines[:maxNoteLines]
			lines[maxNoteLines-1] = truncate(lines[maxNoteLines-1]+" …", p.width)
		}
		for i, l := range lines {
			lines[i] = s.Warn.Render(l)
		}
		return lines
	}
	return []string{""}
}

// Height is how many lines View takes.
func (p inputPane) Height() int { return 1 + len(p.underLines()) }

// View is the line and the lines under it. A refused line is drawn as
// refused: the prompt turns into the theme's failure mark and the text is
// shown selected, since the first key typed replaces it.
func (p inputPane) View() string {
	ti := p.ti
	if p.refused && ti.Value() != "" {
		ti.Prompt = p.styles.Glyphs.Fail + " "
		ti.PromptStyle = p.styles.Input.Error
		ti.TextStyle = p.styles.Input.Refused
		ti.Width = max(p.width-ansi.StringWidth(ti.Prompt)-1, 1)
	}
	out := []string{padRight(ti.View(), p.width)}
	for _, l := range p.underLines() {
		out = append(out, padRight(l, p.width))
	}
	return strings.Join(out, "\n")
}
