'use strict'
// server.js starts a flying-squid server for blockmate's tests and benchmark.
//
//   node server.js '{"version":"1.21.4","motd":"…","viewDistance":4}'
//
// With "survival": true (or {"ticksPerSecond": N}) it loads the survival
// plugin (survival/README.md): break times, crafting, furnaces, chests,
// eating, a zombie. Its `survival query <id> …` console command answers on
// fd 3 as {"event":"survival","message":"<id>","text":"<JSON>"}.
//
// With "world": {"folder": DIR, "spawn": [x, y, z]} it serves the world the
// game made instead (gameworld.js prepares DIR: DIR/region holds the game's
// region file, converted for this version), with nothing around it (an
// empty generator outside the region's chunks), every player appearing in
// the middle of the spawn block (flying-squid picks a random one), and the
// world saved back to DIR as it changes.
//
// gamerules.js adds what the game does and flying-squid does not (the
// player list as the game sends it, the digger's block update).
//
// It listens on 127.0.0.1 only, on the given port or (port 0, the default) a
// port the kernel picks, runs in offline mode with everybody op, keeps the
// world in memory (superflat, so start-up is fast) and reports on fd 3:
//   {"event":"ready","port":N,"version":"1.21.4"}  once it accepts logins
//   {"event":"error","message":"…"}                 if it cannot start
// Lines written to its stdin are server console commands.
const { emit, exitWithParent } = require('./events')

const opts = JSON.parse(process.argv[2] || '{}')
const version = opts.version || '1.21.4'

const world = opts.world || null

let serv
try {
  const squid = require('flying-squid')
  serv = squid.createMCServer({
    host: '127.0.0.1',
    port: opts.port || 0,
    motd: opts.motd || 'blockmate test server',
    'max-players': 10,
    'online-mode': false,
    'everybody-op': true,
    logging: false,
    gameMode: opts.gameMode ?? 0,
    difficulty: 1,
    generation: world ? { name: 'empty', options: { seed: 1 } } : { name: 'superflat', options: { seed: 1 } },
    worldFolder: world ? world.folder : undefined,
    kickTimeout: 30000,
    plugins: {},
    modpe: false,
    'view-distance': opts.viewDistance || 4,
    'player-list-text': { header: { text: 'blockmate' }, footer: { text: 'test server' } },
    'max-entities': 100,
    version
  })
} catch (err) {
  emit('error', { message: String(err && err.stack ? err.stack : err) })
  process.exit(1)
}

serv.on('error', (err) => console.error('server error:', err && err.stack ? err.stack : err))

require('./gamerules')(serv, { survival: !!opts.survival, chunkView: !!world, viewDistance: opts.viewDistance || 4 })

if (world && world.spawn) {
  // The game puts a player in the middle of the spawn block; flying-squid
  // picks a random block corner near 0, 0.
  const { Vec3 } = require('vec3')
  const [x, y, z] = world.spawn
  serv.getSpawnPoint = async () => new Vec3(x + 0.5, y, z + 0.5)
}

if (opts.survival) {
  const survival = typeof opts.survival === 'object' ? opts.survival : {}
  require('./survival')(serv, {
    ticksPerSecond: survival.ticksPerSecond,
    fluids: !!world,
    onQuery: (id, result) => emit('survival', { message: String(id), text: JSON.stringify(result) })
  })
}

serv.once('listening', async (port) => {
  try {
    await serv.waitForReady(30000)
  } catch (err) {
    emit('error', { message: 'server did not become ready: ' + err })
    process.exit(1)
  }
  addInspect()
  addWhere()
  emit('ready', { port, version })
})

// The console command "inspect <player>" reports the player's inventory as
// the server holds it, for tests that compare a client's view with the
// server's: {"event":"inventory","username":…,"text":"{\"slots\":[{\"slot\":36,
// \"name\":\"oak_log\",\"count\":5}…],\"held\":0}"} (window 0's slot
// numbers; "text" is "null" for a player not in the world).
function addInspect () {
  serv.commands.add({
    base: 'inspect',
    info: 'report a player\'s inventory on the event channel',
    usage: '/inspect <player>',
    onlyConsole: true,
    parse (str) { return str ? str.trim() : false },
    action (name) {
      const p = serv.getPlayer(name)
      let text = 'null'
      if (p && p.inventory) {
        const slots = []
        p.inventory.slots.forEach((it, slot) => { if (it && Number(it.count) > 0) slots.push({ slot, name: it.name, count: Number(it.count) }) })
        text = JSON.stringify({ slots, held: p.heldItemSlot || 0 })
      }
      emit('inventory', { username: name, text })
    }
  })
}

// The console command "where <player>" reports where the server holds the
// player to be, for tests that check the server accepted a client's
// movement: {"event":"position","username":…,"x":…,"y":…,"z":…}.
function addWhere () {
  serv.commands.add({
    base: 'where',
    info: 'report a player\'s position on the event channel',
    usage: '/where <player>',
    onlyConsole: true,
    parse (str) { return str ? str.trim() : false },
    action (name) {
      const p = serv.getPlayer(name)
      if (p) emit('position', { username: name, x: p.position.x, y: p.position.y, z: p.position.z })
    }
  })
}

exitWithParent(() => serv.destroy().catch(() => {}))
