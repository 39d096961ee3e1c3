package ui

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
)

// mapEvery is the least time between two maps the console asks for, so it
// redraws the map at most four times a second however often the status
// comes.
const mapEvery = 250 * time.Millisecond

// Sizes of the map pane: the fewest rows of blocks worth a pane, the most
// the console asks for (mc_map's radius, from the middle row out), and the
// narrowest pane (so its legend has room).
const (
	minMapRows     = 5
	maxMapRadius   = 32
	minMapPaneW    = 24
	mapLegendLines = 1
)

// mapData is mc_map's result as the console reads it. Names in it are
// chosen by players: they are cleaned before they are drawn.
type mapData struct {
	Radius   int               `json:"radius"`
	Facing   string            `json:"facing"`
	Rows     []string          `json:"rows"`
	Legend   map[string]string `json:"legend"`
	Players  []mapMark         `json:"players"`
	Hostiles []mapMark         `json:"hostiles"`
	Path     []mapMark         `json:"path"`
	Goal     *mapMark          `json:"goal"`
	// Places are the places remembered in this world (mc_remember_place)
	// within the map; their names were chosen by people.
	Places []mapMark  `json:"places"`
	Plan   []planMark `json:"plan"`
}

// planMark is a column of a prepared or running build, at an offset from
// the bot; Placed once the apply has done it.
type planMark struct {
	DX     int  `json:"dx"`
	DZ     int  `json:"dz"`
	Placed bool `json:"placed"`
}

// mapMark is something at an offset from the bot: a player (Username), a
// mob (Type), a step of the path or the goal.
type mapMark struct {
	Username string `json:"username"`
	Name     string `json:"name"` // a remembered place's
	Type     string `json:"type"`
	DX       int    `json:"dx"`
	DZ       int    `json:"dz"`
}

// mapMsg is the answer to the console's own mc_map call.
type mapMsg struct {
	Map *mapData
	Err string
}

// readMap reads an mc_map result.
func readMap(raw json.RawMessage) mapMsg {
	var d mapData
	if err := json.Unmarshal(raw, &d); err != nil {
		return mapMsg{Err: "mc_map answered in a shape the console does not read: " + err.Error()}
	}
	return mapMsg{Map: &d}
}

// mapPane draws mc_map's answer: the terrain around the bot, seen from
// above with north up, two cells per block so that blocks look square;
// the bot as an arrow where it looks, other players as capital letters
// named in the legend, hostile mobs as "!", and the path being walked.
type mapPane struct {
	styles *themes.Styles
	width  int
	height int
	data   *mapData
	err    string
	// asked is when the last map was asked for; pending is set while it
	// has not come back. Together they keep the console to one call at a
	// time and at most one per mapEvery.
	asked   time.Time
	pending bool
}

func newMapPane(s *themes.Styles) mapPane { return mapPane{styles: s} }

func (p *mapPane) SetSize(w, h int) { p.width, p.height = w, h }

// due says whether a new map may be asked for at now.
func (p mapPane) due(now time.Time) bool {
	return !p.pending && (p.asked.IsZero() || now.Sub(p.asked) >= mapEvery)
}

// set takes an answer; an error keeps the last map (a map a moment old is
// still the best picture) and says what went wrong.
func (p *mapPane) set(msg mapMsg) {
	p.pending = false
	if msg.Err != "" {
		p.err = msg.Err
		return
	}
	p.data, p.err = msg.Map, ""
}

// reset forgets the map, when the bot leaves a world.
func (p *mapPane) reset() { p.data, p.err, p.pending, p.asked = nil, "", false, time.Time{} }

// shown says whether there is a map to draw.
func (p mapPane) shown() bool { return p.data != nil }

// mapPaneWidthFor is the width a map pane of height h takes: its rows of blocks
// as a square, two cells each, and the frame; 0 when h leaves no room for
// a map worth showing.
func mapPaneWidthFor(h int) int {
	rows := oddDown(h - 2 - mapLegendLines)
	if rows < minMapRows {
		return 0
	}
	return max(2*rows+4, minMapPaneW)
}

