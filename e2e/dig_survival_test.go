package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// digEntry is one dig verdict of the survival server's event log.
type digEntry struct {
	Seq         int    `json:"seq"`
	Player      string `json:"player"`
	Verdict     string `json:"verdict"`
	Block       string `json:"block"`
	Pos         [3]int `json:"pos"`
	Ticks       int    `json:"ticks"`
	TicksNeeded int    `json:"ticksNeeded"`
	Drops       []struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
	} `json:"drops"`
}

type serverBlockState struct {
	Name       string         `json:"name"`
	Properties map[string]any `json:"properties"`
}

// digScene is one bot on the survival server, in the middle of its block.
type digScene struct {
	t   *testing.T
	ctx context.Context
	srv *peertest.SurvivalServer
	sc  *sidecartest.Sidecar
	at  [3]int
	// logSince is the first log entry a check reads.
	logSince int
}

func (s *digScene) rel(dx, dy, dz int) [3]int {
	return [3]int{s.at[0] + dx, s.at[1] + dy, s.at[2] + dz}
}

func (s *digScene) query(out any, what string, args ...any) {
	s.t.Helper()
	if err := s.srv.Query(s.ctx, out, what, args...); err != nil {
		s.t.Fatal(err)
	}
}

func (s *digScene) serverBlock(p [3]int) serverBlockState {
	s.t.Helper()
	var b serverBlockState
	s.query(&b, "block", p[0], p[1], p[2])
	return b
}

// botBlock is what mc_block_at says is at p.
func (s *digScene) botBlock(p [3]int) (string, map[string]any) {
	s.t.Helper()
	var r struct {
		Block string         `json:"block"`
		State map[string]any `json:"state"`
	}
	if err := s.sc.Call(s.ctx, "mc_block_at", map[string]any{"x": p[0], "y": p[1], "z": p[2]}).Decode(&r); err != nil {
		s.t.Fatalf("mc_block_at %v: %v", p, err)
	}
	return r.Block, r.State
}

// setblock sets a block with the server's console and waits until the
// bot sees it.
func (s *digScene) setblock(p [3]int, name string) {
	s.t.Helper()
	if err := s.srv.Command(fmt.Sprintf("setblock %d %d %d %s", p[0], p[1], p[2], name)); err != nil {
		s.t.Fatal(err)
	}
	s.until(fmt.Sprintf("the bot sees %s at %v", name, p), func() bool {
		b, _ := s.botBlock(p)
		return b == name
	})
}

// until re-checks cond (each check is a round trip to a peer) until it
// holds or the scene's context ends.
func (s *digScene) until(what string, cond func() bool) {
	s.t.Helper()
	for !cond() {
		if s.ctx.Err() != nil {
			s.t.Fatalf("waiting for %s: %v", what, s.ctx.Err())
		}
	}
}

// digs are the server's dig verdicts since the scene's mark.
func (s *digScene) digs() []digEntry {
	s.t.Helper()
	var out []digEntry
	s.query(&out, "log", "dig", s.logSince)
	return out
}

func (s *digScene) mark() {
	s.t.Helper()
	var all []struct {
		Seq int `json:"seq"`
	}
	s.query(&all, "log", "*", 0)
	s.logSince = 1
	if len(all) > 0 {
		s.logSince = all[len(all)-1].Seq + 1
	}
}

// serverCount is how many of an item the server says the bot carries.
func (s *digScene) serverCount(item string) int {
	s.t.Helper()
	var inv struct {
		Counts map[string]int `json:"counts"`
	}
	s.query(&inv, "inventory", "Theo")
	return inv.Counts[item]
}

// botCount is how many of an item mc_get_inventory says the bot carries.
func (s *digScene) botCount(item string) int {
	s.t.Helper()
	var inv struct {
		Totals []struct {
			Item  string `json:"item"`
			Count int    `json:"count"`
		} `json:"totals"`
	}
	if err := s.sc.Call(s.ctx, "mc_get_inventory", nil).Decode(&inv); err != nil {
		s.t.Fatal(err)
	}
	for _, e := range inv.Totals {
		if e.Item == item {
			return e.Count
		}
	}
	return 0
}

