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
	// Step names the step under way of a call that runs a plan
	// (mc_obtain): done and total then count steps.
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
// the tool, or with progress "collected 2/4 oak_log" for a collect and
// "mc_wait 1000/3000" for others.
func taskText(b progressBook, id, tool string, args map[string]json.RawMessage) string {
	p, ok := b[id]
	if !ok {
		return tool
	}
	if tool == "mc_collect" {
		var what string
		if raw, ok := args["block_type"]; ok && json.Unmarshal(raw, &what) == nil && what != "" {
			return fmt.Sprintf("collected %d/%d %s", p.Done, p.Total, clean(strings.TrimPrefix(what, "minecraft:")))
		}
		return fmt.Sprintf("collected %d/%d", p.Done, p.Total)
	}
	if tool == "mc_obtain" {
		return "obtain " + argText(args, "item") + ": " + stepLine(p)
	}
	return fmt.Sprintf("%s %d/%d", tool, p.Done, p.Total)
}

// stepLine is a plan's progress: "step 3/7 craft 12 oak_planks", or
// "7/7 steps done" once the last has ended.
func stepLine(p taskProgress) string {
	if p.Done >= p.Total {
		return fmt.Sprintf("%d/%d steps done", p.Done, p.Total)
	}
	return strings.TrimSpace(fmt.Sprintf("step %d/%d %s", p.Done+1, p.Total, clean(p.Step)))
}

// argText is a call's string argument, cleaned for the screen.
func argText(args map[string]json.RawMessage, name string) string {
	var v string
	if raw, ok := args[name]; ok && json.Unmarshal(raw, &v) == nil {
		return clean(strings.TrimPrefix(v, "minecraft:"))
	}
	return ""
}
