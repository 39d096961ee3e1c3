package themes

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

func TestByNameAndNext(t *testing.T) {
	for _, th := range All {
		got, err := ByName(strings.ToUpper(th.Name))
		if err != nil || got.Name != th.Name {
			t.Fatalf("ByName(%q) = %v, %v", th.Name, got.Name, err)
		}
	}
	if _, err := ByName("neon"); err == nil || !strings.Contains(err.Error(), "dark, light, high-contrast, streamer") {
		t.Fatalf("an unknown theme should list the names; got %v", err)
	}
	name := Dark.Name
	for range All {
		name = Next(name).Name
	}
	if name != Dark.Name {
		t.Fatalf("cycling through every theme should come back to dark; got %s", name)
	}
}

// TestStreamerHasNoBackground: stream capture keys out the background, so
// the streamer theme must not paint one anywhere.
func TestStreamerHasNoBackground(t *testing.T) {
	s := New(Streamer)
	if Streamer.Palette.Bar != nil || Streamer.Palette.Selection != nil {
		t.Fatal("the streamer palette sets a background colour")
	}
	if _, isNone := s.Bar.GetBackground().(lipgloss.NoColor); !isNone {
		t.Fatalf("the streamer title bar has a background: %v", s.Bar.GetBackground())
	}
	if _, isNone := s.Selected.GetBackground().(lipgloss.NoColor); !isNone {
		t.Fatalf("the streamer selection has a background: %v", s.Selected.GetBackground())
	}
	if !s.Selected.GetUnderline() {
		t.Fatal("without a background the selection must show some other way")
	}
	if s.Input.Refused.GetReverse() || !s.Input.Refused.GetUnderline() {
		t.Fatal("a refused line in the streamer theme must be marked without painting a background")
	}
	for _, g := range []string{s.Glyphs.HeartFull, s.Glyphs.HeartEmpty, s.Glyphs.FoodFull} {
		if len([]rune(g)) < 2 {
			t.Fatalf("streamer glyph %q is not large", g)
		}
	}
}

func TestSegmentColours(t *testing.T) {
	s := New(Dark)
	if s.Segment("gold", false, false, false, false).GetForeground() == s.Event.ChatText.GetForeground() {
		t.Fatal("a named Minecraft colour should colour the segment")
	}
	if s.Segment("\x1b[31m", false, false, false, false).GetForeground() != s.Event.ChatText.GetForeground() {
		t.Fatal("an unknown colour should fall back to the chat colour")
	}
	if !s.Segment("", true, false, false, false).GetBold() {
		t.Fatal("bold segments should be bold")
	}
}

// TestEveryThemeColoursTheMap: each theme gives every terrain class of the
// map a colour of its own kind (none left to the terminal's default).
func TestEveryThemeColoursTheMap(t *testing.T) {
	for _, th := range All {
		tr := th.Palette.Terrain
		for i, col := range []lipgloss.TerminalColor{tr.Grass, tr.Dirt, tr.Sand, tr.Stone, tr.Water, tr.Lava, tr.Leaves, tr.Wood,
			tr.Snow, tr.Ice, tr.Nether, tr.Mineral, tr.Plant, tr.Built, tr.Other} {
			if col == nil {
				t.Errorf("%s: terrain colour %d is not set", th.Name, i)
			}
		}
		s := New(th)
		if s.Map.Water.GetForeground() == s.Map.Grass.GetForeground() {
			t.Errorf("%s: water and grass look alike", th.Name)
		}
		if _, none := s.Map.Water.GetBackground().(lipgloss.NoColor); !none {
			t.Errorf("%s: the map paints a background", th.Name)
		}
	}
}
