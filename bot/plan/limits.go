package plan

// What the plan will not do, and saying so. blockmate stays in the
// overworld and does not hunt mobs for their drops; minecraft-data says
// which mobs drop what but not where blocks and mobs live, so the few
// blocks and mobs of the nether and the end are named here.

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// netherBlocks and endBlocks are the blocks that drop something and are
// found (naturally) only in the nether or the end. The nether's woods are
// every crimson_ and warped_ block.
var (
	netherBlocks = []string{
		"netherrack", "nether_quartz_ore", "nether_gold_ore", "ancient_debris", "soul_sand", "soul_soil",
		"glowstone", "nether_wart", "nether_wart_block", "shroomlight", "blackstone", "gilded_blackstone",
		"basalt", "nether_sprouts", "weeping_vines", "weeping_vines_plant", "twisting_vines", "twisting_vines_plant",
	}
	netherPrefixes = []string{"crimson_", "warped_"}
	endBlocks      = []string{"end_stone", "chorus_plant", "chorus_flower", "dragon_egg", "dragon_head", "dragon_wall_head"}
	netherMobs     = []string{"blaze", "ghast", "wither_skeleton", "piglin", "piglin_brute", "hoglin", "strider", "magma_cube", "zombified_piglin", "wither"}
	endMobs        = []string{"shulker", "ender_dragon"}
)

// dimensionOf names the dimension a block is only found in, "" for the
// overworld's.
func dimensionOf(block string) string {
	if d, ok := blockDimension[block]; ok {
		return d
	}
	for _, p := range netherPrefixes {
		if strings.HasPrefix(block, p) {
			return "the nether"
		}
	}
	return ""
}

var blockDimension = func() map[string]string {
	m := map[string]string{}
	for _, b := range netherBlocks {
		m[b] = "the nether"
	}
	for _, b := range endBlocks {
		m[b] = "the end"
	}
	return m
}()

func mobDimension(mob string) string {
	for _, n := range netherMobs {
		if n == mob {
			return "the nether"
		}
	}
	for _, n := range endMobs {
		if n == mob {
			return "the end"
		}
	}
	return ""
}

// explain says in words why an item cannot be had: where it comes from
// that blockmate does not go or do, following the recipes down to the
// first thing that cannot be had ("netherite_ingot is crafted from
// netherite_scrap: netherite_scrap is smelted from ancient_debris, found
// only in the nether; blockmate does not go there").
func explain(g *mcdata.GameData, px *prices, id mcdata.ItemID) string {
	if why, _, ok := whyNot(g, px, id, map[mcdata.ItemID]bool{}); ok {
		return why
	}
	return cycleReason(g, px, id)
}

// cycleReason explains an item whose every recipe needs something made
// only from it (honey blocks and bottles) or itself (a smithing template
// is copied from another).
func cycleReason(g *mcdata.GameData, px *prices, id mcdata.ItemID) string {
	name := g.Item(id).Name
	copies := true
	var other string
	for _, r := range px.rules.byItem[id] {
		if r.kind == ruleGather {
			continue
		}
		self := false
		for _, in := range r.inputs {
			if in.item == id {
				self = true
			} else if other == "" && math.IsInf(px.cost[in.item], 1) {
				other = g.Item(in.item).Name
			}
		}
		copies = copies && self
	}
	if copies {
		return fmt.Sprintf("%s is only copied from another %s (the first is found in chests); blockmate does not look in chests", name, name)
	}
	if other == "" {
		other = "what is made from it"
	}
	return fmt.Sprintf("%s is crafted from %s, which is made only from %s and things made of it: neither is mined, smelted or dropped here, so blockmate cannot start", name, other, name)
}

// The kinds of root cause, best told first: blocks the world lacks, then
// mobs, then silk touch, then things not got by mining, crafting or
// smelting at all.
const (
	causeBlocks = iota * 100
	causeMobs
	causeSilk
	causeNowhere
)

