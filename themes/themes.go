// Package themes turns colour palettes into the one Styles struct the
// console's panes draw with. Panes hold no colours of their own: switching
// theme at run time is building a new Styles and handing it to every pane.
package themes

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Palette is a theme's colours by role. A nil background colour means the
// terminal's own, which is how the streamer theme leaves the background
// transparent for capture software.
type Palette struct {
	// Bar is the background of the title bar; nil leaves the terminal's own.
	Bar       lipgloss.TerminalColor
	BarText   lipgloss.TerminalColor
	Text      lipgloss.TerminalColor
	Muted     lipgloss.TerminalColor
	Accent    lipgloss.TerminalColor
	Border    lipgloss.TerminalColor
	Focus     lipgloss.TerminalColor
	Selection lipgloss.TerminalColor // background of the selected row
	Good      lipgloss.TerminalColor
	Warn      lipgloss.TerminalColor
	Bad       lipgloss.TerminalColor
	Info      lipgloss.TerminalColor
	Chat      lipgloss.TerminalColor
	Heart     lipgloss.TerminalColor
	Food      lipgloss.TerminalColor
	XP        lipgloss.TerminalColor
	// Chat lists the sixteen named Minecraft text colours, by their names in
	// chat components ("dark_red", "gold", …).
	Chat16 map[string]lipgloss.TerminalColor
	// Terrain colours the map's terrain classes.
	Terrain Terrain
}

// Terrain is a colour per class of the map's terrain (mc_map's legend).
type Terrain struct {
	Grass, Dirt, Sand, Stone, Water, Lava, Leaves, Wood, Snow, Ice, Nether, Mineral, Plant, Built, Other lipgloss.TerminalColor
}

// terrain256 are the map's colours on a dark or transparent background,
// near the game's own map colours.
var terrain256 = Terrain{
	Grass: c("70"), Dirt: c("137"), Sand: c("186"), Stone: c("246"), Water: c("33"), Lava: c("202"), Leaves: c("28"),
	Wood: c("130"), Snow: c("255"), Ice: c("153"), Nether: c("124"), Mineral: c("220"), Plant: c("107"), Built: c("180"), Other: c("250"),
}

// terrainLight are the same, deeper, to read on a light background.
var terrainLight = Terrain{
	Grass: c("28"), Dirt: c("94"), Sand: c("136"), Stone: c("241"), Water: c("26"), Lava: c("166"), Leaves: c("22"),
	Wood: c("94"), Snow: c("250"), Ice: c("31"), Nether: c("88"), Mineral: c("172"), Plant: c("64"), Built: c("130"), Other: c("240"),
}

// terrain16 uses only the sixteen basic colours, for high contrast.
var terrain16 = Terrain{
	Grass: ac("2", "10"), Dirt: ac("3", "3"), Sand: ac("3", "11"), Stone: ac("0", "7"), Water: ac("4", "12"), Lava: ac("1", "9"),
	Leaves: ac("2", "2"), Wood: ac("3", "3"), Snow: ac("0", "15"), Ice: ac("6", "14"), Nether: ac("1", "1"), Mineral: ac("3", "11"),
	Plant: ac("2", "10"), Built: ac("0", "15"), Other: ac("0", "15"),
}

// Glyphs are the symbols a theme draws with. The streamer theme uses wide,
// plain block glyphs that stay legible when a small capture is scaled down.
type Glyphs struct {
	HeartFull, HeartHalf, HeartEmpty string
	FoodFull, FoodHalf, FoodEmpty    string
	BarFull, BarEmpty                string
	Running                          []string // spinner frames
	OK, Fail, Stopped                string
	Selector                         string
	Connected, Disconnected          string
	Compatible, Incompatible         string
	Prompt                           string
}

// Theme is a named palette with its glyphs.
type Theme struct {
	Name        string
	Description string
	Palette     Palette
	Glyphs      Glyphs
}

func c(s string) lipgloss.TerminalColor { return lipgloss.Color(s) }

func ac(light, dark string) lipgloss.TerminalColor {
	return lipgloss.AdaptiveColor{Light: light, Dark: dark}
}

// minecraft16 are the game's own chat colours, used by every theme but
// high contrast, which folds them into its few strong colours.
var minecraft16 = map[string]lipgloss.TerminalColor{
	"black": c("#000000"), "dark_blue": c("#0000AA"), "dark_green": c("#00AA00"), "dark_aqua": c("#00AAAA"),
	"dark_red": c("#AA0000"), "dark_purple": c("#AA00AA"), "gold": c("#FFAA00"), "gray": c("#AAAAAA"),
	"dark_gray": c("#555555"), "blue": c("#5555FF"), "green": c("#55FF55"), "aqua": c("#55FFFF"),
	"red": c("#FF5555"), "light_purple": c("#FF55FF"), "yellow": c("#FFFF55"), "white": c("#FFFFFF"),
}

