package material

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// MaxID is the longest id mc_material_describe reads.
const MaxID = 128

// maxRecipes is how many crafting recipes a description shows; the rest
// are counted (planks have one per wood).
const maxRecipes = 4

// Description is mc_material_describe's answer: TOOLS.md's fields in its
// order, then the extra ones this package knows.
type Description struct {
	ID    string `json:"id"`
	Block bool   `json:"block"`
	Item  bool   `json:"item"`
	// Placeable says a recipe can name it as a block (every block; an
	// item-only id is not, though it may place a block of another name:
	// Places).
	Placeable    bool         `json:"placeable"`
	DefaultState string       `json:"default_state,omitempty"`
	Properties   PropertyList `json:"properties,omitempty"`
	// Hardness is the base break time factor (nil for an item);
	// Unbreakable marks -1 (bedrock, barriers).
	Hardness    *float64   `json:"hardness,omitempty"`
	Unbreakable bool       `json:"unbreakable,omitempty"`
	Tool        *Tool      `json:"tool,omitempty"`
	Drops       []string   `json:"drops,omitempty"`
	Behavior    *Behaviour `json:"behavior,omitempty"`
	// PlacedBy are the items that place the block; NoItem says none does
	// (only commands set it: fire, portals, air).
	PlacedBy []string `json:"placed_by,omitempty"`
	NoItem   bool     `json:"no_item,omitempty"`
	// Places is the block an item places when its name differs
	// (redstone → redstone_wire).
	Places    string `json:"places,omitempty"`
	StackSize int    `json:"stack_size,omitempty"`
	// Crafted are up to four of the item's crafting recipes; MoreRecipes
	// counts the others.
	Crafted     []Craft `json:"crafted,omitempty"`
	MoreRecipes int     `json:"more_recipes,omitempty"`
}

// Tool is what mines a block: the tool kinds that speed it up, whether one
// is needed for it to drop anything, and the weakest that is.
type Tool struct {
	Kinds          []string `json:"kinds,omitempty"`
	NeededForDrops bool     `json:"needed_for_drops"`
	Weakest        string   `json:"weakest,omitempty"`
}

// Craft is one crafting recipe.
type Craft struct {
	Makes              int         `json:"makes"`
	NeedsCraftingTable bool        `json:"needs_crafting_table"`
	Ingredients        []ItemCount `json:"ingredients"`
	// Grid is a shaped recipe's rows from the top, "" for an empty cell.
	Grid [][]string `json:"grid,omitempty"`
}

// ItemCount is an item and how many.
type ItemCount struct {
	Item  string `json:"item"`
	Count int    `json:"count"`
}

// Property is one block-state property and its values, in the game's
// order.
type Property struct {
	Name   string
	Values []string
}

// PropertyList is a block's properties; it marshals as the object
// {name: [values]} with the names in the game's order (a map would sort
// them), never the product of their combinations.
type PropertyList []Property