// whyNot explains one item, returning the rank of its root cause (its
// kind, then how deep down it is), and false when every way leads back to
// an item already being explained.
func whyNot(g *mcdata.GameData, px *prices, id mcdata.ItemID, visiting map[mcdata.ItemID]bool) (string, int, bool) {
	name := g.Item(id).Name
	// Blocks that give it, but none in this world.
	var blocks []string
	dims := map[string]bool{}
	chance := true
	for _, r := range px.rules.byItem[id] {
		if r.kind != ruleGather {
			continue
		}
		for _, b := range r.group.blocks {
			if !slices.Contains(blocks, b.Name) {
				blocks = append(blocks, b.Name)
				dims[dimensionOf(b.Name)] = true
			}
		}
		chance = chance && r.group.chance
	}
	if len(blocks) > 0 {
		shown := blocks[:min(3, len(blocks))]
		by := ""
		if chance {
			by = " (by chance)"
		}
		if len(dims) == 1 && !dims[""] {
			for d := range dims {
				return fmt.Sprintf("%s comes from %s%s, found only in %s; blockmate does not go there", name, strings.Join(shown, ", "), by, d), causeBlocks, true
			}
		}
		return fmt.Sprintf("%s comes from %s%s, which the world around the bot does not offer", name, strings.Join(shown, ", "), by), causeBlocks, true
	}
	visiting[id] = true
	defer delete(visiting, id)
	// Made from something that cannot be had: the shallowest root cause,
	// smelting before mobs (iron ingots are smelted from the ore a world
	// lacks, though zombies drop a few), mobs before crafting (leather
	// comes from cows rather than from rabbit hides).
	made := false
	chain := func(kind ruleKind) (string, int, bool) {
		// The way that lacks the fewest kinds of ingredient (a brewing
		// stand of cobblestone lacks only the blaze rod), then the best
		// told cause among what it lacks.
		best, bestRank, bestLacks, found := "", 0, 0, false
		for _, r := range px.rules.byItem[id] {
			if r.kind != kind {
				continue
			}
			made = true
			lacks := 0
			why, rank, ok := "", 0, false
			for _, in := range r.inputs {
				if !math.IsInf(px.cost[in.item], 1) {
					continue
				}
				lacks++
				if visiting[in.item] {
					continue
				}
				sub, subRank, subOK := whyNot(g, px, in.item, visiting)
				if !subOK || (ok && subRank+1 >= rank) {
					continue
				}
				verb := "is crafted from"
				if kind == ruleSmelt {
					verb = "is smelted from"
				}
				why, rank, ok = fmt.Sprintf("%s %s %s: %s", name, verb, g.Item(in.item).Name, sub), subRank+1, true
			}
			if ok && (!found || lacks < bestLacks || (lacks == bestLacks && rank < bestRank)) {
				best, bestRank, bestLacks, found = why, rank, lacks, true
			}
		}
		return best, bestRank, found
	}
	if why, depth, ok := chain(ruleSmelt); ok {
		return why, depth, true
	}
	if mobs := g.MobsDropping(id); len(mobs) > 0 {
		shown := mobs[:min(3, len(mobs))]
		where := ""
		for i, m := range mobs {
			if d := mobDimension(m); d != "" && (i == 0 || d == where) {
				where = d
			} else {
				where = ""
				break
			}
		}
		if where != "" {
			return fmt.Sprintf("%s drops from killing %s, in %s; blockmate does not go there", name, strings.Join(shown, ", "), where), causeMobs, true
		}
		return fmt.Sprintf("%s drops from killing %s; blockmate does not hunt mobs for their drops", name, strings.Join(shown, ", ")), causeMobs, true
	}
	// A block of its own name that gives nothing without silk touch.
	if b := g.BlockByName(name); b != nil && !slices.ContainsFunc(b.Loot, func(d mcdata.BlockDrop) bool { return d.Item == id }) && b.Hardness >= 0 && len(px.rules.byItem[id]) == 0 {
		return fmt.Sprintf("%s drops itself only when broken with a silk touch tool; blockmate's plans make no enchanted tools", name), causeSilk, true
	}
	best, bestDepth, found := chain(ruleCraft)
	if found {
		return best, bestDepth, true
	}
	if made {
		return "", 0, false
	}
	return fmt.Sprintf("%s is not mined, crafted or smelted (it is found in chests, traded, fished or made by using an item on the world); blockmate does not get it that way", name), causeNowhere, true
}
