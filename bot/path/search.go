package path

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// Options tune a Planner. The zero value is the default: sprint, parkour
// over safe one- and two-block gaps, open doors and gates, falls up to
// three blocks (no damage), swims of up to 32 blocks, a budget of 100 000
// nodes.
type Options struct {
	// MaxNodes bounds the search: after expanding that many positions it
	// returns the best partial path (default 100 000: a quarter of a
	// second on one core; a 40-block walk over hills takes a few hundred).
	MaxNodes int
	// MaxFall is the highest fall onto a floor, in blocks (default 3: a
	// fall of 3 does no damage). MaxWaterFall is the highest into water
	// or onto a ladder, which break a fall (default 32). Both are capped
	// at 64.
	MaxFall, MaxWaterFall int
	// MaxSwim is how many blocks of water with nothing to stand on a path
	// may cross in a row (default 32); NoSwim forbids swimming (wading
	// through water one block deep is still walking).
	MaxSwim int
	NoSwim  bool
	// NoSprint charges walking speed instead of sprinting (a hungry bot
	// cannot sprint); it also rules out two-block jumps.
	NoSprint bool
	// NoParkour forbids jumps over gaps; NoDoors forbids opening doors
	// and gates.
	NoParkour, NoDoors bool
	// Weight scales the heuristic: 1 (the default) finds the cheapest
	// path; more than 1 searches fewer nodes for a path at most that many
	// times dearer.
	Weight float64
	// Movers add moves of their own (digging, bridging); none by default.
	Movers []Mover
}

const (
	defaultMaxNodes  = 100_000
	defaultMaxFall   = 3
	defaultWaterFall = 32
	defaultMaxSwim   = 32
)

// Planner plans paths for one game version. It is safe for concurrent
// use: each Plan works on its own scratch space.
type Planner struct {
	game    *mcdata.GameData
	tab     *table
	opts    Options
	scratch sync.Pool // *search
	// tree is the states of leaves and logs, for Ground, made once.
	treeOnce sync.Once
	tree     *mcdata.StateSet
}

// New returns a planner for a version's blocks with the given options.
func New(game *mcdata.GameData, opts Options) *Planner {
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = defaultMaxNodes
	}
	if opts.MaxFall <= 0 {
		opts.MaxFall = defaultMaxFall
	}
	if opts.MaxWaterFall <= 0 {
		opts.MaxWaterFall = defaultWaterFall
	}
	opts.MaxFall = min(opts.MaxFall, maxEstimatedFall)
	opts.MaxWaterFall = min(max(opts.MaxWaterFall, opts.MaxFall), maxEstimatedFall)
	if opts.MaxSwim <= 0 {
		opts.MaxSwim = defaultMaxSwim
	}
	if opts.NoSwim {
		opts.MaxSwim = 0
	}
	if !(opts.Weight >= 1) {
		opts.Weight = 1
	}
	return &Planner{game: game, tab: tableFor(game), opts: opts}
}

// Options are the planner's options, defaults filled in.
func (p *Planner) Options() Options { return p.opts }

// node is one position the search reached.
type node struct {
	x, y, z int32
	sp      spot
	g, h    float64
	cost    float64 // of the move that reached it
	parent  int32
	heap    int32 // index in the open heap, -1 when not in it
	kind    MoveKind
	jump    bool
	opened  bool
	swum    int32 // blocks swum in a row to get here
	placed  int32 // blocks placed (Movers' Step.Place) on the way here
	ext     *Step
}

// search is one plan's scratch space, reused through the planner's pool.
type search struct {
	t     Terrain
	nodes []node
	index indexTable
	open  []int32 // a binary heap of node indices by f = g + h
	edges []edge

	goal         Goal
	weight       float64
	maxFall      int
	maxWaterFall int
	maxSwim      int
	sprint       bool
	parkourOK    bool
	doors        bool
	groundTicks  float64
	movers       []Mover
	// maxPlace is the most blocks a path may place (a Bridger's Blocks);
	// digs is set when a Mover digs, so a closed place is no verdict.
	maxPlace int32
	digs     bool

	// Why moves were refused, for the reason of a failed search: a fall
	// longer than allowed, more water than allowed; blocked says how near
	// the goal (the heuristic of the node expanded) each kind of refusal
	// happened, nearest kept.
	tooFar  bool
	tooWet  bool
	blocked [numBlocks]float64
	expands int
	// startPos is where the search started.
	startPos world.BlockPos
}

