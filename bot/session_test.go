package bot

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/mcversion"
	"github.com/blockmate/blockmate/bot/wire"
)

// TestPlayEachVersion joins a scripted server at each protocol and checks
// the parts real test peers cannot show: compression, relative position
// sync, player_loaded only on 1.21.4, keep-alive echo, vanilla chat types,
// whispers, death messages, the low-health alarm's crossing and re-arming,
// the player list, a play→configuration round trip, and a kick's reason.
func TestPlayEachVersion(t *testing.T) {
	for _, proto := range []int32{767, 768, 769} {
		t.Run(mcdata.For(proto).Name(), func(t *testing.T) {
			rec := newRecorder()
			steps := make(chan func(f *fakeServer))
			port := startFake(t, proto, func(f *fakeServer) {
				f.login(64)
				f.configure()
				f.play(42, 10.5, 64, -3.25)
				for step := range steps {
					step(f)
				}
			})
			s, err := dialFake(t, port, proto, rec, Options{})
			if err != nil {
				t.Fatal(err)
			}
			do := func(step func(f *fakeServer)) {
				done := make(chan struct{})
				steps <- func(f *fakeServer) { step(f); close(done) }
				<-done
			}
			if st := s.snapshot(); st.pos != (Vec3{10.5, 64, -3.25}) || st.entityID != 42 || st.dimension != "minecraft:overworld" {
				t.Errorf("after join: pos %+v entity %d dimension %q", st.pos, st.entityID, st.dimension)
			}

			// Keep-alive is echoed; a relative position sync adds up.
			do(func(f *fakeServer) {
				f.send(mcdata.ClientboundPlayKeepAlive, func(w *wire.Writer) { w.Int64(99) })
				if got := f.expect(mcdata.ServerboundPlayKeepAlive).Int64(); got != 99 {
					t.Errorf("keep-alive echo %d, want 99", got)
				}
				f.position(8, 1, 0, 1, 1|2|4)
				f.expect(mcdata.ServerboundPlayTeleportConfirm)
			})
			waitFor(t, func() bool { return s.snapshot().pos == Vec3{11.5, 64, -2.25} }, "relative position")

			// The roster at login is recorded, not announced; then a player
			// joins the list; vanilla chat, a whisper and a system line.
			alex := [16]byte{9}
			do(func(f *fakeServer) {
				listPlayers(f, "Theo", "Steve")
				f.send(mcdata.ClientboundPlayPlayerInfo, func(w *wire.Writer) {
					w.Byte(0x01 | 0x04 | 0x08 | 0x10)
					w.VarInt(1)
					w.UUID(alex)
					w.String("alex")
					w.VarInt(0)
					w.VarInt(1) // creative
					w.Bool(true)
					w.VarInt(23)
				})
				f.send(mcdata.ClientboundPlayPlayerChat, func(w *wire.Writer) {
					w.UUID(alex)
					w.VarInt(0)
					w.Bool(false) // unsigned
					w.String("follow me")
					w.Int64(0)
					w.Int64(0)
					w.VarInt(0)
					w.Bool(false)
					w.VarInt(0)
					w.VarInt(1) // registry entry 0: minecraft:chat
					nbtString(w, "alex")
					w.Bool(false)
				})
				f.send(mcdata.ClientboundPlayProfilelessChat, func(w *wire.Writer) {
					nbtString(w, "psst")
					w.VarInt(2) // minecraft:msg_command_incoming
					nbtString(w, "alex")
					w.Bool(false)
				})
				f.send(mcdata.ClientboundPlaySystemChat, func(w *wire.Writer) {
					nbtTranslate(w, "multiplayer.player.joined", "alex")
					w.Bool(false)
				})
			})
			joined := rec.wait(t, "mc_player_joined")
			if !strings.Contains(jsonOf(joined), `"username":"alex"`) {
				t.Errorf("mc_player_joined = %s (the roster at login must not be announced)", jsonOf(joined))
			}
			if _, ok := s.onlinePlayer("steve"); !ok {
				t.Error("the roster at login was not recorded")
			}
			if n := rec.count("mc_player_joined"); n != 1 {
				t.Errorf("%d mc_player_joined events, want alex's alone", n)
			}
			if got := jsonOf(rec.wait(t, "mc_player_chat")); !strings.HasPrefix(got, `{"username":"alex","message":"follow me"`) {
				t.Errorf("mc_player_chat = %s", got)
			}
			if got := jsonOf(rec.wait(t, "mc_whisper")); !strings.HasPrefix(got, `{"username":"alex","message":"psst"`) {
				t.Errorf("mc_whisper = %s", got)
			}
			if got := jsonOf(rec.wait(t, "mc_system_chat")); !strings.HasPrefix(got, `{"message":"alex joined the game"`) {
				t.Errorf("mc_system_chat = %s", got)
			}

			// Health: a hurt, the alarm once on crossing, re-armed after recovery.
			do(func(f *fakeServer) {
				f.send(mcdata.ClientboundPlayDamageEvent, func(w *wire.Writer) {
					w.VarInt(42)
					w.VarInt(1) // the second damage type: minecraft:mob_attack
					w.VarInt(0)
					w.VarInt(0)
					w.Bool(false)
				})
				for _, h := range []float32{20, 15, 5, 4, 18, 3} {
					f.send(mcdata.ClientboundPlayUpdateHealth, func(w *wire.Writer) {
						w.Float32(h)
						w.VarInt(20)
						w.Float32(5)
					})
				}
			})
			waitFor(t, func() bool { return rec.count("mc_low_health") == 2 }, "two low-health alarms (5, then 3 after recovering to 18)")
			do(func(f *fakeServer) {
				for _, food := range []int32{7, 6, 5, 20, 2} {
					f.send(mcdata.ClientboundPlayUpdateHealth, func(w *wire.Writer) {
						w.Float32(3)
						w.VarInt(food)
						w.Float32(0)
					})
				}
			})
			waitFor(t, func() bool { return rec.count("mc_low_food") == 2 }, "two low-food alarms (6, then 2 after eating to 20)")
			if rec.count("mc_hurt") < 3 {
				t.Errorf("mc_hurt %d times, want one per loss", rec.count("mc_hurt"))
			}
			if got := jsonOf(rec.wait(t, "mc_hurt")); got != `{"health":15,"attacker":"mob_attack"}` {
				t.Errorf("first mc_hurt = %s, want the damage type as attacker", got)
			}

			// A death message from the combat-kill packet.
			do(func(f *fakeServer) {
				f.send(mcdata.ClientboundPlayDeathCombatEvent, func(w *wire.Writer) {
					w.VarInt(42)
					nbtTranslate(w, "death.attack.mob", "Theo", "Zombie")
				})
			})
			if got := jsonOf(rec.wait(t, "mc_death")); got != `{"message":"Theo was slain by Zombie"}` {
				t.Errorf("mc_death = %s", got)
			}

			// Respawning: the respawn packet, then a position sync, gives
			// mc_respawned (and player_loaded again on 1.21.4).
			do(func(f *fakeServer) {
				f.send(mcdata.ClientboundPlayRespawn, func(w *wire.Writer) {
					f.spawnInfo(w)
					w.Byte(0)
				})
				f.position(9, 0.5, 70, 0.5, 0)
				f.expect(mcdata.ServerboundPlayTeleportConfirm)
				if f.proto >= 769 {
					f.expect(mcdata.ServerboundPlayPlayerLoaded)
				}
			})
			if got := jsonOf(rec.wait(t, "mc_respawned")); got != `{"position":{"x":0.5,"y":70,"z":0.5}}` {
				t.Errorf("mc_respawned = %s", got)
			}

			// Time and weather.
			do(func(f *fakeServer) {
				f.send(mcdata.ClientboundPlayUpdateTime, func(w *wire.Writer) {
					w.Int64(24000*3 + 100)
					w.Int64(6000)
					if f.proto >= 768 {
						w.Bool(true)
					}
				})
				f.send(mcdata.ClientboundPlayGameStateChange, func(w *wire.Writer) {
					w.Byte(1) // begin raining
					w.Float32(0)
				})
				f.send(mcdata.ClientboundPlayGameStateChange, func(w *wire.Writer) {
					w.Byte(3) // game mode: creative
					w.Float32(1)
				})
				f.send(mcdata.ClientboundPlayKeepAlive, func(w *wire.Writer) { w.Int64(1) })
				f.expect(mcdata.ServerboundPlayKeepAlive)
			})
			st := s.snapshot()
			if st.timeOfDay != 6000 || st.worldAge != 72100 || !st.raining || st.gameMode != 1 || st.dead {
				t.Errorf("time %d age %d raining %v mode %d dead %v", st.timeOfDay, st.worldAge, st.raining, st.gameMode, st.dead)
			}

			// Play → configuration → play is followed.
			do(func(f *fakeServer) {
				f.send(mcdata.ClientboundPlayStartConfiguration, nil)
				f.expect(mcdata.ServerboundPlayConfigurationAcknowledged)
				f.send(mcdata.ClientboundConfigKeepAlive, func(w *wire.Writer) { w.Int64(5) })
				f.expect(mcdata.ServerboundConfigKeepAlive)
				f.send(mcdata.ClientboundConfigFinishConfiguration, nil)
				f.expect(mcdata.ServerboundConfigFinishConfiguration)
				f.send(mcdata.ClientboundPlayKeepAlive, func(w *wire.Writer) { w.Int64(6) })
				f.expect(mcdata.ServerboundPlayKeepAlive)
			})
			if st := s.snapshot(); st.phase != "playing" {
				t.Errorf("phase after reconfiguration %q", st.phase)
			}

			// Chat out: the unsigned chat packet carries the words.
			if err := s.say("hello"); err != nil {
				t.Fatal(err)
			}
			do(func(f *fakeServer) {
				if got := f.expect(mcdata.ServerboundPlayChatMessage).String(256); got != "hello" {
					t.Errorf("chat message %q", got)
				}
			})

			// A kick ends the session with the server's words.
			do(func(f *fakeServer) {
				f.send(mcdata.ClientboundPlayKickDisconnect, func(w *wire.Writer) { nbtString(w, "Server closed") })
			})
			<-s.done
			if !strings.Contains(s.end.Reason, "Server closed") || !s.end.Kicked || s.end.NextStep == "" {
				t.Errorf("end = %+v", s.end)
			}
			close(steps)
		})
	}
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestLoginRefusals(t *testing.T) {
	cases := []struct {
		name   string
		script func(f *fakeServer)
		want   string
	}{
		{"encryption", func(f *fakeServer) {
			f.expect(mcdata.ServerboundLoginLoginStart)
			f.send(mcdata.ClientboundLoginEncryptionBegin, func(w *wire.Writer) {
				w.String("")
				w.ByteArray([]byte{1, 2})
				w.ByteArray([]byte{3})
				w.Bool(true)
			})
			f.next()
		}, "offline mode"},
		{"plugin, cookie, then disconnect", func(f *fakeServer) {
			f.expect(mcdata.ServerboundLoginLoginStart)
			f.send(mcdata.ClientboundLoginLoginPluginRequest, func(w *wire.Writer) {
				w.VarInt(5)
				w.String("velocity:player_info")
				w.Raw([]byte{1})
			})
			r := f.expect(mcdata.ServerboundLoginLoginPluginResponse)
			if id, ok := r.VarInt(), r.Bool(); id != 5 || ok {
				t.Errorf("plugin response %d %v, want 5 not understood", id, ok)
			}
			f.send(mcdata.ClientboundLoginCookieRequest, func(w *wire.Writer) { w.String("minecraft:x") })
			r = f.expect(mcdata.ServerboundLoginCookieResponse)
			if key, has := r.String(100), r.Bool(); key != "minecraft:x" || has {
				t.Errorf("cookie response %q %v", key, has)
			}
			f.send(mcdata.ClientboundLoginDisconnect, func(w *wire.Writer) {
				w.String(`{"translate":"multiplayer.disconnect.not_whitelisted"}`)
			})
			f.next()
		}, "You are not white-listed on this server!"},
		{"hostile frame", func(f *fakeServer) {
			f.expect(mcdata.ServerboundLoginLoginStart)
			_, _ = f.c.Write([]byte{0xff, 0xff, 0xff, 0x7f}) // a 256 MiB frame
			f.next()
		}, "malformed packet frame"},
		{"closed", func(f *fakeServer) {
			f.expect(mcdata.ServerboundLoginLoginStart)
		}, "lost"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			port := startFake(t, 769, c.script)
			_, err := dialFake(t, port, 769, newRecorder(), Options{})
			var je *JoinError
			if !errors.As(err, &je) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want a JoinError containing %q", err, c.want)
			}
		})
	}
}

