package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// KeyMap is every key the console answers to. Panes show the ones that
// apply to them through their help.KeyMap.
//
// The console is input-first: whatever a person types or pastes, from any
// pane, lands in the input line. So no action sits on a key that is typed
// in a word: the actions are on ctrl keys and F1, the list panes keep only
// navigation keys that type nothing (arrows, PgUp/PgDn, Home/End, Enter,
// Esc), and ? opens the help only on an empty line, where no call can
// begin with it.
type KeyMap struct {
	// Global: work from every pane, the input line included.
	Quit     key.Binding
	Stop     key.Binding
	Theme    key.Binding
	Overlay  key.Binding
	Help     key.Binding
	NextPane key.Binding
	PrevPane key.Binding
	// HelpOnEmptyLine is ?, which opens the help only while the input line
	// is empty: in text it is a question mark.
	HelpOnEmptyLine key.Binding
	// Back closes details and help, leaves the overlay, and cancels a quit.
	Back key.Binding

	// Lists.
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	Select   key.Binding

	// Worlds.
	Join key.Binding

	// Events.
	PrevKind key.Binding
	NextKind key.Binding

	// Input line.
	Submit       key.Binding
	Complete     key.Binding
	HistoryPrev  key.Binding
	HistoryNext  key.Binding
	LeaveInput   key.Binding
	ScrollEvents key.Binding
}

// DefaultKeyMap returns the console's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Quit:            key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Stop:            key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "stop bot")),
		Theme:           key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "theme")),
		Overlay:         key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "overlay")),
		Help:            key.NewBinding(key.WithKeys("f1"), key.WithHelp("F1", "help")),
		NextPane:        key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane:        key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		HelpOnEmptyLine: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help (on an empty line)")),
		Back:            key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),

		Up:       key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "up")),
		Down:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "oldest")),
		Bottom:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "follow")),
		Select:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "details")),

		Join: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "join")),

		PrevKind: key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "kind back")),
		NextKind: key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "kind")),

		Submit:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Complete:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		HistoryPrev:  key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "history")),
		HistoryNext:  key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "history")),
		LeaveInput:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "panes")),
		ScrollEvents: key.NewBinding(key.WithKeys("pgup", "pgdown"), key.WithHelp("pgup/pgdn", "scroll events")),
	}
}

// globalHelp are the keys listed with every pane's, most needed first: a
// narrow footer cuts from the end.
func (k KeyMap) globalHelp() []key.Binding {
	return []key.Binding{k.Help, k.Quit, k.Stop, k.Theme, k.Overlay, k.NextPane}
}

// globalFullHelp is globalHelp with the keys that only the full help has
// room for.
func (k KeyMap) globalFullHelp() []key.Binding {
	return []key.Binding{k.Help, k.HelpOnEmptyLine, k.Quit, k.Stop, k.Theme, k.Overlay, k.NextPane, k.PrevPane, k.Back}
}

// isText reports whether a key is text a person typed or pasted: letters,
// digits, punctuation, space, anything that prints. Such a key always goes
// to the input line. Control keys, arrows and F-keys are not text.
func isText(msg tea.KeyMsg) bool {
	return (msg.Type == tea.KeyRunes || msg.Type == tea.KeySpace) && len(msg.Runes) > 0
}