func oddDown(n int) int {
	if n%2 == 0 {
		n--
	}
	return n
}

// glyph is how a terrain class looks: a character drawn twice (a block is
// two cells wide) and its style.
func (p mapPane) glyph(class string) (string, lipgloss.Style) {
	m := &p.styles.Map
	switch class {
	case api.MapGrass:
		return ",", m.Grass
	case api.MapDirt:
		return ".", m.Dirt
	case api.MapSand:
		return ":", m.Sand
	case api.MapStone:
		return "#", m.Stone
	case api.MapWater:
		return "~", m.Water
	case api.MapLava:
		return "≈", m.Lava
	case api.MapLeaves:
		return "*", m.Leaves
	case api.MapWood:
		return "o", m.Wood
	case api.MapSnow:
		return "'", m.Snow
	case api.MapIce:
		return "_", m.Ice
	case api.MapNether:
		return "%", m.Nether
	case api.MapMineral:
		return "$", m.Mineral
	case api.MapPlant:
		return "&", m.Plant
	case api.MapBuilt:
		return "=", m.Built
	case api.MapUnknown, api.MapEmpty:
		return " ", m.Other
	}
	return "+", m.Other
}

// arrows are the bot's glyph by the compass direction it faces.
var arrows = map[string]string{
	"north": "↑", "north-east": "↗", "east": "→", "south-east": "↘",
	"south": "↓", "south-west": "↙", "west": "←", "north-west": "↖",
}

// Glyphs of the marks.
const (
	mapHostileGlyph = "!"
	mapPathGlyph    = "·"
	mapGoalGlyph    = "◎"
	mapPlaceGlyph   = "⌂"
	mapPlannedGlyph = "□"
	mapPlacedGlyph  = "■"
	mapBotUnknown   = "@"
)

// playerLetter is the letter of the i-th player in the map's list.
func playerLetter(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return "?"
}

// picture draws rows×cols blocks (both odd) around the bot, one string per
// row, each 2·cols cells wide.
func (p mapPane) picture(rows, cols int) []string {
	d := p.data
	type mark struct {
		glyph string
		style lipgloss.Style
	}
	marks := map[[2]int]mark{}
	// Later marks win: terrain < plan < places < path < goal < hostiles <
	// players < bot. A plan's columns are ghosts until the apply has placed
	// them.
	for _, pm := range d.Plan {
		m := mark{mapPlannedGlyph, p.styles.Map.Path}
		if pm.Placed {
			m = mark{mapPlacedGlyph, p.styles.Map.Built}
		}
		marks[[2]int{pm.DX, pm.DZ}] = m
	}
	for _, pl := range d.Places {
		marks[[2]int{pl.DX, pl.DZ}] = mark{mapPlaceGlyph, p.styles.Map.Goal}
	}
	for _, s := range d.Path {
		marks[[2]int{s.DX, s.DZ}] = mark{mapPathGlyph, p.styles.Map.Path}
	}
	if d.Goal != nil {
		marks[[2]int{d.Goal.DX, d.Goal.DZ}] = mark{mapGoalGlyph, p.styles.Map.Goal}
	}
	for _, h := range d.Hostiles {
		marks[[2]int{h.DX, h.DZ}] = mark{mapHostileGlyph, p.styles.Map.Hostile}
	}
	for i := len(d.Players) - 1; i >= 0; i-- {
		pl := d.Players[i]
		marks[[2]int{pl.DX, pl.DZ}] = mark{playerLetter(i), p.styles.Map.Player}
	}
	arrow, ok := arrows[d.Facing]
	if !ok {
		arrow = mapBotUnknown
	}
	marks[[2]int{0, 0}] = mark{arrow, p.styles.Map.Bot}

	out := make([]string, rows)
	var b strings.Builder
	for r := 0; r < rows; r++ {
		dz := r - rows/2
		b.Reset()
		// Runs of one class are styled once, so a row is a few escape
		// sequences rather than one per block.
		run, runClass := strings.Builder{}, ""
		flush := func() {
			if run.Len() > 0 {
				_, st := p.glyph(runClass)
				b.WriteString(st.Render(run.String()))
				run.Reset()
			}
		}
		for c := 0; c < cols; c++ {
			dx := c - cols/2
			if m, ok := marks[[2]int{dx, dz}]; ok {
				flush()
				b.WriteString(m.style.Render(m.glyph + " "))
				continue
			}
			class := api.MapUnknown
			if y, x := dz+d.Radius, dx+d.Radius; y >= 0 && y < len(d.Rows) && x >= 0 && x < len(d.Rows[y]) {
				class = d.Legend[d.Rows[y][x:x+1]]
			}
			if class != runClass {
				flush()
				runClass = class
			}
			g, _ := p.glyph(class)
			run.WriteString(g + g)
		}
		flush()
		out[r] = b.String()
	}
	return out
}

