package ui

import (
	"fmt"
	"strings"

	"github.com/blockmate/blockmate/protocol"
)

// plannedTools are the tools the tool catalog's plan (TOOLS.md) names, each
// with what it lets the bot do, in words for a player. It is the one list of
// them in the program. Which of them exist is the catalog's to say: a tool
// the catalog has is never reported as missing, so as tools are built the
// console stops calling them missing without this list changing, and the
// list can only ever be too long, never wrong about what works.
var plannedTools = map[string]string{
	"mc_find_blocks":      "look for blocks",
	"mc_block_at":         "tell which block is at a place",
	"mc_nearby":           "list what is near it",
	"mc_get_time_weather": "report the time and weather by themselves",
	"mc_recipe":           "look up recipes",
	"mc_goto":             "walk to a place",
	"mc_goto_player":      "walk to a player",
	"mc_follow":           "follow players",
	"mc_look_at":          "look at things",
	"mc_sleep":            "sleep in a bed",
	"mc_craft":            "craft",
	"mc_smelt":            "smelt",
	"mc_eat":              "eat",
	"mc_give":             "give items to players",
	"mc_attack":           "attack",
	"mc_defend":           "defend itself",
	"mc_chest_list":       "look into chests",
	"mc_chest_deposit":    "put things in chests",
	"mc_chest_withdraw":   "take things out of chests",
}

// notBuiltYet says, in a sentence for a person, that the bot cannot do what
// a typed tool name asks for yet, when the name (with or without its mc_) is
// a planned tool the catalog does not have.
func notBuiltYet(c *protocol.Catalog, name string) (string, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	full := name
	if !strings.HasPrefix(full, "mc_") {
		full = "mc_" + full
	}
	if _, built := c.Lookup(full); built {
		return "", false
	}
	does, planned := plannedTools[full]
	if !planned {
		return "", false
	}
	return fmt.Sprintf("blockmate cannot %s yet: %s is planned, not built. F1 lists what it can do now.", does, full), true
}
