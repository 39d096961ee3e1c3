'use strict'
// digvectors.js: the packets of digging, placing and using blocks,
// serialized by minecraft-protocol's own compiled protocol, for bot/codec's
// differential test (dig_test.go).
//
//   node digvectors.js <game version>...
//
// One JSON line per packet and version: {version, dir, name, hex, parsed}.
// The serverbound ones (block_dig, block_place, arm_animation) are the
// bytes the bot must write for the same fields; the clientbound ones
// (acknowledge_player_digging, entity_effect, remove_entity_effect) are
// what the bot must read, with minecraft-protocol's reading of them.
const mc = require('minecraft-protocol')
const { dataVersion } = require('./versions')

function hand (types, name, n) {
  // 26.1 maps hands to names; earlier versions take the number.
  const f = types[name][1].find(f => f.name === 'hand')
  return Array.isArray(f.type) && f.type[0] === 'mapper' ? f.type[1].mappings[String(n)] : n
}

// status is a player action by its number before 26.3, and by its name in
// 26.3's action mapper (whose numbers moved: stop digging is 3).
function status (types, n, name) {
  const f = types.packet_block_dig[1].find(f => f.name === 'status')
  return Array.isArray(f.type) && f.type[0] === 'mapper' ? name : n
}

function plain (v) {
  return JSON.parse(JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x.toString() : x)))
}

for (const version of process.argv.slice(2)) {
  const data = require('minecraft-data')(dataVersion(version))
  const sb = data.protocol.play.toServer.types
  const client = mc.createSerializer({ state: 'play', isServer: false, version: dataVersion(version) }).proto
  const out = [
    ['block_dig', { status: status(sb, 2, 'stop_destroy_block'), location: { x: -33, y: -60, z: 1000 }, face: 1, sequence: 300 }],
    ['block_place', { hand: hand(sb, 'packet_block_place', 1), location: { x: 12, y: 70, z: -5 }, direction: 4, cursorX: 0, cursorY: 0.5, cursorZ: 0.25, insideBlock: false, worldBorderHit: false, sequence: 7 }],
    // 26.3's swing is punch, which has no fields.
    sb.packet_punch ? ['punch', {}] : ['arm_animation', { hand: hand(sb, 'packet_arm_animation', 0) }]
  ]
  for (const [name, value] of out) {
    const buf = client.createPacketBuffer('packet_' + name, value)
    process.stdout.write(JSON.stringify({ version, dir: 'toServer', name, hex: buf.toString('hex') }) + '\n')
  }
  const server = mc.createSerializer({ state: 'play', isServer: true, version: dataVersion(version) }).proto
  const in_ = [
    ['acknowledge_player_digging', { sequenceId: 70000 }],
    ['entity_effect', { entityId: 99, effectId: 2, amplifier: 1, duration: -1, flags: 6 }],
    ['remove_entity_effect', { entityId: 99, effectId: 3 }]
  ]
  for (const [name, value] of in_) {
    const buf = server.createPacketBuffer('packet_' + name, value)
    const parsed = server.parsePacketBuffer('packet_' + name, buf).data
    process.stdout.write(JSON.stringify({ version, dir: 'toClient', name, hex: buf.toString('hex'), parsed: plain(parsed) }) + '\n')
  }
}
