package link

import (
	"reflect"
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

// linkedWith is linked with the registry attached and events recorded.
func linkedWith(t *testing.T, proto int32, rec *fakeserver.Recorder, script func(f *fakeserver.Server)) (*core.Session, *Link) {
	t.Helper()
	port := fakeserver.Start(t, proto, script)
	s := core.New(fakeserver.Dial(t, port), codec.For(proto), core.Options{Log: fakeserver.Log(), Username: "Theo", Emit: rec.Emit})
	reg := registry.Attach(s)
	l := Attach(s, reg, Options{Host: "127.0.0.1", Port: port})
	if err := l.Login(); err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(s.Leave)
	return s, l
}

// toConfiguration logs in and reads the bot's settings and brand.
func toConfiguration(f *fakeserver.Server) {
	f.Login(-1)
	f.Expect(mcdata.ServerboundConfigSettings)
	f.Expect(mcdata.ServerboundConfigCustomPayload)
}

// nextIs reads the bot's next packet and fails unless it is want: the bot
// sent nothing in between.
func nextIs(t *testing.T, f *fakeserver.Server, want mcdata.Packet) *wire.Reader {
	t.Helper()
	p, r := f.Next()
	if p != want {
		t.Errorf("the bot sent %v, want %v", p, want)
		return wire.NewReader(nil)
	}
	return r
}

// roundTrip sends a keep-alive and checks that its echo is the bot's next
// packet: whatever the server sent before it got no answer.
func roundTrip(t *testing.T, f *fakeserver.Server, keepAlive, echo mcdata.Packet) {
	t.Helper()
	f.Send(keepAlive, func(w *wire.Writer) { w.Int64(31) })
	nextIs(t, f, echo)
}

func nbtOf(t *testing.T, v any) func(w *wire.Writer) {
	return func(w *wire.Writer) {
		if err := w.NBT(v); err != nil {
			t.Fatal(err)
		}
	}
}

func waitScript(t *testing.T, done chan struct{}) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the script did not finish")
	}
}

// TestCodeOfConduct: the bot shows the code of conduct (an event, its text
// cleaned and marked untrusted) and accepts it in answer, so configuration
// goes on; it never sends an accept the server did not ask for.
func TestCodeOfConduct(t *testing.T) {
	for _, proto := range []int32{773, 775} {
		rec := fakeserver.NewRecorder(t)
		done := make(chan struct{})
		linkedWith(t, proto, rec, func(f *fakeserver.Server) {
			defer close(done)
			toConfiguration(f)
			f.Send(mcdata.ClientboundConfigCodeOfConduct, func(w *wire.Writer) { w.String("Be kind.\x1b[2J\u202e") })
			nextIs(t, f, mcdata.ServerboundConfigAcceptCodeOfConduct)
			f.Send(mcdata.ClientboundConfigFinishConfiguration, nil)
			nextIs(t, f, mcdata.ServerboundConfigFinishConfiguration)
			// A second configuration without a code: no accept.
			f.Send(mcdata.ClientboundPlayStartConfiguration, nil)
			nextIs(t, f, mcdata.ServerboundPlayConfigurationAcknowledged)
			f.Send(mcdata.ClientboundConfigFinishConfiguration, nil)
			nextIs(t, f, mcdata.ServerboundConfigFinishConfiguration)
		})
		waitScript(t, done)
		got := fakeserver.JSON(rec.Wait(t, "mc_code_of_conduct"))
		if got != `{"text":"Be kind.","accepted":true,"untrusted":true}` {
			t.Errorf("%d: mc_code_of_conduct = %s", proto, got)
		}
		if n := rec.Count("mc_code_of_conduct"); n != 1 {
			t.Errorf("%d: %d code of conduct events", proto, n)
		}
	}
}

