package e2e

import (
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// TestWorkedExampleInTheGameWorld runs the protocol document's worked
// example 2 exactly as written, through `blockmate sidecar`, in the world
// the game generated (peertest.StartGameWorld at 1.21.1, with the survival
// plugin's rules), sent right behind the mc_join answer as a program sends
// it: mc_collect oak_log 4 (which must wait for the chunks still arriving,
// not answer "none"), mc_craft crafting_table 1 (which crafts the planks
// on the way) and mc_say. Afterwards the server's inventory of the bot is
// what mc_get_inventory says.
func TestWorkedExampleInTheGameWorld(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	w := peertest.StartGameWorld(t, "1.21.1", peertest.GameWorldOptions{ViewDistance: 4})
	sc := sidecartest.Start(t, bin)
	ctx, cancel := testctx.New(t)
	t.Cleanup(cancel)
	s := &skillScene{t: t, ctx: ctx, srv: w.SurvivalServer, sc: sc, bot: "Theo"}
	if r := sc.Call(ctx, "mc_join", map[string]any{"port": w.Port, "username": s.bot}); !r.OK {
		t.Fatalf("mc_join: %s\n%s", r.Error, sc.Stderr())
	}

	var collected collectReply
	s.call("mc_collect", map[string]any{"block_type": "oak_log", "count": 4}, &collected)
	if collected.Collected < 4 || collected.Item != "oak_log" {
		t.Fatalf("mc_collect oak_log 4 right behind the join = %+v", collected)
	}

	var crafted struct {
		Crafted bool   `json:"crafted"`
		Item    string `json:"item"`
		Count   int    `json:"count"`
		Steps   []struct {
			Did   string `json:"did"`
			Item  string `json:"item"`
			Count int    `json:"count"`
			For   string `json:"for"`
		} `json:"steps"`
		Reason string `json:"reason"`
	}
	s.call("mc_craft", map[string]any{"item": "crafting_table", "count": 1}, &crafted)
	if !crafted.Crafted || crafted.Count != 1 {
		t.Fatalf("mc_craft crafting_table 1 after the collect = %+v", crafted)
	}
	// The planks came on the way: one log's four, for the table.
	if n := len(crafted.Steps); n != 2 || crafted.Steps[0].Did != "craft" || crafted.Steps[0].Item != "oak_planks" || crafted.Steps[0].Count != 4 ||
		crafted.Steps[0].For != "crafting_table" || crafted.Steps[1].Item != "crafting_table" || crafted.Steps[1].Count != 1 {
		t.Errorf("mc_craft's steps = %+v, want 4 oak_planks for the crafting_table, then the table", crafted.Steps)
	}

	var said struct {
		Said bool `json:"said"`
	}
	s.call("mc_say", map[string]any{"message": "Crafting table done — where do you want it?"}, &said)
	if !said.Said {
		t.Errorf("mc_say = %+v", said)
	}

	logs := collected.Collected - 1
	s.agree(map[string]int{"crafting_table": 1, "oak_planks": 0, "oak_log": logs})

	// One call more, past the example: a wooden pickaxe from the logs
	// left, with no table in reach, places the carried table and crafts
	// the planks and sticks on the way: 2 logs make 8 planks, 2 of them 4
	// sticks, 3 the pickaxe.
	crafted.Steps = nil
	s.call("mc_craft", map[string]any{"item": "wooden_pickaxe", "count": 1}, &crafted)
	if !crafted.Crafted || crafted.Count != 1 {
		t.Fatalf("mc_craft wooden_pickaxe from %d logs = %+v", logs, crafted)
	}
	placed := false
	for _, st := range crafted.Steps {
		placed = placed || (st.Did == "place" && st.Item == "crafting_table" && st.For == "wooden_pickaxe")
	}
	if !placed {
		t.Errorf("mc_craft wooden_pickaxe did not place the carried table: %+v", crafted.Steps)
	}
	s.agree(map[string]int{"crafting_table": 0, "oak_log": logs - 2, "oak_planks": 3, "stick": 2, "wooden_pickaxe": 1})
	if errs := w.Events("error"); len(errs) > 0 {
		t.Errorf("the server reported errors: %+v", errs)
	}
}
