package e2e

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// newestReleases are the releases TestTheNewestReleases plays: 26.1, whose
// data minecraft-data ships, as the control, and every release after it,
// whose data the generator emits from public facts (26.2 …). A newly
// emitted release joins the list by itself.
func newestReleases() []mcdata.Release {
	var out []mcdata.Release
	for _, r := range mcdata.Releases() {
		if r.Protocol >= 775 {
			out = append(out, r)
		}
	}
	return out
}

// TestTheNewestReleases drives `blockmate sidecar` on mpserver.js for the
// newest releases, where no server of the game's own is at hand: the
// status ping called compatible, the join, a position
// sync (/tp) that the server sees confirmed and the bot reports; /give, seen
// by mc_get_inventory; mc_equip of a helmet, whose put-down click carries
// the helmet on the cursor as a hashed stack, which minecraft-protocol
// parses from the release's definition and must find the given item in; a
// dirt block placed with mc_place (the server's block and event) and dug
// with mc_dig (the server breaks it on the finished dig and the bot sees
// air). The encoding on the server's side is minecraft-protocol's, so these
// layouts are checked by code we did not write.
func TestTheNewestReleases(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	for _, rel := range newestReleases() {
		t.Run(rel.Names[0], func(t *testing.T) {
			t.Parallel()
			srv := peertest.StartServer(t, peertest.ServerOptions{Flavor: peertest.FlavorMinecraftProtocol, Version: rel.Names[0], ViewDistance: 4})
			sc := sidecartest.Start(t, bin)
			ctx, cancel := testctx.New(t)
			defer cancel()
			s := seeing{t, sc, ctx}

			var ping struct {
				Reachable  bool   `json:"reachable"`
				Compatible bool   `json:"compatible"`
				Version    string `json:"version"`
				Protocol   int    `json:"protocol"`
			}
			// A node server just started on a loaded machine can miss the
			// status ping's few seconds; ask until it answers.
			s.until("the server answering its status ping", func() bool {
				s.call("mc_ping_server", map[string]any{"port": srv.Port}, &ping)
				return ping.Reachable
			})
			if !ping.Compatible || ping.Version != rel.Names[0] || ping.Protocol != rel.Protocol {
				t.Errorf("mc_ping_server = %+v, want %s (%d), compatible", ping, rel.Names[0], rel.Protocol)
			}
			var joined struct {
				Joined  bool
				Version string
			}
			s.call("mc_join", map[string]any{"port": srv.Port, "username": "Theo"}, &joined)
			if !joined.Joined || joined.Version != rel.Names[0] {
				t.Fatalf("mc_join = %+v, want joined on %s", joined, rel.Names[0])
			}
			s.until("the chunks around the spawn", func() bool { return s.figures().ChunksLoaded >= 9 })

			// A position sync: the server teleports the bot, the bot
			// confirms it and reports the new position.
			var pos struct{ Position xyz }
			s.call("mc_get_position", nil, &pos)
			dest := xyz{X: math.Floor(pos.Position.X) + 3.5, Y: pos.Position.Y, Z: math.Floor(pos.Position.Z) + 0.5}
			if err := srv.Command("tp Theo " + ftoa(dest.X) + " " + ftoa(dest.Y) + " " + ftoa(dest.Z)); err != nil {
				t.Fatal(err)
			}
			if _, err := srv.WaitEvent(ctx, "teleport_confirmed", func(e peertest.Event) bool { return e.Username == "Theo" }); err != nil {
				t.Fatalf("the server saw no teleport confirmed: %v", err)
			}
			s.until("the bot at the teleport's destination", func() bool {
				s.call("mc_get_position", nil, &pos)
				return math.Abs(pos.Position.X-dest.X) < 0.01 && math.Abs(pos.Position.Z-dest.Z) < 0.01
			})

			// An inventory: /give (a cobblestone into the held slot, so
			// that the helmet lands beside it), then mc_equip of the
			// helmet: a pick-up and a put-down, whose second click
			// carries the helmet on the cursor as a hashed stack, which
			// the server parses from the release's definition.
			for _, give := range []string{"give Theo cobblestone 1", "give Theo leather_helmet 1"} {
				if err := srv.Command(give); err != nil {
					t.Fatal(err)
				}
			}
			s.until("the bot has the helmet", func() bool { return botTotal(s, "leather_helmet") == 1 && botTotal(s, "cobblestone") == 1 })
			var eq struct {
				Equipped bool   `json:"equipped"`
				Reason   string `json:"reason"`
			}
			s.call("mc_equip", map[string]any{"item": "leather_helmet", "slot": "head"}, &eq)
			if !eq.Equipped {
				t.Fatalf("mc_equip leather_helmet to the head = %+v; the server saw clicks %+v", eq, srv.Events("click"))
			}
			type hashed struct {
				Name  string `json:"name"`
				Count int    `json:"count"`
			}
			var carried []hashed
			for _, ev := range srv.Events("click") {
				var c struct {
					Cursor *hashed `json:"cursor"`
				}
				if err := json.Unmarshal(ev.Data, &c); err != nil {
					t.Fatalf("click event %s: %v", ev.Data, err)
				}
				if c.Cursor != nil {
					carried = append(carried, *c.Cursor)
				}
			}
			if len(carried) != 1 || carried[0] != (hashed{"leather_helmet", 1}) {
				t.Errorf("the clicks carried %+v as minecraft-protocol parsed their hashed stacks; want one leather_helmet", carried)
			}
			if err := srv.Command("give Theo dirt 3"); err != nil {
				t.Fatal(err)
			}
			s.until("the bot has the dirt", func() bool { return botTotal(s, "dirt") == 3 })

			// A place and a dig, answered by the server's blocks.
			s.call("mc_get_position", nil, &pos)
			target := [3]int{int(math.Floor(pos.Position.X)) + 2, int(math.Floor(pos.Position.Y)), int(math.Floor(pos.Position.Z))}
			var placed struct {
				Placed bool   `json:"placed"`
				Block  string `json:"block"`
				Reason string `json:"reason"`
			}
			s.call("mc_place", map[string]any{"block": "dirt", "x": target[0], "y": target[1], "z": target[2]}, &placed)
			if !placed.Placed || placed.Block != "dirt" {
				t.Fatalf("mc_place dirt at %v = %+v", target, placed)
			}
			if _, err := srv.WaitEvent(ctx, "place", func(e peertest.Event) bool { return e.Name == "dirt" && at(e, target) }); err != nil {
				t.Fatalf("the server placed no dirt at %v: %v", target, err)
			}
			var dug struct {
				Dug    bool   `json:"dug"`
				Block  string `json:"block"`
				Reason string `json:"reason"`
			}
			s.call("mc_dig", map[string]any{"x": target[0], "y": target[1], "z": target[2]}, &dug)
			if !dug.Dug || dug.Block != "dirt" {
				t.Fatalf("mc_dig dirt at %v = %+v", target, dug)
			}
			if _, err := srv.WaitEvent(ctx, "dig", func(e peertest.Event) bool { return e.Name == "dirt" && at(e, target) }); err != nil {
				t.Fatalf("the server broke no dirt at %v: %v", target, err)
			}
		})
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func at(e peertest.Event, p [3]int) bool {
	return e.X != nil && e.Y != nil && e.Z != nil && int(*e.X) == p[0] && int(*e.Y) == p[1] && int(*e.Z) == p[2]
}

// botTotal is how many of an item mc_get_inventory says the bot carries.
func botTotal(s seeing, item string) int {
	s.t.Helper()
	var inv struct {
		Totals []struct {
			Item  string `json:"item"`
			Count int    `json:"count"`
		} `json:"totals"`
	}
	s.call("mc_get_inventory", nil, &inv)
	for _, e := range inv.Totals {
		if e.Item == item {
			return e.Count
		}
	}
	return 0
}
