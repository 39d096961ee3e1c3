package path

import (
	"math"

	"github.com/blockmate/blockmate/bot/world"
)

// Status is how a search ended.
type Status uint8

const (
	// Complete: the path reaches the goal.
	Complete Status = iota
	// Partial: the path leads toward the goal without reaching it, for
	// the Reason given (the budget ran out, the search was cancelled, the
	// goal's chunk or the way to it is not loaded): walk it and plan again.
	Partial
	// NoPath: no way to the goal exists with the allowed moves; the
	// Reason says why. The path leads to the place nearest the goal.
	NoPath
)

var statusNames = [...]string{"complete", "partial", "no_path"}

// String is the status as results show it.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// Reason says why a search did not find a complete path.
type Reason uint8

const (
	ReasonNone Reason = iota
	// ReasonBudget: the search expanded Options.MaxNodes positions.
	ReasonBudget
	// ReasonCancelled: the context ended the search.
	ReasonCancelled
	// ReasonGoalUnloaded: the goal is in a chunk the bot has not loaded.
	ReasonGoalUnloaded
	// ReasonUnloadedOnTheWay: every way on leads through chunks the bot
	// has not loaded.
	ReasonUnloadedOnTheWay
	// ReasonStartUnloaded: the bot's own chunk is not loaded (yet).
	ReasonStartUnloaded
	// ReasonStartInvalid: the bot is not anywhere a player can stand
	// (inside a block, or high in the air).
	ReasonStartInvalid
	// ReasonStartEnclosed: the bot is shut in.
	ReasonStartEnclosed
	// ReasonGoalEnclosed: the goal is shut in, or inside solid blocks.
	ReasonGoalEnclosed
	// ReasonTooMuchWater: every way swims further than Options.MaxSwim.
	ReasonTooMuchWater
	// ReasonHazard: every way passes lava, fire or other harmful blocks.
	ReasonHazard
	// ReasonLongFall: every way needs a fall longer than Options.MaxFall.
	ReasonLongFall
	// ReasonNeedsDigging: the goal is only reachable by digging or
	// building up (a pit's walls, a pillar, a cliff).
	ReasonNeedsDigging
	// ReasonNoGoal: Plan was given no goal.
	ReasonNoGoal
)

var reasons = [...]struct{ id, text, next string }{
	{"", "", ""},
	{"budget", "the search used its node budget before reaching the goal; the path goes as far as it got",
		"walk the partial path and plan again from its end, or raise the node budget"},
	{"cancelled", "the search was cancelled before it reached the goal", "plan again when needed"},
	{"goal_unloaded", "the goal is in a chunk the bot has not loaded", "walk toward it along the partial path; the chunk loads as the bot nears it, then plan again"},
	{"unloaded_on_the_way", "every way toward the goal leads through chunks the bot has not loaded", "walk the partial path to the edge of the loaded area and plan again"},
	{"start_unloaded", "the bot's own chunk is not loaded yet", "wait for the world to load around the bot, then plan again"},
	{"start_invalid", "the bot is not standing anywhere a player can stand (inside a block, or high in the air)", "wait until it lands or is pushed out, then plan again"},
	{"start_enclosed", "the bot is shut in: no open way leads out of where it stands", "open the way, or let the bot dig out (mc_goto with dig: true)"},
	{"goal_enclosed", "the goal is shut in: solid blocks close it on every side", "choose a goal outside the enclosure, or let the bot dig in (mc_goto with dig: true)"},
	{"too_much_water", "every way crosses more water than the bot may swim", "allow a longer swim, choose a goal on this side of the water, or let the bot bridge it (mc_goto with bridge: true)"},
	{"hazard", "every way passes lava, fire or other harmful blocks", "choose another goal, or clear the way"},
	{"long_fall", "every way down needs a fall longer than the bot may take", "allow a longer fall, find a way down with water or a ladder, or let the bot bridge across (mc_goto with bridge: true)"},
	{"needs_digging", "the goal can only be reached by digging through or building up", "let the bot dig or bridge its way (mc_goto with dig: true or bridge: true), or choose a goal the bot can walk to"},
	{"no_goal", "no goal was given to plan toward", "give a position, a player or a block to go to"},
}

// String is the reason's id: "goal_enclosed".
func (r Reason) String() string {
	if int(r) < len(reasons) {
		return reasons[r].id
	}
	return "unknown"
}

// Explain is the reason as a sentence for the user.
func (r Reason) Explain() string {
	if int(r) < len(reasons) {
		return reasons[r].text
	}
	return ""
}

// NextStep says what to try instead.
func (r Reason) NextStep() string {
	if int(r) < len(reasons) {
		return reasons[r].next
	}
	return ""
}

