package peertest_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// TestMinecraftProtocolServer proves mpserver.js is a working peer at every
// release it serves, with clients we did not write: mineflayer (where it
// joins that release) and a bare minecraft-protocol client. For each
// release it checks the status ping, a code of conduct and a dialog during
// configuration where the protocol has them, chat both ways, the join and
// leave lines, /msg, /dialog, /kill with its death message and the respawn,
// and, through mineflayer's world, that the chunks decode, that /setblock
// changes a block and that /tp unloads the old chunks and loads new ones.
func TestMinecraftProtocolServer(t *testing.T) {
	for _, r := range peertest.Releases(t) {
		t.Run(r.Version, func(t *testing.T) {
			t.Parallel()
			// View distance 2 keeps the chunks sent (25 a player) cheap for
			// fifteen servers on two cores.
			opts := peertest.ServerOptions{Version: r.Version, MOTD: "mp " + r.Version, Flavor: peertest.FlavorMinecraftProtocol, ViewDistance: 2}
			const conduct = "Be kind to the bot."
			const welcome = "Welcome to the test world."
			if r.CodeOfConduct {
				opts.CodeOfConduct = conduct
			}
			if r.Dialog {
				opts.ConfigDialog = welcome
			}
			srv := peertest.StartServer(t, opts)
			st := statusPing(t, srv.Addr())
			if st.Version.Name != r.Version || st.Version.Protocol != r.Protocol {
				t.Errorf("status version = %+v, want %s / %d", st.Version, r.Version, r.Protocol)
			}
			if !strings.Contains(string(st.Description), "mp "+r.Version) {
				t.Errorf("status description = %s, want the MOTD %q", st.Description, "mp "+r.Version)
			}

			var alex *peertest.Player
			if r.Mineflayer {
				alex = peertest.StartPlayer(t, srv, "alex")
			} else {
				alex = peertest.StartBarePlayer(t, srv, "alex")
			}
			bob := peertest.StartBarePlayer(t, srv, "bob")
			ctx, cancel := testctx.New(t)
			defer cancel()

			for _, p := range []*peertest.Player{alex, bob} {
				checkConfiguration(ctx, t, srv, p, r, conduct, welcome)
			}
			if _, err := alex.WaitChat(ctx, func(l peertest.ChatLine) bool { return l.Username == "" && l.Text == "bob joined the game" }); err != nil {
				t.Errorf("alex did not see bob join: %v; lines %+v", err, alex.Lines())
			}

			// Chat both ways: each sees the other's line, with its sender.
			say(ctx, t, alex, "hello from alex", alex, bob)
			say(ctx, t, bob, "hi alex", alex, bob)
			if ev, err := srv.WaitEvent(ctx, "chat", func(ev peertest.Event) bool { return ev.Message == "hi alex" }); err != nil || ev.Username != "bob" {
				t.Errorf("the server's chat event = %+v, %v; want bob saying hi alex", ev, err)
			}

			// A whisper: bob gets it from alex, alex a confirmation.
			if err := alex.Chat("/msg bob psst"); err != nil {
				t.Fatal(err)
			}
			if _, err := bob.WaitChat(ctx, func(l peertest.ChatLine) bool { return l.Username == "alex" && l.Message == "psst" }); err != nil {
				t.Errorf("bob did not get alex's whisper: %v; lines %+v", err, bob.Lines())
			}
			if alex.Client == peertest.ClientMineflayer {
				// mineflayer renders the chat type, so the line shows whom alex whispered to.
				if _, err := alex.WaitChat(ctx, func(l peertest.ChatLine) bool { return l.Text == "You whisper to bob: psst" }); err != nil {
					t.Errorf("alex did not see the whisper's confirmation: %v; lines %+v", err, alex.Lines())
				}
			}

			// An unknown command gets vanilla's red line.
			if err := bob.Chat("/frobnicate"); err != nil {
				t.Fatal(err)
			}
			if _, err := bob.WaitChat(ctx, func(l peertest.ChatLine) bool { return strings.HasPrefix(l.Text, "Unknown or incomplete command") }); err != nil {
				t.Errorf("bob got no unknown-command line: %v; lines %+v", err, bob.Lines())
			}

			if r.Dialog {
				if err := alex.Chat("/dialog Read this first."); err != nil {
					t.Fatal(err)
				}
				ev, err := alex.WaitEvent(ctx, "dialog", func(ev peertest.Event) bool { return ev.Phase == "play" })
				if err != nil {
					t.Errorf("alex got no dialog in play: %v", err)
				} else if ev.Kind != "minecraft:notice" || ev.Text != "Read this first." || ev.Title == "" {
					t.Errorf("dialog = %+v, want a notice with a title saying %q", ev, "Read this first.")
				}
			} else {
				if err := alex.Chat("/dialog Read this first."); err != nil {
					t.Fatal(err)
				}
				if _, err := alex.WaitChat(ctx, func(l peertest.ChatLine) bool { return strings.HasPrefix(l.Text, "Unknown or incomplete command") }); err != nil {
					t.Errorf("/dialog before 1.21.6 should be an unknown command: %v; lines %+v", err, alex.Lines())
				}
			}

			checkDeath(ctx, t, srv, alex, bob)
			if alex.Client == peertest.ClientMineflayer {
				checkWorld(ctx, t, alex, bob)
			}

			// Leaving: the others see the vanilla line and the server reports it.
			bob.Close()
			if _, err := alex.WaitChat(ctx, func(l peertest.ChatLine) bool { return l.Username == "" && l.Text == "bob left the game" }); err != nil {
				t.Errorf("alex did not see bob leave: %v; lines %+v", err, alex.Lines())
			}
			if _, err := srv.WaitEvent(ctx, "leave", func(ev peertest.Event) bool { return ev.Username == "bob" }); err != nil {
				t.Errorf("the server reported no leave for bob: %v", err)
			}
		})
	}
}