// Plan searches a path from start (the block the bot's feet are in) to
// the goal over a snapshot of the world. It returns the cheapest path
// when it finds one (Complete); the path toward the best place it reached
// when the node budget runs out, ctx ends or the goal's chunk is not
// loaded (Partial, with the reason); or NoPath with the reason when every
// place it can reach has been searched. It never holds a lock: the view is
// immutable.
func (p *Planner) Plan(ctx context.Context, view *world.View, start world.BlockPos, goal Goal) Result {
	switch {
	case goal == nil:
		return Result{Status: NoPath, Reason: ReasonNoGoal, Path: Path{Start: start}}
	case view == nil:
		return Result{Status: NoPath, Reason: ReasonStartUnloaded, Path: Path{Start: start}}
	case abs(start.X) > maxCoord || abs(start.Z) > maxCoord || abs(start.Y) > maxY:
		return Result{Status: NoPath, Reason: ReasonStartInvalid, Path: Path{Start: start}}
	}
	s, _ := p.scratch.Get().(*search)
	if s == nil {
		s = &search{}
	}
	defer p.scratch.Put(s)
	s.reset(p, view, goal)
	budget := p.opts.MaxNodes
	if t, ok := goal.(Targeter); ok && !s.t.Loaded(t.Target()) {
		// The goal cannot be reached before its chunk loads: search
		// enough to lead toward it, no more.
		budget = min(budget, unloadedBudget)
	}
	return s.run(ctx, start, budget)
}

// maxCoord and maxY bound where a plan may start: positions pack into 64
// bits (posKey) with room to spare for a search's reach; the game's world
// border is at 30 million and no dimension reaches 2032.
const (
	maxCoord = 1<<25 - 1<<21
	maxY     = 2032
)

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// unloadedBudget bounds the search toward a goal in an unloaded chunk.
const unloadedBudget = 20_000

// FeetBlock is the block a player's feet are in, from its position: the
// start of a plan.
func FeetBlock(x, y, z float64) world.BlockPos {
	// A hair of lift so that feet resting exactly on a block's top count
	// as above it despite rounding.
	return world.BlockPos{X: int(math.Floor(x)), Y: int(math.Floor(y + 1e-6)), Z: int(math.Floor(z))}
}

func (s *search) reset(p *Planner, view *world.View, goal Goal) {
	s.t.reset(view, p.tab)
	s.t.doors = !p.opts.NoDoors
	s.nodes = s.nodes[:0]
	s.index.reset()
	s.open = s.open[:0]
	s.goal = goal
	s.weight = p.opts.Weight
	s.maxFall, s.maxWaterFall, s.maxSwim = p.opts.MaxFall, p.opts.MaxWaterFall, p.opts.MaxSwim
	s.sprint = !p.opts.NoSprint
	s.parkourOK = !p.opts.NoParkour
	s.doors = !p.opts.NoDoors
	s.groundTicks = sprintTicks
	if !s.sprint {
		s.groundTicks = walkTicks
	}
	s.movers = p.opts.Movers
	s.maxPlace, s.digs = 0, false
	for _, m := range s.movers {
		switch m := m.(type) {
		case *Bridger:
			s.maxPlace = max(s.maxPlace, int32(max(m.Blocks, 0)))
		case *Digger:
			s.digs = true
		}
	}
	s.tooFar, s.tooWet, s.expands = false, false, 0
	for i := range s.blocked {
		s.blocked[i] = math.Inf(1)
	}
	if cap(s.nodes) > 1<<20 {
		s.nodes = nil // do not keep a huge search's memory for ever
	}
}

// startSpot finds where the search starts: the block the feet are in, or,
// when the bot is in the air (jumping, falling), where it will land.
func (s *search) startSpot(start world.BlockPos) (world.BlockPos, spot, bool) {
	if sp := s.t.stand(start.X, start.Y, start.Z); sp.kind != spotNone {
		return start, sp, true
	}
	if y, sp, ok := s.fall(start.X, start.Y, start.Z, float64(start.Y)); ok {
		s.tooFar = false
		return world.BlockPos{X: start.X, Y: y, Z: start.Z}, sp, true
	}
	s.tooFar = false
	// Feet a hair below a block's top (rounding) are on it.
	if sp := s.t.stand(start.X, start.Y+1, start.Z); sp.kind != spotNone {
		return world.BlockPos{X: start.X, Y: start.Y + 1, Z: start.Z}, sp, true
	}
	return start, spot{}, false
}