// Result is what a search found.
type Result struct {
	Status Status
	Reason Reason
	// Path is the way found: to the goal when Complete, toward it
	// otherwise (maybe no steps at all).
	Path Path
	// Cost is the path's estimated time in ticks.
	Cost float64
	// Nodes is how many positions the search expanded; Generated how
	// many it reached.
	Nodes, Generated int
}

// Path is a list of steps from Start.
type Path struct {
	Start world.BlockPos
	// StartFloor is the height of the feet at Start.
	StartFloor float64
	Steps      []Step
}

// End is where the path ends: its last step's To, or Start. A plan for
// the next segment may start there while the bot walks this one.
func (p *Path) End() world.BlockPos {
	if len(p.Steps) == 0 {
		return p.Start
	}
	return p.Steps[len(p.Steps)-1].To
}

// Length is the distance the path covers, in blocks (straight lines
// between the steps' ends).
func (p *Path) Length() float64 {
	n := 0.0
	for _, st := range p.Steps {
		dx, dy, dz := float64(st.To.X-st.From.X), float64(st.To.Y-st.From.Y), float64(st.To.Z-st.From.Z)
		n += math.Sqrt(dx*dx + dy*dy + dz*dz)
	}
	return n
}

// Cost is the sum of the steps' costs, in ticks.
func (p *Path) Cost() float64 {
	c := 0.0
	for _, st := range p.Steps {
		c += st.Cost
	}
	return c
}

// Affected says whether a block change at pos may invalidate the path
// from step from on: the block is one a remaining step stands on, passes
// through, jumps under, falls down, opens or clips (the box around the
// step's two ends, from the block below the lower to two above the higher,
// three for a jump's arc). The executor re-plans when it says yes. A
// change that only opens a shorter way is not reported.
func (p *Path) Affected(pos world.BlockPos, from int) bool {
	for i := max(from, 0); i < len(p.Steps); i++ {
		st := &p.Steps[i]
		a, b := st.From, st.To
		head := 2
		if st.Jump {
			head = 3
		}
		if pos.X < min(a.X, b.X) || pos.X > max(a.X, b.X) ||
			pos.Z < min(a.Z, b.Z) || pos.Z > max(a.Z, b.Z) ||
			pos.Y < min(a.Y, b.Y)-1 || pos.Y > max(a.Y, b.Y)+head {
			continue
		}
		return true
	}
	return false
}

// AffectedBy says whether any of several changed blocks may invalidate
// the path from step from on (a section update carries many).
func (p *Path) AffectedBy(changes []world.BlockChange, from int) bool {
	for _, c := range changes {
		if p.Affected(c.Pos, from) {
			return true
		}
	}
	return false
}

// Waypoint is where the executor steers next.
type Waypoint struct {
	// Index is the step being walked; pass it back to Next as the cursor.
	Index int
	// X, Y, Z is the point to head for: the middle of the step's To block
	// at the height of the feet there.
	X, Y, Z float64
	Step    Step
}

// reached tells whether a position counts as arrived at a step's end: the
// feet within 0.35 of the middle of the block horizontally and within
// half a block of its floor (a full block on a ladder or in water, where
// the bot bobs).
func (st *Step) reached(x, y, z float64) bool {
	cx, cz := float64(st.To.X)+0.5, float64(st.To.Z)+0.5
	if (x-cx)*(x-cx)+(z-cz)*(z-cz) > 0.35*0.35 {
		return false
	}
	tol := 0.5
	if st.Water || st.Climbing {
		tol = 1
	}
	return math.Abs(y-st.Floor) <= tol
}

// lookAhead is how many steps past the cursor Next checks for arrival: a
// bot pushed along (by water, a slide) may skip one.
const lookAhead = 3

// Next is the "next waypoint" helper: given the executor's cursor (the
// step it walks, 0 at first) and the bot's feet position, it returns the
// step to walk now and the point to head for, having moved past every
// step the bot has reached. It returns false when the bot has reached the
// path's end.
func (p *Path) Next(cursor int, x, y, z float64) (Waypoint, bool) {
	cursor = max(cursor, 0)
	for i := cursor; i < len(p.Steps) && i < cursor+lookAhead; i++ {
		if p.Steps[i].reached(x, y, z) {
			cursor = i + 1
		}
	}
	if cursor >= len(p.Steps) {
		return Waypoint{Index: len(p.Steps)}, false
	}
	st := p.Steps[cursor]
	return Waypoint{Index: cursor, X: float64(st.To.X) + 0.5, Y: st.Floor, Z: float64(st.To.Z) + 0.5, Step: st}, true
}
