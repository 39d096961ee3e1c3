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
//   {"cmd":"activate","pos":[x,y,z]}                bot.activateBlock (doors, levers, buttons)
//   {"cmd":"digEarly","pos":[x,y,z]}                raw start + finish at once
//   {"cmd":"click","pos":[x,y,z]}                   bot.activateBlock, without waiting for a change
//   {"cmd":"sleep","pos":[x,y,z]}                   bot.sleep on the bed: slept, or mineflayer's refusal
//   {"cmd":"waitWake"}                              until mineflayer's wake event after a sleep
//   {"cmd":"wake"}                                  bot.wake (leave the bed), then as waitWake
//   {"cmd":"waitTime","from":N,"to":N}              until mineflayer's time of day is in [from, to]
//   {"cmd":"staleClick"}, {"cmd":"gridReturn","item":…}, {"cmd":"shiftCraft","item":…,"count":N}
//   {"cmd":"stateIds","mark":N}, {"cmd":"packets","mark":N,"names":[…]}  raw packets seen
//   {"cmd":"blockAt","pos":[x,y,z]}                 mineflayer's view of a block: name, properties (null where no chunk is loaded)
//   {"cmd":"waitBlock","pos":[x,y,z],"name":"air"}  until mineflayer sees that block there
//   {"cmd":"waitPosition","pos":[x,y,z]}            until mineflayer stands within 0.1 of pos (after a teleport)
//   {"cmd":"players"}                               mineflayer's player list: name, whether it has the entity, where
//   {"cmd":"waitPlayer","username":"Theo"}          until the player is in the list with its entity
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

// packets records the window and combat packets the server sent, raw, so
// commands can report what arrived (mineflayer's models hide state ids).
const packets = []
const RECORDED = new Set(['window_items', 'set_slot', 'set_cursor_item', 'set_player_inventory', 'acknowledge_player_digging',
  'damage_event', 'hurt_animation', 'entity_status', 'update_health', 'block_change', 'collect', 'system_chat', 'animation'])
bot._client.on('packet', (data, meta) => {
  if (!RECORDED.has(meta.name)) return
  packets.push({ name: meta.name, data })
  if (packets.length > 5000) packets.splice(0, 1000)
})
function packetsSince (mark, names) {
  return packets.slice(mark).filter(p => names.includes(p.name))
}
// slim turns a recorded packet into JSON a test can read.
function slim (p) {
  const d = p.data
  const out = { name: p.name }
  for (const k of ['windowId', 'stateId', 'slot', 'slotId', 'sequenceId', 'entityId', 'entityStatus', 'sourceTypeId', 'sourceCauseId', 'sourceDirectId', 'health', 'food', 'type']) {
    if (d[k] !== undefined) out[k] = typeof d[k] === 'bigint' ? Number(d[k]) : d[k]
  }
  const item = d.item || d.contents
  if (item) out.item = item.itemCount > 0 ? { id: item.itemId, count: item.itemCount } : null
  if (d.items) out.items = d.items.filter(i => i.itemCount > 0).length
  if (d.location) out.location = [d.location.x, d.location.y, d.location.z]
  // A translated system line (a bed's refusal) by its key.
  if (p.name === 'system_chat') {
    out.translate = d.content?.value?.translate?.value ?? null
    out.actionBar = !!d.isActionBar
  }
  if (p.name === 'animation') out.animation = d.animation
  return out
}

function itemId (name) {
  const def = bot.registry.itemsByName[name]
  if (!def) throw new Error('unknown item ' + name)
  return def.id
}

function vec (a) { return new Vec3(a[0], a[1], a[2]) }

// woke is what mineflayer knew at its wake event after the last sleep.
let woke = null

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

function blockView (pos) {
  const b = bot.blockAt(vec(pos))
  return b ? { name: b.name, properties: b.getProperties(), stateId: b.stateId } : null
}

function playerList () {
  return Object.values(bot.players).map(p => ({
    username: p.username,
    entity: !!p.entity,
    pos: p.entity ? [p.entity.position.x, p.entity.position.y, p.entity.position.z] : null
  }))
}