// MarshalJSON writes the list as one ordered object.
func (l PropertyList) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range l {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.Name)
		v, _ := json.Marshal(p.Values)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Describe answers mc_material_describe for an id ("oak_door" or
// "minecraft:oak_door"). An unknown id is an error that offers near names;
// a state ("oak_door[half=upper]") is refused with the id to ask for.
func Describe(g *mcdata.GameData, id string) (Description, error) {
	if len(id) > MaxID {
		return Description{}, fmt.Errorf("the id is %d characters; ids are at most %d, such as minecraft:oak_planks", len(id), MaxID)
	}
	text, err := mcdata.ParseStateText(id)
	if err != nil {
		return Description{}, err
	}
	if len(text.Props) > 0 || strings.Contains(id, "[") {
		return Description{}, fmt.Errorf("describe takes an id without properties: ask for %s; its properties and values are in the answer", text.Name)
	}
	name := text.Name
	b, it := g.BlockByName(name), g.ItemByName(name)
	if b == nil && it == nil {
		return Description{}, unknownMaterial(g, name)
	}
	d := Description{ID: name, Block: b != nil, Item: it != nil, Placeable: b != nil}
	if b != nil {
		describeBlock(g, b, &d)
	}
	if it != nil {
		d.StackSize = it.StackSize
		d.Places = catalogOf(g).places[name]
		recipes := g.RecipesFor(it.ID)
		for i := range recipes {
			if i == maxRecipes {
				d.MoreRecipes = len(recipes) - maxRecipes
				break
			}
			d.Crafted = append(d.Crafted, craftOf(g, &recipes[i]))
		}
	}
	return d, nil
}

func describeBlock(g *mcdata.GameData, b *mcdata.Block, d *Description) {
	def, _ := g.StateByID(b.DefaultState)
	d.DefaultState = def.String()
	for _, p := range b.Props {
		d.Properties = append(d.Properties, Property{p.Name, append([]string(nil), p.Values...)})
	}
	h := b.Hardness
	d.Hardness = &h
	d.Unbreakable = h < 0
	d.Tool = toolOf(g, b)
	for _, id := range b.Drops {
		if it := g.Item(id); it != nil {
			d.Drops = append(d.Drops, it.Name)
		}
	}
	if bh := BehaviourOf(g, b); !bh.Empty() {
		d.Behavior = &bh
	}
	if items, ok := ItemsFor(g, b); ok {
		d.PlacedBy = items
	} else {
		d.NoItem = true
	}
}

// toolOf reads the tool kinds from the block's dig-speed class (the item
// names' last word among the tools that speed it: pickaxe, axe, shovel,
// hoe, sword, shears) and the weakest harvest tool by tier.
func toolOf(g *mcdata.GameData, b *mcdata.Block) *Tool {
	t := &Tool{NeededForDrops: len(b.HarvestTools) > 0}
	if b.Material != nil {
		seen := map[string]bool{}
		for _, s := range b.Material.Speeds {
			it := g.Item(s.Item)
			if it == nil {
				continue
			}
			kind := it.Name[strings.LastIndexByte(it.Name, '_')+1:]
			if !seen[kind] {
				seen[kind] = true
				t.Kinds = append(t.Kinds, kind)
			}
		}
		sort.Strings(t.Kinds)
	}
	best := -1
	for _, id := range b.HarvestTools {
		it := g.Item(id)
		if it == nil {
			continue
		}
		if r := tierRank(it.Name); best < 0 || r < best {
			best, t.Weakest = r, it.Name
		}
	}
	if len(t.Kinds) == 0 && !t.NeededForDrops {
		return nil
	}
	return t
}

// tierRank orders tools by the mining tier of their material (the game's
// ToolMaterial: gold mines as wood, copper between stone and iron), gold
// after wood so the cheaper of equals is named.
func tierRank(item string) int {
	for i, p := range []string{"wooden_", "golden_", "stone_", "copper_", "iron_", "diamond_", "netherite_"} {
		if strings.HasPrefix(item, p) {
			return i
		}
	}
	return 0 // shears and the like need no tier
}

func craftOf(g *mcdata.GameData, r *mcdata.Recipe) Craft {
	c := Craft{Makes: r.Count, NeedsCraftingTable: !r.FitsInventory()}
	for _, in := range r.Inputs() {
		if it := g.Item(in.Item); it != nil {
			c.Ingredients = append(c.Ingredients, ItemCount{it.Name, in.Count})
		}
	}
	if r.Shaped {
		for y := 0; y < r.Height; y++ {
			row := make([]string, r.Width)
			for x := range row {
				if it := g.Item(r.Grid[y*r.Width+x]); it != nil {
					row[x] = it.Name
				}
			}
			c.Grid = append(c.Grid, row)
		}
	}
	return c
}

// unknownMaterial says an id is neither a block nor an item, offering up
// to three that contain it.
func unknownMaterial(g *mcdata.GameData, name string) error {
	var near []string
	for _, e := range catalogOf(g).entries {
		if strings.Contains(e.ID, name) {
			near = append(near, e.ID)
		}
	}
	sort.SliceStable(near, func(i, j int) bool { return len(near[i]) < len(near[j]) })
	if len(near) > 3 {
		near = near[:3]
	}
	if len(near) == 0 {
		return fmt.Errorf("Minecraft %s has no block or item %q; find one with mc_material_search", g.Version, name)
	}
	return fmt.Errorf("Minecraft %s has no block or item %q; did you mean %s? mc_material_search finds more", g.Version, name, strings.Join(near, ", "))
}
