'use strict'
// mobs.js: a zombie that behaves like the game's, kept simple.
//
// Spawned by /summon zombie [x y z]. Every tick it targets the nearest
// player in survival or adventure mode within its follow range (35 blocks),
// turns to it and walks straight at it on the ground with the game's
// movement model for a walking mob (GAME 1.21.4 LivingEntity.travel:
// acceleration speed * speed = 0.23 * 0.23 per tick on the ground, 0.02 *
// 0.23 in the air; horizontal motion * 0.546 per tick on the ground, 0.91 in
// the air; gravity 0.08 and * 0.98), jumping (0.42) when a one-block step
// is in the way. There is no path finding: it walks in a straight line.
// MeleeAttackGoal: when its attack box (its box grown by sqrt(2.04) - 0.6
// horizontally) touches the player and the 20-tick cooldown is over, it
// swings its arm and hits for its attack damage 3, which the difficulty
// scales (easy 2.5, normal 3, hard 4.5).
const crypto = require('crypto')
const { Vec3 } = require('vec3')

const FOLLOW_RANGE = 35
const SPEED = 0.23
const ATTACK_DAMAGE = 3
const ATTACK_REACH = Math.sqrt(2.04) - 0.6
const ATTACK_COOLDOWN = 20
const WIDTH = 0.6
const HEIGHT = 1.95

