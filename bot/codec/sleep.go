package codec

import "github.com/blockmate/blockmate/bot/wire"

// baseSleep sets the sleep layouts of 767: entity_action's stop_sleeping is
// action 2 (minecraft-data pc/1.21.1 packet_entity_action; the game's
// ServerboundPlayerCommandPacket.Action.STOP_SLEEPING).
func baseSleep(c *Codec) {
	c.WriteLeaveBed = func(w *wire.Writer, entityID int32) { writePlayerCommand(w, entityID, 2) }
}

// v771Sleep: 1.21.6 dropped the two sneak actions, so stop_sleeping moved
// to 0 (minecraft-data pc/1.21.6 packet_entity_action).
func v771Sleep(c *Codec) {
	c.WriteLeaveBed = func(w *wire.Writer, entityID int32) { writePlayerCommand(w, entityID, 0) }
}

// writePlayerCommand writes entity_action: the entity, the action and a
// jump boost of 0.
func writePlayerCommand(w *wire.Writer, entityID, action int32) {
	w.VarInt(entityID)
	w.VarInt(action)
	w.VarInt(0)
}
