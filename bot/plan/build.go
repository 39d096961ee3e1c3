package plan

// Expanding the goal into steps. need(item, n) takes what the inventory
// holds and gets the rest by the item's cheapest way under the current
// inventory, recursing into what that way takes; a way that turns out not
// to work (a tool the world cannot give) is undone and the next tried. The
// inventory is simulated: what a step makes beyond its need (the fourth
// plank) stays for later steps, a tool stays after use, a placed table
// serves every later 3×3 craft. Changes go through an undo log so that
// trying a way and abandoning it costs only what it changed.

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// maxTries bounds the ways tried per plan, so that a goal whose ways all
// fail deep down still answers at once.
const maxTries = 4000

type builder struct {
	g     *mcdata.GameData
	world World
	px    *prices
	// carried is what remains of the bot's inventory, made what earlier
	// steps made beyond their need, used what the plan took from the bot.
	carried, made, used []int
	table, furnace      bool // one is placed by the plan
	steps               []Step
	cannot              []Limit
	onPath              []bool
	tries               int
	lenient             bool
	partial             bool // expanding a way that lacks what cannot be had
	// standIns counts the items the lenient pass pretends to have; a step
	// that would consume one is left out of the plan.
	standIns int
	undo     []change
	root     *Node
	fuels    []mcdata.ItemID
}

type change struct {
	slice *[]int
	item  mcdata.ItemID
	old   int
}

type snapshot struct {
	undo, steps, cannot, standIns int
	table, furnace                bool
}

func newBuilder(g *mcdata.GameData, inv []int, world World, px *prices) *builder {
	return &builder{
		g: g, world: world, px: px,
		carried: slices.Clone(inv),
		made:    make([]int, len(inv)),
		used:    make([]int, len(inv)),
		onPath:  make([]bool, len(inv)),
		fuels:   plainFuels(g),
	}
}

func (b *builder) set(s *[]int, item mcdata.ItemID, v int) {
	b.undo = append(b.undo, change{s, item, (*s)[item]})
	(*s)[item] = v
}

func (b *builder) save() snapshot {
	return snapshot{len(b.undo), len(b.steps), len(b.cannot), b.standIns, b.table, b.furnace}
}

func (b *builder) restore(s snapshot) {
	for i := len(b.undo) - 1; i >= s.undo; i-- {
		c := b.undo[i]
		(*c.slice)[c.item] = c.old
	}
	b.undo = b.undo[:s.undo]
	b.steps = b.steps[:s.steps]
	b.cannot = b.cannot[:s.cannot]
	b.standIns = s.standIns
	b.table, b.furnace = s.table, s.furnace
}

func (b *builder) name(id mcdata.ItemID) string { return b.g.Item(id).Name }

// have is how many of an item the simulated inventory holds.
func (b *builder) have(id mcdata.ItemID) int { return b.carried[id] + b.made[id] }

// take removes n (at most what is held) from the inventory, carried items
// first, and returns how many came from each.
func (b *builder) take(id mcdata.ItemID, n int) (fromCarried, fromMade int) {
	fromCarried = min(n, b.carried[id])
	if fromCarried > 0 {
		b.set(&b.carried, id, b.carried[id]-fromCarried)
		b.set(&b.used, id, b.used[id]+fromCarried)
	}
	fromMade = min(n-fromCarried, b.made[id])
	if fromMade > 0 {
		b.set(&b.made, id, b.made[id]-fromMade)
	}
	return fromCarried, fromMade
}

func (b *builder) run(target mcdata.ItemID, count int, lenient bool) bool {
	b.lenient = lenient
	holder := &Node{}
	node, ok := b.need(target, count, "", holder)
	b.root = node
	return ok
}

