'use strict'
// breakticks.js prints the survival plugin's break times (digging.js's
// ticksToBreak, the rule the plugin's server breaks blocks by) for every
// block of a version, with the hand and every tool, in several conditions,
// for bot/dig's differential test.
//
//   node survival/breakticks.js 1.21.4 [1.21.1 …]
//
// One JSON line per version: {version, tools, conditions, blocks: {name:
// [ticks per tool per condition]}}; -1 is "never" (unbreakable).
const path = require('path')
const { dataVersion } = require(path.join(__dirname, '..', 'versions'))

const TOOLS = [null, 'stick', 'shears']
for (const tier of ['wooden', 'stone', 'iron', 'golden', 'diamond', 'netherite']) {
  for (const kind of ['pickaxe', 'axe', 'shovel', 'hoe', 'sword']) TOOLS.push(`${tier}_${kind}`)
}
const CONDITIONS = [
  { name: 'ground' },
  { name: 'air', air: true },
  { name: 'water', water: true },
  { name: 'haste 2', effects: { haste: 1 } },
  { name: 'mining fatigue 1', effects: { mining_fatigue: 0 } },
  { name: 'efficiency 3', efficiency: 3 }
]

for (const version of process.argv.slice(2)) {
  const registry = require('prismarine-registry')(dataVersion(version))
  const Block = require('prismarine-block')(registry)
  const items = require('./items')(registry)
  const state = { onGround: true }
  let held = null
  let inWater = false
  const player = { effects: {}, position: { offset: () => ({ x: 0, y: 0, z: 0 }) }, world: null }
  const digging = require('./digging')({
    registry,
    items,
    heldItem: () => held,
    state: () => state,
    blockAt: () => (inWater ? { name: 'water', getProperties: () => ({}) } : null),
    inventoryOf: () => ({ getItem: () => null })
  })
  // minecraft-data names effects "Haste" or "haste" depending on the
  // version; digging.js looks them up as the registry has them.
  const effectByName = {}
  for (const e of Object.values(registry.effects)) effectByName[e.name.toLowerCase().replace(/([a-z])([A-Z])/g, '$1_$2')] = e
  for (const e of Object.values(registry.effects)) effectByName[e.name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()] = e

  const blocks = {}
  for (const def of registry.blocksArray) {
    const block = Block.fromStateId(def.defaultState, 0)
    const row = []
    for (const tool of TOOLS) {
      for (const cond of CONDITIONS) {
        const enchants = cond.efficiency ? [{ name: 'efficiency', lvl: cond.efficiency }] : []
        held = tool ? items.make(tool, 1) : null
        if (held) Object.defineProperty(held, 'enchants', { value: enchants })
        state.onGround = !cond.air
        inWater = !!cond.water
        player.effects = {}
        for (const [name, amplifier] of Object.entries(cond.effects || {})) player.effects[effectByName[name].id] = { amplifier }
        const t = digging.ticksToBreak(player, block)
        row.push(t === Infinity ? -1 : t)
      }
    }
    blocks[def.name] = row
  }
  process.stdout.write(JSON.stringify({ version, tools: TOOLS.map(t => t || ''), conditions: CONDITIONS.map(c => c.name), blocks }) + '\n')
}
