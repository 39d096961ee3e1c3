package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// fixtureMap is mc_map's answer at radius 8 around a bot facing north-east:
// grass, a pond east of the bot (dx 2…4, dz -3…-2), lava at -5 2, leaves at
// 5 5; alex at -4 3 and cole at 6 -6 (nearest first), a zombie at 3 4; a
// path east to a goal at 7 1; beyond x 6 the chunks are not loaded.
func fixtureMap() *mapData {
	const r = 8
	rows := make([]string, 2*r+1)
	for i := range rows {
		row := []byte(strings.Repeat("g", 2*r+1))
		dz := i - r
		for j := range row {
			dx := j - r
			switch {
			case dx > 6:
				row[j] = ' '
			case dx >= 2 && dx <= 4 && dz >= -3 && dz <= -2:
				row[j] = 'w'
			case dx == -5 && dz == 2:
				row[j] = 'l'
			case dx == 5 && dz == 5:
				row[j] = 'f'
			}
		}
		rows[i] = string(row)
	}
	return &mapData{
		Radius: r, Facing: "north-east", Rows: rows,
		Legend:   map[string]string{"g": "grass", "w": "water", "l": "lava", "f": "leaves", " ": "not loaded"},
		Players:  []mapMark{{Username: "alex", DX: -4, DZ: 3}, {Username: "cole\x1b[31m", DX: 6, DZ: -6}},
		Hostiles: []mapMark{{Type: "zombie", DX: 3, DZ: 4}},
		Path:     []mapMark{{DX: 1}, {DX: 2, DZ: 1}, {DX: 3, DZ: 1}},
		Goal:     &mapMark{DX: 7, DZ: 1},
	}
}

// cellAt is the two cells the picture draws for the block at dx, dz.
func cellAt(t *testing.T, pic []string, dx, dz int) string {
	t.Helper()
	rows, cols := len(pic), ansi.StringWidth(pic[0])/2
	row := []rune(ansi.Strip(pic[rows/2+dz]))
	c := 2 * (cols/2 + dx)
	if c < 0 || c+2 > len(row) {
		t.Fatalf("offset %d %d is outside the picture", dx, dz)
	}
	return string(row[c : c+2])
}

// TestMapPicture: the picture shows what mc_map said, where it said it:
// the bot's arrow at the centre pointing where it looks, water where the
// water is (and only there), lava and leaves, each player's letter at its
// offset, the zombie as "!", the path and its goal, and blank where no
// chunk is loaded; the legend names the letters.
func TestMapPicture(t *testing.T) {
	p := newMapPane(themes.New(themes.Dark))
	p.data = fixtureMap()
	pic := p.picture(17, 17)
	if len(pic) != 17 {
		t.Fatalf("%d rows", len(pic))
	}
	for i, l := range pic {
		if w := ansi.StringWidth(l); w != 34 {
			t.Fatalf("row %d is %d cells: %q", i, w, l)
		}
	}
	for _, c := range []struct {
		dx, dz int
		want   string
	}{
		{0, 0, "↗ "}, {-4, 3, "A "}, {6, -6, "B "}, {3, 4, "! "},
		{2, -3, "~~"}, {4, -2, "~~"}, {5, -2, ",,"}, {-5, 2, "≈≈"}, {5, 5, "**"},
		{1, 0, "· "}, {2, 1, "· "}, {-1, 0, ",,"}, {7, 1, "◎ "}, {7, 0, "  "}, {8, -8, "  "}, {-8, -8, ",,"},
	} {
		if got := cellAt(t, pic, c.dx, c.dz); got != c.want {
			t.Errorf("at %d %d: %q, want %q\n%s", c.dx, c.dz, got, c.want, strings.Join(pic, "\n"))
		}
	}
	water := 0
	for _, l := range pic {
		water += strings.Count(l, "~~")
	}
	if water != 6 {
		t.Errorf("%d blocks of water drawn, want 6", water)
	}
	// A smaller picture crops around the bot: it stays at the centre.
	small := p.picture(5, 7)
	if cellAt(t, small, 0, 0) != "↗ " || cellAt(t, small, 1, 0) != "· " || cellAt(t, small, -3, -2) != ",," {
		t.Errorf("cropped:\n%s", strings.Join(small, "\n"))
	}
	legend := p.legend(200)
	for _, want := range []string{"↗ bot", "A alex", "B cole ·", "! zombie", "◎ goal", "~ water", "≈ lava", ", grass", "* leaves"} {
		if !strings.Contains(legend, want) {
			t.Errorf("the legend lacks %q: %q", want, legend)
		}
	}
	if strings.ContainsRune(legend, '\x1b') {
		t.Errorf("a player's name brought an escape into the legend: %q", legend)
	}
	if short := p.legend(20); ansi.StringWidth(short) > 20 || !strings.HasPrefix(short, "↗ bot · A alex") {
		t.Errorf("a narrow legend: %q", short)
	}
	// Two zombies are counted; an unknown facing draws the bot as @.
	p.data.Hostiles = append(p.data.Hostiles, mapMark{Type: "zombie", DX: -1, DZ: -1})
	p.data.Facing = ""
	if pic := p.picture(5, 5); cellAt(t, pic, 0, 0) != "@ " || cellAt(t, pic, -1, -1) != "! " || !strings.Contains(p.legend(200), "! zombie ×2") {
		t.Errorf("two zombies, no facing:\n%s\n%s", strings.Join(pic, "\n"), p.legend(200))
	}
}

