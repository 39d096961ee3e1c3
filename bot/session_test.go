package bot

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/mcversion"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// TestPlayEachVersion joins a scripted server at each protocol and checks
// the parts real test peers cannot show: compression, relative position
// sync, player_loaded only on 1.21.4, keep-alive echo, vanilla chat types,
// whispers, death messages, the low-health alarm's crossing and re-arming,
// the player list, a play→configuration round trip, and a kick's reason.
func TestPlayEachVersion(t *testing.T) {
	for _, r := range mcdata.Releases() {
		proto := int32(r.Protocol)
		t.Run(mcdata.For(proto).Name(), func(t *testing.T) {
			rec := fakeserver.NewRecorder(t)
			steps := make(chan func(f *fakeServer))
			port := fakeserver.Start(t, proto, func(f *fakeServer) {
				f.Login(64)
				f.CodeOfConduct = "Be kind."
				f.Configure()
				f.Play(42, 10.5, 64, -3.25)
				for step := range steps {
					step(f)
				}
			})
			// A failed check stops the test early: end the script too, so
			// the scripted server's cleanup does not wait for it for ever.
			var stopSteps sync.Once
			t.Cleanup(func() { stopSteps.Do(func() { close(steps) }) })
			// Time stands still unless the test moves it, so the roster at
			// login is always within the roster window.
			w, err := dialFake(t, port, proto, rec, Options{Clock: core.NewManualClock(time.Now())})
			if err != nil {
				t.Fatal(err)
			}
			do := func(step func(f *fakeServer)) {
				done := make(chan struct{})
				steps <- func(f *fakeServer) { step(f); close(done) }
				<-done
			}
			if st := w.self.Snapshot(); st.Position != (geom.Vec3{X: 10.5, Y: 64, Z: -3.25}) || st.EntityID != 42 || st.Dimension != "minecraft:overworld" {
				t.Errorf("after join: pos %+v entity %d dimension %q", st.Position, st.EntityID, st.Dimension)
			}

			// Keep-alive is echoed; a relative position sync adds up.
			do(func(f *fakeServer) {
				f.Send(mcdata.ClientboundPlayKeepAlive, func(w *wire.Writer) { w.Int64(99) })
				if got := f.Expect(mcdata.ServerboundPlayKeepAlive).Int64(); got != 99 {
					t.Errorf("keep-alive echo %d, want 99", got)
				}
				f.Position(8, 1, 0, 1, 1|2|4)
				f.Expect(mcdata.ServerboundPlayTeleportConfirm)
			})
			waitFor(t, func() bool { return w.self.Snapshot().Position == geom.Vec3{X: 11.5, Y: 64, Z: -2.25} }, "relative position")

			// The roster at login is recorded, not announced; then a player
			// joins the list; vanilla chat, a whisper and a system line.
			alex := [16]byte{9}
			do(func(f *fakeServer) {
				f.ListPlayers("Theo", "Steve")
				f.Send(mcdata.ClientboundPlayPlayerInfo, func(w *wire.Writer) {
					w.Byte(0x01 | 0x04 | 0x08 | 0x10)
					w.VarInt(1)
					w.UUID(alex)
					w.String("alex")
					w.VarInt(0)
					w.VarInt(1) // creative
					w.Bool(true)
					w.VarInt(23)
				})
				f.Send(mcdata.ClientboundPlayPlayerChat, func(w *wire.Writer) {
					f.PlayerChatStart(w)
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
					fakeserver.NBTString(w, "alex")
					w.Bool(false)
				})
				f.Send(mcdata.ClientboundPlayProfilelessChat, func(w *wire.Writer) {
					fakeserver.NBTString(w, "psst")
					w.VarInt(2) // minecraft:msg_command_incoming
					fakeserver.NBTString(w, "alex")
					w.Bool(false)
				})
				f.Send(mcdata.ClientboundPlaySystemChat, func(w *wire.Writer) {
					fakeserver.NBTTranslate(w, "multiplayer.player.joined", "alex")
					w.Bool(false)
				})
			})
			joined := rec.Wait(t, "mc_player_joined")
			if !strings.Contains(jsonOf(joined), `"username":"alex"`) {
				t.Errorf("mc_player_joined = %s (the roster at login must not be announced)", jsonOf(joined))
			}
			if _, ok := w.players.Find("steve"); !ok {
				t.Error("the roster at login was not recorded")
			}
			if n := rec.Count("mc_player_joined"); n != 1 {
				t.Errorf("%d mc_player_joined events, want alex's alone", n)
			}
			if got := jsonOf(rec.Wait(t, "mc_player_chat")); !strings.HasPrefix(got, `{"username":"alex","message":"follow me"`) {
				t.Errorf("mc_player_chat = %s", got)
			}
			if got := jsonOf(rec.Wait(t, "mc_whisper")); !strings.HasPrefix(got, `{"username":"alex","message":"psst"`) {
				t.Errorf("mc_whisper = %s", got)
			}
			if got := jsonOf(rec.Wait(t, "mc_system_chat")); !strings.HasPrefix(got, `{"message":"alex joined the game"`) {
				t.Errorf("mc_system_chat = %s", got)
			}

			// Health: a hurt, the alarm once on crossing, re-armed after recovery.
			do(func(f *fakeServer) {
				f.Send(mcdata.ClientboundPlayDamageEvent, func(w *wire.Writer) {
					w.VarInt(42)
					w.VarInt(1) // the second damage type: minecraft:mob_attack
					w.VarInt(0)
					w.VarInt(0)
					w.Bool(false)
				})
				for _, h := range []float32{20, 15, 5, 4, 18, 3} {
					f.Send(mcdata.ClientboundPlayUpdateHealth, func(w *wire.Writer) {
						w.Float32(h)
						w.VarInt(20)
						w.Float32(5)
					})
				}
			})
			rec.WaitCount(t, "mc_low_health", 2) // 5, then 3 after recovering to 18
			do(func(f *fakeServer) {
				for _, food := range []int32{7, 6, 5, 20, 2} {
					f.Send(mcdata.ClientboundPlayUpdateHealth, func(w *wire.Writer) {
						w.Float32(3)
						w.VarInt(food)
						w.Float32(0)
					})
				}
			})
			rec.WaitCount(t, "mc_low_food", 2) // 6, then 2 after eating to 20
			if rec.Count("mc_hurt") < 3 {
				t.Errorf("mc_hurt %d times, want one per loss", rec.Count("mc_hurt"))
			}
			if got := jsonOf(rec.Wait(t, "mc_hurt")); got != `{"health":15,"attacker":"mob_attack"}` {
				t.Errorf("first mc_hurt = %s, want the damage type as attacker", got)
			}

			// A death message from the combat-kill packet.
			do(func(f *fakeServer) {
				f.Send(mcdata.ClientboundPlayDeathCombatEvent, func(w *wire.Writer) {
					w.VarInt(42)
					fakeserver.NBTTranslate(w, "death.attack.mob", "Theo", "Zombie")
				})
			})
			if got := jsonOf(rec.Wait(t, "mc_death")); got != `{"message":"Theo was slain by Zombie","untrusted":true}` {
				t.Errorf("mc_death = %s", got)
			}

			// Respawning: the respawn packet, then a position sync, gives
			// mc_respawned (and player_loaded again on 1.21.4).
			do(func(f *fakeServer) {
				f.Send(mcdata.ClientboundPlayRespawn, func(w *wire.Writer) {
					f.SpawnInfo(w)
					w.Byte(0)
				})
				f.Position(9, 0.5, 70, 0.5, 0)
				f.Expect(mcdata.ServerboundPlayTeleportConfirm)
				if f.Proto >= 769 {
					f.Expect(mcdata.ServerboundPlayPlayerLoaded)
				}
			})
			if got := jsonOf(rec.Wait(t, "mc_respawned")); got != `{"position":{"x":0.5,"y":70,"z":0.5}}` {
				t.Errorf("mc_respawned = %s", got)
			}

			// Time and weather.
			do(func(f *fakeServer) {
				f.Time(24000*3+100, 6000)
				f.Send(mcdata.ClientboundPlayGameStateChange, func(w *wire.Writer) {
					w.Byte(1) // begin raining
					w.Float32(0)
				})
				f.Send(mcdata.ClientboundPlayGameStateChange, func(w *wire.Writer) {
					w.Byte(3) // game mode: creative
					w.Float32(1)
				})
				f.Send(mcdata.ClientboundPlayKeepAlive, func(w *wire.Writer) { w.Int64(1) })
				f.Expect(mcdata.ServerboundPlayKeepAlive)
			})
			st := w.self.Snapshot()
			if st.TimeOfDay != 6000 || st.WorldAge != 72100 || !st.Raining || st.GameMode != 1 || st.Dead {
				t.Errorf("time %d age %d raining %v mode %d dead %v", st.TimeOfDay, st.WorldAge, st.Raining, st.GameMode, st.Dead)
			}

			// Play → configuration → play is followed.
			do(func(f *fakeServer) {
				f.Send(mcdata.ClientboundPlayStartConfiguration, nil)
				f.Expect(mcdata.ServerboundPlayConfigurationAcknowledged)
				f.Send(mcdata.ClientboundConfigKeepAlive, func(w *wire.Writer) { w.Int64(5) })
				f.Expect(mcdata.ServerboundConfigKeepAlive)
				f.Send(mcdata.ClientboundConfigFinishConfiguration, nil)
				f.Expect(mcdata.ServerboundConfigFinishConfiguration)
				f.Send(mcdata.ClientboundPlayKeepAlive, func(w *wire.Writer) { w.Int64(6) })
				f.Expect(mcdata.ServerboundPlayKeepAlive)
			})
			if p := w.Phase(); p != "playing" {
				t.Errorf("phase after reconfiguration %q", p)
			}

			// Chat out: the unsigned chat packet carries the words (and,
			// from 1.21.5, a checksum of 0: "do not check").
			if err := w.talk.Say([]string{"hello"}); err != nil {
				t.Fatal(err)
			}
			do(func(f *fakeServer) {
				r := f.Expect(mcdata.ServerboundPlayChatMessage)
				if got := r.String(256); got != "hello" {
					t.Errorf("chat message %q", got)
				}
				_, _, _ = r.Int64(), r.Int64(), r.Bool() // timestamp, salt, unsigned
				_, _ = r.VarInt(), r.Bytes(3)            // last seen
				if proto >= 770 && r.Byte() != 0 {
					t.Error("the chat checksum is not 0")
				}
				if r.Err() != nil || r.Remaining() != 0 {
					t.Errorf("chat message: %v, %d bytes left", r.Err(), r.Remaining())
				}
			})

			// 1.21.6+: a dialog is shown as an event and closed; 1.21.9+:
			// the code of conduct was shown and accepted in configuration.
			if proto >= 771 {
				do(func(f *fakeServer) {
					f.Send(mcdata.ClientboundPlayShowDialog, func(w *wire.Writer) {
						w.VarInt(0)
						_ = w.NBT(map[string]any{"type": "minecraft:notice", "title": "Welcome", "body": map[string]any{"type": "minecraft:plain_message", "contents": "Read the rules."}})
					})
					f.Send(mcdata.ClientboundPlayKeepAlive, func(w *wire.Writer) { w.Int64(3) })
					f.Expect(mcdata.ServerboundPlayKeepAlive)
				})
				if got := jsonOf(rec.Wait(t, "mc_dialog")); got != `{"title":"Welcome","body":["Read the rules."],"buttons":["Ok"],"untrusted":true}` {
					t.Errorf("mc_dialog = %s", got)
				}
			}
			if got := rec.Count("mc_code_of_conduct"); (proto >= 773) != (got == 1) {
				t.Errorf("%d mc_code_of_conduct events", got)
			}

			// A kick ends the session with the server's words.
			do(func(f *fakeServer) {
				f.Send(mcdata.ClientboundPlayKickDisconnect, func(w *wire.Writer) { fakeserver.NBTString(w, "Server closed") })
			})
			<-w.cs.Done()
			if end := w.cs.End(); !strings.Contains(end.Reason, "Server closed") || !end.Kicked || end.NextStep == "" {
				t.Errorf("end = %+v", end)
			}
			stopSteps.Do(func() { close(steps) })
		})
	}
}

