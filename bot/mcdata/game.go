package mcdata

// The static game data: what a block state is and how it collides, what an
// item stacks to and what it does, what an entity is, what crafts into
// what. It comes from the pinned minecraft-data through the same generator
// as the packet tables (game_gen.go and game_data.bin, written by
// bot/mcdata/internal/gen/game.go) and is decoded the first time a protocol
// asks for it, so a bot that joins 1.21.4 never inflates 26.1's tables.
//
// Everything Game returns is shared and read-only: every goroutine of every
// session of that version sees the same *GameData, so nobody may modify a
// slice or struct reached from it.

import (
	"fmt"
	"math/bits"
	"strings"
	"sync"
)

// StateID is a global block state id, the number chunk data and block
// changes carry.
type StateID int32

// BlockID is a block's index in the version's block registry.
type BlockID int32

// ItemID is an item's index in the version's item registry, the id item
// stacks carry on the wire.
type ItemID int32

// NoItem marks an empty cell of a shaped recipe.
const NoItem ItemID = -1

// GameData is one game version's static data. Blocks, Items, Entities,
// Enchantments, Effects and Biomes are indexed by their registry id.
type GameData struct {
	// Version is the game version the data comes from, e.g. "1.21.4" (for
	// protocol 773, "1.21.10"; see Protocols).
	Version string
	// Protocols are the protocol versions that use this data.
	Protocols []int32

	Blocks    []Block
	Items     []Item
	Materials []Material
	Entities  []EntityType
	// Enchantments and Biomes are in the vanilla registry order. On the wire
	// their ids come from the registries the server sends in configuration
	// (vanilla servers send the same order for the known core pack); look
	// them up by name when the server's registry says otherwise.
	Enchantments []Enchantment
	Effects      []Effect
	Biomes       []Biome
	// Recipes are the crafting recipes (shaped and shapeless), sorted by
	// result; RecipesFor finds one item's.
	Recipes []Recipe

	// Per state id: the block (index into Blocks), the collision shape
	// (index into shapes) and the fluid (fluidKind<<4 | level).
	stateBlock []uint16
	stateShape []uint16
	stateFluid []uint8
	shapes     [][]AABB
	air        [3]StateID // air, cave_air, void_air (their only states)

	blockByName   map[string]*Block
	itemByName    map[string]*Item
	entityByName  map[string]*EntityType
	enchantByName map[string]*Enchantment
	effectByName  map[string]*Effect
	biomeByName   map[string]*Biome
	materialIndex map[string]*Material
	// recipeStart[item] … recipeStart[item+1] are the item's recipes.
	recipeStart []int32
	// planning holds the furnace facts, mob drops and item tags
	// (game_planning.go).
	planning planningData
}

// Block is one block type and the range of states it owns.
type Block struct {
	ID          BlockID
	Name        string // "oak_log"
	DisplayName string // "Oak Log"
	// MinState … MaxState are the block's states; DefaultState is the one a
	// placed block takes without context.
	MinState, MaxState, DefaultState StateID
	// Props are the block's properties in minecraft-data's order, which is
	// the game's: the last property varies fastest along the state ids.
	Props []Property

	// Hardness is the base break time factor; -1 means unbreakable
	// (bedrock, barriers, portals).
	Hardness    float64
	Resistance  float64 // blast resistance
	Diggable    bool
	Transparent bool
	EmitLight   uint8 // light level the block gives off, 0–15
	FilterLight uint8 // how much light it absorbs, 0–15
	// Material is the dig-speed class ("mineable/pickaxe", "plant;mineable/axe" …)
	// whose tool multipliers speed up breaking.
	Material *Material
	// HarvestTools are the items that make the block drop when broken,
	// ascending; empty means anything does, the hand included.
	HarvestTools []ItemID
	// Drops are the items the block drops (minecraft-data's list; loot
	// tables with chances and fortune are not modelled).
	Drops []ItemID
	// Loot is what the block drops when broken with a harvesting tool and
	// without silk touch, sure drops first (game_planning.go).
	Loot []BlockDrop
	// Physics is how the block moves an entity that stands in or on it.
	Physics BlockPhysics
}

// Property is one block state property and its values in the game's order.
// Boolean properties list "true" before "false", as the game numbers them.
type Property struct {
	Name   string
	Values []string
	// stride is how many state ids one step of this property spans.
	stride int32
}

