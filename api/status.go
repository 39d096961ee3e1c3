// Package api is the part of the tool catalog's public surface that more
// than one side writes or reads: the shapes of the results the console and
// `blockmate attach` decode (mc_status, mc_join, the LAN worlds, mc_map's
// legend) and the rules for what people type (a username, a world's
// address). The tools fill these structs; the console decodes them. It
// imports nothing of the bot, so the console compiles without the client.
package api

import (
	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/protocol"
)

// Status is mc_status's result. Its first key is the verdict; the fields
// after TOOLS.md's (server … task) feed the console's status pane, which
// reads this same result through the dispatcher. A value the server has not
// sent yet is absent, never 0.
type Status struct {
	Connected bool `json:"connected"`
	// Dead is true while the bot is dead (State is then "dead").
	Dead     bool   `json:"dead,omitempty"`
	Reason   string `json:"reason,omitempty"`
	NextStep string `json:"next_step,omitempty"`
	// Untrusted is true when Reason quotes the server's own text (the kick
	// message that ended the last connection), which its operator wrote.
	Untrusted     bool                   `json:"untrusted,omitempty"`
	Server        string                 `json:"server,omitempty"` // host:port
	Version       string                 `json:"version,omitempty"`
	Position      *geom.Vec3             `json:"position,omitempty"`
	Dimension     string                 `json:"dimension,omitempty"`
	Health        *float64               `json:"health,omitempty"`
	Food          *int                   `json:"food,omitempty"`
	GameMode      string                 `json:"gameMode,omitempty"`
	PlayersOnline *int                   `json:"players_online,omitempty"`
	Task          []protocol.RunningCall `json:"task"`
	// Movement is the walk the bot's body is on (mc_goto, mc_goto_player,
	// mc_follow, a skill's walk), absent while it stands.
	Movement *MovementTask `json:"movement,omitempty"`
	// Sleeping is true while the server shows the bot asleep in a bed
	// (mc_sleep); Bed is that bed, once the server has said where.
	Sleeping bool       `json:"sleeping,omitempty"`
	Bed      *geom.Vec3 `json:"bed,omitempty"`

	// Biome is the biome the bot stands in, once its chunk is loaded.
	Biome string `json:"biome,omitempty"`
	// PlayersInSight are the other players the bot sees, nearest first
	// (their names are written by players: untrusted).
	PlayersInSight []PlayerInSight `json:"players_in_sight,omitempty"`
	// World is what the bot holds of the world.
	World *WorldFigures `json:"world,omitempty"`

	Username   string   `json:"username,omitempty"`
	MaxHealth  *float64 `json:"max_health,omitempty"`
	Saturation *float64 `json:"saturation,omitempty"`
	XPLevel    *int     `json:"xp_level,omitempty"`
	XPProgress *float64 `json:"xp_progress,omitempty"` // 0..1 towards the next level
	TimeOfDay  *int64   `json:"time_of_day,omitempty"` // 0..23999 ticks
	Day        *int64   `json:"day,omitempty"`
	// DayCycle is "running", "stopped" (the daylight cycle is off) or
	// "none" where the dimension has no day time (the nether, from 26.1;
	// time_of_day is then absent).
	DayCycle   string `json:"day_cycle,omitempty"`
	Raining    *bool  `json:"raining,omitempty"`
	Thundering *bool  `json:"thundering,omitempty"`
	LatencyMS  *int64 `json:"latency_ms,omitempty"`
	// HeldItem is the stack in the bot's main hand; absent for an empty
	// hand (Inventory then says which slot is held).
	HeldItem *StatusItem `json:"held_item,omitempty"`
	// Inventory is the hotbar, armour and off-hand, for the console's
	// grid; mc_get_inventory has everything.
	Inventory *StatusInventory `json:"inventory,omitempty"`
	// State is the connection's phase: "offline", "connecting", "configuring", "playing", or "dead" while the bot is dead.
	State string `json:"state,omitempty"`
	// LastDisconnect is how the bot's last connection ended, when it is in
	// no world now.
	LastDisconnect *Disconnect `json:"last_disconnect,omitempty"`
	// Behaviors are the self-care behaviours (mc_set_behavior), each on or
	// off.
	Behaviors []Behavior `json:"behaviors,omitempty"`
}

// MovementTask is the walk in progress: its kind ("goto", "goto_player",
// "follow", "go_near"), the goal, and the steps of its path walked and
// left.
type MovementTask struct {
	Kind   string    `json:"kind"`
	Goal   geom.Vec3 `json:"goal"`
	Walked int       `json:"walked"`
	Left   int       `json:"left"`
}

// Behavior is one self-care behaviour and whether it is on.
type Behavior struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
}

// StatusItem is a stack by item name and count.
type StatusItem struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// StatusInventory is the part of the inventory mc_status shows.
type StatusInventory struct {
	// HeldSlot is the selected hotbar position, 0–8.
	HeldSlot int `json:"held_slot"`
	// Hotbar is left to right; null is an empty slot.
	Hotbar [9]*StatusItem `json:"hotbar"`
	Head   *StatusItem    `json:"head"`
	Chest  *StatusItem    `json:"chest"`
	Legs   *StatusItem    `json:"legs"`
	Feet   *StatusItem    `json:"feet"`
	// Offhand is the off-hand's stack.
	Offhand *StatusItem `json:"offhand"`
	// UsedSlots is how many of the 36 hotbar and main slots hold
	// something.
	UsedSlots int `json:"used_slots"`
}

// PlayerInSight is another player the bot sees.
type PlayerInSight struct {
	Username string    `json:"username"`
	Distance float64   `json:"distance"`
	Position geom.Vec3 `json:"position"`
}

// WorldFigures are what the bot holds of the world: loaded chunk columns,
// the memory their blocks take (an estimate of the store's own bytes, not
// the process's), the server's view distance and the entities it knows.
type WorldFigures struct {
	ChunksLoaded int `json:"chunks_loaded"`
	MemoryBytes  int `json:"memory_bytes"`
	ViewDistance int `json:"view_distance"`
	Entities     int `json:"entities"`
	// Unreadable counts chunks the bot could not read, with the last
	// reason; absent when every chunk was read.
	Unreadable int    `json:"unreadable_chunks,omitempty"`
	LastError  string `json:"last_error,omitempty"`
}

// Disconnect is the end of a connection: why, and when (RFC 3339, UTC).
// Untrusted is true when the reason quotes the server's own text (a kick
// message), which its operator wrote.
type Disconnect struct {
	Reason    string `json:"reason"`
	At        string `json:"at"`
	Untrusted bool   `json:"untrusted,omitempty"`
}
