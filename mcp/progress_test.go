package mcp

import (
	"testing"

	"github.com/blockmate/blockmate/protocol"
)

// TestProgressMessageNamesTheStep: a call of several steps (mc_craft with
// its intermediates) tells the client which step runs; others keep their
// count.
func TestProgressMessageNamesTheStep(t *testing.T) {
	if got := progressMessage(protocol.TaskProgress{Tool: "mc_craft", Done: 0, Total: 2, Step: "crafting 4 oak_planks for crafting_table"}); got != "mc_craft: crafting 4 oak_planks for crafting_table (0 of 2 steps done)" {
		t.Errorf("with a step: %q", got)
	}
	if got := progressMessage(protocol.TaskProgress{Tool: "mc_wait", Done: 1000, Total: 3000}); got != "mc_wait: 1000 of 3000" {
		t.Errorf("without: %q", got)
	}
}
