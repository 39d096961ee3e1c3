package bot

import (
	"fmt"
	"net"
	"sort"
	"strconv"
	"time"

	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/self"
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
	Position      *Vec3                  `json:"position,omitempty"`
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
	Sleeping bool  `json:"sleeping,omitempty"`
	Bed      *Vec3 `json:"bed,omitempty"`

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
}

// MovementTask is the walk in progress: its kind ("goto", "goto_player",
// "follow", "go_near"), the goal, and the steps of its path walked and
// left.
type MovementTask struct {
	Kind   string `json:"kind"`
	Goal   Vec3   `json:"goal"`
	Walked int    `json:"walked"`
	Left   int    `json:"left"`
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

func statusItem(s item.Stack) *StatusItem {
	if s.Empty() {
		return nil
	}
	return &StatusItem{Name: inventory.StackName(s), Count: int(s.Count)}
}

func statusInventory(v inventory.View) *StatusInventory {
	out := &StatusInventory{
		HeldSlot: v.HeldSlot, UsedSlots: v.UsedSlots(), Offhand: statusItem(v.Offhand()),
		Head: statusItem(v.Worn(inventory.Head)), Chest: statusItem(v.Worn(inventory.Chest)),
		Legs: statusItem(v.Worn(inventory.Legs)), Feet: statusItem(v.Worn(inventory.Feet)),
	}
	for i := range out.Hotbar {
		out.Hotbar[i] = statusItem(v.Slots[inventory.HotbarSlot(i)])
	}
	return out
}

// PlayerInSight is another player the bot sees.
type PlayerInSight struct {
	Username string  `json:"username"`
	Distance float64 `json:"distance"`
	Position Vec3    `json:"position"`
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

// Status reports the bot's state for mc_status.
func (b *Client) Status(task []protocol.RunningCall) Status {
	b.mu.Lock()
	w, end := b.w, b.lastEnd
	b.mu.Unlock()
	if w == nil {
		st := Status{Connected: false, Task: task, State: "offline",
			Reason:   "the bot is not in a world yet",
			NextStep: "call mc_discover_lan to find a world opened to LAN, then mc_join with its port; or ask the player for the port shown in their chat after Open to LAN",
		}
		if end != nil {
			st.Reason, st.Untrusted = "the bot is not in a world: "+end.Reason, end.Untrusted
			st.LastDisconnect = &Disconnect{end.Reason, end.at.UTC().Format(time.RFC3339), end.Untrusted}
			if !end.Left {
				st.NextStep = fmt.Sprintf("to rejoin, call mc_join with host %q and port %d (%s)", end.host, end.port, end.NextStep)
			}
		}
		if b.joining() {
			st.State = "connecting"
			st.Reason, st.Untrusted = "the bot is joining a world", false
			st.NextStep = "wait for mc_join to answer"
		}
		return st
	}
	me := w.self.Snapshot()
	out := Status{
		Connected: true, Task: task, State: phase(w.s.State()), Username: w.s.Username(),
		Server: net.JoinHostPort(w.host, strconv.Itoa(w.port)), Version: w.version,
		Position: ptr(me.Position.Round()), Dimension: me.Dimension, GameMode: gameModeName(me.GameMode),
		PlayersOnline: ptr(w.players.Count()),
		// The server tells the weather when it changes; clear weather is
		// the silence before, as the game's own client takes it.
		Raining: ptr(me.Raining), Thundering: ptr(me.Thundering),
	}
	if me.HasHealth {
		out.Health, out.MaxHealth = ptr(round1(float64(me.Health))), ptr(float64(self.MaxHealth))
		out.Food, out.Saturation = ptr(int(me.Food)), ptr(round1(float64(me.Saturation)))
	}
	if me.HasXP {
		out.XPLevel, out.XPProgress = ptr(int(me.XPLevel)), ptr(round1(float64(me.XPBar)*100)/100)
	}
	switch me.DayCycle {
	case self.DayRunning, self.DayStopped:
		// The day is counted as the game's debug screen counts it: the
		// day time (from 26.1, the dimension's clock) over a day's
		// 24000 ticks, which /time set moves and the world's age does not.
		out.TimeOfDay, out.Day, out.DayCycle = ptr(me.TimeOfDay%24000), ptr(me.TimeOfDay/24000), me.DayCycle
	case self.DayNone:
		out.DayCycle = me.DayCycle
	}
	if p, ok := w.players.Self(); ok && p.HasPing {
		out.LatencyMS = ptr(int64(p.PingMS))
	}
	if t, ok := w.body.Task(); ok {
		out.Movement = &MovementTask{Kind: t.Kind, Goal: t.Goal.Round(), Walked: t.Walked, Left: t.Left}
	}
	inv := w.inv.View()
	out.HeldItem, out.Inventory = statusItem(inv.Held()), statusInventory(inv)
	if me.Dead {
		out.Dead, out.State, out.NextStep = true, "dead", nextStepDead
	}
	if me.Sleeping {
		out.Sleeping = true
		if me.HasBed {
			out.Bed = &Vec3{X: float64(me.Bed.X), Y: float64(me.Bed.Y), Z: float64(me.Bed.Z)}
		}
	}
	out.Biome, _ = w.blocks.BiomeAt(w.feet())
	for _, p := range w.players.List() {
		if p.IsSelf {
			continue
		}
		if e, d, ok := w.playerInSight(p.UUID); ok {
			out.PlayersInSight = append(out.PlayersInSight, PlayerInSight{p.Name, round1(d), e.Position.Round()})
		}
	}
	sort.Slice(out.PlayersInSight, func(i, j int) bool { return out.PlayersInSight[i].Distance < out.PlayersInSight[j].Distance })
	ws := w.blocks.Stats()
	out.World = &WorldFigures{ChunksLoaded: ws.Columns, MemoryBytes: ws.Bytes, ViewDistance: ws.ViewRadius, Entities: w.entities.Len(), Unreadable: ws.Unreadable}
	if ws.Unreadable > 0 || !w.blocks.Dimension().Known {
		out.World.LastError = ws.LastError
	}
	return out
}