// need gets n of an item into the simulated inventory's hands and spends
// them; it appends the item's node to parent.
func (b *builder) need(id mcdata.ItemID, n int, role string, parent *Node) (*Node, bool) {
	node := &Node{Item: b.name(id), Count: n, Role: role}
	parent.Inputs = append(parent.Inputs, node)
	fromCarried, fromMade := b.take(id, n)
	node.Carried, node.OnHand = fromCarried, fromMade
	rest := n - fromCarried - fromMade
	if rest == 0 {
		node.How = "carried"
		if fromCarried < n {
			node.How = "on_hand"
		}
		return node, true
	}
	if !b.onPath[id] {
		b.onPath[id] = true
		defer func() { b.onPath[id] = false }()
		ways := b.ranked(id, rest)
		if len(ways) == 0 && b.lenient && !b.partial {
			// Nothing gets the item, but one way lacks only what cannot
			// be had: follow it, so that the answer lists the rest of
			// what the goal takes (a brewing stand's cobblestone beside
			// its blaze rod).
			if r := b.partialWay(id, rest); r != nil {
				b.partial = true
				defer func() { b.partial = false }()
				ways = []*rule{r}
			}
		}
		for _, r := range ways {
			if b.tries >= maxTries {
				break
			}
			b.tries++
			snap, inputs := b.save(), len(node.Inputs)
			if b.apply(r, id, rest, node) {
				return node, true
			}
			b.restore(snap)
			node.Inputs, node.How, node.From = node.Inputs[:inputs], "", nil
		}
	}
	node.How = "cannot"
	node.Reason = explain(b.g, b.px, id)
	if !slices.ContainsFunc(b.cannot, func(l Limit) bool { return l.Item == node.Item }) {
		b.cannot = append(b.cannot, Limit{node.Item, node.Reason})
	}
	// Planning for what it lacks as if it were there lets the lenient pass
	// go on and name everything else the goal takes.
	if b.lenient {
		b.standIns++
	}
	return node, b.lenient
}

type candidate struct {
	r     *rule
	est   float64
	plain int
	key   int
}

// ranked lists the usable ways to get rest of an item, cheapest first
// under the current inventory; among equal ones the plainest (fewest
// words in the ingredients' names, then the first in the registry). Ways
// that cannot be priced are left out: their inputs cannot be had.
func (b *builder) ranked(id mcdata.ItemID, rest int) []*rule {
	var cands []candidate
	seenGroup := map[*group]int{}
	for _, r := range b.px.rules.byItem[id] {
		if !b.px.usable(r) {
			continue
		}
		c := candidate{r: r, est: b.estimate(r, rest)}
		switch r.kind {
		case ruleGather:
			c.key = int(b.px.blocksOf(r.group)[0].ID)
			if i, ok := seenGroup[r.group]; ok {
				if c.est < cands[i].est {
					cands[i] = c
				}
				continue
			}
			seenGroup[r.group] = len(cands)
		default:
			for _, in := range r.inputs {
				c.plain += strings.Count(b.name(in.item), "_")
				c.key += int(in.item)
			}
		}
		cands = append(cands, c)
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, c := cands[i], cands[j]
		if a.est != c.est {
			return a.est < c.est
		}
		if a.plain != c.plain {
			return a.plain < c.plain
		}
		return a.key < c.key
	})
	out := make([]*rule, 0, len(cands))
	for _, c := range cands {
		if math.IsInf(c.est, 1) {
			continue
		}
		out = append(out, c.r)
	}
	return out
}

// partialWay picks, for an item nothing gets, the recipe that lacks the
// fewest kinds of ingredient, the rest cheapest, then the plainest; nil
// when it has none. Smelting is left out: its one input is what lacks.
func (b *builder) partialWay(id mcdata.ItemID, rest int) *rule {
	var best *rule
	bestLacks, bestCost, bestPlain := 0, inf, 0
	for _, r := range b.px.rules.byItem[id] {
		if r.kind != ruleCraft {
			continue
		}
		if slices.ContainsFunc(r.inputs, func(in input) bool { return b.madeOnlyFrom(in.item, id) }) {
			continue // a netherite block is no way to a netherite ingot
		}
		runs := (rest + r.yield - 1) / r.yield
		lacks, cost, plain := 0, 0.0, 0
		for _, in := range r.inputs {
			c := b.beyond(in.item, in.count*runs)
			if math.IsInf(c, 1) {
				lacks++
			} else {
				cost += c
			}
			plain += strings.Count(b.name(in.item), "_")
		}
		if best == nil || lacks < bestLacks || (lacks == bestLacks && (cost < bestCost || (cost == bestCost && plain < bestPlain))) {
			best, bestLacks, bestCost, bestPlain = r, lacks, cost, plain
		}
	}
	return best
}

// madeOnlyFrom says whether every recipe of item takes from (a block
// crafted from its ingots).
func (b *builder) madeOnlyFrom(item, from mcdata.ItemID) bool {
	rules := b.px.rules.byItem[item]
	if len(rules) == 0 {
		return false
	}
	for _, r := range rules {
		if r.kind == ruleGather || !slices.ContainsFunc(r.inputs, func(in input) bool { return in.item == from }) {
			return false
		}
	}
	return true
}