// AABB is an axis-aligned box in block-local coordinates (0–1, a fence
// reaching 1.5 high).
type AABB struct {
	MinX, MinY, MinZ, MaxX, MaxY, MaxZ float64
}

// Item is one item type.
type Item struct {
	ID            ItemID
	Name          string // "oak_planks"
	DisplayName   string
	StackSize     int
	MaxDurability int // 0: not damageable
	// Food is set for items a player can eat or drink.
	Food *Food
}

// Food is what eating an item restores.
type Food struct {
	Points     float64 // hunger points (half drumsticks)
	Saturation float64 // saturation points (nutrition × modifier × 2)
}

// Material is a dig-speed class: the tools that break its blocks faster and
// by how much.
type Material struct {
	Name   string
	Speeds []ToolSpeed // by item id, ascending
}

// ToolSpeed is one tool's speed multiplier on a material.
type ToolSpeed struct {
	Item  ItemID
	Speed float64
}

// EntityType is one entity type.
type EntityType struct {
	ID          int32
	Name        string // "zombie"
	DisplayName string
	// Kind is minecraft-data's type: "hostile", "mob", "animal",
	// "passive", "water_creature", "ambient", "player", "projectile",
	// "living" or "other".
	Kind     string
	Category string // minecraft-data's category, e.g. "Hostile mobs"
	// Hostile follows one rule, hostileRule in game_rules.go.
	Hostile       bool
	Width, Height float64
}

// Enchantment is one enchantment type.
type Enchantment struct {
	ID          int32
	Name        string // "efficiency"
	DisplayName string
	MaxLevel    int
	Category    string // what it applies to: "mining", "armor" …
	Curse       bool
}

// Effect is one status effect type; effect ids on the wire are these.
type Effect struct {
	ID          int32
	Name        string // the registry name: "haste", "mining_fatigue"
	DisplayName string
	Beneficial  bool
}

// Biome is one biome of the vanilla registry.
type Biome struct {
	ID            int32
	Name          string // "plains"
	DisplayName   string
	Category      string
	Dimension     string // "overworld", "the_nether", "the_end"
	Temperature   float64
	Precipitation bool
	// SkyColor, GrassColor, FoliageColor and WaterColor are 0xRRGGBB; -1
	// where the game computes the tint itself (grass and foliage from
	// temperature and downfall).
	SkyColor, GrassColor, FoliageColor, WaterColor int32
}

// Recipe is one crafting recipe. A shaped recipe fills Grid (Width×Height
// cells, row by row from the top; NoItem for an empty cell) and may be
// placed anywhere in a grid big enough; a shapeless one lists Ingredients.
type Recipe struct {
	Result      ItemID
	Count       int
	Shaped      bool
	Width       int
	Height      int
	Grid        []ItemID
	Ingredients []ItemID
}

// ItemCount is an item and how many of it.
type ItemCount struct {
	Item  ItemID
	Count int
}

