package e2e

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/mcversion"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// stayFor is how long the bot stays in the world answering keep-alives in
// each run of the matrix; BLOCKMATE_STAY overrides it (e.g. 10m for the
// by-hand soak).
func stayFor(t *testing.T) time.Duration {
	if v := os.Getenv("BLOCKMATE_STAY"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("BLOCKMATE_STAY=%q: %v", v, err)
		}
		return d
	}
	if testing.Short() {
		return 5 * time.Second
	}
	// Long enough for two keep-alive rounds of either peer.
	return 10 * time.Second
}

// matrixRun is one run of the join matrix: a release, on one peer.
type matrixRun struct {
	release peertest.Release
	flavor  string
}

func (m matrixRun) name() string {
	if m.flavor == peertest.FlavorFlyingSquid {
		return m.release.Version + "/flying-squid"
	}
	return m.release.Version + "/mpserver"
}

// joinMatrix lists the runs: every protocol of the one release list
// (mcdata.Releases) on the minecraft-protocol server, under the oldest game
// version name of that protocol, and every release flying-squid serves
// (1.21.1, 1.21.3, 1.21.4 with flying-squid 1.12.0) on flying-squid too. A
// new release in the generated list is a new run, with nothing to edit
// here.
func joinMatrix(t *testing.T) []matrixRun {
	served := map[string]peertest.Release{}
	for _, r := range peertest.Releases(t) {
		served[r.Version] = r
	}
	var runs []matrixRun
	for _, r := range mcdata.Releases() {
		rel, ok := served[r.Names[0]]
		if !ok {
			t.Fatalf("no peer serves %s (protocol %d), a release the bot speaks", r.Names[0], r.Protocol)
		}
		runs = append(runs, matrixRun{rel, peertest.FlavorMinecraftProtocol})
	}
	for _, r := range mcdata.Releases() {
		for _, name := range r.Names {
			if rel := served[name]; rel.FlyingSquid {
				runs = append(runs, matrixRun{rel, peertest.FlavorFlyingSquid})
			}
		}
	}
	return runs
}

// TestJoinEveryRelease drives the real `blockmate sidecar` into a world of
// every supported release, with a second player beside it (mineflayer
// where it joins that release, else a bare minecraft-protocol client):
// join (position, game mode, version), the code of conduct (1.21.9+,
// accepted, and the server waits for it) and a configuration dialog
// (1.21.6+), chat both ways, a third player announced and listed, a dialog
// in play (/dialog), /kill → mc_death (and mc_respawn where the peer
// respawns), staying connected, leaving, and joining again.
//
// What flying-squid 1.12.0 cannot show, and so is not asserted on it: a
// working respawn, death messages (it sends health 0 only),
// dialogs and codes of conduct (it serves no release that has them).
func TestJoinEveryRelease(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	// A run spends most of its time waiting on its peers (a run alone
	// takes about 20 s of which a few seconds are CPU), so runs go a few at
	// a time whatever -parallel says: four by default,
	// BLOCKMATE_MATRIX_PARALLEL to change it. Every wait in a run is on a
	// condition, with a bound far above what a slow machine needs.
	limit := 4
	if v := os.Getenv("BLOCKMATE_MATRIX_PARALLEL"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("BLOCKMATE_MATRIX_PARALLEL=%q is not a positive number", v)
		}
		limit = n
	}
	slots := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for _, run := range joinMatrix(t) {
		wg.Add(1)
		slots <- struct{}{}
		// t.Run may be called from several goroutines at once; each
		// returns once its run has finished.
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			t.Run(run.name(), func(t *testing.T) { testJoin(t, bin, run) })
		}()
	}
	wg.Wait()
}

const (
	conduct = "Be kind to the bot."
	welcome = "Welcome to the test world."
)

