'use strict'
// items.js: item stacks as the game handles them, over prismarine-item.
//
// A stack is a prismarine-item Item or null. The game mutates ItemStack
// objects in place (grow, shrink, split) and treats a count of 0 as empty;
// these helpers do the same so that the menu code reads like the game's
// (GAME 1.21.4 net.minecraft.world.item.ItemStack).

module.exports = function items (registry) {
  const Item = require('prismarine-item')(registry)

  function isEmpty (stack) {
    return !stack || !(stack.count > 0)
  }

  // orEmpty normalises an empty stack to null, the stored form.
  function orEmpty (stack) {
    return isEmpty(stack) ? null : stack
  }

  function make (nameOrId, count = 1) {
    const def = typeof nameOrId === 'number' ? registry.items[nameOrId] : registry.itemsByName[nameOrId]
    if (!def) throw new Error('unknown item ' + nameOrId)
    return new Item(def.id, count)
  }

  // copy keeps the data components: the wire form carries them exactly.
  function copy (stack) {
    if (isEmpty(stack)) return null
    return Item.fromNotch(Item.toNotch(stack))
  }

  function copyWithCount (stack, count) {
    if (isEmpty(stack) || count <= 0) return null
    const c = copy(stack)
    c.count = count
    return c
  }

  // split takes up to n items off stack and returns them as a new stack
  // (ItemStack.split).
  function split (stack, n) {
    if (isEmpty(stack)) return null
    const k = Math.min(n, stack.count)
    const out = copyWithCount(stack, k)
    stack.count -= k
    return out
  }

  function maxStackSize (stack) {
    if (isEmpty(stack)) return 64
    const def = registry.items[stack.type]
    return def ? def.stackSize : 64
  }

  function isStackable (stack) {
    return maxStackSize(stack) > 1
  }

  function sameItem (a, b) {
    return !isEmpty(a) && !isEmpty(b) && a.type === b.type
  }

  function components (stack) {
    return JSON.stringify([stack.components || [], stack.removedComponents || []])
  }

  // sameItemSameComponents is ItemStack.isSameItemSameComponents; two
  // empty stacks are the same.
  function sameItemSameComponents (a, b) {
    if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b)
    return a.type === b.type && components(a) === components(b)
  }

  // matches is ItemStack.matches: same item, components and count.
  function matches (a, b) {
    if (isEmpty(a) && isEmpty(b)) return true
    return sameItemSameComponents(a, b) && a.count === b.count
  }

  function toNotch (stack) {
    return Item.toNotch(orEmpty(stack))
  }

  function fromNotch (wire) {
    if (!wire) return null
    return orEmpty(Item.fromNotch(wire))
  }

  function name (stack) {
    return isEmpty(stack) ? 'air' : (registry.items[stack.type]?.name ?? 'unknown')
  }

  // describe is the JSON form the queries report.
  function describe (stack) {
    if (isEmpty(stack)) return null
    const out = { name: name(stack), count: stack.count }
    const damage = (stack.components || []).find(c => c.type === 'damage')
    if (damage) out.damage = damage.data
    return out
  }

  return {
    Item,
    isEmpty,
    orEmpty,
    make,
    copy,
    copyWithCount,
    split,
    maxStackSize,
    isStackable,
    sameItem,
    sameItemSameComponents,
    matches,
    toNotch,
    fromNotch,
    name,
    describe
  }
}
