'use strict'
// mpserver.js is a small Minecraft server built on minecraft-protocol 1.68.0
// for every release from 1.21 to 26.1.2 (protocols 767 to 775), and for the
// releases blockmate emits the data of (26.2, 26.3: testdata/peers/mcdata,
// registered by emitted.js): the peer the tests join for the versions
// flying-squid does not serve. Its packets are
// encoded by minecraft-protocol from minecraft-data's definitions and its
// chunks by prismarine-chunk, not by anything of ours: that is what makes it
// a real check.
//
//   node mpserver.js '{"version":"26.1","motd":"…","viewDistance":4}'
//
// Options (JSON, all optional):
//   version        game version to serve (default: minecraft-protocol's newest)
//   port           TCP port on 127.0.0.1 (default 0: the kernel picks)
//   motd           the status ping's message of the day
//   viewDistance   the server's view distance in chunks (default 4); a
//                  client's smaller view distance wins, down to 2
//   gameMode       survival (default), creative, adventure or spectator
//   codeOfConduct  text of a code of conduct sent during configuration
//                  (1.21.9+); configuration waits for the client's acceptance
//   configDialog   body text of a notice dialog sent during configuration
//                  (1.21.6+)
//   statusOnly     answer status pings only, as a release this server cannot
//                  speak (protocol, versionName), and refuse every login with
//                  vanilla's outdated-client message
//   protocol, versionName   what statusOnly announces (default 778, "26.4")
//
// It listens on 127.0.0.1 only and accepts offline logins; everybody is op.
// It goes through configuration as vanilla does (brand, feature flags, known
// packs, registry data, tags, then an optional dialog and code of conduct,
// then finish), sends the play login, op level, the join message, the
// position, the player list, world border, time, spawn position, weather,
// "start waiting for level chunks", the chunks around the player in a batch,
// and health. Players see each other as player entities and chat as vanilla
// relays it for players without chat signing (player_chat, unsigned). Chunks
// load and unload as a player crosses chunk borders or teleports.
//
// Commands (chat_command; also typed on stdin, without the slash, as the
// server console): kill, tp/teleport, setblock, fill, give, say, msg/tell/w,
// time, weather, gamemode, dialog (1.21.6+). Anything else gets vanilla's
// red "unknown command" lines.
//
// The survival basics: the inventory window (give puts stacks in it; window
// clicks pick up, swap and throw, and the server answers with the whole
// window), digging (a finished dig breaks the block at once, nothing drops)
// and placing (the held item's block against the clicked face); every dig
// and place sequence is acknowledged. F (swap hands) swaps the held stack
// with the off-hand.
//
// It reports on fd 3 (see events.js), one JSON object a line:
//   {"event":"ready","port":N,"version":"26.1"}
//   {"event":"join","username":"alex"}         a player is in the world
//   {"event":"leave","username":"alex"}
//   {"event":"chat","username":"alex","message":"hi"}
//   {"event":"command","username":"alex","message":"kill"}
//   {"event":"code_of_conduct_accepted","username":"alex"}
//   {"event":"death","username":"alex","message":"alex was killed"}
//   {"event":"respawn","username":"alex"}
//   {"event":"teleport_confirmed","username":"alex","message":"1"}   the teleport id
//   {"event":"give","username":"alex","name":"cobblestone","message":"36"}   the slot
//   {"event":"click","username":"alex","data":{window, slot, button, mode, changed:[{slot, item:{name, count, components}}], cursor}}
//                                  the stacks are the client's hashed stacks as parsed
//   {"event":"dig","username":"alex","name":"stone","x":1,"y":64,"z":2}   a block broken
//   {"event":"place","username":"alex","name":"cobblestone","x":1,"y":65,"z":2}
const readline = require('readline')
const { randomUUID } = require('crypto')
const mc = require('minecraft-protocol')
const nbt = require('prismarine-nbt')
const { emit, exitWithParent } = require('./events')
const { dataVersion } = require('./versions')
const { World } = require('./world')

const opts = JSON.parse(process.argv[2] || '{}')
const version = opts.version || require('minecraft-protocol/src/version').defaultVersion
const mcData = require('minecraft-data')(dataVersion(version))
if (!mcData) {
  emit('error', { message: 'minecraft-data has no data for version ' + version })
  process.exit(1)
}
const serverViewDistance = opts.viewDistance || 4
const MAX_FILL = 32768 // vanilla's commandModificationBlockLimit default

const server = mc.createServer({
  host: '127.0.0.1',
  port: opts.port || 0,
  'online-mode': false,
  version: dataVersion(version),
  motd: opts.motd || 'blockmate test server',
  maxPlayers: 10,
  hideErrors: false,
  enforceSecureProfile: false,
  // The status ping names the version the test asked for (1.21.2, not the
  // 1.21.3 whose data describes the same protocol), or in statusOnly mode the
  // release it pretends to be.
  beforePing: (response) => {
    response.version.name = opts.statusOnly ? (opts.versionName || '26.4') : version
    if (opts.statusOnly) response.version.protocol = opts.protocol || 778
    return response
  }
})

server.on('error', (err) => console.error('server error:', err && err.stack ? err.stack : err))
server.on('listening', () => {
  emit('ready', { port: server.socketServer.address().port, version })
})
exitWithParent(() => server.close())

if (opts.statusOnly) {
  statusOnly()
} else {
  play()
}

// statusOnly answers pings (the ping plugin does, through beforePing) and
// refuses logins as a vanilla server of a newer release refuses an older
// client: a login disconnect naming the release to use.
function statusOnly () {
  const name = opts.versionName || '26.4'
  const protocol = opts.protocol || 778
  server.on('connection', (client) => {
    client.removeAllListeners('set_protocol') // minecraft-protocol's own handshake
    client.removeAllListeners('login_start')
    client.once('set_protocol', (packet) => {
      if (packet.nextState === 1) {
        client.state = mc.states.STATUS
        return
      }
      client.state = mc.states.LOGIN
      const key = packet.protocolVersion < protocol ? 'multiplayer.disconnect.outdated_client' : 'multiplayer.disconnect.incompatible'
      console.log('refusing a login from protocol', packet.protocolVersion)
      client.end(key, JSON.stringify({ translate: key, with: [name] }))
    })
  })
}

