package rules

import (
	"bytes"
	"io"
	"testing"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// refRecipe is one recipe as prismarine-recipe reads it.
type refRecipe struct {
	Item   string `json:"item"`
	Result struct {
		ID    int32 `json:"id"`
		Count int32 `json:"count"`
	} `json:"result"`
	InShape     [][]*int32 `json:"inShape"`
	Ingredients []*int32   `json:"ingredients"`
}

// TestCraftingMatchesPrismarineRecipe: every recipe prismarine-recipe
// gives for the items the bot's skills craft, laid in a 3×3 grid at each
// place it fits (and, when it fits, in the 2×2 one), as written and
// mirrored, makes the result prismarine-recipe says.
func TestCraftingMatchesPrismarineRecipe(t *testing.T) {
	r, g := newest(t)
	names := []string{"oak_planks", "birch_planks", "stick", "crafting_table", "wooden_pickaxe", "wooden_axe", "stone_pickaxe",
		"furnace", "chest", "torch", "oak_door", "oak_stairs", "oak_slab", "white_bed", "bread", "iron_pickaxe", "ladder", "bowl"}
	refs := runNode[refRecipe](t, append([]string{"recipes", r.Names[len(r.Names)-1]}, names...)...)
	if len(refs) < len(names) {
		t.Fatalf("prismarine-recipe gave %d recipes for %d items", len(refs), len(names))
	}
	c := CraftingFor(g)
	for _, ref := range refs {
		var cells [][]item.Stack // rows of the recipe's own shape
		if ref.InShape != nil {
			for _, row := range ref.InShape {
				var out []item.Stack
				for _, id := range row {
					if id != nil {
						out = append(out, stackOf(g, mcdata.ItemID(*id), 1))
					} else {
						out = append(out, item.Stack{})
					}
				}
				cells = append(cells, out)
			}
		} else {
			// A shapeless recipe in any order: reversed, in one row after
			// the other.
			var row []item.Stack
			for i := len(ref.Ingredients) - 1; i >= 0; i-- {
				row = append(row, stackOf(g, mcdata.ItemID(*ref.Ingredients[i]), 1))
			}
			for len(row) > 0 {
				n := min(3, len(row))
				cells = append(cells, row[:n])
				row = row[n:]
			}
		}
		h, w := len(cells), 0
		for _, row := range cells {
			w = max(w, len(row))
		}
		for _, width := range []int{2, 3} {
			if w > width || h > width {
				continue
			}
			for dy := 0; dy+h <= width; dy++ {
				for dx := 0; dx+w <= width; dx++ {
					for _, mirror := range []bool{false, true} {
						grid := make([]item.Stack, width*width)
						for y, row := range cells {
							for x, s := range row {
								cx := x
								if mirror {
									cx = w - 1 - x
								}
								grid[(dy+y)*width+dx+cx] = s
							}
						}
						got := c.Match(grid, width)
						if got.ID != ref.Result.ID || got.Count != ref.Result.Count {
							t.Errorf("%s (%v) in a %dx%d grid at %d,%d mirrored %v: made %d %s, prismarine-recipe says %d of id %d",
								ref.Item, ref.InShape, width, width, dx, dy, mirror, got.Count, got.Name, ref.Result.Count, ref.Result.ID)
						}
					}
				}
			}
		}
	}
}

// TestCraftingRules: the game's rules beyond one recipe's cells: a tag's
// members mix, a grid with anything more makes nothing, a recipe too big
// for the 2×2 grid is not made there.
func TestCraftingRules(t *testing.T) {
	_, g := newest(t)
	c := CraftingFor(g)
	s := func(name string) item.Stack { return st(t, g, name, 1) }
	var e item.Stack
	cases := []struct {
		name  string
		grid  []item.Stack
		width int
		want  string // "" for nothing
	}{
		{"planks of two woods make a crafting table", []item.Stack{s("oak_planks"), s("birch_planks"), s("spruce_planks"), s("oak_planks")}, 2, "crafting_table"},
		{"mixed planks make sticks", []item.Stack{e, s("oak_planks"), e, e, s("jungle_planks"), e, e, e, e}, 3, "stick"},
		{"a stray item spoils a recipe", []item.Stack{s("oak_planks"), s("oak_planks"), s("oak_planks"), s("dirt")}, 2, ""},
		{"a log in a corner makes planks", []item.Stack{e, e, e, s("oak_log")}, 2, "oak_planks"},
		{"two logs make nothing", []item.Stack{s("oak_log"), s("oak_log"), e, e}, 2, ""},
		{"an empty grid makes nothing", []item.Stack{e, e, e, e}, 2, ""},
		{"a wrong-sized grid makes nothing", []item.Stack{s("oak_log")}, 2, ""},
	}
	for _, tc := range cases {
		got := c.Match(tc.grid, tc.width)
		if got.Name != tc.want {
			t.Errorf("%s: made %q, want %q", tc.name, got.Name, tc.want)
		}
	}
	// A pickaxe's pattern is three wide: it is no 2×2 recipe.
	pick := g.RecipesFor(g.ItemByName("wooden_pickaxe").ID)[0]
	if pick.FitsInventory() {
		t.Fatalf("the wooden pickaxe's recipe fits the 2×2 grid?")
	}
}