const commands = {
  async state () { return state() },

  async blockAt ({ pos }) { return blockView(pos) },

  async players () { return playerList() },

  async waitPosition ({ pos }) {
    await until(() => bot.entity && bot.entity.position.distanceTo(vec(pos)) < 0.1)
    return state()
  },

  async waitPlayer ({ username }) {
    await until(() => !!bot.players[username]?.entity)
    return playerList()
  },

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

  // collect walks to dropped items until holding count. A drop can still
  // be on its way (mineflayer's dig ends on its own prediction, before the
  // server has spawned the item), so it waits for one to appear; the test
  // bounds the wait.
  async collect ({ item, count, radius }) {
    const near = () => bot.nearestEntity(e => e.name === 'item' && e.getDroppedItem()?.name === item &&
      e.position.distanceTo(bot.entity.position) <= (radius || 16))
    while (countOf(item) < count) {
      await until(() => countOf(item) >= count || near())
      const drop = near()
      if (!drop) continue
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

  // digEarly starts digging and finishes at once, as a client that
  // ignores the break time would, then waits for the server's
  // acknowledgement. mineflayer's world is not changed by raw packets, so
  // the block it reports is what the server left there.
  async digEarly ({ pos }) {
    const mark = packets.length
    const location = vec(pos)
    await bot.lookAt(location.offset(0.5, 0.5, 0.5), true)
    bot._client.write('block_dig', { status: 0, location, face: 1, sequence: 101 })
    bot._client.write('block_dig', { status: 2, location, face: 1, sequence: 102 })
    await until(() => packetsSince(mark, ['acknowledge_player_digging']).some(p => p.data.sequenceId === 102))
    const block = bot.blockAt(location)
    return { block: block ? block.name : null, packets: packetsSince(mark, ['acknowledge_player_digging', 'block_change']).map(slim) }
  },

  // activate right-clicks a block (bot.activateBlock) and waits until
  // mineflayer sees its state change; it returns the new properties.
  async activate ({ pos }) {
    const before = bot.blockAt(vec(pos))
    if (!before) throw new Error('no block loaded at ' + pos)
    await bot.activateBlock(before)
    await until(() => bot.blockAt(vec(pos)).stateId !== before.stateId)
    return { block: before.name, before: before.getProperties(), after: bot.blockAt(vec(pos)).getProperties() }
  },

  // click right-clicks a block (bot.activateBlock) and returns at once:
  // for blocks whose use changes nothing a player sees (a bed by day).
  async click ({ pos }) {
    const block = bot.blockAt(vec(pos))
    if (!block) throw new Error('no block loaded at ' + pos)
    await bot.activateBlock(block)
    return { block: block.name }
  },

  // sleep is mineflayer's own bot.sleep on the bed at pos (its checks,
  // its click, its wait for the sleeping pose). The wake event is watched
  // from before the click, for waitWake.
  async sleep ({ pos }) {
    const bed = bot.blockAt(vec(pos))
    if (!bed) throw new Error('no block loaded at ' + pos)
    const onWake = () => { woke = { isSleeping: bot.isSleeping, timeOfDay: bot.time.timeOfDay, pos: [bot.entity.position.x, bot.entity.position.y, bot.entity.position.z] } }
    woke = null
    bot.once('wake', onWake)
    try {
      await bot.sleep(bed)
    } catch (err) {
      bot.removeListener('wake', onWake)
      return { slept: false, error: err.message, timeOfDay: bot.time.timeOfDay }
    }
    return { slept: true, isSleeping: bot.isSleeping, timeOfDay: bot.time.timeOfDay }
  },

  // waitWake waits for the wake event the last sleep watched for.
  async waitWake () {
    await until(() => woke !== null)
    return woke
  },

  // wake leaves the bed with mineflayer's bot.wake and waits for the
  // wake event.
  async wake () {
    await bot.wake()
    await until(() => woke !== null)
    return woke
  },

  async waitTime ({ from, to }) {
    await until(() => bot.time.timeOfDay !== null && bot.time.timeOfDay >= from && bot.time.timeOfDay <= to)
    return { timeOfDay: bot.time.timeOfDay }
  },

  // waitBlock waits until mineflayer's world has name at pos, and answers
  // the block (name, properties, state id).
  async waitBlock ({ pos, name }) {
    await until(() => blockView(pos)?.name === name)
    return blockView(pos)
  },

  // staleClick sends a click that does nothing (an empty click outside the
  // window) with a state id the server cannot have, and returns what the
  // server answered.
  async staleClick () {
    await freshInventory()
    const before = packets.length
    const last = [...packets].reverse().find(p => (p.name === 'set_slot' || p.name === 'window_items') && p.data.windowId === 0)
    const stateId = last ? last.data.stateId : 0
    bot._client.write('window_click', { windowId: 0, stateId: (stateId + 1000) & 32767, slot: -999, mouseButton: 0, mode: 0, changedSlots: [], cursorItem: { itemCount: 0 } })
    await until(() => packetsSince(before, ['window_items']).length > 0)
    return { sentStateId: (stateId + 1000) & 32767, lastStateId: stateId, answer: packetsSince(before, ['window_items', 'set_slot']).map(slim) }
  },

  // stateIds returns the window 0 state ids the server has sent since mark
  // (all of them when mark is absent), and the current mark.
  async stateIds ({ mark }) {
    return { mark: packets.length, packets: packetsSince(mark || 0, ['window_items', 'set_slot', 'set_cursor_item', 'set_player_inventory']).map(slim) }
  },

  // gridReturn puts one item into the 2x2 crafting grid and closes the
  // inventory, which gives it back; it reports the packets that followed.
  async gridReturn ({ item }) {
    await freshInventory()
    const source = bot.inventory.items().find(i => i.name === item)
    if (!source) throw new Error('no ' + item)
    await bot.clickWindow(source.slot, 0, 0)
    await bot.clickWindow(1, 1, 0)
    await bot.clickWindow(source.slot, 0, 0)
    const inGrid = bot.inventory.slots[1] ? bot.inventory.slots[1].name : null
    const mark = packets.length
    await bot.closeWindow(bot.inventory)
    // The slots come back at once (window -2 at 1.21.1, set_player_inventory
    // from 1.21.2) and again as window 0's changes.
    await until(() => packetsSince(mark, ['set_slot']).some(p => p.data.windowId === 0 && p.data.slot === 1))
    await bot._syncWindow(bot.inventory)
    return { inGrid, packets: packetsSince(mark, ['set_slot', 'set_player_inventory', 'window_items']).map(slim), inventory: counts() }
  },

  // shiftCraft fills the first grid slot with count of item and
  // shift-clicks the result, which crafts as long as the grid allows.
  async shiftCraft ({ item, count }) {
    await freshInventory()
    const source = bot.inventory.items().find(i => i.name === item && i.count >= count)
    if (!source) throw new Error(`no stack of ${count} ${item}`)
    await bot.clickWindow(source.slot, 0, 0)
    for (let i = 0; i < count; i++) await bot.clickWindow(1, 1, 0)
    if (bot.inventory.selectedItem) await bot.clickWindow(source.slot, 0, 0)
    const mark = packets.length
    bot._client.write('window_click', { windowId: 0, stateId: [...packets].reverse().find(p => p.data.windowId === 0 && p.data.stateId !== undefined).data.stateId, slot: 0, mouseButton: 0, mode: 1, changedSlots: [], cursorItem: { itemCount: 0 } })
    await until(() => packetsSince(mark, ['set_slot']).some(p => p.data.windowId === 0 && p.data.slot === 0 && !(p.data.item.itemCount > 0)))
    await bot._syncWindow(bot.inventory)
    return { inventory: counts(), grid: [1, 2, 3, 4].map(i => bot.inventory.slots[i] ? bot.inventory.slots[i].name : null) }
  },

  // packets returns recorded packets of the given names since mark.
  async packets ({ mark, names }) {
    return { mark: packets.length, packets: packetsSince(mark || 0, names).map(slim) }
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