function play () {
  const registry = require('prismarine-registry')(dataVersion(version))
  const codec = mcData.loginPacket.dimensionCodec
  const world = new World(registry, codec)
  const protocol = mcData.protocol
  const toClient = protocol.play.toClient.types

  // fieldsOf lists the field names of a clientbound play packet as this
  // version's protocol definition has them: every layout decision below reads
  // the definition instead of comparing version numbers.
  function fieldsOf (packet) {
    let t = toClient['packet_' + packet]
    while (typeof t === 'string') t = toClient[t] || protocol.types[t]
    return Array.isArray(t) && t[0] === 'container' ? t[1].map(f => f.name) : []
  }
  const has = (packet, field) => fieldsOf(packet).includes(field)
  const optionalPrevious = toClient.SpawnInfo[1].find(f => f.name === 'previousGamemode').type === 'optvarint'
  // From 26.3 a move carries a step count and on ground as bitfields.
  const steppedMoves = has('entity_move_look', 'steps')
  const hasPacket = (packet) => fieldsOf(packet).length > 0 || Array.isArray(toClient['packet_' + packet])
  const configHas = (packet) => Object.values(protocol.configuration.toClient.types.packet[1][0].type[1].mappings).includes(packet)

  const registryIndex = (id, key) => {
    const r = codec[id]
    return r ? r.entries.findIndex(e => e.key === key) : -1
  }
  const chatType = (name) => ({ chatType: registryIndex('minecraft:chat_type', 'minecraft:' + name) })
  const overworldType = registryIndex('minecraft:dimension_type', 'minecraft:overworld')
  const overworldClock = registryIndex('minecraft:world_clock', 'minecraft:overworld')
  const GAME_MODES = ['survival', 'creative', 'adventure', 'spectator']
  const defaultGameMode = Math.max(0, GAME_MODES.indexOf(String(opts.gameMode ?? 'survival')))
  const playerType = registry.entitiesByName.player.id

  const players = new Map() // client.id → player
  let nextEntityId = 1
  const started = Date.now()
  let timeOffset = 0 // day time = ticks since start + timeOffset
  let weather = 'clear'

  const ticks = () => Math.floor((Date.now() - started) / 50)
  const dayTime = () => ticks() + timeOffset
  const online = () => [...players.values()].filter(p => p.joined)

  // ---- text components (NBT, as 1.20.3+ sends them) ----
  const comp = (fields) => nbt.comp(fields)
  function text (s, style) { return comp({ text: nbt.string(String(s)), ...styleOf(style) }) }
  function tr (key, args = [], style) {
    const fields = { translate: nbt.string(key), ...styleOf(style) }
    if (args.length) {
      fields.with = { type: 'list', value: { type: 'compound', value: args.map(a => (typeof a === 'object' ? a : text(a)).value) } }
    }
    return comp(fields)
  }
  function styleOf (style = {}) {
    const out = {}
    if (style.color) out.color = nbt.string(style.color)
    if (style.italic) out.italic = nbt.byte(1)
    if (style.extra) out.extra = { type: 'list', value: { type: 'compound', value: style.extra.map(c => c.value) } }
    return out
  }
  // plain renders a component for the log and fd-3 events.
  function plain (c) {
    const v = c.value
    if (v.text) return v.text.value
    if (!v.translate) return ''
    const args = v.with ? v.with.value.value.map(a => plain({ value: a })) : []
    let i = 0
    const fmt = (mcData.language && mcData.language[v.translate.value]) || v.translate.value
    return fmt.replace(/%(?:(\d+)\$)?s/g, (_, n) => args[n ? Number(n) - 1 : i++] ?? '')
  }

  function system (targets, content) {
    for (const p of targets) p.client.write('system_chat', { content, isActionBar: false })
  }

  // 26.2's login success ends with a session id, which minecraft-protocol's
  // login (written for 26.1 and older) does not send: the server adds one
  // where the version's definition has the field.
  const successFields = protocol.login.toClient.types.packet_success[1].map(f => f.name)
  if (successFields.includes('sessionId')) {
    server.on('connection', (client) => {
      const write = client.write.bind(client)
      client.write = (name, params) => write(name, name === 'success' && params.sessionId === undefined ? { ...params, sessionId: randomUUID() } : params)
    })
  }

  // ---- configuration ----
  server.on('login', (client) => {
    client.on('error', (err) => console.error(client.username, 'connection error:', err && err.message))
    // minecraft-protocol's login plugin would send the registries and finish
    // configuration at once; this server configures as vanilla does.
    client.removeAllListeners('login_acknowledged')
    client.once('login_acknowledged', () => configure(client))
  })

  function configure (client) {
    client.state = mc.states.CONFIGURATION
    const p = newPlayer(client)
    client.on('settings', (s) => { p.requestedView = s.viewDistance })
    client.write('custom_payload', { channel: 'minecraft:brand', data: brand('mpserver (minecraft-protocol)') })
    client.write('feature_flags', { features: ['minecraft:vanilla'] })
    client.write('select_known_packs', { packs: [{ namespace: 'minecraft', id: 'core', version: mcData.version.minecraftVersion }] })
    client.once('select_known_packs', () => {
      // Entries go with their data whatever packs the client knows: the
      // data here comes from minecraft-data, not from the client's pack.
      for (const entry of Object.values(codec)) client.write('registry_data', entry)
      client.write('tags', { tags: [] })
      if (opts.configDialog && configHas('show_dialog')) {
        client.write('show_dialog', { dialog: dialogNbt(opts.configDialog, 'configuration') })
      }
      if (opts.codeOfConduct && configHas('code_of_conduct')) {
        client.once('accept_code_of_conduct', () => {
          console.log(client.username, 'accepted the code of conduct')
          emit('code_of_conduct_accepted', { username: client.username })
          finish()
        })
        client.write('code_of_conduct', { contents: String(opts.codeOfConduct) })
      } else {
        finish()
      }
    })
    function finish () {
      client.once('finish_configuration', () => {
        client.state = mc.states.PLAY
        join(p)
      })
      client.write('finish_configuration', {})
    }
    client.on('end', () => leave(p))
  }

  function brand (s) {
    const b = Buffer.from(s)
    return Buffer.concat([Buffer.from([b.length]), b])
  }

  function dialogNbt (body, title) {
    return comp({
      type: nbt.string('minecraft:notice'),
      title: text(title ? 'blockmate test server: ' + title : 'blockmate test server'),
      body: { type: 'list', value: { type: 'compound', value: [{ type: nbt.string('minecraft:plain_message'), contents: text(body) }] } },
      can_close_with_escape: nbt.byte(1)
    })
  }

  function newPlayer (client) {
    const p = {
      client,
      name: client.username,
      uuid: client.uuid,
      eid: nextEntityId++,
      ...world.spawn,
      yaw: 0,
      pitch: 0,
      onGround: true,
      gameMode: defaultGameMode,
      health: 20,
      dead: false,
      lastDeath: null,
      requestedView: serverViewDistance,
      center: null,
      loaded: new Set(),
      sees: new Set(), // entity ids of the players this player is sent
      teleportId: 0,
      pendingTeleport: null,
      chatIndex: 0,
      // The survival basics (give, clicks in the inventory, digging,
      // placing): the 46 slots of the inventory window, the held hotbar
      // slot, the cursor and the window's state id.
      inventory: new Array(46).fill(null),
      held: 0,
      cursor: null,
      stateId: 0,
      joined: false
    }
    players.set(client.id, p)
    return p
  }

  // ---- play ----
  function spawnInfo (p) {
    const s = {
      dimension: overworldType,
      name: 'minecraft:overworld',
      hashedSeed: 0n,
      gamemode: GAME_MODES[p.gameMode],
      // 26.3's previous game mode is an optional VarInt (none: undefined).
      previousGamemode: optionalPrevious ? undefined : 255,
      isDebug: false,
      isFlat: false,
      death: p.lastDeath ? { dimensionName: 'minecraft:overworld', location: p.lastDeath } : undefined,
      portalCooldown: 0,
      seaLevel: 63
    }
    return s
  }

  function abilities (p) {
    const flags = [0, 1 | 4 | 8, 0, 1 | 2 | 4][p.gameMode]
    return { flags, flyingSpeed: 0.05, walkingSpeed: 0.1 }
  }

  function join (p) {
    const c = p.client
    c.write('login', {
      entityId: p.eid,
      isHardcore: false,
      worldNames: ['minecraft:overworld', 'minecraft:the_nether', 'minecraft:the_end'],
      maxPlayers: 10,
      viewDistance: serverViewDistance,
      simulationDistance: serverViewDistance,
      reducedDebugInfo: false,
      enableRespawnScreen: true,
      doLimitedCrafting: false,
      worldState: spawnInfo(p),
      onlineMode: false, // 26.2+ (ignored by older definitions)
      enforcesSecureChat: false
    })
    c.write('difficulty', { difficulty: 'normal', difficultyLocked: false })
    c.write('abilities', abilities(p))
    c.write('held_item_slot', { slot: 0 })
    c.write('entity_status', { entityId: p.eid, entityStatus: 28 }) // op permission level 4
    p.joined = true
    const everyone = online()
    system(everyone, tr('multiplayer.player.joined', [p.name], { color: 'yellow' }))
    teleport(p, p.x, p.y, p.z, false)
    for (const q of everyone) {
      if (q !== p) q.client.write('player_info', playerInfo([p]))
    }
    c.write('player_info', playerInfo(everyone))
    levelInfo(p)
    updateChunks(p)
    c.write('update_health', { health: p.health, food: 20, foodSaturation: 5 })
    updateTracking(p)

    c.on('chat_message', (packet) => chat(p, packet.message))
    c.on('chat_command', (packet) => command(p, packet.command))
    c.on('chat_command_signed', (packet) => command(p, packet.command))
    c.on('client_command', (packet) => {
      const action = packet.actionId ?? packet.payload
      if ((action === 'perform_respawn' || action === 0) && p.dead) respawn(p)
    })
    c.on('teleport_confirm', (packet) => {
      if (p.pendingTeleport === packet.teleportId) p.pendingTeleport = null
      emit('teleport_confirmed', { username: p.name, message: String(packet.teleportId) })
    })
    c.on('held_item_slot', (packet) => { p.held = packet.slotId })
    c.on('window_click', (packet) => click(p, packet))
    c.on('block_dig', (packet) => dig(p, packet))
    c.on('block_place', (packet) => place(p, packet))
    for (const name of ['position', 'position_look', 'look', 'flying']) {
      c.on(name, (packet) => moved(p, packet))
    }
    c.on('settings', (s) => {
      p.requestedView = s.viewDistance
      updateChunks(p)
      updateTracking(p)
    })
    console.log(p.name, 'joined')
    emit('join', { username: p.name })
  }

  // ---- the survival basics: give, inventory clicks, digging, placing ----
  // Enough of vanilla's rules for the tests to check what a client sends:
  // the stacks and hashed stacks of window clicks (minecraft-protocol parses
  // them from the version's definition), the dig and place packets and their
  // acknowledged sequences. Digging takes no time and drops nothing; a placed
  // block is the held item's block in its default state.
  const EMPTY_SLOT = { itemCount: 0 }
  function slotOf (stack) {
    if (!stack) return EMPTY_SLOT
    return { itemCount: stack.count, itemId: stack.id, addedComponentCount: 0, removedComponentCount: 0, components: [], removeComponents: [] }
  }
  function sendInventory (p) {
    p.stateId++
    p.client.write('window_items', { windowId: 0, stateId: p.stateId, items: p.inventory.map(slotOf), carriedItem: slotOf(p.cursor) })
  }
  const hotbarFirst = [36, 37, 38, 39, 40, 41, 42, 43, 44, ...Array.from({ length: 27 }, (_, i) => 9 + i)]
  function give (source, args) {
    const list = targets(source, args[0])
    const name = String(args[1] || '').replace(/^minecraft:/, '')
    const item = registry.itemsByName[name]
    if (!item) fail('argument.item.id.invalid', [name])
    const count = args[2] === undefined ? 1 : Number(args[2])
    if (!Number.isInteger(count) || count < 1 || count > item.stackSize) fail('argument.integer.big', [String(item.stackSize), String(count)])
    for (const q of list) {
      const slot = hotbarFirst.find(i => q.inventory[i] && q.inventory[i].id === item.id && q.inventory[i].count + count <= item.stackSize) ??
        hotbarFirst.find(i => !q.inventory[i])
      if (slot === undefined) continue
      const had = q.inventory[slot] ? q.inventory[slot].count : 0
      q.inventory[slot] = { id: item.id, count: had + count }
      sendInventory(q)
      emit('give', { username: q.name, name: item.name, message: String(slot) })
    }
    feedback(source, tr('commands.give.success.single', [String(count), item.displayName, list[0].name]))
  }
  // click applies a click in the inventory window (pick up, swap with the
  // hotbar or off-hand, throw) and answers with the whole window, as a
  // server whose prediction differs from the client's does. It reports the
  // click with the stacks the client said the clicked slots now hold.
  function click (p, packet) {
    const hashed = (h) => h ? { name: (registry.items[h.itemId] || {}).name || '?' + h.itemId, count: h.itemCount, components: h.components.length } : null
    emit('click', {
      username: p.name,
      data: { window: packet.windowId, slot: packet.slot, button: packet.mouseButton, mode: packet.mode, changed: packet.changedSlots.map(c => ({ slot: c.location, item: hashed(c.item) })), cursor: hashed(packet.cursorItem) }
    })
    if (packet.windowId !== 0) return
    const inv = p.inventory
    const at = packet.slot
    const inRange = at >= 0 && at < inv.length
    switch (packet.mode) {
      case 0: // pick up or put down
        if (at === -999) {
          p.cursor = null
        } else if (inRange) {
          const here = inv[at]
          if (p.cursor && here && p.cursor.id === here.id) {
            const max = registry.items[here.id].stackSize
            const moved = Math.min(max - here.count, p.cursor.count)
            here.count += moved
            p.cursor = p.cursor.count - moved > 0 ? { id: p.cursor.id, count: p.cursor.count - moved } : null
          } else {
            inv[at] = p.cursor
            p.cursor = here
          }
        }
        break
      case 2: { // swap with a hotbar slot (button 0–8) or the off-hand (40)
        const other = packet.mouseButton === 40 ? 45 : 36 + packet.mouseButton
        if (inRange && other >= 36 && other <= 45) [inv[at], inv[other]] = [inv[other], inv[at]]
        break
      }
      case 4: // throw one (button 0) or the stack (button 1)
        if (inRange && inv[at]) {
          inv[at] = packet.mouseButton === 1 || inv[at].count <= 1 ? null : { id: inv[at].id, count: inv[at].count - 1 }
        }
        break
    }
    sendInventory(p)
  }
  const FACES = [[0, -1, 0], [0, 1, 0], [0, 0, -1], [0, 0, 1], [-1, 0, 0], [1, 0, 0]]
  // dig breaks a block when the client says it finished (survival) or
  // started (creative), and acknowledges every action's sequence.
  // ACTIONS are 26.3's player actions by name (its block_dig status is a
  // mapper), numbered as every version before numbers them.
  const ACTIONS = { start_destroy_block: 0, abort_destroy_block: 1, stop_destroy_block: 2, drop_all_items: 3, drop_item: 4, release_use_item: 5, swap_item_with_offhand: 6 }
  function dig (p, raw) {
    const packet = typeof raw.status === 'string' ? { ...raw, status: ACTIONS[raw.status] ?? -1 } : raw
    const { x, y, z } = packet.location
    const breaks = packet.status === 2 || (packet.status === 0 && p.gameMode === 1)
    if (breaks) {
      const was = world.about(world.getBlock(x, y, z))
      setBlocks([[x, y, z, 0]])
      emit('dig', { username: p.name, name: was.name, x, y, z })
    } else if (packet.status === 0 || packet.status === 1) {
      emit(packet.status === 0 ? 'dig_start' : 'dig_abort', { username: p.name, x, y, z })
    } else if (packet.status === 6) { // swap the held stack with the off-hand (F)
      const inv = p.inventory
      ;[inv[36 + p.held], inv[45]] = [inv[45], inv[36 + p.held]]
      sendInventory(p)
      emit('swap_hands', { username: p.name })
    }
    if (packet.status >= 0 && packet.status <= 2) p.client.write('acknowledge_player_digging', { sequenceId: packet.sequence })
  }
  // place puts the held stack's block against the clicked face.
  function place (p, packet) {
    const slot = packet.hand === 'off_hand' || packet.hand === 1 ? 45 : 36 + p.held
    const stack = p.inventory[slot]
    const face = FACES[packet.direction]
    const { x, y, z } = packet.location
    const block = stack && face && registry.blocksByName[registry.items[stack.id].name]
    if (block) {
      const [px, py, pz] = [x + face[0], y + face[1], z + face[2]]
      if (world.inWorld(py) && world.about(world.getBlock(px, py, pz)).air && setBlocks([[px, py, pz, block.defaultState]])) {
        p.inventory[slot] = stack.count > 1 ? { id: stack.id, count: stack.count - 1 } : null
        sendInventory(p)
        emit('place', { username: p.name, name: block.name, x: px, y: py, z: pz })
      }
    }
    p.client.write('acknowledge_player_digging', { sequenceId: packet.sequence })
  }

  function playerInfo (list) {
    const action = { add_player: true, update_game_mode: true, update_listed: true, update_latency: true }
    // 1.21.4 added the hat and list order actions; minecraft-data's flag
    // names for the two are unsure, so both are set and both fields filled.
    const flags = toClient.packet_player_info[1][0].type[1].flags
    if (flags.includes('update_hat')) action.update_hat = true
    if (flags.includes('update_list_order')) action.update_list_order = true
    return {
      action,
      data: list.map(q => ({
        uuid: q.uuid,
        player: { name: q.name, properties: [] },
        gamemode: q.gameMode,
        listed: 1,
        latency: q.client.latency || 0,
        listPriority: 0,
        showHat: true
      }))
    }
  }

  // levelInfo is vanilla's sendLevelInfo: border, time, spawn, weather, and
  // the game event that makes a client wait for chunks.
  function levelInfo (p) {
    const c = p.client
    c.write('initialize_world_border', {
      x: 0, z: 0, oldDiameter: 59999968, newDiameter: 59999968, speed: 0, portalTeleportBoundary: 29999984, warningBlocks: 5, warningTime: 15
    })
    c.write('update_time', timePacket())
    const spawn = { x: Math.floor(world.spawn.x), y: world.spawn.y, z: Math.floor(world.spawn.z) }
    if (has('spawn_position', 'globalPos')) {
      c.write('spawn_position', { globalPos: { dimensionName: 'minecraft:overworld', location: spawn }, yaw: 0, pitch: 0 })
    } else {
      c.write('spawn_position', { location: spawn, angle: 0 })
    }
    if (weather !== 'clear') weatherPackets([p])
    c.write('game_state_change', { reason: 'level_chunks_load_start', gameMode: 0 })
  }

  function timePacket () {
    if (has('update_time', 'clockUpdates')) {
      const clocks = overworldClock >= 0 ? [{ id: overworldClock, totalTicks: dayTime(), partialTick: 0, rate: 1 }] : []
      return { age: BigInt(ticks()), clockUpdates: clocks }
    }
    return { age: BigInt(ticks()), time: BigInt(dayTime()), tickDayTime: true }
  }

  function weatherPackets (targets) {
    for (const q of targets) {
      const c = q.client
      c.write('game_state_change', { reason: weather === 'clear' ? 'stop_raining' : 'start_raining', gameMode: 0 })
      c.write('game_state_change', { reason: 'rain_level_change', gameMode: weather === 'clear' ? 0 : 1 })
      c.write('game_state_change', { reason: 'thunder_level_change', gameMode: weather === 'thunder' ? 1 : 0 })
    }
  }

  // teleport moves a player and tells its client (and, once it is in the
  // world, the players who see it and the chunks around it).
  function teleport (p, x, y, z, follow = true) {
    p.x = x; p.y = y; p.z = z
    p.pendingTeleport = ++p.teleportId
    const packet = { teleportId: p.teleportId, x, y, z, yaw: p.yaw, pitch: p.pitch, flags: { _value: 0 } }
    if (has('position', 'dx')) Object.assign(packet, { dx: 0, dy: 0, dz: 0 })
    p.client.write('position', packet)
    if (follow) {
      updateChunks(p)
      broadcastMove(p, true)
      updateTracking(p)
    }
  }

  function moved (p, packet) {
    if (p.pendingTeleport !== null || p.dead) return
    if (packet.x !== undefined) {
      // Like vanilla, a move of more than 10 blocks in one packet is
      // refused and the client put back where the server has it: this is
      // what keeps a client's stale position (mineflayer resends its
      // respawn position 1.5 s after a respawn) from undoing a teleport.
      const d2 = (packet.x - p.x) ** 2 + (packet.y - p.y) ** 2 + (packet.z - p.z) ** 2
      if (d2 > 100) {
        console.log(p.name, 'moved too quickly!', (packet.x - p.x).toFixed(1), (packet.y - p.y).toFixed(1), (packet.z - p.z).toFixed(1))
        teleport(p, p.x, p.y, p.z, false)
        return
      }
    }
    const big = packet.x !== undefined && Math.max(Math.abs(packet.x - p.x), Math.abs(packet.y - p.y), Math.abs(packet.z - p.z)) >= 8
    if (packet.x !== undefined) { p.x = packet.x; p.y = packet.y; p.z = packet.z }
    if (packet.yaw !== undefined) { p.yaw = packet.yaw; p.pitch = packet.pitch }
    if (packet.onGround !== undefined) p.onGround = packet.onGround
    else if (packet.flags && packet.flags.onGround !== undefined) p.onGround = packet.flags.onGround
    const cx = Math.floor(p.x) >> 4
    const cz = Math.floor(p.z) >> 4
    if (!p.center || p.center.cx !== cx || p.center.cz !== cz) {
      updateChunks(p)
      updateTracking(p)
    }
    broadcastMove(p, big)
  }

  function viewOf (p) {
    return Math.max(2, Math.min(serverViewDistance, p.requestedView || serverViewDistance))
  }

  // updateChunks sends the chunks in view of a player it does not have (in
  // one batch, nearest first) and unloads those out of view.
  function updateChunks (p) {
    const c = p.client
    const cx = Math.floor(p.x) >> 4
    const cz = Math.floor(p.z) >> 4
    const r = viewOf(p)
    if (!p.center || p.center.cx !== cx || p.center.cz !== cz) {
      c.write('update_view_position', { chunkX: cx, chunkZ: cz })
      p.center = { cx, cz }
    }
    const want = new Set()
    for (let x = cx - r; x <= cx + r; x++) {
      for (let z = cz - r; z <= cz + r; z++) want.add(x + ',' + z)
    }
    let unloaded = 0
    for (const key of p.loaded) {
      if (want.has(key)) continue
      const [x, z] = key.split(',').map(Number)
      c.write('unload_chunk', { chunkX: x, chunkZ: z })
      p.loaded.delete(key)
      unloaded++
    }
    const load = [...want].filter(k => !p.loaded.has(k)).map(k => k.split(',').map(Number))
    if (unloaded || load.length) console.log(p.name, 'chunks around', cx, cz, 'radius', r + ':', unloaded, 'unloaded,', load.length, 'sent')
    if (load.length === 0) return
    load.sort((a, b) => Math.max(Math.abs(a[0] - cx), Math.abs(a[1] - cz)) - Math.max(Math.abs(b[0] - cx), Math.abs(b[1] - cz)))
    c.write('chunk_batch_start', {})
    for (const [x, z] of load) {
      c.write('map_chunk', world.chunkPacket(x, z, protocol))
      p.loaded.add(x + ',' + z)
    }
    c.write('chunk_batch_finished', { batchSize: load.length })
  }

  function unloadAll (p) {
    for (const key of p.loaded) {
      const [x, z] = key.split(',').map(Number)
      p.client.write('unload_chunk', { chunkX: x, chunkZ: z })
    }
    p.loaded.clear()
    p.center = null
  }

  // ---- other players as entities ----
  const angle = (deg) => ((Math.round(deg * 256 / 360) % 256) + 256) % 256 << 24 >> 24

  function canSee (viewer, q) {
    if (viewer === q || !viewer.joined || !q.joined) return false
    const r = viewOf(viewer)
    return Math.abs((Math.floor(q.x) >> 4) - (Math.floor(viewer.x) >> 4)) <= r &&
      Math.abs((Math.floor(q.z) >> 4) - (Math.floor(viewer.z) >> 4)) <= r
  }

  function spawnFor (viewer, q) {
    viewer.client.write('spawn_entity', {
      entityId: q.eid,
      objectUUID: q.uuid,
      type: playerType,
      x: q.x,
      y: q.y,
      z: q.z,
      pitch: angle(q.pitch),
      yaw: angle(q.yaw),
      headPitch: angle(q.yaw),
      objectData: 0,
      velocity: { x: 0, y: 0, z: 0 }
    })
    viewer.client.write('entity_head_rotation', { entityId: q.eid, headYaw: angle(q.yaw) })
    viewer.sees.add(q.eid)
  }

  function despawnFor (viewer, eids) {
    if (eids.length === 0) return
    viewer.client.write('entity_destroy', { entityIds: eids })
    for (const e of eids) viewer.sees.delete(e)
  }

  // updateTracking spawns and removes p for those who now see it or no
  // longer do, and the others for p.
  function updateTracking (p) {
    for (const q of online()) {
      if (q === p) continue
      for (const [viewer, target] of [[p, q], [q, p]]) {
        const sees = viewer.sees.has(target.eid)
        const should = canSee(viewer, target)
        if (should && !sees) spawnFor(viewer, target)
        if (!should && sees) despawnFor(viewer, [target.eid])
      }
    }
  }

  function broadcastMove (p, big) {
    for (const q of online()) {
      if (!q.sees.has(p.eid)) continue
      if (big || !p.sent) {
        if (has('entity_teleport', 'dx')) {
          q.client.write('entity_teleport', { entityId: p.eid, x: p.x, y: p.y, z: p.z, dx: 0, dy: 0, dz: 0, yaw: p.yaw, pitch: p.pitch, flags: { _value: 0 }, onGround: p.onGround })
        } else {
          q.client.write('entity_teleport', { entityId: p.eid, x: p.x, y: p.y, z: p.z, yaw: angle(p.yaw), pitch: angle(p.pitch), onGround: p.onGround })
        }
      } else {
        const d = (a, b) => Math.round(a * 4096) - Math.round(b * 4096)
        const move = { entityId: p.eid, dX: d(p.x, p.sent.x), dY: d(p.y, p.sent.y), dZ: d(p.z, p.sent.z), yaw: angle(p.yaw), pitch: angle(p.pitch), onGround: p.onGround }
        if (steppedMoves) Object.assign(move, { stepCount: 0, onGround: p.onGround ? 1 : 0, steps: [] })
        q.client.write('entity_move_look', move)
      }
      q.client.write('entity_head_rotation', { entityId: p.eid, headYaw: angle(p.yaw) })
    }
    p.sent = { x: p.x, y: p.y, z: p.z }
  }

  // ---- chat ----
  function playerChat (to, from, message, type, targetName) {
    const packet = {
      senderUuid: from.uuid,
      index: 0, // an unsigned message's link: vanilla's SignedMessageLink.unsigned
      signature: undefined,
      plainMessage: message,
      timestamp: BigInt(Date.now()),
      salt: 0n,
      previousMessages: [],
      unsignedChatContent: undefined,
      filterType: 0,
      type: chatType(type),
      networkName: text(from.name),
      networkTargetName: targetName === undefined ? undefined : text(targetName)
    }
    if (has('player_chat', 'globalIndex')) packet.globalIndex = to.chatIndex++
    to.client.write('player_chat', packet)
  }

  function profilelessChat (to, name, message, type, targetName) {
    to.client.write('profileless_chat', {
      message: text(message),
      type: chatType(type),
      name: text(name),
      target: targetName === undefined ? undefined : text(targetName)
    })
  }

  function chat (p, message) {
    console.log('<' + p.name + '>', message)
    emit('chat', { username: p.name, message })
    for (const q of online()) playerChat(q, p, message, 'chat')
  }

  // ---- commands ----
  const CONSOLE = { name: 'Server', player: null }

  function sourceOf (p) { return p ? { name: p.name, player: p } : CONSOLE }

  class CommandError extends Error {
    constructor (component) { super(plain(component)); this.component = component }
  }
  const fail = (key, args) => { throw new CommandError(tr(key, args)) }

  function feedback (source, component) {
    if (source.player) {
      system([source.player], component)
    } else {
      console.log(plain(component))
    }
    // Vanilla tells the other ops what an op did, in grey italics.
    const admin = tr('chat.type.admin', [text(source.name), component], { color: 'gray', italic: true })
    system(online().filter(q => q !== source.player), admin)
  }

  function command (p, line) {
    const source = sourceOf(p)
    console.log(source.name, 'ran /' + line)
    if (p) emit('command', { username: p.name, message: line })
    const args = line.trim().split(/\s+/)
    const name = (args.shift() || '').replace(/^minecraft:/, '')
    const handler = COMMANDS[name]
    try {
      if (!handler) {
        throw new CommandError(tr('command.unknown.command'))
      }
      handler(source, args, line.trim().replace(/^\S+\s*/, ''))
    } catch (err) {
      if (!(err instanceof CommandError)) {
        console.error('command /' + line + ' failed:', err && err.stack ? err.stack : err)
        err = new CommandError(tr('command.failed'))
      }
      const red = comp({ ...err.component.value, color: nbt.string('red') })
      if (source.player) {
        system([source.player], red)
        if (!handler) {
          // Vanilla's second line: the command as typed, and where it broke.
          const shown = line.length > 10 ? '...' + line.slice(-10) : line
          system([source.player], text('', { color: 'gray', extra: [text(shown), tr('command.context.here', [], { color: 'red', italic: true })] }))
        }
      } else {
        console.log(plain(red))
      }
    }
  }

  // targets resolves a player argument: a name, @s, @p, @a or @r.
  function targets (source, arg) {
    const all = online()
    let found
    switch (arg) {
      case undefined: fail('command.unknown.argument'); break
      case '@s': found = source.player ? [source.player] : []; break
      case '@p': found = source.player ? [source.player] : all.slice(0, 1); break
      case '@a': case '@e': found = all; break
      case '@r': found = all.length ? [all[Math.floor(Math.random() * all.length)]] : []; break
      default: found = all.filter(q => q.name.toLowerCase() === arg.toLowerCase())
    }
    if (found.length === 0) fail('argument.entity.notfound.player')
    return found
  }

  // coords reads three coordinates, absolute or relative (~) to base.
  function coords (args, i, base, integer) {
    if (args.length < i + 3) fail('argument.pos3d.incomplete')
    return ['x', 'y', 'z'].map((axis, k) => {
      const a = args[i + k]
      const rel = a.startsWith('~')
      const s = rel ? a.slice(1) : a
      if (a.startsWith('^')) fail('argument.pos.mixed')
      const n = s === '' ? 0 : Number(s)
      if (!Number.isFinite(n)) fail(integer ? 'parsing.int.invalid' : 'parsing.double.invalid', [s])
      if (!rel) return integer ? Math.floor(n) : (Number.isInteger(n) && axis !== 'y' ? n + 0.5 : n)
      if (!base) fail('permissions.requires.player')
      const v = base[axis] + n
      return integer ? Math.floor(v) : v
    })
  }

  const fmt = (d) => d.toFixed(6) // vanilla's String.format("%f")

  const COMMANDS = {
    kill (source, args) {
      const list = args[0] ? targets(source, args[0]) : (source.player ? [source.player] : fail('permissions.requires.player'))
      for (const q of list) kill(q)
      feedback(source, list.length === 1 ? tr('commands.kill.success.single', [list[0].name]) : tr('commands.kill.success.multiple', [String(list.length)]))
    },
    tp (source, args) { teleportCommand(source, args) },
    give (source, args) { give(source, args) },
    teleport (source, args) { teleportCommand(source, args) },
    // where <player> reports where the server holds a player to be, for
    // tests that check the server accepted a client's movement (not a
    // vanilla command): {"event":"position","username":…,"x":…,"y":…,"z":…}.
    where (source, args) {
      for (const q of targets(source, args[0] || '@s')) emit('position', { username: q.name, x: q.x, y: q.y, z: q.z })
    },
    setblock (source, args) {
      const [x, y, z] = coords(args, 0, source.player, true)
      if (!args[3]) fail('command.unknown.argument')
      const state = parseBlock(args[3])
      const mode = args[4] || 'replace'
      if (!world.inWorld(y)) fail('argument.pos.outofworld')
      if (mode === 'keep' && !world.about(world.getBlock(x, y, z)).air) fail('commands.setblock.failed')
      if (!setBlocks([[x, y, z, state]])) fail('commands.setblock.failed')
      feedback(source, tr('commands.setblock.success', [String(x), String(y), String(z)]))
    },
    fill (source, args) {
      const a = coords(args, 0, source.player, true)
      const b = coords(args, 3, source.player, true)
      if (!args[6]) fail('command.unknown.argument')
      const state = parseBlock(args[6])
      const [x0, x1] = [Math.min(a[0], b[0]), Math.max(a[0], b[0])]
      const [y0, y1] = [Math.min(a[1], b[1]), Math.max(a[1], b[1])]
      const [z0, z1] = [Math.min(a[2], b[2]), Math.max(a[2], b[2])]
      const volume = (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1)
      if (volume > MAX_FILL) fail('commands.fill.toobig', [String(MAX_FILL), String(volume)])
      if (!world.inWorld(y0) || !world.inWorld(y1)) fail('argument.pos.outofworld')
      const changes = []
      for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) for (let z = z0; z <= z1; z++) changes.push([x, y, z, state])
      const n = setBlocks(changes)
      if (n === 0) fail('commands.fill.failed')
      feedback(source, tr('commands.fill.success', [String(n)]))
    },
    say (source, args, rest) {
      if (!rest) fail('command.unknown.argument')
      for (const q of online()) {
        if (source.player) playerChat(q, source.player, rest, 'say_command')
        else profilelessChat(q, source.name, rest, 'say_command')
      }
      emit('chat', { username: source.player ? source.player.name : '', message: rest })
    },
    msg (source, args) { whisper(source, args) },
    tell (source, args) { whisper(source, args) },
    w (source, args) { whisper(source, args) },
    time (source, args) {
      const named = { day: 1000, noon: 6000, night: 13000, midnight: 18000 }
      const ticksOf = (s) => {
        if (s === undefined) fail('command.unknown.argument')
        if (named[s] !== undefined) return named[s]
        const m = /^(-?\d+(?:\.\d+)?)([dst]?)$/.exec(s)
        if (!m) fail('argument.time.invalid_unit')
        return Math.round(Number(m[1]) * ({ d: 24000, s: 20, t: 1, '': 1 })[m[2]])
      }
      if (args[0] === 'set') {
        const t = ticksOf(args[1])
        timeOffset += t - (dayTime() % 24000 + 24000) % 24000
        broadcastTime()
        feedback(source, tr('commands.time.set', [String(t)]))
      } else if (args[0] === 'add') {
        const t = ticksOf(args[1])
        timeOffset += t
        broadcastTime()
        feedback(source, tr('commands.time.set', [String((dayTime() % 24000 + 24000) % 24000)]))
      } else if (args[0] === 'query') {
        feedback(source, tr('commands.time.query', [String((dayTime() % 24000 + 24000) % 24000)]))
      } else {
        fail('command.unknown.argument')
      }
    },
    weather (source, args) {
      if (!['clear', 'rain', 'thunder'].includes(args[0])) fail('command.unknown.argument')
      weather = args[0]
      weatherPackets(online())
      feedback(source, tr('commands.weather.set.' + weather))
    },
    gamemode (source, args) {
      const mode = GAME_MODES.indexOf(args[0])
      if (mode < 0) fail('argument.gamemode.invalid', [String(args[0] || '')])
      const list = args[1] ? targets(source, args[1]) : (source.player ? [source.player] : fail('permissions.requires.player'))
      for (const q of list) {
        q.gameMode = mode
        q.client.write('game_state_change', { reason: 'change_game_mode', gameMode: mode })
        q.client.write('abilities', abilities(q))
        for (const r of online()) r.client.write('player_info', { action: { update_game_mode: true }, data: [{ uuid: q.uuid, gamemode: mode }] })
        const modeName = tr('gameMode.' + GAME_MODES[mode])
        if (q === source.player) {
          feedback(source, tr('commands.gamemode.success.self', [modeName]))
        } else {
          system([q], tr('gameMode.changed', [modeName]))
          feedback(source, tr('commands.gamemode.success.other', [q.name, modeName]))
        }
      }
    },
    dialog (source, args, rest) {
      if (!hasPacket('show_dialog')) {
        throw new CommandError(tr('command.unknown.command'))
      }
      if (args[0] === 'clear') {
        const list = args[1] ? targets(source, args[1]) : (source.player ? [source.player] : fail('permissions.requires.player'))
        for (const q of list) q.client.write('clear_dialog', {})
        feedback(source, tr('commands.dialog.clear.single', [list[0].name]))
        return
      }
      let list
      let body = rest
      if (args[0] === 'show') {
        list = targets(source, args[1])
        body = args.slice(2).join(' ')
      } else {
        list = source.player ? [source.player] : fail('permissions.requires.player')
      }
      for (const q of list) showDialog(q, dialogNbt(body || 'A notice from the test server.'))
      feedback(source, tr('commands.dialog.show.single', [list[0].name]))
    }
  }

  // showDialog sends a play-state show_dialog with the dialog inline.
  // minecraft-protocol 1.68.0 writes an inline registry holder without its
  // leading 0 (its writer skips the byte instead of writing it, leaving
  // whatever the fresh buffer held), so the packet is serialized here and
  // that byte, the first after the packet id, set to 0 before it is sent.
  function showDialog (q, dialog) {
    const buf = server.serializer.createPacketBuffer({ name: 'show_dialog', params: { dialog: { data: dialog } } })
    let idLength = 1
    while (buf[idLength - 1] & 0x80) idLength++
    buf[idLength] = 0
    q.client.writeRaw(buf)
  }

  function parseBlock (s) {
    try {
      return world.parse(s)
    } catch (err) {
      throw new CommandError(text(err.message))
    }
  }

  // setBlocks changes blocks and tells every player who has their chunk:
  // a block_change for one block, else a multi_block_change per section.
  function setBlocks (changes) {
    const bySection = new Map()
    let n = 0
    for (const [x, y, z, state] of changes) {
      if (!world.setBlock(x, y, z, state)) continue
      n++
      const key = (x >> 4) + ',' + (y >> 4) + ',' + (z >> 4)
      if (!bySection.has(key)) bySection.set(key, [])
      bySection.get(key).push([x, y, z, state])
    }
    for (const [key, list] of bySection) {
      const [sx, sy, sz] = key.split(',').map(Number)
      const chunk = sx + ',' + sz
      const viewers = online().filter(q => q.loaded.has(chunk))
      for (const q of viewers) {
        if (list.length === 1) {
          const [x, y, z, state] = list[0]
          q.client.write('block_change', { location: { x, y, z }, type: state })
        } else {
          q.client.write('multi_block_change', {
            chunkCoordinates: { x: sx, y: sy, z: sz },
            records: list.map(([x, y, z, state]) => state * 4096 + (((x & 15) << 8) | ((z & 15) << 4) | (y & 15)))
          })
        }
      }
    }
    return n
  }

  function teleportCommand (source, args) {
    let who
    let dest
    let destName
    if (args.length === 1) {
      who = source.player ? [source.player] : fail('permissions.requires.player')
      dest = targets(source, args[0])[0]
      destName = dest.name
    } else if (args.length === 2) {
      who = targets(source, args[0])
      dest = targets(source, args[1])[0]
      destName = dest.name
    } else if (args.length === 3) {
      who = source.player ? [source.player] : fail('permissions.requires.player')
      dest = coords(args, 0, source.player, false)
    } else if (args.length >= 4) {
      who = targets(source, args[0])
      dest = coords(args, 1, source.player, false)
    } else {
      fail('command.unknown.argument')
    }
    const [x, y, z] = Array.isArray(dest) ? dest : [dest.x, dest.y, dest.z]
    for (const q of who) {
      if (q.dead) continue
      teleport(q, x, y, z)
    }
    if (destName !== undefined) {
      feedback(source, tr('commands.teleport.success.entity.single', [who[0].name, destName]))
    } else {
      feedback(source, tr('commands.teleport.success.location.single', [who[0].name, fmt(x), fmt(y), fmt(z)]))
    }
  }

  // whisper is vanilla's /msg: the target gets the message as incoming, the
  // sender a confirmation as outgoing; both are the sender's (unsigned)
  // player chat, or disguised chat from the console.
  function whisper (source, args) {
    const list = targets(source, args[0])
    const message = args.slice(1).join(' ')
    if (!message) fail('command.unknown.argument')
    for (const q of list) {
      if (source.player) {
        playerChat(q, source.player, message, 'msg_command_incoming')
        playerChat(source.player, source.player, message, 'msg_command_outgoing', q.name)
      } else {
        profilelessChat(q, source.name, message, 'msg_command_incoming')
      }
    }
  }

  function broadcastTime () {
    for (const q of online()) q.client.write('update_time', timePacket())
  }
  setInterval(broadcastTime, 1000).unref()

  // ---- death and respawn ----
  function kill (p) {
    if (p.dead) return
    p.dead = true
    p.health = 0
    p.lastDeath = { x: Math.floor(p.x), y: Math.floor(p.y), z: Math.floor(p.z) }
    const message = tr('death.attack.genericKill', [p.name])
    p.client.write('death_combat_event', { playerId: p.eid, message })
    system(online(), message)
    for (const q of online()) {
      if (q === p || q.sees.has(p.eid)) q.client.write('entity_status', { entityId: p.eid, entityStatus: 3 })
    }
    // Vanilla sends the health on the player's next tick.
    setTimeout(() => {
      if (p.dead && p.joined) p.client.write('update_health', { health: 0, food: 20, foodSaturation: 5 })
    }, 50)
    console.log(plain(message))
    emit('death', { username: p.name, message: plain(message) })
  }

  // respawn follows vanilla's PlayerList.respawn: the old player leaves the
  // chunk map (its chunks are forgotten), the client gets the respawn and a
  // teleport to the spawn, the level info again, then chunks and health.
  function respawn (p) {
    unloadAll(p)
    for (const q of online()) {
      if (q.sees.has(p.eid)) despawnFor(q, [p.eid])
    }
    p.dead = false
    p.health = 20
    p.client.write('respawn', { worldState: spawnInfo(p), copyMetadata: 0 })
    teleport(p, world.spawn.x, world.spawn.y, world.spawn.z, false)
    p.client.write('difficulty', { difficulty: 'normal', difficultyLocked: false })
    levelInfo(p)
    p.client.write('entity_status', { entityId: p.eid, entityStatus: 28 })
    p.client.write('abilities', abilities(p))
    updateChunks(p)
    p.client.write('update_health', { health: 20, food: 20, foodSaturation: 5 })
    p.sent = null
    updateTracking(p)
    console.log(p.name, 'respawned')
    emit('respawn', { username: p.name })
  }

  // ---- leaving ----
  function leave (p) {
    if (!players.has(p.client.id)) return
    players.delete(p.client.id)
    if (!p.joined) return
    p.joined = false
    const rest = online()
    system(rest, tr('multiplayer.player.left', [p.name], { color: 'yellow' }))
    for (const q of rest) {
      q.client.write('player_remove', { players: [p.uuid] })
      if (q.sees.has(p.eid)) despawnFor(q, [p.eid])
    }
    console.log(p.name, 'left')
    emit('leave', { username: p.name })
  }

  // ---- the console ----
  const rl = readline.createInterface({ input: process.stdin })
  rl.on('line', (line) => {
    line = line.trim().replace(/^\//, '')
    if (line) command(null, line)
  })
}
