'use strict'
// mpserver.js is a minimal minecraft-protocol server for game versions
// flying-squid does not serve (1.21 and 1.21.2), though it runs any version
// minecraft-protocol knows.
//
//   node mpserver.js '{"version":"1.21","motd":"…","viewDistance":4}'
//
// It listens on 127.0.0.1 only (port 0: the kernel picks), accepts offline
// logins, goes through configuration (registry data, finish), sends the play
// login, a spawn position, the player's position, health and the list of
// players, keeps alive, and relays chat as unsigned player chat (the shape a
// vanilla LAN world uses for players without chat signing), which
// flying-squid never sends. Commands get a system line back. There is no
// world: no chunks are sent. It reports on fd 3:
//   {"event":"ready","port":N,"version":"1.21"}
const mc = require('minecraft-protocol')
const nbt = require('prismarine-nbt')
const { emit, exitWithParent } = require('./events')
const { dataVersion } = require('./versions')

const opts = JSON.parse(process.argv[2] || '{}')
const version = opts.version || '1.21.4'
const mcData = require('minecraft-data')(dataVersion(version))
const viewDistance = opts.viewDistance || 4
const SPAWN = { x: 0.5, y: 64, z: 0.5 }

const server = mc.createServer({
  host: '127.0.0.1',
  port: opts.port || 0,
  'online-mode': false,
  version: dataVersion(version),
  motd: opts.motd || 'blockmate test server',
  maxPlayers: 10,
  hideErrors: false,
  enforceSecureProfile: false,
  // The status ping names the version the test asked for: 1.21.2, not the
  // 1.21.3 whose data describes the same protocol.
  beforePing: (response) => {
    response.version.name = version
    return response
  }
})

function text (s, color) {
  const comp = { text: nbt.string(s) }
  if (color) comp.color = nbt.string(color)
  return nbt.comp(comp)
}

function system (clients, s, color) {
  server.writeToClients(clients, 'system_chat', { content: text(s, color), isActionBar: false })
}

function players () {
  return Object.values(server.clients).filter(c => c.state === mc.states.PLAY && c.joined)
}

function playerInfo (clients) {
  return {
    action: { add_player: true, update_game_mode: true, update_listed: true, update_latency: true },
    data: clients.map(c => ({
      uuid: c.uuid,
      player: { name: c.username, properties: [] },
      gamemode: 0,
      listed: 1,
      latency: c.latency || 0
    }))
  }
}

function position (teleportId) {
  const p = { teleportId, x: SPAWN.x, y: SPAWN.y, z: SPAWN.z, yaw: 0, pitch: 0, flags: 0 }
  if (mcData.version['>=']('1.21.2')) Object.assign(p, { dx: 0, dy: 0, dz: 0 })
  return p
}

let chatIndex = 0

server.on('playerJoin', (client) => {
  client.on('error', (err) => console.error(client.username, 'connection error:', err && err.message))
  const login = mcData.loginPacket
  client.write('login', {
    ...login,
    entityId: client.id,
    isHardcore: false,
    maxPlayers: 10,
    viewDistance,
    simulationDistance: viewDistance,
    enableRespawnScreen: true,
    enforcesSecureChat: false,
    worldState: {
      ...login.worldState,
      gamemode: 'survival',
      previousGamemode: 255,
      isDebug: false,
      isFlat: true
    }
  })
  client.write('spawn_position', { location: { x: 0, y: SPAWN.y, z: 0 }, angle: 0 })
  client.write('position', position(1))
  client.write('update_health', { health: 20, food: 20, foodSaturation: 5 })
  client.write('game_state_change', { reason: 13, gameMode: 0 }) // start waiting for level chunks

  client.joined = true
  const everyone = players()
  client.write('player_info', playerInfo(everyone))
  server.writeToClients(everyone.filter(c => c !== client), 'player_info', playerInfo([client]))
  system(everyone, client.username + ' joined the game', 'yellow')
  console.log(client.username, 'joined')

  client.on('chat_message', (packet) => {
    const all = players()
    console.log('<' + client.username + '>', packet.message)
    server.writeToClients(all, 'player_chat', {
      senderUuid: client.uuid,
      index: chatIndex++,
      signature: undefined,
      plainMessage: packet.message,
      timestamp: BigInt(Date.now()),
      salt: 0n,
      previousMessages: [],
      unsignedChatContent: undefined,
      filterType: 0,
      type: { chatType: 0 }, // registry entry 0, minecraft:chat (the codec adds the holder's +1)
      networkName: text(client.username),
      networkTargetName: undefined
    })
  })
  client.on('chat_command', (packet) => {
    console.log(client.username, 'ran /' + packet.command)
    system([client], 'This test server runs no commands: /' + packet.command, 'red')
  })
  client.on('chat_command_signed', (packet) => {
    system([client], 'This test server runs no commands: /' + packet.command, 'red')
  })
  client.on('end', () => {
    if (!client.joined) return
    client.joined = false
    const rest = players()
    server.writeToClients(rest, 'player_remove', { players: [client.uuid] })
    system(rest, client.username + ' left the game', 'yellow')
    console.log(client.username, 'left')
  })
})

server.on('error', (err) => console.error('server error:', err && err.stack ? err.stack : err))
server.on('listening', () => {
  emit('ready', { port: server.socketServer.address().port, version })
})

exitWithParent(() => server.close())
