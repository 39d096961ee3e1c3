package rules

import (
	"slices"
	"sync"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
)

// Crafting matches a grid against the game's crafting recipes
// (mcdata.GameData.Recipes, shaped and shapeless).
//
// minecraft-data writes a recipe whose ingredient is a tag (#planks,
// #coals) once per member, so a crafting table made of two oak and two
// birch planks matches none of its variants; the game accepts it. A
// matcher's recipe therefore merges the variants of one result that have
// the same count and the same shape: each cell accepts any item that one
// of the variants has there, which is the tag. Shapeless recipes are kept
// as they are: their variants differ in one ingredient only.
type Crafting struct {
	g       *mcdata.GameData
	recipes []craftRecipe
}

// craftRecipe is one merged recipe. A shaped one has Width×Height cells,
// each the sorted items it accepts (nil: empty); a shapeless one has its
// ingredients, each a one-item set.
type craftRecipe struct {
	result mcdata.ItemID
	count  int
	shaped bool
	w, h   int
	cells  [][]mcdata.ItemID
}

var craftingCache sync.Map // *mcdata.GameData → *Crafting

// CraftingFor returns the version's matcher, built once and shared.
func CraftingFor(g *mcdata.GameData) *Crafting {
	if c, ok := craftingCache.Load(g); ok {
		return c.(*Crafting)
	}
	c := buildCrafting(g)
	actual, _ := craftingCache.LoadOrStore(g, c)
	return actual.(*Crafting)
}

func buildCrafting(g *mcdata.GameData) *Crafting {
	c := &Crafting{g: g}
	type key struct {
		result  mcdata.ItemID
		count   int
		w, h    int
		pattern uint16 // bit i: cell i is not empty
	}
	merged := map[key]int{}
	for i := range g.Recipes {
		r := &g.Recipes[i]
		if !r.Shaped {
			cells := make([][]mcdata.ItemID, len(r.Ingredients))
			for j, id := range r.Ingredients {
				cells[j] = []mcdata.ItemID{id}
			}
			c.recipes = append(c.recipes, craftRecipe{result: r.Result, count: r.Count, cells: cells})
			continue
		}
		k := key{result: r.Result, count: r.Count, w: r.Width, h: r.Height}
		for j, id := range r.Grid {
			if id != mcdata.NoItem {
				k.pattern |= 1 << j
			}
		}
		at, ok := merged[k]
		if !ok {
			at = len(c.recipes)
			merged[k] = at
			c.recipes = append(c.recipes, craftRecipe{result: r.Result, count: r.Count, shaped: true, w: r.Width, h: r.Height,
				cells: make([][]mcdata.ItemID, len(r.Grid))})
		}
		cells := c.recipes[at].cells
		for j, id := range r.Grid {
			if id == mcdata.NoItem {
				continue
			}
			if p, found := slices.BinarySearch(cells[j], id); !found {
				cells[j] = slices.Insert(cells[j], p, id)
			}
		}
	}
	return c
}

// Match finds the recipe a crafting grid (width×width stacks, row by row
// from the top) makes, and returns its result; empty when the grid makes
// nothing. Like the game it trims the grid to its filled part, matches a
// shaped recipe as written or mirrored left to right, and a shapeless one
// whatever the order.
func (c *Crafting) Match(grid []item.Stack, width int) item.Stack {
	if width <= 0 || len(grid) != width*width {
		return item.Stack{}
	}
	minX, minY, maxX, maxY, filled := width, width, -1, -1, 0
	for i, s := range grid {
		if s.Empty() {
			continue
		}
		filled++
		x, y := i%width, i/width
		minX, maxX = min(minX, x), max(maxX, x)
		minY, maxY = min(minY, y), max(maxY, y)
	}
	if filled == 0 {
		return item.Stack{}
	}
	w, h := maxX-minX+1, maxY-minY+1
	at := func(x, y int) item.Stack { return grid[(minY+y)*width+minX+x] }
	for i := range c.recipes {
		r := &c.recipes[i]
		var ok bool
		if r.shaped {
			ok = r.w == w && r.h == h && (r.shapedMatch(at, false) || r.shapedMatch(at, true))
		} else {
			ok = len(r.cells) == filled && r.shapelessMatch(grid)
		}
		if ok {
			return c.stack(r.result, r.count)
		}
	}
	return item.Stack{}
}

func (r *craftRecipe) shapedMatch(at func(x, y int) item.Stack, mirror bool) bool {
	for y := range r.h {
		for x := range r.w {
			cx := x
			if mirror {
				cx = r.w - 1 - x
			}
			want := r.cells[y*r.w+cx]
			s := at(x, y)
			if want == nil {
				if !s.Empty() {
					return false
				}
				continue
			}
			if s.Empty() {
				return false
			}
			if _, found := slices.BinarySearch(want, mcdata.ItemID(s.ID)); !found {
				return false
			}
		}
	}
	return true
}

// shapelessMatch pairs the grid's items with the ingredients, trying each
// assignment (at most nine of each).
func (r *craftRecipe) shapelessMatch(grid []item.Stack) bool {
	var used [9]bool
	var items []mcdata.ItemID
	for _, s := range grid {
		if !s.Empty() {
			items = append(items, mcdata.ItemID(s.ID))
		}
	}
	var try func(k int) bool
	try = func(k int) bool {
		if k == len(items) {
			return true
		}
		for j, set := range r.cells {
			if used[j] {
				continue
			}
			if _, found := slices.BinarySearch(set, items[k]); found {
				used[j] = true
				if try(k + 1) {
					return true
				}
				used[j] = false
			}
		}
		return false
	}
	return len(items) <= len(used) && try(0)
}

// stack is a stack of n of the item, named from the static data.
func (c *Crafting) stack(id mcdata.ItemID, n int) item.Stack {
	return stackOf(c.g, id, n)
}

// stackOf is a stack of n of the item, named from the static data.
func stackOf(g *mcdata.GameData, id mcdata.ItemID, n int) item.Stack {
	s := item.Stack{ID: int32(id), Count: int32(n)}
	if it := g.Item(id); it != nil {
		s.Name = it.Name
	}
	return s
}
