'use strict'
// useblocks.js: doors, trapdoors, fence gates, levers and buttons answer a
// right-click as the game's do (GAME 1.21.4 DoorBlock, TrapDoorBlock,
// FenceGateBlock, LeverBlock, ButtonBlock useWithoutItem), and a door item
// places both halves (DoorBlock.setPlacedBy). flying-squid has none of
// this. Redstone effects of levers and buttons are not modelled.
const { Vec3 } = require('vec3')

// Buttons stay pressed 30 ticks (wood) or 20 (stone) (BlockSetType).
const STONE_BUTTONS = new Set(['stone_button', 'polished_blackstone_button'])

module.exports = function useBlocks (ctx) {
  const { serv, registry } = ctx
  const Block = require('prismarine-block')(registry)
  const pressed = new Map() // button key -> { world, pos, name, until }

  function setProps (world, pos, block, changes) {
    const props = Object.assign({}, block.getProperties(), changes)
    const next = Block.fromProperties(block.name, props, 0)
    if (next.stateId !== block.stateId) serv.setBlock(world, pos, next.stateId)
  }

  function log (player, block, pos, props) {
    ctx.log('use', { player: player.username, block: block.name, pos: [pos.x, pos.y, pos.z], properties: props })
  }

  function handler (use) {
    return ({ block, player }) => {
      const st = ctx.state(player)
      if (!st.inventory) return false
      // A sneaking player holding something uses the item instead.
      if (player.crouching && (st.inventory.getItem(st.inventory.selected) || st.inventory.getItem(40))) return false
      if (player.gameMode === 3) return false
      const pos = new Vec3(block.position.x, block.position.y, block.position.z)
      const current = ctx.blockAt(player.world, pos)
      if (!current) return false
      return use(player, current, pos) !== false
    }
  }

  const toggleDoor = (player, block, pos) => {
    if (block.name === 'iron_door') return false // opened by redstone only
    const props = block.getProperties()
    const open = !props.open
    setProps(player.world, pos, block, { open })
    const other = pos.offset(0, props.half === 'lower' ? 1 : -1, 0)
    const otherBlock = ctx.blockAt(player.world, other)
    if (otherBlock && otherBlock.name === block.name) setProps(player.world, other, otherBlock, { open })
    log(player, block, pos, { open })
  }

  const toggleOpen = (player, block, pos) => {
    if (block.name === 'iron_trapdoor') return false
    const open = !block.getProperties().open
    setProps(player.world, pos, block, { open })
    log(player, block, pos, { open })
  }

  const toggleLever = (player, block, pos) => {
    const powered = !block.getProperties().powered
    setProps(player.world, pos, block, { powered })
    log(player, block, pos, { powered })
  }

  const pressButton = (player, block, pos) => {
    if (block.getProperties().powered) return // already pressed: consumed, nothing changes
    setProps(player.world, pos, block, { powered: true })
    const ticks = STONE_BUTTONS.has(block.name) ? 20 : 30
    pressed.set(`${pos.x},${pos.y},${pos.z}`, { world: player.world, pos, name: block.name, until: ctx.ticks + ticks })
    log(player, block, pos, { powered: true })
  }

  // placeDoor places the lower half facing the way the player looks, and
  // the upper half above it; nothing when there is no room above.
  function placeDoor (name) {
    return ({ player, placedPosition, properties }) => {
      const above = ctx.blockAt(player.world, placedPosition.offset(0, 1, 0))
      if (!above || (above.type !== 0 && above.boundingBox === 'block')) return {}
      const def = registry.blocksByName[name]
      const props = { facing: properties.facing, half: 'lower', hinge: 'left', open: false, powered: false }
      const lower = Block.fromProperties(name, props, 0)
      const upper = Block.fromProperties(name, Object.assign({}, props, { half: 'upper' }), 0)
      // flying-squid sets the returned lower half; the upper half follows.
      setImmediate(() => serv.setBlock(player.world, placedPosition.offset(0, 1, 0), upper.stateId))
      return { id: def.id, data: lower.stateId - def.minStateId }
    }
  }

  function install () {
    for (const def of registry.blocksArray) {
      const n = def.name
      if (n.endsWith('_door')) {
        serv.onBlockInteraction(n, handler(toggleDoor))
        if (registry.itemsByName[n]) serv.onItemPlace(n, placeDoor(n), false)
      } else if (n.endsWith('_trapdoor') || n.endsWith('_fence_gate')) {
        serv.onBlockInteraction(n, handler(toggleOpen))
      } else if (n === 'lever') {
        serv.onBlockInteraction(n, handler(toggleLever))
      } else if (n.endsWith('_button')) {
        serv.onBlockInteraction(n, handler(pressButton))
      }
    }
  }

  // tick lets buttons go (ButtonBlock.tick).
  function tick () {
    for (const [key, b] of pressed) {
      if (ctx.ticks < b.until) continue
      pressed.delete(key)
      const block = ctx.blockAt(b.world, b.pos)
      if (block && block.name === b.name && block.getProperties().powered) setProps(b.world, b.pos, block, { powered: false })
    }
  }

  return { install, tick }
}
