package build

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/blockmate/blockmate/bot/material"
	"github.com/blockmate/blockmate/bot/mcdata"
)

// DefaultTTL is how long a prepared plan may be applied: long enough to
// read it and say yes, short enough that the world it was checked against
// is still the world.
const DefaultTTL = 10 * time.Minute

// maxListed is how many positions an error lists before it counts the
// rest.
const maxListed = 5

// Options are what Prepare needs besides the target and the world.
type Options struct {
	// Now and TTL give the plan's expiry (DefaultTTL when zero).
	Now time.Time
	TTL time.Duration
	// Expected, when given, are the states an earlier inspection saw: they
	// must cover every target position once, and any that changed since
	// refuses the plan (mc_build_prepare's expected_blocks).
	Expected []ExpectedBlock
	// Have is what the bot carries, by item name, for the materials'
	// have counts.
	Have map[string]int
	// MinY and MaxY, when MaxY > MinY, are the dimension's build limits
	// (the lowest y and one past the highest).
	MinY, MaxY int
}

// ExpectedBlock is one position of an earlier inspection.
type ExpectedBlock struct {
	Pos   Pos    `json:"pos"`
	State string `json:"state"`
}

// Plan is a prepared build: the writes that change the world, in the
// order they are to be made, each with the state it replaces. It is
// immutable once made.
type Plan struct {
	// ID names the plan; it is derived from Hash, so the same content
	// prepared twice is the same plan.
	ID   string
	Hash string
	// Version is the game version the states belong to.
	Version string
	Region  Region
	// Positions is how many positions the target covers; Unchanged how
	// many of them already hold their state (no write).
	Positions, Unchanged int
	Writes               []Write
	Materials            []Material
	// Unplaceable are the states no item places (fire, portals): only
	// commands write them.
	Unplaceable []string
	// ReplacesData are the positions where a write replaces a block that
	// holds a block entity (a chest and its contents).
	ReplacesData []Pos
	ExpiresAt    time.Time

	game *mcdata.GameData
}

// Write is one block of a plan: what is there now and what goes there.
type Write struct {
	Pos    Pos    `json:"pos"`
	Before string `json:"before"`
	After  string `json:"after"`
	// BeforeID and AfterID are the same states as ids of Plan.Version.
	BeforeID mcdata.StateID `json:"-"`
	AfterID  mcdata.StateID `json:"-"`
	// Partner is, for one part of a door, a bed or a tall plant, where the
	// other part is; Placed is false for the part that the other's action
	// writes too (the upper half, the head: placed by the lower half's or
	// foot's item, broken with it), so a survival apply acts once per pair.
	Partner *Pos `json:"partner,omitempty"`
	Placed  bool `json:"-"`
}

// Material is one item a plan consumes.
type Material struct {
	Item string `json:"item"`
	Need int    `json:"need"`
	Have int    `json:"have"`
}

// Summary is mc_build_prepare's answer, in TOOLS.md's order.
type Summary struct {
	PlanID        string     `json:"plan_id"`
	PlanHash      string     `json:"plan_hash"`
	ChangedBlocks int        `json:"changed_blocks"`
	Region        Region     `json:"region"`
	Materials     []Material `json:"materials"`
	ExpiresAt     time.Time  `json:"expires_at"`
	Unchanged     int        `json:"unchanged,omitempty"`
	Unplaceable   []string   `json:"unplaceable,omitempty"`
	ReplacesData  []Pos      `json:"replaces_block_data,omitempty"`
}

// Summary is the plan as mc_build_prepare reports it.
func (p *Plan) Summary() Summary {
	m := p.Materials
	if m == nil {
		m = []Material{}
	}
	return Summary{p.ID, p.Hash, len(p.Writes), p.Region, m, p.ExpiresAt, p.Unchanged, p.Unplaceable, p.ReplacesData}
}

// Expired says whether the plan may no longer be applied at now: prepare
// it again, against the world as it is then.
func (p *Plan) Expired(now time.Time) bool { return !now.Before(p.ExpiresAt) }

