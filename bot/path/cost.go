package path

import (
	"math"

	"github.com/blockmate/blockmate/bot/physics"
)

// Costs are in game ticks (1/20 s): a path's cost is roughly how long the
// bot takes to walk it, so a detour over flat ground and a climb over a
// hill are weighed as a player would feel them. The ground speeds and the
// fall curve come from the physics package (one source: the rules Step
// applies tick by tick): walking 4.317 blocks/s and sprinting 5.612
// (Attributes.GroundSpeed, which the physics tests hold to what Step
// does), gravity 0.08 blocks/tick² with a 0.98 drag per tick, a jump's
// 0.42 blocks/tick start (its peak is 1.2522 blocks on the sixth tick). How the pieces of a jump or a fall are
// charged follows Baritone's ActionCosts (a jump up costs the time to fall
// from 1.25 to 0.25 blocks on top of the walk; a drop costs most of a walk
// plus the fall), computed here from the same gravity.
var (
	// walkSpeed and sprintSpeed are blocks per second on flat ground.
	walkSpeed   = physics.DefaultAttributes().GroundSpeed(false)
	sprintSpeed = physics.DefaultAttributes().GroundSpeed(true)

	walkTicks   = 20 / walkSpeed   // 4.633 ticks per block
	sprintTicks = 20 / sprintSpeed // 3.564

	// gravity is the default gravity attribute, in blocks per tick².
	gravity = physics.DefaultAttributes().Gravity
)

const (
	// swimSpeed is walking in water, at the surface or wading: the game's
	// water travel (0.02 acceleration, 0.8 drag) settles at 0.098
	// blocks/tick.
	swimSpeed = 1.96
	// climbUpSpeed is a ladder or vine climbed with the forward key held:
	// 0.2 blocks/tick set each tick, less gravity and drag, 0.1176
	// blocks/tick. climbDownSpeed is the 0.15 blocks/tick cap on falling
	// while on a climbable block, plus gravity.
	climbUpSpeed   = 2.352
	climbDownSpeed = 3.0

	swimTicks = 20 / swimSpeed
	climbUp   = 20 / climbUpSpeed
	climbDown = 20 / climbDownSpeed

	// openTicks is opening a door or gate: one use packet and the turn of
	// the head toward it, with the bot slowing down in front of it.
	openTicks = 6.0
	// parkourPenalty makes a jump over a gap worth taking only when it
	// saves more than a few ticks over walking around: a missed jump is
	// a fall.
	parkourPenalty = 4.0

	// stepHeight is how high the player walks up without jumping
	// (maxUpStep 0.6).
	stepHeight = 0.6
	// jumpHeight is the highest floor a standing jump reaches (1.2522,
	// with a margin for landing on it).
	jumpHeight = 1.25
	// playerHeight and eyeHeight are the standing player's box and eyes,
	// reachDistance how far it interacts with blocks (bot/physics).
	playerHeight  = physics.PlayerHeight
	eyeHeight     = physics.EyeHeight
	reachDistance = physics.BlockReach
)

// fallTable[t] is how far a player falls from rest in t ticks: each tick
// moves by the velocity, then the velocity gains 0.08 downward and keeps
// 98 % of itself, as LivingEntity.travel does.
var fallTable = func() []float64 {
	out := []float64{0}
	y, v := 0.0, 0.0
	for len(out) < 400 {
		y += v
		v = (v - gravity) * physics.AirDrag
		out = append(out, -y)
	}
	return out
}()

// fallTicks is how many ticks a fall of d blocks takes, interpolated.
func fallTicks(d float64) float64 {
	if d <= 0 {
		return 0
	}
	for t := 1; t < len(fallTable); t++ {
		if fallTable[t] >= d {
			lo := fallTable[t-1]
			return float64(t-1) + (d-lo)/(fallTable[t]-lo)
		}
	}
	return float64(len(fallTable))
}

var (
	// jumpUpExtra is what a jump up one block adds to the walk.
	jumpUpExtra = fallTicks(1.25) - fallTicks(0.25)
	// jumpAirTicks is a jump's time in the air when it lands as high as it
	// started: up to the 1.2522 peak in six ticks and down again.
	jumpAirTicks = 6 + fallTicks(1.2522)
)

// walkOffShare is the part of a block's walk done before a fall starts; the
// rest is centring on the landing block, which overlaps the fall.
const walkOffShare = 0.8

// descendTicks is a step off a ledge and a fall of d blocks.
func descendTicks(perBlock, d float64) float64 {
	return walkOffShare*perBlock + math.Max(fallTicks(d), (1-walkOffShare)*perBlock)
}

// upLowerBound is a lower bound per block up, for the heuristic: a jump
// up adds jumpUpExtra to the walk it comes with; climbing and swimming up
// cost more.
const upLowerBound = 3.0

// maxEstimatedFall is the longest fall the heuristic's bound for going
// down holds for: more than any fall the planner takes by default.
const maxEstimatedFall = 64

// downLowerBound is a lower bound per block down: a long fall into water
// is the cheapest way down, and the longer the fall the less each block
// costs (a falling player approaches 3.92 blocks per tick). It is the
// least, over falls up to maxEstimatedFall, of what a drop costs beyond
// the walk it comes with, per block.
var downLowerBound = func() float64 {
	lb := math.Inf(1)
	for d := 1; d <= maxEstimatedFall; d++ {
		lb = min(lb, (descendTicks(sprintTicks, float64(d))-sprintTicks)/float64(d))
	}
	return lb
}()

// Estimate is a lower bound, in ticks, of the time to cover an offset of
// dx, dy, dz blocks (dy up is positive): sprinting over the horizontal
// distance (diagonal steps cost √2), plus a jump's worth per block up and
// a little per block down. Goals use it for their heuristic.
func Estimate(dx, dy, dz float64) float64 {
	dx, dz = math.Abs(dx), math.Abs(dz)
	straight, diag := math.Max(dx, dz), math.Min(dx, dz)
	h := (straight + (math.Sqrt2-1)*diag) * sprintTicks
	if dy > 0 {
		h += dy * upLowerBound
	} else {
		h -= dy * downLowerBound
	}
	return h
}
