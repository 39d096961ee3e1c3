'use strict'
// drops.js: item entities on the ground, moved and picked up as the game
// does (GAME 1.21.4 ItemEntity.tick, ItemEntity.playerTouch, Player.touch).
//
// flying-squid's item physics throws drops well over a block and gives a
// whole stack as one item, so this plugin moves its item entities itself:
// gravity 0.04 per tick, drag 0.98, on the ground friction 0.6 * 0.98 and a
// bounce of -0.5; full blocks stop them. After its pick-up delay (10 ticks
// for block drops, 40 for thrown items) an item goes to the first player, in
// join order, whose box grown by 1, 0.5, 1 touches the item's 0.25 box, as
// much of the stack as fits. Items vanish after 6000 ticks.
const { Vec3 } = require('vec3')

// Block.getFriction: 0.6 but for these.
const FRICTION = { ice: 0.98, packed_ice: 0.98, frosted_ice: 0.98, blue_ice: 0.989, slime_block: 0.8 }
const SIZE = 0.25
const LIFETIME = 6000

module.exports = function drops (ctx) {
  const { serv, registry, items: I } = ctx
  const live = new Set()

  function metadataKey () {
    const keys = registry.entitiesByName.item?.metadataKeys
    return keys ? keys.indexOf('item') : 8
  }

  function sendItemMetadata (player, entity) {
    player._client.write('entity_metadata', { entityId: entity.id, metadata: [{ key: metadataKey(), type: 'item_stack', value: I.toNotch(entity.itemStack) }] })
  }

  function trackers (entity) {
    return serv.players.filter(p => p.nearbyEntities && p.nearbyEntities.includes(entity))
  }

  // spawnItem makes an item entity; velocity in blocks per tick, pick-up
  // delay in ticks.
  function spawnItem (world, pos, stack, velocity, pickupDelay) {
    const entity = serv.spawnObject(registry.entitiesByName.item.id, world, pos.clone(), {
      // flying-squid's spawn packet takes blocks per second.
      velocity: new Vec3(velocity.x * 20, velocity.y * 20, velocity.z * 20),
      itemId: stack.type,
      itemCount: stack.count
    })
    // No size: flying-squid's physics and pick-up leave it alone.
    entity.size = null
    entity.itemStack = stack
    entity.motion = { x: velocity.x, y: velocity.y, z: velocity.z }
    entity.pickupDelay = pickupDelay
    // simPos is where the item is. flying-squid updates entity.position a
    // few promise turns after sendPosition, which is too late when the tick
    // loop runs late ticks back to back.
    entity.simPos = pos.clone()
    entity.age = 0
    entity.onGround = false
    live.add(entity)
    for (const p of trackers(entity)) sendItemMetadata(p, entity)
    return entity
  }

  function solidAt (world, x, y, z) {
    const b = ctx.blockAt(world, new Vec3(Math.floor(x), Math.floor(y), Math.floor(z)))
    return !!b && b.boundingBox === 'block'
  }

  function collides (world, x, y, z) {
    const h = SIZE / 2
    for (const bx of [x - h, x + h - 1e-7]) {
      for (const by of [y, y + SIZE - 1e-7]) {
        for (const bz of [z - h, z + h - 1e-7]) {
          if (solidAt(world, bx, by, bz)) return true
        }
      }
    }
    return false
  }

  function move (entity) {
    const m = entity.motion
    const world = entity.world
    let { x, y, z } = entity.simPos
    let onGround = false
    if (!collides(world, x, y + m.y, z)) {
      y += m.y
    } else {
      if (m.y < 0) { onGround = true; y = Math.floor(y + m.y) + 1 }
      m.y = 0
    }
    if (!collides(world, x + m.x, y, z)) x += m.x
    else m.x = 0
    if (!collides(world, x, y, z + m.z)) z += m.z
    else m.z = 0
    // Resting on a block: the game counts that as on the ground too.
    if (!onGround && m.y <= 0 && collides(world, x, y - 0.01, z)) onGround = true
    entity.onGround = onGround
    const next = new Vec3(x, y, z)
    if (!next.equals(entity.simPos)) {
      entity.simPos = next
      entity.sendPosition(next.clone(), onGround)
    }
  }

  function tickItem (entity) {
    if (entity.pickupDelay > 0) entity.pickupDelay--
    const m = entity.motion
    m.y -= 0.04
    if (!entity.onGround || m.x * m.x + m.z * m.z > 1e-5 || (ctx.ticks + entity.id) % 4 === 0) {
      move(entity)
      let f = 0.98
      if (entity.onGround) {
        const below = ctx.blockAt(entity.world, entity.simPos.offset(0, -0.5000001, 0))
        f = (FRICTION[below ? below.name : ''] ?? 0.6) * 0.98
      }
      m.x *= f
      m.y *= 0.98
      m.z *= f
      if (entity.onGround && m.y < 0) m.y *= -0.5
    }
    if (++entity.age >= LIFETIME) {
      remove(entity)
      return
    }
    if (entity.pickupDelay === 0) pickup(entity)
  }

  // touches is Player.aiStep's pick-up box against the item's box.
  function touches (player, entity) {
    const p = player.position
    const e = entity.simPos
    const h = SIZE / 2
    return e.x + h > p.x - 1.3 && e.x - h < p.x + 1.3 &&
      e.z + h > p.z - 1.3 && e.z - h < p.z + 1.3 &&
      e.y + SIZE > p.y - 0.5 && e.y < p.y + 1.8 + 0.5
  }

  function pickup (entity) {
    const player = serv.players.find(p => p.world === entity.world && p.health > 0 && p.gameMode !== 3 &&
      ctx.inventoryOf(p) && touches(p, entity))
    if (!player) return
    const stack = entity.itemStack
    const name = I.name(stack)
    const before = stack.count
    ctx.inventoryOf(player).add(stack)
    const taken = before - stack.count
    if (taken <= 0) return
    ctx.writeToTrackers(player, 'collect', { collectedEntityId: entity.id, collectorEntityId: player.id, pickupItemCount: taken }, true)
    ctx.log('pickup', { player: player.username, item: name, count: taken, entityId: entity.id, thrower: entity.thrower || null })
    if (stack.count <= 0) {
      remove(entity)
    } else {
      entity.itemCount = stack.count
      for (const p of trackers(entity)) sendItemMetadata(p, entity)
    }
  }

  function remove (entity) {
    live.delete(entity)
    if (serv.entities[entity.id]) entity.destroy()
  }

  function tick () {
    for (const e of [...live]) {
      if (!serv.entities[e.id]) { live.delete(e); continue }
      tickItem(e)
    }
  }

  function list () {
    return [...live].map(e => ({ id: e.id, item: I.name(e.itemStack), count: e.itemStack.count, pos: [e.simPos.x, e.simPos.y, e.simPos.z], thrower: e.thrower || null, pickupDelay: e.pickupDelay }))
  }

  return { spawnItem, sendItemMetadata, tick, list }
}