func (s *search) run(ctx context.Context, start world.BlockPos, budget int) Result {
	origin, sp, ok := s.startSpot(start)
	if !ok {
		reason := ReasonStartInvalid
		if !s.t.Loaded(start) {
			reason = ReasonStartUnloaded
		}
		return Result{Status: NoPath, Reason: reason, Path: Path{Start: start}}
	}
	s.startPos = origin
	s.nodes = append(s.nodes, node{x: int32(origin.X), y: int32(origin.Y), z: int32(origin.Z), sp: sp, parent: -1, heap: -1,
		h: s.heuristic(origin)})
	s.index.getOrPut(posKey(origin.X, origin.Y, origin.Z), 0)
	s.push(0)
	best := int32(0)
	done := ctx.Done()
	var f from
	for len(s.open) > 0 {
		if s.expands >= budget {
			return s.stopped(best, ReasonBudget)
		}
		if done != nil && s.expands&255 == 0 {
			select {
			case <-done:
				return s.stopped(best, ReasonCancelled)
			default:
			}
		}
		i := s.pop()
		n := &s.nodes[i]
		pos := world.BlockPos{X: int(n.x), Y: int(n.y), Z: int(n.z)}
		if s.goal.Done(pos) {
			return s.result(i, Complete, ReasonNone)
		}
		if n.h < s.nodes[best].h || n.h == s.nodes[best].h && n.g < s.nodes[best].g {
			best = i
		}
		s.expands++
		f = from{x: pos.X, y: pos.Y, z: pos.Z, sp: n.sp, floor: float64(pos.Y) + float64(n.sp.floor)}
		g, h, swum, placed := n.g, n.h, n.swum, n.placed
		s.neighbours(&f)
		for k := range s.edges {
			e := &s.edges[k]
			pl := placed
			if e.ext != nil && len(e.ext.Place) > 0 {
				if pl += int32(len(e.ext.Place)); pl > s.maxPlace {
					continue // no blocks left to build with on this way
				}
			}
			sw := int32(0)
			if e.sp.kind == spotSwim {
				sw = swum + 1
				if int(sw) > s.maxSwim {
					s.tooWet = true
					continue
				}
			}
			s.relax(i, g+e.cost, sw, pl, e)
		}
		s.noteBlocked(h)
	}
	return s.exhausted(origin, best)
}

// relax records that e reaches its position from node i at cost g, if
// that is the best way there yet.
func (s *search) relax(i int32, g float64, swum, placed int32, e *edge) {
	key := posKey(e.x, e.y, e.z)
	j := s.index.getOrPut(key, int32(len(s.nodes)))
	if j < 0 {
		p := world.BlockPos{X: e.x, Y: e.y, Z: e.z}
		s.nodes = append(s.nodes, node{x: int32(e.x), y: int32(e.y), z: int32(e.z), sp: e.sp, g: g, h: s.heuristic(p), cost: e.cost,
			parent: i, heap: -1, kind: e.kind, jump: e.jump, opened: e.opened, swum: swum, placed: placed, ext: e.ext})
		s.push(int32(len(s.nodes) - 1))
		return
	}
	n := &s.nodes[j]
	if g >= n.g-1e-9 {
		return
	}
	n.g, n.cost, n.parent, n.kind, n.jump, n.opened, n.swum, n.placed, n.ext, n.sp = g, e.cost, i, e.kind, e.jump, e.opened, swum, placed, e.ext, e.sp
	if n.heap >= 0 {
		s.up(int(n.heap))
	} else {
		s.push(j) // a better way to a position already expanded: expand it again
	}
}

func (s *search) heuristic(p world.BlockPos) float64 {
	h := s.goal.Heuristic(p)
	if !(h >= 0) { // NaN or negative: a goal's bug must not break the search
		h = 0
	}
	return h * s.weight
}

// The open set: a binary min-heap on f, ties to the deeper node (larger
// g), which reaches the goal sooner on open ground.
func (s *search) less(a, b int32) bool {
	na, nb := &s.nodes[a], &s.nodes[b]
	fa, fb := na.g+na.h, nb.g+nb.h
	if fa != fb {
		return fa < fb
	}
	return na.g > nb.g
}

func (s *search) push(i int32) {
	s.nodes[i].heap = int32(len(s.open))
	s.open = append(s.open, i)
	s.up(len(s.open) - 1)
}

