'use strict'
// Generates small wire test vectors with minecraft-protocol 1.68.0's serializer
// (minecraft-data 3.119.0 layouts, and the dataset blockmate emits for 26.2)
// for the packets whose layout changed in 770..776. Run from the repository root:
//   NODE_PATH=testdata/peers/node_modules node bot/codec/testdata/make_vectors.js > bot/codec/testdata/peer_vectors.json
// Each vector: version, state, direction, packet name, params, hex of the packet
// (id VarInt + body, no length/compression framing). Where minecraft-data and the
// game disagree (custom_click_action), a "game" hex is added, built by hand from
// the decompiled game codec (see PROTOCOL-CHANGES.md §D).
// 26.2 is a release blockmate emits (testdata/peers/mcdata).
require('../../../testdata/peers/emitted')
const { createSerializer } = require('minecraft-protocol')
const nbt = require('prismarine-nbt')
const [, , lp] = [null, null, require('minecraft-protocol/src/datatypes/lpVec3')]
const out = []
function vec (version, state, isServer, name, params, note) {
  const s = createSerializer({ state, isServer, version })
  const buf = s.createPacketBuffer({ name, params })
  out.push({ version, state, direction: isServer ? 'toClient' : 'toServer', name, params, hex: buf.toString('hex'), note })
}
const text = t => nbt.comp({ text: nbt.string(t) })
const UUID = '00000000-0000-0000-0000-000000000001'
for (const v of ['1.21.4', '1.21.5', '1.21.9', '26.1']) {
  vec(v, 'play', false, 'chat_message', { message: 'hi', timestamp: 1700000000000n, salt: 0n, signature: undefined, offset: 0, acknowledged: Buffer.alloc(3), checksum: 0 }, 'unsigned chat; checksum 0 = "ignore" (game LastSeenMessages.Update.IGNORE_CHECKSUM); field absent before 770')
  vec(v, 'play', true, 'player_chat', { globalIndex: 5, senderUuid: UUID, index: 0, signature: undefined, plainMessage: 'hi', timestamp: 1700000000000n, salt: 0n, previousMessages: [], unsignedChatContent: undefined, filterType: 0, type: { chatType: 0 }, networkName: text('Alice'), networkTargetName: undefined }, 'globalIndex (VarInt, first field) exists from 770; type holder 0+1=1 means registry entry 0')
}
for (const v of ['1.21.8', '1.21.9']) {
  const p = v === '1.21.8' ? { location: { x: 1, y: 64, z: -2 }, angle: 90 } : { globalPos: { dimensionName: 'minecraft:overworld', location: { x: 1, y: 64, z: -2 } }, yaw: 90, pitch: 0 }
  vec(v, 'play', true, 'spawn_position', p, 'set default spawn position; 773 = RespawnData{GlobalPos{dimension string, position}, yaw f32, pitch f32}')
}
for (const v of ['1.21.8', '1.21.9']) {
  vec(v, 'play', true, 'entity_velocity', { entityId: 7, velocity: v === '1.21.8' ? { x: 800, y: -1600, z: 0 } : { x: 0.1, y: -0.2, z: 0 } }, '772: 3 x i16 in 1/8000 block/tick; 773+: LpVec3 in block/tick')
}
vec('1.21.9', 'configuration', true, 'code_of_conduct', { contents: 'Be nice.' }, '')
vec('1.21.9', 'configuration', false, 'accept_code_of_conduct', {}, 'empty body')
vec('1.21.6', 'configuration', true, 'show_dialog', { dialog: nbt.comp({ type: nbt.string('minecraft:notice'), title: text('Rules') }) }, 'configuration: inline NBT only')
vec('1.21.6', 'play', true, 'show_dialog', { dialog: { data: nbt.comp({ type: nbt.string('minecraft:notice'), title: text('Rules') }) } }, 'play: holder VarInt, 0 = inline NBT follows, n>0 = minecraft:dialog registry entry n-1 (packet id 0x85 is the two-byte VarInt 85 01)')
vec('1.21.6', 'play', true, 'clear_dialog', {}, '')
vec('1.21.6', 'configuration', false, 'custom_click_action', { id: 'minecraft:x', nbt: undefined }, 'minecraft-data encoding (bool 00 = absent). The GAME expects VarInt length + NBT: see gameHex')
out[out.length - 1].gameHex = '080b6d696e6563726166743a780100'
// 26.2: login success ends with a session id; the play login has the online
// mode before enforcesSecureChat (26.1 for comparison).
for (const v of ['26.1', '26.2']) {
  const success = { uuid: UUID, username: 'Theo', properties: [] }
  if (v !== '26.1') success.sessionId = '00000000-0000-0000-0000-000000000002'
  vec(v, 'login', true, 'success', success, v === '26.1' ? 'profile only' : 'profile, then the session UUID')
  const login = {
    entityId: 42, isHardcore: false, worldNames: ['minecraft:overworld'], maxPlayers: 20, viewDistance: 8, simulationDistance: 6, reducedDebugInfo: false, enableRespawnScreen: true, doLimitedCrafting: false,
    worldState: { dimension: 0, name: 'minecraft:overworld', hashedSeed: 7n, gamemode: 'creative', previousGamemode: 255, isDebug: false, isFlat: true, death: undefined, portalCooldown: 0, seaLevel: 63 },
    enforcesSecureChat: true
  }
  if (v !== '26.1') login.onlineMode = true
  vec(v, 'play', true, 'login', login, v === '26.1' ? 'spawn info, then enforcesSecureChat' : 'spawn info, online mode, enforcesSecureChat')
}
// LpVec3 examples (same algorithm as the game's net.minecraft.network.LpVec3)
const lpv = []
for (const v of [[0, 0, 0], [0.1, -0.2, 0.3], [1, 0, -1], [3.5, 0, 0], [10, -20, 5.25], [0.00001, 0, 0]]) {
  const b = Buffer.alloc(16)
  const end = lp[1]({ x: v[0], y: v[1], z: v[2] }, b, 0)
  const dec = lp[0](b, 0).value
  lpv.push({ in: v, hex: b.subarray(0, end).toString('hex'), decoded: [dec.x, dec.y, dec.z] })
}
console.log(JSON.stringify({ generator: 'minecraft-protocol 1.68.0 + minecraft-data 3.119.0', packets: out, lpVec3: lpv }, (k, v) => typeof v === 'bigint' ? v.toString() : (v && v.type === 'Buffer' ? Buffer.from(v.data).toString('hex') : v), 1))