// legend names the marks on the map: the bot, each player by letter,
// the hostile mobs by kind, and then the terrain drawn, as room allows.
func (p mapPane) legend(width int) string {
	s, d := p.styles, p.data
	arrow, ok := arrows[d.Facing]
	if !ok {
		arrow = mapBotUnknown
	}
	parts := []string{s.Map.Bot.Render(arrow) + s.Muted.Render(" bot")}
	for i, pl := range d.Players {
		parts = append(parts, s.Map.Player.Render(playerLetter(i))+" "+s.Text.Render(clean(pl.Username)))
	}
	if len(d.Hostiles) > 0 {
		count := map[string]int{}
		var kinds []string
		for _, h := range d.Hostiles {
			if count[h.Type] == 0 {
				kinds = append(kinds, h.Type)
			}
			count[h.Type]++
		}
		for i, k := range kinds {
			kinds[i] = clean(k)
			if n := count[k]; n > 1 {
				kinds[i] += fmt.Sprintf(" ×%d", n)
			}
		}
		parts = append(parts, s.Map.Hostile.Render(mapHostileGlyph)+" "+s.Text.Render(strings.Join(kinds, ", ")))
	}
	if d.Goal != nil {
		parts = append(parts, s.Map.Goal.Render(mapGoalGlyph)+s.Muted.Render(" goal"))
	}
	if len(d.Places) > 0 {
		names := make([]string, len(d.Places))
		for i, pl := range d.Places {
			names[i] = clean(pl.Name)
		}
		parts = append(parts, s.Map.Goal.Render(mapPlaceGlyph)+" "+s.Text.Render(strings.Join(names, ", ")))
	}
	if len(d.Plan) > 0 {
		placed := 0
		for _, pm := range d.Plan {
			if pm.Placed {
				placed++
			}
		}
		parts = append(parts, s.Map.Path.Render(mapPlannedGlyph)+s.Muted.Render(" "+api.MapPlanned))
		if placed > 0 {
			parts = append(parts, s.Map.Built.Render(mapPlacedGlyph)+s.Muted.Render(fmt.Sprintf(" %s %d/%d", api.MapPlaced, placed, len(d.Plan))))
		}
	}
	var terrain []string
	for _, name := range d.Legend {
		if g, _ := p.glyph(name); g != " " {
			terrain = append(terrain, name)
		}
	}
	sort.Strings(terrain)
	for _, name := range terrain {
		g, st := p.glyph(name)
		parts = append(parts, st.Render(g)+" "+s.Muted.Render(clean(name)))
	}
	line := ""
	sep := s.Muted.Render(" · ")
	for i, part := range parts {
		next := line
		if i > 0 {
			next += sep
		}
		next += part
		if ansi.StringWidth(next) > width {
			break
		}
		line = next
	}
	return line
}

