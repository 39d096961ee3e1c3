// Package material knows the game's blocks and items without a world: how
// a block behaves once placed (falls, is a fluid, hangs on a neighbour, has
// two parts, holds a block entity), which items place it, and the
// search and describe answers of mc_material_search and
// mc_material_describe. Everything here is a pure function of a version's
// mcdata.GameData.
//
// minecraft-data has no field for most of these facts, so they come from
// the block's properties where the properties say it (half=upper|lower,
// part=head|foot, face, hanging, attachment, vertical_direction,
// waterlogged) and otherwise from names, in one table each below. The
// tests check every entry against the newest version's blocks, and fail
// when a version brings a block without collision that no rule places, so
// a new plant is classified rather than guessed.
package material

import (
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Support is where a placed block needs a neighbour to stay: the game
// drops it as an item when that neighbour goes.
type Support uint8

const (
	// Standalone blocks stay where they are put (stone, planks, glass,
	// beds, heads).
	Standalone Support = iota
	// Below: on the block underneath (torches, flowers, rails, carpets,
	// doors, both halves of tall plants: the upper on the lower).
	Below
	// Above: hanging from the block overhead (hanging lanterns and signs,
	// spore blossoms, cave vines).
	Above
	// Side: on the block behind it, across a horizontal face (wall
	// torches, ladders, wall signs, buttons on walls, cocoa).
	Side
	// AnyFace: on one or more of its faces (vines, glow lichen).
	AnyFace
)

// String is the phrase a description uses.
func (s Support) String() string {
	return [...]string{"", "the block below", "the block above", "the block behind it", "the blocks it covers"}[min(int(s), 4)]
}

// Parts says whether a block is one of two blocks placed together.
type Parts uint8

const (
	OnePart Parts = iota
	// Lower and Upper are the halves of doors and tall plants
	// (half=lower|upper): the upper half is the lower's position plus one.
	Lower
	Upper
	// Foot and Head are a bed's two blocks (part=foot|head): the head is
	// the foot's position plus one step in the bed's facing.
	Foot
	Head
)

// Primary says whether the part is the one that is placed (the lower
// half, the foot): placing it puts the other part too, so a plan counts
// one item for the pair.
func (p Parts) Primary() bool { return p == OnePart || p == Lower || p == Foot }

// Fallers are the blocks that fall when nothing holds them up
// (FallingBlock's subclasses and the blocks that check support and turn
// into falling blocks: pointed dripstone, scaffolding out of reach).
var fallers = rules{
	names:    []string{"sand", "red_sand", "gravel", "suspicious_sand", "suspicious_gravel", "anvil", "chipped_anvil", "damaged_anvil", "dragon_egg", "pointed_dripstone", "scaffolding"},
	suffixes: []string{"_concrete_powder"},
}

// blockEntities are the blocks that hold a block entity (the game's
// BlockEntityType list, 1.21 to 26.1): writing over one loses its
// contents (chest items, sign text, banner patterns).
var blockEntities = rules{
	names: []string{
		"chest", "trapped_chest", "ender_chest", "barrel", "furnace", "blast_furnace", "smoker",
		"hopper", "dispenser", "dropper", "brewing_stand", "beacon", "spawner", "trial_spawner", "vault",
		"enchanting_table", "jukebox", "lectern", "campfire", "soul_campfire", "bell", "conduit",
		"end_gateway", "end_portal", "comparator", "daylight_detector", "beehive", "bee_nest",
		"sculk_sensor", "calibrated_sculk_sensor", "sculk_shrieker", "sculk_catalyst",
		"chiseled_bookshelf", "decorated_pot", "crafter", "suspicious_sand", "suspicious_gravel",
		"moving_piston", "creaking_heart", "command_block", "chain_command_block",
		"repeating_command_block", "structure_block", "jigsaw", "test_block", "test_instance_block",
		"shulker_box",
	},
	suffixes: []string{"_sign", "_banner", "_bed", "_shulker_box", "_head", "_skull", "_shelf", "copper_golem_statue"},
}

// supportRules place, by name, the blocks whose properties do not say
// where they are held (propertySupport comes first). The first list that
// matches wins, so the more particular names stand earlier.
var supportRules = []struct {
	support Support
	rules
}{
	{Above, rules{
		names: []string{"spore_blossom", "hanging_roots", "weeping_vines", "weeping_vines_plant", "cave_vines", "cave_vines_plant", "pale_hanging_moss"},
	}},
	{Side, rules{
		names:    []string{"ladder", "tripwire_hook", "cocoa"},
		suffixes: []string{"wall_torch", "_wall_sign", "_wall_hanging_sign", "_wall_banner", "_wall_fan"},
	}},
	{Above, rules{suffixes: []string{"_hanging_sign"}}},
	{AnyFace, rules{names: []string{"vine", "glow_lichen", "sculk_vein", "resin_clump"}}},
	{Below, rules{
		names: []string{
			"torch", "soul_torch", "redstone_torch", "copper_torch", "fire", "soul_fire",
			"short_grass", "fern", "dead_bush", "bush", "short_dry_grass", "tall_dry_grass", "firefly_bush", "red_shrub",
			"seagrass", "sea_pickle", "kelp", "kelp_plant", "lily_pad", "frogspawn", "turtle_egg",
			"dandelion", "golden_dandelion", "torchflower", "poppy", "blue_orchid", "allium", "azure_bluet",
			"oxeye_daisy", "cornflower", "wither_rose", "lily_of_the_valley", "open_eyeblossom", "closed_eyeblossom",
			"cactus_flower", "pink_petals", "wildflowers", "leaf_litter", "brown_mushroom", "red_mushroom",
			"nether_sprouts", "azalea", "flowering_azalea", "big_dripleaf", "big_dripleaf_stem",
			"wheat", "carrots", "potatoes", "beetroots", "torchflower_crop", "nether_wart", "sweet_berry_bush",
			"pumpkin_stem", "melon_stem", "attached_pumpkin_stem", "attached_melon_stem",
			"sugar_cane", "cactus", "bamboo", "bamboo_sapling", "twisting_vines", "twisting_vines_plant",
			"chorus_plant", "chorus_flower", "snow", "rail", "redstone_wire", "repeater", "comparator",
			"cake", "candle", "mangrove_propagule",
		},
		suffixes: []string{"_sapling", "_tulip", "_carpet", "_pressure_plate", "_rail", "_coral", "_coral_fan", "_candle", "candle_cake", "_fungus", "_roots", "_sign", "_banner"},
	}},
}

// rules match block names exactly or by their ending.
type rules struct {
	names    []string
	suffixes []string
}

func (r *rules) match(name string) bool {
	for _, n := range r.names {
		if n == name {
			return true
		}
	}
	for _, s := range r.suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// Falls says whether the block falls when nothing holds it up.
func Falls(b *mcdata.Block) bool { return fallers.match(b.Name) }

// HoldsBlockEntity says whether the block keeps a block entity, data that
// a state does not carry and a write over it loses.
func HoldsBlockEntity(b *mcdata.Block) bool { return blockEntities.match(b.Name) }

// Waterloggable says whether the block can hold water (a waterlogged
// property).
func Waterloggable(b *mcdata.Block) bool {
	p, _ := b.Prop("waterlogged")
	return p != nil
}

// PartsOf says which part of a two-block structure a state is.
func PartsOf(s mcdata.BlockState) Parts {
	if v, ok := s.Value("half"); ok {
		switch v {
		case "lower":
			return Lower
		case "upper":
			return Upper
		}
	}
	if v, ok := s.Value("part"); ok {
		switch v {
		case "foot":
			return Foot
		case "head":
			return Head
		}
	}
	return OnePart
}

// TwoParts says whether the block is placed as two blocks.
func TwoParts(b *mcdata.Block) bool {
	return PartsOf(mcdata.BlockState{ID: b.DefaultState, Block: b}) != OnePart
}

// SupportOf says where a state needs a neighbour.
func SupportOf(s mcdata.BlockState) Support {
	if sup, ok := propertySupport(s); ok {
		return sup
	}
	if PartsOf(s) == Lower || PartsOf(s) == Upper {
		// Doors and tall plants stand on the block below; the upper half
		// on the lower.
		return Below
	}
	for i := range supportRules {
		if supportRules[i].match(s.Block.Name) {
			return supportRules[i].support
		}
	}
	return Standalone
}

// propertySupport reads the support from the properties that state it.
func propertySupport(s mcdata.BlockState) (Support, bool) {
	name := s.Block.Name
	if v, ok := s.Value("face"); ok && name != "grindstone" { // a grindstone stands anywhere
		return faceSupport(v), true
	}
	if v, ok := s.Value("attachment"); ok { // bells
		switch v {
		case "floor":
			return Below, true
		case "ceiling":
			return Above, true
		}
		return Side, true
	}
	if v, ok := s.Value("vertical_direction"); ok { // pointed dripstone
		if v == "up" {
			return Below, true
		}
		return Above, true
	}
	if v, ok := s.Value("hanging"); ok { // lanterns, mangrove propagules
		if v == "true" {
			return Above, true
		}
		return Below, true
	}
	if strings.HasSuffix(name, "amethyst_bud") || name == "amethyst_cluster" {
		v, _ := s.Value("facing")
		switch v {
		case "up":
			return Below, true
		case "down":
			return Above, true
		}
		return Side, true
	}
	return Standalone, false
}

func faceSupport(face string) Support {
	switch face {
	case "floor":
		return Below
	case "ceiling":
		return Above
	}
	return Side
}

// Behaviour is mc_material_describe's behavior: the hints a builder needs
// before placing a block. Empty fields say nothing unusual.
type Behaviour struct {
	// Falls: the block falls when nothing holds it up.
	Falls bool `json:"falls,omitempty"`
	// Fluid is "water" or "lava" for a fluid block.
	Fluid string `json:"fluid,omitempty"`
	// Waterloggable: the block can hold water.
	Waterloggable bool `json:"waterloggable,omitempty"`
	// Attaches names what holds the block in its default state ("the
	// block below"); AttachesBy is the property that changes it.
	Attaches   string `json:"attaches,omitempty"`
	AttachesBy string `json:"attaches_by,omitempty"`
	// Parts says how the block is placed as two blocks.
	Parts string `json:"parts,omitempty"`
	// BlockEntity: the block keeps data its state does not carry, lost
	// when it is overwritten.
	BlockEntity bool `json:"block_entity,omitempty"`
}

// Empty says whether there is nothing to tell.
func (b Behaviour) Empty() bool { return b == Behaviour{} }

// BehaviourOf is a block's behaviour hints, from its default state.
func BehaviourOf(g *mcdata.GameData, b *mcdata.Block) Behaviour {
	def := mcdata.BlockState{ID: b.DefaultState, Block: b}
	out := Behaviour{Falls: Falls(b), Waterloggable: Waterloggable(b), BlockEntity: HoldsBlockEntity(b)}
	if f := g.Fluid(b.DefaultState); (b.Name == "water" || b.Name == "lava") && f.Kind != mcdata.NoFluid {
		out.Fluid = b.Name
	}
	if sup := SupportOf(def); sup != Standalone {
		out.Attaches = sup.String()
		for _, p := range []string{"face", "attachment", "hanging", "vertical_direction"} {
			if prop, _ := b.Prop(p); prop != nil {
				out.AttachesBy = p
				break
			}
		}
		if out.AttachesBy == "" && sup == Side {
			if prop, _ := b.Prop("facing"); prop != nil {
				out.AttachesBy = "facing"
			}
		}
	}
	switch PartsOf(def) {
	case Lower, Upper:
		out.Parts = "two blocks, half=lower and half=upper above it; one item places both"
	case Foot, Head:
		out.Parts = "two blocks, part=foot and part=head one step toward facing; one item places both"
	}
	return out
}