// Short lists the materials the bot lacks, with how many it lacks.
func (p *Plan) Short() []Material {
	var out []Material
	for _, m := range p.Materials {
		if m.Have < m.Need {
			out = append(out, m)
		}
	}
	return out
}

// Prepare checks a target against the world and makes the plan of the
// writes that change it. Every target position must be readable (an
// unloaded one cannot be checked, so it is refused, never guessed) and
// within the build limits; with Expected, every position must still hold
// what the inspection saw.
func Prepare(g *mcdata.GameData, t *Target, read Reader, o Options) (*Plan, error) {
	if len(t.Blocks) == 0 {
		return nil, fmt.Errorf("the plan covers no positions; give a recipe with at least one operation")
	}
	if len(t.Blocks) > MaxPositions {
		return nil, fmt.Errorf("the plan covers %d positions; at most %d are accepted", len(t.Blocks), MaxPositions)
	}
	blocks := sortedPositions(t.Blocks)
	if o.MaxY > o.MinY {
		var out []Pos
		for _, b := range blocks {
			if b.Pos.Y < o.MinY || b.Pos.Y >= o.MaxY {
				out = append(out, b.Pos)
			}
		}
		if len(out) > 0 {
			return nil, fmt.Errorf("%s outside the world's build height (y %d to %d); move the build", listPositions(out), o.MinY, o.MaxY-1)
		}
	}
	current := make([]mcdata.StateID, len(blocks))
	var unloaded []Pos
	for i, b := range blocks {
		s, ok := read(b.Pos)
		if !ok {
			unloaded = append(unloaded, b.Pos)
			continue
		}
		current[i] = s
	}
	if len(unloaded) > 0 {
		return nil, fmt.Errorf("%s not loaded, so what is there cannot be checked; come within view of them and prepare again", listPositions(unloaded))
	}
	names := newStateNames(g)
	if o.Expected != nil {
		if err := checkExpected(g, names, blocks, current, o.Expected); err != nil {
			return nil, err
		}
	}
	p := &Plan{Version: g.Version, Region: t.Region(), Positions: len(blocks), game: g}
	for i, b := range blocks {
		if current[i] == b.State {
			p.Unchanged++
			continue
		}
		p.Writes = append(p.Writes, Write{Pos: b.Pos, Before: names.of(current[i]), After: names.of(b.State), BeforeID: current[i], AfterID: b.State})
	}
	p.finish(g, o)
	return p, nil
}

// finish orders the writes, counts the materials and the unplaceable,
// and seals the plan with its hash, id and expiry.
func (p *Plan) finish(g *mcdata.GameData, o Options) {
	p.Writes = orderWrites(g, p.Writes)
	need := map[string]int{}
	unplaceable := map[string]bool{}
	for _, w := range p.Writes {
		before, _ := g.StateByID(w.BeforeID)
		if material.HoldsBlockEntity(before.Block) {
			p.ReplacesData = append(p.ReplacesData, w.Pos)
		}
		if !w.Placed {
			continue
		}
		after, _ := g.StateByID(w.AfterID)
		if g.IsAir(w.AfterID) {
			continue
		}
		items, ok := material.ItemsFor(g, after.Block)
		if !ok {
			unplaceable[after.Block.Name] = true
			continue
		}
		for _, it := range items {
			need[it]++
		}
	}
	for it, n := range need {
		p.Materials = append(p.Materials, Material{Item: it, Need: n, Have: o.Have[it]})
	}
	sort.Slice(p.Materials, func(i, j int) bool { return p.Materials[i].Item < p.Materials[j].Item })
	for name := range unplaceable {
		p.Unplaceable = append(p.Unplaceable, name)
	}
	sort.Strings(p.Unplaceable)
	p.Hash = hashWrites(p.Version, p.Writes)
	p.ID = "plan-" + p.Hash[:16]
	ttl := o.TTL
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	p.ExpiresAt = o.Now.Add(ttl).UTC().Truncate(time.Second)
}

