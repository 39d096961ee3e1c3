'use strict'
// The survival plugin for flying-squid: what the game does where
// flying-squid does not (break times, crafting, furnaces, chests, eating, a
// zombie, thrown items, doors, levers and buttons, beds). See README.md in this
// directory.
//
//   const squid = require('flying-squid')
//   const serv = squid.createMCServer({...})
//   require('./survival')(serv, { ticksPerSecond: 20 })
//
// Options:
//   ticksPerSecond  game ticks per second (default 20, the game's rate);
//                   tests may raise it to make furnaces faster.
//   onQuery         function(id, result) called with the answer to each
//                   `survival query` command (server.js reports it on fd 3).
//   fluids          water flows (fluids.js; server.js sets it for the world
//                   the game made).
const { Vec3 } = require('vec3')

module.exports = function install (serv, options = {}) {
  const registry = serv.registry
  const items = require('./items')(registry)
  const ctx = {
    serv,
    registry,
    items,
    options,
    ticksPerSecond: options.ticksPerSecond || 20,
    ticks: 0
  }
  ctx.recipes = require('./recipes')(registry)

  // ---- shared helpers

  const states = new WeakMap()
  ctx.state = (player) => {
    let st = states.get(player)
    if (!st) { st = {}; states.set(player, st) }
    return st
  }
  ctx.inventoryOf = (player) => ctx.state(player).inventory
  ctx.heldItem = (player) => {
    const inv = ctx.inventoryOf(player)
    return inv ? inv.getItem(inv.selected) : null
  }

  // blockAt reads a loaded block synchronously; null where nothing is
  // loaded.
  ctx.blockAt = (world, pos) => {
    try {
      return world.sync.getBlock(new Vec3(Math.floor(pos.x), Math.floor(pos.y), Math.floor(pos.z)))
    } catch (err) {
      return null
    }
  }
  ctx.blockNameAt = (world, pos) => {
    const b = ctx.blockAt(world, pos)
    return b ? b.name : null
  }
  ctx.worldName = (world) => (world === serv.netherworld ? 'nether' : 'overworld')

  // setBlockProperty changes one property of the block at pos, if it is
  // still that block (a furnace's lit).
  ctx.setBlockProperty = (world, pos, name, prop, value) => {
    const b = ctx.blockAt(world, pos)
    if (!b || b.name !== name) return
    const props = Object.assign({}, b.getProperties(), { [prop]: value })
    const Block = require('prismarine-block')(registry)
    const next = Block.fromProperties(name, props, b.biome?.id ?? 0)
    if (next.stateId !== b.stateId) serv.setBlock(world, pos, next.stateId)
  }

  // canInteractWithBlock is Player.canInteractWithBlock: the block's box
  // within the block interaction range (4.5) plus buffer of the eyes.
  ctx.canInteractWithBlock = (player, pos, buffer) => {
    const eye = player.position.offset(0, 1.62, 0)
    const d = distanceToBox(eye, pos.x, pos.y, pos.z, pos.x + 1, pos.y + 1, pos.z + 1)
    return d < 4.5 + buffer
  }
  // canInteractWithEntity: the entity's box within the entity interaction
  // range (3) plus buffer.
  ctx.canInteractWithEntity = (player, entity, buffer) => {
    const eye = player.position.offset(0, 1.62, 0)
    const def = registry.entities[entity.entityType] || { width: 0.6, height: 1.8 }
    const w = (entity.type === 'player' ? 0.6 : def.width) / 2
    const h = entity.type === 'player' ? 1.8 : def.height
    const p = entity.simPos || entity.position
    return distanceToBox(eye, p.x - w, p.y, p.z - w, p.x + w, p.y + h, p.z + w) < 3 + buffer
  }

  // ack acknowledges a block-changing packet's sequence. The game keeps the
  // highest sequence seen and sends one acknowledgement at the end of the
  // tick (ServerGamePacketListenerImpl.ackBlockChangesUpTo and tick), after
  // the tick's block updates; flushAcks does that.
  ctx.ack = (player, sequence) => {
    if (typeof sequence !== 'number' || sequence < 0) return
    const st = ctx.state(player)
    st.ackUpTo = Math.max(sequence, st.ackUpTo ?? -1)
  }
  ctx.flushAcks = (player) => {
    const st = ctx.state(player)
    if (st.ackUpTo === undefined || st.ackUpTo < 0) return
    player._client.write('acknowledge_player_digging', { sequenceId: st.ackUpTo, location: new Vec3(0, 0, 0), block: 0, status: 0, successful: true })
    st.ackUpTo = -1
  }

  // writeToTrackers sends to the players near entity, and to entity itself
  // when it is a player and self is true.
  ctx.writeToTrackers = (entity, name, packet, self) => {
    for (const p of serv.players) {
      if (p === entity) { if (self) p._client.write(name, packet); continue }
      if (p.world === entity.world && p.position.distanceTo(entity.position) <= (entity.viewDistance || 150)) p._client.write(name, packet)
    }
  }

  // batch runs fn with the player's socket corked, so what it sends leaves
  // in one write.
  ctx.batch = (player, fn) => {
    const socket = player._client.socket
    if (!socket || socket.destroyed) return fn()
    socket.cork()
    try {
      return fn()
    } finally {
      socket.uncork()
    }
  }

  // inventoryChanged lets the open menu send what changed. The game does it
  // at the end of the tick; this does it as soon as the current packet is
  // handled.
  const pendingBroadcast = new Set()
  ctx.inventoryChanged = (player) => {
    if (pendingBroadcast.has(player)) return
    pendingBroadcast.add(player)
    setImmediate(() => {
      pendingBroadcast.delete(player)
      const st = ctx.state(player)
      if (st.menu && !player._client.ended) ctx.batch(player, () => st.menu.broadcastChanges())
    })
  }

  // damageItem wears a tool in the player's inventory (ItemStack.hurtAndBreak):
  // the damage component grows and the item breaks at its durability.
  ctx.damageItem = (player, index, amount) => {
    const inv = ctx.inventoryOf(player)
    const stack = inv.getItem(index)
    if (!stack) return
    const max = registry.items[stack.type]?.maxDurability
    if (!max) return
    const comps = (stack.components || []).filter(c => c.type !== 'damage')
    const used = (stack.components || []).find(c => c.type === 'damage')?.data ?? 0
    const next = used + amount
    if (next >= max) {
      inv.setItem(index, null)
      ctx.writeToTrackers(player, 'entity_status', { entityId: player.id, entityStatus: index === 40 ? 48 : 47 }, true)
      ctx.log('tool', { player: player.username, item: items.name(stack), event: 'broke' })
      return
    }
    comps.push({ type: 'damage', data: next })
    stack.components = comps
    if (stack.componentMap) stack.componentMap.set('damage', { type: 'damage', data: next })
    inv.setItem(index, stack)
  }

  ctx.onBlockRemoved = (world, pos) => ctx.blockEntities.removed(world, pos)

  // ---- the event log the queries read

  // Entries are numbered so a reader can ask for what is new.
  const LOG_LIMIT = 5000
  const logLines = []
  let seq = 0
  ctx.log = (kind, fields) => {
    logLines.push(Object.assign({ seq: ++seq, kind, tick: ctx.ticks }, fields))
    if (logLines.length > LOG_LIMIT) logLines.splice(0, logLines.length - LOG_LIMIT)
  }

  // ---- the wire forms that changed between 1.21.1 and 1.21.2

  const containerIdIsByte = registry.version['<']('1.21.2')
  const wireWindow = (id) => (containerIdIsByte ? id & 0xff : id)
  ctx.net = {
    setSlot (player, windowId, stateId, slot, stack) {
      player._client.write('set_slot', { windowId: wireWindow(windowId), stateId, slot, item: items.toNotch(stack) })
    },
    windowItems (player, windowId, stateId, stacks, carried) {
      player._client.write('window_items', { windowId: wireWindow(windowId), stateId, items: stacks.map(items.toNotch), carriedItem: items.toNotch(carried) })
    },
    // The carried stack: set_slot window -1 slot -1 at 1.21.1,
    // set_cursor_item from 1.21.2 (ServerPlayer's synchronizer).
    setCarried (player, menu, stack) {
      if (containerIdIsByte) player._client.write('set_slot', { windowId: wireWindow(-1), stateId: menu.incrementStateId(), slot: -1, item: items.toNotch(stack) })
      else player._client.write('set_cursor_item', { contents: items.toNotch(stack) })
    },
    setData (player, windowId, property, value) {
      player._client.write('craft_progress_bar', { windowId: wireWindow(windowId), property, value })
    },
    // One inventory slot by its Inventory index: window -2 at 1.21.1,
    // set_player_inventory from 1.21.2 (Inventory.placeItemBackInInventory).
    playerInventorySlot (player, index, stack) {
      if (containerIdIsByte) player._client.write('set_slot', { windowId: wireWindow(-2), stateId: 0, slot: index, item: items.toNotch(stack) })
      else player._client.write('set_player_inventory', { slotId: index, contents: items.toNotch(stack) })
    }
  }

  // ---- the parts

  ctx.digging = require('./digging')(ctx)
  ctx.eating = require('./eating')(ctx)
  ctx.combat = require('./combat')(ctx)
  ctx.mobs = require('./mobs')(ctx)
  ctx.blockEntities = require('./blockentities')(ctx)
  ctx.drops = require('./drops')(ctx)
  ctx.spawnItem = ctx.drops.spawnItem
  const glue = require('./player')(ctx)
  ctx.popResource = glue.popResource
  ctx.drop = glue.drop
  ctx.placeBackOrDrop = (player, stack) => {
    if (player._client.ended || !ctx.inventoryOf(player)) drop(player, stack)
    else ctx.inventoryOf(player).placeItemBackInInventory(stack)
  }
  function drop (player, stack) { glue.drop(player, stack, false) }

  if (options.fluids) ctx.fluids = require('./fluids')(ctx)
  glue.installBlockMenus()
  ctx.useBlocks = require('./useblocks')(ctx)
  ctx.useBlocks.install()
  ctx.beds = require('./beds')(ctx)
  ctx.beds.install()
  serv.on('newPlayer', (player) => { glue.setup(player); ctx.beds.setup(player) })
  serv.on('newEntity', fixTeleports)

  // flying-squid tells others about a long move with entity_teleport in its
  // 1.21.1 form, which from 1.21.2 on cannot be written (the packet gained
  // velocity, float angles and flags) and breaks the receiving connection.
  // The game sends sync_entity_position for such moves from 1.21.2
  // (ServerEntity.sendChanges), so that is sent instead.
  function fixTeleports (entity) {
    if (!registry.version['>=']('1.21.2')) return
    const write = entity._writeOthersNearby
    entity._writeOthersNearby = (name, packet) => {
      if (name !== 'entity_teleport') return write(name, packet)
      const degrees = (b) => (typeof b === 'number' ? b * 360 / 256 : 0)
      write('sync_entity_position', {
        entityId: packet.entityId,
        x: packet.x,
        y: packet.y,
        z: packet.z,
        dx: 0,
        dy: 0,
        dz: 0,
        yaw: degrees(packet.yaw),
        pitch: degrees(packet.pitch),
        onGround: !!packet.onGround
      })
    }
  }

  // ---- the game tick: runs late ticks back to back, as the game does,
  // and skips ahead when more than 2 s behind (MinecraftServer.runServer).

  const tickMs = 1000 / ctx.ticksPerSecond
  let nextTick = Date.now() + tickMs
  let timer = null
  let afterTick = []
  ctx.afterTick = (fn) => afterTick.push(fn)
  // safely runs one part of the tick; a part that throws is reported and
  // the others, and the next ticks, still run.
  function safely (fn) {
    try {
      fn()
    } catch (err) {
      serv.emit('error', err)
    }
  }
  function runTick () {
    ctx.ticks++
    safely(() => ctx.blockEntities.tick())
    safely(() => ctx.mobs.tick())
    safely(() => ctx.drops.tick())
    safely(() => ctx.useBlocks.tick())
    safely(() => ctx.beds.tick())
    if (ctx.fluids) safely(() => ctx.fluids.tick())
    for (const p of [...serv.players]) safely(() => ctx.batch(p, () => glue.tick(p)))
    const waiting = afterTick
    afterTick = []
    for (const fn of waiting) safely(fn)
  }
  function loop () {
    try {
      const now = Date.now()
      if (now - nextTick > 2000) nextTick = now
      while (nextTick <= now) {
        runTick()
        nextTick += tickMs
      }
    } finally {
      if (!closed) timer = setTimeout(loop, Math.max(0, nextTick - Date.now()))
    }
  }
  let closed = false
  timer = setTimeout(loop, tickMs)
  serv.on('close', () => { closed = true; clearTimeout(timer) })

  require('./commands')(ctx, logLines)
  serv.survival = ctx
  return ctx
}

function distanceToBox (p, x0, y0, z0, x1, y1, z1) {
  const dx = Math.max(x0 - p.x, 0, p.x - x1)
  const dy = Math.max(y0 - p.y, 0, p.y - y1)
  const dz = Math.max(z0 - p.z, 0, p.z - z1)
  return Math.sqrt(dx * dx + dy * dy + dz * dz)
}
