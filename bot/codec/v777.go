package codec

import (
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// Protocol 777 (26.3): what changed from 776. Sources, each named with its
// commit in bot/mcdata/internal/gen/sources/26.3.json and its README: the
// decompiled 26.3 game (0khs/minecraft_source_26.3, the release: protocol
// 777, world version 5023), read for every layout below, and for each a
// second source, ViaVersion's EntityPacketRewriter26_3 (1269c4db, which
// turns 26.2 packets into 26.3's) or ViaBackwards' (14958dbd, which reads
// 26.3's), or a chunk a 26.3 server sent (wupengabc/node-minecraft-
// protocol's captured frame, vectors in testdata).
//
// Also new in 26.3, and handled elsewhere or not read: play ids from 0x25
// move up (add_transient_block, post_effects and swing_animation are new;
// the serverbound swing is gone and punch new), and configuration ids from
// 0x0a (post_effects), all in the generated packet table; entity metadata
// type 43 is dye_color, a VarInt (the generated table); 13 data components
// are new and pot_decorations, trim materials, instruments and the
// teleport consume effect changed (the generated item schemas); the
// clientbound animate keeps its layout, with wake up 0, critical hit 1 and
// magic critical hit 2, and swings come as swing_animation (the bot reads
// neither).
func init() { define(777, v777) }

// maxPositionSteps bounds the steps of one entity move or position sync:
// the game sends the positions of the ticks since the last update, a
// handful, and VecDelta.read refuses more steps than the bytes left
// could hold.
const maxPositionSteps = 1024

func v777(c *Codec) {
	// Light masks (in level_chunk_with_light, and light_update) are
	// ByteBufCodecs.BIT_SET: a VarInt count of bytes and the bytes of
	// BitSet.toByteArray(), no longer a VarInt count of longs (decompiled
	// ClientboundLightUpdatePacketData and ByteBufCodecs; the captured
	// 26.3 chunk has a sky mask of one byte, 06). The sections keep 26.1's
	// form (ClientboundLevelChunkPacketData; ViaVersion reads 26.3 chunks
	// with ChunkType26_1).
	c.ChunkFormat.LightMaskBytes = true

	// A partly filtered chat message's mask is ByteBufCodecs.BIT_SET too
	// (decompiled FilterMask).
	c.SkipFilterMask = func(r *wire.Reader) { r.Bytes(r.Count(1)) }

	// The spawn info's game mode is a VarInt and the previous game mode
	// ByteBufCodecs.OPTIONAL_VAR_INT, 0 for none, else the mode plus one;
	// they were two bytes, -1 for none (decompiled CommonPlayerSpawnInfo
	// and GameType; ViaVersion writes and ViaBackwards reads the two so).
	c.SpawnInfo = spawnInfo777

	// Moves: the entity id, a VarInt of flags (bit 0 on ground, the rest
	// the number of steps), then with no steps the three shorts of one
	// delta, else per step a VarInt tick offset and three shorts, each
	// step relative to the one before; yaw and pitch bytes follow for
	// move_entity_pos_rot. move_entity_rot puts on ground first
	// (decompiled ClientboundMoveEntityPacket and VecDelta; ViaBackwards
	// sums the steps' deltas, as the bot does: it keeps where the entity
	// ends, not the path there).
	c.EntityMove = func(r *wire.Reader) EntityMove {
		m := EntityMove{EntityID: r.VarInt(), HasMove: true}
		readSteppedMove(r, &m)
		return m
	}
	c.EntityMoveLook = func(r *wire.Reader) EntityMove {
		m := EntityMove{EntityID: r.VarInt(), HasMove: true, HasLook: true}
		readSteppedMove(r, &m)
		m.Yaw, m.Pitch = angle(r), angle(r)
		return m
	}
	c.EntityLook = func(r *wire.Reader) EntityMove {
		m := EntityMove{EntityID: r.VarInt(), HasLook: true}
		m.OnGround = r.Bool()
		m.Yaw, m.Pitch = angle(r), angle(r)
		return m
	}

	// The position sync of an entity is the id, a PositionPath, yaw and
	// pitch floats and on ground; the velocity is gone (decompiled
	// ClientboundEntityPositionSyncPacket). A PositionPath is a VarInt
	// type: 0, one position (three doubles); else a VarInt count of steps,
	// each a position and a VarInt tick offset (ViaBackwards reads both
	// types; ViaVersion writes type 1 with one step). The entity ends at
	// the last step.
	c.SyncEntityPosition = func(r *wire.Reader) EntityTeleport {
		t := EntityTeleport{EntityID: r.VarInt()}
		if r.VarInt() == 0 {
			t.X, t.Y, t.Z = r.Float64(), r.Float64(), r.Float64()
		} else {
			n := r.Count(8*3 + 1)
			if n > maxPositionSteps {
				r.Failf("a position sync of %d steps is more than %d", n, maxPositionSteps)
				return t
			}
			if n == 0 {
				r.Failf("a stepped position sync without steps")
				return t
			}
			for i := 0; i < n && r.Err() == nil; i++ {
				t.X, t.Y, t.Z = r.Float64(), r.Float64(), r.Float64()
				_ = r.VarInt() // tick offset
			}
		}
		t.Yaw, t.Pitch = r.Float32(), r.Float32()
		t.OnGround = r.Bool()
		return t
	}

	// The teleport confirmation carries the position (three doubles) and
	// the rotation (two floats) the client took from the sync (decompiled
	// ServerboundAcceptTeleportationPacket; ViaVersion reads and
	// ViaBackwards writes them so).
	c.WriteTeleportConfirm = func(w *wire.Writer, t TeleportConfirm) {
		w.VarInt(t.ID)
		w.Float64(t.X)
		w.Float64(t.Y)
		w.Float64(t.Z)
		w.Float32(t.Yaw)
		w.Float32(t.Pitch)
	}

	// Player actions: CHANGE_DESTROY_DIRECTION is new at 1, so every
	// action from abort on moves up by one (abort 2, stop/finish digging
	// 3, drop all 4, drop 5, release 6, swap 7; decompiled
	// ServerboundPlayerActionPacket.Action; ViaVersion maps 26.3's ids
	// above 1 down by one). The bot's Action* constants keep their 26.2
	// numbers; this writes them as 26.3 numbers them.
	c.WritePlayerAction = func(w *wire.Writer, a PlayerAction) {
		status := a.Status
		if status >= ActionAbortDigging {
			status++
		}
		w.VarInt(status)
		writePosition(w, a.Pos)
		w.Int8(a.Face)
		w.VarInt(a.Sequence)
	}

	// The serverbound swing is punch, with no fields and no hand: a main
	// hand swing (decompiled ServerboundPunchPacket, a unit codec;
	// ViaVersion maps it to 26.2's swing with the main hand, ViaBackwards
	// drops 26.2's off-hand swings). An off-hand swing sends nothing.
	c.SwingPacket = func(hand int32) (mcdata.Packet, bool) {
		return mcdata.ServerboundPlayPunch, hand == HandMain
	}
	c.WriteSwing = func(*wire.Writer, int32) {}
}

// readSteppedMove reads a move's flags and deltas into m: the summed delta
// in blocks (4096ths on the wire) and on ground.
func readSteppedMove(r *wire.Reader, m *EntityMove) {
	flags := r.VarInt()
	m.OnGround = flags&1 != 0
	steps := int(uint32(flags) >> 1)
	if steps == 0 {
		m.DX, m.DY, m.DZ = delta(r), delta(r), delta(r)
		return
	}
	// Each step takes 7 bytes at least (VecDelta.Stepped.MIN_BYTES_PER_STEP).
	if steps > maxPositionSteps || steps > r.Remaining()/7 {
		r.Failf("a move of %d steps in %d bytes", steps, r.Remaining())
		return
	}
	var dx, dy, dz int64
	for i := 0; i < steps && r.Err() == nil; i++ {
		_ = r.VarInt() // tick offset
		dx += int64(r.Int16())
		dy += int64(r.Int16())
		dz += int64(r.Int16())
	}
	m.DX, m.DY, m.DZ = float64(dx)/4096, float64(dy)/4096, float64(dz)/4096
}

// spawnInfo777 is 26.3's spawn info.
func spawnInfo777(r *wire.Reader) SpawnInfo {
	s := SpawnInfo{DimensionType: r.VarInt(), Dimension: r.String(maxIdentifier), HashedSeed: r.Int64()}
	s.GameMode = gameMode(r.VarInt())
	s.PreviousGameMode = -1
	if prev := r.VarInt(); prev != 0 {
		s.PreviousGameMode = gameMode(prev - 1)
	}
	s.Debug, s.Flat = r.Bool(), r.Bool()
	if r.Bool() {
		dim := r.String(maxIdentifier)
		x, y, z := r.Position()
		s.DeathLocation = &GlobalPos{Dimension: dim, Pos: BlockPos{x, y, z}}
	}
	s.PortalCooldown = r.VarInt()
	s.SeaLevel = r.VarInt()
	return s
}

// gameMode is a game mode id as the game reads it: GameType's id map
// (survival 0 to spectator 3) answers survival for any other id
// (ByIdMap.OutOfBoundsStrategy.ZERO).
func gameMode(id int32) int8 {
	if id < 0 || id > 3 {
		return 0
	}
	return int8(id)
}
