package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/themes"
)

// lowHealth is the health (in half hearts) at which the pane turns to its
// alert colours: three hearts, as the game's own screen shake begins.
const lowHealth = 6

// statusPane shows mc_status, polled through the dispatcher.
type statusPane struct {
	styles *themes.Styles
	width  int
	height int
	status api.Status
	known  bool
	err    string
	// progress is the latest mc_task_progress of each running call.
	progress progressBook
}

func newStatusPane(s *themes.Styles) statusPane { return statusPane{styles: s} }

func (p *statusPane) SetSize(w, h int) { p.width, p.height = w, h }

func (p *statusPane) set(st api.Status, err string) {
	if err != "" {
		p.err = err
		return
	}
	p.status, p.known, p.err = st, true, ""
}

// respawnHint is what a dead bot's status says to do.
const respawnHint = "type respawn to bring it back"

// isDead reports whether the bot is in a world but dead: mc_status says
// so (dead, or state "dead"), or its health is 0.
func (p statusPane) isDead() bool {
	st := p.status
	return st.Connected && (st.Dead || st.State == "dead" || (st.Health != nil && *st.Health <= 0))
}

func (p statusPane) low() bool {
	return p.status.Connected && p.status.Health != nil && *p.status.Health <= lowHealth
}

// lines renders the status body; the overlay reuses the first few.
func (p statusPane) lines(width int) []string {
	s, st := p.styles, p.status
	label := func(l string) string { return s.Status.Label.Render(fmt.Sprintf("%-7s", l)) }
	var out []string
	out = append(out, p.connLine())
	if !st.Connected {
		if st.Reason != "" {
			for _, l := range wrapText(clean(st.Reason)+".", width) {
				out = append(out, s.Muted.Render(l))
			}
		}
		if p.err != "" {
			out = append(out, s.Bad.Render(truncate(clean(p.err), width)))
		}
		return out
	}
	if p.isDead() {
		out = append(out, s.Bad.Render(truncate("The bot died: "+respawnHint+".", width)))
	}
	out = append(out, label("Health")+p.hearts(st.Health, st.MaxHealth))
	out = append(out, label("Food")+p.food(st.Food))
	out = append(out, label("XP")+p.xp())
	pos := s.Muted.Render("unknown")
	if st.Position != nil {
		pos = s.Text.Render(fmt.Sprintf("%.1f %.1f %.1f", st.Position.X, st.Position.Y, st.Position.Z))
	}
	out = append(out, label("Where")+pos)
	world := s.Text.Render(orDash(clean(st.GameMode)))
	if st.Dimension != "" {
		world += s.Muted.Render(" · ") + s.Info.Render(strings.TrimPrefix(clean(st.Dimension), "minecraft:"))
	}
	out = append(out, label("World")+world)
	when := s.Muted.Render("unknown")
	if st.DayCycle == "none" {
		// From 26.1 a dimension without a day clock (the nether) has
		// no time of day at all.
		when = s.Text.Render("no day time here")
	}
	if tod := timeOfDay(st.TimeOfDay); tod != "" {
		when = s.Text.Render(tod)
		if st.Day != nil {
			when += s.Muted.Render(fmt.Sprintf(" · day %d", *st.Day))
		}
	}
	if w := weather(st.Raining, st.Thundering); w != "" {
		when += s.Muted.Render(" · ") + s.Info.Render(w)
	}
	out = append(out, label("Time")+when)
	holds := len(out)
	out = append(out, label("Holds")+p.holds())
	task := s.Muted.Render("idle")
	if len(st.Task) > 0 {
		names := make([]string, 0, len(st.Task))
		for _, t := range st.Task {
			// A task a long call became reports progress under the
			// call's id.
			id := t.ID
			if t.CallID != "" {
				id = t.CallID
			}
			names = append(names, taskText(p.progress, id, t.Tool, t.Args))
		}
		task = s.Timeline.Running.Render(strings.Join(names, ", "))
	}
	out = append(out, label("Task")+task)
	if walk := p.walkLine(); walk != "" {
		out = append(out, label("Walk")+walk)
	}
	if sleep := p.sleepLine(); sleep != "" {
		out = append(out, label("Sleep")+sleep)
	}
	if p.err != "" {
		out = append(out, s.Bad.Render(truncate(clean(p.err), width)))
	}
	// Holds gives way first when the pane is short (a dead bot's line, an
	// error): the task matters more.
	if p.height > 2 && len(out) > p.height-2 {
		out = append(out[:holds], out[holds+1:]...)
	}
	// The hotbar, armour and off-hand as a grid where the pane has room
	// for them (not at 80×24, where Holds says what matters most).
	if grid := p.inventoryGrid(width); len(grid) > 0 && len(out)+len(grid) <= p.height-2 {
		out = append(out, grid...)
	}
	// The self-care behaviours that are on, where the pane has room left:
	// they change seldom, and mc_status has them all.
	if care := p.careLine(); care != "" && (p.height <= 2 || len(out) < p.height-2) {
		out = append(out, label("Care")+care)
	}
	return out
}

