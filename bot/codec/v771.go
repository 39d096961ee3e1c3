package codec

import "github.com/blockmate/blockmate/bot/wire"

// Protocol 771 (1.21.6): what changed from 770. Sources: minecraft-data's
// pc/1.21.5 → pc/1.21.6 protocol.json diff and the decompiled game of
// 1.21.7 (same protocol family; no 1.21.6 decompile was found).
//
// Also new in 1.21.6: entity_action's ids are renumbered without the sneak
// actions (below). And nothing the bot reads or writes yet: sneaking is
// only the player_input shift bit, difficulty is a VarInt, attribute ids from 8
// on move up by one (camera_distance), and serverbound play ids from 0x04
// move up by one (the generated packet table).
func init() { define(771, v771) }

func v771(c *Codec) {
	// entity_action lost its two sneak actions (sneaking is player_input's
	// shift bit alone): start sprinting is 1, stop 2 (minecraft-data
	// pc/1.21.6 packet_entity_action).
	c.WriteSprint = func(w *wire.Writer, entityID int32, start bool) {
		writeEntityAction(w, entityID, start, 1)
	}

	// Dialogs. The configuration show_dialog always carries the dialog's
	// NBT inline (ClientboundShowDialogPacket.CONTEXT_FREE_STREAM_CODEC);
	// the play one is a holder: 0 and the NBT inline, or n > 0 for entry
	// n-1 of the minecraft:dialog registry sent in configuration
	// (Dialog.STREAM_CODEC; game 1.21.7 and 26.1.2). clear_dialog is empty.
	c.ShowConfigDialog = func(r *wire.Reader) DialogRef { return DialogRef{Registry: -1, Inline: r.NBT()} }
	c.ShowDialog = func(r *wire.Reader) DialogRef {
		if id := r.VarInt(); id != 0 {
			return DialogRef{Registry: id - 1}
		}
		return DialogRef{Registry: -1, Inline: r.NBT()}
	}

	// custom_click_action (configuration 0x08, play) is an identifier and a
	// VarInt-length-prefixed NBT tag, at most 65536 bytes; no payload is
	// TAG_End, so length 1 and 00 (game 1.21.7 and 26.1.2
	// ServerboundCustomClickActionPacket: optionalTagCodec applied to
	// lengthPrefixed(65536)). minecraft-data's bool + NBT is wrong
	// (correction C4): its "no payload" byte 00 reads as an empty payload
	// in the game, which cannot decode it and disconnects.
	c.WriteCustomClickAction = func(w *wire.Writer, a CustomClickAction) {
		w.String(a.ID)
		if a.Payload == nil {
			w.VarInt(1)
			w.Byte(0)
			return
		}
		w.ByteArray(a.Payload)
	}
	v771Sleep(c)
}
