package e2e

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// survivalInventory is the survival plugin's answer to Query("inventory").
type survivalInventory struct {
	Slots []struct {
		Slot  int    `json:"slot"`
		Name  string `json:"name"`
		Count int    `json:"count"`
	} `json:"slots"`
	Carried *struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
	} `json:"carried"`
	HeldSlot int `json:"heldSlot"`
}

// TestInventorySurvival drives the real `blockmate sidecar` on the survival
// plugin's flying-squid (testdata/peers/survival), which performs window
// clicks, throws and hand swaps as the game does (AbstractContainerMenu
// ported), and compares mc_get_inventory with the server's inventory after
// every action: /give, mc_equip to the hand from the main inventory (a
// number-key swap), to the head (pick up, put down), to the off-hand (F
// over a slot), mc_drop of part of a stack and of a whole one (the item
// entities appear on the server), and the cursor empty at the end.
func TestInventorySurvival(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	for _, version := range []string{"1.21.1", "1.21.3", "1.21.4"} {
		t.Run(version, func(t *testing.T) {
			// Each version has its own server and sidecar.
			t.Parallel()
			inventorySurvival(t, bin, version)
		})
	}
}

func inventorySurvival(t *testing.T, bin, version string) {
	srv := peertest.StartSurvivalServer(t, peertest.SurvivalOptions{Version: version})
	sc := sidecartest.Start(t, bin)
	ctx, cancel := testctx.New(t)
	defer cancel()
	if r := sc.Call(ctx, "mc_join", map[string]any{"port": srv.Port, "username": "Theo"}); !r.OK {
		t.Fatalf("mc_join: %s\n%s", r.Error, sc.Stderr())
	}
	inventory := func() invResult {
		t.Helper()
		var inv invResult
		if err := sc.Call(ctx, "mc_get_inventory", nil).Decode(&inv); err != nil {
			t.Fatalf("mc_get_inventory: %v", err)
		}
		return inv
	}
	// agree asks again until the bot's view is the server's; the last two
	// views say what differed if they never agree.
	agree := func(after string) invResult {
		t.Helper()
		last := "nothing yet"
		for {
			ours := inventory()
			var theirs survivalInventory
			if err := srv.Query(ctx, &theirs, "inventory", "Theo"); err != nil {
				t.Fatalf("after %s: the server's inventory: %v; last seen: %s", after, err, last)
			}
			var parts []string
			for _, s := range theirs.Slots {
				if s.Slot >= 5 {
					parts = append(parts, fmt.Sprintf("%d:%d %s", s.Slot, s.Count, s.Name))
				}
			}
			sort.Strings(parts)
			a, b := slotsOf(ours), strings.Join(parts, " ")
			if a == b && ours.HeldSlot == theirs.HeldSlot && theirs.Carried == nil {
				return ours
			}
			last = fmt.Sprintf("the bot has %s (held %d), the server %s (held %d, carried %v)", a, ours.HeldSlot, b, theirs.HeldSlot, theirs.Carried)
		}
	}
	give := func(item string, count int) {
		t.Helper()
		if err := srv.Command(fmt.Sprintf("give Theo %s %d", item, count)); err != nil {
			t.Fatal(err)
		}
		if _, err := sc.WaitEvent(ctx, "mc_item_picked_up", payloadHas(fmt.Sprintf(`{"item":"%s"`, item))); err != nil {
			t.Fatalf("no mc_item_picked_up for %s: %v; events %+v", item, err, sc.Events())
		}
		agree("giving " + item)
	}
	// Nine kinds fill the hotbar; the helmet goes to the main inventory.
	for _, it := range []string{"oak_log", "dirt", "stone", "cobblestone", "sand", "gravel", "stick", "torch", "bread"} {
		give(it, 10)
	}
	give("iron_helmet", 1)
	if inv := inventory(); inv.UsedSlots != 10 || fmt.Sprint(inv.Items[len(inv.Items)-1]) != fmt.Sprint(invItem{"iron_helmet", 1, 9}) {
		t.Fatalf("after /give: %+v", inv)
	}

	type equipped struct {
		Equipped      bool   `json:"equipped"`
		Slot          string `json:"slot"`
		InventorySlot *int   `json:"inventory_slot"`
		Reason        string `json:"reason"`
	}
	equip := func(args map[string]any, wantSlot int) {
		t.Helper()
		var eq equipped
		if err := sc.Call(ctx, "mc_equip", args).Decode(&eq); err != nil || !eq.Equipped || eq.InventorySlot == nil || *eq.InventorySlot != wantSlot {
			t.Fatalf("mc_equip %v = %+v, %v", args, eq, err)
		}
		agree(fmt.Sprintf("mc_equip %v", args))
	}
	// From the main inventory to the hand: a number-key swap with the
	// held slot (the logs go where the helmet was).
	equip(map[string]any{"item": "iron_helmet", "slot": "hand"}, 36)
	if inv := inventory(); inv.HeldItem == nil || inv.HeldItem.Name != "iron_helmet" {
		t.Errorf("held: %+v", inv.HeldItem)
	}
	// To the head: picked up and put down.
	equip(map[string]any{"item": "iron_helmet"}, 5)
	// To the off-hand from the hotbar: F over the slot.
	equip(map[string]any{"item": "torch", "slot": "off_hand"}, 45)

	type dropped struct {
		Dropped int    `json:"dropped"`
		Left    int    `json:"left"`
		Reason  string `json:"reason"`
	}
	drop := func(item string, count, want, left int) {
		t.Helper()
		var d dropped
		if err := sc.Call(ctx, "mc_drop", map[string]any{"item": item, "count": count}).Decode(&d); err != nil || d.Dropped != want || d.Left != left {
			t.Fatalf("mc_drop %s %d = %+v, %v", item, count, d, err)
		}
		agree("mc_drop " + item)
	}
	drop("dirt", 3, 3, 7)
	drop("stone", 10, 10, 0)
	var onGround []struct {
		Item  string `json:"item"`
		Count int    `json:"count"`
	}
	if err := srv.Query(ctx, &onGround, "items"); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, e := range onGround {
		got[e.Item] += e.Count
	}
	if got["dirt"] != 3 || got["stone"] != 10 {
		t.Errorf("items on the ground: %v", onGround)
	}
	if bad := sc.NonProtocol(); len(bad) > 0 {
		t.Errorf("stdout carried non-protocol lines: %q", bad)
	}
}