// careLine names the self-care behaviours that are on ("eat, held_item"),
// "none" when all are off, and is empty before mc_status has listed them.
func (p statusPane) careLine() string {
	bs := p.status.Behaviors
	if len(bs) == 0 {
		return ""
	}
	var on []string
	for _, b := range bs {
		if b.Enabled {
			on = append(on, clean(b.Name))
		}
	}
	if len(on) == 0 {
		return p.styles.Muted.Render("none")
	}
	return p.styles.Info.Render(strings.Join(on, ", "))
}

// stackText names a stack for the pane: "oak_log ×5", or just the name
// for one item.
func stackText(it *api.StatusItem) string { return clean(it.Name) + countText(it) }

// countText is a stack's " ×5", empty for one item.
func countText(it *api.StatusItem) string {
	if it.Count > 1 {
		return fmt.Sprintf(" ×%d", it.Count)
	}
	return ""
}

// holds is the Holds row: what the bot holds and the hotbar key (1–9) that
// selects it.
func (p statusPane) holds() string {
	s, st := p.styles, p.status
	if st.Inventory == nil {
		return s.Muted.Render("unknown")
	}
	held := s.Muted.Render("empty hand")
	if st.HeldItem != nil {
		held = s.Text.Render(stackText(st.HeldItem))
	}
	return held + s.Muted.Render(fmt.Sprintf(" · slot %d", st.Inventory.HeldSlot+1))
}

// minGridWidth is the narrowest pane body the inventory grid is drawn in.
const minGridWidth = 46

// inventoryGrid draws the hotbar as three rows of three (the held slot
// marked, each with its key 1–9), then what the bot wears and holds in the
// off-hand.
func (p statusPane) inventoryGrid(width int) []string {
	s, inv := p.styles, p.status.Inventory
	if inv == nil || width < minGridWidth {
		return nil
	}
	label := func(l string) string { return s.Status.Label.Render(fmt.Sprintf("%-7s", l)) }
	// A cell is its prefix, the stack's name (cut short when the cell is
	// narrow, so the count always shows) and count, and a space, so a name
	// never runs into the next cell's marker.
	cell := func(prefix string, it *api.StatusItem, w int) string {
		if it == nil {
			return padRight(prefix+s.Muted.Render("—"), w)
		}
		room := w - 1 - ansi.StringWidth(prefix) - ansi.StringWidth(countText(it))
		return padRight(prefix+s.Text.Render(truncate(clean(it.Name), room)+countText(it)), w)
	}
	cellW := (width - 7) / 3
	var out []string
	for row := 0; row < 3; row++ {
		l := label("")
		if row == 0 {
			l = label("Hotbar")
		}
		for col := 0; col < 3; col++ {
			i := row*3 + col
			mark, key := " ", s.Muted.Render(fmt.Sprint(i+1))
			if i == inv.HeldSlot {
				mark, key = s.Selected.Render(s.Glyphs.Selector), s.Selected.Render(fmt.Sprint(i+1))
			}
			l += cell(mark+key+" ", inv.Hotbar[i], cellW)
		}
		out = append(out, l)
	}
	halfW := (width - 7) / 2
	worn := func(name string, it *api.StatusItem) string {
		return cell(" "+s.Muted.Render(fmt.Sprintf("%-9s", name)), it, halfW)
	}
	out = append(out, label("Wears")+worn("head", inv.Head)+worn("chest", inv.Chest))
	out = append(out, label("")+worn("legs", inv.Legs)+worn("feet", inv.Feet))
	out = append(out, label("")+worn("off-hand", inv.Offhand))
	return out
}

func (p statusPane) connLine() string {
	s, st := p.styles, p.status
	if !p.known {
		return s.Muted.Render(s.Glyphs.Disconnected + " asking the bot…")
	}
	if !st.Connected {
		state := orDash(st.State)
		if st.State == "" {
			state = "not in a world"
		}
		return s.Warn.Render(s.Glyphs.Disconnected + " " + clean(state))
	}
	if p.isDead() {
		return s.Bad.Render(s.Glyphs.Disconnected+" dead") + s.Muted.Render(" · ") + s.Warn.Render(respawnHint)
	}
	parts := []string{s.Good.Render(s.Glyphs.Connected + " " + orDefault(clean(st.State), "playing"))}
	if st.Version != "" {
		parts = append(parts, s.Muted.Render(clean(st.Version)))
	}
	if st.LatencyMS != nil {
		parts = append(parts, s.Muted.Render(strconv.FormatInt(*st.LatencyMS, 10)+" ms"))
	}
	return strings.Join(parts, s.Muted.Render(" · "))
}

