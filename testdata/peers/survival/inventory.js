'use strict'
// inventory.js: the player's inventory as the game's Inventory container,
// stored in flying-squid's player.inventory so that flying-squid's own
// /give, placing and pick-up see the same stacks.
//
// The game numbers the inventory 0-8 hotbar, 9-35 main, 36-39 armour (feet
// to head) and 40 off-hand (GAME 1.21.4 Inventory); window 0 numbers the
// same slots 36-44, 9-35, 8-5 and 45 (InventoryMenu). flying-squid stores
// window 0 numbering, so this maps between the two.

function windowSlotOf (index) {
  if (index >= 0 && index <= 8) return 36 + index
  if (index >= 9 && index <= 35) return index
  if (index >= 36 && index <= 39) return 8 - (index - 36)
  if (index === 40) return 45
  return -1
}

class PlayerInventory {
  constructor (ctx, player) {
    this.ctx = ctx
    this.I = ctx.items
    this.player = player
  }

  get size () { return 41 }
  // selected is the held hotbar slot; flying-squid stores whatever the
  // client sent, and the game ignores a slot outside 0-8.
  get selected () {
    const s = this.player.heldItemSlot
    return Number.isInteger(s) && s >= 0 && s <= 8 ? s : 0
  }

  getItem (i) {
    const w = windowSlotOf(i)
    if (w < 0) return null
    const s = this.player.inventory.slots[w]
    if (s && !(s.count > 0)) {
      this.player.inventory.slots[w] = null
      return null
    }
    return s || null
  }

  setItem (i, stack) {
    const w = windowSlotOf(i)
    if (w < 0) return
    const s = this.I.orEmpty(stack)
    // flying-squid's /give reads item.slot back, so keep it current.
    if (s) s.slot = w
    this.player.inventory.slots[w] = s
    this.setChanged()
  }

  removeItem (i, n, I) {
    const s = this.getItem(i)
    if (!s || n <= 0) return null
    const taken = I.split(s, n)
    this.setChanged()
    return taken
  }

  removeItemNoUpdate (i) {
    const s = this.getItem(i)
    this.setItem(i, null)
    return s
  }

  setChanged () { this.ctx.inventoryChanged(this.player) }
  maxStackSize () { return 99 }

  hasRemainingSpaceForItem (dest, stack) {
    const I = this.I
    return !!dest && I.sameItemSameComponents(dest, stack) && I.isStackable(dest) && dest.count < I.maxStackSize(dest)
  }

  // getSlotWithRemainingSpace looks at the held slot, then the off-hand,
  // then 0-35 (Inventory.getSlotWithRemainingSpace).
  getSlotWithRemainingSpace (stack) {
    if (this.hasRemainingSpaceForItem(this.getItem(this.selected), stack)) return this.selected
    if (this.hasRemainingSpaceForItem(this.getItem(40), stack)) return 40
    for (let i = 0; i < 36; i++) {
      if (this.hasRemainingSpaceForItem(this.getItem(i), stack)) return i
    }
    return -1
  }

  getFreeSlot () {
    for (let i = 0; i < 36; i++) if (!this.getItem(i)) return i
    return -1
  }

  addResourceAt (slot, stack) {
    const I = this.I
    let left = stack.count
    let here = this.getItem(slot)
    if (!here) {
      here = I.copyWithCount(stack, 1)
      here.count = 0
    }
    const room = I.maxStackSize(here) - here.count
    const n = Math.min(left, room)
    if (n === 0) return left
    left -= n
    here.count += n
    this.setItem(slot, here)
    return left
  }

  addResource (stack) {
    let slot = this.getSlotWithRemainingSpace(stack)
    if (slot === -1) slot = this.getFreeSlot()
    return slot === -1 ? stack.count : this.addResourceAt(slot, stack)
  }

  // add moves as much of stack into the inventory as fits, shrinking it,
  // and reports whether anything moved (Inventory.add).
  add (stack) {
    const I = this.I
    if (I.isEmpty(stack)) return false
    let before
    const start = stack.count
    do {
      before = stack.count
      stack.count = this.addResource(stack)
    } while (stack.count > 0 && stack.count < before)
    return stack.count < start
  }

  // placeItemBackInInventory is Inventory.placeItemBackInInventory: each
  // slot it fills is sent to the client at once (window -2 at 1.21.1,
  // set_player_inventory from 1.21.2), and what does not fit is dropped.
  placeItemBackInInventory (stack) {
    const I = this.I
    while (!I.isEmpty(stack)) {
      let slot = this.getSlotWithRemainingSpace(stack)
      if (slot === -1) slot = this.getFreeSlot()
      if (slot === -1) {
        this.ctx.drop(this.player, stack, false)
        break
      }
      const here = this.getItem(slot)
      const room = I.maxStackSize(stack) - (here ? here.count : 0)
      const part = I.split(stack, room)
      const left = this.addResourceAt(slot, part)
      if (left < part.count) this.ctx.net.playerInventorySlot(this.player, slot, this.getItem(slot))
      if (left > 0) {
        stack.count += left
        this.ctx.drop(this.player, stack, false)
        break
      }
    }
  }

  count (name) {
    let n = 0
    for (let i = 0; i < 41; i++) {
      const s = this.getItem(i)
      if (s && this.I.name(s) === name) n += s.count
    }
    return n
  }
}

module.exports = { PlayerInventory, windowSlotOf }
