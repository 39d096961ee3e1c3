'use strict'
// recipes.js: crafting from minecraft-data's recipes for the version, and
// smelting and furnace fuel, which minecraft-data does not have.

// WOOD_TYPES are the overworld woods. Nether woods (crimson, warped) do not
// burn, so they are neither fuel nor charcoal (the game's
// #logs_that_burn and the flammable planks/slabs tags).
const WOOD_TYPES = ['oak', 'spruce', 'birch', 'jungle', 'acacia', 'dark_oak', 'mangrove', 'cherry', 'pale_oak']

module.exports = function recipes (registry) {
  const itemsByName = registry.itemsByName

  // ---- crafting (GAME 1.21.4 ShapedRecipe / ShapelessRecipe matching) ----

  const crafting = []
  for (const list of Object.values(registry.recipes)) {
    for (const r of list) {
      if (r.inShape) {
        const shape = r.inShape.map(row => row.map(normaliseIngredient))
        crafting.push({ shaped: true, shape, width: Math.max(...shape.map(row => row.length)), height: shape.length, result: r.result })
      } else if (r.ingredients) {
        crafting.push({ shaped: false, ingredients: r.ingredients.map(normaliseIngredient), result: r.result })
      }
    }
  }

  // An ingredient is null (empty cell) or the list of item ids it accepts.
  function normaliseIngredient (x) {
    if (x === null || x === undefined || x === -1) return null
    if (Array.isArray(x)) return x.map(idOf)
    if (typeof x === 'object') return [idOf(x.id)]
    return [idOf(x)]
  }

  function idOf (x) {
    return typeof x === 'number' ? x : (typeof x === 'object' && x !== null ? x.id : itemsByName[x].id)
  }

  // positioned is CraftingInput.Positioned: the grid trimmed to the box
  // around its non-empty cells.
  function positioned (grid, width, height) {
    let left = width; let top = height; let right = -1; let bottom = -1
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (grid[x + y * width]) {
          left = Math.min(left, x); right = Math.max(right, x)
          top = Math.min(top, y); bottom = Math.max(bottom, y)
        }
      }
    }
    if (right < 0) return { width: 0, height: 0, left: 0, top: 0, cells: [] }
    const w = right - left + 1
    const h = bottom - top + 1
    const cells = []
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) cells.push(grid[left + x + (top + y) * width])
    return { width: w, height: h, left, top, cells }
  }

  function shapedMatches (recipe, input, mirrored) {
    for (let y = 0; y < input.height; y++) {
      for (let x = 0; x < input.width; x++) {
        const row = recipe.shape[y]
        const rx = mirrored ? input.width - 1 - x : x
        const want = row[rx] ?? null
        const have = input.cells[x + y * input.width]
        if (want === null) {
          if (have) return false
        } else if (!have || !want.includes(have.type)) {
          return false
        }
      }
    }
    return true
  }

  function shapelessMatches (recipe, input) {
    const have = input.cells.filter(Boolean).map(s => s.type)
    if (have.length !== recipe.ingredients.length) return false
    // Small grids: a backtracking assignment of stacks to ingredients.
    const used = new Array(have.length).fill(false)
    function assign (k) {
      if (k === recipe.ingredients.length) return true
      for (let i = 0; i < have.length; i++) {
        if (!used[i] && recipe.ingredients[k].includes(have[i])) {
          used[i] = true
          if (assign(k + 1)) return true
          used[i] = false
        }
      }
      return false
    }
    return assign(0)
  }

  // findCrafting returns the recipe the grid makes, or null.
  function findCrafting (grid, width, height) {
    const input = positioned(grid, width, height)
    if (input.cells.length === 0) return null
    for (const r of crafting) {
      if (r.shaped) {
        if (r.width !== input.width || r.height !== input.height) continue
        if (shapedMatches(r, input, false) || shapedMatches(r, input, true)) return r
      } else if (shapelessMatches(r, input)) {
        return r
      }
    }
    return null
  }

  // ---- smelting ----
  //
  // minecraft-data has no smelting recipes, so these are the game's
  // furnace recipes (data/minecraft/recipe/*.json of type
  // minecraft:smelting, 1.21.x) for what a survival player smelts first:
  // ores and raw metals, wood to charcoal, sand, stone, clay, food. Cooking
  // time is the game's default of 200 ticks for all of them.
  const SMELTING = [
    ['raw_iron', 'iron_ingot', 0.7], ['iron_ore', 'iron_ingot', 0.7], ['deepslate_iron_ore', 'iron_ingot', 0.7],
    ['raw_gold', 'gold_ingot', 1.0], ['gold_ore', 'gold_ingot', 1.0], ['deepslate_gold_ore', 'gold_ingot', 1.0], ['nether_gold_ore', 'gold_ingot', 1.0],
    ['raw_copper', 'copper_ingot', 0.7], ['copper_ore', 'copper_ingot', 0.7], ['deepslate_copper_ore', 'copper_ingot', 0.7],
    ['coal_ore', 'coal', 0.1], ['deepslate_coal_ore', 'coal', 0.1],
    ['diamond_ore', 'diamond', 1.0], ['deepslate_diamond_ore', 'diamond', 1.0],
    ['emerald_ore', 'emerald', 1.0], ['deepslate_emerald_ore', 'emerald', 1.0],
    ['lapis_ore', 'lapis_lazuli', 0.2], ['deepslate_lapis_ore', 'lapis_lazuli', 0.2],
    ['redstone_ore', 'redstone', 0.7], ['deepslate_redstone_ore', 'redstone', 0.7],
    ['nether_quartz_ore', 'quartz', 0.2], ['ancient_debris', 'netherite_scrap', 2.0],
    ['sand', 'glass', 0.1], ['red_sand', 'glass', 0.1],
    ['cobblestone', 'stone', 0.1], ['stone', 'smooth_stone', 0.1], ['cobbled_deepslate', 'deepslate', 0.1],
    ['stone_bricks', 'cracked_stone_bricks', 0.1], ['sandstone', 'smooth_sandstone', 0.1], ['red_sandstone', 'smooth_red_sandstone', 0.1],
    ['quartz_block', 'smooth_quartz', 0.1], ['basalt', 'smooth_basalt', 0.1], ['netherrack', 'nether_brick', 0.1],
    ['clay_ball', 'brick', 0.3], ['clay', 'terracotta', 0.35], ['wet_sponge', 'sponge', 0.15],
    ['cactus', 'green_dye', 1.0], ['sea_pickle', 'lime_dye', 0.1], ['kelp', 'dried_kelp', 0.1], ['chorus_fruit', 'popped_chorus_fruit', 0.1],
    ['potato', 'baked_potato', 0.35], ['beef', 'cooked_beef', 0.35], ['porkchop', 'cooked_porkchop', 0.35],
    ['chicken', 'cooked_chicken', 0.35], ['mutton', 'cooked_mutton', 0.35], ['rabbit', 'cooked_rabbit', 0.35],
    ['cod', 'cooked_cod', 0.35], ['salmon', 'cooked_salmon', 0.35]
  ]
  for (const wood of WOOD_TYPES) {
    for (const form of [`${wood}_log`, `${wood}_wood`, `stripped_${wood}_log`, `stripped_${wood}_wood`]) SMELTING.push([form, 'charcoal', 0.15])
  }
  const smelting = new Map()
  for (const [input, output, xp] of SMELTING) {
    if (itemsByName[input] && itemsByName[output]) smelting.set(itemsByName[input].id, { output: itemsByName[output].id, count: 1, xp, cookTime: 200 })
  }

  // ---- fuel (GAME 1.21.1 AbstractFurnaceBlockEntity.getFuel; 1.21.2+
  // FuelValues.vanillaBurnTimes, same values), in ticks ----
  const fuel = new Map()
  function addFuel (name, ticks) { if (itemsByName[name]) fuel.set(itemsByName[name].id, ticks) }
  addFuel('lava_bucket', 20000)
  addFuel('coal_block', 16000)
  addFuel('blaze_rod', 2400)
  addFuel('coal', 1600)
  addFuel('charcoal', 1600)
  addFuel('dried_kelp_block', 4001)
  for (const w of WOOD_TYPES.concat(['bamboo'])) {
    for (const name of [`${w}_log`, `${w}_wood`, `stripped_${w}_log`, `stripped_${w}_wood`, `${w}_planks`, `${w}_stairs`,
      `${w}_trapdoor`, `${w}_pressure_plate`, `${w}_fence`, `${w}_fence_gate`]) addFuel(name, 300)
    addFuel(`${w}_slab`, 150)
    addFuel(`${w}_sign`, 200)
    addFuel(`${w}_hanging_sign`, 800)
    addFuel(`${w}_door`, 200)
    addFuel(`${w}_button`, 100)
    addFuel(`${w}_sapling`, 100)
    addFuel(`${w}_boat`, 1200)
    addFuel(`${w}_chest_boat`, 1200)
  }
  addFuel('bamboo_block', 300); addFuel('stripped_bamboo_block', 300); addFuel('bamboo_mosaic', 300)
  addFuel('bamboo_mosaic_stairs', 300); addFuel('bamboo_mosaic_slab', 150); addFuel('bamboo_raft', 1200); addFuel('bamboo_chest_raft', 1200)
  for (const name of ['note_block', 'bookshelf', 'chiseled_bookshelf', 'lectern', 'jukebox', 'chest', 'trapped_chest', 'crafting_table',
    'daylight_detector', 'bow', 'fishing_rod', 'ladder', 'crossbow', 'mangrove_roots', 'composter', 'barrel', 'cartography_table',
    'fletching_table', 'smithing_table', 'loom']) addFuel(name, 300)
  for (const tool of ['wooden_shovel', 'wooden_sword', 'wooden_hoe', 'wooden_axe', 'wooden_pickaxe']) addFuel(tool, 200)
  for (const name of ['stick', 'bowl', 'dead_bush', 'azalea', 'flowering_azalea']) addFuel(name, 100)
  for (const name of Object.keys(itemsByName)) {
    if (name.endsWith('_wool')) addFuel(name, 100)
    else if (name.endsWith('_carpet') && name !== 'moss_carpet' && name !== 'pale_moss_carpet') addFuel(name, 67)
    else if (name.endsWith('_banner')) addFuel(name, 300)
  }
  addFuel('bamboo', 50)
  addFuel('scaffolding', 50)

  return {
    findCrafting,
    positioned,
    smeltingFor: (type) => smelting.get(type) || null,
    burnTime: (type) => fuel.get(type) || 0,
    isFuel: (type) => fuel.has(type)
  }
}
