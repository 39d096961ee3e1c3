package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/blockmate/blockmate/themes"
)

// detailView is the full view of one item of a list (a tool call, an
// event) that takes the body of the screen until it is closed: a viewport
// over its text. Text typed while it is open goes to the input line like
// any other (the root sees to that), so it answers only to keys that type
// nothing.
type detailView struct {
	open bool
	vp   viewport.Model
}

func newDetailView() detailView {
	vp := viewport.New(0, 0)
	// The viewport's own keys include letters (j, k, f, b, space); here
	// letters are text for the input line, so only keys that type nothing
	// scroll.
	vp.KeyMap = viewport.KeyMap{
		Up:       key.NewBinding(key.WithKeys("up")),
		Down:     key.NewBinding(key.WithKeys("down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup")),
		PageDown: key.NewBinding(key.WithKeys("pgdown")),
	}
	return detailView{vp: vp}
}

// setSize sizes the text area.
func (d *detailView) setSize(w, h int) { d.vp.Width, d.vp.Height = w, h }

// width is the text area's width, for wrapping the content.
func (d detailView) width() int { return d.vp.Width }

// show opens the view at the top of content.
func (d *detailView) show(content string) {
	d.open = true
	d.vp.SetContent(content)
	d.vp.GotoTop()
}

// refresh replaces the content where the view is scrolled to, for an item
// that changed while shown (a call that finished).
func (d *detailView) refresh(content string) { d.vp.SetContent(content) }

// update handles a key while open: Esc or Enter close, Home/End jump, the
// rest scroll.
func (d detailView) update(msg tea.KeyMsg, k KeyMap) (detailView, tea.Cmd) {
	switch {
	case key.Matches(msg, k.Back), key.Matches(msg, k.Select):
		d.open = false
		return d, nil
	case key.Matches(msg, k.Top):
		d.vp.GotoTop()
		return d, nil
	case key.Matches(msg, k.Bottom):
		d.vp.GotoBottom()
		return d, nil
	}
	var cmd tea.Cmd
	d.vp, cmd = d.vp.Update(msg)
	return d, cmd
}

// view frames the text with its title and a line saying how to leave.
func (d detailView) view(s *themes.Styles, title string, w, h int) string {
	body := strings.Split(d.vp.View(), "\n")
	body = append(body, "", s.Muted.Render("esc goes back · ↑/↓ pgup/pgdn scroll · typing goes to the input line"))
	return frame(s.PaneFocused, s.PaneTitleFocused, title, body, w, h)
}
