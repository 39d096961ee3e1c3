package link

import (
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// linked starts a session with the link alone attached against a scripted
// server, and sends the handshake and login start.
func linked(t *testing.T, proto int32, script func(f *fakeserver.Server)) *core.Session {
	t.Helper()
	port := fakeserver.Start(t, proto, script)
	s := core.New(fakeserver.Dial(t, port), codec.For(proto), core.Options{Log: fakeserver.Log(), Username: "Theo"})
	l := Attach(s, registry.Attach(s), Options{Host: "127.0.0.1", Port: port})
	if err := l.Login(); err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(s.Leave)
	return s
}

func ended(t *testing.T, s *core.Session) core.EndReason {
	t.Helper()
	select {
	case <-s.Done():
		return s.End()
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end")
		return core.EndReason{}
	}
}

// TestLoginRefusals: an online-mode server, and a server that answers a
// plugin request and a cookie request and then refuses the bot, each end
// the session with a sentence.
func TestLoginRefusals(t *testing.T) {
	cases := []struct {
		name   string
		script func(t *testing.T, f *fakeserver.Server)
		want   string
	}{
		{"encryption", func(t *testing.T, f *fakeserver.Server) {
			f.Expect(mcdata.ServerboundLoginLoginStart)
			f.Send(mcdata.ClientboundLoginEncryptionBegin, func(w *wire.Writer) {
				w.String("")
				w.ByteArray([]byte{1, 2})
				w.ByteArray([]byte{3})
				w.Bool(true)
			})
			f.Next()
		}, "offline mode"},
		{"plugin, cookie, then disconnect", func(t *testing.T, f *fakeserver.Server) {
			f.Expect(mcdata.ServerboundLoginLoginStart)
			f.Send(mcdata.ClientboundLoginLoginPluginRequest, func(w *wire.Writer) {
				w.VarInt(5)
				w.String("velocity:player_info")
				w.Raw([]byte{1})
			})
			r := f.Expect(mcdata.ServerboundLoginLoginPluginResponse)
			if id, ok := r.VarInt(), r.Bool(); id != 5 || ok {
				t.Errorf("plugin response %d %v, want 5 not understood", id, ok)
			}
			f.Send(mcdata.ClientboundLoginCookieRequest, func(w *wire.Writer) { w.String("minecraft:x") })
			r = f.Expect(mcdata.ServerboundLoginCookieResponse)
			if key, has := r.String(100), r.Bool(); key != "minecraft:x" || has {
				t.Errorf("cookie response %q %v", key, has)
			}
			f.Send(mcdata.ClientboundLoginDisconnect, func(w *wire.Writer) {
				w.String(`{"translate":"multiplayer.disconnect.not_whitelisted"}`)
			})
			f.Next()
		}, "the server refused the bot: You are not white-listed on this server!"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := linked(t, 769, func(f *fakeserver.Server) { c.script(t, f) })
			if end := ended(t, s); !strings.Contains(end.Reason, c.want) || end.NextStep == "" {
				t.Errorf("end = %+v, want a reason containing %q", end, c.want)
			}
		})
	}
}

