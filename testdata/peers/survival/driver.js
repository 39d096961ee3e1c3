'use strict'
// driver.js is a mineflayer player that performs survival actions with
// mineflayer's own APIs, so tests can check the survival plugin against a
// client blockmate did not write.
//
//   node survival/driver.js '{"host":"127.0.0.1","port":N,"username":"alex","version":"1.21.4"}'
//
// Commands arrive as JSON lines on stdin, each with an "id"; the answer is
// written to fd 3 as {"event":"done","message":id,"text":"<JSON result>"} or
// {"event":"failed","message":id,"reason":"…"}. The first event is
// {"event":"spawn"}. Commands:
//   {"cmd":"state"}                                 position, health, food, inventory
//   {"cmd":"chat","text":"/give alex oak_log 4"}   say or run something
//   {"cmd":"dig","pos":[x,y,z]}                     bot.dig, with mineflayer's own digTime
//   {"cmd":"collect","item":"oak_log","count":4}    walk to dropped items until holding count
//   {"cmd":"equip","item":"wooden_pickaxe"}         into the hand
//   {"cmd":"craft","item":"stick","count":1,"table":[x,y,z]}  recipesFor + bot.craft
//   {"cmd":"place","item":"crafting_table","against":[x,y,z],"face":[0,1,0]}
//   {"cmd":"smelt","furnace":[x,y,z],"input":"oak_log","fuel":"oak_planks","count":1}
//   {"cmd":"chest","pos":[x,y,z],"deposit":[["cobblestone",2]],"withdraw":[["cobblestone",1]]}
//   {"cmd":"consume","item":"bread"}                bot.consume
//   {"cmd":"attack","entity":"zombie"}              bot.attack until it dies
//   {"cmd":"waitHurt"}                              until the server lowers our health
//   {"cmd":"toss","item":"stick","count":1,"at":[x,y,z]}  look at a point and bot.toss
//   {"cmd":"waitItem","item":"stick","count":1}     until the inventory holds count
//   {"cmd":"lookAt","at":[x,y,z]}
//   {"cmd":"quit"}
const readline = require('readline')
const path = require('path')
const { emit } = require(path.join(__dirname, '..', 'events'))
const { dataVersion } = require(path.join(__dirname, '..', 'versions'))
const mineflayer = require('mineflayer')
const { Vec3 } = require('vec3')

const opts = JSON.parse(process.argv[2] || '{}')
const bot = mineflayer.createBot({
  host: opts.host || '127.0.0.1',
  port: opts.port,
  username: opts.username || 'survivor',
  version: opts.version ? dataVersion(opts.version) : false,
  auth: 'offline',
  viewDistance: 'tiny',
  hideErrors: true
})

if (process.env.DRIVER_TRACE) {
  const fs = require('fs')
  bot._client.on('packet', (d, m) => {
    if (['window_items', 'set_slot', 'open_window', 'close_window', 'set_cursor_item', 'set_player_inventory'].includes(m.name)) {
      fs.appendFileSync(process.env.DRIVER_TRACE, `${opts.username} <- ${m.name} w=${d.windowId} s=${d.stateId} slot=${d.slot}\n`)
    }
  })
  const write = bot._client.write.bind(bot._client)
  bot._client.write = (name, params) => {
    if (name === 'window_click' || name === 'close_window') fs.appendFileSync(process.env.DRIVER_TRACE, `${opts.username} -> ${name} ${JSON.stringify({ w: params.windowId, s: params.stateId, slot: params.slot, m: params.mode })}\n`)
    return write(name, params)
  }
}

function itemId (name) {
  const def = bot.registry.itemsByName[name]
  if (!def) throw new Error('unknown item ' + name)
  return def.id
}

function vec (a) { return new Vec3(a[0], a[1], a[2]) }

function counts () {
  const out = {}
  for (const it of bot.inventory.items()) out[it.name] = (out[it.name] || 0) + it.count
  return out
}

function countOf (name) { return counts()[name] || 0 }

function state () {
  return {
    pos: bot.entity ? [bot.entity.position.x, bot.entity.position.y, bot.entity.position.z] : null,
    onGround: bot.entity ? bot.entity.onGround : null,
    health: bot.health,
    food: bot.food,
    saturation: bot.foodSaturation,
    held: bot.heldItem ? bot.heldItem.name : null,
    inventory: counts()
  }
}

