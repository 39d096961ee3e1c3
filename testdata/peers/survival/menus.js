'use strict'
// menus.js: the menus a survival player uses, each as the game builds it
// (GAME 1.21.4 InventoryMenu, CraftingMenu, AbstractFurnaceMenu, ChestMenu):
// the same slot numbering, the same slot rules and the same shift-click
// (quickMoveStack) routes.
const { SimpleContainer, CraftingContainer, ResultContainer, Slot, Menu } = require('./menu')

// Items whose crafting leaves something behind in the grid
// (Item.getCraftingRemainingItem).
const CRAFTING_REMAINDER = {
  milk_bucket: 'bucket',
  water_bucket: 'bucket',
  lava_bucket: 'bucket',
  powder_snow_bucket: 'bucket',
  honey_bottle: 'glass_bottle',
  dragon_breath: 'glass_bottle'
}

// equipmentSlotOf is the armour slot an item goes to ('head', 'chest',
// 'legs', 'feet'), 'offhand' for a shield, or null.
function equipmentSlotOf (name) {
  if (/_helmet$|^carved_pumpkin$|_head$|_skull$/.test(name)) return 'head'
  if (/_chestplate$|^elytra$/.test(name)) return 'chest'
  if (/_leggings$/.test(name)) return 'legs'
  if (/_boots$/.test(name)) return 'feet'
  if (name === 'shield') return 'offhand'
  return null
}
// The inventory index of each armour slot (Inventory: 36 feet .. 39 head).
const ARMOR_INDEX = { feet: 36, legs: 37, chest: 38, head: 39 }

class ResultSlot extends Slot {
  constructor (menu, craftSlots, resultSlots) {
    super(resultSlots, 0)
    this.menu = menu
    this.craftSlots = craftSlots
    this.removeCount = 0
  }

  mayPlace () { return false }
  remove (n, I) {
    const here = this.getItem()
    if (here) this.removeCount += Math.min(n, here.count)
    return super.remove(n, I)
  }

  // removeCount feeds the game's crafting statistics and advancements,
  // which this plugin does not keep; it is tracked to mirror ResultSlot.
  onQuickCraftAmount (stack, n) { this.removeCount += n }
  onSwapCraft (n) { this.removeCount += n }

  // onTake uses up one of each ingredient under the recipe and puts back
  // what the recipe leaves (ResultSlot.onTake).
  onTake (player, stack) {
    const ctx = this.menu.ctx
    const I = ctx.items
    this.removeCount = 0
    const grid = this.craftSlots
    const input = ctx.recipes.positioned(grid.items.map(s => (s && s.count > 0 ? s : null)), grid.width, grid.height)
    const remainders = input.cells.map(s => {
      const r = s && CRAFTING_REMAINDER[I.name(s)]
      return r ? I.make(r, 1) : null
    })
    for (let y = 0; y < input.height; y++) {
      for (let x = 0; x < input.width; x++) {
        const m = x + input.left + (y + input.top) * grid.width
        let here = grid.getItem(m)
        const remainder = remainders[x + y * input.width]
        if (here) {
          grid.removeItem(m, 1, I)
          here = grid.getItem(m)
        }
        if (remainder) {
          if (!here) {
            grid.setItem(m, remainder)
          } else if (I.sameItemSameComponents(here, remainder)) {
            remainder.count += here.count
            grid.setItem(m, remainder)
          } else if (!ctx.inventoryOf(player).add(remainder)) {
            ctx.drop(player, remainder, false)
          }
        }
      }
    }
  }
}

// slotChangedCraftingGrid recomputes the result and sends it at once with a
// new state id, even in the middle of a click (CraftingMenu.slotChangedCraftingGrid).
function slotChangedCraftingGrid (menu, craftSlots, resultSlots) {
  const ctx = menu.ctx
  const I = ctx.items
  const recipe = ctx.recipes.findCrafting(craftSlots.items.map(s => (s && s.count > 0 ? s : null)), craftSlots.width, craftSlots.height)
  const result = recipe ? I.make(recipe.result.id, recipe.result.count) : null
  resultSlots.setItem(0, result)
  menu.setRemoteSlot(0, result)
  ctx.net.setSlot(menu.player, menu.containerId, menu.incrementStateId(), 0, result)
}

class ArmorSlot extends Slot {
  constructor (inventory, index, kind, ctx) {
    super(inventory, index)
    this.kind = kind
    this.ctx = ctx
  }

  mayPlace (stack) { return !!stack && equipmentSlotOf(this.ctx.items.name(stack)) === this.kind }
  getMaxStackSize () { return 1 }
}

