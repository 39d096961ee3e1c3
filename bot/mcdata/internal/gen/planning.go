package gen

// The facts a planner needs beyond the crafting recipes: what each block
// drops when broken without silk touch (from minecraft-data's block loot
// table), which mobs drop which items (its entity loot table), what a
// furnace smelts and burns (blockmate's own fact table, furnace.txt) and
// the item tags those facts are written in (tags.go). Each is one part of
// game_data.bin per release, like the parts in game.go; the layouts are
// written next to the encoders and read back by
// bot/mcdata/game_planning_load.go.

import (
	_ "embed"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The planning parts' indices in gameKinds, after the ten of game.go.
const (
	kindLoot = iota + 10
	kindMobLoot
	kindFurnace
	kindTags
)

// ownPartSources names the parts that do not come from a minecraft-data
// file, by their gameKinds file key: the folder column of game_gen.go shows
// these instead.
var ownPartSources = map[string]string{
	"furnaceFacts": "gen/furnace.txt",
	"itemTags":     "gen/tags.go",
}

// The minecraft-data loot shapes.
type (
	mdLootDrop struct {
		Item           string
		DropChance     float64
		StackSizeRange []*float64
		SilkTouch      bool
		NoSilkTouch    bool
		BlockAge       *int
	}
	mdBlockLoot struct {
		Block string
		Drops []mdLootDrop
	}
	mdEntityLoot struct {
		Entity string
		Drops  []struct{ Item string }
	}
)

// planningSource is one release's planning inputs.
type planningSource struct {
	data       *dataSet
	blockLoot  map[string][]mdLootDrop
	entityLoot []mdEntityLoot
}

func (s *gameSource) loadPlanning(d *dataSet) error {
	file := func(kind int) string {
		return s.release.folders[kind] + "/" + gameKinds[kind].file + ".json"
	}
	s.planning.data = d
	var loot []mdBlockLoot
	if err := d.readJSON(file(kindLoot), &loot); err != nil {
		return err
	}
	s.planning.blockLoot = make(map[string][]mdLootDrop, len(loot))
	for _, l := range loot {
		s.planning.blockLoot[l.Block] = l.Drops
	}
	return d.readJSON(file(kindMobLoot), &s.planning.entityLoot)
}

// encodePlanning fills the planning parts of out.
func (s *gameSource) encodePlanning(out [][]byte, items map[string]int) error {
	var err error
	if out[kindLoot], err = s.encodeLoot(items); err != nil {
		return err
	}
	if out[kindMobLoot], err = s.encodeMobLoot(items); err != nil {
		return err
	}
	tags := deriveTags(items)
	if out[kindFurnace], err = encodeFurnace(items, tags); err != nil {
		return err
	}
	out[kindTags] = encodeTags(items, tags)
	return nil
}

// blockDrop is one item a block drops when broken with a tool that
// harvests it and without silk touch.
type blockDrop struct {
	item, count   int
	chance, grown bool
}

// deriveLoot turns minecraft-data's loot entry for a block into the drops
// a planner may count on. minecraft-data's extractor flattens the game's
// loot tables and loses their conditions, and its blocks.json lists, per
// release, the drops of one sample break (so leaves list a sapling in one
// release and nothing in the next). The rules are:
//
//   - an entry marked silkTouch needs silk touch: left out;
//   - the block's own item, unmarked, not always sampled and beside other
//     entries is the shears (or silk touch) branch of an alternative
//     (leaves, cobweb, grass): left out;
//   - an item is a sure drop when every release's blocks.json samples it
//     (dropConsensus), or when it is the block's own item among the
//     no-silk-touch alternatives (gravel, now and then flint instead), else
//     a chance drop (flint, saplings and apples); an entry with a block age
//     is the crop's when fully grown, and sure then unless its chance is
//     low (a poisonous potato);
//   - the count is the low end of stackSizeRange, and 1 for the block's own
//     item (minecraft-data records a double slab's 2 and four candles' 4
//     without the state that gives them). The high end is not kept: for
//     ores minecraft-data gives 1-2 whatever the ore, and the game counts
//     fortune apart.
//
// A block the 1.20 table lacks drops what blocks.json samples in every
// release that has it, unless a LootCorrection says otherwise.
func (s *gameSource) deriveLoot(b mdBlock, items map[string]int, sure map[string]bool) ([]blockDrop, error) {
	corr := lootCorrectionFor(b.Name)
	one := func(names []string) ([]blockDrop, error) {
		var out []blockDrop
		for _, n := range names {
			id, ok := items[n]
			if !ok {
				return nil, fmt.Errorf("%s drops %s, which is not an item", b.Name, n)
			}
			out = append(out, blockDrop{item: id, count: 1})
		}
		return out, nil
	}
	if corr != nil && corr.Drops != nil {
		return one(corr.Drops)
	}
	entries, ok := s.planning.blockLoot[b.Name]
	if corr != nil && corr.Like != "" {
		if entries, ok = s.planning.blockLoot[corr.Like]; !ok {
			return nil, fmt.Errorf("loot correction for %s: the 1.20 table has no %s; drop the correction", b.Name, corr.Like)
		}
	}
	if !ok {
		var names []string
		for _, id := range b.Drops {
			if n := s.items[id].Name; sure[n] {
				names = append(names, n)
			}
		}
		return one(names)
	}
	merged := map[int]*blockDrop{}
	var order []int
	for _, e := range entries {
		if e.SilkTouch {
			continue
		}
		name := e.Item
		if corr != nil && corr.Rename[name] != "" {
			name = corr.Rename[name]
		} else if r := LootRenames[name]; r != "" {
			name = r
		}
		if name == b.Name && !e.NoSilkTouch && e.BlockAge == nil && !sure[name] && len(entries) > 1 {
			continue
		}
		id, ok := items[name]
		if !ok {
			return nil, fmt.Errorf("blockLoot.json: %s drops %s, which is not an item of %s; add it to LootRenames", b.Name, name, s.release.version)
		}
		count := 1
		if len(e.StackSizeRange) > 0 && e.StackSizeRange[0] != nil && *e.StackSizeRange[0] >= 1 && name != b.Name {
			count = int(math.Round(*e.StackSizeRange[0]))
		}
		d := blockDrop{item: id, count: count, chance: !sure[name], grown: e.BlockAge != nil}
		if e.NoSilkTouch && name == b.Name {
			d.chance = false
		}
		if d.grown && e.DropChance >= 0.5 {
			d.chance = false
		}
		if corr != nil && contains(corr.Chance, name) {
			d.chance = true
		}
		if m := merged[id]; m != nil {
			m.count = min(m.count, d.count)
			m.chance = m.chance && d.chance
			m.grown = m.grown && d.grown
			continue
		}
		merged[id] = &d
		order = append(order, id)
	}
	out := make([]blockDrop, 0, len(order))
	for _, id := range order {
		out = append(out, *merged[id])
	}
	// Sure drops first, then by item id: the order a reader expects and the
	// encoding's, so equal loot encodes equally.
	sort.Slice(out, func(i, j int) bool {
		if out[i].chance != out[j].chance {
			return !out[i].chance
		}
		return out[i].item < out[j].item
	})
	if corr != nil {
		for _, n := range corr.Chance {
			if _, ok := merged[items[n]]; !ok {
				return nil, fmt.Errorf("loot correction for %s: it does not drop %s; drop the correction", b.Name, n)
			}
		}
	}
	return out, nil
}

// dropConsensus maps each block name to the items blocks.json lists as its
// drops in every release that has the block: minecraft-data samples one
// break per release, so a drop that only sometimes happens is missing from
// some release's sample. It reads each distinct blocks folder once.
func dropConsensus(d *dataSet) (map[string]map[string]bool, error) {
	consensusMu.Lock()
	defer consensusMu.Unlock()
	if c, ok := consensusCache[d]; ok {
		return c, nil
	}
	releases, _, err := readReleases(d)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]bool{}
	done := map[string]bool{}
	for _, r := range releases {
		folder := r.paths["blocks"]
		if done[folder] {
			continue
		}
		done[folder] = true
		var blocks []struct {
			Name  string
			Drops []int
		}
		var items []struct {
			ID   int
			Name string
		}
		if err := d.readJSON(folder+"/blocks.json", &blocks); err != nil {
			return nil, err
		}
		if err := d.readJSON(r.paths["items"]+"/items.json", &items); err != nil {
			return nil, err
		}
		name := map[int]string{}
		for _, it := range items {
			name[it.ID] = it.Name
		}
		for _, b := range blocks {
			sample := map[string]bool{}
			for _, id := range b.Drops {
				if n := name[id]; n != "" && n != "air" {
					sample[n] = true
				}
			}
			prev, seen := out[b.Name]
			if !seen {
				out[b.Name] = sample
				continue
			}
			for n := range prev {
				if !sample[n] {
					delete(prev, n)
				}
			}
		}
	}
	consensusCache[d] = out
	return out, nil
}