func (s *search) pop() int32 {
	top := s.open[0]
	last := len(s.open) - 1
	s.swap(0, last)
	s.open = s.open[:last]
	if last > 0 {
		s.down(0)
	}
	s.nodes[top].heap = -1
	return top
}

func (s *search) swap(a, b int) {
	s.open[a], s.open[b] = s.open[b], s.open[a]
	s.nodes[s.open[a]].heap = int32(a)
	s.nodes[s.open[b]].heap = int32(b)
}

func (s *search) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !s.less(s.open[i], s.open[p]) {
			return
		}
		s.swap(i, p)
		i = p
	}
}

func (s *search) down(i int) {
	n := len(s.open)
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && s.less(s.open[l], s.open[m]) {
			m = l
		}
		if r < n && s.less(s.open[r], s.open[m]) {
			m = r
		}
		if m == i {
			return
		}
		s.swap(i, m)
		i = m
	}
}

// stopped ends a search that ran out of budget or was cancelled: the path
// toward the best node, unless the goal turns out to be shut in or not
// loaded.
func (s *search) stopped(best int32, why Reason) Result {
	if t, ok := s.goal.(Targeter); ok && why == ReasonBudget {
		target := t.Target()
		if !s.t.Loaded(target) {
			return s.result(best, Partial, ReasonGoalUnloaded)
		}
		// A digging search may yet dig in: a shut-in goal is no verdict.
		if !s.digs && s.enclosedGoal(target) {
			return s.result(best, NoPath, ReasonGoalEnclosed)
		}
	}
	return s.result(best, Partial, why)
}

// exhausted says why a search that reached every place it could did not
// reach the goal.
func (s *search) exhausted(start world.BlockPos, best int32) Result {
	if s.enclosedStart(start) {
		return s.result(best, NoPath, ReasonStartEnclosed)
	}
	if t, ok := s.goal.(Targeter); ok {
		target := t.Target()
		if !s.t.Loaded(target) {
			return s.result(best, Partial, ReasonGoalUnloaded)
		}
		if s.enclosedGoal(target) {
			return s.result(best, NoPath, ReasonGoalEnclosed)
		}
	}
	// The obstacle nearest the goal is the one to report, if it is about
	// where the search got closest; otherwise nothing but digging or
	// building gets nearer.
	kind, nearest := -1, math.Inf(1)
	for k, h := range s.blocked {
		if h < nearest {
			kind, nearest = k, h
		}
	}
	if kind < 0 || nearest > s.nodes[best].h+blockedMargin*s.weight {
		return s.result(best, NoPath, ReasonNeedsDigging)
	}
	switch kind {
	case blockedWater:
		return s.result(best, NoPath, ReasonTooMuchWater)
	case blockedHazard:
		return s.result(best, NoPath, ReasonHazard)
	case blockedFall:
		return s.result(best, NoPath, ReasonLongFall)
	}
	return s.result(best, Partial, ReasonUnloadedOnTheWay)
}

// Kinds of refused moves, in the order a tie reports them.
const (
	blockedWater = iota
	blockedHazard
	blockedFall
	blockedUnloaded
	numBlocks
)

// blockedMargin is how much further from the goal than the best place
// reached (in ticks, about four blocks) an obstacle may be and still be
// the reason.
var blockedMargin = 4 * sprintTicks

// noteBlocked records the refusals met expanding a node h from the goal,
// and clears them for the next node.
func (s *search) noteBlocked(h float64) {
	note := func(flag *bool, kind int) {
		if *flag {
			s.blocked[kind] = min(s.blocked[kind], h)
			*flag = false
		}
	}
	note(&s.tooWet, blockedWater)
	note(&s.t.metHazard, blockedHazard)
	note(&s.tooFar, blockedFall)
	note(&s.t.metUnloaded, blockedUnloaded)
}

