package codec

import "github.com/blockmate/blockmate/bot/wire"

// Protocol 773 (1.21.9, 1.21.10): what changed from 772. Sources:
// minecraft-data's pc/1.21.8 → pc/1.21.9 protocol.json diff and the
// decompiled game of 1.21.11 and 26.1.2, which keep every layout below (no
// 1.21.9 decompile was found).
//
// Also new in 1.21.9, and handled elsewhere or not read yet: entity
// metadata type compound_tag is gone, so ids from 16 on move down, and
// copper golem states and resolvable profiles are added (the generated
// table); player_rotation carries relative flags; clientbound play ids from 0x1a
// move up by four (the generated packet table). minecraft-data's 1.21.9
// login data has no sea level (C11): peers built on it send 0.
func init() { define(773, v773) }

func v773(c *Codec) {
	// The code of conduct (configuration): the server sends its text and
	// waits for accept_code_of_conduct, an empty packet, before it goes
	// on; an accept it did not ask for ends the connection (game 1.21.11
	// ServerCodeOfConductConfigurationTask; 26.1.2
	// ClientboundCodeOfConductPacket: one UTF-8 string).
	c.CodeOfConduct = func(r *wire.Reader) string { return r.String(maxString) }

	// The spawn position is the game's RespawnData: the dimension, the
	// position, a yaw and a pitch (26.1.2
	// ClientboundSetDefaultSpawnPositionPacket; it was a position and an
	// angle).
	c.SpawnPosition = func(r *wire.Reader) SpawnPosition {
		s := SpawnPosition{Dimension: r.String(maxIdentifier)}
		x, y, z := r.Position()
		s.Pos = BlockPos{x, y, z}
		s.Yaw, s.Pitch = r.Float32(), r.Float32()
		return s
	}

	// Velocities are low-precision vectors (LpVec3) in blocks per tick,
	// and spawn_entity carries its right after the position, before the
	// angles (26.1.2 ClientboundAddEntityPacket and
	// ClientboundSetEntityMotionPacket, Vec3.LP_STREAM_CODEC; minecraft-
	// data's lpVec3 at 1.21.9).
	c.SpawnEntity = func(r *wire.Reader) SpawnEntity {
		e := SpawnEntity{EntityID: r.VarInt(), UUID: r.UUID(), Type: r.VarInt(), X: r.Float64(), Y: r.Float64(), Z: r.Float64()}
		e.VX, e.VY, e.VZ = ReadLpVec3(r)
		e.Pitch, e.Yaw, e.HeadYaw = angle(r), angle(r), angle(r)
		e.Data = r.VarInt()
		return e
	}
	c.EntityVelocity = func(r *wire.Reader) EntityVelocity {
		v := EntityVelocity{EntityID: r.VarInt()}
		v.VX, v.VY, v.VZ = ReadLpVec3(r)
		return v
	}
}