// body is the pane's inside at w×h cells: the picture centred, the legend
// under it.
func (p mapPane) body(w, h int) []string {
	if p.data == nil {
		if p.err != "" {
			return wrapText(clean(p.err), w)
		}
		return []string{p.styles.Muted.Render("asking the bot…")}
	}
	rows := oddDown(h - mapLegendLines)
	cols := oddDown(w / 2)
	if rows < 1 || cols < 1 {
		return nil
	}
	pad := strings.Repeat(" ", (w-2*cols)/2)
	var out []string
	for _, l := range p.picture(rows, cols) {
		out = append(out, pad+l)
	}
	// A failed update keeps the last map, and says so where the legend was.
	if p.err != "" {
		return append(out, p.styles.Warn.Render(truncate(clean(p.err), w)))
	}
	return append(out, p.legend(w))
}

// title names the pane and where the bot looks, short enough for the
// narrowest pane.
func (p mapPane) title() string {
	if p.data != nil && p.data.Facing != "" {
		return "Map · " + p.data.Facing
	}
	return "Map"
}

func (p mapPane) View() string {
	s := p.styles
	return frame(s.Pane, s.PaneTitle, p.title(), p.body(p.width-4, p.height-2), p.width, p.height)
}

// mapRadiusFor is the radius the console asks for to fill a pane of w×h
// cells (frame included), within mc_map's bound.
func mapRadiusFor(w, h int) int {
	rows := oddDown(h - 2 - mapLegendLines)
	cols := oddDown((w - 4) / 2)
	return min(max(rows, cols)/2, maxMapRadius)
}

// mapPaneWidth is the width of the map pane beside the events in the full
// layout, 0 when the bot is in no world or the events row is too low for
// a map. It takes at most half the window.
func (m Model) mapPaneWidth() int {
	if !m.connected {
		return 0
	}
	bodyH := m.height - 2 - m.input.Height()
	h := bodyH - max(bodyH/2, 11)
	w := min(mapPaneWidthFor(h), m.width/2)
	if (w-4)/2 < minMapRows {
		return 0
	}
	return w
}

// mapRadius is the radius that fills the map where the current layout
// draws it, 0 where it draws none.
func (m Model) mapRadius() int {
	if m.overlay {
		if w, h := m.overlayMapSize(); w > 0 {
			return mapRadiusFor(w+4, h+2)
		}
		return 0
	}
	if w := m.mapPaneWidth(); w > 0 {
		bodyH := m.height - 2 - m.input.Height()
		return mapRadiusFor(w, bodyH-max(bodyH/2, 11))
	}
	return 0
}

// askMap asks the bot for a map when the layout has room for one, the bot
// is in a world, the last map has come back and mapEvery has passed (on
// the console's clock). The call is the console's own (internal): it
// never shows in the timeline, nor as the bot's task.
func (m *Model) askMap() tea.Cmd {
	if m.quitting || !m.connected || !m.worldMap.due(m.now()) {
		return nil
	}
	if _, ok := m.backend.Catalog().Lookup("mc_map"); !ok {
		return nil
	}
	radius := m.mapRadius()
	if radius < 1 {
		return nil
	}
	m.worldMap.asked, m.worldMap.pending = m.now(), true
	d, ctx, id := m.backend, m.ctx, m.internalID("console-map")
	args := map[string]json.RawMessage{"radius": json.RawMessage(fmt.Sprint(radius))}
	return func() tea.Msg {
		resp := d.Call(protocol.WithOrigin(ctx, protocol.OriginInternal), protocol.Request{ID: id, Tool: "mc_map", Args: args})
		if !resp.OK {
			return mapMsg{Err: resp.Error}
		}
		return readMap(resp.Result)
	}
}

// overlayMapSize is the size of the map in the overlay (its picture and
// legend, no frame): beside the status lines when the window is wide
// enough to keep them readable, else 0, 0.
func (m Model) overlayMapSize() (w, h int) {
	h = m.height - 1
	rows := oddDown(h - mapLegendLines)
	if rows < minMapRows {
		return 0, 0
	}
	w = 2 * rows
	// The status lines keep at least 34 cells.
	if m.width-w-1 < 34 {
		cols := oddDown((m.width - 35) / 2)
		if cols < minMapRows {
			return 0, 0
		}
		w = 2 * cols
	}
	return w, h
}
