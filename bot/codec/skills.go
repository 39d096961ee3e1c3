package codec

import (
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// ---- skills (craft): using items and blocks ----
//
// The layouts the survival skills send (bot/skill, bot/combat): use_item
// (eating), use_item_on (opening a crafting table, chest or furnace) and
// arm_animation (the swing of an attack),
// checked against minecraft-data's protocol.json for every protocol and
// against minecraft-protocol's serializer (TestSkillPacketsMatchMinecraftProtocol).

// UseItem is the serverbound use_item: the bot uses what a hand holds
// (eating, drinking), looking where Yaw and Pitch say.
type UseItem struct {
	Hand       int32 // 0 main hand, 1 off hand
	Sequence   int32
	Yaw, Pitch float32
}

// UseItemOn is the serverbound use_item_on (block_place in minecraft-data):
// the bot right-clicks a face of a block, which opens a container or places
// what the hand holds. Cursor is the point clicked within the block (0–1).
type UseItemOn struct {
	Hand                      int32
	Pos                       BlockPos
	Face                      int32 // 0 down, 1 up, 2 north, 3 south, 4 west, 5 east
	CursorX, CursorY, CursorZ float32
	InsideBlock               bool
	// WorldBorderHit is sent from 1.21.2 on.
	WorldBorderHit bool
	Sequence       int32
}

// baseSkills: use_item is a hand, a sequence and the look (yaw, pitch as
// floats); use_item_on is a hand, the block, the face, the cursor as three
// floats, inside-block and a sequence (minecraft-data pc/1.21.1; the game's
// ServerboundUseItemPacket and ServerboundUseItemOnPacket with
// BlockHitResult, 1.21.1).
func baseSkills(c *Codec) {
	// arm_animation (the swing that goes with an attack) is the hand
	// (ServerboundSwingPacket), the same VarInt up to 26.1.
	c.SwingPacket = func(int32) (mcdata.Packet, bool) { return mcdata.ServerboundPlayArmAnimation, true }
	c.WriteSwing = func(w *wire.Writer, hand int32) { w.VarInt(hand) }
	c.WriteUseItem = func(w *wire.Writer, u UseItem) {
		w.VarInt(u.Hand)
		w.VarInt(u.Sequence)
		w.Float32(u.Yaw)
		w.Float32(u.Pitch)
	}
	c.WriteUseItemOn = func(w *wire.Writer, u UseItemOn) {
		writeUseItemOnHead(w, u)
		w.VarInt(u.Sequence)
	}
}

// v768Skills: the block hit result carries whether the world border was
// hit, after inside-block (minecraft-data pc/1.21.3 worldBorderHit; the
// game's BlockHitResult, 1.21.2). Unchanged up to 26.1, where the hand is
// a typed enum with the same VarInt values.
func v768Skills(c *Codec) {
	c.WriteUseItemOn = func(w *wire.Writer, u UseItemOn) {
		writeUseItemOnHead(w, u)
		w.Bool(u.WorldBorderHit)
		w.VarInt(u.Sequence)
	}
}

func writeUseItemOnHead(w *wire.Writer, u UseItemOn) {
	w.VarInt(u.Hand)
	writePosition(w, u.Pos)
	w.VarInt(u.Face)
	w.Float32(u.CursorX)
	w.Float32(u.CursorY)
	w.Float32(u.CursorZ)
	w.Bool(u.InsideBlock)
}
