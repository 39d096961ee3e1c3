'use strict'
// player.js is a mineflayer player for blockmate's tests and benchmark.
//
//   node player.js '{"host":"127.0.0.1","port":N,"username":"alex","version":"1.21.4"}'
//
// Commands arrive as JSON lines on stdin:
//   {"cmd":"chat","text":"hello"}   say something (or run a /command)
//   {"cmd":"quit"}                  leave the server and exit
//   {"cmd":"block","x":0,"y":64,"z":0}   report the block mineflayer has there
//   {"cmd":"position"}              report where mineflayer is
//   {"cmd":"entity","username":"bob"}   report the entity mineflayer has for that player
//   {"cmd":"stats"}                 report how many chunk columns mineflayer holds
//   {"cmd":"walk","x":2.5,"z":-3.5} walk straight (jumping over a step) until x, z is
//                                   under the player, or 60 s have passed
//   {"cmd":"goto","x":0,"y":64,"z":0}   walk there with mineflayer-pathfinder (a player on a route)
//   {"cmd":"follow","username":"bob","distance":3}   follow that player with mineflayer-pathfinder (GoalFollow)
//   {"cmd":"stop"}                  stop walking or following
// Reports go to fd 3 as JSON lines:
//   {"event":"spawn","t":ms}        first spawn; t is milliseconds since the process started
//   {"event":"chat","username":"…","message":"…","text":"…"}  every chat line seen
//   {"event":"code_of_conduct","text":"…"}   a code of conduct (minecraft-protocol accepts it)
//   {"event":"dialog","phase":"configuration"|"play","title":"…","text":"…"}  a dialog shown
//   {"event":"death","message":"…"} the server said this player died (and why)
//   {"event":"respawn","x":…,"y":…,"z":…}  alive again after a death, at that position
//   {"event":"block","x":…,"y":…,"z":…,"name":"…"}  answer to block ("" where no chunk is loaded)
//   {"event":"position","x":…,"y":…,"z":…}  answer to position
//   {"event":"entity","username":"…","name":"player","x":…,"y":…,"z":…}  answer to entity
//                                   (name "" when mineflayer has no entity for the player)
//   {"event":"stats","chunks":N}  answer to stats
//   {"event":"walked","x":…,"y":…,"z":…,"reason":"…"}  answer to walk: where the player
//                                   stopped (reason says why when it is not there)
//   {"event":"arrived","x":…,"y":…,"z":…,"message":"…"}  a goto ended (message says why, when it failed)
//   {"event":"following","username":"…","message":"…"}  a follow started (message says why not)
//   {"event":"kicked","reason":"…"} {"event":"end","reason":"…"} {"event":"error","message":"…"}
const readline = require('readline')
const { emit } = require('./events')
const { dataVersion } = require('./versions')
const { dialogSummary } = require('./dialogs')

const opts = JSON.parse(process.argv[2] || '{}')
// mineflayer 4.39.0 refuses, by name, every release after 26.1, the newest it
// was tested on. The releases blockmate emits the data of (26.2:
// emitted.js, loaded by versions.js) are let through: mineflayer then reads
// them with minecraft-protocol and the emitted dataset, as a peer; what it
// cannot read shows as a failing test, not a skipped one.
const mineflayerVersion = require('mineflayer/lib/version')
const { versions: emittedVersions } = require('./emitted')
for (const v of emittedVersions) if (!mineflayerVersion.testedVersions.includes(v)) mineflayerVersion.testedVersions.push(v)
mineflayerVersion.latestSupportedVersion = mineflayerVersion.testedVersions[mineflayerVersion.testedVersions.length - 1]
const mineflayer = require('mineflayer')

const bot = mineflayer.createBot({
  host: opts.host || '127.0.0.1',
  port: opts.port,
  username: opts.username || 'player',
  version: opts.version ? dataVersion(opts.version) : false,
  auth: 'offline',
  viewDistance: opts.viewDistance || 'tiny', // a number of chunks, or tiny/short/normal/far
  hideErrors: true
})

// Player chat names its sender by UUID; flying-squid sends every chat line as
// a system message "<name> text", so both shapes are turned into a sender and
// the words they said. Other system lines keep an empty username.
const CHAT_LINE = /^<([^>\s]{1,16})> ([\s\S]*)$/

bot.on('message', (msg, position, sender) => {
  const text = msg.toString()
  let username = ''
  let message = text
  if (sender && sender !== '00000000-0000-0000-0000-000000000000') {
    const p = Object.values(bot.players).find(p => p.uuid === sender)
    if (p) username = p.username
  }
  const m = CHAT_LINE.exec(text)
  if (m && (username === '' || username === m[1])) {
    username = m[1]
    message = m[2]
  }
  emit('chat', { username, message, text, position })
})

// Configuration-phase packets arrive on the client before mineflayer's
// plugins exist, so these listen on the protocol client itself.
bot._client.on('code_of_conduct', (packet) => emit('code_of_conduct', { text: packet.contents }))
bot._client.on('show_dialog', (packet) => {
  const phase = bot._client.state === 'configuration' ? 'configuration' : 'play'
  emit('dialog', { phase, ...dialogSummary(packet.dialog) })
})
bot._client.on('death_combat_event', (packet) => {
  let message = ''
  try {
    const ChatMessage = require('prismarine-chat')(bot.registry)
    message = ChatMessage.fromNotch(packet.message).toString()
  } catch (err) {
    message = JSON.stringify(packet.message)
  }
  emit('death', { message })
})

