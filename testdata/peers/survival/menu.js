'use strict'
// menu.js: containers, slots and the container menu, ported from the game
// (GAME 1.21.4 net.minecraft.world.inventory.AbstractContainerMenu, Slot,
// ResultSlot, TransientCraftingContainer, ResultContainer; the click and
// synchronisation rules are the same at 1.21.1, 1.21.3 and 1.21.4).
//
// What the client sees follows the game exactly:
//   - every slot or carried-item packet the server sends increments the
//     menu's state id (incrementStateId: (id + 1) & 32767);
//   - a click is performed by the server itself; the client's changed
//     slots and carried item only record what the client believes (the
//     "remote" copies), and broadcastChanges then sends every slot where
//     the server disagrees;
//   - a click whose state id is not the menu's current one gets the full
//     window back (window_items) instead.

// SimpleContainer keeps its stacks in an array (SimpleContainer).
class SimpleContainer {
  constructor (size) {
    this.items = new Array(size).fill(null)
  }

  get size () { return this.items.length }
  getItem (i) { return this.items[i] && this.items[i].count > 0 ? this.items[i] : null }
  setItem (i, stack) { this.items[i] = stack && stack.count > 0 ? stack : null; this.setChanged() }
  removeItem (i, n, I) {
    const s = this.getItem(i)
    if (!s || n <= 0) return null
    return I.split(s, n)
  }

  removeItemNoUpdate (i) {
    const s = this.getItem(i)
    this.items[i] = null
    return s
  }

  setChanged () {}
  maxStackSize () { return 99 }
}

// CraftingContainer tells its menu when the grid changes: setItem and a
// removeItem that took something call slotsChanged; setChanged does not
// (TransientCraftingContainer).
class CraftingContainer extends SimpleContainer {
  constructor (width, height, menu) {
    super(width * height)
    this.width = width
    this.height = height
    this.menu = menu
  }

  setItem (i, stack) { this.items[i] = stack && stack.count > 0 ? stack : null; this.menu.slotsChanged(this) }
  removeItem (i, n, I) {
    const taken = super.removeItem(i, n, I)
    if (taken) this.menu.slotsChanged(this)
    return taken
  }
}

// ResultContainer holds one stack; removing from it always takes all of it.
class ResultContainer extends SimpleContainer {
  constructor () { super(1) }
  removeItem (i) { return this.removeItemNoUpdate(0) }
}

class Slot {
  constructor (container, index) {
    this.container = container
    this.index = index // the slot's index in its container
    this.menuIndex = -1 // the slot's number in the menu, set by addSlot
  }

  getItem () { return this.container.getItem(this.index) }
  hasItem () { return !!this.getItem() }
  set (stack) { this.container.setItem(this.index, stack); this.setChanged() }
  setByPlayer (stack) { this.set(stack) }
  setChanged () { this.container.setChanged() }
  mayPlace (stack) { return true }
  mayPickup (player) { return true }
  getMaxStackSize (stack, I) {
    const limit = this.container.maxStackSize()
    return stack ? Math.min(limit, I.maxStackSize(stack)) : limit
  }

  remove (n, I) { return this.container.removeItem(this.index, n, I) }
  onTake (player, stack) { this.setChanged() }
  onQuickCraft (oldStack, newStack) {
    const n = (newStack ? newStack.count : 0) - (oldStack ? oldStack.count : 0)
    if (n > 0) this.onQuickCraftAmount(newStack, n)
  }

  onQuickCraftAmount (stack, n) {}
  onSwapCraft (n) {}
  allowModification (player) { return this.mayPickup(player) && this.mayPlace(this.getItem()) }

  // tryRemove is Slot.tryRemove: take count (at most decrement) if the
  // slot allows it; a slot the player may not modify gives all or nothing.
  tryRemove (count, decrement, player, I) {
    if (!this.mayPickup(player)) return null
    const item = this.getItem()
    if (!this.allowModification(player) && decrement < (item ? item.count : 0)) return null
    const taken = this.remove(Math.min(count, decrement), I)
    if (I.isEmpty(taken)) return null
    if (!this.getItem()) this.setByPlayer(null)
    return taken
  }

  safeTake (count, decrement, player, I) {
    const taken = this.tryRemove(count, decrement, player, I)
    if (taken) this.onTake(player, taken)
    return taken
  }