module.exports = function mobs (ctx) {
  const { registry, serv, items: I } = ctx
  const live = new Set()

  function summon (name, world, pos) {
    const def = registry.entitiesByName[name]
    if (!def) throw new Error('no entity called ' + name)
    // flying-squid's spawnMob only knows minecraft-data's "mob" entities,
    // and a zombie is "hostile" there, so the entity is set up here as
    // spawnMob would.
    const mob = serv.initEntity('mob', def.id, world, pos.clone())
    mob.uuid = crypto.randomUUID()
    mob.name = name
    mob.velocity = new Vec3(0, 0, 0)
    mob.pitch = 0
    mob.headPitch = 0
    mob.yaw = 0
    mob.metadata = []
    // flying-squid's entity physics skips entities without a size; this
    // plugin moves its mobs itself.
    mob.size = null
    // simPos is where the mob is (see drops.js: flying-squid's position
    // lags behind sendPosition).
    mob.simPos = pos.clone()
    mob.updateAndSpawn()
    if (name !== 'zombie') return mob
    mob.health = 20
    mob.motion = { x: 0, y: 0, z: 0 }
    mob.onGround = false
    mob.living = { invulnerableTime: 0, lastHurt: 0, dead: false, deathTime: 0 }
    mob.ai = { ticksUntilNextAttack: 0, target: null, yaw: 0 }
    live.add(mob)
    ctx.log('summon', { entity: 'zombie', id: mob.id, pos: [pos.x, pos.y, pos.z] })
    return mob
  }

  function solidAt (world, x, y, z) {
    const b = ctx.blockAt(world, new Vec3(Math.floor(x), Math.floor(y), Math.floor(z)))
    return !!b && b.boundingBox === 'block'
  }

  function boxCollides (world, x, y, z) {
    const h = WIDTH / 2
    for (let bx = Math.floor(x - h); bx <= Math.floor(x + h - 1e-7); bx++) {
      for (let by = Math.floor(y); by <= Math.floor(y + HEIGHT - 1e-7); by++) {
        for (let bz = Math.floor(z - h); bz <= Math.floor(z + h - 1e-7); bz++) {
          if (solidAt(world, bx, by, bz)) return true
        }
      }
    }
    return false
  }

  function nearestTarget (mob) {
    let best = null
    let bestD = FOLLOW_RANGE
    for (const p of serv.players) {
      if (p.world !== mob.world || (p.gameMode !== 0 && p.gameMode !== 2)) continue
      if (ctx.state(p).living.dead || p.health <= 0) continue
      const d = p.position.distanceTo(mob.simPos)
      if (d < bestD) { best = p; bestD = d }
    }
    return best
  }

  // withinAttackRange is Mob.isWithinMeleeAttackRange: the attack box
  // against the player's box (0.6 x 1.8).
  function withinAttackRange (mob, p) {
    const reach = WIDTH / 2 + ATTACK_REACH + 0.3
    const m = mob.simPos
    const dx = Math.abs(p.position.x - m.x)
    const dz = Math.abs(p.position.z - m.z)
    const overlapY = p.position.y < m.y + HEIGHT && p.position.y + 1.8 > m.y
    return dx < reach && dz < reach && overlapY
  }

  function look (mob, yaw) {
    const b = Math.floor(((yaw % 360) + 360) % 360 * 256 / 360)
    const byte = b > 127 ? b - 256 : b
    if (byte === mob.ai.yawByte) return
    mob.ai.yawByte = byte
    mob.yaw = byte
    ctx.writeToTrackers(mob, 'entity_look', { entityId: mob.id, yaw: byte, pitch: 0, onGround: mob.onGround }, false)
    ctx.writeToTrackers(mob, 'entity_head_rotation', { entityId: mob.id, headYaw: byte }, false)
  }

  function tickMob (mob) {
    const living = mob.living
    ctx.combat.tickLiving(living)
    if (living.dead) {
      if (++living.deathTime >= 20) {
        ctx.writeToTrackers(mob, 'entity_status', { entityId: mob.id, entityStatus: 60 }, false)
        live.delete(mob)
        mob.destroy()
      }
      return
    }
    const ai = mob.ai
    if (ai.ticksUntilNextAttack > 0) ai.ticksUntilNextAttack--
    const target = nearestTarget(mob)
    ai.target = target
    const m = mob.motion
    let ax = 0
    let az = 0
    if (target) {
      const dx = target.position.x - mob.simPos.x
      const dz = target.position.z - mob.simPos.z
      const dist = Math.sqrt(dx * dx + dz * dz)
      look(mob, Math.atan2(dz, dx) * 180 / Math.PI - 90)
      // Walk until touching the player; the game's path ends at its block.
      if (dist > WIDTH) {
        const accel = mob.onGround ? SPEED * SPEED : 0.02 * SPEED
        ax = dx / dist * accel
        az = dz / dist * accel
      }
      if (ai.ticksUntilNextAttack <= 0 && withinAttackRange(mob, target)) {
        ai.ticksUntilNextAttack = ATTACK_COOLDOWN
        ctx.writeToTrackers(mob, 'animation', { entityId: mob.id, animation: 0 }, false)
        ctx.combat.hurt(target, ATTACK_DAMAGE, { type: 'mob_attack', attacker: mob, scalesWithDifficulty: true })
      }
    }
    // LivingEntity.aiStep then travel: jump, accelerate, move, then drag
    // and gravity.
    if (ai.wantJump && mob.onGround) m.y = 0.42
    m.x += ax
    m.z += az
    // Move y, then x, then z, stopping at full blocks.
    const world = mob.world
    let { x, y, z } = mob.simPos
    let onGround = false
    if (!boxCollides(world, x, y + m.y, z)) {
      y += m.y
    } else {
      if (m.y < 0) { onGround = true; y = Math.floor(y + m.y) + 1 }
      m.y = 0
    }
    if (!onGround && m.y === 0 && boxCollides(world, x, y - 0.01, z)) onGround = true
    let blocked = false
    if (!boxCollides(world, x + m.x, y, z)) x += m.x
    else { blocked = true; m.x = 0 }
    if (!boxCollides(world, x, y, z + m.z)) z += m.z
    else { blocked = true; m.z = 0 }
    // The game's mobs jump when their path steps up a block; this one
    // jumps when a wall stops it and there is room above.
    ai.wantJump = blocked && !!target && !boxCollides(world, x, y + 1.1, z)
    const friction = onGround ? 0.6 * 0.91 : 0.91
    m.x *= friction
    m.z *= friction
    m.y = (m.y - 0.08) * 0.98
    mob.onGround = onGround
    const next = new Vec3(x, y, z)
    if (!next.equals(mob.simPos)) {
      mob.simPos = next
      mob.sendPosition(next.clone(), onGround)
    }
  }

  function onDeath (mob, source) {
    const loot = registry.entityLoot && registry.entityLoot[mob.name]
    if (!loot) return
    for (const d of loot.drops) {
      if (d.playerKill && !(source.attacker && source.attacker.type === 'player')) continue
      if (Math.random() >= (d.dropChance ?? 1)) continue
      const [lo, hi] = d.stackSizeRange || [1, 1]
      const count = lo + Math.floor(Math.random() * (Math.max(hi, lo) - lo + 1))
      if (count > 0 && registry.itemsByName[d.item]) {
        ctx.spawnItem(mob.world, mob.simPos.offset(0, 0.5, 0), I.make(d.item, count), { x: Math.random() * 0.2 - 0.1, y: 0.2, z: Math.random() * 0.2 - 0.1 }, 10)
      }
    }
  }

  function tick () {
    for (const mob of [...live]) {
      if (!serv.entities[mob.id]) { live.delete(mob); continue }
      tickMob(mob)
    }
  }

  function list () {
    return [...live].map(m => ({ id: m.id, name: m.name, pos: [m.simPos.x, m.simPos.y, m.simPos.z], health: m.health, dead: m.living.dead, target: m.ai.target ? m.ai.target.username : null }))
  }

  return { summon, tick, onDeath, list }
}
