package tools

import (
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// TestKickReasonIsMarkedAndCleaned: a kick message is text a server
// operator wrote. mc_disconnected marks it untrusted, and the sanitiser has
// removed the escape sequence and the bidi override before anyone reads it.
func TestKickReasonIsMarkedAndCleaned(t *testing.T) {
	w := newScriptedWorld(t, 769, nil, func(f *fakeServer, cmd string) {
		if cmd == "kickme" {
			f.Send(mcdata.ClientboundPlayKickDisconnect, func(w *wire.Writer) { fakeserver.NBTString(w, "\x1b[2J\u202eYou are banned\u200f") })
		}
	})
	callN(t, w.d, "mc_command", `{"command":"kickme"}`)
	got := jsonOf(w.rec.Wait(t, "mc_disconnected"))
	if !strings.HasPrefix(got, `{"reason":"the server disconnected the bot: You are banned","next_step":"ask the world's owner`) || !strings.HasSuffix(got, `,"untrusted":true}`) {
		t.Errorf("mc_disconnected after a kick with a message: %s", got)
	}
}

// TestKickWithoutReasonQuotesNothing: a kick without a message quotes no
// one, so mc_disconnected carries no untrusted mark.
func TestKickWithoutReasonQuotesNothing(t *testing.T) {
	w := newScriptedWorld(t, 769, nil, func(f *fakeServer, cmd string) {
		if cmd == "kickme" {
			f.Send(mcdata.ClientboundPlayKickDisconnect, func(w *wire.Writer) { fakeserver.NBTString(w, "") })
		}
	})
	callN(t, w.d, "mc_command", `{"command":"kickme"}`)
	if got := jsonOf(w.rec.Wait(t, "mc_disconnected")); strings.Contains(got, "untrusted") {
		t.Errorf("mc_disconnected after a kick without a message: %s", got)
	}
}
