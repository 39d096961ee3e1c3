'use strict'
// blockentities.js: furnaces and chests, whose contents live at their block
// position for as long as the block is there.
//
// The furnace ticks as GAME 1.21.4 AbstractFurnaceBlockEntity.serverTick
// does, every game tick whether or not anyone looks at it: burning fuel
// counts down; with an input it can smelt and no fire, one fuel item is
// burnt (litTime = litDuration = its burn time); while lit and able to
// smelt, cooking progress rises by one per tick and at the total cooking
// time (200) the input becomes the output; unlit, progress falls back two
// per tick. The block's lit property follows.
const { FurnaceContainer, SimpleContainer } = require('./menus')

module.exports = function blockEntities (ctx) {
  const { items: I } = ctx
  const furnaces = new Map()
  const chests = new Map()

  function key (world, pos) {
    return `${ctx.worldName(world)}:${pos.x},${pos.y},${pos.z}`
  }

  class Furnace {
    constructor (world, pos) {
      this.world = world
      this.pos = pos.clone()
      this.I = I
      this.litTime = 0
      this.litDuration = 0
      this.cookingProgress = 0
      this.cookingTotalTime = 200
      this.container = new FurnaceContainer(this)
    }

    recipe () {
      const input = this.container.getItem(0)
      return input ? ctx.recipes.smeltingFor(input.type) : null
    }

    totalCookTime () {
      const r = this.recipe()
      return r ? r.cookTime : 200
    }

    canBurn (recipe) {
      const input = this.container.getItem(0)
      if (!input || !recipe) return false
      const out = this.container.getItem(2)
      if (!out) return true
      if (out.type !== recipe.output) return false
      return out.count + recipe.count <= Math.min(I.maxStackSize(out), 99)
    }

    burn (recipe) {
      if (!this.canBurn(recipe)) return false
      const input = this.container.getItem(0)
      const out = this.container.getItem(2)
      if (!out) this.container.setItem(2, I.make(recipe.output, recipe.count))
      else out.count += recipe.count
      input.count -= 1
      this.container.setItem(0, input.count > 0 ? input : null)
      return true
    }

    tick () {
      const wasLit = this.litTime > 0
      if (this.litTime > 0) this.litTime--
      const fuel = this.container.getItem(1)
      const input = this.container.getItem(0)
      if (this.litTime > 0 || (fuel && input)) {
        const recipe = input ? this.recipe() : null
        if (this.litTime <= 0 && this.canBurn(recipe)) {
          this.litTime = fuel ? ctx.recipes.burnTime(fuel.type) : 0
          this.litDuration = this.litTime
          if (this.litTime > 0 && fuel) {
            const fuelName = I.name(fuel)
            fuel.count -= 1
            if (fuel.count <= 0) this.container.setItem(1, fuelName === 'lava_bucket' ? I.make('bucket', 1) : null)
            ctx.log('furnace', { pos: [this.pos.x, this.pos.y, this.pos.z], event: 'fuel burnt', fuel: fuelName, burnTicks: this.litDuration })
          }
        }
        if (this.litTime > 0 && this.canBurn(recipe)) {
          this.cookingProgress++
          if (this.cookingProgress === this.cookingTotalTime) {
            this.cookingProgress = 0
            this.cookingTotalTime = this.totalCookTime()
            const inputName = I.name(input)
            if (this.burn(recipe)) {
              ctx.log('furnace', { pos: [this.pos.x, this.pos.y, this.pos.z], event: 'smelted', input: inputName, output: I.name(this.container.getItem(2)) })
            }
          }
        } else {
          this.cookingProgress = 0
        }
      } else if (this.litTime <= 0 && this.cookingProgress > 0) {
        this.cookingProgress = Math.max(0, Math.min(this.cookingProgress - 2, this.cookingTotalTime))
      }
      if (wasLit !== this.litTime > 0) ctx.setBlockProperty(this.world, this.pos, 'furnace', 'lit', this.litTime > 0)
    }

    describe () {
      return {
        pos: [this.pos.x, this.pos.y, this.pos.z],
        input: I.describe(this.container.getItem(0)),
        fuel: I.describe(this.container.getItem(1)),
        output: I.describe(this.container.getItem(2)),
        litTime: this.litTime,
        litDuration: this.litDuration,
        cookingProgress: this.cookingProgress,
        cookingTotalTime: this.cookingTotalTime
      }
    }
  }

  class Chest {
    constructor (world, pos, blockName) {
      this.world = world
      this.pos = pos.clone()
      this.blockName = blockName
      this.container = new SimpleContainer(27)
    }

    describe () {
      return {
        pos: [this.pos.x, this.pos.y, this.pos.z],
        block: this.blockName,
        slots: this.container.items.map((s, i) => s && s.count > 0 ? Object.assign({ slot: i }, I.describe(s)) : null).filter(Boolean)
      }
    }
  }

  function furnaceAt (world, pos, create) {
    const k = key(world, pos)
    let f = furnaces.get(k)
    if (!f && create) {
      f = new Furnace(world, pos)
      furnaces.set(k, f)
    }
    return f || null
  }

  function chestAt (world, pos, blockName, create) {
    const k = key(world, pos)
    let c = chests.get(k)
    if (!c && create) {
      c = new Chest(world, pos, blockName)
      chests.set(k, c)
    }
    return c || null
  }

  // removed drops a block entity's contents where its block was broken
  // (Containers.dropContents).
  function removed (world, pos) {
    const k = key(world, pos)
    for (const map of [furnaces, chests]) {
      const be = map.get(k)
      if (!be) continue
      map.delete(k)
      for (let i = 0; i < be.container.size; i++) {
        const s = be.container.removeItemNoUpdate(i)
        if (s) ctx.spawnItem(world, pos.offset(0.5, 0.5, 0.5), s, { x: Math.random() * 0.2 - 0.1, y: 0.2, z: Math.random() * 0.2 - 0.1 }, 10)
      }
    }
  }

  function tick () {
    for (const [k, f] of furnaces) {
      const name = ctx.blockNameAt(f.world, f.pos)
      if (name === null) continue // not loaded: the game does not tick it either
      // A furnace replaced by something else (e.g. /setblock) is forgotten.
      if (name !== 'furnace') { furnaces.delete(k); continue }
      f.tick()
    }
  }

  return { furnaceAt, chestAt, removed, tick }
}
