package physics

import (
	"math"

	"github.com/blockmate/blockmate/bot/world"
)

// Vec3 is a position or a velocity in blocks (per tick for velocities).
type Vec3 struct{ X, Y, Z float64 }

// Add returns v+o.
func (v Vec3) Add(o Vec3) Vec3 { return Vec3{v.X + o.X, v.Y + o.Y, v.Z + o.Z} }

// Sub returns v−o.
func (v Vec3) Sub(o Vec3) Vec3 { return Vec3{v.X - o.X, v.Y - o.Y, v.Z - o.Z} }

// Scale returns v·f.
func (v Vec3) Scale(f float64) Vec3 { return Vec3{v.X * f, v.Y * f, v.Z * f} }

// LengthSqr is |v|².
func (v Vec3) LengthSqr() float64 { return v.X*v.X + v.Y*v.Y + v.Z*v.Z }

// Length is |v|.
func (v Vec3) Length() float64 { return math.Sqrt(v.LengthSqr()) }

// HorizontalLength is the length of v's x and z.
func (v Vec3) HorizontalLength() float64 { return math.Sqrt(v.X*v.X + v.Z*v.Z) }

// normalize is Vec3.normalize: the zero vector below a length of 1.0E-4.
func (v Vec3) normalize() Vec3 {
	d := math.Sqrt(v.X*v.X + v.Y*v.Y + v.Z*v.Z)
	if d < 1.0e-4 {
		return Vec3{}
	}
	return Vec3{v.X / d, v.Y / d, v.Z / d}
}

// Block is the block position containing the point.
func (v Vec3) Block() world.BlockPos {
	return world.BlockPos{X: floorInt(v.X), Y: floorInt(v.Y), Z: floorInt(v.Z)}
}

// Pose is the player's body pose, which sets the size of its box.
type Pose uint8

const (
	// Standing is 0.6×1.8 blocks, eyes at 1.62.
	Standing Pose = iota
	// Crouching is 0.6×1.5, eyes at 1.27 (sneaking, or under a 1.5-block
	// ceiling).
	Crouching
	// Swimming is 0.6×0.6, eyes at 0.4 (sprint-swimming, or crawling under a
	// one-block gap).
	Swimming
)

func (p Pose) String() string {
	switch p {
	case Crouching:
		return "crouching"
	case Swimming:
		return "swimming"
	}
	return "standing"
}

// The standing player's measures and reach, the one place each is written
// (every package that needs one takes it from here).
const (
	// PlayerHeight is a standing player's height (Player.POSES).
	PlayerHeight = 1.8
	// EyeHeight is a standing player's eyes above its feet (Player.POSES).
	EyeHeight = 1.62
	// BlockReach is how far from its eyes a survival player reaches a
	// block, measured to the block's box: the block_interaction_range
	// attribute's default.
	BlockReach = 4.5
	// EntityReach is how far from its eyes a player hits an entity,
	// measured to its box: the entity_interaction_range attribute's
	// default.
	EntityReach = 3.0
)

// The player's dimensions per pose (Player.POSES), as the floats the game
// stores them in: the box is ±width/2 around the position, height tall.
var poseSize = [3]struct{ halfWidth, height, eye float32 }{
	Standing:  {0.6 / 2, PlayerHeight, EyeHeight},
	Crouching: {0.6 / 2, 1.5, 1.27},
	Swimming:  {0.6 / 2, 0.6, 0.4},
}

// Size returns the width, height and eye height of a pose in blocks.
func (p Pose) Size() (width, height, eye float64) {
	s := poseSize[p%3]
	return float64(s.halfWidth * 2), float64(s.height), float64(s.eye)
}

// BoxAt is the box a player in pose p occupies with its feet at pos
// (EntityDimensions.makeBoundingBox).
func (p Pose) BoxAt(pos Vec3) AABB {
	s := poseSize[p%3]
	w, h := float64(s.halfWidth), float64(s.height)
	return AABB{pos.X - w, pos.Y, pos.Z - w, pos.X + w, pos.Y + h, pos.Z + w}
}