// Inputs are the items one craft consumes, by item id ascending.
func (r *Recipe) Inputs() []ItemCount {
	src := r.Ingredients
	if r.Shaped {
		src = r.Grid
	}
	var out []ItemCount
	for _, id := range src {
		if id == NoItem {
			continue
		}
		found := false
		for i := range out {
			if out[i].Item == id {
				out[i].Count++
				found = true
				break
			}
		}
		if !found {
			out = append(out, ItemCount{id, 1})
		}
	}
	for i := 1; i < len(out); i++ { // insertion sort: at most nine entries
		for j := i; j > 0 && out[j].Item < out[j-1].Item; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// FitsInventory says whether the recipe fits the player's own 2×2 grid, so
// that no crafting table is needed.
func (r *Recipe) FitsInventory() bool {
	if r.Shaped {
		return r.Width <= 2 && r.Height <= 2
	}
	return len(r.Ingredients) <= 4
}

// Game returns the static data for a protocol version, decoding it on first
// use, or nil when no data covers the protocol. It is safe for concurrent
// use. The embedded data is checked by the tests for every version, so a
// failure to decode it is a broken build and panics with the reason.
func Game(protocol int32) *GameData {
	for i := range gameVersions {
		for _, p := range gameVersions[i].protocols {
			if p == protocol {
				return gameAt(i)
			}
		}
	}
	return nil
}

// GameProtocols lists the protocols Game has data for, oldest first.
func GameProtocols() []int32 {
	var out []int32
	for _, v := range gameVersions {
		out = append(out, v.protocols...)
	}
	return out
}

var gameCache [len(gameVersions)]struct {
	once sync.Once
	g    *GameData
}

func gameAt(i int) *GameData {
	c := &gameCache[i]
	c.once.Do(func() {
		g, err := decodeGame(&gameVersions[i])
		if err != nil {
			panic(fmt.Sprintf("mcdata: the embedded game data for %s does not decode (%v); run go generate ./bot/mcdata", gameVersions[i].version, err))
		}
		c.g = g
	})
	return c.g
}

// NumStates is how many block states the version has.
func (g *GameData) NumStates() int { return len(g.stateBlock) }

// StateBits is the width of a state id in a chunk section's direct
// (global) palette: ceil(log2(NumStates)), as the game computes it.
func (g *GameData) StateBits() int { return bits.Len(uint(len(g.stateBlock) - 1)) }

// ValidState says whether s is a state id of this version.
func (g *GameData) ValidState(s StateID) bool { return uint32(s) < uint32(len(g.stateBlock)) }

// BlockOf returns the block a state belongs to, or nil for an id the
// version does not have. It is two slice lookups: fit for per-tick use.
func (g *GameData) BlockOf(s StateID) *Block {
	if uint32(s) >= uint32(len(g.stateBlock)) {
		return nil
	}
	return &g.Blocks[g.stateBlock[s]]
}

// StateByID returns the state with its block, and false for an id the
// version does not have.
func (g *GameData) StateByID(s StateID) (BlockState, bool) {
	b := g.BlockOf(s)
	if b == nil {
		return BlockState{}, false
	}
	return BlockState{ID: s, Block: b}, true
}

// Shapes returns a state's collision boxes (empty for air, water, flowers),
// or nil for an unknown state. The slice is shared: do not modify it.
func (g *GameData) Shapes(s StateID) []AABB {
	if uint32(s) >= uint32(len(g.stateShape)) {
		return nil
	}
	return g.shapes[g.stateShape[s]]
}

// IsAir says whether the state is air, cave air or void air.
func (g *GameData) IsAir(s StateID) bool {
	return s == g.air[0] || s == g.air[1] || s == g.air[2]
}

// Fluid returns the fluid in a state: water or lava blocks with their level,
// and a water source for waterlogged states and the blocks that always hold
// water (kelp, seagrass, bubble columns), as the game's getFluidState does.
func (g *GameData) Fluid(s StateID) Fluid {
	if uint32(s) >= uint32(len(g.stateFluid)) {
		return Fluid{}
	}
	f := g.stateFluid[s]
	return Fluid{Kind: FluidKind(f >> 4), Level: f & 15}
}

// BlockByName finds a block by name ("oak_log" or "minecraft:oak_log").
func (g *GameData) BlockByName(name string) *Block {
	return g.blockByName[strings.TrimPrefix(name, "minecraft:")]
}

// Item returns the item with that id, or nil.
func (g *GameData) Item(id ItemID) *Item {
	if uint32(id) >= uint32(len(g.Items)) {
		return nil
	}
	return &g.Items[id]
}

// ItemByName finds an item by name ("stick" or "minecraft:stick").
func (g *GameData) ItemByName(name string) *Item {
	return g.itemByName[strings.TrimPrefix(name, "minecraft:")]
}

// MaterialByName finds a dig-speed class by name.
func (g *GameData) MaterialByName(name string) *Material { return g.materialIndex[name] }

// EntityType returns the entity type with that id (as spawn packets carry
// it), or nil.
func (g *GameData) EntityType(id int32) *EntityType {
	if uint32(id) >= uint32(len(g.Entities)) {
		return nil
	}
	return &g.Entities[id]
}

// EntityByName finds an entity type by name ("zombie").
func (g *GameData) EntityByName(name string) *EntityType {
	return g.entityByName[strings.TrimPrefix(name, "minecraft:")]
}

// EnchantmentByName finds an enchantment by name ("efficiency").
func (g *GameData) EnchantmentByName(name string) *Enchantment {
	return g.enchantByName[strings.TrimPrefix(name, "minecraft:")]
}

// Effect returns the status effect with that id, or nil.
func (g *GameData) Effect(id int32) *Effect {
	if uint32(id) >= uint32(len(g.Effects)) {
		return nil
	}
	return &g.Effects[id]
}

// EffectByName finds a status effect by its registry name ("haste",
// "mining_fatigue").
func (g *GameData) EffectByName(name string) *Effect {
	return g.effectByName[strings.TrimPrefix(name, "minecraft:")]
}

// BiomeByName finds a biome by name ("plains").
func (g *GameData) BiomeByName(name string) *Biome {
	return g.biomeByName[strings.TrimPrefix(name, "minecraft:")]
}

// RecipesFor returns the crafting recipes that make an item (none for an
// item that is not crafted). The slice is shared: do not modify it.
func (g *GameData) RecipesFor(id ItemID) []Recipe {
	if uint32(id) >= uint32(len(g.Items)) {
		return nil
	}
	return g.Recipes[g.recipeStart[id]:g.recipeStart[id+1]]
}

// Speed is the tool's speed multiplier on the material, and false when the
// tool is no better than a hand.
func (m *Material) Speed(item ItemID) (float64, bool) {
	lo, hi := 0, len(m.Speeds)
	for lo < hi {
		mid := (lo + hi) / 2
		switch {
		case m.Speeds[mid].Item == item:
			return m.Speeds[mid].Speed, true
		case m.Speeds[mid].Item < item:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 1, false
}

// CanHarvest says whether breaking the block with the item (NoItem for the
// hand) makes it drop.
func (b *Block) CanHarvest(item ItemID) bool {
	if len(b.HarvestTools) == 0 {
		return true
	}
	for _, t := range b.HarvestTools {
		if t == item {
			return true
		}
	}
	return false
}

// Prop returns the block's property with that name and its index, or
// nil, -1.
func (b *Block) Prop(name string) (*Property, int) {
	for i := range b.Props {
		if b.Props[i].Name == name {
			return &b.Props[i], i
		}
	}
	return nil, -1
}

// StateWith returns the block's state whose properties are the default
// state's with the given values replaced. An unknown property or value is
// an error that lists what the block accepts.
func (b *Block) StateWith(values map[string]string) (StateID, error) {
	s := b.DefaultState
	for name, v := range values {
		p, _ := b.Prop(name)
		if p == nil {
			return 0, fmt.Errorf("%s has no property %q; it has %s", b.Name, name, b.propNames())
		}
		vi := p.valueIndex(v)
		if vi < 0 {
			return 0, fmt.Errorf("%s's %s cannot be %q; it is one of %s", b.Name, name, v, strings.Join(p.Values, ", "))
		}
		cur := (int32(s-b.MinState) / p.stride) % int32(len(p.Values))
		s += StateID((int32(vi) - cur) * p.stride)
	}
	return s, nil
}

func (b *Block) propNames() string {
	if len(b.Props) == 0 {
		return "none"
	}
	names := make([]string, len(b.Props))
	for i, p := range b.Props {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

func (p *Property) valueIndex(v string) int {
	for i, x := range p.Values {
		if x == v {
			return i
		}
	}
	return -1
}

// BlockState is one block state: an id and the block it belongs to.
type BlockState struct {
	ID    StateID
	Block *Block
}

// ValueIndex is the index in Block.Props[i].Values of the state's value of
// property i.
func (s BlockState) ValueIndex(i int) int {
	p := &s.Block.Props[i]
	return int((int32(s.ID-s.Block.MinState) / p.stride) % int32(len(p.Values)))
}

// Value returns the state's value of a property, and false when the block
// has no such property.
func (s BlockState) Value(prop string) (string, bool) {
	p, i := s.Block.Prop(prop)
	if p == nil {
		return "", false
	}
	return p.Values[s.ValueIndex(i)], true
}

// String is the state in the game's notation: "oak_log[axis=y]", or the
// bare name for a block without properties.
func (s BlockState) String() string {
	if s.Block == nil {
		return fmt.Sprintf("unknown state %d", s.ID)
	}
	if len(s.Block.Props) == 0 {
		return s.Block.Name
	}
	var b strings.Builder
	b.WriteString(s.Block.Name)
	for i, p := range s.Block.Props {
		if i == 0 {
			b.WriteByte('[')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(p.Name)
		b.WriteByte('=')
		b.WriteString(p.Values[s.ValueIndex(i)])
	}
	b.WriteByte(']')
	return b.String()
}

// FluidKind is what fluid a block state holds.
type FluidKind uint8

const (
	NoFluid FluidKind = iota
	Water
	Lava
)

// Fluid is the fluid in a block state. Level is the water or lava block's
// level property (0 a source, 1–7 flowing, 8–15 falling); waterlogged
// states and always-wet blocks are sources (0).
type Fluid struct {
	Kind  FluidKind
	Level uint8
}
