package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// TestReconnectAfterAKick: flying-squid's console kicks the bot (its kick
// gives no reason, as a server going down for a moment does); blockmate
// sidecar says mc_disconnected with will_retry, a call in the gap gets the
// reconnecting sentence (or, if the rejoin was already done, a world the
// bot is back in: never a stale one), and the bot is back after the first
// backoff with mc_reconnected, in that order. One server, one version:
// reconnecting does not depend on the game version.
func TestReconnectAfterAKick(t *testing.T) {
	if testing.Short() && !peertest.InCI() {
		t.Skip("integration test; run without -short")
	}
	bin := sidecartest.Build(t)
	srv := peertest.StartServer(t, peertest.ServerOptions{Version: "1.21.4", ViewDistance: 2})
	sc := sidecartest.Start(t, bin)
	ctx, cancel := testctx.New(t)
	defer cancel()
	if r := sc.Call(ctx, "mc_join", map[string]any{"port": srv.Port, "username": "Theo"}); !r.OK {
		t.Fatalf("mc_join: %s", r.Error)
	}
	if err := srv.Command("kick Theo"); err != nil {
		t.Fatal(err)
	}
	if _, err := sc.WaitEvent(ctx, "mc_disconnected", func(p json.RawMessage) bool {
		return strings.Contains(string(p), `"will_retry":true`)
	}); err != nil {
		t.Fatalf("no mc_disconnected with will_retry: %v\n%s", err, strings.Join(sc.Lines(), "\n"))
	}
	gap := sc.Call(ctx, "mc_get_position", nil)
	back := func() bool {
		for _, ev := range sc.Events() {
			if ev.Name == "mc_reconnected" {
				return true
			}
		}
		return false
	}
	switch {
	case !gap.OK && !(strings.HasPrefix(gap.Error, "reconnecting: ") && strings.Contains(gap.Error, "call again in a moment")):
		t.Errorf("a call in the gap: %+v", gap)
	case gap.OK && !back():
		t.Errorf("a call in the gap answered from a world the bot was not back in: %s", gap.Result)
	}
	ev, err := sc.WaitEvent(ctx, "mc_reconnected", nil)
	if err != nil {
		t.Fatalf("no mc_reconnected: %v\n%s", err, strings.Join(sc.Lines(), "\n"))
	}
	if !strings.Contains(string(ev.Payload), `"server":"127.0.0.1:`) {
		t.Errorf("mc_reconnected %s", ev.Payload)
	}
	if r := sc.Call(ctx, "mc_get_position", nil); !r.OK {
		t.Errorf("after mc_reconnected: %s", r.Error)
	}
	var order []string
	for _, ev := range sc.Events() {
		if ev.Name == "mc_disconnected" || ev.Name == "mc_reconnected" {
			order = append(order, ev.Name)
		}
	}
	if strings.Join(order, " ") != "mc_disconnected mc_reconnected" {
		t.Errorf("events in order %v, want mc_disconnected then mc_reconnected", order)
	}
}