// until resolves once check() holds, re-checking on every game tick
// mineflayer simulates; it fails when the bot leaves.
function until (check) {
  return new Promise((resolve, reject) => {
    if (check()) return resolve()
    const onTick = () => { if (check()) { cleanup(); resolve() } }
    const onEnd = (reason) => { cleanup(); reject(new Error('left the server: ' + reason)) }
    function cleanup () { bot.removeListener('physicsTick', onTick); bot.removeListener('end', onEnd) }
    bot.on('physicsTick', onTick)
    bot.once('end', onEnd)
  })
}

// freshInventory brings mineflayer's state id for the inventory up to date
// before it clicks there. mineflayer keeps one state id for all windows, so
// after a container closes its next inventory click carries the
// container's, which the server (like the game) answers with the whole
// inventory, overwriting what mineflayer predicted for the clicks it sent
// since. mineflayer's own resync (a click the server must refuse) avoids
// that.
async function freshInventory () {
  if (!bot.currentWindow) await bot._syncWindow(bot.inventory)
}

async function equip (name) {
  if (bot.heldItem && bot.heldItem.name === name) return
  const item = bot.inventory.items().find(i => i.name === name)
  if (!item) throw new Error(`no ${name} in the inventory (${JSON.stringify(counts())})`)
  await freshInventory()
  await bot.equip(item, 'hand')
  if (!bot.heldItem || bot.heldItem.name !== name) throw new Error(`equipped ${name} but holds ${bot.heldItem ? bot.heldItem.name : 'nothing'}`)
}

// look turns to a point and waits until mineflayer has told the server
// (it sends the rotation with its next physics tick); a throw before that
// would fly the old way.
async function look (point) {
  await bot.lookAt(point, true)
  await bot.waitForTicks(2)
}

// walkTo walks straight at an entity (the test ground is flat) until it is
// gone or done() holds, stopping on arrival.
async function walkTo (entityId, done) {
  try {
    await until(() => {
      const e = bot.entities[entityId]
      if (!e || done()) return true
      const dx = e.position.x - bot.entity.position.x
      const dz = e.position.z - bot.entity.position.z
      if (dx * dx + dz * dz < 0.04) {
        bot.setControlState('forward', false)
        return false
      }
      bot.lookAt(new Vec3(e.position.x, bot.entity.position.y + bot.entity.eyeHeight, e.position.z), true)
      bot.setControlState('forward', true)
      return false
    })
  } finally {
    bot.setControlState('forward', false)
  }
}