// TestDigSurvival drives `blockmate sidecar` on the survival plugin's
// server, which breaks blocks on the game's rules (break times checked on
// the server, drops, pick-up): mc_dig of an oak log by hand (the server
// accepts the finish: not early, 60 ticks, one log dropped, which
// mc_pickup_items reports picked up), mc_dig of stone with the best of the
// tools carried (a wooden pickaxe, equipped: 23 ticks, cobblestone),
// mc_place of cobblestone given with /give (the server's block), a
// placement with no face refused with the reason, mc_use_block of a lever
// (the server's powered flips), mc_collect of three oak logs counted from
// the inventory (the server's count agrees, with mc_task_progress
// events), and mc_stop in the middle of a collect (the server logs the
// abort; the next call works).
func TestDigSurvival(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	for _, version := range []string{"1.21.4", "1.21.3", "1.21.1"} {
		t.Run(version, func(t *testing.T) {
			// Each version has its own server and sidecar.
			t.Parallel()
			digSurvival(t, bin, version)
		})
	}
}

func digSurvival(t *testing.T, bin, version string) {
	srv := peertest.StartSurvivalServer(t, peertest.SurvivalOptions{Version: version})
	sc := sidecartest.Start(t, bin)
	ctx, cancel := testctx.New(t)
	defer cancel()
	s := &digScene{t: t, ctx: ctx, srv: srv, sc: sc}
	if r := sc.Call(ctx, "mc_join", map[string]any{"port": srv.Port, "username": "Theo"}); !r.OK {
		t.Fatalf("mc_join: %s\n%s", r.Error, sc.Stderr())
	}
	var p struct {
		Pos           [3]float64 `json:"pos"`
		Joined        bool       `json:"joined"`
		SendingChunks bool       `json:"sendingChunks"`
	}
	s.until("the server has logged the bot in", func() bool {
		s.query(&p, "player", "Theo")
		return p.Joined && !p.SendingChunks
	})
	s.at = [3]int{int(math.Floor(p.Pos[0])), int(math.Floor(p.Pos[1])), int(math.Floor(p.Pos[2]))}
	// %.1f of the middle: "%d.5" of a negative x is the block west of it.
	if err := srv.Command(fmt.Sprintf("survival tp Theo %.1f %d %.1f", float64(s.at[0])+0.5, s.at[1], float64(s.at[2])+0.5)); err != nil {
		t.Fatal(err)
	}
	s.until("the bot stands in the middle of its block", func() bool {
		var pos struct {
			Position struct{ X, Y, Z float64 } `json:"position"`
		}
		if err := sc.Call(ctx, "mc_get_position", nil).Decode(&pos); err != nil {
			t.Fatal(err)
		}
		return pos.Position.X == float64(s.at[0])+0.5 && pos.Position.Z == float64(s.at[2])+0.5
	})

	t.Run("dig", func(t *testing.T) {
		s.t = t
		// Above the bot's head: the drop falls onto the bot, so the bot
		// need not walk to it.
		log := s.rel(0, 2, 0)
		s.setblock(log, "oak_log")
		s.mark()
		var r struct {
			Dug        bool   `json:"dug"`
			Block      string `json:"block"`
			Tool       string `json:"tool"`
			BreakTicks int    `json:"break_ticks"`
			Reason     string `json:"reason"`
		}
		if err := sc.Call(ctx, "mc_dig", map[string]any{"x": log[0], "y": log[1], "z": log[2]}).Decode(&r); err != nil || !r.Dug || r.Block != "oak_log" || r.Tool != "hand" || r.BreakTicks != 60 {
			t.Fatalf("mc_dig = %+v, %v", r, err)
		}
		if b := s.serverBlock(log); b.Name != "air" {
			t.Errorf("the server still has %s at %v", b.Name, log)
		}
		if b, _ := s.botBlock(log); b != "air" {
			t.Errorf("mc_block_at says %s", b)
		}
		var destroyed *digEntry
		for _, e := range s.digs() {
			if e.Verdict == "too early" || e.Verdict == "too far" {
				t.Errorf("the server refused a finish: %+v", e)
			}
			if e.Verdict == "destroyed" && e.Pos == log {
				destroyed = &e
			}
		}
		if destroyed == nil || destroyed.TicksNeeded != 60 || len(destroyed.Drops) != 1 || destroyed.Drops[0].Name != "oak_log" {
			t.Fatalf("the server did not record the dig as accepted: %+v", s.digs())
		}
		// The drop falls onto the bot; mc_pickup_items waits for it
		// (the server hands it over after its 10-tick pick-up delay).
		var picked struct {
			PickedUp []struct {
				Item  string `json:"item"`
				Count int    `json:"count"`
			} `json:"picked_up"`
			Seen   int    `json:"items_seen"`
			Reason string `json:"reason"`
		}
		if err := sc.Call(ctx, "mc_pickup_items", map[string]any{"radius": 4}).Decode(&picked); err != nil || picked.Seen < 1 ||
			len(picked.PickedUp) != 1 || picked.PickedUp[0].Item != "oak_log" || picked.PickedUp[0].Count != 1 {
			t.Fatalf("mc_pickup_items = %+v, %v", picked, err)
		}
		if _, err := sc.WaitEvent(ctx, "mc_item_picked_up", payloadHas(`"item":"oak_log"`)); err != nil {
			t.Fatalf("no mc_item_picked_up for the log: %v", err)
		}
		if n := s.serverCount("oak_log"); n != 1 {
			t.Errorf("the server says the bot has %d oak_log, want 1", n)
		}
		for _, bad := range []struct {
			at   [3]int
			want string
		}{
			{log, "air"},
			{s.rel(0, -1000, 0), "not loaded"},
		} {
			var no struct {
				Dug    bool   `json:"dug"`
				Reason string `json:"reason"`
			}
			if err := sc.Call(ctx, "mc_dig", map[string]any{"x": bad.at[0], "y": bad.at[1], "z": bad.at[2]}).Decode(&no); err != nil || no.Dug || !strings.Contains(no.Reason, bad.want) {
				t.Errorf("mc_dig %v = %+v, %v; want a reason with %q", bad.at, no, err, bad.want)
			}
		}
	})

	t.Run("best tool", func(t *testing.T) {
		s.t = t
		for _, give := range []string{"give Theo wooden_pickaxe 1", "give Theo wooden_shovel 1"} {
			if err := srv.Command(give); err != nil {
				t.Fatal(err)
			}
		}
		s.until("the bot has the tools", func() bool { return s.botCount("wooden_pickaxe") == 1 && s.botCount("wooden_shovel") == 1 })
		stone := s.rel(0, 2, 0)
		s.setblock(stone, "stone")
		s.mark()
		var r struct {
			Dug        bool   `json:"dug"`
			Tool       string `json:"tool"`
			BreakTicks int    `json:"break_ticks"`
			Drops      bool   `json:"drops"`
		}
		if err := sc.Call(ctx, "mc_dig", map[string]any{"x": stone[0], "y": stone[1], "z": stone[2]}).Decode(&r); err != nil || !r.Dug || r.Tool != "wooden_pickaxe" || r.BreakTicks != 23 || !r.Drops {
			t.Fatalf("mc_dig stone = %+v, %v; want the wooden pickaxe, 23 ticks", r, err)
		}
		var destroyed *digEntry
		for _, e := range s.digs() {
			if e.Verdict == "destroyed" && e.Pos == stone {
				destroyed = &e
			}
		}
		if destroyed == nil || destroyed.TicksNeeded != 23 || len(destroyed.Drops) != 1 || destroyed.Drops[0].Name != "cobblestone" {
			t.Fatalf("the server's record of the stone: %+v", s.digs())
		}
		var p struct {
			HeldSlot int `json:"heldSlot"`
		}
		s.query(&p, "player", "Theo")
		var inv struct {
			Slots []struct {
				Slot int    `json:"slot"`
				Name string `json:"name"`
			} `json:"slots"`
		}
		s.query(&inv, "inventory", "Theo")
		for _, sl := range inv.Slots {
			if sl.Slot == 36+p.HeldSlot && sl.Name != "wooden_pickaxe" {
				t.Errorf("the server says the bot holds %s", sl.Name)
			}
		}
		s.until("the cobblestone arrives", func() bool { return s.botCount("cobblestone") == 1 })
		if err := srv.Command("survival clear Theo"); err != nil {
			t.Fatal(err)
		}
		s.until("the inventory is empty", func() bool { return s.botCount("cobblestone") == 0 && s.botCount("wooden_pickaxe") == 0 })
	})

	t.Run("place", func(t *testing.T) {
		s.t = t
		if err := srv.Command("give Theo cobblestone 2"); err != nil {
			t.Fatal(err)
		}
		s.until("the bot has the cobblestone", func() bool { return s.botCount("cobblestone") == 2 })
		target := s.rel(1, 0, 0)
		var r struct {
			Placed bool   `json:"placed"`
			Block  string `json:"block"`
			Face   string `json:"face"`
			Reason string `json:"reason"`
		}
		if err := sc.Call(ctx, "mc_place", map[string]any{"block": "cobblestone", "x": target[0], "y": target[1], "z": target[2]}).Decode(&r); err != nil || !r.Placed || r.Block != "cobblestone" {
			t.Fatalf("mc_place = %+v, %v", r, err)
		}
		if b := s.serverBlock(target); b.Name != "cobblestone" {
			t.Errorf("the server has %s at %v after mc_place", b.Name, target)
		}
		if n := s.serverCount("cobblestone"); n != 1 {
			t.Errorf("the server says the bot has %d cobblestone left, want 1", n)
		}
		// High in the air nothing touches the position.
		high := s.rel(0, 4, 2)
		if err := sc.Call(ctx, "mc_place", map[string]any{"block": "cobblestone", "x": high[0], "y": high[1], "z": high[2]}).Decode(&r); err != nil || r.Placed || !strings.Contains(r.Reason, "no solid block touches") {
			t.Errorf("mc_place in the air = %+v, %v", r, err)
		}
		if b := s.serverBlock(high); b.Name != "air" {
			t.Errorf("the server has %s at %v", b.Name, high)
		}
	})

	t.Run("use", func(t *testing.T) {
		s.t = t
		lever := s.rel(-1, 0, 0)
		s.setblock(lever, "lever")
		before := s.serverBlock(lever).Properties["powered"]
		var r struct {
			Used    bool           `json:"used"`
			Block   string         `json:"block"`
			Changed bool           `json:"changed"`
			State   map[string]any `json:"state"`
			Reason  string         `json:"reason"`
		}
		if err := sc.Call(ctx, "mc_use_block", map[string]any{"x": lever[0], "y": lever[1], "z": lever[2]}).Decode(&r); err != nil || !r.Used || !r.Changed || r.Block != "lever" {
			t.Fatalf("mc_use_block = %+v, %v", r, err)
		}
		after := s.serverBlock(lever).Properties["powered"]
		if after == before || fmt.Sprint(r.State["powered"]) != fmt.Sprint(after) {
			t.Errorf("the lever was powered=%v, the server now has %v, the bot says %v", before, after, r.State["powered"])
		}
	})

	t.Run("collect", func(t *testing.T) {
		s.t = t
		logs := [][3]int{s.rel(0, 2, 0), s.rel(0, 3, 0), s.rel(0, 4, 0)}
		for _, p := range logs {
			s.setblock(p, "oak_log")
		}
		had := s.botCount("oak_log")
		s.mark()
		var r struct {
			Collected int    `json:"collected"`
			Item      string `json:"item"`
			Reason    string `json:"reason"`
		}
		if err := sc.Call(ctx, "mc_collect", map[string]any{"block_type": "oak_log", "count": 3}).Decode(&r); err != nil || r.Collected != 3 || r.Item != "oak_log" {
			var all, items []map[string]any
			var player map[string]any
			s.query(&all, "log", "*", s.logSince)
			s.query(&items, "items")
			s.query(&player, "player", "Theo")
			nearby := sc.Call(ctx, "mc_nearby", map[string]any{"radius": 8})
			t.Fatalf("mc_collect = %+v, %v; the server logged %v\nthe server's items: %v\nthe server's Theo at %v\nmc_nearby: %s", r, err, all, items, player["pos"], nearby.Result)
		}
		if n := s.botCount("oak_log"); n != had+3 {
			t.Errorf("mc_get_inventory has %d oak_log, want %d", n, had+3)
		}
		if n := s.serverCount("oak_log"); n != had+3 {
			t.Errorf("the server says the bot has %d oak_log, want %d", n, had+3)
		}
		for _, p := range logs {
			if b := s.serverBlock(p); b.Name != "air" {
				t.Errorf("the server still has %s at %v", b.Name, p)
			}
		}
		if _, err := sc.WaitEvent(ctx, "mc_task_progress", func(p json.RawMessage) bool {
			return strings.Contains(string(p), `"tool":"mc_collect"`) && strings.Contains(string(p), `"done":3,"total":3`)
		}); err != nil {
			t.Errorf("no mc_task_progress of 3/3: %v", err)
		}
	})

	t.Run("stop", func(t *testing.T) {
		s.t = t
		logs := [][3]int{s.rel(0, 2, 0), s.rel(0, 3, 0)}
		for _, p := range logs {
			s.setblock(p, "oak_log")
		}
		s.mark()
		sc.Send(`{"id":"col","tool":"mc_collect","args":{"block_type":"oak_log","count":2}}`)
		s.until("the server has seen the dig start", func() bool {
			for _, e := range s.digs() {
				if e.Verdict == "started" {
					return true
				}
			}
			return false
		})
		var stop struct {
			Stopped   bool  `json:"stopped"`
			Cancelled []any `json:"cancelled"`
		}
		if err := sc.Call(ctx, "mc_stop", nil).Decode(&stop); err != nil || len(stop.Cancelled) != 1 {
			t.Fatalf("mc_stop = %+v, %v", stop, err)
		}
		if r := sc.WaitReply(ctx, "col"); r.OK || !strings.Contains(r.Error, "stopped") {
			t.Errorf("the collect answered %+v", r)
		}
		s.until("the server logs the abort", func() bool {
			for _, e := range s.digs() {
				if e.Verdict == "aborted" {
					return true
				}
			}
			return false
		})
		for _, e := range s.digs() {
			if e.Verdict == "destroyed" || e.Verdict == "too early" {
				t.Errorf("after the stop the server saw %+v", e)
			}
		}
		// The next call starts clean.
		var r struct {
			Dug bool `json:"dug"`
		}
		if err := sc.Call(ctx, "mc_dig", map[string]any{"x": logs[0][0], "y": logs[0][1], "z": logs[0][2]}).Decode(&r); err != nil || !r.Dug {
			t.Fatalf("mc_dig after the stop = %+v, %v", r, err)
		}
	})
	if bad := sc.NonProtocol(); len(bad) > 0 {
		t.Errorf("stdout carried non-protocol lines: %q", bad)
	}
}

