package peertest_test

import (
	"strings"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// TestChatBetweenPlayers starts a flying-squid server per version, joins two
// mineflayer players, and checks that each sees its own and the other's chat.
func TestChatBetweenPlayers(t *testing.T) {
	for _, version := range []string{"1.21.1", "1.21.3", "1.21.4"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			srv := peertest.StartServer(t, peertest.ServerOptions{Version: version, MOTD: "peertest " + version})
			if srv.Host != "127.0.0.1" || srv.Port == 0 || srv.Version != version {
				t.Fatalf("server = %+v, want 127.0.0.1, a port, version %s", srv, version)
			}
			if st := statusPing(t, srv.Addr()); st.Version.Name != version || !strings.Contains(string(st.Description), "peertest "+version) {
				t.Errorf("status = %+v %s, want version %s and the MOTD", st.Version, st.Description, version)
			}
			alex := peertest.StartPlayer(t, srv, "alex")
			steve := peertest.StartPlayer(t, srv, "steve")

			ctx, cancel := testctx.New(t)
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