var (
	consensusMu    sync.Mutex
	consensusCache = map[*dataSet]map[string]map[string]bool{}
)

// Loot part: blockCount (the release's, in id order), per block:
// dropCount, per drop: item id, count, flags (1 chance, 2 only when grown).
func (s *gameSource) encodeLoot(items map[string]int) ([]byte, error) {
	consensus, err := dropConsensus(s.planning.data)
	if err != nil {
		return nil, err
	}
	var e enc
	e.uint(len(s.blocks))
	for _, b := range s.blocks {
		drops, err := s.deriveLoot(b, items, consensus[b.Name])
		if err != nil {
			return nil, err
		}
		e.uint(len(drops))
		for _, d := range drops {
			e.uint(d.item)
			e.uint(d.count)
			flags := 0
			if d.chance {
				flags |= 1
			}
			if d.grown {
				flags |= 2
			}
			e.uint(flags)
		}
	}
	return e.b, nil
}

// MobLoot part: entityCount, per entity of the release that drops
// anything, sorted by name: name, itemCount, item ids ascending. Counts
// and chances are not kept: the planner only says which mobs drop an item.
func (s *gameSource) encodeMobLoot(items map[string]int) ([]byte, error) {
	known := map[string]bool{}
	for _, x := range s.entities {
		known[x.Name] = true
	}
	loot := map[string][]int{}
	var names []string
	for _, l := range s.planning.entityLoot {
		if !known[l.Entity] || len(l.Drops) == 0 {
			continue
		}
		seen := map[int]bool{}
		for _, d := range l.Drops {
			name := d.Item
			if r := LootRenames[name]; r != "" {
				name = r
			}
			id, ok := items[name]
			if !ok {
				return nil, fmt.Errorf("entityLoot.json: %s drops %s, which is not an item of %s; add it to LootRenames", l.Entity, name, s.release.version)
			}
			if !seen[id] {
				seen[id] = true
				loot[l.Entity] = append(loot[l.Entity], id)
			}
		}
		names = append(names, l.Entity)
	}
	sort.Strings(names)
	var e enc
	e.uint(len(names))
	for _, n := range names {
		ids := loot[n]
		sort.Ints(ids)
		e.str(n)
		e.uint(len(ids))
		for _, id := range ids {
			e.uint(id)
		}
	}
	return e.b, nil
}

