'use strict'
// packetvectors.js: the world and entity packets the bot reads, serialized
// by minecraft-protocol's own compiled protocol (what its server and
// flying-squid write), for bot/codec's differential test.
//
//   node packetvectors.js <game version>...
//
// For every version it writes one JSON line per packet:
//
//   {version, name, types, hex, parsed}
//
// and one line per case of the serverbound entity packets the bot writes
// (use_entity, and 26.1's attack): {version, dir: "toServer", name, case,
// hex}.
//
// types maps each top-level field to its protocol.json type (so the test
// knows the wire units: an i8 angle is 256ths of a turn, an f32 one
// degrees); hex is the packet body (no id); parsed is minecraft-protocol's
// reading of those bytes (BigInts and buffers made JSON).
const mc = require('minecraft-protocol')
const { dataVersion } = require('./versions')

const uuid = '4b1c0a2e-9f3d-4e21-8a77-3c5d6e7f8091'

// params builds a packet's fields for a version's layout: fields the
// layout lacks are ignored by the serializer, so one set serves all.
function params (name, layout) {
  const typeOf = (field) => (layout.find(f => f.name === field) || {}).type
  const lp = typeOf('velocity') === 'lpVec3'
  // From 26.3 a move's flags carry on ground and a step count (bitfields in
  // the emitted protocol.json), and a position sync carries a path.
  const stepped = layout.some(f => f.name === 'steps')
  const path = typeOf('position') !== undefined
  switch (name) {
    case 'spawn_entity':
      return {
        entityId: 1234, objectUUID: uuid, type: 57, x: 1.5, y: -60.25, z: 3.75,
        pitch: 32, yaw: -64, headPitch: 16, objectData: 7,
        velocity: lp ? { x: 0.1, y: -0.2, z: 0.3 } : { x: 800, y: -1600, z: 8 }
      }
    case 'spawn_entity_experience_orb':
      return { entityId: 77, x: -2.5, y: 70, z: 1e6 + 0.5, count: 12 }
    case 'rel_entity_move':
      if (stepped) return { entityId: 5, stepCount: 0, onGround: 1, dX: 4096, dY: -2048, dZ: 1, steps: [] }
      return { entityId: 5, dX: 4096, dY: -2048, dZ: 1, onGround: true }
    case 'rel_entity_move_steps':
      return {
        entityId: 5,
        stepCount: 3,
        onGround: 0,
        steps: [{ tickOffset: 1, dX: 100, dY: -50, dZ: 0 }, { tickOffset: 2, dX: 4096, dY: 0, dZ: -1 }, { tickOffset: 3, dX: -7, dY: 8, dZ: 9 }]
      }
    case 'entity_move_look':
      if (stepped) return { entityId: 5, stepCount: 0, onGround: 0, dX: -4096, dY: 0, dZ: 300, steps: [], yaw: 64, pitch: -32 }
      return { entityId: 5, dX: -4096, dY: 0, dZ: 300, yaw: 64, pitch: -32, onGround: false }
    case 'entity_look':
      return { entityId: 5, yaw: -128, pitch: 127, onGround: true }
    case 'entity_head_rotation':
      return { entityId: 6, headYaw: 96 }
    case 'entity_teleport':
      return {
        entityId: 9, x: 100.5, y: 64, z: -200.25, dx: 0.5, dy: -0.25, dz: 0,
        yaw: typeOf('yaw') === 'i8' ? -64 : 45.5, pitch: typeOf('pitch') === 'i8' ? 16 : -10,
        flags: { x: true, z: true }, onGround: true
      }
    case 'sync_entity_position':
      if (path) return { entityId: 9, position: { pathType: 0, path: { x: -1.25, y: 80, z: 3 } }, yaw: 180, pitch: 22.5, onGround: false }
      return { entityId: 9, x: -1.25, y: 80, z: 3, dx: 0, dy: 0.125, dz: -1, yaw: 180, pitch: 22.5, onGround: false }
    case 'sync_entity_position_steps':
      return {
        entityId: 9,
        position: { pathType: 1, path: [{ x: 1, y: 2, z: 3, tickOffset: 1 }, { x: -1.25, y: 80.5, z: 3, tickOffset: 2 }] },
        yaw: -90,
        pitch: 10,
        onGround: true
      }
    case 'entity_velocity':
      return { entityId: 11, velocity: lp ? { x: 10, y: -20, z: 5.25 } : { x: -8000, y: 4000, z: 1 } }
    case 'entity_destroy':
      return { entityIds: [1, 300, 70000] }
    case 'set_passengers':
      return { entityId: 3, passengers: [4, 5] }
    case 'entity_status':
      return { entityId: 123456, entityStatus: 3 }
    case 'unload_chunk':
      return { chunkX: -3, chunkZ: 7 }
    case 'update_view_position':
      return { chunkX: -30, chunkZ: 2 }
    case 'update_view_distance':
      return { viewDistance: 12 }
    case 'block_change':
      return { location: { x: -33, y: -60, z: 1000 }, type: 2047 }
    case 'multi_block_change':
      return { chunkCoordinates: { x: -2, z: 5, y: -4 }, records: [(2047 << 12) | (1 << 8) | (2 << 4) | 3, (9 << 12) | (15 << 8) | (15 << 4) | 15] }
    case 'tile_entity_data':
      return {
        location: { x: 5, y: 70, z: -9 },
        action: 8,
        nbtData: { type: 'compound', name: '', value: { id: { type: 'string', value: 'minecraft:sign' } } }
      }
  }
}

