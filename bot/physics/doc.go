// Package physics computes the player's movement exactly as the game's
// client does, one tick at a time, as a pure function:
//
//	e, err := physics.For(protocol)           // one shared, read-only engine per version
//	next := e.Step(world, state, controls, attributes)
//
// Step reads blocks through World (a *world.View snapshot is the fast
// choice; *world.Store works too) and returns the next State; it has no
// goroutines, no clock, no network and no shared mutable state, so a tick
// loop and any number of planners may call it at once.
//
// # What Step models
//
// The local player's tick as the decompiled client runs it (LocalPlayer
// .tick → Entity.baseTick → LocalPlayer.aiStep → LivingEntity.aiStep →
// travel → Player.updatePlayerPose): gravity and drag; ground friction of
// the block under the feet (ice, packed and blue ice, slime); jumping, with
// jump boost, honey's half jump and the jump_strength attribute; sprinting
// (started by the sprint key or a double tap, stopped by hunger, a wall or
// shallow water) and the sprint jump's push; sneaking, a tick late as in
// the game, with the crouching box and the ledge stop; step-up to the
// step_height attribute with the game's candidate heights; collision with
// every block state's shapes from the generated game data (slabs, stairs,
// fences, walls, carpets, snow layers …), the game's axis order and
// epsilons, scaffolding and powder snow shapes that depend on the player;
// water and lava: depth, currents from the fluid levels, swimming, sinking
// by sneaking, the jump out of water over a ledge; ladders, vines and the
// other climbables, open trapdoors over ladders, holding on by sneaking;
// soul sand's and honey's speed factor and the movement_efficiency
// attribute; cobwebs, berry bushes and powder snow holding the player back;
// bubble columns; slime and bed bounces and slime's braking; slow falling
// and levitation; fall distance, and the fall distance each landing ends
// (ImpactFall) so a planner can price damage with FallDamage.
//
// # Versions
//
// Each protocol's engine applies that version's rules (rules.go, each with
// the decompiled source it comes from): effects of blocks after travel and
// jumps that keep a faster upward motion from 1.21.2; crouching stopping a
// sprint in 1.21.4; square input, the horizontal dead zone, double fall
// distance and the new ledge test from 1.21.5; the double-indexed sine
// table from 1.21.9; EntityFluidInteraction from 26.1. Rules first seen in
// a source newer than the last one without them (1.21.5, 1.21.6, 1.21.9
// have no decompiled source) are dated to the first version after it; the
// doc comment of each says so.
//
// # What the server needs
//
// After each Step the movement packet carries State.Pos, Yaw, Pitch and
// MovementFlags (on ground, horizontal collision; before 1.21.2 only
// OnGround); Controls.PlayerInput is the 1.21.2+ player_input byte (send it
// when it changes); State.Sprinting is what the entity action packet's
// start/stop sprinting reports, and State.ShiftKey its press/release shift
// key (before 1.21.6; from then the player input's shift bit alone). When the server sets the position (a
// position sync), set State.Pos and Vel from it and carry the other fields
// on. Velocity packets (knockback, explosions) set State.Vel. A State with
// Frozen set did not move: the player's column is not loaded, and the game
// does not tick the player then.
//
// # For planners
//
// Simulate holds controls for n ticks; Land answers "if I hold these keys
// from here, where and when do I land, and does it hurt". CanStandAt,
// Fits, Collides and FloorBelow answer where a player fits and stands.
// StandingState starts a simulation from a planned position.
//
// # Testing
//
// The differential test runs prismarine-physics 1.11.1 (mineflayer's
// engine) on the same worlds, starts and controls through
// testdata/peers/physics_ref.js and holds Step to it to 1e-6 on every
// tick, each tick on its own and as a free run; every place the two part
// is a cited difference between prismarine-physics and the game, with a
// check that Step does the game's thing. Other tests check hand figures
// (a standing jump peaks at 1.2522 on its sixth tick; walking 4.317 and
// sprinting 5.612 blocks a second) and the game's behaviour worked out
// from its code where prismarine-physics has none; FuzzStep checks that no
// input makes Step panic, produce NaN or pass through solid blocks.
//
// # Not modelled
//
// Collisions with entities (boats, shulkers) and the world border; the
// client pushing a player out of a block it is stuck in
// (LocalPlayer.moveTowardsClosestSpace); elytra, creative flight, riding and
// the slowdown of using an item; the random offset of bamboo and dripstone
// shapes; 26.1's per-axis tracing of the blocks passed through in a tick
// (the 1.21.2 whole-move trace is used, the same for moves under a block);
// sturdy faces, which only turn a falling current down, are judged from
// collision shapes.
package physics