let spawned = false
bot.on('spawn', () => {
  if (!spawned) {
    spawned = true
    emit('spawn', { t: Math.round(performance.now()) })
    for (const cmd of waiting.splice(0)) run(cmd)
    return
  }
  const p = bot.entity.position
  emit('respawn', { x: p.x, y: p.y, z: p.z })
})
bot.on('kicked', (reason) => emit('kicked', { reason: typeof reason === 'string' ? reason : JSON.stringify(reason) }))
bot.on('error', (err) => emit('error', { message: String(err && err.message ? err.message : err) }))
bot.on('end', (reason) => {
  emit('end', { reason: String(reason || '') })
  setTimeout(() => process.exit(0), 100)
})

const rl = readline.createInterface({ input: process.stdin })
// Commands that need the player in the world wait for its first spawn.
const waiting = []
rl.on('line', (line) => {
  let cmd
  try {
    cmd = JSON.parse(line)
  } catch (err) {
    emit('error', { message: 'bad command line: ' + line })
    return
  }
  if (!spawned && cmd.cmd !== 'quit') {
    waiting.push(cmd)
    return
  }
  run(cmd)
})

// settle waits for the chunks around the player and for it to stand on
// the ground (at most 200 ticks: a player on a ledge still plans).
async function settle () {
  await bot.waitForChunksToLoad()
  for (let i = 0; i < 200 && !bot.entity.onGround; i++) await bot.waitForTicks(1)
}

function run (cmd) {
  switch (cmd.cmd) {
    case 'chat':
      bot.chat(String(cmd.text))
      break
    case 'quit':
      bot.quit()
      break
    case 'block': {
      const { Vec3 } = require('vec3')
      const block = bot.blockAt(new Vec3(cmd.x, cmd.y, cmd.z))
      emit('block', { x: cmd.x, y: cmd.y, z: cmd.z, name: block ? block.name : '' })
      break
    }
    case 'entity': {
      const player = bot.players[cmd.username]
      const e = player && player.entity
      emit('entity', e ? { username: cmd.username, name: e.name || e.type, x: e.position.x, y: e.position.y, z: e.position.z } : { username: cmd.username, name: '' })
      break
    }
    case 'stats':
      emit('stats', { chunks: bot.world.getColumns().length })
      break
    case 'goto': {
      const { goals } = walker()
      const done = (message) => {
        const p = bot.entity.position
        emit('arrived', { x: p.x, y: p.y, z: p.z, message })
      }
      // A player that has just spawned may still be falling, or without
      // the chunks around it: mineflayer-pathfinder then answers "No path
      // to the goal!" at once. Plan from the ground, as a person would.
      settle()
        .then(() => bot.pathfinder.goto(new goals.GoalBlock(cmd.x, cmd.y, cmd.z)))
        .then(() => done(''), (err) => done(String(err && err.message || err)))
      break
    }
    case 'follow': {
      const { goals } = walker()
      const player = bot.players[cmd.username]
      if (!player || !player.entity) {
        emit('following', { username: cmd.username, message: 'no entity for ' + cmd.username })
        break
      }
      bot.pathfinder.setGoal(new goals.GoalFollow(player.entity, cmd.distance || 3), true)
      emit('following', { username: cmd.username, message: '' })
      break
    }
    case 'stop':
      if (bot.pathfinder) bot.pathfinder.setGoal(null)
      break
    case 'position': {
      const p = bot.entity.position
      emit('position', { x: p.x, y: p.y, z: p.z })
      break
    }
    case 'walk':
      walk(Number(cmd.x), Number(cmd.z))
      break
    default:
      emit('error', { message: 'unknown command: ' + cmd.cmd })
  }
}
// walk moves the player the way a person at the keyboard would: looking
// towards the target and holding forward, every physics tick, until it is
// within a third of a block. The server sees ordinary movement packets.
function walk (x, z) {
  const { Vec3 } = require('vec3')
  const started = Date.now()
  const step = () => {
    const p = bot.entity.position
    const left = Math.hypot(x - p.x, z - p.z)
    if (left < 0.33 || Date.now() - started > 60000) {
      bot.removeListener('physicsTick', step)
      bot.clearControlStates()
      emit('walked', { x: p.x, y: p.y, z: p.z, reason: left < 0.33 ? '' : `stopped ${left.toFixed(1)} blocks short after 60 s` })
      return
    }
    bot.lookAt(new Vec3(x, p.y + 1.62, z), true).catch(() => {})
    bot.setControlState('forward', true)
    bot.setControlState('jump', bot.entity.isCollidedHorizontally)
  }
  bot.on('physicsTick', step)
}

// walker loads mineflayer-pathfinder once, with movements that neither dig
// nor build (blockmate walks without either).
function walker () {
  const pf = require('mineflayer-pathfinder')
  if (!bot.pathfinder) {
    bot.loadPlugin(pf.pathfinder)
    const moves = new pf.Movements(bot)
    moves.canDig = false
    moves.allow1by1towers = false
    moves.scafoldingBlocks = []
    bot.pathfinder.setMovements(moves)
  }
  return pf
}

// The test binary went away (or closed stdin): leave and exit.
rl.on('close', () => {
  try { bot.quit() } catch (err) {}
  setTimeout(() => process.exit(0), 500).unref()
})
