package mcdata

import "strings"

// The facts about blocks and entities that minecraft-data has no field for,
// derived from names in one place each, with the game's values.

// BlockPhysics is how a block moves an entity standing in or on it, as the
// game's Block properties and tags define it. The factors are float32
// because the game's are floats: float64(Friction) is the value the game
// computes with (prismarine-physics uses the decimal double, 0.98 rather
// than float64(float32(0.98))).
type BlockPhysics struct {
	// Friction ("slipperiness") of the block an entity stands on: 0.6 for
	// most blocks.
	Friction float32
	// SpeedFactor scales horizontal movement on the block; 1 for most.
	SpeedFactor float32
	// JumpFactor scales the jump from the block; 1 for most.
	JumpFactor float32
	// Climbable blocks (the #minecraft:climbable tag) let an entity inside
	// them climb and cap its fall speed.
	Climbable bool
	// Stuck is the motion multiplier while inside the block (the game's
	// makeStuckInBlock), zero for blocks that do not hold an entity back.
	Stuck [3]float64
	// BubbleColumn is set for bubble columns, whose drag property says
	// whether they pull down (true) or push up.
	BubbleColumn bool
	// Hurts is set for blocks that damage an entity in or on them; a
	// pathfinder keeps out of them.
	Hurts bool
	// Trapdoor is set for trapdoors, climbable when open above a ladder
	// facing the same way.
	Trapdoor bool
	// Fence, Wall and FenceGate mark the #minecraft:fences and
	// #minecraft:walls tags and the FenceGateBlock class: an entity standing
	// on one (1.5 blocks tall) takes its friction and speed from that block,
	// not from the air below its feet (Entity.getOnPos).
	Fence, Wall, FenceGate bool
	// Bed marks beds, which bounce a falling entity up (BedBlock.bounceUp).
	Bed bool
	// Ice marks the IceBlock class (ice and frosted ice), whose faces never
	// turn falling water's current downwards (FlowingFluid.isSolidFace).
	Ice bool
}

// defaultPhysics is every block's physics unless blockPhysics says
// otherwise (Block.Properties: friction 0.6F, speedFactor 1.0F,
// jumpFactor 1.0F).
var defaultPhysics = BlockPhysics{Friction: 0.6, SpeedFactor: 1, JumpFactor: 1}

