package plan

import (
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// TestConventionsNameRealThings: the few names the planner keeps because
// minecraft-data has no world generation (which blocks are wild, which
// live in the nether or the end, which mobs) are names of the newest
// version's data, so a typo or a rename fails here. Names the oldest
// version lacks (resin, the pale oak) are allowed there.
func TestConventionsNameRealThings(t *testing.T) {
	g := mcdata.Game(mcdata.GameProtocols()[len(mcdata.GameProtocols())-1])
	blocks := map[string][]string{
		"wildBlocks": wildBlocks, "placedForms": placedForms,
		"netherBlocks": netherBlocks, "endBlocks": endBlocks,
	}
	for list, names := range blocks {
		for _, n := range names {
			if g.BlockByName(n) == nil {
				t.Errorf("%s names %s, not a block of %s", list, n, g.Version)
			}
		}
	}
	for _, n := range append(append([]string(nil), netherMobs...), endMobs...) {
		if g.EntityByName(n) == nil {
			t.Errorf("the mob lists name %s, not an entity of %s", n, g.Version)
		}
	}
	for word, item := range goalWords {
		if g.ItemByName(item) == nil {
			t.Errorf("goal word %q names %s, not an item", word, item)
		}
	}
	// Every nether and end block really is beyond the overworld's
	// default, and the overworld's basics are not.
	for _, n := range append(append([]string(nil), netherBlocks...), endBlocks...) {
		if Overworld(g.BlockByName(n)) {
			t.Errorf("%s is offered in the overworld", n)
		}
	}
	for _, n := range []string{"stone", "oak_log", "iron_ore", "deepslate", "sand", "grass_block", "coal_ore"} {
		if !Overworld(g.BlockByName(n)) {
			t.Errorf("%s is not offered in the overworld", n)
		}
	}
	if fuels := plainFuels(g); len(fuels) < 20 || g.Item(fuels[0]).Name != "coal_block" {
		t.Errorf("plain fuels, longest burning first: %v", fuels)
	}
}
