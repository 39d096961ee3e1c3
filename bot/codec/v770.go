package codec

import (
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/wire"
)

// Protocol 770 (1.21.5): what changed from 769. Sources: minecraft-data's
// pc/1.21.4 → pc/1.21.5 protocol.json diff, read beside the decompiled game
// of 1.21.4 and 1.21.7 (no 1.21.5 decompile was found; both sides agree on
// each fact below, and minecraft-data dates it to this step).
//
// Also new in 1.21.5, and handled elsewhere: entity metadata type ids from
// 23 on are renumbered (cow, pig and chicken variants, the wolf sound
// variant: the generated table); clientbound play ids below 0x77 move
// down by one (the generated packet table); minecraft-data still lists bogus serverbound configuration
// packets 0x08 and 0x09 (correction C1, now through 770).
func init() { define(770, v770) }

func v770(c *Codec) {
	// Chat messages end with a checksum of the acknowledged signatures
	// (game 1.21.7 ServerboundChatPacket → LastSeenMessages.Update). The
	// bot sends 0, the game's IGNORE_CHECKSUM: it signs nothing, and a
	// wrong non-zero value is a kick. (Unsigned chat_command has no
	// checksum; signed chat_command_signed, which the bot never sends,
	// has one too.)
	baseChat := c.WriteChatMessage
	c.WriteChatMessage = func(w *wire.Writer, m ChatMessage) {
		baseChat(w, m)
		w.Byte(m.Checksum)
	}

	// Player chat starts with the message's global index, its count of
	// player chat since login (game 1.21.7 ClientboundPlayerChatPacket);
	// everything after it is as before.
	c.PlayerChat = func(r *wire.Reader) PlayerChat {
		index := r.VarInt()
		m := playerChat(c, r)
		m.GlobalIndex = index
		return m
	}

	// The wolf variant metadata value is a registry id (a VarInt); it was
	// a holder that could carry the variant inline.
	baseValue := c.MetadataValue
	c.MetadataValue = func(r *wire.Reader, kind MetadataKind) (any, bool) {
		if kind == MetaWolfVariant {
			return r.VarInt(), true
		}
		return baseValue(r, kind)
	}

	// Chunk data: heightmaps are an array of (type, longs) instead of an
	// NBT compound, and paletted containers no longer send their long
	// count (game 1.21.7 ClientboundLevelChunkPacketData and
	// PalettedContainer; prismarine-chunk's noSizePrefix from 1.21.5).
	c.ChunkFormat.HeightmapArray = true
	c.ChunkFormat.NoSizePrefix = true

	// window_click carries hashed stacks (a presence flag, item id, count,
	// component hashes and removed component types) for the changed slots
	// and the cursor, instead of whole stacks (game 1.21.7
	// ServerboundContainerClickPacket and HashedStack; minecraft-data
	// HashedSlot). The server only compares them with its own slots to
	// decide what to send back (item.WriteHashedStack says what the bot
	// sends).
	c.WriteWindowClick = func(w *wire.Writer, wc WindowClick) error {
		w.VarInt(wc.Window)
		return writeWindowClick(w, c.Protocol, wc, item.WriteHashedStack)
	}
	// spawn_entity_experience_orb is gone: orbs come as spawn_entity of
	// type experience_orb, their value in entity data (game 1.21.7
	// ExperienceOrb DATA_VALUE; minecraft-data drops the packet at 1.21.5).
	c.SpawnExperienceOrb = nil
}
