'use strict'
// player.js: takes over a flying-squid player's inventory, windows, digging,
// item use and attacks, replacing flying-squid's handlers for those packets
// (its window clicks throw on 1.21, its digging is instant, its attacks deal
// 1 damage).
const { Vec3 } = require('vec3')
const { PlayerInventory } = require('./inventory')
const { InventoryMenu, CraftingMenu, FurnaceMenu, ChestMenu } = require('./menus')

const FACES = [new Vec3(0, -1, 0), new Vec3(0, 1, 0), new Vec3(0, 0, -1), new Vec3(0, 0, 1), new Vec3(-1, 0, 0), new Vec3(1, 0, 0)]

// The packets whose flying-squid handlers this plugin replaces.
const REPLACED_PACKETS = ['window_click', 'close_window', 'block_dig', 'use_entity']

module.exports = function playerGlue (ctx) {
  const { serv, registry, items: I } = ctx
  const windowTypes = require('prismarine-windows')(registry).windows

  function setup (player) {
    for (const name of REPLACED_PACKETS) player._client.removeAllListeners(name)
    // flying-squid's inventory listener sends set_slot without a state id;
    // broadcastChanges sends what changed instead.
    player.inventory.removeAllListeners('updateSlot')
    player.inventory.on('updateSlot', () => ctx.inventoryChanged(player))

    const st = ctx.state(player)
    st.inventory = new PlayerInventory(ctx, player)
    st.inventoryMenu = new InventoryMenu(ctx, player, st.inventory)
    st.menu = st.inventoryMenu
    st.containerCounter = 0
    st.onGround = true
    st.yaw = 0
    st.pitch = 0
    st.dig = ctx.digging.newState()
    st.using = null
    st.attackStrengthTicker = 0
    st.living = { invulnerableTime: 0, lastHurt: 0, dead: false, deathTime: 0 }
    st.lastHeld = null

    // flying-squid ends its login by sending the spawn position once more
    // when the client first reports itself (waitPlayerLogin); a teleport
    // before that is undone. joined tells when it is over. flying-squid
    // waits for a 'flying' or 'look' packet only, which a client that
    // lands by falling never sends (mineflayer reports positions then, and
    // 'flying' only when it lands without moving): the login would never
    // end. Any movement packet ends it here, as the client's answer to its
    // first position (the teleport confirmation and position_look) already
    // says it has spawned.
    st.joined = false
    player.waitPlayerLogin = () => new Promise((resolve) => {
      const events = ['flying', 'look', 'position', 'position_look']
      const listener = () => {
        for (const e of events) player._client.removeListener(e, listener)
        st.joined = true
        resolve()
      }
      for (const e of events) player._client.on(e, listener)
    })

    const c = player._client
    const onMove = (p) => {
      // 1.21.1 sends onGround; 1.21.2+ a flags byte.
      if (typeof p.onGround === 'boolean') st.onGround = p.onGround
      else if (p.flags && typeof p.flags === 'object') st.onGround = !!p.flags.onGround
      else if (typeof p.flags === 'number') st.onGround = (p.flags & 1) !== 0
      if (typeof p.yaw === 'number') st.yaw = p.yaw
      if (typeof p.pitch === 'number') st.pitch = p.pitch
    }
    for (const name of ['position', 'position_look', 'look', 'flying']) c.on(name, onMove)

    // handle runs one packet's handler with the player's socket corked, so
    // that everything it sends leaves in one write, as the game flushes a
    // tick's packets together. mineflayer's clicks rely on that: it moves on
    // after the first set_slot of a click and would otherwise click with a
    // state id one short of the server's.
    const handle = (name, fn) => c.on(name, (packet) => ctx.batch(player, () => {
      try {
        fn(packet)
      } catch (err) {
        serv.emit('error', err)
      }
    }))
    handle('window_click', (packet) => {
      const menu = st.menu
      if (menu.containerId !== packet.windowId || player.gameMode === 3) return
      if (!menu.stillValid()) return
      menu.handleClick(packet)
    })
    handle('close_window', () => doCloseContainer(player))
    handle('held_item_slot', () => {
      st.attackStrengthTicker = 0
      ctx.eating.stop(player, 'held item changed')
    })
    handle('block_dig', (packet) => onPlayerAction(player, packet))
    handle('use_item', (packet) => ctx.eating.onUseItem(player, packet))
    handle('use_entity', (packet) => ctx.combat.onUseEntity(player, packet))
    // After flying-squid has placed (or opened) what the packet asks, answer
    // as the game's handleUseItemOn does and flying-squid does not: the
    // clicked block and the block across the face, then the sequence.
    const placeHandlers = c.listeners('block_place')
    c.removeAllListeners('block_place')
    c.on('block_place', async (packet) => {
      for (const handler of placeHandlers) {
        try {
          await handler(packet)
        } catch (err) {
          serv.emit('error', err)
        }
      }
      // flying-squid writes the world and the block update a few promise
      // turns after its handler returns; let those land first.
      await new Promise(resolve => setImmediate(resolve))
      ctx.batch(player, () => {
        const ref = new Vec3(packet.location.x, packet.location.y, packet.location.z)
        sendBlock(player, ref)
        if (packet.direction >= 0 && packet.direction < 6) sendBlock(player, ref.plus(FACES[packet.direction]))
        ctx.ack(player, packet.sequence)
      })
    })
    c.on('client_command', (packet) => {
      const action = packet.payload ?? packet.actionId
      if (action === 0) st.living = { invulnerableTime: 0, lastHurt: 0, dead: false, deathTime: 0 }
    })

    const spawnEntity = player.spawnEntity
    player.spawnEntity = (entity) => {
      spawnEntity(entity)
      // flying-squid sends no entity metadata from 1.20.2 on, so an item
      // entity would arrive without its item.
      if (entity.itemStack) ctx.drops.sendItemMetadata(player, entity)
    }
  }

  function sendBlock (player, pos) {
    const b = ctx.blockAt(player.world, pos)
    if (b) player._client.write('block_change', { location: pos, type: b.stateId })
  }

  // onPlayerAction is the player action packet: dig, drop, eat release,
  // swap hands.
  function onPlayerAction (player, packet) {
    const st = ctx.state(player)
    switch (packet.status) {
      case 0: case 1: case 2:
        ctx.digging.handle(player, packet)
        return
      case 3: case 4: {
        // ServerPlayer.drop(dropAll): the client already took the item out,
        // so the held slot is marked as known to it.
        ctx.ack(player, packet.sequence)
        if (player.gameMode === 3) return
        const inv = st.inventory
        const held = inv.getItem(inv.selected)
        if (!held) return
        const dropped = I.split(held, packet.status === 3 ? held.count : 1)
        inv.setItem(inv.selected, held.count > 0 ? held : null)
        const slot = st.menu.slots.findIndex(s => s.container === inv && s.index === inv.selected)
        if (slot >= 0) st.menu.setRemoteSlot(slot, inv.getItem(inv.selected))
        drop(player, dropped, true)
        return
      }
      case 5:
        ctx.ack(player, packet.sequence)
        ctx.eating.stop(player, 'released')
        return
      case 6: {
        ctx.ack(player, packet.sequence)
        const inv = st.inventory
        const off = inv.getItem(40)
        inv.setItem(40, inv.getItem(inv.selected))
        inv.setItem(inv.selected, off)
        ctx.eating.stop(player, 'hands swapped')
      }
    }
  }

  // ---- menus

  function openMenu (player, make, title) {
    const st = ctx.state(player)
    if (st.menu !== st.inventoryMenu) closeContainer(player)
    st.containerCounter = st.containerCounter % 100 + 1
    const menu = make(st.containerCounter)
    player._client.write('open_window', {
      windowId: menu.containerId,
      inventoryType: windowTypes[menu.type].type,
      windowTitle: serv._createChatComponent({ translate: title }).toNetworkFormat()
    })
    menu.sendAllDataToRemote()
    st.menu = menu
    ctx.log('window', { player: player.username, event: 'opened', type: menu.type, windowId: menu.containerId })
    return menu
  }

  // doCloseContainer is ServerPlayer.doCloseContainer: the menu gives back
  // what it held and the inventory becomes the open menu again.
  function doCloseContainer (player) {
    const st = ctx.state(player)
    const menu = st.menu
    menu.removed()
    if (menu !== st.inventoryMenu) st.inventoryMenu.transferState(menu)
    st.menu = st.inventoryMenu
    ctx.log('window', { player: player.username, event: 'closed', type: menu.type || 'minecraft:inventory', windowId: menu.containerId })
  }

  function closeContainer (player) {
    const st = ctx.state(player)
    player._client.write('close_window', { windowId: st.menu.containerId })
    doCloseContainer(player)
  }

  function interaction (blockName, open) {
    serv.onBlockInteraction(blockName, ({ block, player }) => {
      const st = ctx.state(player)
      if (!st.inventory) return false
      // A sneaking player holding something places it instead.
      if (player.crouching && (st.inventory.getItem(st.inventory.selected) || st.inventory.getItem(40))) return false
      if (player.gameMode === 3) return true
      const pos = new Vec3(block.position.x, block.position.y, block.position.z)
      return open(player, pos) !== false
    })
  }

  function installBlockMenus () {
    interaction('crafting_table', (player, pos) => {
      openMenu(player, id => new CraftingMenu(ctx, player, id, pos), 'container.crafting')
    })
    interaction('furnace', (player, pos) => {
      const furnace = ctx.blockEntities.furnaceAt(player.world, pos, true)
      openMenu(player, id => new FurnaceMenu(ctx, player, id, furnace), 'container.furnace')
    })
    const openChest = (player, pos) => {
      // ChestBlock.isChestBlockedAt: a solid block on top keeps it shut.
      const above = ctx.blockAt(player.world, pos.offset(0, 1, 0))
      if (above && above.boundingBox === 'block') return
      const name = ctx.blockNameAt(player.world, pos)
      const chest = ctx.blockEntities.chestAt(player.world, pos, name, true)
      openMenu(player, id => new ChestMenu(ctx, player, id, chest), 'container.chest')
    }
    interaction('chest', openChest)
    if (registry.blocksByName.trapped_chest) interaction('trapped_chest', openChest)
  }

  // ---- item entities

  // popResource is Block.popResource: a block's drop, near the block's
  // centre, with a small random push.
  function popResource (world, pos, stack) {
    const jitter = () => Math.random() * 0.5 - 0.25
    ctx.drops.spawnItem(world, new Vec3(pos.x + 0.5 + jitter(), pos.y + 0.5 + jitter() - 0.125, pos.z + 0.5 + jitter()), stack,
      { x: Math.random() * 0.2 - 0.1, y: 0.2, z: Math.random() * 0.2 - 0.1 }, 10)
  }

  // drop is Player.drop: thrown from just below the eyes in the look
  // direction, picked up by nobody for 40 ticks. retainOwnership marks who
  // threw it (items a player throws; not what a closing window gives back).
  function drop (player, stack, retainOwnership) {
    if (I.isEmpty(stack)) return
    const st = ctx.state(player)
    const rad = Math.PI / 180
    const g = Math.sin(st.pitch * rad)
    const h = Math.cos(st.pitch * rad)
    const i = Math.sin(st.yaw * rad)
    const j = Math.cos(st.yaw * rad)
    const k = Math.random() * Math.PI * 2
    const l = 0.02 * Math.random()
    const velocity = {
      x: -i * h * 0.3 + Math.cos(k) * l,
      y: -g * 0.3 + 0.1 + (Math.random() - Math.random()) * 0.1,
      z: j * h * 0.3 + Math.sin(k) * l
    }
    const entity = ctx.drops.spawnItem(player.world, player.position.offset(0, 1.62 - 0.3, 0), stack, velocity, 40)
    if (retainOwnership) entity.thrower = player.username
    ctx.log('drop', { player: player.username, item: I.name(stack), count: stack.count, entityId: entity.id, yaw: st.yaw, pitch: st.pitch, from: [player.position.x, player.position.y, player.position.z] })
  }

  // ---- equipment seen by others

  function sendEquipment (player) {
    const st = ctx.state(player)
    const inv = st.inventory
    const now = [inv.getItem(inv.selected), inv.getItem(40), inv.getItem(36), inv.getItem(37), inv.getItem(38), inv.getItem(39)]
    const key = JSON.stringify(now.map(s => s ? [s.type, s.count] : null))
    if (key === st.lastEquipment) return
    st.lastEquipment = key
    const slots = [0, 1, 2, 3, 4, 5] // main hand, off-hand, feet, legs, chest, head
    const equipments = slots.map((slot, n) => ({ slot, item: I.toNotch(now[n]) }))
    for (const p of player.getNearbyPlayers ? player.getNearbyPlayers() : []) p._client.write('entity_equipment', { entityId: player.id, equipments })
  }

  function tick (player) {
    const st = ctx.state(player)
    if (!st.inventory) return
    st.attackStrengthTicker++
    ctx.combat.tickLiving(st.living)
    // Player.tick: a different item in the main hand resets the attack
    // strength.
    const held = st.inventory.getItem(st.inventory.selected)
    const heldKey = held ? held.type : null
    if (heldKey !== st.lastHeld) { st.lastHeld = heldKey; st.attackStrengthTicker = 0 }
    ctx.digging.tick(player)
    ctx.eating.tick(player)
    st.menu.broadcastChanges()
    if (!st.menu.stillValid()) closeContainer(player)
    sendEquipment(player)
    ctx.flushAcks(player)
  }

  return { setup, tick, installBlockMenus, popResource, drop, closeContainer }
}
