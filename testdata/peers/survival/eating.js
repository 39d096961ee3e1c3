'use strict'
// eating.js: using a food item as the game does (GAME 1.21.4
// LivingEntity.startUsingItem / updatingUsingItem / completeUsingItem,
// FoodData.eat).
//
// use_item with a food in hand starts eating if the player is hungry (or the
// food can always be eaten); the item is used for its use duration (32
// ticks, 16 for dried kelp, 40 for honey) while the item stays in hand;
// then the server sends entity status 9 to the eater, adds the food's
// nutrition (to at most 20) and saturation (to at most the new food level),
// sends update_health and uses up one item, leaving a bowl or bottle where
// the game does. Releasing the use button (player action 5) or changing the
// held item stops it.

const ALWAYS_EDIBLE = new Set(['golden_apple', 'enchanted_golden_apple', 'chorus_fruit', 'honey_bottle', 'suspicious_stew'])
const USE_TICKS = { dried_kelp: 16, honey_bottle: 40 }
const USE_REMAINDER = { mushroom_stew: 'bowl', rabbit_stew: 'bowl', beetroot_soup: 'bowl', suspicious_stew: 'bowl', honey_bottle: 'glass_bottle' }

module.exports = function eating (ctx) {
  const { registry, items: I } = ctx

  function handSlot (player, hand) {
    const inv = ctx.inventoryOf(player)
    return hand === 1 ? 40 : inv.selected
  }

  function setUsingFlag (player, hand, using) {
    const keys = registry.entitiesByName.player?.metadataKeys
    const key = keys ? keys.indexOf('living_entity_flags') : 8
    const flags = using ? (0x01 | (hand === 1 ? 0x02 : 0)) : 0
    ctx.writeToTrackers(player, 'entity_metadata', { entityId: player.id, metadata: [{ key, type: 'byte', value: flags }] }, false)
  }

  function onUseItem (player, { hand, sequence }) {
    ctx.ack(player, sequence)
    const inv = ctx.inventoryOf(player)
    const slot = handSlot(player, hand)
    const stack = inv.getItem(slot)
    if (!stack) return
    const name = I.name(stack)
    const food = registry.foodsByName[name]
    if (!food) return
    const st = ctx.state(player)
    if (!(player.gameMode === 1 || player.food < 20 || ALWAYS_EDIBLE.has(name))) {
      ctx.log('eat', { player: player.username, item: name, verdict: 'not hungry', food: player.food })
      return
    }
    st.using = { hand, slot, type: stack.type, name, remaining: USE_TICKS[name] ?? 32, startTick: ctx.ticks }
    setUsingFlag(player, hand, true)
    ctx.log('eat', { player: player.username, item: name, verdict: 'started', ticks: st.using.remaining })
  }

  function stop (player, reason) {
    const st = ctx.state(player)
    if (!st.using) return
    ctx.log('eat', { player: player.username, item: st.using.name, verdict: reason })
    setUsingFlag(player, st.using.hand, false)
    st.using = null
  }

  function complete (player) {
    const st = ctx.state(player)
    const use = st.using
    st.using = null
    setUsingFlag(player, use.hand, false)
    player._client.write('entity_status', { entityId: player.id, entityStatus: 9 })
    const food = registry.foodsByName[use.name]
    const before = { food: player.food, saturation: player.foodSaturation }
    player.food = Math.min(20, Math.max(0, player.food + food.foodPoints))
    player.foodSaturation = Math.min(player.food, Math.max(0, player.foodSaturation + food.saturation))
    player.updateHealth(player.health) // sends update_health with the new food and saturation
    if (player.gameMode !== 1) {
      const inv = ctx.inventoryOf(player)
      const stack = inv.getItem(use.slot)
      if (stack) {
        stack.count -= 1
        inv.setItem(use.slot, stack)
        const remainder = USE_REMAINDER[use.name]
        if (remainder) {
          const left = I.make(remainder, 1)
          if (!inv.getItem(use.slot)) inv.setItem(use.slot, left)
          else if (!inv.add(left)) ctx.drop(player, left, false)
        }
      }
    }
    ctx.log('eat', { player: player.username, item: use.name, verdict: 'eaten', ticks: ctx.ticks - use.startTick, before, food: player.food, saturation: player.foodSaturation })
  }

  function tick (player) {
    const st = ctx.state(player)
    if (!st.using) return
    const stack = ctx.inventoryOf(player).getItem(handSlot(player, st.using.hand))
    if (!stack || stack.type !== st.using.type) {
      stop(player, 'item changed')
      return
    }
    if (--st.using.remaining === 0) complete(player)
  }

  return { onUseItem, stop, tick }
}
