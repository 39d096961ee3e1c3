package material

import (
	"sort"
	"sync"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// catalog is one version's materials, built once: every name that is a
// block, an item or both, sorted, and which block each item places.
type catalog struct {
	entries []Entry
	// byLength is entries by (id length, id): the search's order among
	// equally good matches.
	byLength []Entry
	// places maps an item to the block it places when the names differ
	// (redstone → redstone_wire, wheat_seeds → wheat).
	places map[string]string
}

var catalogs sync.Map // *mcdata.GameData → *catalog

func catalogOf(g *mcdata.GameData) *catalog {
	if c, ok := catalogs.Load(g); ok {
		return c.(*catalog)
	}
	c := &catalog{places: map[string]string{}}
	kinds := map[string]*Entry{}
	add := func(name string) *Entry {
		e := kinds[name]
		if e == nil {
			e = &Entry{ID: name}
			kinds[name] = e
		}
		return e
	}
	for i := range g.Blocks {
		b := &g.Blocks[i]
		add(b.Name).Block = true
		items, ok := ItemsFor(g, b)
		// An item that places a block of another name, alone (not the pot of
		// a potted plant), and the first such block in registry order (the
		// standing torch before the wall torch).
		if ok && len(items) == 1 && items[0] != b.Name && g.BlockByName(items[0]) == nil {
			if _, seen := c.places[items[0]]; !seen {
				c.places[items[0]] = b.Name
			}
		}
	}
	for i := range g.Items {
		add(g.Items[i].Name).Item = true
	}
	for _, e := range kinds {
		c.entries = append(c.entries, *e)
	}
	sort.Slice(c.entries, func(i, j int) bool { return c.entries[i].ID < c.entries[j].ID })
	c.byLength = append([]Entry(nil), c.entries...)
	sort.SliceStable(c.byLength, func(i, j int) bool { return len(c.byLength[i].ID) < len(c.byLength[j].ID) })
	actual, _ := catalogs.LoadOrStore(g, c)
	return actual.(*catalog)
}