// TestMapInTheConsole: in a world, the map pane sits beside the events at
// every size from 80×24 up, in every theme, titled with where the bot
// looks, the bot at its centre and alex's letter at his offset; the
// overlay shows it beside the status where there is room, and leaves it
// out where there is not; leaving the world takes it away.
func TestMapInTheConsole(t *testing.T) {
	for _, theme := range themes.All {
		for _, size := range [][2]int{{80, 24}, {120, 36}, {160, 48}} {
			m := newModel(t, newDispatcher(t), theme, size[0], size[1])
			m = update(m, statusMsg{Status: fixtureStatus(17)})
			m = update(m, batchMsg{Events: fixtureEvents()})
			if strings.Contains(m.View(), "Map ·") {
				t.Fatalf("a map pane before any map came:\n%s", m.View())
			}
			m = update(m, mapMsg{Map: fixtureMap()})
			view := m.View()
			checkFrame(t, view, size[0], size[1])
			if !strings.Contains(view, "Map · north-east") || !strings.Contains(view, "Events") {
				t.Fatalf("%s %v: no map pane beside the events:\n%s", theme.Name, size, view)
			}
			if !strings.Contains(view, "↗ ") || (size[0] >= 120 && !strings.Contains(view, "A alex")) {
				t.Errorf("%s %v: the bot or alex's legend is missing:\n%s", theme.Name, size, view)
			}
			// The picture's middle row holds the arrow, with the same
			// number of blocks (two cells each) either side of it.
			checkCentred(t, view, m.worldMap)
		}
	}

	m := newModel(t, newDispatcher(t), themes.Streamer, 100, 20)
	m = update(m, statusMsg{Status: fixtureStatus(17)})
	m = update(m, mapMsg{Map: fixtureMap()})
	m = update(m, keyType(tea.KeyCtrlO))
	view := m.View()
	checkFrame(t, view, 100, 20)
	if !strings.Contains(view, "↗ bot") || !strings.Contains(view, "Health") {
		t.Errorf("the overlay at 100×20 should show the status and the map:\n%s", view)
	}
	m = update(m, tea.WindowSizeMsg{Width: 44, Height: 10})
	view = m.View()
	checkFrame(t, view, 44, 10)
	if strings.Contains(view, "↗") {
		t.Errorf("the overlay at 44×10 has no room for a map:\n%s", view)
	}
	m = update(m, tea.WindowSizeMsg{Width: 100, Height: 20})
	m = update(m, statusMsg{Status: fixtureStatus(17)}) // still there
	m = update(m, statusMsg{Status: api.Status{State: "offline"}})
	if m.worldMap.shown() || strings.Contains(m.View(), "↗") {
		t.Errorf("out of the world the map should go:\n%s", m.View())
	}
	// A map asked for before the bot left, answered after, is dropped.
	m = update(m, mapMsg{Map: fixtureMap()})
	if m.worldMap.shown() {
		t.Error("a map that came back after the bot left is shown")
	}
}

