package themes

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
)

// Styles is everything the console draws with, built from one theme. Panes
// take a *Styles and never make colours of their own.
type Styles struct {
	Theme  Theme
	Glyphs Glyphs

	// Bar is the one-line title bar at the top.
	Bar, BarTitle, BarDim lipgloss.Style

	// Pane frames: normal, focused, and alert (low health).
	Pane, PaneFocused, PaneAlert lipgloss.Style
	PaneTitle, PaneTitleFocused  lipgloss.Style

	Text, Muted, Accent, Good, Warn, Bad, Info lipgloss.Style
	// Selected marks the selected row of a list.
	Selected lipgloss.Style

	Status struct {
		Label                     lipgloss.Style
		Heart, HeartLow, HeartOff lipgloss.Style
		Food, FoodOff             lipgloss.Style
		XP, XPOff                 lipgloss.Style
	}

	Event struct {
		Time                                                     lipgloss.Style
		Chat, System, Danger, Good, World, Progress, Conn, Other lipgloss.Style
		ChatName, ChatText                                       lipgloss.Style
		// Own is the bot's own chat lines, told apart from other players'.
		Own        lipgloss.Style
		Key, Value lipgloss.Style
	}

	Timeline struct {
		ID, Tool, Args, Duration  lipgloss.Style
		Running, OK, Fail, Origin lipgloss.Style
	}

	Input struct {
		Prompt, Text, Placeholder, Error, Hint lipgloss.Style
		// Refused is the text of a line that was refused, drawn as selected:
		// the next key typed replaces it.
		Refused lipgloss.Style
	}

	// Map draws the top-down map: its terrain by class, the bot, other
	// players, hostile mobs, the path being walked and its goal.
	Map struct {
		Grass, Dirt, Sand, Stone, Water, Lava, Leaves, Wood, Snow, Ice, Nether, Mineral, Plant, Built, Other lipgloss.Style
		Bot, Player, Hostile, Path, Goal                                                                     lipgloss.Style
	}

	Help help.Styles
	// Doc is the text of the full help and the detail view.
	Doc, DocHeading lipgloss.Style
	// Overlay is the compact streaming layout's big line.
	OverlayTitle lipgloss.Style
}