func testJoin(t *testing.T, bin string, run matrixRun) {
	r, squid := run.release, run.flavor == peertest.FlavorFlyingSquid
	opts := peertest.ServerOptions{Version: r.Version, Flavor: run.flavor}
	if !squid {
		// View distance 2 keeps the chunks cheap for a dozen servers on
		// two cores.
		opts.ViewDistance = 2
		if r.CodeOfConduct {
			opts.CodeOfConduct = conduct
		}
		if r.Dialog {
			opts.ConfigDialog = welcome
		}
	}
	srv := peertest.StartServer(t, opts)
	var alex *peertest.Player
	if squid || r.Mineflayer {
		alex = peertest.StartPlayer(t, srv, "alex")
	} else {
		alex = peertest.StartBarePlayer(t, srv, "alex")
	}
	sc := sidecartest.Start(t, bin, "--log-level", "debug")
	ctx, cancel := testctx.New(t)
	defer cancel()

	joins := 0
	join := func() {
		t.Helper()
		joins++
		rep := sc.Call(ctx, "mc_join", map[string]any{"port": srv.Port, "username": "Theo"})
		var res struct {
			Joined   bool `json:"joined"`
			Position *struct {
				X, Y, Z float64
			} `json:"position"`
			GameMode string `json:"gameMode"`
			Version  string `json:"version"`
		}
		if err := rep.Decode(&res); err != nil {
			t.Fatalf("mc_join: %v\nstderr:\n%s", err, sc.Stderr())
		}
		if !res.Joined || res.Position == nil || res.GameMode != "survival" || res.Version != r.Version {
			t.Fatalf("mc_join = %s, want joined, a position, survival, %s", rep.Result, r.Version)
		}
		if !strings.HasPrefix(string(rep.Result), `{"joined":true,"position":{`) {
			t.Errorf("mc_join's result does not lead with joined and position as the protocol document shows: %s", rep.Result)
		}
		if !squid && (math.Abs(res.Position.X-0.5) > 1 || math.Abs(res.Position.Z-0.5) > 1) {
			t.Errorf("mc_join position %+v, want mpserver's spawn (0.5, 64, 0.5)", *res.Position)
		}
		if r.CodeOfConduct {
			// The server waited for the bot's accept before it let it in.
			if _, err := srv.WaitEvent(ctx, "code_of_conduct_accepted", func(ev peertest.Event) bool { return ev.Username == "Theo" }); err != nil {
				t.Errorf("join %d: the server saw no accept of its code of conduct: %v", joins, err)
			}
		}
	}
	join()

	// What the server showed during configuration.
	if r.CodeOfConduct && !squid {
		if _, err := sc.WaitEvent(ctx, "mc_code_of_conduct", payloadHas(`{"text":"`+conduct+`","accepted":true,"untrusted":true}`)); err != nil {
			t.Errorf("no mc_code_of_conduct: %v; events %+v", err, sc.Events())
		}
	}
	if r.Dialog && !squid {
		if _, err := sc.WaitEvent(ctx, "mc_dialog", payloadHas(`"body":["`+welcome+`"]`)); err != nil {
			t.Errorf("no mc_dialog for the configuration dialog: %v; events %+v", err, sc.Events())
		}
	}
	for _, ev := range sc.Events() {
		if (ev.Name == "mc_code_of_conduct" && !r.CodeOfConduct) || (ev.Name == "mc_dialog" && !r.Dialog) {
			t.Errorf("%s at %s, which has none: %s", ev.Name, r.Version, ev.Payload)
		}
	}

	// The bot's chat reaches the second player.
	if rep := sc.Call(ctx, "mc_say", map[string]any{"message": "hello from blockmate"}); !rep.OK {
		t.Fatalf("mc_say: %s", rep.Error)
	}
	if _, err := alex.WaitChat(ctx, func(l peertest.ChatLine) bool {
		return l.Username == "Theo" && l.Message == "hello from blockmate"
	}); err != nil {
		t.Fatalf("alex did not see the bot's chat: %v; lines: %+v", err, alex.Lines())
	}
	// The second player's chat reaches the bot as an event.
	if err := alex.Chat("hi Theo"); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.WaitEvent(ctx, "mc_player_chat", payloadHas(`{"username":"alex","message":"hi Theo"`)); err != nil {
		t.Fatalf("no mc_player_chat from alex: %v; events: %+v", err, sc.Events())
	}
	var chatLog struct {
		Messages []struct{ From, Text string }
	}
	if err := sc.Call(ctx, "mc_read_chat", nil).Decode(&chatLog); err != nil {
		t.Fatal(err)
	}
	if !hasLine(chatLog.Messages, "alex", "hi Theo") || !hasLine(chatLog.Messages, "Theo", "hello from blockmate") {
		t.Errorf("mc_read_chat lacks the two lines: %+v", chatLog.Messages)
	}

	// The time of day, as the server set it: a time of day before 26.1,
	// the overworld's world clock from 26.1. mpserver sends the new time
	// before the command's reply, so it has arrived when mc_command
	// answers.
	if !squid {
		var cmd struct {
			Sent  bool
			Reply string
		}
		if err := sc.Call(ctx, "mc_command", map[string]any{"command": "/time set 13000"}).Decode(&cmd); err != nil || !strings.Contains(cmd.Reply, "13000") {
			t.Errorf("mc_command /time set = %+v, %v", cmd, err)
		}
		var st struct {
			TimeOfDay *int64 `json:"time_of_day"`
			DayCycle  string `json:"day_cycle"`
		}
		if err := sc.Call(ctx, "mc_status", nil).Decode(&st); err != nil || st.TimeOfDay == nil || *st.TimeOfDay < 13000 || *st.TimeOfDay > 13400 || st.DayCycle != "running" {
			t.Errorf("mc_status after /time set 13000: time_of_day %v, day_cycle %q, %v", ptrString(st.TimeOfDay), st.DayCycle, err)
		}
	}

	// A player who joins after the bot is announced and listed; alex,
	// there before the bot, is listed too (on flying-squid since
	// testdata/peers/gamerules.js sends the list as the game does).
	peertest.StartBarePlayer(t, srv, "cole")
	if _, err := sc.WaitEvent(ctx, "mc_player_joined", payloadHas(`{"username":"cole","untrusted":true}`)); err != nil {
		t.Fatalf("no mc_player_joined for cole: %v; events: %+v", err, sc.Events())
	}
	var players struct {
		Count   int
		Players []struct {
			Username string
			IsBot    bool `json:"is_bot"`
		}
	}
	if err := sc.Call(ctx, "mc_list_players", nil).Decode(&players); err != nil {
		t.Fatalf("mc_list_players: %v", err)
	}
	seen := map[string]bool{}
	for _, p := range players.Players {
		seen[p.Username] = true
		if p.IsBot != (p.Username == "Theo") {
			t.Errorf("mc_list_players marks %s is_bot=%v", p.Username, p.IsBot)
		}
	}
	if !seen["cole"] || !seen["Theo"] || !seen["alex"] || players.Count != len(players.Players) {
		t.Errorf("mc_list_players = %+v, want cole, the bot (Theo) and alex", players)
	}

	// A dialog in play, shown by the server's /dialog.
	if r.Dialog && !squid {
		if rep := sc.Call(ctx, "mc_command", map[string]any{"command": "/dialog Read this first."}); !rep.OK {
			t.Fatalf("mc_command /dialog: %s", rep.Error)
		}
		if _, err := sc.WaitEvent(ctx, "mc_dialog", payloadHas(`"body":["Read this first."]`)); err != nil {
			t.Errorf("no mc_dialog for /dialog: %v; events %+v", err, sc.Events())
		}
	}

	// /kill gives mc_death; mpserver respawns the bot when it asks.
	if rep := sc.Call(ctx, "mc_command", map[string]any{"command": "/kill Theo"}); !rep.OK {
		t.Fatalf("mc_command: %s", rep.Error)
	}
	death, err := sc.WaitEvent(ctx, "mc_death", nil)
	if err != nil {
		t.Fatalf("no mc_death after /kill: %v; events: %+v", err, sc.Events())
	}
	if !squid && !strings.Contains(string(death.Payload), `"message":"Theo was killed"`) {
		t.Errorf("mc_death = %s, want the server's death message", death.Payload)
	}
	var health struct {
		Health float64
		Dead   bool
	}
	if err := sc.Call(ctx, "mc_get_health", nil).Decode(&health); err != nil || !health.Dead {
		t.Errorf("mc_get_health after /kill = %+v, %v; want dead", health, err)
	}
	if !squid {
		if rep := sc.Call(ctx, "mc_respawn", nil); !rep.OK {
			t.Errorf("mc_respawn: %s", rep.Error)
		} else if _, err := sc.WaitEvent(ctx, "mc_respawned", nil); err != nil {
			t.Errorf("no mc_respawned: %v", err)
		}
	}

	// Stay connected, answering keep-alives.
	stay := stayFor(t)
	deadline := time.Now().Add(stay)
	for time.Now().Before(deadline) {
		time.Sleep(min(5*time.Second, time.Until(deadline)))
		var st struct {
			Connected bool
			State     string
		}
		// On flying-squid the bot stays dead (state "dead") until
		// mc_respawn, which flying-squid cannot do.
		if err := sc.Call(ctx, "mc_status", nil).Decode(&st); err != nil || !st.Connected || (st.State != "playing" && st.State != "dead") {
			t.Fatalf("after %v in the world: mc_status = %+v, %v; events: %+v", stay-time.Until(deadline), st, err, sc.Events())
		}
	}
	for _, ev := range sc.Events() {
		if ev.Name == "mc_disconnected" {
			t.Fatalf("disconnected while idle: %s", ev.Payload)
		}
	}

	// Leave cleanly, then join again.
	var left struct{ Left bool }
	if err := sc.Call(ctx, "mc_leave", nil).Decode(&left); err != nil || !left.Left {
		t.Fatalf("mc_leave = %+v, %v", left, err)
	}
	if _, err := sc.WaitEvent(ctx, "mc_disconnected", payloadHas(`"reason":"the bot left the world"`)); err != nil {
		t.Errorf("no mc_disconnected after mc_leave: %v", err)
	}
	if rep := sc.Call(ctx, "mc_get_position", nil); rep.OK || !strings.Contains(rep.Error, "mc_join") {
		t.Errorf("mc_get_position after leaving = %+v, want an error pointing at mc_join", rep)
	}
	join()
	var pos struct {
		Position struct{ X, Y, Z float64 }
	}
	if err := sc.Call(ctx, "mc_get_position", nil).Decode(&pos); err != nil {
		t.Fatalf("mc_get_position after joining again: %v", err)
	}
	if bad := sc.NonProtocol(); len(bad) > 0 {
		t.Errorf("stdout carried non-protocol lines: %q", bad)
	}
}