// TestDialogs: a dialog is shown as an event (title, body, buttons, marked
// untrusted) and closed the vanilla way: its cancel action runs when it is
// a custom action (custom_click_action, the payload length-prefixed as the
// game reads it) and nothing is sent otherwise; a play dialog may be an
// entry of the dialog registry sent in configuration.
func TestDialogs(t *testing.T) {
	for _, proto := range []int32{771, 775} {
		t.Run(mcdata.For(proto).Name(), func(t *testing.T) {
			rec := fakeserver.NewRecorder(t)
			done := make(chan struct{})
			title := map[string]any{"text": "Rules"}
			_, l := linkedWith(t, proto, rec, func(f *fakeserver.Server) {
				defer close(done)
				toConfiguration(f)
				// A notice without a button of its own: the game's OK,
				// and nothing to send.
				f.Send(mcdata.ClientboundConfigShowDialog, nbtOf(t, map[string]any{
					"type": "minecraft:notice", "title": title,
					"body": []any{map[string]any{"type": "minecraft:plain_message", "contents": "No griefing."}, map[string]any{"text": "Have fun\x07"}},
				}))
				roundTrip(t, f, mcdata.ClientboundConfigKeepAlive, mcdata.ServerboundConfigKeepAlive)
				// A confirmation whose "no" is a custom action: sent back.
				f.Send(mcdata.ClientboundConfigShowDialog, nbtOf(t, map[string]any{
					"type": "confirmation", "title": "Agree?",
					"yes": map[string]any{"label": map[string]any{"translate": "gui.yes"}, "action": map[string]any{"type": "minecraft:run_command", "command": "/op Theo"}},
					"no":  map[string]any{"label": "Nope", "action": map[string]any{"type": "minecraft:custom", "id": "shop:no", "payload": map[string]any{"a": int8(1)}}},
				}))
				r := nextIs(t, f, mcdata.ServerboundConfigCustomClickAction)
				if id, payload := r.String(100), r.ByteArray(); id != "shop:no" || !reflect.DeepEqual(wire.NewReader(payload).NBT(), map[string]any{"a": int8(1)}) {
					t.Errorf("custom click %q % x", id, payload)
				}
				// The dialog registry, for play's references.
				f.Send(mcdata.ClientboundConfigRegistryData, func(w *wire.Writer) {
					w.String("minecraft:dialog")
					w.VarInt(2)
					w.String("minecraft:server_links")
					w.Bool(true)
					nbtOf(t, map[string]any{"type": "minecraft:server_links", "title": "Links",
						"exit_action": map[string]any{"label": "Back", "action": map[string]any{"type": "minecraft:dynamic/custom", "id": "x:exit", "additions": map[string]any{"k": "v"}}}})(w)
					w.String("custom:plain")
					w.Bool(true)
					nbtOf(t, map[string]any{"type": "minecraft:multi_action", "title": "Pick",
						"actions":     []any{map[string]any{"label": "One"}, map[string]any{"label": "Two"}},
						"exit_action": map[string]any{"label": "Leave", "action": map[string]any{"type": "minecraft:run_command", "command": "/spawn"}}})(w)
				})
				f.Send(mcdata.ClientboundConfigFinishConfiguration, nil)
				nextIs(t, f, mcdata.ServerboundConfigFinishConfiguration)
				// Play: registry entry 0 (holder 1), a dynamic custom exit.
				f.Send(mcdata.ClientboundPlayShowDialog, func(w *wire.Writer) { w.VarInt(1) })
				r = nextIs(t, f, mcdata.ServerboundPlayCustomClickAction)
				if id, payload := r.String(100), r.ByteArray(); id != "x:exit" || !reflect.DeepEqual(wire.NewReader(payload).NBT(), map[string]any{"k": "v"}) {
					t.Errorf("play custom click %q % x", id, payload)
				}
				// Entry 1: the exit runs a command, which the bot leaves
				// alone; then the server clears it.
				f.Send(mcdata.ClientboundPlayShowDialog, func(w *wire.Writer) { w.VarInt(2) })
				f.Send(mcdata.ClientboundPlayClearDialog, nil)
				roundTrip(t, f, mcdata.ClientboundPlayKeepAlive, mcdata.ServerboundPlayKeepAlive)
				// An entry the registry does not have is ignored.
				f.Send(mcdata.ClientboundPlayShowDialog, func(w *wire.Writer) { w.VarInt(9) })
				roundTrip(t, f, mcdata.ClientboundPlayKeepAlive, mcdata.ServerboundPlayKeepAlive)
			})
			waitScript(t, done)
			rec.WaitCount(t, "mc_dialog", 4)
			var got []string
			for _, e := range rec.Events() {
				if e.Name == "mc_dialog" {
					got = append(got, fakeserver.JSON(e.Payload))
				}
			}
			want := []string{
				`{"title":"Rules","body":["No griefing.","Have fun"],"buttons":["Ok"],"untrusted":true}`,
				`{"title":"Agree?","buttons":["Yes","Nope"],"untrusted":true}`,
				`{"title":"Links","buttons":["Back"],"untrusted":true}`,
				`{"title":"Pick","buttons":["One","Two","Leave"],"untrusted":true}`,
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("mc_dialog events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if d, ok := l.LastDialog(); !ok || d.Title != "Pick" {
				t.Errorf("last dialog %+v %v", d, ok)
			}
		})
	}
}