// result builds the path to node i.
func (s *search) result(i int32, status Status, why Reason) Result {
	var chain []int32
	for j := i; j >= 0; j = s.nodes[j].parent {
		chain = append(chain, j)
	}
	root := &s.nodes[chain[len(chain)-1]]
	path := Path{Start: world.BlockPos{X: int(root.x), Y: int(root.y), Z: int(root.z)},
		StartFloor: float64(root.y) + float64(root.sp.floor)}
	path.Steps = make([]Step, 0, len(chain)-1)
	prev := root
	var opened []world.BlockPos // doors the path has opened: never toggled shut again
	for k := len(chain) - 2; k >= 0; k-- {
		n := &s.nodes[chain[k]]
		st := s.step(prev, n)
		if len(st.Open) > 0 {
			keep := st.Open[:0]
			for _, d := range st.Open {
				if !slices.Contains(opened, d) {
					keep = append(keep, d)
					opened = append(opened, d)
				}
			}
			st.Open = keep
			if len(keep) == 0 {
				st.Open = nil
			}
		}
		path.Steps = append(path.Steps, st)
		prev = n
	}
	cost := s.nodes[i].g
	if s.maxPlace > 0 {
		// A node keeps the placements counted on the way it was first
		// reached cheaply; a cheaper way found later to one of its
		// ancestors may place more. A path never asks for more blocks than
		// the bot carries: it stops before the step that would, to be
		// walked and planned again.
		n := 0
		for k, st := range path.Steps {
			if n += len(st.Place); n > int(s.maxPlace) {
				path.Steps = path.Steps[:k]
				cost = path.Cost()
				if status == Complete {
					status, why = Partial, ReasonBudget
				}
				break
			}
		}
	}
	return Result{Status: status, Reason: why, Path: path, Cost: cost, Nodes: s.expands, Generated: len(s.nodes)}
}

// step describes the move from node a to node b.
func (s *search) step(a, b *node) Step {
	if b.ext != nil {
		st := *b.ext
		st.From = world.BlockPos{X: int(a.x), Y: int(a.y), Z: int(a.z)}
		return st
	}
	to := world.BlockPos{X: int(b.x), Y: int(b.y), Z: int(b.z)}
	st := Step{
		Move:     b.kind,
		From:     world.BlockPos{X: int(a.x), Y: int(a.y), Z: int(a.z)},
		To:       to,
		Floor:    float64(b.y) + float64(b.sp.floor),
		Support:  to,
		Jump:     b.jump,
		Water:    b.sp.water(),
		Climbing: b.sp.kind == spotClimb,
		Cost:     b.cost,
	}
	if b.sp.kind == spotGround || b.sp.kind == spotWading {
		if b.sp.floor == 0 {
			st.Support.Y--
		}
	}
	switch st.Move {
	case Walk, Diagonal, Parkour:
		st.Sprint = s.sprints(a.sp, b.sp)
	}
	if b.opened {
		lo := math.Min(float64(a.y)+float64(a.sp.floor), st.Floor)
		hi := math.Max(float64(a.y)+float64(a.sp.floor), st.Floor) + playerHeight
		dx, dz := sign(to.X-st.From.X), sign(to.Z-st.From.Z)
		st.Open = s.t.doorsIn(st.From.X, st.From.Z, sweep(dx, dz), lo, hi, nil)
		st.Open = s.t.doorsIn(to.X, to.Z, sweep(-dx, -dz), lo, hi, st.Open)
		st.Open = s.t.doorsIn(to.X, to.Z, fpCenter, st.Floor, st.Floor+playerHeight, st.Open)
	}
	return st
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// doorsIn adds to list the closed doors and gates in a column whose
// closed shape over footprint fp is in the way of a body between heights
// lo and hi: the lower block of each (a door's lower half opens both).
func (t *Terrain) doorsIn(x, z int, fp footprint, lo, hi float64, list []world.BlockPos) []world.BlockPos {
	for y := int(math.Floor(lo)) - 1; y <= int(math.Floor(hi-eps)); y++ {
		f := t.facts(x, y, z)
		if f.flags&fOpenable == 0 {
			continue
		}
		sp := t.spans(f.shape, fp)
		if sp.empty() || float64(sp.lo)+float64(y) >= hi-eps || float64(sp.hi)+float64(y) <= lo+eps {
			continue
		}
		p := world.BlockPos{X: x, Y: y, Z: z}
		if t.facts(x, y-1, z).flags&fOpenable != 0 && t.sameBlock(x, y-1, z, p) {
			p.Y-- // the upper half of a door: open its lower half
		}
		if !slices.Contains(list, p) {
			list = append(list, p)
		}
	}
	return list
}

// sameBlock says whether the block at (x, y, z) is the same block as at p
// (a door's two halves).
func (t *Terrain) sameBlock(x, y, z int, p world.BlockPos) bool {
	a, ok1 := t.view.BlockAt(world.BlockPos{X: x, Y: y, Z: z})
	b, ok2 := t.view.BlockAt(p)
	return ok1 && ok2 && t.tab.game.BlockOf(a) == t.tab.game.BlockOf(b)
}