  // safeInsert puts up to increment items of stack into the slot and
  // returns what is left of stack (Slot.safeInsert).
  safeInsert (stack, increment, I) {
    if (I.isEmpty(stack) || !this.mayPlace(stack)) return stack
    const here = this.getItem()
    const n = Math.min(Math.min(increment, stack.count), this.getMaxStackSize(stack, I) - (here ? here.count : 0))
    if (n <= 0) return stack
    if (!here) {
      this.setByPlayer(I.split(stack, n))
    } else if (I.sameItemSameComponents(here, stack)) {
      stack.count -= n
      here.count += n
      this.setByPlayer(here)
    }
    return stack
  }
}

// Menu is AbstractContainerMenu for one player. Subclasses add slots and
// quickMoveStack.
class Menu {
  constructor (ctx, player, containerId, type) {
    this.ctx = ctx
    this.I = ctx.items
    this.player = player
    this.containerId = containerId
    this.type = type // the menu type's name, e.g. 'minecraft:crafting'; null for the inventory
    this.slots = []
    this.remoteSlots = []
    this.carried = null
    this.remoteCarried = null
    this.stateId = 0
    this.suppressRemoteUpdates = false
    this.quickcraftStatus = 0
    this.quickcraftType = -1
    this.quickcraftSlots = []
    this.dataSlots = [] // functions returning the current value of each data slot
    this.remoteData = []
  }

  addSlot (slot) {
    slot.menuIndex = this.slots.length
    this.slots.push(slot)
    this.remoteSlots.push(null)
    return slot
  }

  // addPlayerSlots adds the main inventory (27) then the hotbar (9), the
  // layout every container menu but the inventory uses.
  addPlayerSlots (inventory) {
    for (let i = 9; i < 36; i++) this.addSlot(new Slot(inventory, i))
    for (let i = 0; i < 9; i++) this.addSlot(new Slot(inventory, i))
  }

  incrementStateId () {
    this.stateId = (this.stateId + 1) & 32767
    return this.stateId
  }

  isValidSlotIndex (i) { return i === -1 || i === -999 || (i >= 0 && i < this.slots.length) }
  stillValid () { return true }
  slotsChanged (container) {}
  canTakeItemForPickAll (stack, slot) { return true }
  canDragTo (slot) { return true }
  quickMoveStack (player, index) { return null }

  setCarried (stack) { this.carried = this.I.orEmpty(stack) }
  getCarried () {
    if (this.carried && !(this.carried.count > 0)) this.carried = null
    return this.carried
  }

  // ---- synchronisation (AbstractContainerMenu + ServerPlayer's synchronizer)

  sendSlot (index, stack) {
    this.ctx.net.setSlot(this.player, this.containerId, this.incrementStateId(), index, stack)
  }

  sendCarried (stack) {
    this.ctx.net.setCarried(this.player, this, stack)
  }

  broadcastChanges () {
    if (this.suppressRemoteUpdates) return
    const I = this.I
    for (let i = 0; i < this.slots.length; i++) {
      const stack = this.slots[i].getItem()
      if (!I.matches(this.remoteSlots[i], stack)) {
        this.remoteSlots[i] = I.copy(stack)
        this.sendSlot(i, this.remoteSlots[i])
      }
    }
    const carried = this.getCarried()
    if (!I.matches(carried, this.remoteCarried)) {
      this.remoteCarried = I.copy(carried)
      this.sendCarried(this.remoteCarried)
    }
    this.broadcastData(false)
  }

  broadcastData (all) {
    for (let i = 0; i < this.dataSlots.length; i++) {
      const v = this.dataSlots[i]()
      if (all || this.remoteData[i] !== v) {
        this.remoteData[i] = v
        this.ctx.net.setData(this.player, this.containerId, i, v)
      }
    }
  }

  // sendAllDataToRemote sends the whole window (window_items) and every
  // data slot, and records them as what the client now has.
  sendAllDataToRemote () {
    const I = this.I
    for (let i = 0; i < this.slots.length; i++) this.remoteSlots[i] = I.copy(this.slots[i].getItem())
    this.remoteCarried = I.copy(this.getCarried())
    this.ctx.net.windowItems(this.player, this.containerId, this.incrementStateId(), this.remoteSlots, this.remoteCarried)
    this.broadcastData(true)
  }

