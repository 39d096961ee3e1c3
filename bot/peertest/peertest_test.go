package peertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/peertest"
)

// TestChatBetweenPlayers starts a flying-squid server per version, joins two
// mineflayer players, and checks that each sees its own and the other's chat.
func TestChatBetweenPlayers(t *testing.T) {
	for _, version := range []string{"1.21.1", "1.21.3", "1.21.4"} {
		t.Run(version, func(t *testing.T) {
			srv := peertest.StartServer(t, peertest.ServerOptions{Version: version, MOTD: "peertest " + version})
			if srv.Host != "127.0.0.1" || srv.Port == 0 || srv.Version != version {
				t.Fatalf("server = %+v, want 127.0.0.1, a port, version %s", srv, version)
			}
			if st := statusPing(t, srv.Addr()); st.Version.Name != version || !strings.Contains(string(st.Description), "peertest "+version) {
				t.Errorf("status = %+v %s, want version %s and the MOTD", st.Version, st.Description, version)
			}
			alex := peertest.StartPlayer(t, srv, "alex")
			steve := peertest.StartPlayer(t, srv, "steve")

			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := alex.Chat("hello from alex"); err != nil {
				t.Fatal(err)
			}
			fromAlex := func(l peertest.ChatLine) bool {
				return l.Username == "alex" && l.Message == "hello from alex"
			}
			if _, err := alex.WaitChat(ctx, fromAlex); err != nil {
				t.Fatalf("alex did not see its own chat: %v; lines: %+v", err, alex.Lines())
			}
			if _, err := steve.WaitChat(ctx, fromAlex); err != nil {
				t.Fatalf("steve did not see alex's chat: %v; lines: %+v", err, steve.Lines())
			}
			if err := steve.Chat("hi alex"); err != nil {
				t.Fatal(err)
			}
			line, err := alex.WaitChat(ctx, func(l peertest.ChatLine) bool { return strings.Contains(l.Text, "hi alex") })
			if err != nil {
				t.Fatalf("alex did not see steve's chat: %v; lines: %+v", err, alex.Lines())
			}
			if line.Username != "steve" || line.Message != "hi alex" {
				t.Errorf("line = %+v, want from steve saying %q", line, "hi alex")
			}

			// A console command reaches the players as a system line.
			if err := srv.Command("say hello from the console"); err != nil {
				t.Fatal(err)
			}
			if _, err := steve.WaitChat(ctx, func(l peertest.ChatLine) bool {
				return l.Username == "" && strings.Contains(l.Text, "hello from the console")
			}); err != nil {
				t.Fatalf("steve did not see the console's say: %v; lines: %+v", err, steve.Lines())
			}

			steve.Close()
			if err := steve.Chat("after close"); err == nil {
				t.Errorf("Chat after Close succeeded, want an error")
			}
		})
	}
}

// TestMinecraftProtocolFlavor joins two players to the small
// minecraft-protocol server at the versions flying-squid lacks and checks
// that chat is relayed with its sender, and that the status ping names the
// version asked for.
func TestMinecraftProtocolFlavor(t *testing.T) {
	for _, tc := range []struct {
		version  string
		protocol int
	}{{"1.21", 767}, {"1.21.2", 768}} {
		t.Run(tc.version, func(t *testing.T) {
			srv := peertest.StartServer(t, peertest.ServerOptions{Version: tc.version, MOTD: "mp " + tc.version, Flavor: peertest.FlavorMinecraftProtocol})
			st := statusPing(t, srv.Addr())
			if st.Version.Name != tc.version || st.Version.Protocol != tc.protocol {
				t.Errorf("status version = %+v, want %s / %d", st.Version, tc.version, tc.protocol)
			}
			if !strings.Contains(string(st.Description), "mp "+tc.version) {
				t.Errorf("status description = %s, want the MOTD %q", st.Description, "mp "+tc.version)
			}

			alex := peertest.StartPlayer(t, srv, "alex")
			steve := peertest.StartPlayer(t, srv, "steve")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := alex.Chat("hello from alex"); err != nil {
				t.Fatal(err)
			}
			for _, p := range []*peertest.Player{alex, steve} {
				line, err := p.WaitChat(ctx, func(l peertest.ChatLine) bool { return l.Message == "hello from alex" })
				if err != nil {
					t.Fatalf("%s did not see alex's chat: %v; lines: %+v", p.Username, err, p.Lines())
				}
				if line.Username != "alex" {
					t.Errorf("%s saw %+v, want it from alex", p.Username, line)
				}
			}
		})
	}
}