// State is everything about the player that one tick of movement carries to
// the next: position, velocity, look, the flags the server is told (on
// ground, horizontal collision, sprinting, the pose) and the bookkeeping the
// game keeps between ticks (fall distance, jump delay, what the player is
// in). The zero value is a player standing still at the origin; set Pos
// (and OnGround if it stands) before the first Step. Fields the caller does
// not recognise should be carried over unchanged from one Step to the next.
type State struct {
	// Pos is the position of the player's feet (the centre of the bottom of
	// its box); Vel its motion in blocks per tick.
	Pos, Vel Vec3
	// Yaw and Pitch are the look in the game's degrees: yaw 0 faces south
	// (+Z), 90 west (−X); pitch 90 looks straight down. Step takes them from
	// Controls.
	Yaw, Pitch float32
	// Pose is the pose the player's box is sized by this tick.
	Pose Pose

	// OnGround is the last move's verdict: it fell onto something. It goes
	// into the movement packets' flags.
	OnGround bool
	// HorizontalCollision is set when the last move was cut short along x
	// or z (the movement packets' second flag, 1.21.2 on);
	// MinorHorizontalCollision when that cut was within 8° of the way the
	// player was walking (a sprint survives it).
	HorizontalCollision, MinorHorizontalCollision bool
	// VerticalCollision is set when the last move was cut short along y
	// (landing, or a head bump).
	VerticalCollision bool

	// Sprinting is the sprint flag the server is told about (entity action
	// start/stop sprinting before 1.21.6, the player input's sprint bit
	// after).
	Sprinting bool
	// Swimming is the sprint-swimming flag.
	Swimming bool
	// Crouching is the game's crouching (the sneak key, or a ceiling too low
	// to stand), which slows the player.
	Crouching bool
	// ShiftKey and ForwardImpulse are last tick's sneak key and forward
	// input; the game reads them a tick late (sneaking slows from the tick
	// after the key goes down).
	ShiftKey       bool
	ForwardImpulse float32
	// SprintTriggerTime counts down the window in which pressing forward
	// again starts a sprint (double tap).
	SprintTriggerTime int32
	// NoJumpDelay counts the ticks before holding jump jumps again.
	NoJumpDelay int32

	// FallDistance is how far the player has fallen since it last stood
	// (reset by water, ladders, cobwebs …); fall damage is
	// FallDamage(FallDistance) when it lands.
	FallDistance float64
	// ImpactFall is the fall distance the last tick's landing ended, the
	// distance the game hurts the player for (Block.fallOn); 0 when the
	// tick did not land.
	ImpactFall float64

	// InWater and InLava are set when the player touches that fluid;
	// WaterHeight and LavaHeight how deep it stands in it (blocks above its
	// feet). EyeInWater is set when its eyes are under water;
	// WasEyeInWater is last tick's (the game's isUnderWater uses it).
	InWater, InLava           bool
	WaterHeight, LavaHeight   float64
	EyeInWater, WasEyeInWater bool
	// InPowderSnow is set while the player is inside powder snow.
	InPowderSnow, WasInPowderSnow bool

	// Stuck is the motion multiplier a cobweb, berry bush or powder snow
	// left for the next move (zero when none).
	Stuck Vec3
	// Support is the block the player stands on (the game's
	// mainSupportingBlockPos), valid when HasSupport; it decides which
	// block's friction applies. NoSupportBlocks records that the player
	// was on ground without a block under it.
	Support         world.BlockPos
	HasSupport      bool
	NoSupportBlocks bool

	// Frozen is set when the last Step did nothing because the player's
	// chunk column is not loaded (the game does not tick the player then).
	Frozen bool
}

// Box is the player's current box.
func (s *State) Box() AABB { return s.Pose.BoxAt(s.Pos) }

// EyePos is where the player's eyes are.
func (s *State) EyePos() Vec3 {
	return Vec3{s.Pos.X, s.Pos.Y + float64(poseSize[s.Pose%3].eye), s.Pos.Z}
}

// MovementFlags is the flags byte of the movement packets (1.21.2 on): bit
// 0 on ground, bit 1 horizontal collision. Before 1.21.2 the packets carry
// only OnGround, as a boolean.
func (s *State) MovementFlags() byte {
	var f byte
	if s.OnGround {
		f |= 1
	}
	if s.HorizontalCollision {
		f |= 2
	}
	return f
}

// Controls are what the player does this tick: the movement keys and where
// it looks. Yaw and Pitch are the game's degrees (see State.Yaw).
type Controls struct {
	Forward, Back, Left, Right bool
	Jump, Sneak, Sprint        bool
	Yaw, Pitch                 float32
}

// PlayerInput is the flags byte of the player_input packet (1.21.2 on;
// the game's Input record): 0x01 forward, 0x02 backward, 0x04 left, 0x08
// right, 0x10 jump, 0x20 shift, 0x40 sprint. The client sends it whenever it
// changes.
func (c Controls) PlayerInput() byte {
	var f byte
	for i, on := range [...]bool{c.Forward, c.Back, c.Left, c.Right, c.Jump, c.Sneak, c.Sprint} {
		if on {
			f |= 1 << i
		}
	}
	return f
}

// Attributes are the player's attributes and effects as the server set them
// (update_attributes, entity effects, the food level, the dimension). They
// change rarely; DefaultAttributes is a fresh survival player's.
type Attributes struct {
	// MovementSpeed is minecraft:movement_speed with the server's modifiers
	// (speed and slowness effects, soul speed …) applied and the client's
	// own sprint modifier not: 0.1 by default. Step adds the sprint bonus.
	MovementSpeed float64
	// JumpStrength (0.42), Gravity (0.08), StepHeight (0.6),
	// SafeFallDistance (3), FallDamageMultiplier (1), SneakingSpeed (0.3),
	// WaterMovementEfficiency (0; depth strider raises it) and
	// MovementEfficiency (0) are the attributes of the same names (1.20.5
	// on).
	JumpStrength, Gravity, StepHeight      float64
	SafeFallDistance, FallDamageMultiplier float64
	SneakingSpeed, WaterMovementEfficiency float64
	MovementEfficiency                     float64
	// JumpBoost and Levitation are the effects' levels (amplifier+1; 0 for
	// none). SlowFalling, DolphinsGrace and Blindness are set while the
	// effect lasts.
	JumpBoost, Levitation                 int32
	SlowFalling, DolphinsGrace, Blindness bool
	// FoodLevel is the hunger bar (0–20); sprinting needs more than 6
	// unless MayFly (creative) is set.
	FoodLevel int32
	MayFly    bool
	// LeatherBoots lets the player stand on powder snow.
	LeatherBoots bool
	// FastLava is the dimension's ultrawarm flag (the nether), where lava
	// pushes harder.
	FastLava bool
}

// DefaultAttributes are a survival player's attributes with no effects, full
// food, in the overworld (the values Attributes.java and Player's attribute
// supplier register).
func DefaultAttributes() Attributes {
	return Attributes{
		MovementSpeed:        f32(0.1),
		JumpStrength:         f32(0.42),
		Gravity:              0.08,
		StepHeight:           0.6,
		SafeFallDistance:     3,
		FallDamageMultiplier: 1,
		SneakingSpeed:        0.3,
		FoodLevel:            20,
	}
}