const names = ['spawn_entity', 'spawn_entity_experience_orb', 'rel_entity_move', 'entity_move_look', 'entity_look',
  'entity_head_rotation', 'entity_teleport', 'sync_entity_position', 'entity_velocity', 'entity_destroy',
  'set_passengers', 'entity_status', 'unload_chunk', 'update_view_position', 'update_view_distance',
  'block_change', 'multi_block_change', 'tile_entity_data']

function plain (v) {
  return JSON.parse(JSON.stringify(v, (k, x) => {
    if (typeof x === 'bigint') return x.toString()
    if (x && x.type === 'Buffer') return Buffer.from(x.data).toString('hex')
    return x
  }))
}

// serverbound lists, per packet, the cases of the bot's serverbound
// entity packets: [case name, fields] for the version's layout ("mouse" 0
// interact, 1 attack, 2 interact at a point, before 26.1; 26.1's
// use_entity carries the point as an LpVec3 and attack is its own packet).
function serverbound (types) {
  const useEntity = types.packet_use_entity[1]
  if (useEntity.some(f => f.name === 'location')) {
    return [
      ['use_entity', 'interact', { target: 42, hand: 'main_hand', location: { x: 0, y: 0, z: 0 }, sneaking: false }],
      ['use_entity', 'interact_at', { target: 42, hand: 'off_hand', location: { x: 0.25, y: 1.5, z: -0.25 }, sneaking: true }],
      ['attack', 'attack', { entityId: 42 }]
    ]
  }
  return [
    ['use_entity', 'interact', { target: 42, mouse: 0, hand: 0, sneaking: false }],
    ['use_entity', 'interact_at', { target: 42, mouse: 2, x: 0.25, y: 1.5, z: -0.25, hand: 1, sneaking: true }],
    ['use_entity', 'attack', { target: 42, mouse: 1, sneaking: false }]
  ]
}

// skillPackets lists the cases of the packets the survival skills write
// (bot/codec/skills.go): use_item, arm_animation and use_item_on (block_place),
// and entity_action's stop_sleeping (mc_sleep). Fields a
// version's layout lacks (worldBorderHit before 1.21.2) are ignored.
function skillPackets (types) {
  return [
    ['use_item', 'use_item', { hand: 0, sequence: 7, rotation: { x: -45.5, y: 12.25 } }],
    // 26.3's swing is punch, with no hand (the main hand's).
    types.packet_punch ? ['punch', 'swing', {}] : ['arm_animation', 'swing', { hand: 1 }],
    ['block_place', 'use_item_on', {
      hand: 1, location: { x: -3, y: 64, z: 1000 }, direction: 1, cursorX: 0.5, cursorY: 1, cursorZ: 0.25,
      insideBlock: false, worldBorderHit: false, sequence: 300
    }],
    // The bed screen's "Leave Bed" (bot/codec/sleep.go), by its name in
    // the version's action list.
    ['entity_action', 'leave_bed', { entityId: 42, actionId: 'stop_sleeping', jumpBoost: 0 }]
  ]
}

for (const version of process.argv.slice(2)) {
  const client = mc.createSerializer({ state: 'play', isServer: false, version: dataVersion(version) }).proto
  const toServer = require('minecraft-data')(dataVersion(version)).protocol.play.toServer.types
  for (const [name, kase, value] of serverbound(toServer).concat(skillPackets(toServer))) {
    const buf = client.createPacketBuffer('packet_' + name, value)
    process.stdout.write(JSON.stringify({ version, dir: 'toServer', name, case: kase, hex: buf.toString('hex') }) + '\n')
  }

  const proto = mc.createSerializer({ state: 'play', isServer: true, version: dataVersion(version) }).proto
  const types = require('minecraft-data')(dataVersion(version)).protocol.play.toClient.types
  const cases = names.map(n => [n, n])
  // 26.3's stepped moves and position paths, each a case of its own.
  if (types.packet_rel_entity_move[1].some(f => f.name === 'steps')) {
    cases.push(['rel_entity_move', 'rel_entity_move_steps'], ['sync_entity_position', 'sync_entity_position_steps'])
  }
  for (const [name, kase] of cases) {
    const def = types['packet_' + name]
    if (!def) continue
    const layout = def[1]
    const value = params(kase, layout)
    const buf = proto.createPacketBuffer('packet_' + name, value)
    const parsed = proto.parsePacketBuffer('packet_' + name, buf).data
    const fieldTypes = {}
    for (const f of layout) if (f.name) fieldTypes[f.name] = typeof f.type === 'string' ? f.type : f.type[0]
    process.stdout.write(JSON.stringify({ version, name, case: kase, types: fieldTypes, hex: buf.toString('hex'), parsed: plain(parsed) }) + '\n')
  }
}
