package plan

// Pricing every item. A rule is one way to get an item: break blocks of a
// group (blocks with the same harvest tools) with one of its tools, run a
// crafting recipe, or smelt an input. A rule's price is what its inputs
// cost plus a little for the work; an item's price is its cheapest rule's,
// and nothing for what the bot carries. Knuth's generalisation of
// Dijkstra's algorithm (for grammars, "A generalization of Dijkstra's
// algorithm", 1977) prices all items at once: a rule is priced once all it
// takes is priced, cheapest items first, so cycles (iron ingot ↔ iron
// block) cost nothing to handle and terminate by construction. Recipes
// that make several items at once can price an item below its inputs,
// which Knuth's order does not allow for, so a few relaxation passes
// follow.

import (
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Prices of the work itself, in "blocks broken" units. They only rank
// ways against each other: mining a block is 1, a craft half of that, a
// craft at a table a little more, smelting more again (a furnace, fuel,
// waiting); a drop that comes only by chance costs as if it took many
// blocks, so a plan uses one only when nothing sure gives the item. A tool
// counts a tenth of its price towards each item it mines: it is made once
// and serves many blocks.
const (
	gatherCost  = 1.0
	grownCost   = 2.0 // a crop must be found fully grown
	chanceCost  = 8.0
	craftCost   = 0.5
	tableCost   = 0.5
	smeltCost   = 1.25
	toolWeight  = 0.1
	relaxPasses = 4
)

var inf = math.Inf(1)

type ruleKind uint8

const (
	ruleGather ruleKind = iota
	ruleCraft
	ruleSmelt
)

// input is one distinct ingredient of a rule and how many one run takes.
type input struct {
	item  mcdata.ItemID
	count int
}

// group is the blocks that drop an item and need the same tools.
type group struct {
	idx    int // in rules.groups
	item   mcdata.ItemID
	blocks []*mcdata.Block
	tools  []mcdata.ItemID // any of them harvests; empty: a hand does
	count  int             // the fewest items a block gives
	chance bool
	grown  bool
}

type rule struct {
	idx    int // in rules.all
	ndeps  int // distinct items it waits for
	kind   ruleKind
	out    mcdata.ItemID
	yield  int
	inputs []input
	tool   mcdata.ItemID // ruleGather with a tool: the one this rule prices
	group  *group
	recipe *mcdata.Recipe
	smelt  mcdata.Smelting
	work   float64 // the work's price per run
}

// deps are the items a rule waits for.
func (r *rule) deps() []mcdata.ItemID {
	var out []mcdata.ItemID
	for _, in := range r.inputs {
		out = append(out, in.item)
	}
	if r.kind == ruleGather && r.tool != noTool {
		out = append(out, r.tool)
	}
	return out
}

const noTool mcdata.ItemID = -1

// price is the rule's price per item made, from the items' prices.
func (r *rule) price(cost []float64) float64 {
	total := r.work
	for _, in := range r.inputs {
		total += float64(in.count) * cost[in.item]
	}
	if r.kind == ruleGather && r.tool != noTool {
		total += toolWeight * cost[r.tool]
	}
	return total / float64(r.yield)
}

// rules is the version's rules, built once per GameData.
type rules struct {
	byItem     [][]*rule // the rules that make each item
	dependents [][]*rule // the rules waiting for each item
	all        []*rule
	groups     []*group
	// reach counts, per tool, the blocks it harvests: among the tools of
	// a block the one reaching fewest is the lowest tier (a wooden pickaxe
	// before an iron one), the tool a player makes first.
	reach []int
}

var rulesCache sync.Map // *mcdata.GameData → *rules

func rulesOf(g *mcdata.GameData) *rules {
	if r, ok := rulesCache.Load(g); ok {
		return r.(*rules)
	}
	r, _ := rulesCache.LoadOrStore(g, buildRules(g))
	return r.(*rules)
}

func buildRules(g *mcdata.GameData) *rules {
	rs := &rules{byItem: make([][]*rule, len(g.Items)), dependents: make([][]*rule, len(g.Items)), reach: make([]int, len(g.Items))}
	for i := range g.Blocks {
		for _, t := range g.Blocks[i].HarvestTools {
			rs.reach[t]++
		}
	}
	add := func(r *rule) {
		r.idx = len(rs.all)
		r.ndeps = len(uniqueDeps(r))
		rs.all = append(rs.all, r)
		rs.byItem[r.out] = append(rs.byItem[r.out], r)
		seen := map[mcdata.ItemID]bool{}
		for _, d := range r.deps() {
			if !seen[d] {
				seen[d] = true
				rs.dependents[d] = append(rs.dependents[d], r)
			}
		}
	}
	// Gathering, from every block that drops the item but made things
	// (madeThing).
	for id := range g.Items {
		item := mcdata.ItemID(id)
		groups := map[string]*group{}
		var order []string
		for _, s := range g.DropSources(item) {
			b := s.Block
			if madeThing(g, b, s.Drop) {
				continue
			}
			key := toolKey(b.HarvestTools, s.Drop)
			gr := groups[key]
			if gr == nil {
				gr = &group{idx: len(rs.groups), item: item, tools: b.HarvestTools, count: s.Drop.Count, chance: s.Drop.Chance, grown: s.Drop.Grown}
				rs.groups = append(rs.groups, gr)
				groups[key] = gr
				order = append(order, key)
			}
			gr.blocks = append(gr.blocks, b)
			gr.count = min(gr.count, max(1, s.Drop.Count))
		}
		for _, k := range order {
			gr := groups[k]
			work := gatherCost
			switch {
			case gr.chance:
				work = chanceCost
			case gr.grown:
				work = grownCost
			}
			if len(gr.tools) == 0 {
				add(&rule{kind: ruleGather, out: item, yield: gr.count, tool: noTool, group: gr, work: work})
				continue
			}
			for _, t := range gr.tools {
				add(&rule{kind: ruleGather, out: item, yield: gr.count, tool: t, group: gr, work: work})
			}
		}
	}
	for i := range g.Recipes {
		rec := &g.Recipes[i]
		var ins []input
		for _, in := range rec.Inputs() {
			ins = append(ins, input{in.Item, in.Count})
		}
		work := craftCost
		if !rec.FitsInventory() {
			work += tableCost
		}
		add(&rule{kind: ruleCraft, out: rec.Result, yield: rec.Count, inputs: ins, tool: noTool, recipe: rec, work: work})
	}
	for _, s := range g.SmeltingRecipes() {
		add(&rule{kind: ruleSmelt, out: s.Output, yield: 1, inputs: []input{{s.Input, 1}}, tool: noTool, smelt: s, work: smeltCost})
	}
	return rs
}

// madeThing says whether breaking the block is taking apart what someone
// made rather than gathering (planks, a crafting table, an iron block, a
// campfire, a placed torch or flower pot): a plan does not count on
// finding those. minecraft-data does not say which blocks the world
// generates, so this reads the recipes: a block is made when its item is
// crafted, or smelted and the block drops itself (smooth stone), or when
// it is a placed form with no item of its own (a wall torch, a potted
// plant, a tripwire) of something crafted or placed. Grown crops and the
// few blocks the world generates although their item is crafted
// (wildBlocks) are not made.
func madeThing(g *mcdata.GameData, b *mcdata.Block, d mcdata.BlockDrop) bool {
	if d.Grown || slices.Contains(wildBlocks, b.Name) {
		return false
	}
	self := selfItem(g, b)
	if self >= 0 {
		return len(g.RecipesFor(self)) > 0 || (d.Item == self && len(g.SmeltingFor(self)) > 0)
	}
	return strings.HasPrefix(b.Name, "potted_") || strings.Contains(b.Name, "wall_") ||
		slices.Contains(placedForms, b.Name) || len(g.RecipesFor(d.Item)) > 0
}

// wildBlocks are the blocks the world generates although their item also
// has a recipe: the stones of the underground (granite, diorite,
// andesite), the desert's sandstone, the badlands' terracotta, the
// geodes', caves' and fossils' blocks, and clay, snow and melons broken
// for their drops. (The raw ore blocks of large veins are left out: rare,
// and a plan counting on one would send the bot looking for it.)
// minecraft-data has no world generation, so they are named here.
var wildBlocks = []string{
	"granite", "diorite", "andesite", "sandstone", "red_sandstone", "terracotta", "coarse_dirt",
	"clay", "snow_block", "melon", "dripstone_block", "magma_block", "amethyst_block", "smooth_basalt",
	"bone_block", "moss_carpet", "mossy_cobblestone", "prismarine", "dark_prismarine", "sea_lantern",
	"resin_clump",
}

// placedForms are blocks without an item of their own that only exist
// where someone placed their item: a tripwire is placed string.
var placedForms = []string{"tripwire", "redstone_wire"}

// selfItem is the item of a block's own name, or -1.
func selfItem(g *mcdata.GameData, b *mcdata.Block) mcdata.ItemID {
	if it := g.ItemByName(b.Name); it != nil {
		return it.ID
	}
	return -1
}

func toolKey(tools []mcdata.ItemID, d mcdata.BlockDrop) string {
	var b strings.Builder
	for _, t := range tools {
		b.WriteString(string(rune(t + 1)))
	}
	if d.Chance {
		b.WriteString("?")
	}
	if d.Grown {
		b.WriteString("+")
	}
	return b.String()
}

// prices is every item's price for one planning call.
type prices struct {
	rules *rules
	cost  []float64
	world World
	// offered caches world.Offers per block id (0 unknown, 1 yes, 2 no);
	// blocks, per gather group, its offered blocks once asked.
	offered []uint8
	blocks  [][]*mcdata.Block
	asked   []bool
	// makeCost caches make per item (NaN: not yet).
	makeCost []float64
}

// blocksOf returns the group's blocks the world offers.
func (p *prices) blocksOf(gr *group) []*mcdata.Block {
	if p.asked[gr.idx] {
		return p.blocks[gr.idx]
	}
	var bs []*mcdata.Block
	for _, b := range gr.blocks {
		o := p.offered[b.ID]
		if o == 0 {
			o = 2
			if p.world.Offers(b) {
				o = 1
			}
			p.offered[b.ID] = o
		}
		if o == 1 {
			bs = append(bs, b)
		}
	}
	p.asked[gr.idx] = true
	p.blocks[gr.idx] = bs
	return bs
}

// usable says whether a rule can be used in this world: a gather needs an
// offered block.
func (p *prices) usable(r *rule) bool {
	return r.kind != ruleGather || len(p.blocksOf(r.group)) > 0
}

// priceAll prices every item with what the bot carries free, for the
// world's blocks. For the default world (overworld true) it starts from
// the version's prices with nothing carried, computed once, and lowers
// them from what is carried; else it prices afresh.
func priceAll(g *mcdata.GameData, inv []int, world World, overworld bool) *prices {
	if !overworld {
		return computePrices(g, inv, world)
	}
	base := basePrices(g)
	p := &prices{rules: base.rules, cost: slices.Clone(base.cost), world: base.world,
		offered: base.offered, blocks: base.blocks, asked: base.asked, makeCost: make([]float64, len(base.cost))}
	for i := range p.makeCost {
		p.makeCost[i] = math.NaN()
	}
	p.lower(inv)
	return p
}

var baseCache sync.Map // *mcdata.GameData → *prices

// basePrices are the version's prices in the overworld with nothing
// carried, every gather group's blocks asked, so that callers share them
// read-only.
func basePrices(g *mcdata.GameData) *prices {
	if p, ok := baseCache.Load(g); ok {
		return p.(*prices)
	}
	p := computePrices(g, make([]int, len(g.Items)), World{Offers: Overworld})
	for _, gr := range p.rules.groups {
		p.blocksOf(gr)
	}
	got, _ := baseCache.LoadOrStore(g, p)
	return got.(*prices)
}

// lower makes what is carried free and passes the saving on to
// everything made from it.
func (p *prices) lower(inv []int) {
	var h itemHeap
	for id, n := range inv {
		if n > 0 && p.cost[id] > 0 {
			p.cost[id] = 0
			h.push(entry{0, mcdata.ItemID(id)})
		}
	}
	for len(h) > 0 {
		e := h.pop()
		if e.cost > p.cost[e.item] {
			continue
		}
		for _, r := range p.rules.dependents[e.item] {
			if !p.usable(r) {
				continue
			}
			if v := r.price(p.cost); v < p.cost[r.out]-1e-12 {
				p.cost[r.out] = v
				h.push(entry{v, r.out})
			}
		}
	}
}

// computePrices prices every item from scratch.
func computePrices(g *mcdata.GameData, inv []int, world World) *prices {
	rs := rulesOf(g)
	p := &prices{rules: rs, cost: make([]float64, len(g.Items)), world: world,
		offered: make([]uint8, len(g.Blocks)), blocks: make([][]*mcdata.Block, len(rs.groups)),
		asked: make([]bool, len(rs.groups)), makeCost: make([]float64, len(g.Items))}
	for i := range p.cost {
		p.cost[i] = inf
		p.makeCost[i] = math.NaN()
	}
	var h itemHeap
	done := make([]bool, len(g.Items))
	waiting := make([]int32, len(rs.all))
	relax := func(r *rule) {
		if !p.usable(r) {
			return
		}
		if v := r.price(p.cost); v < p.cost[r.out] {
			p.cost[r.out] = v
			h.push(entry{v, r.out})
		}
	}
	for id, n := range inv {
		if n > 0 {
			p.cost[id] = 0
			h.push(entry{0, mcdata.ItemID(id)})
		}
	}
	for _, r := range rs.all {
		waiting[r.idx] = int32(r.ndeps)
		if r.ndeps == 0 {
			relax(r)
		}
	}
	for len(h) > 0 {
		e := h.pop()
		if done[e.item] || e.cost > p.cost[e.item] {
			continue
		}
		done[e.item] = true
		for _, r := range rs.dependents[e.item] {
			waiting[r.idx]--
			if waiting[r.idx] == 0 {
				relax(r)
			}
		}
	}
	for pass := 0; pass < relaxPasses; pass++ {
		changed := false
		for _, r := range rs.all {
			if !p.usable(r) {
				continue
			}
			if v := r.price(p.cost); v < p.cost[r.out]-1e-12 {
				p.cost[r.out] = v
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	return p
}

func uniqueDeps(r *rule) []mcdata.ItemID {
	deps := r.deps()
	out := deps[:0:0]
	for _, d := range deps {
		dup := false
		for _, o := range out {
			dup = dup || o == d
		}
		if !dup {
			out = append(out, d)
		}
	}
	return out
}

// make is an item's price if it has to be made or gathered: its cheapest
// usable rule's, not counting what the bot carries of the item itself.
func (p *prices) make(item mcdata.ItemID) float64 {
	if c := p.makeCost[item]; !math.IsNaN(c) {
		return c
	}
	best := inf
	for _, r := range p.rules.byItem[item] {
		if !p.usable(r) {
			continue
		}
		if v := r.price(p.cost); v < best {
			best = v
		}
	}
	p.makeCost[item] = best
	return best
}

type entry struct {
	cost float64
	item mcdata.ItemID
}

// itemHeap is a binary min-heap by cost, then item id, so that equal
// prices are settled in the same order every time.
type itemHeap []entry

func (a entry) less(b entry) bool {
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	return a.item < b.item
}

func (h *itemHeap) push(e entry) {
	*h = append(*h, e)
	s := *h
	for i := len(s) - 1; i > 0; {
		up := (i - 1) / 2
		if !s[i].less(s[up]) {
			break
		}
		s[i], s[up] = s[up], s[i]
		i = up
	}
}

func (h *itemHeap) pop() entry {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(s) && s[l].less(s[m]) {
			m = l
		}
		if r < len(s) && s[r].less(s[m]) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
