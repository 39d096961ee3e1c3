package metadata

import (
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/protodef"
)

// The typed accessors answer false when the entry is of another type (or,
// for optional types, holds nothing).

func (e Entry) is(names ...string) bool {
	for _, n := range names {
		if e.Type == n {
			return true
		}
	}
	return false
}

// Byte is a "byte" value (the shared flags at index 0 are one).
func (e Entry) Byte() (int8, bool) {
	if !e.is("byte") {
		return 0, false
	}
	return int8(e.Value.Int), true
}

// Int is an "int" value (a VarInt: air supply, ticks frozen …).
func (e Entry) Int() (int32, bool) {
	if !e.is("int") {
		return 0, false
	}
	return int32(e.Value.Int), true
}

// Long is a "long" value.
func (e Entry) Long() (int64, bool) {
	if !e.is("long") {
		return 0, false
	}
	return e.Value.Int, true
}

// Float is a "float" value (a living entity's health is one).
func (e Entry) Float() (float32, bool) {
	if !e.is("float") {
		return 0, false
	}
	return e.Value.Float32(), true
}

// Str is a "string" value.
func (e Entry) Str() (string, bool) {
	if !e.is("string") {
		return "", false
	}
	return e.Value.Str, true
}

// Bool is a "boolean" value.
func (e Entry) Bool() (bool, bool) {
	if !e.is("boolean") {
		return false, false
	}
	return e.Value.Bool(), true
}

// Text is a "component" value, or an "optional_component" that is present
// (the custom name at index 2), as a chat component in NBT form (see
// bot/chat). Names are set by players: treat the text as untrusted.
func (e Entry) Text() (any, bool) {
	switch e.Type {
	case "component":
		return e.Value.NBT, e.Value.NBT != nil
	case "optional_component":
		if inner, ok := e.Value.Elem(); ok && inner.NBT != nil {
			return inner.NBT, true
		}
	}
	return nil, false
}

// Stack is an "item_stack" value (a dropped item's stack, an item frame's
// item …). An empty stack is returned as such, with true.
func (e Entry) Stack() (item.Stack, bool) {
	if !e.is("item_stack") {
		return item.Stack{}, false
	}
	s, ok := e.Value.Ext.(item.Stack)
	return s, ok
}

// PoseIndex is the pose's index in every entity's metadata (the game's
// Entity.DATA_POSE, 6 in 1.21.1 to 26.1.2).
const PoseIndex = 6

// Pose is an entity's pose; the ids are the game's Pose enum (1.21.1 to
// 26.1.2 Pose.java, unchanged across these versions); an id the game does
// not know reads as Standing, as the game reads it (ByIdMap ZERO).
type Pose int32

// The poses.
const (
	Standing Pose = iota
	FallFlying
	Sleeping
	Swimming
	SpinAttack
	Crouching
	LongJumping
	Dying
	Croaking
	UsingTongue
	Sitting
	Roaring
	Sniffing
	Emerging
	Digging
	Sliding
	Shooting
	Inhaling
	numPoses
)

var poseNames = [numPoses]string{
	"standing", "fall_flying", "sleeping", "swimming", "spin_attack", "crouching", "long_jumping", "dying",
	"croaking", "using_tongue", "sitting", "roaring", "sniffing", "emerging", "digging", "sliding", "shooting", "inhaling",
}

func (p Pose) String() string {
	if p < 0 || p >= numPoses {
		return poseNames[Standing]
	}
	return poseNames[p]
}

// Pose is a "pose" value.
func (e Entry) Pose() (Pose, bool) {
	if !e.is("pose") {
		return Standing, false
	}
	p := Pose(e.Value.Int)
	if p < 0 || p >= numPoses {
		p = Standing
	}
	return p, true
}

// UUID is an "optional_uuid" that is present (an owner, a tamer).
func (e Entry) UUID() ([16]byte, bool) {
	var u [16]byte
	if !e.is("optional_uuid") {
		return u, false
	}
	inner, ok := e.Value.Elem()
	if !ok || len(inner.Bytes) != 16 {
		return u, false
	}
	copy(u[:], inner.Bytes)
	return u, true
}

// BlockPos is a "block_pos", or an "optional_block_pos" that is present.
func (e Entry) BlockPos() (x, y, z int, ok bool) {
	v := e.Value
	switch e.Type {
	case "block_pos":
	case "optional_block_pos":
		if v, ok = v.Elem(); !ok {
			return 0, 0, 0, false
		}
	default:
		return 0, 0, 0, false
	}
	x, y, z = v.Position()
	return x, y, z, true
}

// GlobalPos is an "optional_global_pos" that is present: a dimension and a
// block position (a recovery compass's last death location).
func (e Entry) GlobalPos() (dimension string, x, y, z int, ok bool) {
	if !e.is("optional_global_pos") {
		return "", 0, 0, 0, false
	}
	inner, ok := e.Value.Elem()
	if !ok {
		return "", 0, 0, 0, false
	}
	dim, ok1 := inner.Field("dimensionName")
	pos, ok2 := inner.Field("location")
	if !ok1 || !ok2 {
		return "", 0, 0, 0, false
	}
	x, y, z = pos.Position()
	return dim.Str, x, y, z, true
}

// BlockState is a "block_state" value, or an "optional_block_state" (0 is
// none, that is air).
func (e Entry) BlockState() (int32, bool) {
	if !e.is("block_state", "optional_block_state") {
		return 0, false
	}
	return int32(e.Value.Int), true
}

// OptionalInt is an "optional_unsigned_int" that is present (the wire
// sends n+1, 0 for none).
func (e Entry) OptionalInt() (int32, bool) {
	if !e.is("optional_unsigned_int") || e.Value.Int == 0 {
		return 0, false
	}
	return int32(e.Value.Int - 1), true
}

// Direction is a "direction" value (0 down, 1 up, 2 north, 3 south, 4 west,
// 5 east).
func (e Entry) Direction() (int32, bool) {
	if !e.is("direction") {
		return 0, false
	}
	return int32(e.Value.Int), true
}

// Vector is a "rotations" (pitch, yaw, roll) or "vector3" (x, y, z) value.
func (e Entry) Vector() ([3]float32, bool) {
	if !e.is("rotations", "vector3") {
		return [3]float32{}, false
	}
	return floats3(e.Value), true
}

func floats3(v protodef.Value) [3]float32 {
	var out [3]float32
	for i := 0; i < 3 && i < len(v.Items); i++ {
		out[i] = v.Items[i].Float32()
	}
	return out
}

// Quaternion is a "quaternion" value (x, y, z, w).
func (e Entry) Quaternion() ([4]float32, bool) {
	if !e.is("quaternion") || len(e.Value.Items) != 4 {
		return [4]float32{}, false
	}
	var q [4]float32
	for i := range q {
		q[i] = e.Value.Items[i].Float32()
	}
	return q, true
}

// VillagerData is a "villager_data" value: type, profession and level (the
// type and profession are registry ids).
func (e Entry) VillagerData() (villagerType, profession, level int32, ok bool) {
	if !e.is("villager_data") {
		return 0, 0, 0, false
	}
	t, ok1 := e.Value.Field("villagerType")
	p, ok2 := e.Value.Field("villagerProfession")
	l, ok3 := e.Value.Field("level")
	if !ok1 || !ok2 || !ok3 {
		return 0, 0, 0, false
	}
	return int32(t.Int), int32(p.Int), int32(l.Int), true
}