// InventoryMenu is window 0: 0 result, 1-4 the 2x2 grid, 5-8 armour
// (head..feet), 9-35 main, 36-44 hotbar, 45 off-hand.
class InventoryMenu extends Menu {
  constructor (ctx, player, inventory) {
    super(ctx, player, 0, null)
    this.craftSlots = new CraftingContainer(2, 2, this)
    this.resultSlots = new ResultContainer()
    this.addSlot(new ResultSlot(this, this.craftSlots, this.resultSlots))
    for (let i = 0; i < 4; i++) this.addSlot(new Slot(this.craftSlots, i))
    for (const kind of ['head', 'chest', 'legs', 'feet']) this.addSlot(new ArmorSlot(inventory, ARMOR_INDEX[kind], kind, ctx))
    for (let i = 9; i < 36; i++) this.addSlot(new Slot(inventory, i))
    for (let i = 0; i < 9; i++) this.addSlot(new Slot(inventory, i))
    this.addSlot(new Slot(inventory, 40))
  }

  slotsChanged (container) {
    if (container === this.craftSlots) slotChangedCraftingGrid(this, this.craftSlots, this.resultSlots)
  }

  canTakeItemForPickAll (stack, slot) { return slot.container !== this.resultSlots }

  quickMoveStack (player, index) {
    const I = this.I
    const slot = this.slots[index]
    const stack = slot.getItem()
    if (!stack) return null
    const original = I.copy(stack)
    const equip = equipmentSlotOf(I.name(stack))
    if (index === 0) {
      if (!this.moveItemStackTo(stack, 9, 45, true)) return null
      slot.onQuickCraft(stack, original)
    } else if (index >= 1 && index < 5) {
      if (!this.moveItemStackTo(stack, 9, 45, false)) return null
    } else if (index >= 5 && index < 9) {
      if (!this.moveItemStackTo(stack, 9, 45, false)) return null
    } else if (equip && equip !== 'offhand' && !this.slots[8 - (ARMOR_INDEX[equip] - 36)].hasItem()) {
      const to = 8 - (ARMOR_INDEX[equip] - 36)
      if (!this.moveItemStackTo(stack, to, to + 1, false)) return null
    } else if (equip === 'offhand' && !this.slots[45].hasItem()) {
      if (!this.moveItemStackTo(stack, 45, 46, false)) return null
    } else if (index >= 9 && index < 36) {
      if (!this.moveItemStackTo(stack, 36, 45, false)) return null
    } else if (index >= 36 && index < 45) {
      if (!this.moveItemStackTo(stack, 9, 36, false)) return null
    } else if (!this.moveItemStackTo(stack, 9, 45, false)) {
      return null
    }
    if (I.isEmpty(stack)) slot.setByPlayer(null)
    else slot.setChanged()
    if (stack.count === original.count) return null
    slot.onTake(player, stack)
    if (index === 0 && !I.isEmpty(stack)) this.ctx.drop(player, stack, false)
    return original
  }

  removed () {
    super.removed()
    this.resultSlots.removeItemNoUpdate(0)
    this.clearContainer(this.craftSlots)
  }
}

// BlockMenu is a menu tied to a block: it closes when the block is gone or
// the player is out of reach (ContainerLevelAccess / stillValid:
// Player.canInteractWithBlock(pos, 4.0)).
class BlockMenu extends Menu {
  constructor (ctx, player, containerId, type, pos, blockName) {
    super(ctx, player, containerId, type)
    this.pos = pos
    this.blockName = blockName
  }

  stillValid () {
    return this.ctx.blockNameAt(this.player.world, this.pos) === this.blockName &&
      this.ctx.canInteractWithBlock(this.player, this.pos, 4.0)
  }
}

// CraftingMenu is the crafting table: 0 result, 1-9 the 3x3 grid, then the
// player's 36 slots.
class CraftingMenu extends BlockMenu {
  constructor (ctx, player, containerId, pos) {
    super(ctx, player, containerId, 'minecraft:crafting', pos, 'crafting_table')
    this.craftSlots = new CraftingContainer(3, 3, this)
    this.resultSlots = new ResultContainer()
    this.addSlot(new ResultSlot(this, this.craftSlots, this.resultSlots))
    for (let i = 0; i < 9; i++) this.addSlot(new Slot(this.craftSlots, i))
    this.addPlayerSlots(ctx.inventoryOf(player))
  }

  slotsChanged (container) {
    if (container === this.craftSlots) slotChangedCraftingGrid(this, this.craftSlots, this.resultSlots)
  }

  canTakeItemForPickAll (stack, slot) { return slot.container !== this.resultSlots }

  quickMoveStack (player, index) {
    const I = this.I
    const slot = this.slots[index]
    const stack = slot.getItem()
    if (!stack) return null
    const original = I.copy(stack)
    if (index === 0) {
      if (!this.moveItemStackTo(stack, 10, 46, true)) return null
      slot.onQuickCraft(stack, original)
    } else if (index >= 10 && index < 46) {
      if (!this.moveItemStackTo(stack, 1, 10, false)) {
        if (index < 37) {
          if (!this.moveItemStackTo(stack, 37, 46, false)) return null
        } else if (!this.moveItemStackTo(stack, 10, 37, false)) {
          return null
        }
      }
    } else if (!this.moveItemStackTo(stack, 10, 46, false)) {
      return null
    }
    if (I.isEmpty(stack)) slot.setByPlayer(null)
    else slot.setChanged()
    if (stack.count === original.count) return null
    slot.onTake(player, stack)
    if (index === 0 && !I.isEmpty(stack)) this.ctx.drop(player, stack, false)
    return original
  }

