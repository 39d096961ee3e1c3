'use strict'
// chain.js is mineflayer doing the stone-pickaxe chain of issue 11 the way a
// mineflayer user would: mineflayer-collectblock (with mineflayer-pathfinder
// and mineflayer-tool) to gather, mineflayer's own crafting (bot.recipesFor,
// bot.craft, a crafting table placed with bot.placeBlock). The benchmark
// (bot/chain_bench_test.go) runs blockmate through the same chain in the
// same world and compares.
//
//   node chain.js '{"host":"127.0.0.1","port":N,"username":"mf","version":"1.21.4"}'
//
// A second command, {"cmd":"stone_pickaxe"}, is the same chain in a world
// the game made, with nothing placed (BenchmarkObtainVsMineflayer): the
// script finds the nearest trunk of any log kind, the stone wherever it
// lies (under the forest's dirt: collectblock's pathfinder digs down to it),
// a spot for the table next to the bot, and walks back to the table for the
// last craft, as a developer who knows these plugins would write it. Its
// clock starts once mineflayer's chunks around the bot have loaded
// (bot.waitForChunksToLoad) and it reports the same {"event":"chain"}.
//
// It reports {"event":"spawn"} once in the world; then one command line on
// stdin, {"cmd":"chain","table":[x,y,z],"expect":[[x,y,z,"oak_log"],…]}
// (where to put the crafting table: an air block above solid ground; the
// blocks the world must show before the clock starts), runs the chain and
// reports
// {"event":"chain","text":"<JSON>"} with ok, ms (the chain's wall time as
// this process measured it), calls (mineflayer and plugin API calls, by
// name), the steps' times, the final inventory and, when it failed, reason.
const readline = require('readline')
const path = require('path')
const { emit, exitWithParent } = require(path.join(__dirname, 'events'))
const { dataVersion } = require(path.join(__dirname, 'versions'))
const mineflayer = require('mineflayer')
const { pathfinder, goals } = require('mineflayer-pathfinder')
const collectBlock = require('mineflayer-collectblock').plugin
const { Vec3 } = require('vec3')

const opts = JSON.parse(process.argv[2] || '{}')
const bot = mineflayer.createBot({
  host: opts.host || '127.0.0.1',
  port: opts.port,
  username: opts.username || 'chain',
  version: opts.version ? dataVersion(opts.version) : false,
  auth: 'offline',
  viewDistance: 'tiny',
  hideErrors: true
})
// collectblock loads pathfinder and mineflayer-tool itself when missing;
// pathfinder is loaded first so collectblock's Movements find it.
bot.loadPlugin(pathfinder)
bot.loadPlugin(collectBlock)

// calls counts the API calls the chain makes, by name: what a program
// driving mineflayer has to write, the counterpart of blockmate's tool
// calls.
const calls = {}
function api (name, fn) {
  calls[name] = (calls[name] || 0) + 1
  return fn()
}

function counts () {
  const out = {}
  for (const it of bot.inventory.items()) out[it.name] = (out[it.name] || 0) + it.count
  return out
}
function countOf (name) { return counts()[name] || 0 }

// seen resolves once mineflayer's world shows every expected block (the
// layout the benchmark placed has arrived), checking every physics tick.
function seen (expect) {
  const ok = () => (expect || []).every(([x, y, z, name]) => bot.blockAt(new Vec3(x, y, z))?.name === name)
  return new Promise((resolve) => {
    if (ok()) return resolve()
    const onTick = () => { if (ok()) { bot.removeListener('physicsTick', onTick); resolve() } }
    bot.on('physicsTick', onTick)
  })
}

// collect gathers count items by digging the nearest blocks of a kind with
// collectBlock.collect, as its README shows. A drop collectblock did not
// see fall (it only queues drops within half a block of the block's
// middle) is collected as an entity afterwards.
async function collect (blockName, itemName, count) {
  const id = bot.registry.blocksByName[blockName].id
  const positions = api('findBlocks', () => bot.findBlocks({ matching: id, maxDistance: 32, count }))
  if (positions.length < count) throw new Error(`mineflayer sees ${positions.length} ${blockName}, wants ${count}`)
  const blocks = positions.map(p => api('blockAt', () => bot.blockAt(p)))
  await api('collectBlock.collect', () => bot.collectBlock.collect(blocks))
  while (countOf(itemName) < count) {
    const drops = Object.values(bot.entities).filter(e => e.name === 'item' && e.getDroppedItem()?.name === itemName &&
      e.position.distanceTo(bot.entity.position) < 16)
    if (drops.length === 0) throw new Error(`collected ${countOf(itemName)} ${itemName} of ${count}, and no drop is left`)
    await api('collectBlock.collect', () => bot.collectBlock.collect(drops))
  }
}

// craft makes count items with the first recipe mineflayer finds, at a
// crafting table when one is given.
async function craft (item, count, table) {
  const recipes = api('recipesFor', () => bot.recipesFor(bot.registry.itemsByName[item].id, null, 1, table || null))
  if (recipes.length === 0) throw new Error(`mineflayer finds no recipe for ${item} with ${JSON.stringify(counts())}`)
  const r = recipes[0]
  const times = Math.ceil(count / r.result.count)
  await api('craft', () => bot.craft(r, times, table || null))
  if (countOf(item) < count) throw new Error(`crafted ${item} but holds ${countOf(item)}`)
}