// checkCentred finds the map pane in view (by its top border) and checks
// the arrow sits in the middle row and the middle block of its picture.
func checkCentred(t *testing.T, view string, p mapPane) {
	t.Helper()
	lines := strings.Split(ansi.Strip(view), "\n")
	tail := func(l string) []rune {
		r := []rune(l)
		return r[len(r)-p.width:]
	}
	top := -1
	for i, l := range lines {
		if strings.Contains(string(tail(l)), "Map") {
			top = i
			break
		}
	}
	if top < 0 {
		t.Fatalf("no map pane in\n%s", view)
	}
	rows, cols := oddDown(p.height-2-mapLegendLines), oddDown((p.width-4)/2)
	pad := (p.width - 4 - 2*cols) / 2
	mid := tail(lines[top+1+rows/2])
	inner := mid[2 : p.width-2]
	if got := string(inner[pad+2*(cols/2)]); got != "↗" {
		t.Errorf("the middle of the %d×%d picture is %q, not the arrow:\n%s", cols, rows, got, strings.Join(lines[top:top+p.height], "\n"))
	}
}

// mapCounter is a dispatcher whose mc_map stand-in counts the calls and
// their origins.
type mapCounter struct {
	mu      sync.Mutex
	calls   int
	radius  []int
	origins []protocol.Origin
}

func newMapDispatcher(t *testing.T, c *mapCounter) *protocol.Dispatcher {
	d := newDispatcher(t)
	d.Catalog().Add(protocol.Tool{
		Name: "mc_map", Description: "test stand-in for mc_map", Effect: protocol.Read,
		Args: protocol.Schema{protocol.Int("radius", "radius", 1, 32)},
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.calls++
			c.radius = append(c.radius, a.Int("radius"))
			o, _ := protocol.OriginOf(ctx)
			c.origins = append(c.origins, o)
			return fixtureMap(), nil
		},
	})
	return d
}

// TestMapIsAskedCheaply: the console asks for a map through the
// dispatcher as an internal call (never in the timeline), one at a time
// and at most once per mapEvery on its own clock, with the radius that
// fills its pane; not before the bot is in a world.
func TestMapIsAskedCheaply(t *testing.T) {
	var counter mapCounter
	d := newMapDispatcher(t, &counter)
	observed := 0
	var omu sync.Mutex
	defer d.Observe(func(ev protocol.CallEvent) {
		if ev.Tool == "mc_map" {
			omu.Lock()
			observed++
			omu.Unlock()
		}
	})()
	now := epoch
	m := New(Options{Dispatcher: d, Theme: themes.Dark, Now: func() time.Time { return now }, Location: time.UTC})
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	if cmd := m.askMap(); cmd != nil {
		t.Fatal("a map was asked for before the bot is in a world")
	}
	// The status poll's answer asks for the first map.
	m, _ = updateCmd(m, statusMsg{Status: fixtureStatus(17)})
	if !m.worldMap.pending || !m.worldMap.asked.Equal(now) {
		t.Fatal("the status answer did not ask for a map")
	}
	m.worldMap.pending = false
	m.worldMap.asked = time.Time{}
	cmd := m.askMap()
	if cmd == nil {
		t.Fatal("no map asked for")
	}
	// One at a time: while it runs, no second call.
	now = now.Add(time.Second)
	if m.askMap() != nil {
		t.Error("a second map was asked for while the first ran")
	}
	m = update(m, cmd())
	if !m.worldMap.shown() || counter.calls != 1 || counter.origins[0] != protocol.OriginInternal ||
		counter.radius[0] != oddDown(m.worldMap.height-2-mapLegendLines)/2 || counter.radius[0] < 5 {
		t.Fatalf("after the call: shown %v, calls %d, origins %v, radius %v", m.worldMap.shown(), counter.calls, counter.origins, counter.radius)
	}
	// At most once per mapEvery.
	m.worldMap.asked = now
	now = now.Add(mapEvery - time.Millisecond)
	if m.askMap() != nil {
		t.Error("a map was asked for sooner than mapEvery after the last")
	}
	now = now.Add(time.Millisecond)
	if cmd := m.askMap(); cmd == nil {
		t.Error("no map asked for once mapEvery passed")
	} else {
		m = update(m, cmd())
	}
	omu.Lock()
	defer omu.Unlock()
	if observed != 0 || len(m.timeline.calls) != 0 {
		t.Errorf("the console's own map calls reached the timeline: %d observed, %d shown", observed, len(m.timeline.calls))
	}
	// An error keeps the last map and says so in the title.
	m = update(m, mapMsg{Err: "the bot is dead"})
	if !m.worldMap.shown() || !strings.Contains(m.View(), "the bot is dead") {
		t.Errorf("an error should keep the map and be told:\n%s", m.View())
	}
}