// beyond is the price of n of an item past what the inventory holds.
func (b *builder) beyond(id mcdata.ItemID, n int) float64 {
	short := n - b.have(id)
	if short <= 0 {
		return 0
	}
	return float64(short) * b.px.make(id)
}

// estimate prices getting rest of an item by a rule, under the current
// inventory.
func (b *builder) estimate(r *rule, rest int) float64 {
	runs := (rest + r.yield - 1) / r.yield
	total := float64(runs) * r.work
	switch r.kind {
	case ruleGather:
		if !b.haveTool(r.group) {
			total += toolWeight * b.px.make(r.tool)
		}
	default:
		for _, in := range r.inputs {
			total += b.beyond(in.item, in.count*runs)
		}
	}
	return total
}

func (b *builder) haveTool(gr *group) bool {
	return len(gr.tools) == 0 || slices.ContainsFunc(gr.tools, func(t mcdata.ItemID) bool { return b.have(t) > 0 })
}

// apply gets rest of an item by a rule, appending its steps.
func (b *builder) apply(r *rule, id mcdata.ItemID, rest int, node *Node) bool {
	switch r.kind {
	case ruleGather:
		standIns := b.standIns
		tool, ok := b.ensureTool(r.group, node)
		if !ok {
			return false
		}
		var from []string
		for _, bl := range b.px.blocksOf(r.group) {
			from = append(from, bl.Name)
		}
		node.How, node.From = "gather", from
		if b.standIns == standIns {
			b.steps = append(b.steps, Step{Kind: Gather, Item: b.name(id), Count: rest, From: from, Tool: tool,
				ByChance: r.group.chance, Grown: r.group.grown})
		}
		return true
	case ruleCraft:
		standIns := b.standIns
		crafts := (rest + r.yield - 1) / r.yield
		uses := make([]ItemCount, 0, len(r.inputs))
		for _, in := range r.inputs {
			if _, ok := b.need(in.item, in.count*crafts, "", node); !ok {
				return false
			}
			uses = append(uses, ItemCount{b.name(in.item), in.count * crafts})
		}
		table := !r.recipe.FitsInventory()
		if table && !b.ensureTable(node) {
			return false
		}
		node.How = "craft"
		if b.standIns > standIns {
			return true // it would craft from what the lenient pass stood in for
		}
		b.steps = append(b.steps, Step{Kind: Craft, Item: b.name(id), Count: crafts * r.yield, Crafts: crafts,
			Uses: uses, Table: table, Recipe: r.recipe})
		if extra := crafts*r.yield - rest; extra > 0 {
			b.set(&b.made, id, b.made[id]+extra)
		}
		return true
	case ruleSmelt:
		standIns := b.standIns
		if !b.ensureFurnace(node) {
			return false
		}
		in := r.smelt.Input
		if _, ok := b.need(in, rest, "", node); !ok {
			return false
		}
		fuel, ok := b.ensureFuel(rest*r.smelt.Ticks, node)
		if !ok {
			return false
		}
		node.How = "smelt"
		if b.standIns == standIns {
			b.steps = append(b.steps, Step{Kind: Smelt, Item: b.name(id), Count: rest,
				Uses: []ItemCount{{b.name(in), rest}}, Fuel: fuel, Furnace: true})
		}
		return true
	}
	return false
}

// ensureTool makes sure the inventory holds a tool that harvests the
// group's blocks: one carried or made earlier, else the cheapest it can
// make. Tools are not used up.
func (b *builder) ensureTool(gr *group, node *Node) (string, bool) {
	if len(gr.tools) == 0 {
		return "", true
	}
	for _, t := range gr.tools {
		if b.have(t) > 0 {
			return b.name(t), true
		}
	}
	// The lowest tier first, then the cheapest: a player mines gold ore
	// with the iron pickaxe that diamonds need, not a diamond one.
	tools := slices.Clone(gr.tools)
	reach := b.px.rules.reach
	sort.SliceStable(tools, func(i, j int) bool {
		if reach[tools[i]] != reach[tools[j]] {
			return reach[tools[i]] < reach[tools[j]]
		}
		return b.px.make(tools[i]) < b.px.make(tools[j])
	})
	for _, t := range tools {
		if math.IsInf(b.px.make(t), 1) {
			break
		}
		snap, inputs := b.save(), len(node.Inputs)
		if _, ok := b.need(t, 1, "tool", node); ok {
			b.set(&b.made, t, b.made[t]+1)
			return b.name(t), true
		}
		b.restore(snap)
		node.Inputs = node.Inputs[:inputs]
		if b.lenient {
			break
		}
	}
	return "", false
}

