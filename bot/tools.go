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

// Status is mc_status's result. Its first key is the verdict; the fields
// after TOOLS.md's (server … task) feed the console's status pane, which
// reads this same result through the dispatcher.
type Status struct {
	Connected     bool                   `json:"connected"`
	Reason        string                 `json:"reason,omitempty"`
	NextStep      string                 `json:"next_step,omitempty"`
	Server        string                 `json:"server,omitempty"` // host:port
	Version       string                 `json:"version,omitempty"`
	Position      *Vec3                  `json:"position,omitempty"`
	Dimension     string                 `json:"dimension,omitempty"`
	Health        *float64               `json:"health,omitempty"`
	Food          *int                   `json:"food,omitempty"`
	GameMode      string                 `json:"gameMode,omitempty"`
	PlayersOnline *int                   `json:"players_online,omitempty"`
	Task          []protocol.RunningCall `json:"task"`

	Username   string   `json:"username,omitempty"`
	MaxHealth  *float64 `json:"max_health,omitempty"`
	Saturation *float64 `json:"saturation,omitempty"`
	XPLevel    *int     `json:"xp_level,omitempty"`
	XPProgress *float64 `json:"xp_progress,omitempty"` // 0..1 towards the next level
	TimeOfDay  *int64   `json:"time_of_day,omitempty"` // 0..23999 ticks
	Day        *int64   `json:"day,omitempty"`
	Raining    *bool    `json:"raining,omitempty"`
	Thundering *bool    `json:"thundering,omitempty"`
	HeldItem   string   `json:"held_item,omitempty"`
	LatencyMS  *int64   `json:"latency_ms,omitempty"`
	// State is the connection's phase: "offline", "connecting", "configuring", "playing".
	State string `json:"state,omitempty"`
}

// Vec3 is a position in the world, in blocks.
type Vec3 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	Z float64 `json:"z"`
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