// hashWrites is a plan's hash: SHA-256, lowercase hex, over a line of
// format and version, then one line per write in order, "x y z before
// after", with canonical states. The same writes in the same order give
// the same hash in every run and on every machine.
func hashWrites(version string, writes []Write) string {
	h := sha256.New()
	fmt.Fprintf(h, "blockmate plan 1 %s\n", version)
	for _, w := range writes {
		fmt.Fprintf(h, "%d %d %d %s %s\n", w.Pos.X, w.Pos.Y, w.Pos.Z, w.Before, w.After)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func checkExpected(g *mcdata.GameData, names *stateNames, blocks []TargetBlock, current []mcdata.StateID, expected []ExpectedBlock) error {
	if len(expected) > MaxPositions {
		return fmt.Errorf("expected_blocks has %d entries; at most %d are accepted", len(expected), MaxPositions)
	}
	at := make(map[Pos]int, len(blocks))
	for i, b := range blocks {
		at[b.Pos] = i
	}
	seen := make(map[Pos]bool, len(expected))
	var stale []string
	for _, e := range expected {
		i, ok := at[e.Pos]
		if !ok {
			return fmt.Errorf("expected_blocks names %v, which the plan does not cover; give exactly the plan's positions", e.Pos)
		}
		if seen[e.Pos] {
			return fmt.Errorf("expected_blocks names %v twice; give each position once", e.Pos)
		}
		seen[e.Pos] = true
		st, err := g.ParseState(e.State)
		if err != nil {
			return fmt.Errorf("expected_blocks at %v: %v", e.Pos, err)
		}
		if st.ID != current[i] {
			if len(stale) < maxListed {
				stale = append(stale, fmt.Sprintf("%v was %s and is now %s", e.Pos, st, names.of(current[i])))
			} else {
				stale = append(stale, "")
			}
		}
	}
	if len(seen) != len(blocks) {
		return fmt.Errorf("expected_blocks covers %d of the plan's %d positions; give every position once, from mc_region_inspect with detail blocks", len(seen), len(blocks))
	}
	if len(stale) > 0 {
		shown := stale[:min(len(stale), maxListed)]
		more := ""
		if len(stale) > maxListed {
			more = fmt.Sprintf(", and %d more", len(stale)-maxListed)
		}
		return fmt.Errorf("the world changed since it was inspected: %s%s; inspect again and prepare with what is there now", strings.Join(shown, "; "), more)
	}
	return nil
}

// listPositions names up to maxListed positions and counts the rest:
// "3 positions (1 2 3, 4 5 6, 7 8 9) are".
func listPositions(ps []Pos) string {
	var parts []string
	for i, p := range ps {
		if i == maxListed {
			parts = append(parts, fmt.Sprintf("and %d more", len(ps)-maxListed))
			break
		}
		parts = append(parts, p.String())
	}
	if len(ps) == 1 {
		return fmt.Sprintf("position %s is", parts[0])
	}
	return fmt.Sprintf("%d positions (%s) are", len(ps), strings.Join(parts, ", "))
}

// Phases of the write order. Removals come first, the attached before
// what holds them and top down, so nothing is knocked off or left
// hanging; then what stands alone, bottom up; then what stands on a block
// below, bottom up (the lower half of a door before the upper); then what
// hangs on a side; then what hangs from above, top down (a vine's top
// before its end); fluids last, when the walls that hold them stand.
const (
	phaseRemoveAttached = iota
	phaseRemove
	phaseStandalone
	phaseBelow
	phaseSide
	phaseAbove
	phaseFluid
)

func writePhase(g *mcdata.GameData, w Write) (phase int, up bool) {
	if g.IsAir(w.AfterID) {
		before, _ := g.StateByID(w.BeforeID)
		if material.SupportOf(before) != material.Standalone {
			return phaseRemoveAttached, false
		}
		return phaseRemove, false
	}
	after, _ := g.StateByID(w.AfterID)
	if n := after.Block.Name; n == "water" || n == "lava" {
		return phaseFluid, false
	}
	switch material.SupportOf(after) {
	case material.Below:
		return phaseBelow, true
	case material.Side, material.AnyFace:
		return phaseSide, true
	case material.Above:
		return phaseAbove, false
	}
	return phaseStandalone, true
}

// orderWrites sorts the writes into an order that stands (see the
// phases) and puts the second part of a door, bed or tall plant right
// after the first, marking it as placed by the first's item.
func orderWrites(g *mcdata.GameData, writes []Write) []Write {
	type keyed struct {
		w     Write
		phase int
		up    bool
	}
	ks := make([]keyed, len(writes))
	for i, w := range writes {
		ph, up := writePhase(g, w)
		ks[i] = keyed{w, ph, up}
	}
	sort.SliceStable(ks, func(i, j int) bool {
		a, b := ks[i], ks[j]
		if a.phase != b.phase {
			return a.phase < b.phase
		}
		if a.w.Pos.Y != b.w.Pos.Y {
			return a.w.Pos.Y < b.w.Pos.Y == a.up
		}
		return posLess(a.w.Pos, b.w.Pos)
	})
	// Pair the parts: where both parts of a door, bed or tall plant are in
	// the plan, the primary (lower half, foot) goes first, wherever the
	// sort put either, and the other right after it, placed by its item.
	pos := make(map[Pos]int, len(ks))
	for i, k := range ks {
		pos[k.w.Pos] = i
	}
	out := make([]Write, 0, len(ks))
	done := make([]bool, len(ks))
	for i := range ks {
		if done[i] {
			continue
		}
		done[i] = true
		w := ks[i].w
		w.Placed = true
		subject := pairSubject(g, w)
		part := material.PartsOf(subject)
		other, paired := partnerPos(subject, w.Pos, part)
		if part == material.OnePart || !paired {
			out = append(out, w)
			continue
		}
		w.Partner = &other
		j, in := pos[other]
		if !in || done[j] || !isPartnerOf(g, ks[j].w, w.Pos) {
			out = append(out, w)
			continue
		}
		done[j] = true
		second := ks[j].w
		second.Partner = &w.Pos
		if part.Primary() {
			second.Placed = false
			out = append(out, w, second)
		} else {
			second.Placed = true
			w.Placed = false
			out = append(out, second, w)
		}
	}
	return out
}

// isPartnerOf says whether the write puts there the other part of the
// two-part block at p.
func isPartnerOf(g *mcdata.GameData, w Write, p Pos) bool {
	subject := pairSubject(g, w)
	part := material.PartsOf(subject)
	if part == material.OnePart {
		return false
	}
	other, ok := partnerPos(subject, w.Pos, part)
	return ok && other == p
}

// pairSubject is the state whose parts pair a write with another: what it
// places, or for a removal what it removes (breaking a door's lower half
// takes the upper with it, so the two are one action either way).
func pairSubject(g *mcdata.GameData, w Write) mcdata.BlockState {
	id := w.AfterID
	if g.IsAir(id) {
		id = w.BeforeID
	}
	s, _ := g.StateByID(id)
	return s
}

// partnerPos is where the other part of a two-part block stands.
func partnerPos(s mcdata.BlockState, p Pos, part material.Parts) (Pos, bool) {
	switch part {
	case material.Lower:
		return Pos{p.X, p.Y + 1, p.Z}, true
	case material.Upper:
		return Pos{p.X, p.Y - 1, p.Z}, true
	}
	facing, _ := s.Value("facing")
	d, ok := directionOffset(facing)
	if !ok {
		return p, false
	}
	if part == material.Head {
		d = Pos{-d.X, -d.Y, -d.Z}
	}
	return p.add(d), true // a bed's head is one step toward facing from its foot
}

func directionOffset(d string) (Pos, bool) {
	switch d {
	case "north":
		return Pos{0, 0, -1}, true
	case "south":
		return Pos{0, 0, 1}, true
	case "east":
		return Pos{1, 0, 0}, true
	case "west":
		return Pos{-1, 0, 0}, true
	}
	return Pos{}, false
}

// Conflict is a position that no longer holds what a plan expects there.
type Conflict struct {
	Pos      Pos    `json:"pos"`
	Expected string `json:"expected"`
	Found    string `json:"found"`
}

// Conflicts compares the world with what the plan's writes expect before
// them, and lists the positions someone changed (or that are unloaded:
// Found says "unloaded"). An apply skips these rather than overwrite them.
func (p *Plan) Conflicts(read Reader) []Conflict {
	names := newStateNames(p.game)
	var out []Conflict
	for _, w := range p.Writes {
		s, ok := read(w.Pos)
		switch {
		case !ok:
			out = append(out, Conflict{w.Pos, w.Before, "unloaded"})
		case s != w.BeforeID:
			out = append(out, Conflict{w.Pos, w.Before, names.of(s)})
		}
	}
	return out
}

// Kept is a position an undo leaves as it is: someone changed it after
// the apply wrote it.
type Kept struct {
	Pos Pos `json:"pos"`
	// Wrote is what the apply wrote; Found what is there now ("unloaded"
	// when it cannot be read).
	Wrote string `json:"wrote"`
	Found string `json:"found"`
}

// Undo makes the reverse plan of writes an apply made: each position goes
// back to its Before, where it still holds the apply's After. A position
// someone changed since is kept as it is and listed; one already back to
// its Before needs no write. The plan goes through the same apply and
// checks as any other.
func Undo(g *mcdata.GameData, applied []Write, read Reader, o Options) (*Plan, []Kept, error) {
	if len(applied) > MaxPositions {
		return nil, nil, fmt.Errorf("the apply wrote %d blocks; at most %d are undone at once", len(applied), MaxPositions)
	}
	names := newStateNames(g)
	p := &Plan{Version: g.Version, game: g}
	var kept []Kept
	seen := map[Pos]bool{}
	first := true
	for _, w := range applied {
		if seen[w.Pos] {
			continue // a position written twice is undone to its first Before
		}
		seen[w.Pos] = true
		if first {
			p.Region = Region{w.Pos, w.Pos}
			first = false
		}
		p.Region.Min = Pos{min(p.Region.Min.X, w.Pos.X), min(p.Region.Min.Y, w.Pos.Y), min(p.Region.Min.Z, w.Pos.Z)}
		p.Region.Max = Pos{max(p.Region.Max.X, w.Pos.X), max(p.Region.Max.Y, w.Pos.Y), max(p.Region.Max.Z, w.Pos.Z)}
		p.Positions++
		s, ok := read(w.Pos)
		switch {
		case !ok:
			kept = append(kept, Kept{w.Pos, w.After, "unloaded"})
		case s == w.BeforeID:
			p.Unchanged++
		case s != w.AfterID:
			kept = append(kept, Kept{w.Pos, w.After, names.of(s)})
		default:
			p.Writes = append(p.Writes, Write{Pos: w.Pos, Before: w.After, After: w.Before, BeforeID: w.AfterID, AfterID: w.BeforeID})
		}
	}
	p.finish(g, o)
	return p, kept, nil
}

// WritesFromText rebuilds writes from their canonical states (as a
// journal keeps them) in version g, for Undo after a restart.
func WritesFromText(g *mcdata.GameData, writes []Write) ([]Write, error) {
	out := make([]Write, len(writes))
	for i, w := range writes {
		b, err := g.ParseState(w.Before)
		if err != nil {
			return nil, fmt.Errorf("the write at %v: %v", w.Pos, err)
		}
		a, err := g.ParseState(w.After)
		if err != nil {
			return nil, fmt.Errorf("the write at %v: %v", w.Pos, err)
		}
		out[i] = Write{Pos: w.Pos, Before: b.String(), After: a.String(), BeforeID: b.ID, AfterID: a.ID}
	}
	return out, nil
}