// TestMapWithoutTheTool: a blockmate whose catalog has no mc_map (an older
// one the console attached to) is never asked, and no pane shows.
func TestMapWithoutTheTool(t *testing.T) {
	now := epoch
	m := New(Options{Dispatcher: newDispatcher(t), Theme: themes.Dark, Now: func() time.Time { return now }, Location: time.UTC})
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	m = update(m, statusMsg{Status: fixtureStatus(17)})
	if m.worldMap.pending || m.askMap() != nil || strings.Contains(m.View(), "Map") {
		t.Error("the console asked for a map the backend does not offer")
	}
}

// TestMapShowsPlaces: the places mc_map lists (mc_remember_place) are
// drawn as ⌂ at their offsets, under whatever else stands there, and
// the legend names them, cleaned: a name was chosen by a person.
func TestMapShowsPlaces(t *testing.T) {
	p := newMapPane(themes.New(themes.Dark))
	p.data = fixtureMap()
	p.data.Places = []mapMark{{Name: "home", DX: -2, DZ: -2}, {Name: "mine\x1b[31m", DX: -4, DZ: 3}}
	pic := p.picture(17, 17)
	if got := cellAt(t, pic, -2, -2); got != "⌂ " {
		t.Errorf("home at -2 -2: %q\n%s", got, strings.Join(pic, "\n"))
	}
	if got := cellAt(t, pic, -4, 3); got != "A " {
		t.Errorf("a player standing on a place: %q, want the player's letter", got)
	}
	legend := p.legend(300)
	if !strings.Contains(legend, "⌂ home, mine") || strings.ContainsRune(legend, '\x1b') {
		t.Errorf("the legend: %q", legend)
	}
}

// TestMapDrawsThePlan: a build's columns are ghosts (□) on the terrain
// until placed (■); the path and the bot draw over them, and the legend
// says how many of the plan's columns are built.
func TestMapDrawsThePlan(t *testing.T) {
	p := newMapPane(themes.New(themes.Dark))
	p.data = fixtureMap()
	p.data.Plan = []planMark{{DX: -2, DZ: -2}, {DX: -1, DZ: -2, Placed: true}, {DX: 1, DZ: 0}, {DX: 0, DZ: 0}}
	pic := p.picture(17, 17)
	for _, c := range []struct {
		dx, dz int
		want   string
	}{{-2, -2, "□ "}, {-1, -2, "■ "}, {1, 0, "· "}, {0, 0, "↗ "}, {-3, -2, ",,"}} {
		if got := cellAt(t, pic, c.dx, c.dz); got != c.want {
			t.Errorf("at %d %d: %q, want %q\n%s", c.dx, c.dz, got, c.want, strings.Join(pic, "\n"))
		}
	}
	legend := p.legend(300)
	if !strings.Contains(legend, "□ "+api.MapPlanned) || !strings.Contains(legend, "■ "+api.MapPlaced+" 1/4") {
		t.Errorf("the legend: %q", legend)
	}
}