//go:embed furnace.txt
var furnaceFacts string

// furnaceRow is one row of furnace.txt.
type furnaceRow struct {
	line  int
	kind  string // smelt, fuel, nofuel
	item  string // smelt: the output
	ticks int
	names []string // item names and #tags
}

func parseFurnaceFacts() ([]furnaceRow, error) {
	var rows []furnaceRow
	for i, line := range strings.Split(furnaceFacts, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		r := furnaceRow{line: i + 1, kind: f[0]}
		bad := func() error { return fmt.Errorf("furnace.txt:%d: %q is not a row of the table", i+1, line) }
		var err error
		switch r.kind {
		case "smelt":
			if len(f) < 4 {
				return nil, bad()
			}
			r.item = f[1]
			r.ticks, err = strconv.Atoi(f[2])
			r.names = f[3:]
		case "fuel":
			if len(f) < 3 {
				return nil, bad()
			}
			r.ticks, err = strconv.Atoi(f[1])
			r.names = f[2:]
		case "nofuel":
			if len(f) < 2 {
				return nil, bad()
			}
			r.names = f[1:]
		default:
			return nil, bad()
		}
		if err != nil || (r.kind != "nofuel" && r.ticks <= 0) {
			return nil, bad()
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// FurnaceFactNames lists every item name furnace.txt uses (tags left out),
// for the test that each is an item of the newest release.
func FurnaceFactNames() ([]string, error) {
	rows, err := parseFurnaceFacts()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		for _, n := range append([]string{r.item}, r.names...) {
			if n != "" && !strings.HasPrefix(n, "#") && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// expand turns a row's names into the release's item ids, tags expanded;
// items the release lacks are skipped.
func expand(r furnaceRow, items map[string]int, tags map[string][]string) ([]int, error) {
	var ids []int
	for _, n := range r.names {
		if tag, ok := strings.CutPrefix(n, "#"); ok {
			members, known := tags[tag]
			if !known && !knownTag(tag) {
				return nil, fmt.Errorf("furnace.txt:%d: no rule in tags.go derives #%s", r.line, tag)
			}
			for _, m := range members {
				ids = append(ids, items[m])
			}
			continue
		}
		if id, ok := items[n]; ok {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// knownTag says whether tags.go has a rule for the tag, for tags that are
// empty in a release (no shelves before 1.21.9).
func knownTag(tag string) bool {
	if _, ok := woodSuffixes[tag]; ok {
		return true
	}
	switch tag {
	case "logs", "logs_that_burn", "non_flammable_wood", "boats", "wool", "wool_carpets", "banners", "bamboo_blocks", "saplings", "leaves", "smelts_to_glass":
		return true
	}
	return false
}

// Furnace part: smeltCount, per recipe sorted by output then input id:
// input id, output id, ticks; then fuelCount, per fuel in item id order:
// item id, burn ticks.
func encodeFurnace(items map[string]int, tags map[string][]string) ([]byte, error) {
	rows, err := parseFurnaceFacts()
	if err != nil {
		return nil, err
	}
	type smelt struct{ in, out, ticks int }
	var smelts []smelt
	fuel := map[int]int{}
	for _, r := range rows {
		ids, err := expand(r, items, tags)
		if err != nil {
			return nil, err
		}
		switch r.kind {
		case "smelt":
			out, ok := items[r.item]
			if !ok {
				continue
			}
			for _, in := range ids {
				smelts = append(smelts, smelt{in, out, r.ticks})
			}
		case "fuel":
			for _, id := range ids {
				fuel[id] = r.ticks
			}
		case "nofuel":
			for _, id := range ids {
				delete(fuel, id)
			}
		}
	}
	sort.Slice(smelts, func(i, j int) bool {
		if smelts[i].out != smelts[j].out {
			return smelts[i].out < smelts[j].out
		}
		return smelts[i].in < smelts[j].in
	})
	var e enc
	e.uint(len(smelts))
	for i, sm := range smelts {
		if i > 0 && smelts[i-1].in == sm.in && smelts[i-1].out == sm.out {
			return nil, fmt.Errorf("furnace.txt smelts item %d into %d twice", sm.in, sm.out)
		}
		e.uint(sm.in)
		e.uint(sm.out)
		e.uint(sm.ticks)
	}
	ids := make([]int, 0, len(fuel))
	for id := range fuel {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	e.uint(len(ids))
	for _, id := range ids {
		e.uint(id)
		e.uint(fuel[id])
	}
	return e.b, nil
}

// Tags part: tagCount, per tag sorted by name: name, itemCount, item ids
// ascending.
func encodeTags(items map[string]int, tags map[string][]string) []byte {
	names := make([]string, 0, len(tags))
	for n := range tags {
		names = append(names, n)
	}
	sort.Strings(names)
	var e enc
	e.uint(len(names))
	for _, n := range names {
		ids := make([]int, 0, len(tags[n]))
		for _, m := range tags[n] {
			ids = append(ids, items[m])
		}
		sort.Ints(ids)
		e.str(n)
		e.uint(len(ids))
		for _, id := range ids {
			e.uint(id)
		}
	}
	return e.b
}

// lootCorrectionsComment is game_gen.go's list of the loot corrections.
func lootCorrectionsComment() string {
	var b strings.Builder
	b.WriteString("// Block drops come from minecraft-data's 1.20 block loot table and each\n")
	b.WriteString("// release's blocks.json (bot/mcdata/internal/gen/planning.go says how);\n")
	b.WriteString("// where blockmate does not take their word (corrections_loot.go):\n")
	for _, c := range LootCorrections {
		fmt.Fprintf(&b, "//   - %s: %s.\n", c.Block, c.Why)
	}
	renames := make([]string, 0, len(LootRenames))
	for from, to := range LootRenames {
		renames = append(renames, from+" → "+to)
	}
	sort.Strings(renames)
	fmt.Fprintf(&b, "//   - items the 1.20 table names by an old name: %s.\n", strings.Join(renames, ", "))
	b.WriteString("//   - every other block the 1.20 table lacks drops what blocks.json lists.\n")
	b.WriteString("// Recipes (corrections_recipes.go): " + dyeRecipeCorrection + ".\n\n")
	return b.String()
}
