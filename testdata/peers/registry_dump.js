'use strict'
// registry_dump.js prints, for each game version named on the command line,
// one JSON line with what prismarine-registry and prismarine-block make of
// minecraft-data: every block state (its block, its properties in the
// block's own order, its collision boxes), every block, item, food, entity,
// enchantment, effect, material, recipe and biome. bot/mcdata's
// differential test compares its own tables with it.
//
//   node registry_dump.js 1.21.4 26.1
require('./emitted') // the emitted releases (26.2), from testdata/peers/mcdata
const dataPaths = require('minecraft-data/minecraft-data/data/dataPaths.json')

for (const version of process.argv.slice(2)) {
  const registry = require('prismarine-registry')(version)
  const Block = require('prismarine-block')(registry)

  const shapeIndex = new Map()
  const shapes = []
  const states = []
  const numStates = Math.max(...registry.blocksArray.map(b => b.maxStateId)) + 1
  for (let id = 0; id < numStates; id++) {
    const block = Block.fromStateId(id, 0)
    const props = block.getProperties()
    const def = registry.blocksByStateId[id]
    const text = (def.states || []).map(s => s.name + '=' + String(props[s.name])).join(',')
    const key = JSON.stringify(block.shapes || [])
    let shape = shapeIndex.get(key)
    if (shape === undefined) {
      shape = shapes.length
      shapeIndex.set(key, shape)
      shapes.push(block.shapes || [])
    }
    states.push([block.type, text, shape])
  }

  const out = {
    version,
    folders: dataPaths.pc[version],
    numStates,
    states,
    shapes,
    blocks: registry.blocksArray.map(b => ({
      id: b.id,
      name: b.name,
      displayName: b.displayName,
      minStateId: b.minStateId,
      maxStateId: b.maxStateId,
      defaultState: b.defaultState,
      hardness: b.hardness,
      resistance: b.resistance,
      diggable: b.diggable,
      transparent: b.transparent,
      emitLight: b.emitLight,
      filterLight: b.filterLight,
      material: b.material,
      harvestTools: Object.keys(b.harvestTools || {}).map(Number).sort((x, y) => x - y),
      drops: b.drops || []
    })),
    items: registry.itemsArray.map(i => ({
      id: i.id, name: i.name, displayName: i.displayName, stackSize: i.stackSize, maxDurability: i.maxDurability || 0
    })),
    foods: registry.foodsArray.map(f => ({ name: f.name, foodPoints: f.foodPoints, saturation: f.saturation })),
    entities: registry.entitiesArray.map(e => ({
      id: e.id, name: e.name, displayName: e.displayName, type: e.type, category: e.category, width: e.width, height: e.height
    })),
    enchantments: registry.enchantmentsArray.map(e => ({ id: e.id, name: e.name, maxLevel: e.maxLevel })),
    effects: registry.effectsArray.map(e => ({ id: e.id, name: e.name, type: e.type })),
    materials: registry.materials,
    recipes: registry.recipes,
    biomes: registry.biomesArray.map(b => ({ id: b.id, name: b.name, temperature: b.temperature }))
  }
  process.stdout.write(JSON.stringify(out) + '\n')
}