// hearts draws health as ten hearts, each two points, the way the game does.
func (p statusPane) hearts(health, maxHealth *float64) string {
	s := p.styles
	if health == nil {
		return s.Muted.Render("unknown")
	}
	max := 20.0
	if maxHealth != nil && *maxHealth > 0 {
		max = *maxHealth
	}
	n := int(math.Ceil(max / 2))
	if n > 10 {
		n = 10
	}
	h := int(math.Ceil(*health))
	full := s.Status.Heart
	if p.low() {
		full = s.Status.HeartLow
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch left := h - 2*i; {
		case left >= 2:
			b.WriteString(full.Render(s.Glyphs.HeartFull))
		case left == 1:
			b.WriteString(full.Faint(true).Render(s.Glyphs.HeartHalf))
		default:
			b.WriteString(s.Status.HeartOff.Render(s.Glyphs.HeartEmpty))
		}
	}
	num := fmt.Sprintf(" %s/%s", trimFloat(*health), trimFloat(max))
	if p.isDead() {
		return b.String() + s.Bad.Render(num+" DEAD")
	}
	if p.low() {
		return b.String() + s.Bad.Render(num+" LOW")
	}
	return b.String() + s.Muted.Render(num)
}

func (p statusPane) food(food *int) string {
	s := p.styles
	if food == nil {
		return s.Muted.Render("unknown")
	}
	var b strings.Builder
	for i := 0; i < 10; i++ {
		switch left := *food - 2*i; {
		case left >= 2:
			b.WriteString(s.Status.Food.Render(s.Glyphs.FoodFull))
		case left == 1:
			b.WriteString(s.Status.Food.Render(s.Glyphs.FoodHalf))
		default:
			b.WriteString(s.Status.FoodOff.Render(s.Glyphs.FoodEmpty))
		}
	}
	return b.String() + s.Muted.Render(fmt.Sprintf(" %d/20", *food))
}

func (p statusPane) xp() string {
	s, st := p.styles, p.status
	if st.XPLevel == nil {
		return s.Muted.Render("unknown")
	}
	out := s.Status.XP.Render(fmt.Sprintf("level %d ", *st.XPLevel))
	if st.XPProgress != nil {
		filled := int(math.Round(*st.XPProgress * 10))
		filled = min(max(filled, 0), 10)
		out += s.Status.XP.Render(strings.Repeat(s.Glyphs.BarFull, filled)) +
			s.Status.XPOff.Render(strings.Repeat(s.Glyphs.BarEmpty, 10-filled))
	}
	return out
}

func (p statusPane) View(focused bool) string {
	s := p.styles
	style, title := s.Pane, s.PaneTitle
	if p.low() {
		style, title = s.PaneAlert, s.Bad
	}
	return frame(style, title, "Status", p.lines(p.width-4), p.width, p.height)
}

// timeOfDay turns game ticks (0 = 06:00) into a clock and day number.
func timeOfDay(ticks *int64) string {
	if ticks == nil {
		return ""
	}
	t := ((*ticks % 24000) + 24000) % 24000
	hour := (t/1000 + 6) % 24
	minute := (t % 1000) * 60 / 1000
	phase := "day"
	if t >= 13000 && t < 23000 {
		phase = "night"
	}
	return fmt.Sprintf("%02d:%02d %s", hour, minute, phase)
}

func weather(rain, thunder *bool) string {
	switch {
	case thunder != nil && *thunder:
		return "thunder"
	case rain != nil && *rain:
		return "rain"
	case rain != nil:
		return "clear"
	}
	return ""
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func orDash(s string) string { return orDefault(s, "—") }

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// sleepLine says the bot is asleep in a bed (mc_status's sleeping and
// bed), and is empty while it is awake.
func (p *statusPane) sleepLine() string {
	st := p.status
	if !st.Sleeping {
		return ""
	}
	s := p.styles
	line := s.Info.Render("asleep")
	if st.Bed != nil {
		line += s.Muted.Render(" in the bed at ") + s.Text.Render(fmt.Sprintf("%.0f %.0f %.0f", st.Bed.X, st.Bed.Y, st.Bed.Z))
	}
	return line
}

// walkLine is the body's movement task (mc_status's movement): its kind,
// the goal, and the steps walked of the path; "" while the bot stands.
func (p *statusPane) walkLine() string {
	mv := p.status.Movement
	if mv == nil {
		return ""
	}
	s := p.styles
	kind := strings.ReplaceAll(clean(mv.Kind), "_", " ")
	line := s.Timeline.Running.Render(kind) + s.Muted.Render(" → ") +
		s.Text.Render(fmt.Sprintf("%.0f %.0f %.0f", mv.Goal.X, mv.Goal.Y, mv.Goal.Z))
	if total := mv.Walked + mv.Left; total > 0 {
		line += s.Muted.Render(fmt.Sprintf(" · %d/%d steps", mv.Walked, total))
	}
	return line
}
