package codec

import (
	"encoding/hex"
	"testing"

	"github.com/blockmate/blockmate/bot/wire"
)

// checkSkillPacket writes the case's use_item or use_item_on with the
// values packetvectors.js gave minecraft-protocol and compares the bytes.
func checkSkillPacket(t *testing.T, c *Codec, v packetVector) {
	var w wire.Writer
	switch v.Case {
	case "use_item":
		c.WriteUseItem(&w, UseItem{Hand: 0, Sequence: 7, Yaw: -45.5, Pitch: 12.25})
	case "use_item_on":
		c.WriteUseItemOn(&w, UseItemOn{Hand: 1, Pos: BlockPos{-3, 64, 1000}, Face: 1, CursorX: 0.5, CursorY: 1, CursorZ: 0.25, Sequence: 300})
	case "swing":
		// Before 26.3 the off hand's swing (arm_animation with the hand);
		// from 26.3 punch, the main hand's, with no body.
		hand := int32(HandOff)
		if v.Name == "punch" {
			hand = HandMain
			if _, ok := c.SwingPacket(HandOff); ok {
				t.Errorf("%s sends a swing for the off hand; punch is the main hand's", c)
			}
		}
		if p, ok := c.SwingPacket(hand); !ok || p.Name() != v.Name {
			t.Errorf("%s swings with %v %v, minecraft-protocol writes %s", c, p, ok, v.Name)
		}
		c.WriteSwing(&w, hand)
	case "leave_bed":
		c.WriteLeaveBed(&w, 42)
	default:
		t.Fatalf("no skill packet %q", v.Case)
	}
	if got := hex.EncodeToString(w.Bytes()); got != v.Hex {
		t.Errorf("%s %s is written %s, minecraft-protocol writes %s", c, v.Case, got, v.Hex)
	}
}