  broadcastFullState () { this.sendAllDataToRemote() }

  setRemoteSlot (i, stack) {
    if (i >= 0 && i < this.remoteSlots.length) this.remoteSlots[i] = this.I.copy(stack)
  }

  // transferState copies what the client believes about shared slots from
  // another menu, so closing a chest does not resend the inventory.
  transferState (other) {
    for (let i = 0; i < this.slots.length; i++) {
      const s = this.slots[i]
      const j = other.slots.findIndex(o => o.container === s.container && o.index === s.index)
      if (j >= 0) this.remoteSlots[i] = other.remoteSlots[j]
    }
  }

  // handleClick is ServerGamePacketListenerImpl.handleContainerClick.
  handleClick (packet) {
    const I = this.I
    const slot = packet.slot
    if (!this.isValidSlotIndex(slot)) return
    const stale = packet.stateId !== this.stateId
    this.suppressRemoteUpdates = true
    try {
      this.clicked(slot, packet.mouseButton, packet.mode)
    } finally {
      for (const c of packet.changedSlots || []) {
        if (c.location >= 0 && c.location < this.remoteSlots.length) this.remoteSlots[c.location] = I.fromNotch(c.item)
      }
      this.remoteCarried = I.fromNotch(packet.cursorItem)
      this.suppressRemoteUpdates = false
    }
    if (stale) this.broadcastFullState()
    else this.broadcastChanges()
  }

  // ---- clicks (AbstractContainerMenu.doClick)

  resetQuickCraft () {
    this.quickcraftStatus = 0
    this.quickcraftSlots = []
  }

