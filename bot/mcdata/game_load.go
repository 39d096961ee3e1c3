package mcdata

// Decoding game_data.bin. The layout of each part is written next to its
// encoder in bot/mcdata/internal/gen/game.go; this file reads it back.

import (
	"compress/flate"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

//go:embed game_data.bin
var gameBlob string

type gamePartKind uint8

const (
	gamePartBlocks gamePartKind = iota
	gamePartShapes
	gamePartItems
	gamePartFoods
	gamePartMaterials
	gamePartEntities
	gamePartEnchantments
	gamePartEffects
	gamePartRecipes
	gamePartBiomes
	gamePartLoot // the planning parts: game_planning_load.go
	gamePartMobLoot
	gamePartFurnace
	gamePartTags
	numGameParts
)

type gamePartRef struct {
	kind           gamePartKind
	off, size, raw int
}

type gameVersionRef struct {
	protocols []int32
	version   string
	parts     [numGameParts]uint16
}

// dec reads a part's fields; the first problem sticks.
type dec struct {
	b   []byte
	err error
	// strs interns the part's strings: property values and materials
	// repeat thousands of times.
	strs map[string]string
}

var errPartShort = errors.New("part ends early")

func (d *dec) uint() int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > math.MaxInt32 {
		d.err = errPartShort
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

// count reads a length of elements of at least minSize bytes each and
// checks it against what is left.
func (d *dec) count(minSize int) int {
	n := d.uint()
	if n > len(d.b)/minSize {
		d.fail(fmt.Errorf("count %d exceeds the part", n))
		return 0
	}
	return n
}

func (d *dec) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *dec) str() string {
	n := d.uint()
	if d.err != nil || n > len(d.b) {
		d.fail(errPartShort)
		return ""
	}
	s, ok := d.strs[string(d.b[:n])]
	if !ok {
		s = string(d.b[:n])
		d.strs[s] = s
	}
	d.b = d.b[n:]
	return s
}

func (d *dec) f64() float64 {
	if d.err != nil || len(d.b) < 8 {
		d.fail(errPartShort)
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *dec) bool() bool { return d.uint() != 0 }

func inflatePart(p *gamePartRef) ([]byte, error) {
	if p.off < 0 || p.off+p.size > len(gameBlob) {
		return nil, fmt.Errorf("part at %d+%d is outside the blob", p.off, p.size)
	}
	r := flate.NewReader(strings.NewReader(gameBlob[p.off : p.off+p.size]))
	out := make([]byte, p.raw)
	if _, err := io.ReadFull(r, out); err != nil {
		return nil, err
	}
	if n, _ := r.Read(make([]byte, 1)); n != 0 {
		return nil, errors.New("part inflates to more than its recorded size")
	}
	return out, nil
}

func decodeGame(v *gameVersionRef) (*GameData, error) {
	g := &GameData{Version: v.version, Protocols: v.protocols}
	strs := map[string]string{}
	var parts [numGameParts]*dec
	for k, i := range v.parts {
		ref := &gameParts[i]
		if ref.kind != gamePartKind(k) {
			return nil, fmt.Errorf("part %d is of kind %d, not %d", i, ref.kind, k)
		}
		raw, err := inflatePart(ref)
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", i, err)
		}
		parts[k] = &dec{b: raw, strs: strs}
	}
	steps := []func(*dec){
		// Items and materials come first: blocks point at them.
		gamePartItems:        g.readItems,
		gamePartMaterials:    g.readMaterials,
		gamePartBlocks:       g.readBlocks,
		gamePartShapes:       g.readShapes,
		gamePartFoods:        g.readFoods,
		gamePartEntities:     g.readEntities,
		gamePartEnchantments: g.readEnchantments,
		gamePartEffects:      g.readEffects,
		gamePartRecipes:      g.readRecipes,
		gamePartBiomes:       g.readBiomes,
		gamePartLoot:         g.readLoot,
		gamePartMobLoot:      g.readMobLoot,
		gamePartFurnace:      g.readFurnace,
		gamePartTags:         g.readTags,
	}
	for _, k := range []gamePartKind{gamePartItems, gamePartMaterials, gamePartBlocks, gamePartShapes, gamePartFoods,
		gamePartEntities, gamePartEnchantments, gamePartEffects, gamePartRecipes, gamePartBiomes,
		gamePartLoot, gamePartMobLoot, gamePartFurnace, gamePartTags} {
		d := parts[k]
		steps[k](d)
		if d.err == nil && len(d.b) != 0 {
			d.err = fmt.Errorf("%d bytes left over", len(d.b))
		}
		if d.err != nil {
			return nil, fmt.Errorf("%s part: %w", [...]string{"blocks", "shapes", "items", "foods", "materials", "entities", "enchantments", "effects", "recipes", "biomes", "loot", "mob loot", "furnace", "tags"}[k], d.err)
		}
	}
	return g, nil
}

func (g *GameData) readItems(d *dec) {
	n := d.count(4)
	g.Items = make([]Item, n)
	g.itemByName = make(map[string]*Item, n)
	for i := range g.Items {
		it := &g.Items[i]
		it.ID = ItemID(i)
		it.Name = d.str()
		it.DisplayName = d.str()
		it.StackSize = d.uint()
		it.MaxDurability = d.uint()
		g.itemByName[it.Name] = it
	}
}

func (g *GameData) itemIDs(d *dec) []ItemID {
	n := d.count(1)
	if n == 0 {
		return nil
	}
	out := make([]ItemID, n)
	for i := range out {
		out[i] = g.itemID(d)
	}
	return out
}

func (g *GameData) itemID(d *dec) ItemID {
	id := d.uint()
	if id >= len(g.Items) {
		d.fail(fmt.Errorf("item id %d out of range", id))
	}
	return ItemID(id)
}

func (g *GameData) readMaterials(d *dec) {
	n := d.count(2)
	g.Materials = make([]Material, n)
	g.materialIndex = make(map[string]*Material, n)
	for i := range g.Materials {
		m := &g.Materials[i]
		m.Name = d.str()
		m.Speeds = make([]ToolSpeed, d.count(9))
		for j := range m.Speeds {
			m.Speeds[j] = ToolSpeed{Item: g.itemID(d), Speed: d.f64()}
		}
		g.materialIndex[m.Name] = m
	}
}

func (g *GameData) readBlocks(d *dec) {
	n := d.count(8)
	g.Blocks = make([]Block, n)
	g.blockByName = make(map[string]*Block, n)
	var stateBlock []uint16
	for i := range g.Blocks {
		b := &g.Blocks[i]
		b.ID = BlockID(i)
		b.Name = d.str()
		b.DisplayName = d.str()
		states := d.uint()
		b.MinState = StateID(len(stateBlock))
		b.MaxState = b.MinState + StateID(states) - 1
		b.DefaultState = b.MinState + StateID(d.uint())
		if states == 0 || states > 1<<16 || b.DefaultState > b.MaxState {
			d.fail(fmt.Errorf("block %s has %d states", b.Name, states))
			return
		}
		b.Props = make([]Property, d.count(3))
		for j := range b.Props {
			p := &b.Props[j]
			p.Name = d.str()
			kind := d.uint()
			nv := d.count(1)
			if kind == 1 {
				p.Values = boolValues
				continue
			}
			p.Values = make([]string, nv)
			for k := range p.Values {
				p.Values[k] = d.str()
			}
		}
		stride := int32(1)
		for j := len(b.Props) - 1; j >= 0; j-- {
			b.Props[j].stride = stride
			stride *= int32(len(b.Props[j].Values))
		}
		if int(stride) != states {
			d.fail(fmt.Errorf("block %s: properties make %d states, not %d", b.Name, stride, states))
			return
		}
		b.Hardness = d.f64()
		b.Resistance = d.f64()
		flags := d.uint()
		b.Diggable = flags&1 != 0
		b.Transparent = flags&2 != 0
		b.EmitLight = uint8(d.uint())
		b.FilterLight = uint8(d.uint())
		mat := d.str()
		b.Material = g.materialIndex[mat]
		if b.Material == nil && d.err == nil {
			d.fail(fmt.Errorf("block %s: unknown material %q", b.Name, mat))
		}
		b.HarvestTools = g.itemIDs(d)
		b.Drops = g.itemIDs(d)
		b.Physics = physicsFor(b.Name)
		g.blockByName[b.Name] = b
		for range states {
			stateBlock = append(stateBlock, uint16(i))
		}
		if len(stateBlock) > math.MaxInt32 || d.err != nil {
			return
		}
	}
	if len(g.Blocks) > 1<<16 {
		d.fail(errors.New("more blocks than a uint16 indexes"))
	}
	g.stateBlock = stateBlock
	g.deriveFluids()
	for i, name := range []string{"air", "cave_air", "void_air"} {
		g.air[i] = -1
		if b := g.blockByName[name]; b != nil {
			g.air[i] = b.MinState
		}
	}
}

// boolValues are a boolean property's values in the game's order.
var boolValues = []string{"true", "false"}

// deriveFluids fills stateFluid from the water and lava blocks' level
// property, the waterlogged property and alwaysWater.
func (g *GameData) deriveFluids() {
	g.stateFluid = make([]uint8, len(g.stateBlock))
	for i := range g.Blocks {
		b := &g.Blocks[i]
		kind := NoFluid
		switch b.Name {
		case "water":
			kind = Water
		case "lava":
			kind = Lava
		}
		for _, w := range alwaysWater {
			if b.Name == w {
				for s := b.MinState; s <= b.MaxState; s++ {
					g.stateFluid[s] = uint8(Water) << 4
				}
			}
		}
		if kind != NoFluid {
			if _, li := b.Prop("level"); li >= 0 {
				for s := b.MinState; s <= b.MaxState; s++ {
					level := BlockState{s, b}.ValueIndex(li)
					g.stateFluid[s] = uint8(kind)<<4 | uint8(level)
				}
			}
			continue
		}
		if _, wi := b.Prop("waterlogged"); wi >= 0 {
			for s := b.MinState; s <= b.MaxState; s++ {
				if (BlockState{s, b}).ValueIndex(wi) == 0 { // "true"
					g.stateFluid[s] = uint8(Water) << 4
				}
			}
		}
	}
}

func (g *GameData) readShapes(d *dec) {
	boxes := make([]AABB, d.count(48))
	for i := range boxes {
		boxes[i] = AABB{d.f64(), d.f64(), d.f64(), d.f64(), d.f64(), d.f64()}
	}
	g.shapes = make([][]AABB, d.count(1))
	for i := range g.shapes {
		n := d.count(1)
		if n == 0 {
			g.shapes[i] = []AABB{}
			continue
		}
		sh := make([]AABB, n)
		for j := range sh {
			k := d.uint()
			if k >= len(boxes) {
				d.fail(fmt.Errorf("box %d out of range", k))
				return
			}
			sh[j] = boxes[k]
		}
		g.shapes[i] = sh
	}
	if len(g.shapes) > 1<<16 {
		d.fail(errors.New("more shapes than a uint16 indexes"))
		return
	}
	g.stateShape = make([]uint16, len(g.stateBlock))
	done := 0
	shape := func() uint16 {
		k := d.uint()
		if k >= len(g.shapes) {
			d.fail(fmt.Errorf("shape %d out of range", k))
		}
		return uint16(k)
	}
	for n := d.count(3); n > 0 && d.err == nil; n-- {
		name := d.str()
		states := d.uint()
		b := g.blockByName[name]
		if b == nil || int(b.MaxState-b.MinState)+1 != states {
			d.fail(fmt.Errorf("shapes for %s do not match its block", name))
			return
		}
		if d.uint() == 0 {
			sh := shape()
			for s := b.MinState; s <= b.MaxState; s++ {
				g.stateShape[s] = sh
			}
		} else {
			for s := b.MinState; s <= b.MaxState; s++ {
				g.stateShape[s] = shape()
			}
		}
		done++
	}
	if d.err == nil && done != len(g.Blocks) {
		d.fail(fmt.Errorf("shapes cover %d of %d blocks", done, len(g.Blocks)))
	}
}

func (g *GameData) readFoods(d *dec) {
	for n := d.count(17); n > 0 && d.err == nil; n-- {
		name := d.str()
		f := &Food{Points: d.f64(), Saturation: d.f64()}
		it := g.itemByName[name]
		if it == nil {
			d.fail(fmt.Errorf("food %s is not an item", name))
			return
		}
		it.Food = f
	}
}

func (g *GameData) readEntities(d *dec) {
	n := d.count(20)
	g.Entities = make([]EntityType, n)
	g.entityByName = make(map[string]*EntityType, n)
	for i := range g.Entities {
		e := &g.Entities[i]
		e.ID = int32(i)
		e.Name = d.str()
		e.DisplayName = d.str()
		e.Kind = d.str()
		e.Category = d.str()
		e.Width = d.f64()
		e.Height = d.f64()
		e.Hostile = hostileRule(e.Kind, e.Category, e.Name)
		g.entityByName[e.Name] = e
	}
}

func (g *GameData) readEnchantments(d *dec) {
	n := d.count(5)
	g.Enchantments = make([]Enchantment, n)
	g.enchantByName = make(map[string]*Enchantment, n)
	for i := range g.Enchantments {
		e := &g.Enchantments[i]
		e.ID = int32(i)
		e.Name = d.str()
		e.DisplayName = d.str()
		e.MaxLevel = d.uint()
		e.Category = d.str()
		e.Curse = d.bool()
		g.enchantByName[e.Name] = e
	}
}

func (g *GameData) readEffects(d *dec) {
	n := d.count(3)
	g.Effects = make([]Effect, n)
	g.effectByName = make(map[string]*Effect, n)
	for i := range g.Effects {
		e := &g.Effects[i]
		e.ID = int32(i)
		e.Name = d.str()
		e.DisplayName = d.str()
		e.Beneficial = d.bool()
		g.effectByName[e.Name] = e
	}
}

func (g *GameData) readRecipes(d *dec) {
	n := d.count(4)
	g.Recipes = make([]Recipe, n)
	for i := range g.Recipes {
		r := &g.Recipes[i]
		r.Result = g.itemID(d)
		r.Count = d.uint()
		if d.uint() == 0 {
			r.Shaped = true
			r.Height = d.uint()
			r.Width = d.uint()
			if r.Width < 1 || r.Width > 3 || r.Height < 1 || r.Height > 3 {
				d.fail(fmt.Errorf("recipe of %d×%d", r.Width, r.Height))
				return
			}
			r.Grid = make([]ItemID, r.Width*r.Height)
			for j := range r.Grid {
				c := d.uint()
				if c > len(g.Items) {
					d.fail(fmt.Errorf("item id %d out of range", c-1))
				}
				r.Grid[j] = ItemID(c - 1)
			}
		} else {
			r.Ingredients = g.itemIDs(d)
		}
		if d.err != nil {
			return
		}
	}
	if !sort.SliceIsSorted(g.Recipes, func(i, j int) bool { return g.Recipes[i].Result < g.Recipes[j].Result }) {
		d.fail(errors.New("recipes are not sorted by result"))
		return
	}
	g.recipeStart = make([]int32, len(g.Items)+1)
	r := 0
	for id := range g.Items {
		g.recipeStart[id] = int32(r)
		for r < len(g.Recipes) && g.Recipes[r].Result == ItemID(id) {
			r++
		}
	}
	g.recipeStart[len(g.Items)] = int32(r)
}

func (g *GameData) readBiomes(d *dec) {
	n := d.count(8)
	g.Biomes = make([]Biome, n)
	g.biomeByName = make(map[string]*Biome, n)
	tint := func() int32 { return int32(d.uint()) - 1 }
	for i := range g.Biomes {
		b := &g.Biomes[i]
		b.ID = int32(i)
		b.Name = d.str()
		b.DisplayName = d.str()
		b.Category = d.str()
		b.Dimension = d.str()
		b.Temperature = d.f64()
		b.Precipitation = d.bool()
		b.SkyColor = int32(d.uint())
		b.GrassColor = tint()
		b.FoliageColor = tint()
		b.WaterColor = tint()
		g.biomeByName[b.Name] = b
	}
}