// TestJoinNewerRelease: a world on a release newer than the bot speaks
// (26.4, protocol 778, a status-only peer) is called incompatible by
// mc_ping_server and refused by mc_join, both with the instruction for
// the player: the version it runs, the newest blockmate joins, how to make
// that installation, and a new world (or a backup) rather than opening the
// world in an older game.
func TestJoinNewerRelease(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	srv := peertest.StartStatusOnlyServer(t, peertest.StatusOnlyOptions{MOTD: "A newer world"})
	sc := sidecartest.Start(t, bin)
	ctx, cancel := testctx.New(t)
	defer cancel()
	advice := mcversion.Advice("26.4", 778)
	var ping struct {
		Reachable  bool   `json:"reachable"`
		Reason     string `json:"reason"`
		Version    string `json:"version"`
		Protocol   int    `json:"protocol"`
		Compatible bool   `json:"compatible"`
		NextStep   string `json:"next_step"`
	}
	if err := sc.Call(ctx, "mc_ping_server", map[string]any{"port": srv.Port}).Decode(&ping); err != nil {
		t.Fatal(err)
	}
	if !ping.Reachable || ping.Compatible || ping.Version != "26.4" || ping.Protocol != 778 || !strings.Contains(ping.NextStep, advice) || !strings.Contains(ping.Reason, mcversion.Range()) {
		t.Errorf("mc_ping_server = %+v, want incompatible 26.4 with the advice", ping)
	}
	rep := sc.Call(ctx, "mc_join", map[string]any{"port": srv.Port})
	if rep.OK || !strings.Contains(rep.Error, advice) {
		t.Errorf("mc_join = %+v, want the advice as the error", rep)
	}
	for _, want := range []string{"26.4", mcversion.Newest(), "New installation", "new world", "back the world up first"} {
		if !strings.Contains(rep.Error, want) {
			t.Errorf("mc_join's error lacks %q: %s", want, rep.Error)
		}
	}
	if bad := sc.NonProtocol(); len(bad) > 0 {
		t.Errorf("stdout carried non-protocol lines: %q", bad)
	}
}

func ptrString(p *int64) string {
	if p == nil {
		return "absent"
	}
	return strconv.FormatInt(*p, 10)
}

func payloadHas(part string) func(json.RawMessage) bool {
	return func(p json.RawMessage) bool { return strings.Contains(string(p), part) }
}

func hasLine(lines []struct{ From, Text string }, from, text string) bool {
	for _, l := range lines {
		if l.From == from && l.Text == text {
			return true
		}
	}
	return false
}