  clicked (slotId, button, mode) {
    const I = this.I
    const player = this.player
    const inv = this.ctx.inventoryOf(player)
    const CLICK = { PICKUP: 0, QUICK_MOVE: 1, SWAP: 2, CLONE: 3, THROW: 4, QUICK_CRAFT: 5, PICKUP_ALL: 6 }

    if (mode === CLICK.QUICK_CRAFT) {
      const previous = this.quickcraftStatus
      this.quickcraftStatus = button & 3
      if ((previous !== 1 || this.quickcraftStatus !== 2) && previous !== this.quickcraftStatus) {
        this.resetQuickCraft()
      } else if (!this.getCarried()) {
        this.resetQuickCraft()
      } else if (this.quickcraftStatus === 0) {
        this.quickcraftType = (button >> 2) & 3
        // Type 2 (clone drag) is for creative players only.
        if (this.quickcraftType === 0 || this.quickcraftType === 1 || (this.quickcraftType === 2 && player.gameMode === 1)) {
          this.quickcraftStatus = 1
          this.quickcraftSlots = []
        } else {
          this.resetQuickCraft()
        }
      } else if (this.quickcraftStatus === 1) {
        if (slotId < 0 || slotId >= this.slots.length) return
        const slot = this.slots[slotId]
        const carried = this.getCarried()
        if (canItemQuickReplace(slot, carried, true, I) && slot.mayPlace(carried) &&
          (this.quickcraftType === 2 || carried.count > this.quickcraftSlots.length) && this.canDragTo(slot) &&
          !this.quickcraftSlots.includes(slot)) {
          this.quickcraftSlots.push(slot)
        }
      } else if (this.quickcraftStatus === 2) {
        if (this.quickcraftSlots.length > 0) {
          if (this.quickcraftSlots.length === 1) {
            const only = this.quickcraftSlots[0].menuIndex
            this.resetQuickCraft()
            this.clicked(only, this.quickcraftType, CLICK.PICKUP)
            return
          }
          const dragged = I.copy(this.getCarried())
          if (!dragged) { this.resetQuickCraft(); return }
          let left = this.getCarried().count
          for (const slot of this.quickcraftSlots) {
            const carried = this.getCarried()
            if (canItemQuickReplace(slot, carried, true, I) && slot.mayPlace(carried) &&
              (this.quickcraftType === 2 || carried.count >= this.quickcraftSlots.length) && this.canDragTo(slot)) {
              const had = slot.hasItem() ? slot.getItem().count : 0
              const max = Math.min(I.maxStackSize(dragged), slot.getMaxStackSize(dragged, I))
              const put = Math.min(quickCraftPlaceCount(this.quickcraftSlots.length, this.quickcraftType, dragged, I) + had, max)
              left -= put - had
              slot.setByPlayer(I.copyWithCount(dragged, put))
            }
          }
          dragged.count = left
          this.setCarried(dragged)
        }
        this.resetQuickCraft()
      } else {
        this.resetQuickCraft()
      }
      return
    }
    if (this.quickcraftStatus !== 0) {
      this.resetQuickCraft()
      return
    }

    if ((mode === CLICK.PICKUP || mode === CLICK.QUICK_MOVE) && (button === 0 || button === 1)) {
      const primary = button === 0
      if (slotId === -999) {
        const carried = this.getCarried()
        if (carried) {
          if (primary) {
            this.ctx.drop(player, carried, true)
            this.setCarried(null)
          } else {
            this.ctx.drop(player, I.split(carried, 1), true)
          }
        }
      } else if (mode === CLICK.QUICK_MOVE) {
        if (slotId < 0) return
        const slot = this.slots[slotId]
        if (!slot.mayPickup(player)) return
        let moved = this.quickMoveStack(player, slotId)
        while (!I.isEmpty(moved) && I.sameItem(slot.getItem(), moved)) {
          moved = this.quickMoveStack(player, slotId)
        }
      } else {
        if (slotId < 0) return
        const slot = this.slots[slotId]
        const here = slot.getItem()
        const carried = this.getCarried()
        if (!here) {
          if (carried) {
            const n = primary ? carried.count : 1
            this.setCarried(slot.safeInsert(carried, n, I))
          }
        } else if (slot.mayPickup(player)) {
          if (!carried) {
            const n = primary ? here.count : Math.floor((here.count + 1) / 2)
            const taken = slot.tryRemove(n, Number.MAX_SAFE_INTEGER, player, I)
            if (taken) {
              this.setCarried(taken)
              slot.onTake(player, taken)
            }
          } else if (slot.mayPlace(carried)) {
            if (I.sameItemSameComponents(here, carried)) {
              const n = primary ? carried.count : 1
              this.setCarried(slot.safeInsert(carried, n, I))
            } else if (carried.count <= slot.getMaxStackSize(carried, I)) {
              this.setCarried(here)
              slot.setByPlayer(carried)
            }
          } else if (I.sameItemSameComponents(here, carried)) {
            const taken = slot.tryRemove(here.count, I.maxStackSize(carried) - carried.count, player, I)
            if (taken) {
              carried.count += taken.count
              slot.onTake(player, taken)
            }
          }
        }
        slot.setChanged()
      }
    } else if (mode === CLICK.SWAP && ((button >= 0 && button < 9) || button === 40)) {
      if (slotId < 0) return
      const fromInv = inv.getItem(button)
      const slot = this.slots[slotId]
      const here = slot.getItem()
      if (fromInv || here) {
        if (!fromInv) {
          if (slot.mayPickup(player)) {
            inv.setItem(button, here)
            slot.onSwapCraft(here.count)
            slot.setByPlayer(null)
            slot.onTake(player, here)
          }
        } else if (!here) {
          if (slot.mayPlace(fromInv)) {
            const max = slot.getMaxStackSize(fromInv, I)
            if (fromInv.count > max) {
              slot.setByPlayer(I.split(fromInv, max))
            } else {
              inv.setItem(button, null)
              slot.setByPlayer(fromInv)
            }
          }
        } else if (slot.mayPickup(player) && slot.mayPlace(fromInv)) {
          const max = slot.getMaxStackSize(fromInv, I)
          if (fromInv.count > max) {
            slot.setByPlayer(I.split(fromInv, max))
            slot.onTake(player, here)
            if (!inv.add(here)) this.ctx.drop(player, here, true)
          } else {
            inv.setItem(button, here)
            slot.setByPlayer(fromInv)
            slot.onTake(player, here)
          }
        }
      }
    } else if (mode === CLICK.CLONE && player.gameMode === 1 && !this.getCarried() && slotId >= 0) {
      const here = this.slots[slotId].getItem()
      if (here) this.setCarried(I.copyWithCount(here, I.maxStackSize(here)))
    } else if (mode === CLICK.THROW && !this.getCarried() && slotId >= 0) {
      const slot = this.slots[slotId]
      const n = button === 0 ? 1 : (slot.getItem() ? slot.getItem().count : 0)
      let thrown = slot.safeTake(n, Number.MAX_SAFE_INTEGER, player, I)
      if (thrown) this.ctx.drop(player, thrown, true)
      if (button === 1) {
        while (thrown && I.sameItem(slot.getItem(), thrown)) {
          thrown = slot.safeTake(n, Number.MAX_SAFE_INTEGER, player, I)
          if (thrown) this.ctx.drop(player, thrown, true)
        }
      }
    } else if (mode === CLICK.PICKUP_ALL && slotId >= 0) {
      const slot = this.slots[slotId]
      const carried = this.getCarried()
      if (carried && (!slot.hasItem() || !slot.mayPickup(player))) {
        const start = button === 0 ? 0 : this.slots.length - 1
        const step = button === 0 ? 1 : -1
        for (let pass = 0; pass < 2; pass++) {
          for (let q = start; q >= 0 && q < this.slots.length && carried.count < I.maxStackSize(carried); q += step) {
            const other = this.slots[q]
            if (other.hasItem() && canItemQuickReplace(other, carried, true, I) && other.mayPickup(player) && this.canTakeItemForPickAll(carried, other)) {
              const there = other.getItem()
              if (pass !== 0 || there.count !== I.maxStackSize(there)) {
                const taken = other.safeTake(there.count, I.maxStackSize(carried) - carried.count, player, I)
                if (taken) carried.count += taken.count
              }
            }
          }
        }
      }
    }
  }