// TestDigFlyingSquid drives `blockmate sidecar` on plain flying-squid
// 1.21.4 (which breaks a block on any finish and places with its own
// rules) with a mineflayer player watching: mc_dig of a block set with
// /setblock (air for the bot and for the watcher), mc_place of
// cobblestone given with /give (the watcher sees it), and mc_use_block of
// a lever (flying-squid's redstone plugin flips it; the bot reports the
// state the server sent back).
func TestDigFlyingSquid(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	srv := peertest.StartServer(t, peertest.ServerOptions{Version: "1.21.4"})
	sc := sidecartest.Start(t, bin)
	ctx, cancel := testctx.New(t)
	defer cancel()
	s := &digScene{t: t, ctx: ctx, sc: sc}
	if r := sc.Call(ctx, "mc_join", map[string]any{"port": srv.Port, "username": "Theo"}); !r.OK {
		t.Fatalf("mc_join: %s\n%s", r.Error, sc.Stderr())
	}
	alex := peertest.StartPlayer(t, srv, "alex")
	var pos struct {
		Position struct{ X, Y, Z float64 } `json:"position"`
	}
	if err := sc.Call(ctx, "mc_get_position", nil).Decode(&pos); err != nil {
		t.Fatal(err)
	}
	s.at = [3]int{int(math.Floor(pos.Position.X)), int(math.Floor(pos.Position.Y)), int(math.Floor(pos.Position.Z))}
	set := func(p [3]int, name string) {
		t.Helper()
		if err := srv.Command(fmt.Sprintf("setblock %d %d %d %s", p[0], p[1], p[2], name)); err != nil {
			t.Fatal(err)
		}
		s.until(fmt.Sprintf("the bot and alex see %s at %v", name, p), func() bool {
			b, _ := s.botBlock(p)
			a, err := alex.BlockAt(ctx, p[0], p[1], p[2])
			if err != nil {
				t.Fatal(err)
			}
			return b == name && a == name
		})
	}
	watched := func(p [3]int, name string) {
		t.Helper()
		s.until(fmt.Sprintf("alex sees %s at %v", name, p), func() bool {
			a, err := alex.BlockAt(ctx, p[0], p[1], p[2])
			if err != nil {
				t.Fatal(err)
			}
			return a == name
		})
	}

	block := s.rel(0, 2, 0)
	set(block, "dirt")
	var dug struct {
		Dug    bool   `json:"dug"`
		Block  string `json:"block"`
		Reason string `json:"reason"`
	}
	if err := sc.Call(ctx, "mc_dig", map[string]any{"x": block[0], "y": block[1], "z": block[2]}).Decode(&dug); err != nil || !dug.Dug || dug.Block != "dirt" {
		t.Fatalf("mc_dig = %+v, %v", dug, err)
	}
	if b, _ := s.botBlock(block); b != "air" {
		t.Errorf("mc_block_at says %s after the dig", b)
	}
	watched(block, "air")

	target := s.rel(1, 0, 0)
	set(s.rel(1, -1, 0), "stone")
	set(target, "air")
	if err := srv.Command("give Theo cobblestone 2"); err != nil {
		t.Fatal(err)
	}
	s.until("the bot has the cobblestone", func() bool { return s.botCount("cobblestone") >= 1 })
	var placed struct {
		Placed bool   `json:"placed"`
		Block  string `json:"block"`
		Face   string `json:"face"`
		Reason string `json:"reason"`
	}
	if err := sc.Call(ctx, "mc_place", map[string]any{"block": "cobblestone", "x": target[0], "y": target[1], "z": target[2]}).Decode(&placed); err != nil || !placed.Placed || placed.Block != "cobblestone" {
		t.Fatalf("mc_place = %+v, %v", placed, err)
	}
	watched(target, "cobblestone")

	lever := s.rel(-1, 0, 0)
	set(s.rel(-1, -1, 0), "stone")
	set(lever, "lever")
	_, before := s.botBlock(lever)
	var used struct {
		Used    bool           `json:"used"`
		Changed bool           `json:"changed"`
		State   map[string]any `json:"state"`
		Reason  string         `json:"reason"`
	}
	if err := sc.Call(ctx, "mc_use_block", map[string]any{"x": lever[0], "y": lever[1], "z": lever[2]}).Decode(&used); err != nil || !used.Used || !used.Changed || fmt.Sprint(used.State["powered"]) == fmt.Sprint(before["powered"]) {
		t.Errorf("mc_use_block on the lever = %+v, %v; it was %v", used, err, before)
	}
	if _, after := s.botBlock(lever); fmt.Sprint(after["powered"]) != fmt.Sprint(used.State["powered"]) {
		t.Errorf("mc_block_at says powered=%v, mc_use_block %v", after["powered"], used.State["powered"])
	}
	if bad := sc.NonProtocol(); len(bad) > 0 {
		t.Errorf("stdout carried non-protocol lines: %q", bad)
	}
}
