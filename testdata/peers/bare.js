'use strict'
// bare.js is a bare minecraft-protocol client: the least a Node client can do
// to join, and so the floor the benchmark compares blockmate's join against.
// It is also the second player where mineflayer cannot join a version.
//
//   node bare.js '{"host":"127.0.0.1","port":N,"username":"bare","version":"1.21.4"}'
//
// It logs in offline, lets minecraft-protocol answer configuration (known
// packs, a code of conduct) and keep-alives, and counts itself spawned when
// the server first places it (the position packet), which it confirms. When
// it dies it asks to respawn, as mineflayer does.
//
// Commands arrive as JSON lines on stdin:
//   {"cmd":"chat","text":"hello"}   say something (or run a /command)
//   {"cmd":"pace","from":[x,y,z],"to":[x,y,z],"speed":5}
//                                   walk back and forth between two points on
//                                   flat ground at speed blocks a second, one
//                                   position packet a tick as a client sends
//                                   while walking (no physics: the ground
//                                   must be flat and clear)
//   {"cmd":"stop"}                  stand still (ends pace)
//   {"cmd":"quit"}                  leave the server and exit
// Reports go to fd 3:
//   {"event":"spawn","t":ms}   t is milliseconds since the process started
//   {"event":"chat","username":"…","message":"…","text":"…"}  player chat (username set) and system lines
//   {"event":"code_of_conduct","text":"…"}  {"event":"dialog","phase":"…","title":"…","text":"…"}
//   {"event":"death","message":"…"}  {"event":"respawn","x":…,"y":…,"z":…}
//   {"event":"end","reason":"…"} {"event":"error","message":"…"}
// It stays connected until its stdin closes or it is told to quit.
const readline = require('readline')
const mc = require('minecraft-protocol')
const { emit } = require('./events')
const { dataVersion } = require('./versions')
const { dialogSummary } = require('./dialogs')

const opts = JSON.parse(process.argv[2] || '{}')

const client = mc.createClient({
  host: opts.host || '127.0.0.1',
  port: opts.port,
  username: opts.username || 'bare',
  version: opts.version ? dataVersion(opts.version) : false,
  auth: 'offline',
  hideErrors: true
})

// Chat is rendered lazily: loading the registry costs time the benchmark's
// join measurement should not include.
let ChatMessage = null
function render (json) {
  try {
    if (!ChatMessage) ChatMessage = require('prismarine-chat')(require('prismarine-registry')(client.version))
    return ChatMessage.fromNotch(json).toString()
  } catch (err) {
    return String(json)
  }
}

let spawned = false
let dead = false
let position = { x: 0, y: 0, z: 0 }
client.on('position', (packet) => {
  client.write('teleport_confirm', { teleportId: packet.teleportId })
  position = { x: packet.x, y: packet.y, z: packet.z }
  if (!spawned) {
    spawned = true
    emit('spawn', { t: Math.round(performance.now()) })
    for (const cmd of waiting.splice(0)) run(cmd)
  }
})
client.on('update_health', (packet) => {
  if (packet.health <= 0 && !dead) {
    dead = true
    client.write('client_command', { actionId: 0, payload: 0 }) // perform_respawn
  } else if (packet.health > 0 && dead) {
    dead = false
    emit('respawn', position)
  }
})
client.on('playerChat', (data) => {
  const username = data.senderName ? render(data.senderName) : ''
  const message = data.plainMessage !== undefined ? data.plainMessage : render(data.formattedMessage)
  emit('chat', { username: data.sender ? username : '', message, text: '<' + username + '> ' + message })
})
client.on('systemChat', (data) => {
  const text = render(data.formattedMessage)
  emit('chat', { username: '', message: text, text })
})
client.on('code_of_conduct', (packet) => emit('code_of_conduct', { text: packet.contents }))
client.on('show_dialog', (packet) => {
  emit('dialog', { phase: client.state === 'configuration' ? 'configuration' : 'play', ...dialogSummary(packet.dialog) })
})
client.on('death_combat_event', (packet) => {
  const { processNbtMessage } = require('prismarine-chat')
  emit('death', { message: render(processNbtMessage(packet.message)) })
})
client.on('error', (err) => emit('error', { message: String(err && err.message ? err.message : err) }))
client.on('end', (reason) => {
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

function run (cmd) {
  switch (cmd.cmd) {
    case 'chat':
      client.chat(String(cmd.text))
      break
    case 'pace':
      pace(cmd.from, cmd.to, Number(cmd.speed) || 4.317)
      break
    case 'stop':
      clearInterval(pacing)
      pacing = null
      break
    case 'quit':
      client.end('disconnect.quitting')
      break
    default:
      emit('error', { message: 'unknown command: ' + cmd.cmd })
  }
}
// pace walks from a to b and back until stopped: each tick (50 ms) a step
// of speed/20 blocks and the position packet a walking client sends.
let pacing = null
function pace (a, b, speed) {
  clearInterval(pacing)
  const len = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2])
  if (!(len > 0)) {
    emit('error', { message: 'pace needs two different points' })
    return
  }
  const step = speed / 20 / len
  let t = 0
  let dir = 1
  // 1.21.2 and later send the on-ground flag among the movement flags.
  const fields = require('minecraft-data')(client.version).protocol.play.toServer.types.packet_position[1]
  const flagged = fields.some((f) => f.name === 'flags')
  pacing = setInterval(() => {
    t += dir * step
    if (t >= 1 || t <= 0) {
      t = Math.min(1, Math.max(0, t))
      dir = -dir
    }
    const x = a[0] + (b[0] - a[0]) * t
    const y = a[1] + (b[1] - a[1]) * t
    const z = a[2] + (b[2] - a[2]) * t
    client.write('position', flagged ? { x, y, z, flags: { onGround: true, hasHorizontalCollision: false } } : { x, y, z, onGround: true })
  }, 50)
}

rl.on('close', () => {
  client.end()
  setTimeout(() => process.exit(0), 500).unref()
})
