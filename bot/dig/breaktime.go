package dig

import (
	"math"
	"strings"
	"sync"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Conditions are what a break time depends on besides the block: the
// tool in hand, its efficiency, the bot's effects, where its eyes are and
// whether it stands.
type Conditions struct {
	// Tool is the held item's name ("" for an empty hand) and ToolID its
	// id (mcdata.NoItem for the hand), for the harvest check.
	Tool   string
	ToolID mcdata.ItemID
	// Efficiency is the tool's efficiency enchantment level.
	Efficiency int
	// Haste and MiningFatigue are the effects' amplifiers (level - 1);
	// -1 when the bot does not have the effect. Haste includes conduit
	// power, which the game counts as haste.
	Haste, MiningFatigue int
	// EyesInWater is true when the bot's eyes are in water; AquaAffinity
	// when its helmet has aqua affinity, which cancels the slowdown.
	EyesInWater, AquaAffinity bool
	OnGround                  bool
}

// Hand is the conditions of an empty hand on the ground without effects.
func Hand() Conditions {
	return Conditions{ToolID: mcdata.NoItem, Haste: -1, MiningFatigue: -1, OnGround: true}
}

// tierSpeed is each tool material's mining speed (the game's ToolMaterial).
var tierSpeed = map[string]float32{"wooden": 2, "stone": 4, "iron": 6, "diamond": 8, "golden": 12, "netherite": 9}

// fatigueFactor is mining fatigue's multiplier by amplifier
// (Player.getDestroySpeed); amplifiers above 3 use the last.
var fatigueFactor = [4]float32{0.3, 0.09, 0.0027, 0.00081}

// toolKinds are the tool kinds with tiers.
var toolKinds = map[string]bool{"pickaxe": true, "axe": true, "shovel": true, "hoe": true, "sword": true}

// parseTool splits "iron_pickaxe" into its kind and its tier's speed, and
// false for an item that is not a tiered tool.
func parseTool(name string) (kind string, speed float32, ok bool) {
	i := strings.LastIndexByte(name, '_')
	if i < 0 || !toolKinds[name[i+1:]] {
		return "", 0, false
	}
	speed, ok = tierSpeed[name[:i]]
	return name[i+1:], speed, ok
}

// tagCache holds each material's tags, split once.
var tagCache sync.Map // *mcdata.Material → []string

// materialTags splits a block's dig class ("leaves;mineable/hoe") into the
// block tags it stands for.
func materialTags(b *mcdata.Block) []string {
	if b.Material == nil {
		return []string{"default"}
	}
	if tags, ok := tagCache.Load(b.Material); ok {
		return tags.([]string)
	}
	tags := strings.Split(b.Material.Name, ";")
	tagCache.Store(b.Material, tags)
	return tags
}

func hasTag(tags []string, want ...string) bool {
	for _, t := range tags {
		for _, w := range want {
			if t == w {
				return true
			}
		}
	}
	return false
}

// ToolSpeed is the tool's mining speed on the block, 1 when it is no
// better than a hand: the game's tool rules (Tool.getMiningSpeed over the
// mineable/* tags, swords on cobwebs and #sword_efficient, shears),
// derived from minecraft-data's materials. minecraft-data files the blocks
// that need a stone or better tool (ores, metal blocks, obsidian) under
// "incorrect_for_wooden_tool" instead of mineable/pickaxe; in the game
// every one of them is mined at the pickaxe's speed.
func ToolSpeed(tool string, b *mcdata.Block) float32 {
	tags := materialTags(b)
	if tool == "shears" {
		switch {
		case b.Name == "cobweb" || hasTag(tags, "leaves"):
			return 15
		case hasTag(tags, "wool"):
			return 5
		case b.Name == "vine" || b.Name == "glow_lichen":
			return 2
		}
		return 1
	}
	kind, speed, ok := parseTool(tool)
	if !ok {
		return 1
	}
	if kind == "sword" {
		switch {
		case b.Name == "cobweb":
			return 15
		case hasTag(tags, "plant", "leaves", "gourd", "vine_or_glow_lichen"):
			return 1.5
		}
		return 1
	}
	if kind == "pickaxe" {
		for _, t := range tags {
			if strings.HasPrefix(t, "incorrect_for_") {
				return speed
			}
		}
	}
	if hasTag(tags, "mineable/"+kind) {
		return speed
	}
	return 1
}

// destroySpeed is Player.getDestroySpeed in the game's 32-bit floats. The
// explicit conversions round each product to float32 and keep the compiler
// from fusing a multiply and an add, as the game's JVM arithmetic does not.
func destroySpeed(b *mcdata.Block, c Conditions) float32 {
	f := ToolSpeed(c.Tool, b)
	if f > 1 && c.Efficiency > 0 {
		f += float32(c.Efficiency*c.Efficiency + 1)
	}
	if c.Haste >= 0 {
		f = float32(f * float32(1+float32(float32(c.Haste+1)*0.2)))
	}
	if c.MiningFatigue >= 0 {
		f = float32(f * fatigueFactor[min(c.MiningFatigue, 3)])
	}
	if c.EyesInWater && !c.AquaAffinity {
		f = float32(f * 0.2)
	}
	if !c.OnGround {
		f /= 5
	}
	return f
}

// Progress is the part of the block broken per tick
// (BlockBehaviour.getDestroyProgress): speed / hardness / 30 with a tool
// that makes it drop, / 100 without; 0 for an unbreakable block, +Inf for
// one of hardness 0.
func Progress(b *mcdata.Block, c Conditions) float32 {
	if b.Hardness < 0 {
		return 0
	}
	speed := destroySpeed(b, c)
	if b.Hardness == 0 {
		return float32(math.Inf(1))
	}
	div := float32(100)
	if b.CanHarvest(c.ToolID) {
		div = 30
	}
	return float32(float32(speed/float32(b.Hardness)) / div)
}

// BreakTicks is how many ticks breaking the block takes: the first count
// of ticks whose progress reaches 1 in the game's floats, 0 when it breaks
// at once, and false when it cannot be broken at all.
func BreakTicks(b *mcdata.Block, c Conditions) (int, bool) {
	p := Progress(b, c)
	if p <= 0 {
		return 0, false
	}
	if p >= 1 {
		return 0, true
	}
	n := max(1, int(1/p)-1)
	for float32(p*float32(n)) < 1 {
		n++
	}
	return n, true
}