  // moveItemStackTo is AbstractContainerMenu.moveItemStackTo: merge into
  // matching stacks of [start, end), then into the first empty slot.
  moveItemStackTo (stack, start, end, reverse) {
    const I = this.I
    let moved = false
    let i = reverse ? end - 1 : start
    if (I.isStackable(stack)) {
      while (!I.isEmpty(stack) && (reverse ? i >= start : i < end)) {
        const slot = this.slots[i]
        const there = slot.getItem()
        if (there && I.sameItemSameComponents(stack, there)) {
          const total = there.count + stack.count
          const max = slot.getMaxStackSize(there, I)
          if (total <= max) {
            stack.count = 0
            there.count = total
            slot.setChanged()
            moved = true
          } else if (there.count < max) {
            stack.count -= max - there.count
            there.count = max
            slot.setChanged()
            moved = true
          }
        }
        i += reverse ? -1 : 1
      }
    }
    if (!I.isEmpty(stack)) {
      i = reverse ? end - 1 : start
      while (reverse ? i >= start : i < end) {
        const slot = this.slots[i]
        if (!slot.hasItem() && slot.mayPlace(stack)) {
          const max = slot.getMaxStackSize(stack, I)
          slot.setByPlayer(I.split(stack, Math.min(stack.count, max)))
          slot.setChanged()
          moved = true
          break
        }
        i += reverse ? -1 : 1
      }
    }
    return moved
  }

  // removed is called when the menu closes: the carried stack goes back
  // into the inventory (AbstractContainerMenu.removed).
  removed () {
    const carried = this.getCarried()
    if (carried) {
      this.ctx.placeBackOrDrop(this.player, carried)
      this.setCarried(null)
    }
  }

  // clearContainer returns a container's items to the player, as closing a
  // crafting grid does (AbstractContainerMenu.clearContainer).
  clearContainer (container) {
    for (let i = 0; i < container.size; i++) {
      const s = container.removeItemNoUpdate(i)
      if (s) this.ctx.placeBackOrDrop(this.player, s)
    }
  }
}

function canItemQuickReplace (slot, stack, stackSizeMatters, I) {
  const empty = !slot || !slot.hasItem()
  if (!empty && stack && I.sameItemSameComponents(stack, slot.getItem())) {
    return slot.getItem().count + (stackSizeMatters ? 0 : stack.count) <= I.maxStackSize(stack)
  }
  return empty
}

function quickCraftPlaceCount (slotCount, type, stack, I) {
  switch (type) {
    case 0: return Math.floor(stack.count / slotCount)
    case 1: return 1
    case 2: return I.maxStackSize(stack)
    default: return stack.count
  }
}

module.exports = { SimpleContainer, CraftingContainer, ResultContainer, Slot, Menu }