var standardGlyphs = Glyphs{
	HeartFull: "♥", HeartHalf: "♥", HeartEmpty: "♡",
	FoodFull: "●", FoodHalf: "◐", FoodEmpty: "○",
	BarFull: "▰", BarEmpty: "▱",
	Running: []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"},
	OK:      "✓", Fail: "✗", Stopped: "■",
	Selector:  "▸",
	Connected: "●", Disconnected: "○",
	Compatible: "✓", Incompatible: "✗",
	Prompt: "› ",
}

// Dark is the default theme, for dark terminals.
var Dark = Theme{
	Name:        "dark",
	Description: "the default, for dark terminals",
	Palette: Palette{
		Bar: c("236"), BarText: c("252"), Text: c("252"), Muted: c("243"), Accent: c("86"), Border: c("238"), Focus: c("62"),
		Selection: c("236"), Good: c("42"), Warn: c("214"), Bad: c("203"), Info: c("39"),
		Chat: c("230"), Heart: c("196"), Food: c("172"), XP: c("148"), Chat16: minecraft16, Terrain: terrain256,
	},
	Glyphs: standardGlyphs,
}

// Light is for light terminal backgrounds.
var Light = Theme{
	Name:        "light",
	Description: "for light terminals",
	Palette: Palette{
		Bar: c("254"), BarText: c("235"), Text: c("235"), Muted: c("244"), Accent: c("30"), Border: c("250"), Focus: c("63"),
		Selection: c("254"), Good: c("28"), Warn: c("130"), Bad: c("160"), Info: c("25"),
		Chat: c("94"), Heart: c("160"), Food: c("130"), XP: c("64"), Chat16: minecraft16, Terrain: terrainLight,
	},
	Glyphs: standardGlyphs,
}

// HighContrast uses only the strongest colours and bold text.
var HighContrast = Theme{
	Name:        "high-contrast",
	Description: "strong colours and bold text, for low vision or bright rooms",
	Palette: Palette{
		Bar: ac("0", "15"), BarText: ac("15", "0"),
		Text: ac("0", "15"), Muted: ac("0", "15"), Accent: ac("4", "14"), Border: ac("0", "15"), Focus: ac("4", "11"),
		Selection: ac("11", "4"), Good: ac("2", "10"), Warn: ac("3", "11"), Bad: ac("1", "9"), Info: ac("4", "14"),
		Chat: ac("0", "15"), Heart: ac("1", "9"), Food: ac("3", "11"), XP: ac("2", "10"),
		Chat16: map[string]lipgloss.TerminalColor{}, Terrain: terrain16,
	},
	Glyphs: Glyphs{
		HeartFull: "♥", HeartHalf: "♥", HeartEmpty: "·",
		FoodFull: "●", FoodHalf: "◐", FoodEmpty: "·",
		BarFull: "█", BarEmpty: "·",
		Running: []string{"|", "/", "-", "\\"},
		OK:      "OK", Fail: "ERR", Stopped: "STOP",
		Selector:  ">",
		Connected: "●", Disconnected: "○",
		Compatible: "yes", Incompatible: "NO",
		Prompt: "> ",
	},
}

// Streamer is for a console captured by streaming software: no background
// colour (the capture keys it out or overlays it), bright text, and large
// block glyphs that stay readable when scaled down.
var Streamer = Theme{
	Name:        "streamer",
	Description: "for stream overlays: no background colour, large clear glyphs",
	Palette: Palette{
		BarText: c("15"), Text: c("15"), Muted: c("250"), Accent: c("14"), Border: c("245"), Focus: c("14"),
		Good: c("10"), Warn: c("11"), Bad: c("9"), Info: c("14"),
		Chat: c("15"), Heart: c("9"), Food: c("214"), XP: c("10"), Chat16: minecraft16, Terrain: terrain256,
	},
	Glyphs: Glyphs{
		HeartFull: "█ ", HeartHalf: "▌ ", HeartEmpty: "░ ",
		FoodFull: "█ ", FoodHalf: "▌ ", FoodEmpty: "░ ",
		BarFull: "█", BarEmpty: "░",
		Running: []string{"◐", "◓", "◑", "◒"},
		OK:      "✔", Fail: "✘", Stopped: "■",
		Selector:  "▶",
		Connected: "●", Disconnected: "○",
		Compatible: "✔", Incompatible: "✘",
		Prompt: "▶ ",
	},
}

// All lists the themes in the order the switch key cycles through them.
var All = []Theme{Dark, Light, HighContrast, Streamer}

// Names lists the theme names.
func Names() []string {
	names := make([]string, len(All))
	for i, t := range All {
		names[i] = t.Name
	}
	return names
}

// ByName finds a theme; the error says which names exist.
func ByName(name string) (Theme, error) {
	for _, t := range All {
		if strings.EqualFold(t.Name, name) {
			return t, nil
		}
	}
	return Theme{}, fmt.Errorf("there is no theme %q; choose one of %s", name, strings.Join(Names(), ", "))
}

// Next is the theme after name in All, wrapping around.
func Next(name string) Theme {
	for i, t := range All {
		if t.Name == name {
			return All[(i+1)%len(All)]
		}
	}
	return All[0]
}
