package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// obtainReply is mc_obtain's answer.
type obtainReply struct {
	Obtained bool   `json:"obtained"`
	Item     string `json:"item"`
	Count    int    `json:"count"`
	Steps    []struct {
		Action string `json:"action"`
		Item   string `json:"item"`
		Count  int    `json:"count"`
		Done   bool   `json:"done"`
	} `json:"steps"`
	Missing []struct {
		Item  string `json:"item"`
		Count int    `json:"count"`
	} `json:"missing"`
	Reason   string `json:"reason"`
	NextStep string `json:"next_step"`
}

func (r obtainReply) stepsText() string {
	var parts []string
	for _, s := range r.Steps {
		mark := " "
		if s.Done {
			mark = "✓"
		}
		parts = append(parts, fmt.Sprintf("%s %s %d %s", mark, s.Action, s.Count, s.Item))
	}
	return strings.Join(parts, "; ")
}

// TestObtainGameWorld: "get me a stone pickaxe" and then "get iron" are
// one call each in the world the game made (1.21.1, as the game saved
// it), from an empty inventory. The dry run lists the stone pickaxe's
// eight steps and does nothing; mc_obtain stone_pickaxe then gathers logs,
// crafts planks, sticks and a table, places it, crafts a wooden pickaxe,
// mines a staircase down through the forest's dirt to the stone (which has
// no open face near the spawn) for cobblestone, and crafts the stone
// pickaxe; mc_obtain iron_ingot, planned again from what that left, mines
// more cobblestone, crafts and places a furnace, mines down to the iron
// ore and smelts its raw iron. Each answers obtained with every step done,
// and the server's inventory of the bot then matches mc_get_inventory item
// for item. One server serves both.
func TestObtainGameWorld(t *testing.T) {
	s, w := startGameWorldScene(t)

	var plan obtainReply
	s.call("mc_obtain", map[string]any{"item": "stone_pickaxe", "dry_run": true}, &plan)
	const stonePlan = "  gather 3 oak_log;   craft 12 oak_planks;   craft 4 stick;   craft 1 crafting_table;   place_table 1 crafting_table;   craft 1 wooden_pickaxe;   gather 3 cobblestone;   craft 1 stone_pickaxe"
	if plan.Obtained || plan.stepsText() != stonePlan || len(plan.Missing) != 2 || !strings.Contains(plan.NextStep, "without dry_run") {
		t.Fatalf("the dry run: %+v\n%s", plan, plan.stepsText())
	}
	if got := s.botCounts(); len(got) != 0 {
		t.Fatalf("the dry run changed the inventory: %v", got)
	}

	// Then iron, planned again from what the stone pickaxe left: more
	// cobblestone, a furnace placed, raw iron from the ore under the
	// ground, smelted with a plank.
	for _, item := range []string{"stone_pickaxe", "iron_ingot"} {
		ok := t.Run(item, func(t *testing.T) {
			s.t = t
			s.obtain(item)
		})
		s.t = t
		if !ok {
			break
		}
	}
	if errs := w.Events("error"); len(errs) > 0 {
		t.Errorf("the server reported errors: %+v", errs)
	}
}

// obtain runs mc_obtain of one item and checks that the answer says it was
// obtained, every step done, and that the server's inventory of the bot
// matches mc_get_inventory item for item.
func (s *skillScene) obtain(item string) {
	t := s.t
	start := time.Now()
	var r obtainReply
	rep := s.sc.Call(s.ctx, "mc_obtain", map[string]any{"item": item})
	if !rep.OK {
		t.Fatalf("mc_obtain %s: %s\n%s", item, rep.Error, s.sc.Stderr())
	}
	if err := rep.Decode(&r); err != nil {
		t.Fatal(err)
	}
	t.Logf("mc_obtain %s in %.1f s: %s", item, time.Since(start).Seconds(), r.stepsText())
	if !r.Obtained || r.Item != item || r.Count < 1 || len(r.Missing) != 0 || r.Reason != "" {
		t.Fatalf("mc_obtain %s = %s", item, rep.Result)
	}
	for _, st := range r.Steps {
		if !st.Done {
			t.Errorf("a step is not done in the answer of a plan that obtained its item: %s", r.stepsText())
			break
		}
	}
	want := s.botCounts()
	if want[item] != r.Count {
		t.Errorf("mc_obtain says %d %s, mc_get_inventory holds %v", r.Count, item, want)
	}
	s.agree(want)
	var inv skillInventory
	s.query(&inv, "inventory", s.bot)
	for name, n := range inv.Counts {
		if want[name] != n {
			t.Errorf("the server has %d %s, mc_get_inventory %d", n, name, want[name])
		}
	}
}

// TestObtainIronPickaxeGameWorld: "get me an iron pickaxe" is one call in
// a fresh copy of the world the game made (1.21.1), from an empty
// inventory: the dry run lists the thirteen steps of the whole road (logs,
// planks, sticks, a table crafted and placed, a wooden pickaxe,
// cobblestone, a furnace crafted and placed, the stone pickaxe, raw iron
// from the ore under the ground, smelting it and the iron pickaxe at the
// table), and the call then runs them all and answers obtained, every step
// done, with the server's inventory of the bot matching mc_get_inventory.
func TestObtainIronPickaxeGameWorld(t *testing.T) {
	s, w := startGameWorldScene(t)

	var plan obtainReply
	s.call("mc_obtain", map[string]any{"item": "iron_pickaxe", "dry_run": true}, &plan)
	kinds := map[string]bool{}
	for _, st := range plan.Steps {
		kinds[st.Action+" "+st.Item] = !st.Done
	}
	for _, want := range []string{"gather oak_log", "craft crafting_table", "place_table crafting_table", "craft wooden_pickaxe",
		"gather cobblestone", "craft furnace", "place_furnace furnace", "craft stone_pickaxe", "gather raw_iron",
		"smelt iron_ingot", "craft iron_pickaxe"} {
		if !kinds[want] {
			t.Fatalf("the dry run has no step %q to do: %s", want, plan.stepsText())
		}
	}
	if plan.Obtained || len(plan.Missing) == 0 {
		t.Fatalf("the dry run: %+v", plan)
	}
	if got := s.botCounts(); len(got) != 0 {
		t.Fatalf("the dry run changed the inventory: %v", got)
	}
	s.obtain("iron_pickaxe")
	if errs := w.Events("error"); len(errs) > 0 {
		t.Errorf("the server reported errors: %+v", errs)
	}
}
