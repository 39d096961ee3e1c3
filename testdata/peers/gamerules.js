'use strict'
// gamerules.js: what the game does and flying-squid 1.12.0 does not, for
// every flying-squid server of the tests (server.js loads it). Each rule
// names the game's code it follows (GAME 1.21.4 Class.method, decompiled
// server code; the same at 1.21.1 and 1.21.3 unless a line says so).
//
//   - The player list. flying-squid wrote the list of everyone to the
//     players already there (again) and never to the newcomer, so a player
//     who joins after others does not know them: a client that keys
//     players by the list (the game's, mineflayer's, blockmate's) gets the
//     spawn of a player it has no name for. The game
//     (PlayerList.placeNewPlayer) sends the newcomer the players already
//     there, then adds it and tells everyone, itself too, about it, each as
//     ClientboundPlayerInfoUpdatePacket.createPlayerInitializing: add_player,
//     initialize_chat, update_game_mode, update_listed, update_latency,
//     update_display_name, and from 1.21.2 update_list_order (1.21.4 also
//     update_hat).
//   - A player who leaves. flying-squid sent a player_info "remove_player"
//     action, which the 1.19.3+ packet does not have (it went out as an
//     empty update), so the others kept the leaver in their list. The game
//     (PlayerList.remove) sends everyone ClientboundPlayerInfoRemovePacket
//     (player_remove) with the leaver's id.
//   - A player's entity type. flying-squid makes players with entity type
//     null, and since 1.20.2 a player appears with spawn_entity, whose type
//     went out as 0 (allay at 1.21): a client saw an allay where a player
//     stood, and mineflayer never gave the player in its list an entity.
//     The game (ServerEntity.getAddEntityPacket, ClientboundAddEntityPacket)
//     sends EntityType.PLAYER.
//   - Chunks as a player walks (with chunkView, which server.js sets for
//     the game-made world). flying-squid sends chunks after each 16
//     blocks walked, over a square skewed a chunk to the west and north
//     (its spiral covers the centre - view to the centre + view - 1), so
//     the east and south edges of the view came late. The game
//     (ChunkMap.move, updateChunkTracking, ChunkTrackingView) sends, as
//     soon as the player enters another chunk, every chunk within the
//     view (isWithinDistance with the edge: a rounded square one chunk
//     wider than the view distance), the view distance being the client's
//     clamped to 2 and the server's, nearest first (the game sends
//     nearest first too), and forgets those that left it.
//   - The digger's block update (without the survival plugin, which digs
//     on its own): flying-squid tells everyone but the digger that a dug
//     block is gone (player.changeBlock), trusting the client's own
//     prediction; the game (ServerPlayerGameMode.destroyAndAck) sends the
//     digger the block update too, before the acknowledgement, and a client
//     takes an acknowledgement without one as a refusal and puts the block
//     back.
module.exports = function gameRules (serv, { survival, chunkView, viewDistance = 10 } = {}) {
  const registry = serv.registry
  const listOrder = registry.version['>=']('1.21.2')
  const hat = registry.version['>=']('1.21.4')

  // initializing is createPlayerInitializing for the given players.
  function initializing (players) {
    const action = {
      add_player: true,
      initialize_chat: true,
      update_game_mode: true,
      update_listed: true,
      update_latency: true,
      update_display_name: true
    }
    if (listOrder) action.update_list_order = true
    if (hat) action.update_hat = true
    return {
      action,
      data: players.map((p) => {
        const entry = {
          uuid: p.uuid,
          player: { name: p.username, properties: p.profileProperties || [] },
          chatSession: undefined, // offline mode: no chat session
          gamemode: p.gameMode,
          listed: 1,
          latency: Math.max(0, p._client.latency | 0),
          displayName: undefined
        }
        if (listOrder) entry.listPriority = 0
        if (hat) entry.showHat = true
        return entry
      })
    }
  }

  const playerType = registry.entitiesByName.player.id

  // exchangeList is placeNewPlayer's part: the newcomer learns the players
  // already there, then everyone (the newcomer too) learns the newcomer.
  function exchangeList (newcomer) {
    const others = serv.players.filter((p) => p !== newcomer && !p.disconnected && p._listSent)
    if (others.length) newcomer._client.write('player_info', initializing(others))
    newcomer._listSent = true
    for (const p of serv.players) if (p._listSent && !p.disconnected) p._client.write('player_info', initializing([newcomer]))
    for (const p of serv.players) if (p._heldSpawns && p._heldSpawns.length) p._flushSpawns()
  }

  serv.on('newPlayer', (player) => {
    player.entityType = playerType
    // The game sends the list right behind the login packet
    // (placeNewPlayer), before the player is in the level where others
    // could see it. flying-squid makes the player's entity when it
    // connects and sends chunks for seconds before its tab list, and
    // meanwhile shows it to players who move (and them to it). So the list
    // goes right behind flying-squid's login packet, and the spawn of a
    // player is held back from a client until both know each other (it
    // is sent then, as the entity is then; a destroy in between drops it).
    const write = player._client.write.bind(player._client)
    const held = player._heldSpawns = []
    // (The other player's entity exists from its connection on, before
    // flying-squid lists it in serv.players.)
    const knows = (params) => {
      const other = serv.entities[params.entityId]
      return !!player._listSent && !(other && other.type === 'player' && !other._listSent)
    }
    // A held spawn goes out as the entity is when it is sent (its
    // position then, not at the time it was held), since the moves sent
    // meanwhile never reached this client.
    player._flushSpawns = () => {
      for (let i = 0; i < held.length;) {
        if (!knows(held[i])) { i++; continue }
        const entity = serv.entities[held.splice(i, 1)[0].entityId]
        if (entity && !entity.disconnected) write('spawn_entity', entity.getSpawnPacket())
      }
    }
    player._client.write = (name, params) => {
      if (name === 'spawn_entity' && params && params.type === playerType && !knows(params)) {
        held.push(params)
        return
      }
      if (name === 'entity_destroy' && params && held.length) {
        for (let i = held.length - 1; i >= 0; i--) if (params.entityIds.includes(held[i].entityId)) held.splice(i, 1)
      }
      write(name, params)
      if (name === 'login') exchangeList(player)
    }
    // flying-squid's login plugin sets these on every new player; they are
    // replaced before its login runs (newPlayer is emitted first).
    serv._sendPlayerList = () => {}
    serv._sendPlayerEventLeave = (leaver) => {
      for (const p of serv.players) {
        if (p !== leaver && !p.disconnected) p._client.write('player_remove', { players: [leaver.uuid] })
      }
    }

    if (chunkView) followView(player)

    if (!survival) {
      player.on('dug', ({ position }, cancelled) => {
        if (!cancelled) player._client.write('block_change', { location: position, type: 0 })
      })
    }
  })

  // isWithinDistance is ChunkTrackingView.isWithinDistance.
  function isWithinDistance (centerX, centerZ, view, x, z, includeEdge) {
    const i = Math.max(0, Math.abs(x - centerX) - 1)
    const j = Math.max(0, Math.abs(z - centerZ) - 1)
    const l = Math.max(0, Math.max(i, j) - (includeEdge ? 1 : 0))
    const m = Math.min(i, j)
    return m * m + l * l < view * view
  }

  // followView replaces flying-squid's chunk sending after the login with
  // the game's: the player's view is re-evaluated whenever its chunk
  // changes (and when flying-squid asks, at login and on view changes).
  function followView (player) {
    let running = false
    let again = false
    let center = null
    async function update () {
      if (running) { again = true; return }
      running = true
      player.sendingChunks = true
      try {
        do {
          again = false
          const cx = Math.floor(player.position.x / 16)
          const cz = Math.floor(player.position.z / 16)
          center = [cx, cz]
          const view = Math.max(2, Math.min(player.view || viewDistance, viewDistance))
          for (const key of Object.keys(player.loadedChunks || {})) {
            const [x, z] = key.split(',').map(Number)
            if (!isWithinDistance(cx, cz, view, x, z, true)) player._unloadChunk(x, z)
          }
          const wanted = []
          for (let x = cx - view - 1; x <= cx + view + 1; x++) {
            for (let z = cz - view - 1; z <= cz + view + 1; z++) {
              if (isWithinDistance(cx, cz, view, x, z, true)) wanted.push([x, z])
            }
          }
          wanted.sort((a, b) => ((a[0] - cx) ** 2 + (a[1] - cz) ** 2) - ((b[0] - cx) ** 2 + (b[1] - cz) ** 2))
          for (const [x, z] of wanted) {
            if (player._client.ended || again) break
            if (!serv._worldLoadPlayerChunk(x, z, player)) continue
            const column = await player.world.getColumn(x, z)
            if (player._client.ended) break
            player.sendChunk(x, z, column)
          }
        } while (again && !player._client.ended)
      } finally {
        running = false
        player.sendingChunks = false
        player.lastPositionChunkUpdated = player.position
      }
    }
    player.worldSendRestOfChunks = update
    player.worldSendAllChunks = update
    player.on('move', () => {
      if (!center || !player.loadedChunks) return
      const cx = Math.floor(player.position.x / 16)
      const cz = Math.floor(player.position.z / 16)
      if (cx !== center[0] || cz !== center[1]) update()
    })
  }
}