// checkConfiguration checks what a player got during configuration: the
// code of conduct (which minecraft-protocol accepts, and the server must
// have waited for) and the dialog, where the release has them.
func checkConfiguration(ctx context.Context, t *testing.T, srv *peertest.Server, p *peertest.Player, r peertest.Release, conduct, welcome string) {
	t.Helper()
	if r.CodeOfConduct {
		if ev, err := p.WaitEvent(ctx, "code_of_conduct", nil); err != nil || ev.Text != conduct {
			t.Errorf("%s: code of conduct = %+v, %v; want %q", p.Username, ev, err, conduct)
		}
		if _, err := srv.WaitEvent(ctx, "code_of_conduct_accepted", func(ev peertest.Event) bool { return ev.Username == p.Username }); err != nil {
			t.Errorf("the server saw no acceptance of the code of conduct from %s: %v", p.Username, err)
		}
	} else if evs := p.Events("code_of_conduct"); len(evs) > 0 {
		t.Errorf("%s got a code of conduct at %s, which has none: %+v", p.Username, r.Version, evs)
	}
	if r.Dialog {
		ev, err := p.WaitEvent(ctx, "dialog", func(ev peertest.Event) bool { return ev.Phase == "configuration" })
		if err != nil || ev.Text != welcome || ev.Kind != "minecraft:notice" {
			t.Errorf("%s: configuration dialog = %+v, %v; want a notice saying %q", p.Username, ev, err, welcome)
		}
	}
	if _, err := srv.WaitEvent(ctx, "join", func(ev peertest.Event) bool { return ev.Username == p.Username }); err != nil {
		t.Errorf("the server reported no join for %s: %v", p.Username, err)
	}
	if r.CodeOfConduct {
		// Configuration must wait for the acceptance: the join comes after it.
		order := map[string]int{}
		for i, ev := range srv.Events("") {
			if _, seen := order[ev.Event]; !seen && ev.Username == p.Username {
				order[ev.Event] = i
			}
		}
		if order["code_of_conduct_accepted"] > order["join"] {
			t.Errorf("%s joined before accepting the code of conduct (server events %+v)", p.Username, order)
		}
	}
}

// say has from say text and checks that every player in to sees it, sent
// by from.
func say(ctx context.Context, t *testing.T, from *peertest.Player, text string, to ...*peertest.Player) {
	t.Helper()
	if err := from.Chat(text); err != nil {
		t.Fatal(err)
	}
	for _, p := range to {
		line, err := p.WaitChat(ctx, func(l peertest.ChatLine) bool { return l.Message == text })
		if err != nil {
			t.Errorf("%s did not see %s's %q: %v; lines %+v", p.Username, from.Username, text, err, p.Lines())
			continue
		}
		if line.Username != from.Username {
			t.Errorf("%s saw %+v, want it from %s", p.Username, line, from.Username)
		}
	}
}

// checkDeath runs /kill: the victim gets vanilla's death message and
// respawns at the spawn; the other player sees the message in chat.
func checkDeath(ctx context.Context, t *testing.T, srv *peertest.Server, victim, other *peertest.Player) {
	t.Helper()
	if err := victim.Chat("/kill"); err != nil {
		t.Fatal(err)
	}
	want := victim.Username + " was killed"
	if ev, err := victim.WaitEvent(ctx, "death", nil); err != nil || ev.Message != want {
		t.Errorf("%s: death = %+v, %v; want %q", victim.Username, ev, err, want)
	}
	ev, err := victim.WaitEvent(ctx, "respawn", nil)
	if err != nil {
		t.Errorf("%s did not respawn: %v", victim.Username, err)
	} else if ev.X == nil || math.Abs(*ev.X-0.5) > 0.01 || math.Abs(*ev.Y-64) > 0.5 || math.Abs(*ev.Z-0.5) > 0.01 {
		t.Errorf("%s respawned at %+v, want the spawn (0.5, 64, 0.5)", victim.Username, ev)
	}
	if _, err := srv.WaitEvent(ctx, "respawn", func(ev peertest.Event) bool { return ev.Username == victim.Username }); err != nil {
		t.Errorf("the server reported no respawn: %v", err)
	}
	if _, err := other.WaitChat(ctx, func(l peertest.ChatLine) bool { return l.Username == "" && l.Text == want }); err != nil {
		t.Errorf("%s did not see %q: %v; lines %+v", other.Username, want, err, other.Lines())
	}
}

