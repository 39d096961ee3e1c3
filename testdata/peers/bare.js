'use strict'
// bare.js is a bare minecraft-protocol client: the least a Node client can do
// to join, and so the floor the benchmark compares blockmate's join against.
//
//   node bare.js '{"host":"127.0.0.1","port":N,"username":"bare","version":"1.21.4"}'
//
// It logs in offline, lets minecraft-protocol answer configuration and
// keep-alives, and counts itself spawned when the server first places it
// (the position packet), which it confirms. Reports on fd 3:
//   {"event":"spawn","t":ms}   t is milliseconds since the process started
//   {"event":"end","reason":"…"} {"event":"error","message":"…"}
// It stays connected until its stdin closes.
const mc = require('minecraft-protocol')
const { emit, exitWithParent } = require('./events')
const { dataVersion } = require('./versions')

const opts = JSON.parse(process.argv[2] || '{}')

const client = mc.createClient({
  host: opts.host || '127.0.0.1',
  port: opts.port,
  username: opts.username || 'bare',
  version: opts.version ? dataVersion(opts.version) : false,
  auth: 'offline',
  hideErrors: true
})

let spawned = false
client.on('position', (packet) => {
  client.write('teleport_confirm', { teleportId: packet.teleportId })
  if (!spawned) {
    spawned = true
    emit('spawn', { t: Math.round(performance.now()) })
  }
})
client.on('error', (err) => emit('error', { message: String(err && err.message ? err.message : err) }))
client.on('end', (reason) => {
  emit('end', { reason: String(reason || '') })
  setTimeout(() => process.exit(0), 100)
})

exitWithParent(() => client.end())
