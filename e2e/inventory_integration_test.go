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

type invItem struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
	Slot  int    `json:"slot"`
}

type invResult struct {
	UsedSlots int                                        `json:"used_slots"`
	Items     []invItem                                  `json:"items"`
	HeldItem  *invItem                                   `json:"held_item"`
	HeldSlot  int                                        `json:"held_slot"`
	Offhand   *invItem                                   `json:"offhand"`
	Armor     struct{ Head, Chest, Legs, Feet *invItem } `json:"armor"`
}

// TestInventoryFlyingSquid drives the real `blockmate sidecar` in a
// flying-squid world (1.21.1, 1.21.3 and 1.21.4) and, after every action, compares what
// mc_get_inventory reports with the inventory the server itself holds
// (server.js's inspect command): items the server gives arrive as
// mc_item_picked_up and where the server put them; mc_equip selects a
// hotbar item (the server's held slot follows) and swaps it to the
// off-hand (F, which the server answers).
//
// flying-squid 1.12.0 performs no window click (its handler reads a field
// the packet does not have), so clicks go unanswered there: the bot then
// reports that the server did not move the item, and its view stays the
// server's. Clicks, throws and armour are checked against the survival
// plugin's server, which performs them as the game does.
func TestInventoryFlyingSquid(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	for _, version := range []string{"1.21.1", "1.21.3", "1.21.4"} {
		t.Run(version, func(t *testing.T) {
			// Each version has its own server and sidecar.
			t.Parallel()
			inventoryFlyingSquid(t, bin, version)
		})
	}
}

func inventoryFlyingSquid(t *testing.T, bin, version string) {
	srv := peertest.StartServer(t, peertest.ServerOptions{Version: version})
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
	// agree checks that the bot's view is the server's. The server handles
	// the bot's packets in its own time, so it asks again until they
	// agree; the last two views say what differed if they never do.
	agree := func(after string) invResult {
		t.Helper()
		last := "nothing yet"
		for {
			ours := inventory()
			theirs, err := srv.Inventory(ctx, "Theo")
			if err != nil {
				t.Fatalf("after %s: the server's inventory: %v; last seen: %s", after, err, last)
			}
			a, b := slotsOf(ours), serverSlots(theirs)
			if a == b && ours.HeldSlot == theirs.Held {
				return ours
			}
			last = fmt.Sprintf("the bot has %s (held %d), the server %s (held %d)", a, ours.HeldSlot, b, theirs.Held)
		}
	}
	give := func(item string, count int) {
		t.Helper()
		if err := srv.Command(fmt.Sprintf("give Theo %s %d", item, count)); err != nil {
			t.Fatal(err)
		}
		if _, err := sc.WaitEvent(ctx, "mc_item_picked_up", payloadHas(fmt.Sprintf(`{"item":"%s","count":%d}`, item, count))); err != nil {
			t.Fatalf("no mc_item_picked_up for %d %s: %v; events %+v", count, item, err, sc.Events())
		}
		agree("giving " + item)
	}
	if inv := agree("the join"); inv.UsedSlots != 0 || inv.HeldItem != nil {
		t.Fatalf("a new player's inventory: %+v", inv)
	}

	// flying-squid's /give fills the hotbar from the left.
	give("oak_log", 5)
	give("stone_pickaxe", 1)
	give("shield", 1)
	inv := inventory()
	want := []invItem{{"oak_log", 5, 36}, {"stone_pickaxe", 1, 37}, {"shield", 1, 38}}
	if fmt.Sprint(inv.Items) != fmt.Sprint(want) || inv.HeldItem == nil || inv.HeldItem.Name != "oak_log" || inv.UsedSlots != 3 {
		t.Fatalf("after /give: %+v, want items %v with the logs held", inv, want)
	}

	// Equip the pickaxe: the bot selects its hotbar slot, and the server's
	// held slot follows.
	var eq struct {
		Equipped      bool   `json:"equipped"`
		Slot          string `json:"slot"`
		InventorySlot *int   `json:"inventory_slot"`
		Reason        string `json:"reason"`
	}
	if err := sc.Call(ctx, "mc_equip", map[string]any{"item": "stone_pickaxe"}).Decode(&eq); err != nil || !eq.Equipped || eq.Slot != "hand" || eq.InventorySlot == nil || *eq.InventorySlot != 37 {
		t.Fatalf("mc_equip stone_pickaxe = %+v, %v", eq, err)
	}
	if inv := agree("equipping the pickaxe"); inv.HeldSlot != 1 || inv.HeldItem == nil || inv.HeldItem.Name != "stone_pickaxe" {
		t.Errorf("mc_get_inventory after equipping: %+v", inv)
	}
	var st struct {
		HeldItem *struct{ Name string } `json:"held_item"`
	}
	if err := sc.Call(ctx, "mc_status", nil).Decode(&st); err != nil || st.HeldItem == nil || st.HeldItem.Name != "stone_pickaxe" {
		t.Errorf("mc_status held_item = %+v, %v", st.HeldItem, err)
	}

	// The shield to the hand, then to the off-hand (F): the server answers
	// with both slots.
	if err := sc.Call(ctx, "mc_equip", map[string]any{"item": "shield", "slot": "hand"}).Decode(&eq); err != nil || !eq.Equipped {
		t.Fatalf("mc_equip shield = %+v, %v", eq, err)
	}
	agree("equipping the shield")
	if err := sc.Call(ctx, "mc_equip", map[string]any{"item": "shield", "slot": "off_hand"}).Decode(&eq); err != nil || !eq.Equipped || *eq.InventorySlot != 45 {
		t.Fatalf("mc_equip shield off_hand = %+v, %v", eq, err)
	}
	if inv := agree("swapping hands"); inv.Offhand == nil || inv.Offhand.Name != "shield" || inv.HeldItem != nil || len(inv.Items) != 2 {
		t.Errorf("after the swap: %+v", inv)
	}

	// A click flying-squid does not perform: the logs stay where the
	// server has them, and the bot says so rather than claim they moved.
	var eq2 struct {
		Equipped bool   `json:"equipped"`
		Reason   string `json:"reason"`
	}
	if err := sc.Call(ctx, "mc_equip", map[string]any{"item": "oak_log", "slot": "off_hand"}).Decode(&eq2); err != nil || eq2.Equipped || !strings.Contains(eq2.Reason, "did not move") {
		t.Errorf("an unperformed click: %+v, %v", eq2, err)
	}
	agree("a click the server ignored")
	if bad := sc.NonProtocol(); len(bad) > 0 {
		t.Errorf("stdout carried non-protocol lines: %q", bad)
	}
}

// slotsOf renders the bot's report slot by slot, sorted: "36:5 oak_log …".
func slotsOf(inv invResult) string {
	var all []invItem
	all = append(all, inv.Items...)
	for _, it := range []*invItem{inv.Offhand, inv.Armor.Head, inv.Armor.Chest, inv.Armor.Legs, inv.Armor.Feet} {
		if it != nil {
			all = append(all, *it)
		}
	}
	var parts []string
	for _, it := range all {
		parts = append(parts, fmt.Sprintf("%d:%d %s", it.Slot, it.Count, it.Name))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// serverSlots renders the server's inventory the same way (the crafting
// slots 0–4 left out, as mc_get_inventory reports them apart).
func serverSlots(inv *peertest.ServerInventory) string {
	if inv == nil {
		return "(not in the world)"
	}
	var parts []string
	for _, s := range inv.Slots {
		if s.Slot >= 5 {
			parts = append(parts, fmt.Sprintf("%d:%d %s", s.Slot, s.Count, s.Name))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}
