// Package path plans the bot's walks: A* over the places a player can
// stand, on a snapshot of the world, with costs in game ticks.
//
// A node is the block the feet are in and the height of the feet there
// (on a full block below, or on a slab, carpet, snow layer or soul sand in
// the block itself), or a place held by water or a ladder. Whether a
// player fits is read from the collision shapes of bot/mcdata: each block
// state is reduced once per version to the heights its boxes fill over a
// few footprints of the player's 0.6-wide box (standing in the middle,
// sweeping across one face or two, clipping a corner), so a ladder or an
// open door on a block's edge leaves its middle free, a fence or a wall is
// 1.5 high and cannot be jumped, a top slab leaves room below it, and a
// cauldron's rim blocks the way in. Blocks that hurt (lava, fire, cactus,
// magma, campfires, sweet berry bushes, powder snow, wither roses,
// cobwebs) are kept out of; soul sand and honey are slow; water is swum.
//
// The moves are one file each: move_walk.go (straight, steps, doors and
// gates opened on the way), move_diagonal.go, move_ascend.go (jump up one
// block, stairs walked), move_descend.go (step off and fall no further
// than allowed; water and ladders break a fall), move_parkour.go (safe
// one- and two-block gaps), move_swim.go and move_climb.go. A Mover adds
// moves of its own: the extension point for digging and bridging, which
// the skills bring. Costs (cost.go) come from the movement figures the
// physics package reproduces: walking 4.317 blocks/s, sprinting 5.612,
// gravity and drag for jumps and falls.
//
// Concurrency. A plan reads a *world.View: an immutable snapshot the store
// hands out without blocking its writer, so planning holds no lock for
// any length of time and never delays the read loop. Each plan reads the
// view through its own small cache of sections (as Azalea's pathfinder
// reads its CachedWorld) and keeps its scratch space in a pool, so a
// Planner serves any number of goroutines at once.
//
// Bounds. A plan stops after Options.MaxNodes expanded positions or when
// its context ends, and returns the path toward the best place it reached
// (Partial). When every reachable place has been searched it says why
// there is no path (NoPath and a Reason: the start or the goal shut in,
// more water than allowed, harmful blocks, a fall too long, or only
// digging or building would do); a goal in an unloaded chunk gives the
// path toward it. Tests count nodes, never the clock.
//
// For the executor: a Path is a list of Steps, each with its move, the
// block to stand in and on, whether to jump and sprint, and the doors to
// open; Path.Next is the next-waypoint helper, Path.Affected says whether
// a block change from the server invalidates the rest of the path, and a
// plan may start at Path.End to plan the next segment while the bot walks
// this one. Follow is a goal that moves (a player) and says when to plan
// again.
package path