// checkWorld reads blocks through mineflayer, which decodes the chunks with
// prismarine-chunk: the world's features are where world.js puts them,
// /setblock changes a block, and /tp far away unloads the chunks around the
// spawn and loads those around the destination. It also checks that p sees
// other as a player entity near the spawn, and no longer once far away.
func checkWorld(ctx context.Context, t *testing.T, p, other *peertest.Player) {
	t.Helper()
	name, x, y, z, err := p.Entity(ctx, other.Username)
	if err != nil {
		t.Fatal(err)
	}
	if name != "player" || math.Abs(x-0.5) > 2 || math.Abs(y-64) > 2 || math.Abs(z-0.5) > 2 {
		t.Errorf("%s sees %s as %q at %v %v %v, want a player near the spawn", p.Username, other.Username, name, x, y, z)
	}
	blockIs := func(x, y, z int, want string) {
		t.Helper()
		got, err := p.BlockAt(ctx, x, y, z)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("block at %d %d %d = %q, want %q", x, y, z, got, want)
		}
	}
	for _, b := range []struct {
		x, y, z int
		name    string
	}{{0, 63, 0, "grass_block"}, {0, 61, 0, "dirt"}, {0, 10, 0, "stone"}, {0, -64, 0, "bedrock"}, {0, 64, 0, "air"},
		{5, 64, 5, "oak_log"}, {5, 67, 4, "oak_leaves"}, {-4, 62, -4, "water"}, {3, 64, -3, "oak_slab"}, {4, 64, -3, "oak_stairs"}, {2, 59, 2, "coal_ore"}} {
		blockIs(b.x, b.y, b.z, b.name)
	}
	if err := p.Chat("/setblock 1 64 1 minecraft:gold_block"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.WaitChat(ctx, func(l peertest.ChatLine) bool { return l.Text == "Changed the block at 1, 64, 1" }); err != nil {
		t.Fatalf("no /setblock confirmation: %v; lines %+v", err, p.Lines())
	}
	blockIs(1, 64, 1, "gold_block")

	if err := p.Chat("/tp 1000 70 1000"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.WaitChat(ctx, func(l peertest.ChatLine) bool { return strings.HasPrefix(l.Text, "Teleported alex to 1000.5") }); err != nil {
		t.Fatalf("no /tp confirmation: %v; lines %+v", err, p.Lines())
	}
	// The block after the confirmation is answered after the chunks that
	// came with the teleport, as mineflayer handles packets in order.
	blockIs(1000, 63, 1000, "grass_block")
	blockIs(1, 64, 1, "") // unloaded
	x, _, z, err = p.Position(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(x-1000.5) > 1 || math.Abs(z-1000.5) > 1 {
		t.Errorf("after /tp alex is at x=%v z=%v, want about 1000.5, 1000.5", x, z)
	}
	if name, _, _, _, err := p.Entity(ctx, other.Username); err != nil || name != "" {
		t.Errorf("1000 blocks away %s still sees %s as %q (%v), want no entity", p.Username, other.Username, name, err)
	}
}

// TestReleasesCoverTheBot checks that the peers serve every release the
// bot's generated data covers: a protocol the bot speaks and no peer serves
// would leave it untested.
func TestReleasesCoverTheBot(t *testing.T) {
	served := map[string]bool{}
	for _, r := range peertest.Releases(t) {
		served[r.Version] = true
	}
	for _, r := range mcdata.Releases() {
		for _, name := range r.Names {
			if !served[name] {
				t.Errorf("the bot speaks %s (protocol %d) but no peer serves it", name, r.Protocol)
			}
		}
	}
}

// TestStatusOnlyServer checks the stand-in for a world on a newer release:
// the status ping announces 26.4 (protocol 778), and a login from the
// newest release the peers serve is refused with vanilla's outdated-client
// message naming 26.4.
func TestStatusOnlyServer(t *testing.T) {
	srv := peertest.StartStatusOnlyServer(t, peertest.StatusOnlyOptions{MOTD: "a newer world"})
	st := statusPing(t, srv.Addr())
	if st.Version.Name != "26.4" || st.Version.Protocol != 778 {
		t.Errorf("status version = %+v, want 26.4 / 778", st.Version)
	}
	if !strings.Contains(string(st.Description), "a newer world") {
		t.Errorf("status description = %s, want the MOTD", st.Description)
	}
	releases := peertest.Releases(t)
	newest := releases[len(releases)-1]
	reason := loginRefusal(t, srv.Addr(), newest.Protocol, "Theo")
	var got struct {
		Translate string   `json:"translate"`
		With      []string `json:"with"`
	}
	if err := json.Unmarshal([]byte(reason), &got); err != nil {
		t.Fatalf("login disconnect reason %q is not a text component: %v", reason, err)
	}
	if got.Translate != "multiplayer.disconnect.outdated_client" || len(got.With) != 1 || got.With[0] != "26.4" {
		t.Errorf("login disconnect = %s, want multiplayer.disconnect.outdated_client with 26.4", reason)
	}
}
