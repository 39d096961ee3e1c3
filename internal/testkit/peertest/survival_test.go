package peertest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// survivalVersions are the versions flying-squid serves, so the versions the
// survival plugin runs at.
var survivalVersions = []string{"1.21.1", "1.21.3", "1.21.4"}

type serverPlayer struct {
	Name       string     `json:"name"`
	Health     float64    `json:"health"`
	Food       int        `json:"food"`
	Saturation float64    `json:"saturation"`
	Pos        [3]float64 `json:"pos"`
	OnGround   bool       `json:"onGround"`
	// SendingChunks: flying-squid is sending this player chunks, which
	// keeps the server from ticking on time; a dig timed meanwhile would be
	// finished "early" by the server's clock.
	SendingChunks bool `json:"sendingChunks"`
	// Joined: flying-squid's login is over; it ends by sending the spawn
	// position again, which would undo an earlier teleport.
	Joined bool `json:"joined"`
}

type serverStack struct {
	Slot   int    `json:"slot"`
	Name   string `json:"name"`
	Count  int    `json:"count"`
	Damage int    `json:"damage"`
}

type serverInventory struct {
	Slots   []serverStack  `json:"slots"`
	Counts  map[string]int `json:"counts"`
	Carried *serverStack   `json:"carried"`
}

type serverBlock struct {
	Name       string         `json:"name"`
	Properties map[string]any `json:"properties"`
}

type logEntry struct {
	Seq         int           `json:"seq"`
	Kind        string        `json:"kind"`
	Tick        int           `json:"tick"`
	Player      string        `json:"player"`
	Verdict     string        `json:"verdict"`
	Block       string        `json:"block"`
	Pos         []float64     `json:"pos"`
	Ticks       int           `json:"ticks"`
	TicksNeeded int           `json:"ticksNeeded"`
	Progress    float64       `json:"progress"`
	Drops       []serverStack `json:"drops"`
	Item        string        `json:"item"`
	Count       int           `json:"count"`
	Food        int           `json:"food"`
	Saturation  float64       `json:"saturation"`
	Victim      string        `json:"victim"`
	VictimID    int           `json:"victimId"`
	AttackerID  int           `json:"attackerId"`
	TypeID      int           `json:"typeId"`
	Attacker    string        `json:"attacker"`
	Killer      string        `json:"killer"`
	Amount      float64       `json:"amount"`
	Type        string        `json:"type"`
	Event       string        `json:"event"`
	Input       string        `json:"input"`
	Output      string        `json:"output"`
	Thrower     string        `json:"thrower"`
}

// packet is a packet the mineflayer driver recorded, as it reports it.
type packet struct {
	Name           string  `json:"name"`
	WindowID       int     `json:"windowId"`
	StateID        int     `json:"stateId"`
	Slot           int     `json:"slot"`
	SlotID         int     `json:"slotId"`
	SequenceID     int     `json:"sequenceId"`
	EntityID       int     `json:"entityId"`
	SourceTypeID   int     `json:"sourceTypeId"`
	SourceCauseID  int     `json:"sourceCauseId"`
	SourceDirectID int     `json:"sourceDirectId"`
	Health         float64 `json:"health"`
	// Translate and ActionBar are a system_chat line's translation key and
	// where it shows; Animation an animation packet's id.
	Translate string `json:"translate"`
	ActionBar bool   `json:"actionBar"`
	Animation int    `json:"animation"`
	Item      *struct {
		ID    int `json:"id"`
		Count int `json:"count"`
	} `json:"item"`
}

type packets struct {
	Mark    int      `json:"mark"`
	Packets []packet `json:"packets"`
}

type mob struct {
	ID     int     `json:"id"`
	Name   string  `json:"name"`
	Health float64 `json:"health"`
	Dead   bool    `json:"dead"`
}

// scene holds one version's server and player and the helpers the steps
// share.
type scene struct {
	t       *testing.T
	ctx     context.Context
	version string
	srv     *peertest.SurvivalServer
	alex    *peertest.Survivor
	at      [3]int // alex's block position at the start
	seen    int    // log entries up to this one have been looked at
}

func (s *scene) command(line string) {
	s.t.Helper()
	if err := s.srv.Command(line); err != nil {
		s.t.Fatalf("console %q: %v", line, err)
	}
}

func (s *scene) query(out any, what string, args ...any) {
	s.t.Helper()
	if err := s.srv.Query(s.ctx, out, what, args...); err != nil {
		s.t.Fatal(err)
	}
}

func (s *scene) do(who *peertest.Survivor, out any, cmd map[string]any) {
	s.t.Helper()
	if err := who.Do(s.ctx, out, cmd); err != nil {
		s.t.Fatalf("%v\n%s", err, who.Log())
	}
}

// rel is a block position relative to where alex started.
func (s *scene) rel(dx, dy, dz int) [3]int {
	return [3]int{s.at[0] + dx, s.at[1] + dy, s.at[2] + dz}
}

func (s *scene) setblock(p [3]int, name string) {
	s.t.Helper()
	s.command(fmt.Sprintf("setblock %d %d %d %s", p[0], p[1], p[2], name))
	s.waitBlock(p, name)
}

