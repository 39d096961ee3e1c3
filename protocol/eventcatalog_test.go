package protocol

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// payloadWith builds a payload with the given fields, in order.
func payloadWith(fields ...string) json.RawMessage {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = `"` + f + `":1`
	}
	return json.RawMessage("{" + strings.Join(parts, ",") + "}")
}

func TestEventCatalogIsConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range EventCatalog {
		if seen[e.Name] {
			t.Errorf("%s is listed twice", e.Name)
		}
		seen[e.Name] = true
		for _, o := range e.Optional {
			if !slices.Contains(e.Payload, o) {
				t.Errorf("%s: optional field %q is not in its payload %v", e.Name, o, e.Payload)
			}
		}
		if e.KeyedBy != "" && e.KeyedBy != "host:port" && !slices.Contains(e.Payload, e.KeyedBy) {
			t.Errorf("%s is keyed by %q, which its payload %v lacks", e.Name, e.KeyedBy, e.Payload)
		}
		if slices.Contains(e.Payload, "untrusted") && !e.UntrustedText {
			t.Errorf("%s carries untrusted but is not marked UntrustedText", e.Name)
		}
		// Every documented shape passes: all fields, and all but the optional ones.
		if err := CheckEventPayload(e.Name, payloadWith(e.Payload...)); err != nil {
			t.Errorf("all fields: %v", err)
		}
		var required []string
		for _, f := range e.Payload {
			if !slices.Contains(e.Optional, f) {
				required = append(required, f)
			}
		}
		if err := CheckEventPayload(e.Name, payloadWith(required...)); err != nil {
			t.Errorf("required fields only: %v", err)
		}
	}
}

func TestCheckEventPayloadRefusesWhatTheCatalogDoesNotSay(t *testing.T) {
	for _, tc := range []struct {
		name    string
		payload string
		want    string
	}{
		{"mc_nonsense", `{}`, "is not in protocol.EventCatalog"},
		{"mc_hurt", `[1]`, "is not a JSON object"},
		{"mc_hurt", `{"attacker":"zombie"}`, `lacks "health"`},
		{"mc_hurt", `{"health":3,"attacker":"zombie","weapon":"axe"}`, `carries "weapon"`},
		{"mc_hurt", `{"attacker":"zombie","health":3}`, `lacks "health"`},
		{"mc_player_chat", `{"username":"a","message":"m","untrusted":true,"segments":[]}`, "out of the documented order"},
		{"mc_hurt", `{"health":3,"health":4}`, "or twice"},
		{"mc_lan_world_found", `{"host":"h","port":1,"motd":"m","is_local_machine":true,"untrusted":true}`, `lacks "source"`},
		{"mc_disconnected", `{"reason":"r"}`, `lacks "next_step"`},
	} {
		err := CheckEventPayload(tc.name, json.RawMessage(tc.payload))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v, want an error saying %q", tc.name, tc.payload, err, tc.want)
		}
	}
	for name, ok := range map[string]string{
		"mc_hurt":            `{"health":3}`,
		"mc_disconnected":    `{"reason":"the server disconnected the bot: bye","next_step":"n","will_retry":true,"next_attempt_s":1,"untrusted":true}`,
		"mc_lan_world_found": `{"host":"h","port":1,"motd":"m","is_local_machine":true,"source":"mdns","ping_error":"e","untrusted":true}`,
	} {
		if err := CheckEventPayload(name, json.RawMessage(ok)); err != nil {
			t.Errorf("%s %s: %v", name, ok, err)
		}
	}
}

// The bus's own event is typed and documented.
func TestEventsDroppedMatchesItsCatalogEntry(t *testing.T) {
	ev := DroppedEvent(3, time.Unix(0, 0))
	if err := CheckEventPayload(ev.Name, ev.Payload); err != nil {
		t.Error(err)
	}
}

// TestEveryEventIsDescribedOnce: each catalog entry carries what its
// readers need (its kind for the console's colours, its log level for MCP,
// its sentence for people), and the sentences read their payloads: an
// empty payload still makes a sentence, and a full one says what it holds.
func TestEveryEventIsDescribedOnce(t *testing.T) {
	levels := map[string]bool{"error": true, "warning": true, "notice": true, "info": true, "debug": true}
	for _, spec := range EventCatalog {
		if spec.Kind == "" || !levels[spec.Level] || spec.Sentence == nil {
			t.Errorf("%s: kind %q, level %q, sentence set %v", spec.Name, spec.Kind, spec.Level, spec.Sentence != nil)
			continue
		}
		if got := EventSentence(Event{Name: spec.Name, Payload: json.RawMessage(`{}`)}); got == "" && spec.Name != "mc_system_chat" {
			t.Errorf("%s: no sentence for an empty payload", spec.Name)
		}
	}
	for _, c := range []struct{ name, payload, want string }{
		{"mc_player_joined", `{"username":"alex"}`, "alex joined"},
		{"mc_hurt", `{"health":12.25,"attacker":"minecraft:zombie_villager"}`, "Hurt by zombie villager, health 12.2"},
		{"mc_item_picked_up", `{"item":"oak_log","count":4}`, "Picked up 4 oak log"},
		{"mc_task_progress", `{"tool":"mc_collect","id":"c1","done":2,"total":4}`, "collect: 2 of 4"},
		{"mc_dialog", `{"title":"Rules","body":["be  nice","",""],"buttons":["OK"]}`, "The server showed a dialog “Rules”: “be nice” (buttons: OK); the bot closed it"},
		{"mc_player_chat", `{"username":"alex","message":"hi \u001b[2Jthere"}`, "<alex> hi there"},
		{"mc_disconnected", `{"reason":"the connection to the world was lost (EOF)","next_step":"n","will_retry":true,"next_attempt_s":1}`, "Left the world: the connection to the world was lost (EOF); reconnecting"},
		{"mc_disconnected", `{"reason":"the server disconnected the bot: banned","next_step":"n","will_retry":false}`, "Left the world: the server disconnected the bot: banned"},
		{"mc_reconnected", `{"server":"127.0.0.1:51234","after_s":3.2,"attempts":1}`, "Back in the world at 127.0.0.1:51234"},
		{"mc_not_in_the_catalog", `{}`, "not in the catalog"},
	} {
		if got := EventSentence(Event{Name: c.name, Payload: json.RawMessage(c.payload)}); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.name, c.payload, got, c.want)
		}
	}
}