func TestKeepAliveTimeout(t *testing.T) {
	rec := newRecorder()
	hold := make(chan struct{})
	port := startFake(t, 768, func(f *fakeServer) {
		f.login(-1)
		f.configure()
		f.play(1, 0, 64, 0)
		<-hold // then silence
	})
	defer close(hold)
	s, err := dialFake(t, port, 768, rec, Options{KeepAliveTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		t.Fatal("a silent server was not noticed")
	}
	if !strings.Contains(s.end.Reason, "stopped answering") {
		t.Errorf("reason %q", s.end.Reason)
	}
}

// TestResourcePackNeverHangs: a forced pack is answered accepted,
// downloaded, loaded, and configuration goes on.
func TestResourcePackNeverHangs(t *testing.T) {
	var results []int32
	port := startFake(t, 767, func(f *fakeServer) {
		f.login(-1)
		f.expect(mcdata.ServerboundConfigSettings)
		f.send(mcdata.ClientboundConfigAddResourcePack, func(w *wire.Writer) {
			w.UUID([16]byte{7})
			w.String("http://127.0.0.1:1/pack.zip")
			w.String("")
			w.Bool(true)
			w.Bool(false)
		})
		for i := 0; i < 3; i++ {
			r := f.expect(mcdata.ServerboundConfigResourcePackReceive)
			r.UUID()
			results = append(results, r.VarInt())
		}
		f.send(mcdata.ClientboundConfigFinishConfiguration, nil)
		f.expect(mcdata.ServerboundConfigFinishConfiguration)
		f.play(1, 0, 64, 0)
	})
	if _, err := dialFake(t, port, 767, newRecorder(), Options{}); err != nil {
		t.Fatal(err)
	}
	if len(results) != 3 || results[0] != 3 || results[1] != 4 || results[2] != 0 {
		t.Errorf("resource pack answers %v, want [3 4 0]", results)
	}
}

// TestJoinUnsupportedVersion: mc_join against a world on a newer game
// says in plain words what to do.
func TestJoinUnsupportedVersion(t *testing.T) {
	port := startFake(t, 769, func(f *fakeServer) {
		f.next() // handshake
		f.state = mcdata.StateStatus
		f.next() // status request
		var w wire.Writer
		w.String(`{"version":{"name":"1.21.11","protocol":774},"players":{"max":8,"online":1},"description":"Eduard - Survival"}`)
		f.sendRaw(0, w.Bytes())
	})
	c := NewClient(testLog(), nil, Options{})
	_, err := c.Join(context.Background(), "127.0.0.1", port, "Theo")
	if err == nil || err.Error() != mcversion.Advice("1.21.11", 774) {
		t.Errorf("err = %v", err)
	}
}

func (f *fakeServer) sendRaw(id int32, data []byte) {
	var w wire.Writer
	w.VarInt(id)
	w.Raw(data)
	var frame wire.Writer
	frame.ByteArray(w.Bytes())
	_, _ = f.c.Write(frame.Bytes())
}

func TestJoinIsExclusive(t *testing.T) {
	c := NewClient(testLog(), nil, Options{})
	c.mu.Lock()
	c.joining = true
	c.mu.Unlock()
	if _, err := c.Join(context.Background(), "127.0.0.1", 1, "Theo"); err == nil || !strings.HasPrefix(err.Error(), "join_in_progress") {
		t.Errorf("second join: %v", err)
	}
	c.mu.Lock()
	c.joining = false
	c.sess = &session{host: "127.0.0.1", port: 25565, username: "Theo"}
	c.mu.Unlock()
	if _, err := c.Join(context.Background(), "127.0.0.1", 1, "Theo"); err == nil || !strings.Contains(err.Error(), "mc_leave") {
		t.Errorf("join while connected: %v", err)
	}
}

func TestMessages(t *testing.T) {
	if _, err := cleanMessage("  "); err == nil {
		t.Error("empty accepted")
	}
	for _, bad := range []string{"a\nb", "§ahi", "bell\x07", "del\x7f"} {
		if _, err := cleanMessage(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	long := strings.Repeat("word ", 120) // 600 characters
	parts := splitMessage(strings.TrimSpace(long), 256)
	if len(parts) != 3 {
		t.Fatalf("%d parts", len(parts))
	}
	for _, p := range parts {
		if len(p) > 256 || strings.HasPrefix(p, " ") || strings.HasSuffix(p, " ") {
			t.Errorf("part %q", p)
		}
	}
	if got := strings.Join(parts, " "); got != strings.TrimSpace(long) {
		t.Error("splitting lost words")
	}
	emoji := strings.Repeat("😀", 200) // 400 UTF-16 units
	if parts := splitMessage(emoji, 256); len(parts) != 2 || len([]rune(parts[0])) != 128 {
		t.Errorf("emoji split into %d parts", len(parts))
	}
}