// New builds the styles for a theme.
func New(t Theme) *Styles {
	p := t.Palette
	s := &Styles{Theme: t, Glyphs: t.Glyphs}
	fg := func(col lipgloss.TerminalColor) lipgloss.Style {
		st := lipgloss.NewStyle()
		if col != nil {
			st = st.Foreground(col)
		}
		return st
	}
	bold := t.Name == HighContrast.Name || t.Name == Streamer.Name

	s.Bar = fg(p.BarText).Bold(true)
	if p.Bar != nil {
		s.Bar = s.Bar.Background(p.Bar)
	}
	s.BarTitle = s.Bar.Foreground(p.Accent)
	s.BarDim = s.Bar.Bold(bold).Foreground(p.Muted)

	s.Pane = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(p.Border)
	s.PaneFocused = s.Pane.BorderForeground(p.Focus)
	s.PaneAlert = s.Pane.BorderForeground(p.Bad)
	if bold {
		s.Pane = s.Pane.Border(lipgloss.NormalBorder())
		s.PaneFocused = s.PaneFocused.Border(lipgloss.ThickBorder())
		s.PaneAlert = s.PaneAlert.Border(lipgloss.DoubleBorder())
	}
	s.PaneTitle = fg(p.Muted).Bold(true)
	s.PaneTitleFocused = fg(p.Focus).Bold(true)

	s.Text = fg(p.Text).Bold(bold && t.Name == HighContrast.Name)
	s.Muted = fg(p.Muted)
	s.Accent = fg(p.Accent).Bold(true)
	s.Good = fg(p.Good).Bold(bold)
	s.Warn = fg(p.Warn).Bold(true)
	s.Bad = fg(p.Bad).Bold(true)
	s.Info = fg(p.Info)
	s.Selected = fg(p.Accent).Bold(true)
	if p.Selection != nil {
		s.Selected = s.Selected.Background(p.Selection)
	} else {
		s.Selected = s.Selected.Underline(true)
	}

	s.Status.Label = fg(p.Muted).Bold(bold)
	s.Status.Heart = fg(p.Heart)
	s.Status.HeartLow = fg(p.Bad).Bold(true).Blink(true)
	s.Status.HeartOff = fg(p.Muted)
	s.Status.Food = fg(p.Food)
	s.Status.FoodOff = fg(p.Muted)
	s.Status.XP = fg(p.XP)
	s.Status.XPOff = fg(p.Muted)

	s.Event.Time = fg(p.Muted)
	s.Event.Chat = fg(p.Chat).Bold(true)
	s.Event.System = fg(p.Info)
	s.Event.Danger = fg(p.Bad).Bold(true)
	s.Event.Good = fg(p.Good)
	s.Event.World = fg(p.Accent)
	s.Event.Progress = fg(p.Info)
	s.Event.Conn = fg(p.Warn).Bold(true)
	s.Event.Other = fg(p.Text)
	s.Event.ChatName = fg(p.Accent).Bold(true)
	s.Event.ChatText = fg(p.Chat)
	s.Event.Own = fg(p.Info).Italic(true)
	s.Event.Key = fg(p.Muted)
	s.Event.Value = fg(p.Text)

	s.Timeline.ID = fg(p.Muted)
	s.Timeline.Tool = fg(p.Accent).Bold(bold)
	s.Timeline.Args = fg(p.Text)
	s.Timeline.Duration = fg(p.Muted)
	s.Timeline.Running = fg(p.Warn).Bold(true)
	s.Timeline.OK = fg(p.Good).Bold(true)
	s.Timeline.Fail = fg(p.Bad).Bold(true)
	s.Timeline.Origin = fg(p.Info)

	s.Input.Prompt = fg(p.Focus).Bold(true)
	s.Input.Text = fg(p.Text)
	s.Input.Placeholder = fg(p.Muted)
	s.Input.Error = fg(p.Bad).Bold(true)
	s.Input.Hint = fg(p.Muted)
	// Reverse video reads as selected text in any terminal; the streamer
	// theme paints no background, so there it is underlined, as its list
	// selection is.
	s.Input.Refused = fg(p.Bad).Reverse(true)
	if p.Selection == nil {
		s.Input.Refused = fg(p.Bad).Underline(true)
	}

	tr := p.Terrain
	for _, t := range []struct {
		st  *lipgloss.Style
		col lipgloss.TerminalColor
	}{
		{&s.Map.Grass, tr.Grass}, {&s.Map.Dirt, tr.Dirt}, {&s.Map.Sand, tr.Sand}, {&s.Map.Stone, tr.Stone}, {&s.Map.Water, tr.Water},
		{&s.Map.Lava, tr.Lava}, {&s.Map.Leaves, tr.Leaves}, {&s.Map.Wood, tr.Wood}, {&s.Map.Snow, tr.Snow}, {&s.Map.Ice, tr.Ice},
		{&s.Map.Nether, tr.Nether}, {&s.Map.Mineral, tr.Mineral}, {&s.Map.Plant, tr.Plant}, {&s.Map.Built, tr.Built}, {&s.Map.Other, tr.Other},
	} {
		*t.st = fg(t.col)
	}
	s.Map.Bot = fg(p.Accent).Bold(true)
	s.Map.Player = fg(p.Info).Bold(true)
	s.Map.Hostile = fg(p.Bad).Bold(true)
	s.Map.Path = fg(p.Warn)
	s.Map.Goal = fg(p.Warn).Bold(true)

	s.Help = help.Styles{
		ShortKey:       fg(p.Accent).Bold(bold),
		ShortDesc:      fg(p.Muted),
		ShortSeparator: fg(p.Border),
		Ellipsis:       fg(p.Border),
		FullKey:        fg(p.Accent).Bold(bold),
		FullDesc:       fg(p.Text),
		FullSeparator:  fg(p.Border),
	}
	s.Doc = fg(p.Text)
	s.DocHeading = fg(p.Accent).Bold(true).Underline(true)
	s.OverlayTitle = fg(p.Accent).Bold(true)
	return s
}

// Segment styles one piece of a chat component: colour is a Minecraft colour
// name or "#rrggbb"; the flags are the component's. Unknown colours fall
// back to the chat colour, so a peer cannot pick arbitrary escape content.
func (s *Styles) Segment(color string, bold, italic, underlined, strikethrough bool) lipgloss.Style {
	st := s.Event.ChatText
	if col, ok := s.Theme.Palette.Chat16[strings.ToLower(color)]; ok {
		st = st.Foreground(col)
	} else if isHexColor(color) && len(s.Theme.Palette.Chat16) > 0 {
		st = st.Foreground(lipgloss.Color(color))
	}
	return st.Bold(bold).Italic(italic).Underline(underlined).Strikethrough(strikethrough)
}

func isHexColor(s string) bool {
	if len(s) != 7 || s[0] != '#' {
		return false
	}
	for _, r := range s[1:] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}