// waitBlock waits until the server has name at p. A console command and a
// query are handled in order, so this rarely needs a second look.
func (s *scene) waitBlock(p [3]int, name string) serverBlock {
	s.t.Helper()
	var b serverBlock
	s.eventually(fmt.Sprintf("block %v is %s", p, name), func() bool {
		s.query(&b, "block", p[0], p[1], p[2])
		return b.Name == name
	}, func() string { return "it is " + b.Name })
	return b
}

func (s *scene) inventory(name string) serverInventory {
	s.t.Helper()
	var inv serverInventory
	s.query(&inv, "inventory", name)
	return inv
}

// waitCounts waits until the server's inventory of player holds exactly
// want of each named item.
func (s *scene) waitCounts(player string, want map[string]int) serverInventory {
	s.t.Helper()
	var inv serverInventory
	s.eventually(fmt.Sprintf("%s's inventory holds %v", player, want), func() bool {
		inv = s.inventory(player)
		for name, n := range want {
			if inv.Counts[name] != n {
				return false
			}
		}
		return true
	}, func() string { return fmt.Sprintf("the server has %v, carried %v", inv.Counts, inv.Carried) })
	return inv
}

// newLog returns the log entries of kind since the last call.
func (s *scene) newLog(kind string) []logEntry {
	s.t.Helper()
	var entries []logEntry
	s.query(&entries, "log", "*", s.seen+1)
	var out []logEntry
	for _, e := range entries {
		if e.Seq > s.seen {
			s.seen = e.Seq
		}
		if kind == "" || e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// eventually re-checks ok once per game tick of the server until it holds
// (the "tick" query answers after the next tick), never waiting a fixed
// time. A mineflayer step can end before the server has handled all of its
// packets (mineflayer does not wait for the last click to be answered), so
// the server's side is read this way.
// eventually re-checks ok once per server tick until it holds, for at most
// eventuallyTicks of the server's ticks: everything a scene waits for
// happens within a few seconds of game time, however slow the machine, and
// a wait that would never end fails in a minute of game time, not at the
// end of the test's deadline.
func (s *scene) eventually(what string, ok func() bool, got func() string) {
	s.t.Helper()
	for ticks := 0; !ok(); ticks++ {
		if ticks == eventuallyTicks {
			s.t.Fatalf("%s did not happen within %d server ticks; %s", what, eventuallyTicks, got())
		}
		if err := s.srv.Query(s.ctx, nil, "tick"); err != nil {
			// Report what the server has now, in the margin the test's
			// context kept back for the report.
			ctx := s.ctx
			report, cancel := testctx.Report(s.t)
			defer cancel()
			s.ctx = report
			defer func() { s.ctx = ctx }()
			s.t.Fatalf("waiting until %s: %v; %s", what, err, got())
		}
	}
}

// eventuallyTicks bounds eventually: a minute of game time.
const eventuallyTicks = 1200

func TestSurvivalPluginAgainstMineflayer(t *testing.T) {
	// About 80 s a version: a furnace cooks for 10 s and stone by hand
	// takes 7.5 s at the game's tick rate.
	if testing.Short() && !peertest.InCI() {
		t.Skip("skipping the survival plugin's mineflayer run in -short mode (about 4 minutes)")
	}
	for _, version := range survivalVersions {
		t.Run(version, func(t *testing.T) {
			testSurvival(t, version)
		})
	}
}

func testSurvival(t *testing.T, version string) {
	srv := peertest.StartSurvivalServer(t, peertest.SurvivalOptions{Version: version})
	alex := peertest.StartSurvivor(t, srv.Server, "alex")
	ctx, cancel := testctx.New(t)
	defer cancel()
	s := &scene{t: t, ctx: ctx, version: version, srv: srv, alex: alex}

	var p serverPlayer
	s.eventually("alex has joined", func() bool {
		s.query(&p, "player", "alex")
		return p.Joined
	}, func() string { return "" })
	s.at = [3]int{int(floor(p.Pos[0])), int(floor(p.Pos[1])), int(floor(p.Pos[2]))}
	// Stand in the middle of the block, so the scene is the same every run.
	s.home()
	s.newLog("")

	steps := []struct {
		name string
		run  func(*scene)
	}{
		{"logs by hand", digLogs},
		{"crafting in the inventory grid", craftInInventory},
		{"state ids", stateIDs},
		{"grid items come back on close", gridReturn},
		{"shift-clicking the result", shiftCraft},
		{"crafting table", craftOnTable},
		{"stone with a wooden pickaxe", digStone},
		{"stone by hand drops nothing", digStoneByHand},
		{"finishing a dig too early", digTooEarly},
		{"furnace", smelt},
		{"chest", useChest},
		{"eating", eat},
		{"doors, levers and buttons", useBlocks},
		{"sleeping in a bed", sleepInBed},
		{"zombie", fightZombie},
		{"tossing to another player", tossToPlayer},
	}
	// The server must not have failed to write a packet (flying-squid then
	// drops the connection's output silently) or thrown in the plugin.
	defer func() {
		for _, line := range strings.Split(srv.Log(), "\n") {
			if strings.Contains(line, "Disconnecting client because error") || strings.Contains(line, "server error:") || strings.Contains(line, "SizeOf error") {
				t.Errorf("the server logged: %s", line)
			}
		}
	}()
	for _, step := range steps {
		ok := t.Run(step.name, func(t *testing.T) {
			s.t, s.ctx = t, ctx
			step.run(s)
		})
		if !ok {
			return // later steps build on this one
		}
	}
}

func floor(f float64) float64 {
	i := float64(int(f))
	if f < 0 && i != f {
		return i - 1
	}
	return i
}

type digResult struct {
	Block     string  `json:"block"`
	DigTimeMs float64 `json:"digTimeMs"`
	DigTicks  int     `json:"digTicks"`
	Held      string  `json:"held"`
}

// dig has mineflayer dig the block at p and checks the server's side: the
// dig was accepted (not finished early), the server's break time is
// mineflayer's, and the block is gone. It returns the server's log entry.
func (s *scene) dig(p [3]int, block string) logEntry {
	s.t.Helper()
	var r digResult
	s.do(s.alex, &r, map[string]any{"cmd": "dig", "pos": p})
	if r.Block != block {
		s.t.Fatalf("mineflayer dug %s at %v, want %s", r.Block, p, block)
	}
	s.waitBlock(p, "air")
	var started, finished *logEntry
	for _, e := range s.newLog("dig") {
		e := e
		if e.Player != "alex" || len(e.Pos) != 3 || [3]int{int(e.Pos[0]), int(e.Pos[1]), int(e.Pos[2])} != p {
			continue
		}
		switch e.Verdict {
		case "started":
			started = &e
		case "destroyed", "insta mine":
			finished = &e
		default:
			s.t.Errorf("the server's verdict on mineflayer's dig of %s at %v: %q (ticks %d of %d, progress %.2f), want it accepted", block, p, e.Verdict, e.Ticks, e.TicksNeeded, e.Progress)
		}
	}
	if finished == nil {
		s.t.Fatalf("the server did not record mineflayer's dig of %s at %v as accepted", block, p)
	}
	if started != nil && started.TicksNeeded != r.DigTicks {
		var st map[string]any
		s.do(s.alex, &st, map[string]any{"cmd": "state"})
		s.t.Errorf("break time of %s at %v with %q: server %d ticks, mineflayer %d ticks (%.0f ms); mineflayer now: %v; server: %+v", block, p, r.Held, started.TicksNeeded, r.DigTicks, r.DigTimeMs, st, s.inventory("alex"))
	}
	return *finished
}

func digLogs(s *scene) {
	logs := [][3]int{s.rel(1, 0, 0), s.rel(1, 1, 0), s.rel(-1, 0, 0), s.rel(-1, 1, 0)}
	for _, p := range logs {
		s.setblock(p, "oak_log")
	}
	for _, p := range logs {
		e := s.dig(p, "oak_log")
		if e.TicksNeeded != 60 {
			s.t.Errorf("oak log by hand: the server needs %d ticks, want 60 (hardness 2, speed 1, no tool needed: 1/(1/2/30))", e.TicksNeeded)
		}
		if len(e.Drops) != 1 || e.Drops[0].Name != "oak_log" || e.Drops[0].Count != 1 {
			s.t.Errorf("an oak log dropped %+v, want one oak_log", e.Drops)
		}
	}
	s.do(s.alex, nil, map[string]any{"cmd": "collect", "item": "oak_log", "count": 4})
	s.waitCounts("alex", map[string]int{"oak_log": 4})
	s.home()
}

// home puts alex back in the middle of the block he started on, once the
// server has sent him the chunks around it.
func (s *scene) home() {
	s.t.Helper()
	s.command(fmt.Sprintf("survival tp alex %d.5 %d %d.5", s.at[0], s.at[1], s.at[2]))
	var p serverPlayer
	s.eventually("alex stands in the middle of his block with his chunks sent", func() bool {
		s.query(&p, "player", "alex")
		return p.Pos[0] == float64(s.at[0])+0.5 && p.Pos[2] == float64(s.at[2])+0.5 && !p.SendingChunks
	}, func() string { return fmt.Sprintf("%v, sending chunks %v", p.Pos, p.SendingChunks) })
}

func craftInInventory(s *scene) {
	s.do(s.alex, nil, map[string]any{"cmd": "craft", "item": "oak_planks", "count": 3})
	s.waitCounts("alex", map[string]int{"oak_log": 1, "oak_planks": 12})
	s.do(s.alex, nil, map[string]any{"cmd": "craft", "item": "crafting_table", "count": 1})
	s.waitCounts("alex", map[string]int{"oak_planks": 8, "crafting_table": 1})
	s.do(s.alex, nil, map[string]any{"cmd": "craft", "item": "stick", "count": 1})
	inv := s.waitCounts("alex", map[string]int{"oak_planks": 6, "stick": 4})
	for _, st := range inv.Slots {
		if st.Slot >= 0 && st.Slot <= 4 {
			s.t.Errorf("the crafting grid still holds %+v after crafting", st)
		}
	}
	if inv.Carried != nil {
		s.t.Errorf("the server thinks alex carries %+v", inv.Carried)
	}
}

// stateIDs checks that every slot the server changes on its own comes with
// the next state id, and that a click with a stale state id is answered
// with the whole window at the next one (AbstractContainerMenu).
func stateIDs(s *scene) {
	var before packets
	s.do(s.alex, &before, map[string]any{"cmd": "stateIds", "mark": 1 << 30})
	var p struct {
		Window struct {
			StateID int `json:"stateId"`
		} `json:"window"`
	}
	s.query(&p, "player", "alex")
	start := p.Window.StateID
	s.command("give alex stick 1")
	s.waitCounts("alex", map[string]int{"stick": 5})
	s.query(&p, "player", "alex")
	if p.Window.StateID != start+1 {
		s.t.Errorf("after /give of one stack the server's state id is %d, want %d", p.Window.StateID, start+1)
	}
	var after packets
	s.do(s.alex, &after, map[string]any{"cmd": "stateIds", "mark": before.Mark})
	if len(after.Packets) != 1 || after.Packets[0].Name != "set_slot" || after.Packets[0].StateID != start+1 {
		s.t.Errorf("mineflayer got %+v for the given stick, want one set_slot with state id %d", after.Packets, start+1)
	}
	var stale struct {
		SentStateID int      `json:"sentStateId"`
		LastStateID int      `json:"lastStateId"`
		Answer      []packet `json:"answer"`
	}
	s.do(s.alex, &stale, map[string]any{"cmd": "staleClick"})
	s.query(&p, "player", "alex")
	if len(stale.Answer) != 1 || stale.Answer[0].Name != "window_items" || stale.Answer[0].StateID != stale.LastStateID+1 || p.Window.StateID != stale.LastStateID+1 {
		s.t.Errorf("a click with state id %d (the server's is %d) got %+v and left the server at %d; want the whole window (window_items) with state id %d",
			stale.SentStateID, stale.LastStateID, stale.Answer, p.Window.StateID, stale.LastStateID+1)
	}
}

// gridReturn puts a stick into the 2x2 grid and closes the inventory: the
// stick comes back into the inventory (Inventory.placeItemBackInInventory,
// which also sends the slot at once, as window -2 at 1.21.1 and
// set_player_inventory from 1.21.2).
func gridReturn(s *scene) {
	var r struct {
		InGrid  string         `json:"inGrid"`
		Packets []packet       `json:"packets"`
		Inv     map[string]int `json:"inventory"`
	}
	s.do(s.alex, &r, map[string]any{"cmd": "gridReturn", "item": "stick"})
	if r.InGrid != "stick" {
		s.t.Fatalf("mineflayer put %q in the grid, want stick", r.InGrid)
	}
	inv := s.waitCounts("alex", map[string]int{"stick": 5})
	for _, st := range inv.Slots {
		if st.Slot <= 4 {
			s.t.Errorf("after closing, the grid still holds %+v", st)
		}
	}
	var direct bool
	for _, p := range r.Packets {
		switch {
		case s.srv.Version == "1.21.1" && p.Name == "set_slot" && p.WindowID == 254:
			direct = true // -2 as an unsigned byte
		case s.srv.Version != "1.21.1" && p.Name == "set_player_inventory":
			direct = true
		}
	}
	if !direct {
		s.t.Errorf("closing sent %+v; want the returned slot sent at once (window -2 at 1.21.1, set_player_inventory later)", r.Packets)
	}
}

// shiftCraft shift-clicks the result of two logs in the 2x2 grid, which
// crafts twice (the game repeats quickMoveStack while the result stays the
// same item).
func shiftCraft(s *scene) {
	s.command("give alex birch_log 2")
	s.waitCounts("alex", map[string]int{"birch_log": 2})
	var r struct {
		Grid []*string `json:"grid"`
	}
	s.do(s.alex, &r, map[string]any{"cmd": "shiftCraft", "item": "birch_log", "count": 2})
	s.waitCounts("alex", map[string]int{"birch_log": 0, "birch_planks": 8})
	for i, g := range r.Grid {
		if g != nil {
			s.t.Errorf("grid slot %d holds %s after shift-clicking the result", i+1, *g)
		}
	}
	// Put the inventory back as crafting left it (and the extra stick
	// away); birch planks would give mineflayer other recipes to pick.
	s.command("survival clear alex")
	s.command("give alex oak_log 1")
	s.command("give alex oak_planks 6")
	s.command("give alex stick 4")
	s.command("give alex crafting_table 1")
	s.waitCounts("alex", map[string]int{"oak_log": 1, "oak_planks": 6, "stick": 4, "crafting_table": 1, "birch_planks": 0})
}

func craftOnTable(s *scene) {
	table := s.rel(2, 0, 0)
	s.do(s.alex, nil, map[string]any{"cmd": "place", "item": "crafting_table", "against": s.rel(2, -1, 0), "face": []int{0, 1, 0}})
	s.waitBlock(table, "crafting_table")
	s.do(s.alex, nil, map[string]any{"cmd": "craft", "item": "wooden_pickaxe", "count": 1, "table": table})
	s.waitCounts("alex", map[string]int{"wooden_pickaxe": 1, "oak_planks": 3, "stick": 2, "crafting_table": 0})
}

func digStone(s *scene) {
	stones := [][3]int{s.rel(0, 0, 2), s.rel(1, 0, 2), s.rel(-1, 0, 2)}
	for _, p := range stones {
		s.setblock(p, "stone")
	}
	s.do(s.alex, nil, map[string]any{"cmd": "equip", "item": "wooden_pickaxe"})
	for _, p := range stones {
		e := s.dig(p, "stone")
		if e.TicksNeeded != 23 {
			s.t.Errorf("stone with a wooden pickaxe: the server needs %d ticks, want 23 (1/(2/1.5/30))", e.TicksNeeded)
		}
		if len(e.Drops) != 1 || e.Drops[0].Name != "cobblestone" {
			s.t.Errorf("stone mined with a pickaxe dropped %+v, want cobblestone", e.Drops)
		}
	}
	s.do(s.alex, nil, map[string]any{"cmd": "collect", "item": "cobblestone", "count": 3})
	inv := s.waitCounts("alex", map[string]int{"cobblestone": 3})
	s.home()
	for _, st := range inv.Slots {
		if st.Name == "wooden_pickaxe" && st.Damage != 3 {
			s.t.Errorf("the wooden pickaxe's damage after 3 stones is %d, want 3", st.Damage)
		}
	}
	table := s.rel(2, 0, 0)
	s.do(s.alex, nil, map[string]any{"cmd": "craft", "item": "stone_pickaxe", "count": 1, "table": table})
	s.waitCounts("alex", map[string]int{"stone_pickaxe": 1, "cobblestone": 0, "stick": 0})
}

func digStoneByHand(s *scene) {
	p := s.rel(0, 0, -2)
	s.setblock(p, "stone")
	s.do(s.alex, nil, map[string]any{"cmd": "equip", "item": "oak_planks"})
	e := s.dig(p, "stone")
	if e.TicksNeeded != 150 {
		s.t.Errorf("stone by hand: the server needs %d ticks, want 150 (1/(1/1.5/100))", e.TicksNeeded)
	}
	if len(e.Drops) != 0 {
		s.t.Errorf("stone mined without a pickaxe dropped %+v, want nothing", e.Drops)
	}
}

// digTooEarly finishes a dig at once: the game does not break the block
// then; it only acknowledges, so the client's block comes back, and breaks
// it on the tick its progress reaches 1 ("delayed destroy").
func digTooEarly(s *scene) {
	p := s.rel(1, 0, 0)
	s.setblock(p, "oak_log")
	s.do(s.alex, nil, map[string]any{"cmd": "equip", "item": "oak_planks"})
	var r struct {
		Block   string   `json:"block"`
		Packets []packet `json:"packets"`
	}
	s.do(s.alex, &r, map[string]any{"cmd": "digEarly", "pos": p})
	if r.Block != "oak_log" {
		s.t.Errorf("after the early finish mineflayer has %s at %v, want the oak log still there", r.Block, p)
	}
	// Earlier digs (sequence 0) may still be acknowledged in this window.
	var acks []int
	for _, pk := range r.Packets {
		switch {
		case pk.Name == "block_change":
			s.t.Errorf("the server sent %+v on the early finish; the game only acknowledges", pk)
		case pk.SequenceID >= 101:
			acks = append(acks, pk.SequenceID)
		}
	}
	// The game acknowledges the highest sequence of a tick once: 102 alone
	// when both packets land in one tick (as they nearly always do), else
	// 101 then 102.
	if fmt.Sprint(acks) != "[102]" && fmt.Sprint(acks) != "[101 102]" {
		s.t.Errorf("acknowledgements of sequences 101 (start) and 102 (finish): %v, want [102] (or [101 102] across a tick)", acks)
	}
	var early, delayed *logEntry
	s.eventually("the server breaks the block when its time is up", func() bool {
		for _, e := range s.newLog("dig") {
			e := e
			switch e.Verdict {
			case "too early":
				early = &e
			case "delayed destroy":
				delayed = &e
			}
		}
		return delayed != nil
	}, func() string { return fmt.Sprintf("early %+v", early) })
	if early == nil || early.Ticks > 1 || early.TicksNeeded != 60 {
		s.t.Errorf("the server's record of the early finish: %+v, want too early after 0-1 of 60 ticks", early)
	}
	if delayed.Ticks != 59 || len(delayed.Drops) != 1 {
		s.t.Errorf("the delayed destroy: %+v, want it on the 60th tick (59 after the start) with the log dropped", delayed)
	}
	s.do(s.alex, nil, map[string]any{"cmd": "waitBlock", "pos": p, "name": "air"})
	s.do(s.alex, nil, map[string]any{"cmd": "collect", "item": "oak_log", "count": 2})
	s.home()
}

func smelt(s *scene) {
	s.command("give alex cobblestone 8")
	s.waitCounts("alex", map[string]int{"cobblestone": 8})
	table := s.rel(2, 0, 0)
	s.do(s.alex, nil, map[string]any{"cmd": "craft", "item": "furnace", "count": 1, "table": table})
	s.waitCounts("alex", map[string]int{"furnace": 1, "cobblestone": 0})
	furnace := s.rel(-2, 0, 0)
	s.do(s.alex, nil, map[string]any{"cmd": "place", "item": "furnace", "against": s.rel(-2, -1, 0), "face": []int{0, 1, 0}})
	s.waitBlock(furnace, "furnace")
	var r struct {
		Output     string `json:"output"`
		Count      int    `json:"count"`
		Properties [4]int `json:"properties"`
	}
	s.do(s.alex, &r, map[string]any{"cmd": "smelt", "furnace": furnace, "input": "oak_log", "fuel": "oak_planks", "count": 1})
	if r.Output != "charcoal" || r.Count != 1 {
		s.t.Errorf("mineflayer took %d %s from the furnace, want 1 charcoal", r.Count, r.Output)
	}
	// A plank burns 300 ticks (the window shows 300 on the tick it catches
	// fire); cooking takes 200 ticks and the progress the window shows goes
	// up to 199, then the item is done and it starts again at 0.
	if want := [4]int{300, 300, 199, 200}; r.Properties != want {
		s.t.Errorf("highest furnace window properties mineflayer saw (fuel left, fuel time, progress, total): %v, want %v", r.Properties, want)
	}
	s.waitCounts("alex", map[string]int{"charcoal": 1, "oak_log": 1, "oak_planks": 2})
	var smelted, burnt bool
	for _, e := range s.newLog("furnace") {
		smelted = smelted || (e.Event == "smelted" && e.Input == "oak_log" && e.Output == "charcoal")
		burnt = burnt || e.Event == "fuel burnt"
	}
	if !smelted || !burnt {
		s.t.Errorf("the server's furnace log lacks the burnt fuel (%v) or the smelted log (%v)", burnt, smelted)
	}
	var f struct {
		Input, Fuel, Output *serverStack
	}
	s.query(&f, "furnace", furnace[0], furnace[1], furnace[2])
	if f.Input != nil || f.Fuel != nil || f.Output != nil {
		s.t.Errorf("the furnace still holds input %+v fuel %+v output %+v", f.Input, f.Fuel, f.Output)
	}
}

func useChest(s *scene) {
	s.command("give alex chest 1")
	s.waitCounts("alex", map[string]int{"chest": 1})
	chest := s.rel(0, 0, -3)
	s.do(s.alex, nil, map[string]any{"cmd": "place", "item": "chest", "against": s.rel(0, -1, -3), "face": []int{0, 1, 0}})
	s.waitBlock(chest, "chest")
	s.do(s.alex, nil, map[string]any{"cmd": "chest", "pos": chest, "deposit": [][]any{{"oak_planks", 2}, {"charcoal", 1}}, "withdraw": [][]any{{"oak_planks", 1}}})
	s.waitCounts("alex", map[string]int{"oak_planks": 1, "charcoal": 0})
	var c struct {
		Slots []serverStack `json:"slots"`
	}
	s.query(&c, "chest", chest[0], chest[1], chest[2])
	got := map[string]int{}
	for _, st := range c.Slots {
		got[st.Name] += st.Count
	}
	if got["oak_planks"] != 1 || got["charcoal"] != 1 || len(got) != 2 {
		s.t.Errorf("the server's chest holds %v, want 1 oak_planks and 1 charcoal", got)
	}
	// Reopened, the chest still holds them.
	var again struct {
		Before [][]any `json:"before"`
	}
	s.do(s.alex, &again, map[string]any{"cmd": "chest", "pos": chest})
	if fmt.Sprint(again.Before) != "[[oak_planks 1] [charcoal 1]]" && fmt.Sprint(again.Before) != "[[charcoal 1] [oak_planks 1]]" {
		s.t.Errorf("reopened, mineflayer sees the chest holding %v", again.Before)
	}
}

func eat(s *scene) {
	s.command("survival food alex 10 0")
	s.command("give alex bread 2")
	s.waitCounts("alex", map[string]int{"bread": 2})
	var r struct {
		Food       int     `json:"food"`
		Saturation float64 `json:"saturation"`
		Count      int     `json:"count"`
	}
	s.do(s.alex, &r, map[string]any{"cmd": "consume", "item": "bread"})
	var p serverPlayer
	s.query(&p, "player", "alex")
	if p.Food != 15 || p.Saturation != 6 {
		s.t.Errorf("after bread the server has food %d saturation %v, want 15 and 6", p.Food, p.Saturation)
	}
	if r.Food != 15 || r.Saturation != 6 {
		s.t.Errorf("after bread mineflayer has food %d saturation %v, want 15 and 6", r.Food, r.Saturation)
	}
	s.waitCounts("alex", map[string]int{"bread": 1})
	var eaten *logEntry
	for _, e := range s.newLog("eat") {
		e := e
		if e.Verdict == "eaten" {
			eaten = &e
		}
	}
	if eaten == nil || eaten.Ticks != 32 {
		s.t.Errorf("the server's log of eating: %+v, want bread eaten after 32 ticks", eaten)
	}
}

// useBlocks places a door (both halves), opens it, and flips a lever and a
// button (which lets go after 20 ticks, stone).
func useBlocks(s *scene) {
	s.command("give alex oak_door 1")
	s.waitCounts("alex", map[string]int{"oak_door": 1})
	door := s.rel(1, 0, -1)
	s.do(s.alex, nil, map[string]any{"cmd": "place", "item": "oak_door", "against": s.rel(1, -1, -1), "face": []int{0, 1, 0}})
	lower := s.waitBlock(door, "oak_door")
	upper := s.waitBlock([3]int{door[0], door[1] + 1, door[2]}, "oak_door")
	if lower.Properties["half"] != "lower" || upper.Properties["half"] != "upper" {
		s.t.Errorf("the door's halves are %v and %v, want lower and upper", lower.Properties["half"], upper.Properties["half"])
	}
	type used struct {
		After map[string]any `json:"after"`
	}
	var r used
	s.do(s.alex, &r, map[string]any{"cmd": "activate", "pos": door})
	if r.After["open"] != true {
		s.t.Errorf("mineflayer sees the door %v after a right-click, want open", r.After)
	}
	s.eventually("both halves of the door are open", func() bool {
		lower = s.waitBlock(door, "oak_door")
		upper = s.waitBlock([3]int{door[0], door[1] + 1, door[2]}, "oak_door")
		return lower.Properties["open"] == true && upper.Properties["open"] == true
	}, func() string { return fmt.Sprint(lower.Properties, upper.Properties) })

	// A lever and a button placed from items (as /setblock would give the
	// first state, which is powered).
	s.command("give alex lever 1")
	s.command("give alex stone_button 1")
	s.waitCounts("alex", map[string]int{"lever": 1, "stone_button": 1})
	lever := s.rel(-1, 0, -1)
	s.do(s.alex, nil, map[string]any{"cmd": "place", "item": "lever", "against": s.rel(-1, -1, -1), "face": []int{0, 1, 0}})
	if b := s.waitBlock(lever, "lever"); b.Properties["powered"] != false {
		s.t.Fatalf("a placed lever is %v, want unpowered", b.Properties)
	}
	var flip used
	s.do(s.alex, &flip, map[string]any{"cmd": "activate", "pos": lever})
	if b := s.waitBlock(lever, "lever"); b.Properties["powered"] != true || flip.After["powered"] != true {
		s.t.Errorf("the lever after a right-click: server %v, mineflayer %v; want powered", b.Properties, flip.After)
	}

	button := s.rel(-1, 0, -2)
	s.do(s.alex, nil, map[string]any{"cmd": "place", "item": "stone_button", "against": s.rel(-1, -1, -2), "face": []int{0, 1, 0}})
	s.waitBlock(button, "stone_button")
	var start struct {
		Tick int `json:"tick"`
	}
	s.query(&start, "tick")
	var press used
	s.do(s.alex, &press, map[string]any{"cmd": "activate", "pos": button})
	if press.After["powered"] != true {
		s.t.Errorf("mineflayer sees the button %v after a press, want powered", press.After)
	}
	var b serverBlock
	var now struct {
		Tick int `json:"tick"`
	}
	s.eventually("the button lets go", func() bool {
		b = s.waitBlock(button, "stone_button")
		s.query(&now, "tick")
		return b.Properties["powered"] == false
	}, func() string { return fmt.Sprint(b.Properties) })
	if now.Tick-start.Tick < 20 {
		s.t.Errorf("the stone button let go %d ticks after the press request, want at least 20", now.Tick-start.Tick)
	}
}

func fightZombie(s *scene) {
	s.command("give alex stone_sword 1")
	s.waitCounts("alex", map[string]int{"stone_sword": 1})
	s.do(s.alex, nil, map[string]any{"cmd": "equip", "item": "stone_sword"})
	z := s.rel(5, 0, 1)
	s.command(fmt.Sprintf("summon zombie %d.5 %d %d.5", z[0], z[1], z[2]))
	// The zombie walks over and hits first.
	var mark packets
	s.do(s.alex, &mark, map[string]any{"cmd": "packets", "mark": 1 << 30})
	var hurt struct {
		Health float64 `json:"health"`
	}
	s.do(s.alex, &hurt, map[string]any{"cmd": "waitHurt"})
	var hit *logEntry
	for _, e := range s.newLog("hurt") {
		e := e
		if e.Victim == "alex" && e.Attacker == "zombie" {
			hit = &e
			break
		}
	}
	if hit == nil {
		s.t.Fatalf("mineflayer lost health (%v) but the server logged no zombie hit", hurt.Health)
	}
	// flying-squid's test server runs at difficulty 1 (easy): 3 -> min(3/2+1, 3).
	if hit.Amount != 2.5 || hit.Type != "mob_attack" {
		s.t.Errorf("the zombie hit for %v (%s), want 2.5 mob_attack on easy", hit.Amount, hit.Type)
	}
	var got packets
	s.do(s.alex, &got, map[string]any{"cmd": "packets", "mark": mark.Mark, "names": []string{"damage_event", "hurt_animation", "update_health"}})
	var damage, animation, health bool
	for _, p := range got.Packets {
		switch p.Name {
		case "damage_event":
			damage = damage || (p.EntityID == hit.VictimID && p.SourceTypeID == hit.TypeID && p.SourceCauseID == hit.AttackerID+1 && p.SourceDirectID == hit.AttackerID+1)
		case "hurt_animation":
			animation = animation || p.EntityID == hit.VictimID
		case "update_health":
			health = health || p.Health == 17.5
		}
	}
	if !damage || !animation || !health {
		s.t.Errorf("mineflayer got %+v; want damage_event (mob_attack from the zombie), hurt_animation and update_health 17.5", got.Packets)
	}
	var r struct {
		Hits int  `json:"hits"`
		Dead bool `json:"dead"`
	}
	s.do(s.alex, &r, map[string]any{"cmd": "attack", "entity": "zombie"})
	if !r.Dead {
		s.t.Errorf("mineflayer never saw the zombie die (%d hits)", r.Hits)
	}
	var mobs []mob
	s.query(&mobs, "entities")
	died := false
	for _, e := range s.newLog("") {
		if e.Kind == "death" && e.Victim == "zombie" && e.Killer == "alex" {
			died = true
		}
	}
	if !died {
		s.t.Errorf("the server did not log the zombie killed by alex; mobs: %+v", mobs)
	}
	for _, m := range mobs {
		if !m.Dead {
			s.t.Errorf("the server still has a live zombie: %+v", m)
		}
	}
	var p serverPlayer
	s.query(&p, "player", "alex")
	if p.Health <= 0 || p.Health >= 20 {
		s.t.Errorf("after the fight alex has %v health on the server, want hurt but alive", p.Health)
	}
	s.t.Logf("alex: %v health after %d hits on the zombie", p.Health, r.Hits)
}

func tossToPlayer(s *scene) {
	steve := peertest.StartSurvivor(s.t, s.srv.Server, "steve")
	s.command("give alex apple 3")
	s.waitCounts("alex", map[string]int{"apple": 3})
	// Steve stands three blocks from alex, who throws at his feet (the way
	// south is clear; east is the crafting table).
	target := s.rel(0, 0, 3)
	var p serverPlayer
	s.eventually("steve has joined", func() bool {
		s.query(&p, "player", "steve")
		return p.Joined
	}, func() string { return "" })
	s.command(fmt.Sprintf("survival tp steve %d.5 %d %d.5", target[0], target[1], target[2]))
	s.command(fmt.Sprintf("survival tp alex %d.5 %d %d.5", s.at[0], s.at[1], s.at[2]))
	s.eventually("steve stands where he was sent", func() bool {
		s.query(&p, "player", "steve")
		return int(floor(p.Pos[0])) == target[0] && int(floor(p.Pos[2])) == target[2] && !p.SendingChunks
	}, func() string { return fmt.Sprint(p.Pos) })
	s.do(s.alex, nil, map[string]any{"cmd": "toss", "item": "apple", "count": 1, "at": []float64{float64(target[0]) + 0.5, float64(target[1]) + 0.5, float64(target[2]) + 0.5}})
	var inv serverInventory
	s.eventually("steve picks up the apple", func() bool {
		inv = s.inventory("steve")
		return inv.Counts["apple"] == 1
	}, func() string {
		var items, alex, steve, drops, pickups any
		s.query(&items, "items")
		s.query(&alex, "player", "alex")
		s.query(&steve, "player", "steve")
		s.query(&drops, "log", "drop")
		s.query(&pickups, "log", "pickup", s.seen)
		return fmt.Sprintf("steve has %v; items on the ground: %v; alex %v; steve %v; drops %v; pick-ups %v", inv.Counts, items, alex, steve, drops, pickups)
	})
	s.do(steve, nil, map[string]any{"cmd": "waitItem", "item": "apple", "count": 1})
	s.waitCounts("alex", map[string]int{"apple": 2})
	var picked bool
	for _, e := range s.newLog("pickup") {
		if e.Player == "steve" && e.Item == "apple" && e.Thrower == "alex" {
			picked = true
		}
	}
	if !picked {
		s.t.Errorf("the server did not log steve picking up alex's apple")
	}
}

// TestSurvivalBreakTimesAgainstMineflayer compares the plugin's break time
// with mineflayer's (prismarine-block's Block.digTime, what bot.dig waits)
// for every block of each version with every tool tier, on the ground, in
// the air, in water, with efficiency, haste and mining fatigue
// (testdata/peers/survival/breaktimes.js). Every difference must have a
// known reason: the game's float arithmetic, or a place where
// minecraft-data's block materials, which mineflayer uses, differ from the
// game's tool rules.
func TestSurvivalBreakTimesAgainstMineflayer(t *testing.T) {
	peertest.NodeModules(t)
	for _, version := range survivalVersions {
		t.Run(version, func(t *testing.T) {
			cmd := exec.Command("node", "survival/breaktimes.js", version)
			cmd.Dir = peertest.PeersDir(t)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("breaktimes.js %s: %v", version, err)
			}
			var r struct {
				Compared    int            `json:"compared"`
				Agree       int            `json:"agree"`
				Reasons     map[string]int `json:"reasons"`
				Differences []struct {
					Block      string  `json:"block"`
					Tool       string  `json:"tool"`
					Condition  string  `json:"condition"`
					Plugin     float64 `json:"plugin"`
					Mineflayer float64 `json:"mineflayer"`
					Reason     string  `json:"reason"`
				} `json:"differences"`
			}
			if err := json.Unmarshal(out, &r); err != nil {
				t.Fatalf("breaktimes.js %s printed %.200s: %v", version, out, err)
			}
			if r.Compared < 100000 || r.Agree < r.Compared*9/10 {
				t.Errorf("compared %d cases, %d agree; want well over 100000 cases and nine in ten agreeing", r.Compared, r.Agree)
			}
			for _, d := range r.Differences {
				if d.Reason == "unexplained" {
					t.Errorf("%s with %s (%s): plugin %v ticks, mineflayer %v, and no known reason", d.Block, d.Tool, d.Condition, d.Plugin, d.Mineflayer)
				}
			}
			t.Logf("%d cases, %d agree; differences by reason: %v", r.Compared, r.Agree, r.Reasons)
		})
	}
}
