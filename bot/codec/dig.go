package codec

import "github.com/blockmate/blockmate/bot/wire"

// The layouts of digging, placing and using blocks (bot/dig). Sources:
// minecraft-data's protocol.json of every data version (block_place,
// arm_animation, acknowledge_player_digging, entity_effect,
// remove_entity_effect; block_dig is WritePlayerAction, with the
// inventory's layouts), read beside the game's ServerboundUseItemOnPacket
// and BlockHitResult; bytes checked against minecraft-protocol's serializer
// (dig_test.go).

// Block faces as the game numbers them (Direction.get3DDataValue): the
// face of a block that a click or a dig hits.
const (
	FaceDown  = 0 // -y
	FaceUp    = 1 // +y
	FaceNorth = 2 // -z
	FaceSouth = 3 // +z
	FaceWest  = 4 // -x
	FaceEast  = 5 // +x
)

// Hands as the game numbers them (InteractionHand).
const (
	HandMain = 0
	HandOff  = 1
)

// EntityEffect is a status effect the server put on an entity
// (update_mob_effect): its id in the mob_effect registry, the amplifier
// (level - 1), the duration in ticks (-1 for infinite) and the flags.
type EntityEffect struct {
	EntityID  int32
	Effect    int32
	Amplifier int32
	Duration  int32
	Flags     byte
}

// RemoveEntityEffect is an effect that ended on an entity.
type RemoveEntityEffect struct {
	EntityID int32
	Effect   int32
}

// baseDig sets the layouts of 767.
func baseDig(c *Codec) {
	c.BlockChangedAck = func(r *wire.Reader) int32 { return r.VarInt() }
	c.EntityEffect = func(r *wire.Reader) EntityEffect {
		return EntityEffect{EntityID: r.VarInt(), Effect: r.VarInt(), Amplifier: r.VarInt(), Duration: r.VarInt(), Flags: r.Byte()}
	}
	c.RemoveEntityEffect = func(r *wire.Reader) RemoveEntityEffect {
		return RemoveEntityEffect{EntityID: r.VarInt(), Effect: r.VarInt()}
	}
}
