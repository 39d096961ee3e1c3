'use strict'
// benchpeer.js is the benchmark's Node side: a bare minecraft-protocol
// client (the floor: what the server itself takes to spawn a player) or a
// mineflayer bot (the anchor), joining at view distance 4.
//
//   NODE_PATH=testdata/peers/node_modules node benchpeer.js '{"mode":"bare"|"mineflayer","port":N,"username":"…","version":"1.21.4"}'
//
// It writes {"event":"spawn"} to fd 3 at the first position sync (bare) or
// mineflayer's spawn, then idles until stdin closes.
const fs = require('fs')
const opts = JSON.parse(process.argv[2])
const emit = (event) => { try { fs.writeSync(3, JSON.stringify({ event }) + '\n') } catch (err) { process.exit(0) } }
let quit = () => {}
if (opts.mode === 'bare') {
  const mc = require('minecraft-protocol')
  const client = mc.createClient({ host: '127.0.0.1', port: opts.port, username: opts.username, version: opts.version, auth: 'offline', viewDistance: 4 })
  client.once('position', () => emit('spawn'))
  client.on('error', (err) => console.error(err))
  quit = () => client.end()
} else {
  const mineflayer = require('mineflayer')
  const bot = mineflayer.createBot({ host: '127.0.0.1', port: opts.port, username: opts.username, version: opts.version, auth: 'offline', viewDistance: 4, hideErrors: true })
  bot.once('spawn', () => emit('spawn'))
  bot.on('error', (err) => console.error(err))
  quit = () => bot.quit()
}
process.stdin.on('end', () => { quit(); setTimeout(() => process.exit(0), 200) })
process.stdin.resume()
