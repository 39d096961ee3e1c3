'use strict'
// player.js is a mineflayer player for blockmate's tests and benchmark.
//
//   node player.js '{"host":"127.0.0.1","port":N,"username":"alex","version":"1.21.4"}'
//
// Commands arrive as JSON lines on stdin:
//   {"cmd":"chat","text":"hello"}   say something (or run a /command)
//   {"cmd":"quit"}                  leave the server and exit
// Reports go to fd 3 as JSON lines:
//   {"event":"spawn","t":ms}        first spawn; t is milliseconds since the process started
//   {"event":"chat","username":"…","message":"…","text":"…"}  every chat line seen
//   {"event":"kicked","reason":"…"} {"event":"end","reason":"…"} {"event":"error","message":"…"}
const readline = require('readline')
const { emit } = require('./events')
const { dataVersion } = require('./versions')

const opts = JSON.parse(process.argv[2] || '{}')
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

bot.once('spawn', () => emit('spawn', { t: Math.round(performance.now()) }))
bot.on('kicked', (reason) => emit('kicked', { reason: typeof reason === 'string' ? reason : JSON.stringify(reason) }))
bot.on('error', (err) => emit('error', { message: String(err && err.message ? err.message : err) }))
bot.on('end', (reason) => {
  emit('end', { reason: String(reason || '') })
  setTimeout(() => process.exit(0), 100)
})

const rl = readline.createInterface({ input: process.stdin })
rl.on('line', (line) => {
  let cmd
  try {
    cmd = JSON.parse(line)
  } catch (err) {
    emit('error', { message: 'bad command line: ' + line })
    return
  }
  switch (cmd.cmd) {
    case 'chat':
      bot.chat(String(cmd.text))
      break
    case 'quit':
      bot.quit()
      break
    default:
      emit('error', { message: 'unknown command: ' + cmd.cmd })
  }
})
// The test binary went away (or closed stdin): leave and exit.
rl.on('close', () => {
  try { bot.quit() } catch (err) {}
  setTimeout(() => process.exit(0), 500).unref()
})
