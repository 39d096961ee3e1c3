package plan

import (
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/mcdata"
)

func BenchmarkPlanIronPickaxeFromNothing(b *testing.B) {
	g := mcdata.Game(mcdata.GameProtocols()[len(mcdata.GameProtocols())-1])
	for b.Loop() {
		if _, err := Make(g, Goal{"iron_pickaxe", 1}, nil, World{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlanIronPickaxeWithAnInventory(b *testing.B) {
	g := mcdata.Game(mcdata.GameProtocols()[len(mcdata.GameProtocols())-1])
	carried := map[string]int{"birch_log": 2, "cobblestone": 5, "coal": 1, "wooden_pickaxe": 1}
	for b.Loop() {
		if _, err := Make(g, Goal{"iron_pickaxe", 1}, carried, World{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanIronPickaxeInASeenWorld prices afresh, as a caller with
// its own World.Offers (what the bot has seen) makes it.
func BenchmarkPlanIronPickaxeInASeenWorld(b *testing.B) {
	g := mcdata.Game(mcdata.GameProtocols()[len(mcdata.GameProtocols())-1])
	seen := World{Offers: Overworld, CraftingTable: true}
	for b.Loop() {
		if _, err := Make(g, Goal{"iron_pickaxe", 1}, nil, seen); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanEveryCraftableItem plans every item with a recipe once per
// iteration; ns/op divided by the item count is the mean.
func BenchmarkPlanEveryCraftableItem(b *testing.B) {
	g := mcdata.Game(mcdata.GameProtocols()[len(mcdata.GameProtocols())-1])
	var items []string
	for i := range g.Items {
		if len(g.RecipesFor(mcdata.ItemID(i))) > 0 {
			items = append(items, g.Items[i].Name)
		}
	}
	b.ReportMetric(float64(len(items)), "items/op")
	for b.Loop() {
		for _, it := range items {
			if _, err := Make(g, Goal{it, 1}, nil, World{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// slowestPlan times every craftable item's plan from nothing (the best of
// tries runs each, so that a busy machine's pauses do not count) and
// returns the slowest.
func slowestPlan(t testing.TB, g *mcdata.GameData, tries int) (string, time.Duration) {
	slowest, worst := "", time.Duration(0)
	for i := range g.Items {
		if len(g.RecipesFor(mcdata.ItemID(i))) == 0 {
			continue
		}
		best := time.Duration(1 << 62)
		for range tries {
			start := time.Now()
			if _, err := Make(g, Goal{g.Items[i].Name, 1}, nil, World{}); err != nil {
				t.Fatal(err)
			}
			best = min(best, time.Since(start))
		}
		if best > worst {
			slowest, worst = g.Items[i].Name, best
		}
	}
	return slowest, worst
}