// TestJoinUnsupportedVersion: mc_join against a world on a newer game
// says in plain words what to do.
func TestJoinUnsupportedVersion(t *testing.T) {
	port := fakeserver.Start(t, 769, func(f *fakeServer) {
		f.Next() // handshake
		f.State = mcdata.StateStatus
		f.Next() // status request
		var w wire.Writer
		w.String(`{"version":{"name":"26.4","protocol":778},"players":{"max":8,"online":1},"description":"Eduard - Survival"}`)
		f.SendRaw(0, w.Bytes())
	})
	c := NewClient(testLog(), nil, nil, Options{})
	_, err := c.Join(context.Background(), "127.0.0.1", port, "Theo")
	if err == nil || err.Error() != mcversion.Advice("26.4", 778) {
		t.Errorf("err = %v", err)
	}
}

func TestJoinIsExclusive(t *testing.T) {
	c := NewClient(testLog(), nil, nil, Options{})
	c.mu.Lock()
	c.join = &joinAttempt{ctx: context.Background(), done: make(chan struct{})}
	c.mu.Unlock()
	if _, err := c.Join(context.Background(), "127.0.0.1", 1, "Theo"); err == nil || !strings.HasPrefix(err.Error(), "join_in_progress") {
		t.Errorf("second join: %v", err)
	}
	c.mu.Lock()
	c.join = nil
	c.w = &Session{cs: core.New(nil, codec.For(769), core.Options{Username: "Theo"}), host: "127.0.0.1", port: 25565}
	c.mu.Unlock()
	if _, err := c.Join(context.Background(), "127.0.0.1", 1, "Theo"); err == nil || !strings.Contains(err.Error(), "mc_leave") {
		t.Errorf("join while connected: %v", err)
	}
}
