package codec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// TestDigLayoutsMatchMinecraftProtocol: for every version, the bot's
// block_dig, use_item_on (block_place) and swing (arm_animation) are the
// very bytes minecraft-protocol's serializer writes for the same fields
// (use_item_on's world-border flag from 1.21.2 included), and
// block_changed_ack, update_mob_effect and remove_mob_effect decode to
// minecraft-protocol's reading of its own bytes, consuming them all.
func TestDigLayoutsMatchMinecraftProtocol(t *testing.T) {
	byName := map[string]*Codec{}
	var names []string
	for _, r := range mcdata.Releases() {
		c := For(int32(r.Protocol))
		byName[c.Name()] = c
		names = append(names, c.Name())
	}
	out := peertest.RunNode(t, "digvectors.js", names...)
	seen := map[string]int{}
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var v struct {
			Version, Dir, Name, Hex string
			Parsed                  map[string]float64
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("digvectors.js: %v: %s", err, line)
		}
		c := byName[v.Version]
		want, _ := hex.DecodeString(v.Hex)
		seen[v.Name]++
		var w wire.Writer
		switch v.Name {
		case "block_dig":
			c.WritePlayerAction(&w, PlayerAction{Status: ActionStopDigging, Pos: BlockPos{-33, -60, 1000}, Face: FaceUp, Sequence: 300})
		case "block_place":
			c.WriteUseItemOn(&w, UseItemOn{Hand: HandOff, Pos: BlockPos{12, 70, -5}, Face: FaceWest, CursorX: 0, CursorY: 0.5, CursorZ: 0.25, Sequence: 7})
		case "arm_animation", "punch":
			if p, ok := c.SwingPacket(HandMain); !ok || p.Name() != v.Name {
				t.Errorf("%s swings the main hand with %v %v, minecraft-protocol writes %s", v.Version, p, ok, v.Name)
			}
			c.WriteSwing(&w, HandMain)
		case "acknowledge_player_digging":
			r := wire.NewReader(want)
			if seq := c.BlockChangedAck(r); seq != int32(v.Parsed["sequenceId"]) || r.Err() != nil || r.Remaining() != 0 {
				t.Errorf("%s ack: %d, %v, %d left; minecraft-protocol reads %v", v.Version, seq, r.Err(), r.Remaining(), v.Parsed)
			}
			continue
		case "entity_effect":
			r := wire.NewReader(want)
			e := c.EntityEffect(r)
			p := v.Parsed
			if e != (EntityEffect{int32(p["entityId"]), int32(p["effectId"]), int32(p["amplifier"]), int32(p["duration"]), byte(p["flags"])}) || r.Err() != nil || r.Remaining() != 0 {
				t.Errorf("%s effect: %+v, %v, %d left; minecraft-protocol reads %v", v.Version, e, r.Err(), r.Remaining(), p)
			}
			continue
		case "remove_entity_effect":
			r := wire.NewReader(want)
			e := c.RemoveEntityEffect(r)
			if e != (RemoveEntityEffect{int32(v.Parsed["entityId"]), int32(v.Parsed["effectId"])}) || r.Err() != nil || r.Remaining() != 0 {
				t.Errorf("%s remove effect: %+v, %v; minecraft-protocol reads %v", v.Version, e, r.Err(), v.Parsed)
			}
			continue
		default:
			t.Fatalf("a vector of %s, which this test does not check", v.Name)
		}
		if !bytes.Equal(w.Bytes(), want) {
			t.Errorf("%s %s: the bot writes % x, minecraft-protocol % x", v.Version, v.Name, w.Bytes(), want)
		}
	}
	seen["swing"] = seen["arm_animation"] + seen["punch"]
	for _, name := range []string{"block_dig", "block_place", "swing", "acknowledge_player_digging", "entity_effect", "remove_entity_effect"} {
		if seen[name] != len(names) {
			t.Errorf("%s: %d vectors for %d versions", name, seen[name], len(names))
		}
	}
}
