package combat

import "testing"

// TestCooldownFollowsTheGame checks the full-strength wait against the
// game's attack speeds (Items.java's attribute modifiers on the base 4)
// and getAttackStrengthScale: the scale is (ticks + 0.5) / (20 / speed).
func TestCooldownFollowsTheGame(t *testing.T) {
	for _, c := range []struct {
		item  string
		speed float64
		ticks uint64
	}{
		{"", 4, 5}, {"stick", 4, 5}, {"wooden_sword", 1.6, 12}, {"netherite_sword", 1.6, 12},
		{"stone_pickaxe", 1.2, 17}, {"iron_shovel", 1, 20}, {"wooden_axe", 0.8, 25}, {"iron_axe", 0.9, 22},
		{"diamond_axe", 1, 20}, {"stone_hoe", 2, 10}, {"iron_hoe", 3, 7}, {"diamond_hoe", 4, 5},
		{"trident", 1.1, 18}, {"mace", 0.6, 33},
	} {
		if got := AttackSpeed(c.item); got != c.speed {
			t.Errorf("AttackSpeed(%q) = %v, want %v", c.item, got, c.speed)
		}
		if got := CooldownTicks(c.speed); got != c.ticks {
			t.Errorf("CooldownTicks(%v) = %d, want %d", c.speed, got, c.ticks)
		}
		// At that many ticks the game's scale is full, one fewer it is not.
		full := func(ticks uint64) bool { return (float64(ticks)+0.5)/(20/c.speed) >= 1 }
		if !full(c.ticks) || full(c.ticks-1) {
			t.Errorf("%s: %d ticks is not the first full-strength tick", c.item, c.ticks)
		}
	}
}
