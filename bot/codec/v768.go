package codec

import (
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/wire"
)

// Protocol 768 (1.21.2, 1.21.3): what changed from 767. Sources:
// minecraft-data's pc/1.21.1 → pc/1.21.3 protocol.json diff and the wiki's
// protocol page for 1.21.2.
func init() { define(768, v768) }

func v768(c *Codec) {
	// Login success lost the strict-error-handling flag.
	c.LoginSuccess = loginSuccess

	// Client information ends with the particle setting.
	c.WriteClientInformation = func(w *wire.Writer, ci ClientInformation) {
		writeClientInformation(w, ci)
		w.VarInt(ci.ParticleStatus)
	}

	// The spawn info (play login and respawn) ends with the sea level.
	base := c.SpawnInfo
	c.SpawnInfo = func(r *wire.Reader) SpawnInfo {
		s := base(r)
		s.SeaLevel = r.VarInt()
		return s
	}

	// The position sync starts with the teleport id, carries a velocity
	// and has 32 relative-flag bits (the velocity's among them).
	c.PositionSync = func(r *wire.Reader) PositionSync {
		var p PositionSync
		p.TeleportID = r.VarInt()
		p.X, p.Y, p.Z = r.Float64(), r.Float64(), r.Float64()
		p.VX, p.VY, p.VZ = r.Float64(), r.Float64(), r.Float64()
		p.Yaw, p.Pitch = r.Float32(), r.Float32()
		p.Relative = uint32(r.Int32())
		return p
	}

	// Movement ends with a flags byte (on ground, against a wall) instead
	// of the on-ground boolean.
	c.WriteMovement = func(w *wire.Writer, m Movement) {
		writePositionLook(w, m)
		w.Byte(movementFlags(m))
	}
	c.WriteMovementStatus = func(w *wire.Writer, m Movement) { w.Byte(movementFlags(m)) }

	// The time update says whether the day time advances, instead of a
	// negative time of day.
	c.TimeUpdate = func(r *wire.Reader) TimeUpdate {
		return TimeUpdate{WorldAge: r.Int64(), TimeOfDay: r.Int64(), TickDayTime: r.Bool()}
	}

	// Player info gained action 0x40, the list order.
	c.PlayerInfoActions = append(c.PlayerInfoActions[:len(c.PlayerInfoActions):len(c.PlayerInfoActions)], ActionListOrder)

	v768Inventory(c)
	v768Entities(c)
	v768Skills(c)
	v768Movement(c)
}

// v768Movement: position and look end with the flags byte (on ground,
// against a wall) as position_look does, and player_input is the keys held
// (minecraft-data pc/1.21.3 packet_position, packet_look,
// packet_player_input: a bitflags u8 forward, backward, left, right, jump,
// shift, sprint; the game's ServerboundPlayerInputPacket).
func v768Movement(c *Codec) {
	c.WritePosition = func(w *wire.Writer, m Movement) {
		w.Float64(m.X)
		w.Float64(m.Y)
		w.Float64(m.Z)
		w.Byte(movementFlags(m))
	}
	c.WriteLook = func(w *wire.Writer, m Movement) {
		w.Float32(m.Yaw)
		w.Float32(m.Pitch)
		w.Byte(movementFlags(m))
	}
	c.WritePlayerInput = func(w *wire.Writer, keys byte) { w.Byte(keys) }
}

// v768Inventory: container ids are VarInts in every packet that carries
// one (the game's ByteBufCodecs.CONTAINER_ID, 1.21.2; minecraft-data
// pc/1.21.3 ContainerID). The cursor and the player's inventory slots now
// come in packets of their own (set_cursor_item, set_player_inventory),
// which base reads.
func v768Inventory(c *Codec) {
	p := c.Protocol
	c.WindowItems = func(r *wire.Reader) WindowItems {
		wi := WindowItems{Window: r.VarInt(), StateID: r.VarInt()}
		wi.Items = readWindowSlots(r, p)
		wi.Carried = item.ReadSlot(r, p)
		return wi
	}
	c.SetSlot = func(r *wire.Reader) SetSlot {
		return SetSlot{Window: r.VarInt(), StateID: r.VarInt(), Slot: r.Int16(), Item: item.ReadSlot(r, p)}
	}
	c.CloseWindow = func(r *wire.Reader) int32 { return r.VarInt() }
	c.WindowProperty = func(r *wire.Reader) WindowProperty {
		return WindowProperty{Window: r.VarInt(), Property: r.Int16(), Value: r.Int16()}
	}
	c.WriteWindowClick = func(w *wire.Writer, wc WindowClick) error {
		w.VarInt(wc.Window)
		return writeWindowClick(w, p, wc, item.WriteSlot)
	}
	c.WriteCloseWindow = func(w *wire.Writer, window int32) { w.VarInt(window) }
}

// v768Entities: entity teleports carry a velocity and relative flags, and
// sync_entity_position is new (minecraft-data pc/1.21.3; the game's
// ClientboundTeleportEntityPacket and ClientboundEntityPositionSyncPacket,
// 1.21.4).
func v768Entities(c *Codec) {
	c.EntityTeleport = func(r *wire.Reader) EntityTeleport {
		t := EntityTeleport{EntityID: r.VarInt(), HasVelocity: true}
		t.X, t.Y, t.Z = r.Float64(), r.Float64(), r.Float64()
		t.VX, t.VY, t.VZ = r.Float64(), r.Float64(), r.Float64()
		t.Yaw, t.Pitch = r.Float32(), r.Float32()
		t.Relative = uint32(r.Int32())
		t.OnGround = r.Bool()
		return t
	}
	c.SyncEntityPosition = func(r *wire.Reader) EntityTeleport {
		t := EntityTeleport{EntityID: r.VarInt(), HasVelocity: true}
		t.X, t.Y, t.Z = r.Float64(), r.Float64(), r.Float64()
		t.VX, t.VY, t.VZ = r.Float64(), r.Float64(), r.Float64()
		t.Yaw, t.Pitch = r.Float32(), r.Float32()
		t.OnGround = r.Bool()
		return t
	}
}

// movementFlags is the flags byte of 1.21.2's movement packets.
func movementFlags(m Movement) byte {
	var flags byte
	if m.OnGround {
		flags |= 1
	}
	if m.HorizontalCollision {
		flags |= 2
	}
	return flags
}
