package ui

import "github.com/charmbracelet/bubbles/key"

// KeyMap is every key the console answers to. Panes show the ones that
// apply to them through their help.KeyMap.
type KeyMap struct {
	// Global: work whatever has focus, the input line included.
	ForceQuit key.Binding
	Stop      key.Binding
	NextPane  key.Binding
	PrevPane  key.Binding
	NextTheme key.Binding
	// AnyHelp opens the help from anywhere, the input line included.
	AnyHelp key.Binding

	// Outside the input line.
	Quit       key.Binding
	Help       key.Binding
	ThemeKey   key.Binding
	Overlay    key.Binding
	StopKey    key.Binding
	FocusInput key.Binding

	// Lists.
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	Select   key.Binding
	Back     key.Binding

	// Worlds.
	Join    key.Binding
	Connect key.Binding

	// Events.
	Filter     key.Binding
	FilterBack key.Binding

	// Input line.
	Submit      key.Binding
	Complete    key.Binding
	HistoryPrev key.Binding
	HistoryNext key.Binding
	LeaveInput  key.Binding
}

// DefaultKeyMap returns the console's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Stop:      key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "stop bot")),
		NextPane:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "pane")),
		PrevPane:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "pane back")),
		NextTheme: key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "theme")),
		AnyHelp:   key.NewBinding(key.WithKeys("f1"), key.WithHelp("f1", "help")),

		Quit:       key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		Help:       key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		ThemeKey:   key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "theme")),
		Overlay:    key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "overlay")),
		StopKey:    key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "stop bot")),
		FocusInput: key.NewBinding(key.WithKeys(":", "/", "i"), key.WithHelp(":", "type a call")),

		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", " "), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "oldest")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "newest (follow)")),
		Select:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "details")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),

		Join:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "join")),
		Connect: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "host:port")),

		Filter:     key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "filter kind")),
		FilterBack: key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "filter back")),

		Submit:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Complete:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		HistoryPrev: key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "history")),
		HistoryNext: key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "history")),
		LeaveInput:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave")),
	}
}

// globalHelp are the keys listed with every pane's.
func (k KeyMap) globalHelp() []key.Binding {
	return []key.Binding{k.NextPane, k.Stop, k.NextTheme, k.ForceQuit}
}

// paneHelp are the keys every pane but the input line shares.
func (k KeyMap) paneHelp() []key.Binding {
	return []key.Binding{k.FocusInput, k.StopKey, k.ThemeKey, k.Overlay, k.Help, k.Quit}
}