// ensureTable makes sure a crafting table stands near for a 3×3 craft:
// one the world has, one the plan placed, else one carried or made, then
// placed.
func (b *builder) ensureTable(node *Node) bool {
	if b.world.CraftingTable || b.table {
		return true
	}
	return b.ensurePlaced(node, "crafting_table", "table", PlaceTable, &b.table)
}

// ensureFurnace is ensureTable's twin for a furnace.
func (b *builder) ensureFurnace(node *Node) bool {
	if b.world.Furnace || b.furnace {
		return true
	}
	return b.ensurePlaced(node, "furnace", "furnace", PlaceFurnace, &b.furnace)
}

func (b *builder) ensurePlaced(node *Node, item, role string, kind Kind, placed *bool) bool {
	it := b.g.ItemByName(item)
	if it == nil {
		return false
	}
	standIns := b.standIns
	if _, ok := b.need(it.ID, 1, role, node); !ok {
		return false
	}
	if b.standIns == standIns {
		b.steps = append(b.steps, Step{Kind: kind, Item: item, Count: 1})
	}
	*placed = true
	return true
}

// plainFuels are the fuels a plan burns: what a player puts in a furnace
// (coal, charcoal, logs, planks, sticks, saplings …), not every wooden
// thing that happens to burn (a bow, a chest, a boat).
func plainFuels(g *mcdata.GameData) []mcdata.ItemID {
	plain := map[mcdata.ItemID]bool{}
	for _, n := range []string{"coal", "charcoal", "coal_block", "dried_kelp_block", "blaze_rod", "stick", "bamboo"} {
		if it := g.ItemByName(n); it != nil {
			plain[it.ID] = true
		}
	}
	for _, tag := range []string{"logs", "planks", "saplings", "bamboo_blocks"} {
		for _, id := range g.ItemTag(tag) {
			plain[id] = true
		}
	}
	var out []mcdata.ItemID
	for _, f := range g.Fuels() {
		if plain[f] {
			out = append(out, f)
		}
	}
	// Longest burning first: coal before planks before sticks.
	sort.SliceStable(out, func(i, j int) bool { return g.FuelTicks(out[i]) > g.FuelTicks(out[j]) })
	return out
}

// ensureFuel finds fuel for ticks of smelting: plain fuel at hand first
// (what earlier steps left over before what the bot carries), then the
// cheapest fuel to get per tick.
func (b *builder) ensureFuel(ticks int, node *Node) ([]ItemCount, bool) {
	var fuel []ItemCount
	remaining := ticks
	for _, f := range b.fuels {
		if remaining <= 0 {
			break
		}
		avail := b.have(f)
		if avail == 0 {
			continue
		}
		burn := b.g.FuelTicks(f)
		k := min(avail, (remaining+burn-1)/burn)
		if _, ok := b.need(f, k, "fuel", node); !ok {
			return nil, false
		}
		fuel = append(fuel, ItemCount{b.name(f), k})
		remaining -= k * burn
	}
	if remaining <= 0 {
		return fuel, true
	}
	best, bestCost := mcdata.ItemID(-1), inf
	for _, f := range b.fuels {
		burn := b.g.FuelTicks(f)
		if c := b.px.make(f) * float64((remaining+burn-1)/burn); c < bestCost {
			best, bestCost = f, c
		}
	}
	if best < 0 {
		return nil, false
	}
	burn := b.g.FuelTicks(best)
	k := (remaining + burn - 1) / burn
	if _, ok := b.need(best, k, "fuel", node); !ok {
		return nil, false
	}
	if i := slices.IndexFunc(fuel, func(c ItemCount) bool { return c.Item == b.name(best) }); i >= 0 {
		fuel[i].Count += k
		return fuel, true
	}
	return append(fuel, ItemCount{b.name(best), k}), true
}

// usesOf lists what the plan took from the bot's inventory, by name.
func (b *builder) usesOf() []ItemCount {
	out := []ItemCount{}
	for id, n := range b.used {
		if n > 0 {
			out = append(out, ItemCount{b.name(mcdata.ItemID(id)), n})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Item < out[j].Item })
	return out
}
