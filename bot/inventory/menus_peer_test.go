package inventory

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// TestMenusMatchPeer compares the menu table with prismarine-windows' (a
// peer we did not write) for 1.21.4: the same types with the same registry
// ids, and the container slots before the player's, apart from what the
// game's menus say otherwise (see the menus table's comment).
func TestMenusMatchPeer(t *testing.T) {
	out := peertest.RunNode(t, "-e", `
const w = require('prismarine-windows')('1.21.4').windows
const list = []
for (const [key, v] of Object.entries(w)) if (v) list.push({ key, type: v.type, start: v.inventory.start, slots: v.slots })
console.log(JSON.stringify(list))`)
	var peer []struct {
		Key   string `json:"key"`
		Type  int32  `json:"type"`
		Start int    `json:"start"`
		Slots int    `json:"slots"`
	}
	if err := json.Unmarshal(out, &peer); err != nil {
		t.Fatal(err)
	}
	// Where prismarine-windows and the game differ, the game decides.
	gameSays := map[string]string{
		"cartography": "cartography_table", // the game's registry name
	}
	ownSlots := map[string]int{
		"smithing":    4, // template, base, addition, result (SmithingMenu since 1.20)
		"lectern":     1, // LecternMenu adds one slot and no player slots
		"crafter_3x3": 9, // CrafterMenu: 9 slots, the player's, then the result display
	}
	seen := 0
	for _, p := range peer {
		name := strings.TrimPrefix(p.Key, "minecraft:")
		if name == "inventory" {
			continue
		}
		if n, ok := gameSays[name]; ok {
			name = n
		}
		m, ok := MenuByName(name)
		if !ok {
			t.Errorf("prismarine-windows has %s, the table does not", name)
			continue
		}
		seen++
		want := p.Start
		if n, ok := ownSlots[name]; ok {
			want = n
		}
		if m.ID != p.Type || m.Slots != want {
			t.Errorf("%s: table id %d, %d own slots; prismarine-windows id %d, %d", name, m.ID, m.Slots, p.Type, p.Start)
		}
	}
	if seen != len(Menus()) {
		t.Errorf("prismarine-windows lists %d of the table's %d menus", seen, len(Menus()))
	}
}
