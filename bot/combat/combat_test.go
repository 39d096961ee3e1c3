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

// TestBestWeaponHitsHardest: the fight takes what deals the most damage a
// second (the game's attack damage × attack speed, at most two hits a
// second that hurt): an iron axe just over a stone sword, a sword over a
// pickaxe, any tool over flint or a fist; a bag of no weapons leaves the
// hand.
func TestBestWeaponHitsHardest(t *testing.T) {
	for _, c := range []struct {
		bag  map[string]int
		want string
	}{
		{map[string]int{"flint": 3, "wooden_pickaxe": 1, "stone_pickaxe": 1}, "stone_pickaxe"},
		{map[string]int{"iron_axe": 1, "stone_sword": 1}, "iron_axe"},         // 8.1 against 8
		{map[string]int{"iron_axe": 1, "wooden_sword": 1}, "iron_axe"},        // 8.1 against 6.4
		{map[string]int{"copper_sword": 1, "stone_sword": 1}, "copper_sword"}, // equal: by name
		{map[string]int{"flint": 1, "oak_log": 4}, ""},
		{map[string]int{"wooden_hoe": 1, "diamond_hoe": 1}, ""}, // a hoe hits as the hand
		{map[string]int{"diamond_sword": 0, "iron_shovel": 1}, "iron_shovel"},
	} {
		if got := BestWeapon(c.bag); got != c.want {
			t.Errorf("BestWeapon(%v) = %q, want %q", c.bag, got, c.want)
		}
	}
	for item, want := range map[string]float64{"": 1, "flint": 1, "wooden_sword": 4, "netherite_sword": 8, "stone_axe": 9, "netherite_axe": 10, "iron_pickaxe": 4, "golden_shovel": 2.5, "diamond_hoe": 1, "trident": 9} {
		if got := AttackDamage(item); got != want {
			t.Errorf("AttackDamage(%q) = %v, want %v", item, got, want)
		}
	}
}
