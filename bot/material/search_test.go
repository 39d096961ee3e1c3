package material_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/material"
	"github.com/blockmate/blockmate/bot/mcdata"
)

// pages follows next_cursor to the end and returns every result in order.
func pages(t *testing.T, g *mcdata.GameData, a material.SearchArgs) ([]material.Entry, int) {
	t.Helper()
	var all []material.Entry
	total := -1
	for n := 0; ; n++ {
		r, err := material.Search(g, a)
		if err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
		if total >= 0 && r.Total != total {
			t.Fatalf("%+v: total changed from %d to %d", a, total, r.Total)
		}
		total = r.Total
		if len(r.Results) > max(a.Limit, 1) && a.Limit > 0 || len(r.Results) > material.MaxLimit {
			t.Fatalf("%+v: %d results on a page", a, len(r.Results))
		}
		if len(r.NextCursor) > material.MaxCursor {
			t.Fatalf("cursor of %d characters", len(r.NextCursor))
		}
		all = append(all, r.Results...)
		if r.NextCursor == "" {
			break
		}
		if n > 10000 {
			t.Fatal("the pages never end")
		}
		a.Cursor = r.NextCursor
	}
	return all, total
}

// TestSearchPagesAreStable walks every material of every version in pages
// of two sizes: the same sequence both ways, no repeats, every block and
// item present exactly once under kind all, and the same answer twice.
func TestSearchPagesAreStable(t *testing.T) {
	for _, g := range versions() {
		small, total := pages(t, g, material.SearchArgs{Kind: "all", Limit: 7})
		big, _ := pages(t, g, material.SearchArgs{Kind: "all", Limit: material.MaxLimit})
		again, _ := pages(t, g, material.SearchArgs{Kind: "all", Limit: 7})
		if !slices.Equal(small, big) || !slices.Equal(small, again) || len(small) != total {
			t.Fatalf("%s: pages of 7 and of 32 differ (%d, %d, total %d)", g.Version, len(small), len(big), total)
		}
		seen := map[string]bool{}
		for _, e := range small {
			if seen[e.ID] {
				t.Fatalf("%s: %s twice", g.Version, e.ID)
			}
			seen[e.ID] = true
			if e.Block != (g.BlockByName(e.ID) != nil) || e.Item != (g.ItemByName(e.ID) != nil) {
				t.Fatalf("%s: %+v", g.Version, e)
			}
		}
		for i := range g.Blocks {
			if !seen[g.Blocks[i].Name] {
				t.Fatalf("%s: block %s missing", g.Version, g.Blocks[i].Name)
			}
		}
		for i := range g.Items {
			if !seen[g.Items[i].Name] {
				t.Fatalf("%s: item %s missing", g.Version, g.Items[i].Name)
			}
		}
		blocks, _ := pages(t, g, material.SearchArgs{})
		if len(blocks) != len(g.Blocks) {
			t.Errorf("%s: kind block found %d of %d blocks", g.Version, len(blocks), len(g.Blocks))
		}
		items, _ := pages(t, g, material.SearchArgs{Kind: "item", Limit: 32})
		if len(items) != len(g.Items) {
			t.Errorf("%s: kind item found %d of %d items", g.Version, len(items), len(g.Items))
		}
	}
}

func TestSearchMatchesAndRanks(t *testing.T) {
	g := newest()
	for _, q := range []string{"oak stairs", "Oak_Stairs", "minecraft:oak_stairs", "stairs oak"} {
		r, err := material.Search(g, material.SearchArgs{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Results) == 0 || r.Results[0].ID != "oak_stairs" {
			t.Errorf("%q: first result %v, want oak_stairs", q, r.Results)
		}
		for _, e := range r.Results {
			if !strings.Contains(e.ID, "oak") || !strings.Contains(e.ID, "stairs") {
				t.Errorf("%q: %s does not match", q, e.ID)
			}
		}
	}
	all, total := pages(t, g, material.SearchArgs{Query: "door", Kind: "all", Limit: 5})
	want := 0
	for i := range g.Blocks {
		if strings.Contains(g.Blocks[i].Name, "door") {
			want++
		}
	}
	for i := range g.Items {
		if strings.Contains(g.Items[i].Name, "door") && g.BlockByName(g.Items[i].Name) == nil {
			want++
		}
	}
	if total != want || len(all) != want {
		t.Errorf("door: %d results, total %d; the data has %d", len(all), total, want)
	}
	r, _ := material.Search(g, material.SearchArgs{Query: "zzzz"})
	if r.Total != 0 || r.Results == nil || r.NextCursor != "" {
		t.Errorf("no match: %+v", r)
	}
}

func TestSearchRefusesBadArguments(t *testing.T) {
	g := newest()
	first, _ := material.Search(g, material.SearchArgs{Query: "oak", Limit: 2})
	if first.NextCursor == "" {
		t.Fatal("no cursor")
	}
	for _, c := range []struct {
		a    material.SearchArgs
		says string
	}{
		{material.SearchArgs{Kind: "entity"}, "not one of block, item, all"},
		{material.SearchArgs{Limit: 33}, "outside 1–32"},
		{material.SearchArgs{Limit: -1}, "outside 1–32"},
		{material.SearchArgs{Query: strings.Repeat("a", 97)}, "at most 96"},
		{material.SearchArgs{Query: "oak\x00"}, "control character"},
		{material.SearchArgs{Query: "birch", Limit: 2, Cursor: first.NextCursor}, "another query or kind"},
		{material.SearchArgs{Query: "oak", Kind: "item", Limit: 2, Cursor: first.NextCursor}, "another query or kind"},
		{material.SearchArgs{Query: "oak", Cursor: "bm90IGEgY3Vyc29y"}, "not one a material search gave"},
		{material.SearchArgs{Query: "oak", Cursor: "!!"}, "not one a material search gave"},
	} {
		_, err := material.Search(g, c.a)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v, want it to say %q", c.a, err, c.says)
		}
	}
	old := versions()[0]
	_, err := material.Search(old, material.SearchArgs{Query: "oak", Limit: 2, Cursor: first.NextCursor})
	if err == nil || !strings.Contains(err.Error(), "the game is now "+old.Version) {
		t.Errorf("a cursor from %s read in %s: %v", g.Version, old.Version, err)
	}
	// The same query, written differently, continues the same search.
	if _, err := material.Search(g, material.SearchArgs{Query: " OAK ", Limit: 2, Cursor: first.NextCursor}); err != nil {
		t.Errorf("the cursor with the query re-cased: %v", err)
	}
}

// FuzzSearch sends arbitrary queries and cursors: an answer or a sentence,
// never a panic, and never more than a page.
func FuzzSearch(f *testing.F) {
	g := newest()
	first, _ := material.Search(g, material.SearchArgs{Query: "oak", Limit: 2})
	f.Add("oak", first.NextCursor)
	f.Add("", "")
	f.Add("stone", "bTF8MjYuMXxibG9ja3wwMDAwMDAwMHw5OTk5OTk5OQ")
	f.Fuzz(func(t *testing.T, query, cursor string) {
		r, err := material.Search(g, material.SearchArgs{Query: query, Cursor: cursor, Kind: "all"})
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if len(r.Results) > material.DefaultLimit {
			t.Fatalf("%d results", len(r.Results))
		}
	})
}
