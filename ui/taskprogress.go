package ui

import (
	"encoding/json"
	"fmt"
	"strings"
)

// taskProgress is the latest mc_task_progress of a running call: how far
// it has come, done out of total, in the tool's own unit.
type taskProgress struct {
	Tool  string `json:"tool"`
	ID    string `json:"id"`
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
	// Step names the step a call of several steps runs now ("crafting 4
	// oak_planks for crafting_table"); Done and Total then count steps.
	Step string `json:"step"`
}

// progressBook holds the latest progress of each running call, by call id
// (the timeline's key); a call's entry goes when the call finishes.
type progressBook map[string]taskProgress

// maxProgress bounds the book: a stream of ids that never finish cannot
// grow it without end.
const maxProgress = 64

// note records an mc_task_progress payload.
func (b progressBook) note(payload json.RawMessage) {
	var p taskProgress
	if json.Unmarshal(payload, &p) != nil || p.ID == "" {
		return
	}
	if _, ok := b[p.ID]; !ok && len(b) >= maxProgress {
		return
	}
	b[p.ID] = p
}

// taskText is a running call as the status pane and the overlay name it:
// the tool, or with progress "collected 2/4 oak_log" for a collect,
// the step for a call of several ("crafting 4 oak_planks for
// crafting_table (step 1/2)") and "mc_wait 1000/3000" for others.
func taskText(b progressBook, id, tool string, args map[string]json.RawMessage) string {
	p, ok := b[id]
	if !ok {
		return tool
	}
	if p.Step != "" {
		// The step running now is step Done+1 of Total.
		return fmt.Sprintf("%s (step %d/%d)", clean(p.Step), min(p.Done+1, p.Total), p.Total)
	}
	if tool == "mc_collect" {
		var what string
		if raw, ok := args["block_type"]; ok && json.Unmarshal(raw, &what) == nil && what != "" {
			return fmt.Sprintf("collected %d/%d %s", p.Done, p.Total, clean(strings.TrimPrefix(what, "minecraft:")))
		}
		return fmt.Sprintf("collected %d/%d", p.Done, p.Total)
	}
	return fmt.Sprintf("%s %d/%d", tool, p.Done, p.Total)
}
