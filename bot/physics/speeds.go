package physics

// Figures for planners: how fast a player covers ground, worked out from
// the same rules Step applies, so that a planner's costs and the engine
// never disagree (bot/path prices its moves with them).

// ordinaryFriction is the friction of every block but ice, slime and honey
// (Block.getFriction's default 0.6).
const ordinaryFriction = 0.6

// inputScale is what aiStep scales the movement keys by (LivingEntity
// .aiStep's xxa/zza × 0.98; LocalPlayer.modifyInput from 1.21.5).
const inputScale = 0.98

// GroundSpeed is the speed, in blocks per second, a player with these
// attributes settles at holding forward (and sprint, when sprint is set) on
// an ordinary block: each tick adds the ground acceleration (the movement
// speed, +30 % sprinting, × 0.216 / friction³, times the input's 0.98) and
// keeps friction × 0.91 of the motion (travelInAir), which converges to
// acceleration / (1 − friction × 0.91) a tick: 4.317 walking, 5.612
// sprinting for a plain survival player.
func (a Attributes) GroundSpeed(sprint bool) float64 {
	speed := float32(a.MovementSpeed)
	if sprint {
		speed *= 1.0 + float32(0.3)
	}
	f := float32(ordinaryFriction)
	accel := float64(speed*(0.21600002/(f*f*f))) * inputScale
	inertia := float64(f * 0.91)
	return 20 * accel / (1 - inertia)
}

// AirDrag is the share of its vertical motion a falling player keeps each
// tick (LivingEntity.travel's 0.98); with Attributes.Gravity it gives the
// fall curve.
const AirDrag = 0.98