// blockPhysics is the one table of per-block physics, by block name, with
// the game's values (net.minecraft.world.level.block.Blocks and
// BlockTags.CLIMBABLE, 1.21 to 26.1; the same values on the wiki's
// Slipperiness, Soul Sand, Honey Block, Cobweb, Sweet Berry Bush and Powder
// Snow pages). A block missing from a version is skipped; a test checks
// that every name here is a block of the newest version.
var blockPhysics = map[string]func(*BlockPhysics){
	// Blocks.ICE, PACKED_ICE, FROSTED_ICE: .friction(0.98F); BLUE_ICE: 0.989F.
	"ice":         func(p *BlockPhysics) { p.Friction = 0.98 },
	"packed_ice":  func(p *BlockPhysics) { p.Friction = 0.98 },
	"frosted_ice": func(p *BlockPhysics) { p.Friction = 0.98 },
	"blue_ice":    func(p *BlockPhysics) { p.Friction = 0.989 },
	// Blocks.SLIME_BLOCK: .friction(0.8F).
	"slime_block": func(p *BlockPhysics) { p.Friction = 0.8 },
	// Blocks.SOUL_SAND: .speedFactor(0.4F); HONEY_BLOCK: .speedFactor(0.4F).jumpFactor(0.5F).
	"soul_sand":   func(p *BlockPhysics) { p.SpeedFactor = 0.4 },
	"honey_block": func(p *BlockPhysics) { p.SpeedFactor = 0.4; p.JumpFactor = 0.5 },
	// BlockTags.CLIMBABLE.
	"ladder":               climbable,
	"vine":                 climbable,
	"scaffolding":          climbable,
	"weeping_vines":        climbable,
	"weeping_vines_plant":  climbable,
	"twisting_vines":       climbable,
	"twisting_vines_plant": climbable,
	"cave_vines":           climbable,
	"cave_vines_plant":     climbable,
	// WebBlock.entityInside: makeStuckInBlock(state, new Vec3(0.25, 0.05F, 0.25)).
	"cobweb": func(p *BlockPhysics) { p.Stuck = [3]float64{0.25, float64(float32(0.05)), 0.25} },
	// SweetBerryBushBlock.entityInside: new Vec3(0.8F, 0.75, 0.8F); it also hurts.
	"sweet_berry_bush": func(p *BlockPhysics) {
		p.Stuck = [3]float64{float64(float32(0.8)), 0.75, float64(float32(0.8))}
		p.Hurts = true
	},
	// PowderSnowBlock.entityInside: new Vec3(0.9F, 1.5, 0.9F); it freezes.
	"powder_snow": func(p *BlockPhysics) {
		p.Stuck = [3]float64{float64(float32(0.9)), 1.5, float64(float32(0.9))}
		p.Hurts = true
	},
	"bubble_column": func(p *BlockPhysics) { p.BubbleColumn = true },
	// Blocks that damage: fire, lava, magma (standing on it), cactus,
	// campfires, wither roses.
	"fire":          hurts,
	"soul_fire":     hurts,
	"lava":          hurts,
	"magma_block":   hurts,
	"cactus":        hurts,
	"campfire":      hurts,
	"soul_campfire": hurts,
	"wither_rose":   hurts,
}

func climbable(p *BlockPhysics) { p.Climbable = true }
func hurts(p *BlockPhysics)     { p.Hurts = true }

// alwaysWater are the blocks whose fluid state is a water source whatever
// their properties (KelpBlock, KelpPlantBlock, SeagrassBlock,
// TallSeagrassBlock and BubbleColumnBlock return Fluids.WATER.getSource).
var alwaysWater = []string{"kelp", "kelp_plant", "seagrass", "tall_seagrass", "bubble_column"}

// physicsFor is a block's physics: the default, then its blockPhysics entry
// and, for trapdoors, the trapdoor flag.
func physicsFor(name string) BlockPhysics {
	p := defaultPhysics
	if f, ok := blockPhysics[name]; ok {
		f(&p)
	}
	switch {
	case strings.HasSuffix(name, "_trapdoor"):
		p.Trapdoor = true
	case strings.HasSuffix(name, "_fence_gate"):
		p.FenceGate = true
	case strings.HasSuffix(name, "_fence"):
		p.Fence = true
	case strings.HasSuffix(name, "_wall"):
		// Every block named *_wall is in #minecraft:walls; wall-mounted
		// torches, signs, banners, heads and fans end in their own noun.
		p.Wall = true
	case strings.HasSuffix(name, "_bed"):
		p.Bed = true
	case name == "ice" || name == "frosted_ice":
		p.Ice = true
	}
	return p
}

// notHostile are the entity types minecraft-data files under "Hostile mobs"
// that never attack a player: the game registers them as
// MobCategory.CREATURE (EntityType.STRIDER, SKELETON_HORSE, ZOMBIE_HORSE).
var notHostile = map[string]bool{"strider": true, "skeleton_horse": true, "zombie_horse": true}

// hostileRule is the one rule for EntityType.Hostile: minecraft-data's
// category "Hostile mobs" for a mob (any type but "other", which files the
// evoker's fangs and end crystals there although they are not mobs), minus
// notHostile. It matches the game's MobCategory.MONSTER, so neutral mobs
// that attack only when provoked (endermen, piglins, zombified piglins,
// spiders by day) count as hostile, as the game counts them.
func hostileRule(kind, category, name string) bool {
	return category == "Hostile mobs" && kind != "other" && !notHostile[name]
}