  removed () {
    super.removed()
    this.clearContainer(this.craftSlots)
  }
}

// FurnaceContainer is the furnace block entity's three slots: a new kind of
// input resets the cooking progress (AbstractFurnaceBlockEntity.setItem).
class FurnaceContainer extends SimpleContainer {
  constructor (furnace) {
    super(3)
    this.furnace = furnace
  }

  setItem (i, stack) {
    const before = this.getItem(i)
    const same = stack && stack.count > 0 && this.furnace.I.sameItemSameComponents(before, stack)
    super.setItem(i, stack)
    if (i === 0 && !same) {
      this.furnace.cookingTotalTime = this.furnace.totalCookTime()
      this.furnace.cookingProgress = 0
    }
  }
}

class FurnaceFuelSlot extends Slot {
  constructor (container, index, ctx) {
    super(container, index)
    this.ctx = ctx
  }

  mayPlace (stack) { return !!stack && (this.ctx.recipes.isFuel(stack.type) || this.ctx.items.name(stack) === 'bucket') }
  getMaxStackSize (stack, I) { return stack && I.name(stack) === 'bucket' ? 1 : super.getMaxStackSize(stack, I) }
}

class FurnaceResultSlot extends Slot {
  mayPlace () { return false }
}

// FurnaceMenu: 0 input, 1 fuel, 2 result, then the player's 36 slots; data
// slots 0 burn time left, 1 burn time of the fuel, 2 cooking progress,
// 3 total cooking time.
class FurnaceMenu extends BlockMenu {
  constructor (ctx, player, containerId, furnace) {
    super(ctx, player, containerId, 'minecraft:furnace', furnace.pos, 'furnace')
    this.furnace = furnace
    this.addSlot(new Slot(furnace.container, 0))
    this.addSlot(new FurnaceFuelSlot(furnace.container, 1, ctx))
    this.addSlot(new FurnaceResultSlot(furnace.container, 2))
    this.addPlayerSlots(ctx.inventoryOf(player))
    this.dataSlots = [() => furnace.litTime, () => furnace.litDuration, () => furnace.cookingProgress, () => furnace.cookingTotalTime]
  }

  quickMoveStack (player, index) {
    const I = this.I
    const slot = this.slots[index]
    const stack = slot.getItem()
    if (!stack) return null
    const original = I.copy(stack)
    if (index === 2) {
      if (!this.moveItemStackTo(stack, 3, 39, true)) return null
      slot.onQuickCraft(stack, original)
    } else if (index !== 1 && index !== 0) {
      if (this.ctx.recipes.smeltingFor(stack.type)) {
        if (!this.moveItemStackTo(stack, 0, 1, false)) return null
      } else if (this.ctx.recipes.isFuel(stack.type)) {
        if (!this.moveItemStackTo(stack, 1, 2, false)) return null
      } else if (index >= 3 && index < 30) {
        if (!this.moveItemStackTo(stack, 30, 39, false)) return null
      } else if (index >= 30 && index < 39 && !this.moveItemStackTo(stack, 3, 30, false)) {
        return null
      }
    } else if (!this.moveItemStackTo(stack, 3, 39, false)) {
      return null
    }
    if (I.isEmpty(stack)) slot.setByPlayer(null)
    else slot.setChanged()
    if (stack.count === original.count) return null
    slot.onTake(player, stack)
    return original
  }
}

// ChestMenu is a single chest (generic_9x3): 27 chest slots, then the
// player's 36.
class ChestMenu extends BlockMenu {
  constructor (ctx, player, containerId, chest) {
    super(ctx, player, containerId, 'minecraft:generic_9x3', chest.pos, chest.blockName)
    this.chest = chest
    for (let i = 0; i < 27; i++) this.addSlot(new Slot(chest.container, i))
    this.addPlayerSlots(ctx.inventoryOf(player))
  }

  quickMoveStack (player, index) {
    const I = this.I
    const slot = this.slots[index]
    const stack = slot.getItem()
    if (!stack) return null
    const original = I.copy(stack)
    if (index < 27) {
      if (!this.moveItemStackTo(stack, 27, this.slots.length, true)) return null
    } else if (!this.moveItemStackTo(stack, 0, 27, false)) {
      return null
    }
    if (I.isEmpty(stack)) slot.setByPlayer(null)
    else slot.setChanged()
    return original
  }
}

module.exports = { InventoryMenu, CraftingMenu, FurnaceMenu, FurnaceContainer, ChestMenu, SimpleContainer, equipmentSlotOf }
