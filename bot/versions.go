package bot

import (
	"github.com/blockmate/blockmate/bot/wire"
)

// version holds everything that differs between the protocol versions the
// bot speaks, each difference in one place. Packet ids differ too; they come
// from the generated tables (bot/mcdata).
type version struct {
	protocol int32
	// loginStrictErrors: login success ends with a strict-error-handling
	// flag (1.20.5 to 1.21.1).
	loginStrictErrors bool
	// newPosition: the position sync carries the teleport id first, then
	// position, velocity, rotation and 32-bit relative flags (1.21.2+); before,
	// position, rotation, 8-bit flags, then the id.
	newPosition bool
	// movementFlags: serverbound movement ends with a flags byte (on ground,
	// against a wall) instead of an on-ground boolean (1.21.2+).
	movementFlags bool
	// playerLoaded: the client tells the server it has loaded the world
	// after the first position sync and after respawning (1.21.4+).
	playerLoaded bool
	// heldSlotVarInt: the clientbound held-slot packet's slot is a VarInt
	// (1.21.4+), a byte before. The bot only reads slots 0 to 8, which
	// encode the same either way, but the layout is recorded here.
	heldSlotVarInt bool
	// particleStatus: client information ends with the particle setting
	// (1.21.2+).
	particleStatus bool
	// seaLevel: the spawn info in login and respawn ends with the sea level
	// (1.21.2+).
	seaLevel bool
	// tickDayTime: the time update ends with whether the day time advances
	// (1.21.2+).
	tickDayTime bool
	// listOrder and hat: player info actions 0x40 (list order, 1.21.2+) and
	// 0x80 (show hat, 1.21.4+). minecraft-data 3.119.0 swaps the two bits for
	// 1.21.4; wiki.vg and the game put list order first.
	listOrder, hat bool
}

var versions = map[int32]*version{
	767: {protocol: 767, loginStrictErrors: true},
	768: {protocol: 768, newPosition: true, movementFlags: true, particleStatus: true, seaLevel: true, tickDayTime: true, listOrder: true},
	769: {protocol: 769, newPosition: true, movementFlags: true, playerLoaded: true, heldSlotVarInt: true, particleStatus: true, seaLevel: true, tickDayTime: true, listOrder: true, hat: true},
}

// positionSync is the server's position packet.
type positionSync struct {
	teleportID  int32
	x, y, z     float64
	yaw, pitch  float32
	relative    uint32 // bit 0 x, 1 y, 2 z, 3 yaw, 4 pitch
	hasVelocity bool
}

func (v *version) readPosition(r *wire.Reader) positionSync {
	var p positionSync
	if v.newPosition {
		p.teleportID = r.VarInt()
		p.x, p.y, p.z = r.Float64(), r.Float64(), r.Float64()
		_, _, _ = r.Float64(), r.Float64(), r.Float64() // velocity
		p.yaw, p.pitch = r.Float32(), r.Float32()
		p.relative = uint32(r.Int32())
		p.hasVelocity = true
	} else {
		p.x, p.y, p.z = r.Float64(), r.Float64(), r.Float64()
		p.yaw, p.pitch = r.Float32(), r.Float32()
		p.relative = uint32(r.Byte())
		p.teleportID = r.VarInt()
	}
	return p
}

// writeOnGround ends a serverbound movement packet.
func (v *version) writeOnGround(w *wire.Writer, onGround bool) {
	if v.movementFlags {
		var flags byte
		if onGround {
			flags = 1
		}
		w.Byte(flags)
	} else {
		w.Bool(onGround)
	}
}

// spawnInfo is the part login and respawn share.
type spawnInfo struct {
	dimensionType int32
	dimension     string
	gameMode      int8
}

func (v *version) readSpawnInfo(r *wire.Reader) spawnInfo {
	var s spawnInfo
	s.dimensionType = r.VarInt()
	s.dimension = r.String(32767)
	_ = r.Int64() // hashed seed
	s.gameMode = r.Int8()
	_ = r.Byte()  // previous game mode
	_ = r.Bool()  // debug
	_ = r.Bool()  // flat
	if r.Bool() { // last death location
		_ = r.String(32767)
		_, _, _ = r.Position()
	}
	_ = r.VarInt() // portal cooldown
	if v.seaLevel {
		_ = r.VarInt()
	}
	return s
}

func (v *version) writeClientInfo(w *wire.Writer, viewDistance int8) {
	w.String("en_us")
	w.Int8(viewDistance)
	w.VarInt(0)   // chat: full
	w.Bool(true)  // chat colours
	w.Byte(0x7f)  // skin parts: all
	w.VarInt(1)   // main hand: right
	w.Bool(false) // text filtering
	w.Bool(true)  // show in the server list
	if v.particleStatus {
		w.VarInt(2) // particles: minimal
	}
}
