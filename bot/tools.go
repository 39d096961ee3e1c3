// Package bot is blockmate's headless Minecraft: Java Edition client and the
// tools that drive it.
package bot

import (
	"context"

	"github.com/blockmate/blockmate/protocol"
)

// TaskLister tells what the dispatcher is running, for mc_status's task.
type TaskLister interface {
	Running() []protocol.RunningCall
}

// Status is mc_status's result. Its first key is the verdict.
type Status struct {
	Connected bool                   `json:"connected"`
	Reason    string                 `json:"reason,omitempty"`
	NextStep  string                 `json:"next_step,omitempty"`
	Task      []protocol.RunningCall `json:"task"`
}

// RegisterTools adds the bot's tools to the catalog.
func RegisterTools(c *protocol.Catalog, tasks TaskLister) {
	c.Add(protocol.Tool{
		Name: "mc_status",
		Description: "Tells whether the bot is in a world and, if so, where it is and how it is doing: server, version, position, dimension, health, food, game mode, players online, and the tool calls still running (task). " +
			"Call it first when unsure what state the bot is in.",
		Effect: protocol.Read,
		Handler: func(ctx context.Context, _ protocol.Args) (any, error) {
			running := tasks.Running()
			// The mc_status call itself is running; it is not a task.
			task := make([]protocol.RunningCall, 0, len(running))
			for _, r := range running {
				if r.Tool != "mc_status" {
					task = append(task, r)
				}
			}
			return Status{
				Connected: false,
				Reason:    "the bot is not in a world yet",
				NextStep:  "call mc_discover_lan to find a world opened to LAN, then mc_join with its port; or ask the player for the port shown in their chat after Open to LAN",
				Task:      task,
			}, nil
		},
	})
}
