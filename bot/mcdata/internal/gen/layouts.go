package gen

// LayoutCorrection is a place where minecraft-data's layout of a packet the
// bot reads or writes differs from the game's. The packet tables do not
// change (the ids are right); bot/codec follows the game, with a comment
// naming the correction where it reads or writes the packet, and the
// generated packets_gen.go repeats each entry in its header so that a
// reader of the tables sees where the source is wrong. Every entry gives
// both facts and its source; the numbers are those of the team's notes
// (notes/PROTOCOL-CHANGES.md §D). C1 is a dropped packet (Corrections);
// C5 to C7 are item and metadata value layouts, which the schema step's
// type corrections carry.
type LayoutCorrection struct {
	ID        string
	Protocols []int
	// Where names the packet and field.
	Where string
	// MD is minecraft-data's layout, Game the game's.
	MD, Game string
	// Impact says what reading by minecraft-data would do on the wire.
	Impact string
}

// LayoutCorrections lists the layout facts where the game and the pinned
// minecraft-data disagree. Sources: the decompiled game of 1.21.4,
// 1.21.7, 1.21.11 and 26.1.2, as cited.
var LayoutCorrections = []LayoutCorrection{
	{
		ID: "C2", Protocols: []int{769, 770, 771, 772, 773, 774, 775, 776, 777}, Where: "play clientbound player_info action bits",
		MD:     "0x40 is update_hat and 0x80 update_list_order, read in that order",
		Game:   "0x40 is UPDATE_LIST_ORDER (VarInt) and 0x80 UPDATE_HAT (bool), read in bit order (ClientboundPlayerInfoUpdatePacket.Action, 1.21.4, 1.21.7, 26.1.2)",
		Impact: "an encoder by minecraft-data sets the wrong bit when only one of the two is present",
	},
	{
		ID: "C3", Protocols: []int{767, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777}, Where: "play clientbound player_info update_listed",
		MD:     "a VarInt",
		Game:   "a bool (ClientboundPlayerInfoUpdatePacket, 1.21.4 and 26.1.2)",
		Impact: "the same byte for 0 and 1",
	},
	{
		ID: "C4", Protocols: []int{771, 772, 773, 774, 775, 776, 777}, Where: "configuration and play serverbound custom_click_action payload",
		MD:     "an optional NBT tag (a bool, then the tag)",
		Game:   "a VarInt byte length of at most 65536, then that many bytes holding one network NBT tag; no payload is length 1 and TAG_End (ServerboundCustomClickActionPacket, 1.21.11 and 26.1.2)",
		Impact: "incompatible: minecraft-data's 00 for no payload is a zero-length payload to the game, which fails to decode it and disconnects",
	},
	{
		ID: "C8", Protocols: []int{774}, Where: "play serverbound enchant_item enchantment (container button)",
		MD:     "an i8",
		Game:   "a VarInt (ButtonClickC2SPacket, 1.21.11)",
		Impact: "the same bytes for 0 to 127",
	},
	{
		ID: "C9", Protocols: []int{767, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777}, Where: "play clientbound multi_block_change records",
		MD:     "an array of VarInt",
		Game:   "an array of VarLong (state << 12 | x << 8 | z << 4 | y; ClientboundSectionBlocksUpdatePacket)",
		Impact: "the same bytes while block state ids stay below 2^19",
	},
	{
		ID: "C10", Protocols: []int{767, 768, 769, 770, 771, 772, 773, 774, 775, 776, 777}, Where: "play clientbound entity_update_attributes modifier",
		MD:     "uuid named a string, operation an i8",
		Game:   "an identifier id and a VarInt operation (AttributeModifier.STREAM_CODEC)",
		Impact: "the same bytes for operations 0 to 2",
	},
	{
		ID: "C11", Protocols: []int{773}, Where: "loginPacket.json of 1.21.9 (data, not protocol)",
		MD:     "worldState has no seaLevel",
		Game:   "the spawn info carries seaLevel from 1.21.2 on (CommonPlayerSpawnInfo)",
		Impact: "servers built on minecraft-data send sea level 0; the bot must not rely on it",
	},
}