const commands = {
  async state () { return state() },

  async chat ({ text }) { bot.chat(String(text)); return {} },

  async lookAt ({ at }) { await look(vec(at)); return {} },

  async dig ({ pos }) {
    const block = bot.blockAt(vec(pos))
    if (!block) throw new Error('no block loaded at ' + pos)
    const canDig = bot.canDigBlock(block)
    const digTime = bot.digTime(block)
    const held = bot.heldItem ? bot.heldItem.name : null
    if (!canDig) throw new Error(`mineflayer cannot dig ${block.name} at ${pos} from ${bot.entity.position}`)
    await bot.dig(block, true)
    return { block: block.name, digTimeMs: digTime, digTicks: Math.round(digTime / 50), held, onGround: bot.entity.onGround }
  },

  async collect ({ item, count, radius }) {
    const want = count
    while (countOf(item) < want) {
      const drop = bot.nearestEntity(e => e.name === 'item' && e.getDroppedItem()?.name === item &&
        e.position.distanceTo(bot.entity.position) <= (radius || 16))
      if (!drop) throw new Error(`no ${item} on the ground within ${radius || 16} blocks and only ${countOf(item)} of ${want} held`)
      const before = countOf(item)
      await walkTo(drop.id, () => countOf(item) > before)
    }
    return { inventory: counts() }
  },

  async equip ({ item }) { await equip(item); return { held: bot.heldItem ? bot.heldItem.name : null } },

  async craft ({ item, count, table }) {
    const tableBlock = table ? bot.blockAt(vec(table)) : null
    if (table && (!tableBlock || tableBlock.name !== 'crafting_table')) throw new Error('no crafting table at ' + table)
    if (!table) await freshInventory()
    const recipes = bot.recipesFor(itemId(item), null, 1, tableBlock)
    if (recipes.length === 0) throw new Error(`mineflayer finds no recipe for ${item} with ${JSON.stringify(counts())}`)
    await bot.craft(recipes[0], count || 1, tableBlock)
    return { inventory: counts() }
  },

  async place ({ item, against, face }) {
    await equip(item)
    const ref = bot.blockAt(vec(against))
    await bot.placeBlock(ref, vec(face))
    const placed = bot.blockAt(vec(against).plus(vec(face)))
    return { placed: placed ? placed.name : null, inventory: counts() }
  },

  async smelt ({ furnace, input, fuel, count }) {
    // The window's properties come right behind its items, before
    // openFurnace returns, so they are recorded from the packets.
    const props = []
    const onProperty = (p) => props.push(p)
    bot._client.on('craft_progress_bar', onProperty)
    const block = bot.blockAt(vec(furnace))
    const f = await bot.openFurnace(block)
    try {
      await f.putFuel(itemId(fuel), null, 1)
      await f.putInput(itemId(input), null, count)
      await until(() => f.outputItem() && f.outputItem().count >= count)
      const out = f.outputItem()
      await f.takeOutput()
      // The highest value of each property (0 fuel left, 1 fuel's burn
      // time, 2 cooking progress, 3 total cooking time).
      const max = [0, 0, 0, 0]
      for (const p of props) if (p.windowId === f.id && p.property < 4) max[p.property] = Math.max(max[p.property], p.value)
      return { output: out.name, count: out.count, properties: max, inventory: counts() }
    } finally {
      bot._client.removeListener('craft_progress_bar', onProperty)
      f.close()
    }
  },

  async chest ({ pos, deposit, withdraw }) {
    const chest = await bot.openChest(bot.blockAt(vec(pos)))
    try {
      const before = chest.containerItems().map(i => [i.name, i.count])
      for (const [name, n] of deposit || []) await chest.deposit(itemId(name), null, n)
      for (const [name, n] of withdraw || []) await chest.withdraw(itemId(name), null, n)
      const after = chest.containerItems().map(i => [i.name, i.count])
      return { before, after, inventory: counts() }
    } finally {
      chest.close()
    }
  },

  async consume ({ item }) {
    await equip(item)
    const before = { food: bot.food, saturation: bot.foodSaturation, count: countOf(item) }
    await bot.consume()
    await until(() => countOf(item) < before.count)
    return { before, food: bot.food, saturation: bot.foodSaturation, count: countOf(item) }
  },

  async waitHurt () {
    const start = bot.health
    await until(() => bot.health < start || bot.health < 20)
    return { health: bot.health }
  },

  async attack ({ entity }) {
    let target = bot.nearestEntity(e => e.name === entity)
    if (!target) throw new Error('no ' + entity + ' in sight')
    const id = target.id
    let dead = false
    const onDead = (e) => { if (e.id === id) dead = true }
    bot.on('entityDead', onDead)
    let hits = 0
    try {
      while (!dead && bot.entities[id]) {
        target = bot.entities[id]
        await until(() => dead || !bot.entities[id] || bot.entities[id].position.distanceTo(bot.entity.position.offset(0, 1.62, 0)) < 3.5)
        if (dead || !bot.entities[id]) break
        await bot.lookAt(target.position.offset(0, 1.5, 0), true)
        bot.attack(target)
        hits++
        // A sword is ready again after 12.5 ticks (attack speed 1.6).
        await bot.waitForTicks(13)
      }
    } finally {
      bot.removeListener('entityDead', onDead)
    }
    return { hits, dead, health: bot.health }
  },

  async toss ({ item, count, at }) {
    if (at) await look(vec(at))
    await freshInventory()
    await bot.toss(itemId(item), null, count || 1)
    return { inventory: counts() }
  },

  async waitItem ({ item, count }) {
    await until(() => countOf(item) >= count)
    return { inventory: counts() }
  },

  async quit () { bot.quit(); return {} }
}

bot.once('spawn', () => emit('spawn', { t: Math.round(performance.now()) }))
bot.on('kicked', (reason) => emit('kicked', { reason: typeof reason === 'string' ? reason : JSON.stringify(reason) }))
bot.on('error', (err) => emit('error', { message: String(err && err.message ? err.message : err) }))
bot.on('end', (reason) => {
  emit('end', { reason: String(reason || '') })
  setTimeout(() => process.exit(0), 100)
})

// Commands run one at a time, in order.
let queue = Promise.resolve()
const rl = readline.createInterface({ input: process.stdin })
rl.on('line', (line) => {
  let cmd
  try {
    cmd = JSON.parse(line)
  } catch (err) {
    emit('error', { message: 'bad command line: ' + line })
    return
  }
  queue = queue.then(async () => {
    const fn = commands[cmd.cmd]
    try {
      if (!fn) throw new Error('unknown command ' + cmd.cmd)
      const result = await fn(cmd)
      emit('done', { message: String(cmd.id), text: JSON.stringify(result) })
    } catch (err) {
      emit('failed', { message: String(cmd.id), reason: String(err && err.message ? err.message : err) })
    }
  })
})
rl.on('close', () => {
  try { bot.quit() } catch (err) {}
  setTimeout(() => process.exit(0), 500).unref()
})
