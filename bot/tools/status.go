package tools

import (
	"fmt"
	"net"
	"sort"
	"strconv"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/protocol"
)

func statusItem(s item.Stack) *api.StatusItem {
	if s.Empty() {
		return nil
	}
	return &api.StatusItem{Name: inventory.StackName(s), Count: int(s.Count)}
}

func statusInventory(v inventory.View) *api.StatusInventory {
	out := &api.StatusInventory{
		HeldSlot: v.HeldSlot, UsedSlots: v.UsedSlots(), Offhand: statusItem(v.Offhand()),
		Head: statusItem(v.Worn(inventory.Head)), Chest: statusItem(v.Worn(inventory.Chest)),
		Legs: statusItem(v.Worn(inventory.Legs)), Feet: statusItem(v.Worn(inventory.Feet)),
	}
	for i := range out.Hotbar {
		out.Hotbar[i] = statusItem(v.Slots[inventory.HotbarSlot(i)])
	}
	return out
}

// status is mc_status's answer: the bot's state, and task, the calls that
// run.
func (t *Tools) status(task []protocol.RunningCall) api.Status {
	w, err := t.session()
	if err != nil {
		st := api.Status{Connected: false, Task: task, State: "offline",
			Reason:   "the bot is not in a world yet",
			NextStep: "call mc_discover_lan to find a world opened to LAN, then mc_join with its port; or ask the player for the port shown in their chat after Open to LAN",
		}
		if end, ok := t.cl.LastEnd(); ok {
			st.Reason, st.Untrusted = "the bot is not in a world: "+end.Reason, end.Untrusted
			st.LastDisconnect = &api.Disconnect{Reason: end.Reason, At: end.At.UTC().Format(time.RFC3339), Untrusted: end.Untrusted}
			if !end.Left {
				st.NextStep = fmt.Sprintf("to rejoin, call mc_join with host %q and port %d (%s)", end.Host, end.Port, end.NextStep)
			}
		}
		if r, ok := t.cl.Reconnecting(); ok {
			st.State = "reconnecting"
			st.Reason = fmt.Sprintf("the bot lost its connection to %s and is joining it again (attempt %d)", r.Server, r.Attempt)
			if r.LastError != "" {
				st.Reason += "; the last attempt failed: " + r.LastError
			}
			st.NextStep = "wait for mc_reconnected, or call mc_leave to stop retrying"
		}
		if t.cl.Joining() {
			st.State = "connecting"
			st.Reason, st.Untrusted = "the bot is joining a world", false
			st.NextStep = "wait for mc_join to answer"
		}
		return st
	}
	me := w.Self().Snapshot()
	out := api.Status{
		Connected: true, Task: task, State: w.Phase(), Username: w.Core().Username(),
		Server: net.JoinHostPort(w.Host(), strconv.Itoa(w.Port())), Version: w.Version(),
		Position: ptr(me.Position.Round()), Dimension: me.Dimension, GameMode: bot.GameModeName(me.GameMode),
		PlayersOnline: ptr(w.Players().Count()),
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
	if p, ok := w.Players().Self(); ok && p.HasPing {
		out.LatencyMS = ptr(int64(p.PingMS))
	}
	if t, ok := w.Body().Task(); ok {
		out.Movement = &api.MovementTask{Kind: t.Kind, Goal: t.Goal.Round(), Walked: t.Walked, Left: t.Left}
	}
	inv := w.Inventory().View()
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
	out.Biome, _ = w.Level().BiomeAt(w.feet())
	for _, p := range w.Players().List() {
		if p.IsSelf {
			continue
		}
		if e, d, ok := w.playerInSight(p.UUID); ok {
			out.PlayersInSight = append(out.PlayersInSight, api.PlayerInSight{Username: p.Name, Distance: round1(d), Position: e.Position.Round()})
		}
	}
	sort.Slice(out.PlayersInSight, func(i, j int) bool { return out.PlayersInSight[i].Distance < out.PlayersInSight[j].Distance })
	ws := w.Level().Stats()
	out.World = &api.WorldFigures{ChunksLoaded: ws.Columns, MemoryBytes: ws.Bytes, ViewDistance: ws.ViewRadius, Entities: w.Entities().Len(), Unreadable: ws.Unreadable}
	if ws.Unreadable > 0 || !w.Level().Dimension().Known {
		out.World.LastError = ws.LastError
	}
	return out
}