// TestConnectionChoresInEveryState: keep-alives, pings, cookies and forced
// resource packs are answered in configuration and in play (one handler
// each, for both states), a forced pack never hangs the bot (accepted,
// downloaded, loaded), and play → configuration → play is followed, each
// switch acknowledged.
func TestConnectionChoresInEveryState(t *testing.T) {
	for _, r := range mcdata.Releases() {
		proto := int32(r.Protocol)
		t.Run(mcdata.For(proto).Name(), func(t *testing.T) {
			done := make(chan struct{})
			chores := func(f *fakeserver.Server, keepAlive, ping, cookie, pack mcdata.Packet, keepAliveAck, pong, cookieAck, packAck mcdata.Packet) {
				f.Send(keepAlive, func(w *wire.Writer) { w.Int64(99) })
				if got := f.Expect(keepAliveAck).Int64(); got != 99 {
					t.Errorf("%v echo %d, want 99", keepAlive, got)
				}
				f.Send(ping, func(w *wire.Writer) { w.Int32(-7) })
				if got := f.Expect(pong).Int32(); got != -7 {
					t.Errorf("%v answer %d, want -7", ping, got)
				}
				f.Send(cookie, func(w *wire.Writer) { w.String("minecraft:session") })
				if r := f.Expect(cookieAck); r.String(100) != "minecraft:session" || r.Bool() {
					t.Errorf("%v: the bot claimed a cookie", cookie)
				}
				f.Send(pack, func(w *wire.Writer) {
					w.UUID([16]byte{7})
					w.String("http://127.0.0.1:1/pack.zip")
					w.String("")
					w.Bool(true)
					w.Bool(false)
				})
				var results []int32
				for i := 0; i < 3; i++ {
					r := f.Expect(packAck)
					if r.UUID() != [16]byte{7} {
						t.Errorf("%v answered for another pack", pack)
					}
					results = append(results, r.VarInt())
				}
				if len(results) != 3 || results[0] != 3 || results[1] != 4 || results[2] != 0 {
					t.Errorf("%v answers %v, want [3 4 0]", pack, results)
				}
			}
			linked(t, proto, func(f *fakeserver.Server) {
				defer close(done)
				f.Login(256)
				f.Expect(mcdata.ServerboundConfigSettings)
				if r := f.Expect(mcdata.ServerboundConfigCustomPayload); r.String(100) != "minecraft:brand" || r.String(100) != "blockmate" {
					t.Error("the bot did not announce its brand")
				}
				chores(f, mcdata.ClientboundConfigKeepAlive, mcdata.ClientboundConfigPing, mcdata.ClientboundConfigCookieRequest, mcdata.ClientboundConfigAddResourcePack,
					mcdata.ServerboundConfigKeepAlive, mcdata.ServerboundConfigPong, mcdata.ServerboundConfigCookieResponse, mcdata.ServerboundConfigResourcePackReceive)
				f.Send(mcdata.ClientboundConfigFinishConfiguration, nil)
				f.Expect(mcdata.ServerboundConfigFinishConfiguration)
				chores(f, mcdata.ClientboundPlayKeepAlive, mcdata.ClientboundPlayPing, mcdata.ClientboundPlayCookieRequest, mcdata.ClientboundPlayAddResourcePack,
					mcdata.ServerboundPlayKeepAlive, mcdata.ServerboundPlayPong, mcdata.ServerboundPlayCookieResponse, mcdata.ServerboundPlayResourcePackReceive)
				f.Send(mcdata.ClientboundPlayStartConfiguration, nil)
				f.Expect(mcdata.ServerboundPlayConfigurationAcknowledged)
				f.Send(mcdata.ClientboundConfigKeepAlive, func(w *wire.Writer) { w.Int64(5) })
				f.Expect(mcdata.ServerboundConfigKeepAlive)
				f.Send(mcdata.ClientboundConfigFinishConfiguration, nil)
				f.Expect(mcdata.ServerboundConfigFinishConfiguration)
				f.Send(mcdata.ClientboundPlayKeepAlive, func(w *wire.Writer) { w.Int64(6) })
				f.Expect(mcdata.ServerboundPlayKeepAlive)
			})
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("the script did not finish")
			}
		})
	}
}

// TestServerEndsTheSession: a transfer and kicks end the session with
// their own sentences. What the server wrote (a kick message, a transfer's
// host) has been through the one sanitiser, and the end says it quotes it
// (Untrusted); a kick without a message quotes nothing.
func TestServerEndsTheSession(t *testing.T) {
	cases := []struct {
		name          string
		send          func(f *fakeserver.Server)
		reason        string
		nextStep      string
		wantKicked    bool
		wantUntrusted bool
	}{
		{"transfer", func(f *fakeserver.Server) {
			f.Send(mcdata.ClientboundConfigTransfer, func(w *wire.Writer) { w.String("example.org\x1b[2J\u202e"); w.VarInt(25566) })
		}, "the server sent the bot on to another server (example.org:25566), which blockmate does not follow", "call mc_join with that server's port if it is a LAN world", false, true},
		{"kick without a reason", func(f *fakeserver.Server) {
			f.Send(mcdata.ClientboundConfigDisconnect, func(w *wire.Writer) { fakeserver.NBTString(w, "") })
		}, "the server disconnected the bot without giving a reason", "call mc_join again if the world is still open; tell the player what the server said", true, false},
		{"kick with only invisible characters", func(f *fakeserver.Server) {
			f.Send(mcdata.ClientboundConfigDisconnect, func(w *wire.Writer) { fakeserver.NBTString(w, "\u200b\x1b[0m\u202e") })
		}, "the server disconnected the bot without giving a reason", "call mc_join again if the world is still open; tell the player what the server said", true, false},
		{"banned", func(f *fakeserver.Server) {
			f.Send(mcdata.ClientboundConfigDisconnect, func(w *wire.Writer) {
				fakeserver.NBTString(w, "\x1b]0;title\x07You are \u202ebanned\u200f from this server")
			})
		}, "the server disconnected the bot: You are banned from this server", "ask the world's owner to let the bot in, then call mc_join again", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := linked(t, 768, func(f *fakeserver.Server) {
				f.Login(-1)
				f.Expect(mcdata.ServerboundConfigSettings)
				c.send(f)
				f.Next()
			})
			if end := ended(t, s); end.Reason != c.reason || end.NextStep != c.nextStep || end.Kicked != c.wantKicked || end.Untrusted != c.wantUntrusted {
				t.Errorf("end = %+v", end)
			}
		})
	}
}

func TestNextStepForKick(t *testing.T) {
	for reason, want := range map[string]string{
		"Outdated client! Please use 1.21.4":       "the world runs another game version; check it with mc_ping_server",
		"You are not white-listed on this server!": "ask the world's owner to let the bot in, then call mc_join again",
		"You logged in from another location":      "call mc_join again if the world is still open; tell the player what the server said",
		"That name is already taken":               "try mc_join with another username",
		"Server closed":                            "call mc_join again if the world is still open; tell the player what the server said",
	} {
		if got := nextStepForKick(reason); got != want {
			t.Errorf("%q: %q, want %q", reason, got, want)
		}
	}
}
