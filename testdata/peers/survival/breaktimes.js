'use strict'
// breaktimes.js compares the plugin's break times with mineflayer's own
// (prismarine-block's Block.digTime, which bot.dig waits for) for every
// block of a version, with hands and tools of every tier, on the ground and
// in the air, in water, with efficiency, haste and mining fatigue.
//
//   node survival/breaktimes.js 1.21.4
//
// It prints one JSON object: how many cases it compared, how many agree, and
// every difference with its reason. The known reasons are where
// minecraft-data's block materials, which mineflayer uses for tool speeds,
// differ from the game's tool rules (GAME 1.21.4 ToolMaterial /
// Tool.Rule over the mineable/*, leaves and sword_efficient block tags), and
// 32-bit float rounding (the game's arithmetic) against mineflayer's
// doubles. A difference with no known reason is "unexplained".
const path = require('path')
const version = process.argv[2] || '1.21.4'
const registry = require('prismarine-registry')(require(path.join(__dirname, '..', 'versions')).dataVersion(version))
const Block = require('prismarine-block')(registry)
const items = require('./items')(registry)

const state = { onGround: true }
let held = null
let inWater = false
const player = { effects: {}, position: { offset: () => ({ x: 0, y: 0, z: 0 }) }, world: null }
const ctx = {
  registry,
  items,
  heldItem: () => held,
  state: () => state,
  blockAt: () => (inWater ? { name: 'water', getProperties: () => ({}) } : null),
  inventoryOf: () => ({ getItem: () => null })
}
const digging = require('./digging')(ctx)
const inDoubles = require('./digging')(Object.assign({}, ctx, { doubles: true }))

const TOOLS = [null, 'stick', 'shears']
for (const tier of ['wooden', 'stone', 'iron', 'golden', 'diamond', 'netherite']) {
  for (const kind of ['pickaxe', 'axe', 'shovel', 'hoe', 'sword']) TOOLS.push(`${tier}_${kind}`)
}
const CONDITIONS = [
  { name: 'ground' },
  { name: 'air', air: true },
  { name: 'water', water: true },
  { name: 'haste 2', effects: { Haste: 1 } },
  { name: 'mining fatigue 1', effects: { MiningFatigue: 0 } },
  { name: 'efficiency 3', efficiency: 3 }
]

function effectsOf (names) {
  const out = {}
  for (const [name, amplifier] of Object.entries(names || {})) out[registry.effectsByName[name].id] = { amplifier }
  return out
}

// reason explains a difference, or returns 'unexplained'.
function reason (block, tool, ours, doubles, theirs) {
  const tags = (block.material || '').split(';')
  const kind = tool ? tool.split('_').pop() : ''
  if (doubles === theirs || Math.abs(ours - theirs) === 1) return 'rounding: the game computes in 32-bit floats; mineflayer in doubles, rounding 1/progress up'
  if (tags.some(t => t.startsWith('incorrect_for_')) && (kind === 'pickaxe' || tool.startsWith('wooden_'))) return 'minecraft-data files blocks that need a stone+ tool under "incorrect_for_wooden_tool" with a speed for wooden tools only; the game mines them as mineable/pickaxe, at the tier\'s speed with a pickaxe and 1 with anything else'
  if (kind === 'hoe' && tags.includes('leaves')) return 'hoes mine leaves at tool speed (mineable/hoe has #leaves); minecraft-data gives 1'
  if (kind === 'sword' && block.name === 'cobweb') return 'swords cut cobwebs at 15; minecraft-data gives 1'
  if (kind === 'sword' && tags.some(t => ['plant', 'leaves', 'gourd', 'vine_or_glow_lichen'].includes(t))) return 'swords mine #sword_efficient blocks at 1.5; minecraft-data gives 1'
  if (kind === 'axe' && tags.includes('mineable/axe') && tags.length > 1) return 'axes mine gourds and vines (mineable/axe) at tool speed; minecraft-data gives 1 for these mixed materials'
  return 'unexplained'
}

let compared = 0
let agree = 0
const differences = []
for (const def of registry.blocksArray) {
  const block = Block.fromStateId(def.defaultState, 0)
  for (const tool of TOOLS) {
    for (const cond of CONDITIONS) {
      if (cond.efficiency && !(tool && /_(pickaxe|axe|shovel|hoe)$/.test(tool))) continue
      const enchants = cond.efficiency ? [{ name: 'efficiency', lvl: cond.efficiency }] : []
      held = tool ? Object.assign(items.make(tool, 1), {}) : null
      if (held) Object.defineProperty(held, 'enchants', { value: enchants })
      state.onGround = !cond.air
      inWater = !!cond.water
      player.effects = effectsOf(cond.effects)
      const ours = digging.ticksToBreak(player, block)
      const ms = block.digTime(held ? held.type : null, false, !!cond.water, !!cond.air, enchants, player.effects)
      const theirs = ms === Infinity ? Infinity : ms / 50
      compared++
      if (ours === theirs) {
        agree++
        continue
      }
      const doubles = inDoubles.ticksToBreak(player, block)
      differences.push({ block: def.name, tool: tool || 'hand', condition: cond.name, plugin: ours, mineflayer: theirs, reason: reason(block, tool, ours, doubles, theirs) })
    }
  }
}

const reasons = {}
for (const d of differences) reasons[d.reason] = (reasons[d.reason] || 0) + 1
process.stdout.write(JSON.stringify({ version, compared, agree, reasons, differences }) + '\n')