async function chain ({ table }) {
  const steps = []
  const start = performance.now()
  let t = start
  const step = (name) => { const now = performance.now(); steps.push({ step: name, ms: Math.round(now - t) }); t = now }

  await collect('oak_log', 'oak_log', 4)
  step('collect 4 oak_log')
  await craft('oak_planks', 16)
  await craft('crafting_table', 1)
  await craft('stick', 4)
  step('craft planks, table, sticks')

  const at = new Vec3(table[0], table[1], table[2])
  const item = bot.inventory.items().find(i => i.name === 'crafting_table')
  await api('equip', () => bot.equip(item, 'hand'))
  const ground = api('blockAt', () => bot.blockAt(at.offset(0, -1, 0)))
  await api('placeBlock', () => bot.placeBlock(ground, new Vec3(0, 1, 0)))
  const tableBlock = api('blockAt', () => bot.blockAt(at))
  if (!tableBlock || tableBlock.name !== 'crafting_table') throw new Error('the crafting table is not at ' + at)
  step('place crafting_table')

  await craft('wooden_pickaxe', 1, tableBlock)
  step('craft wooden_pickaxe')
  await collect('stone', 'cobblestone', 3)
  step('collect 3 cobblestone')
  await craft('stone_pickaxe', 1, api('blockAt', () => bot.blockAt(at)))
  step('craft stone_pickaxe')
  return { ms: Math.round(performance.now() - start), steps }
}

// nearestLog is the nearest block of any log kind mineflayer sees.
function nearestLog () {
  const ids = Object.values(bot.registry.blocksByName).filter(b => b.name.endsWith('_log') && !b.name.startsWith('stripped_')).map(b => b.id)
  const p = api('findBlock', () => bot.findBlock({ matching: ids, maxDistance: 32 }))
  if (!p) throw new Error('mineflayer sees no log within 32 blocks')
  return p.name
}

// tableGround is a block next to the bot to put the crafting table on:
// solid, with air above it, not where the bot stands.
function tableGround () {
  const feet = bot.entity.position.floored()
  for (const dy of [0, 1, -1]) {
    for (const [dx, dz] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, 1], [1, -1], [-1, -1], [2, 0], [-2, 0], [0, 2], [0, -2]]) {
      const at = feet.offset(dx, dy, dz)
      const here = api('blockAt', () => bot.blockAt(at))
      const below = api('blockAt', () => bot.blockAt(at.offset(0, -1, 0)))
      if (here && here.name === 'air' && below && below.boundingBox === 'block') return below
    }
  }
  throw new Error('no spot next to the bot for the crafting table')
}

// stonePickaxe is the chain in the game's world: 3 logs of the nearest
// kind (12 planks: 4 for the table, 2 for 4 sticks, 3 for the wooden
// pickaxe), the table placed beside the bot, the wooden pickaxe, 3
// cobblestone from the nearest stone, back to the table, the stone pickaxe.
async function stonePickaxe () {
  const steps = []
  const start = performance.now()
  let t = start
  const step = (name) => { const now = performance.now(); steps.push({ step: name, ms: Math.round(now - t) }); t = now }

  const log = nearestLog()
  const planks = log.replace(/_log$/, '_planks')
  await collect(log, log, 3)
  step('collect 3 ' + log)
  await craft(planks, 12)
  await craft('crafting_table', 1)
  await craft('stick', 4)
  step('craft planks, table, sticks')

  const ground = tableGround()
  const item = bot.inventory.items().find(i => i.name === 'crafting_table')
  await api('equip', () => bot.equip(item, 'hand'))
  await api('placeBlock', () => bot.placeBlock(ground, new Vec3(0, 1, 0)))
  const at = ground.position.offset(0, 1, 0)
  const tableBlock = api('blockAt', () => bot.blockAt(at))
  if (!tableBlock || tableBlock.name !== 'crafting_table') throw new Error('the crafting table is not at ' + at)
  step('place crafting_table')

  await craft('wooden_pickaxe', 1, tableBlock)
  step('craft wooden_pickaxe')
  await collect('stone', 'cobblestone', 3)
  step('collect 3 cobblestone')
  await api('pathfinder.goto', () => bot.pathfinder.goto(new goals.GoalNear(at.x, at.y, at.z, 3)))
  await craft('stone_pickaxe', 1, api('blockAt', () => bot.blockAt(at)))
  step('craft stone_pickaxe')
  return { ms: Math.round(performance.now() - start), steps }
}

bot.once('spawn', () => emit('spawn', { t: Math.round(performance.now()) }))
bot.on('kicked', (reason) => emit('kicked', { reason: typeof reason === 'string' ? reason : JSON.stringify(reason) }))
bot.on('error', (err) => emit('error', { message: String(err && err.message ? err.message : err) }))
bot.on('end', (reason) => {
  emit('end', { reason: String(reason || '') })
  setTimeout(() => process.exit(0), 100)
})

const rl = readline.createInterface({ input: process.stdin })
rl.on('line', async (line) => {
  let cmd
  try {
    cmd = JSON.parse(line)
  } catch (err) {
    emit('error', { message: 'bad command line: ' + line })
    return
  }
  if (cmd.cmd !== 'chain' && cmd.cmd !== 'stone_pickaxe') {
    emit('error', { message: 'unknown command ' + cmd.cmd })
    return
  }
  if (cmd.cmd === 'chain') await seen(cmd.expect)
  else await bot.waitForChunksToLoad()
  const started = performance.now()
  let result
  try {
    result = Object.assign({ ok: true }, cmd.cmd === 'chain' ? await chain(cmd) : await stonePickaxe())
  } catch (err) {
    result = { ok: false, ms: Math.round(performance.now() - started), reason: String(err && err.message ? err.message : err) }
  }
  result.calls = calls
  result.inventory = counts()
  emit('chain', { text: JSON.stringify(result) })
})
exitWithParent(() => { try { bot.quit() } catch (err) {} })
