'use strict'
// physics_ref.js runs prismarine-physics (mineflayer's movement engine) on
// scenarios read as one JSON document from stdin, and prints one JSON line
// per scenario with the player's state after every tick. bot/physics's
// differential test feeds it the same worlds, start states and controls as
// its own Step and compares the two tick by tick.
//
// A scenario: {name, version, world: {groundTop, ground, blocks: [[x,y,z,state]…]},
// start: {pos: [x,y,z], vel: [x,y,z], onGround, yaw, pitch},
// controls: [{forward, back, left, right, jump, sprint, sneak, yaw, pitch}…],
// reseed: optional [{pos, vel, onGround}…] — when given, tick i starts from
// reseed[i] instead of the state tick i−1 left (a one-tick comparison).
// Yaw and pitch are the game's degrees (yaw 0 faces +Z).
//
//   node physics_ref.js scenarios.json      (or the JSON on stdin)
//   node physics_ref.js --bench 1.21.4 200000   (prints ns per simulated tick)
require('./emitted') // the emitted releases (26.2), from testdata/peers/mcdata
const { Physics, PlayerState } = require('prismarine-physics')
const { Vec3 } = require('vec3')

const registries = new Map()
function registryFor (version) {
  let r = registries.get(version)
  if (!r) {
    const mcData = require('minecraft-data')(version)
    const Block = require('prismarine-block')(version)
    r = { mcData, Block, cache: new Map() }
    registries.set(version, r)
  }
  return r
}

function makeWorld (reg, spec) {
  const blocks = new Map()
  for (const [x, y, z, s] of spec.blocks || []) blocks.set(x + ',' + y + ',' + z, s)
  return {
    getBlock (pos) {
      const x = Math.floor(pos.x); const y = Math.floor(pos.y); const z = Math.floor(pos.z)
      let s = blocks.get(x + ',' + y + ',' + z)
      if (s === undefined) s = y < spec.groundTop ? spec.ground : 0
      const b = reg.Block.fromStateId(s, 0)
      b.position = new Vec3(x, y, z)
      return b
    }
  }
}

// The game's yaw in degrees (0 = +Z, 90 = −X) to mineflayer's radians.
function mineflayerYaw (deg) { return Math.PI - deg * Math.PI / 180 }
function mineflayerPitch (deg) { return -deg * Math.PI / 180 }

function fakeBot (start, version) {
  return {
    entity: {
      position: new Vec3(...start.pos),
      velocity: new Vec3(...(start.vel || [0, 0, 0])),
      onGround: !!start.onGround,
      isInWater: false,
      isInLava: false,
      isInWeb: false,
      isCollidedHorizontally: false,
      isCollidedVertically: false,
      elytraFlying: false,
      yaw: mineflayerYaw(start.yaw || 0),
      pitch: mineflayerPitch(start.pitch || 0),
      effects: {}
    },
    jumpTicks: 0,
    jumpQueued: false,
    fireworkRocketDuration: 0,
    version,
    inventory: { slots: [] }
  }
}

function runScenario (sc) {
  const reg = registryFor(sc.version)
  const world = makeWorld(reg, sc.world)
  const physics = Physics(reg.mcData, world)
  const bot = fakeBot(sc.start, sc.version)
  const control = { forward: false, back: false, left: false, right: false, jump: false, sprint: false, sneak: false }
  const state = new PlayerState(bot, control)
  const ticks = []
  sc.controls.forEach((c, i) => {
    if (sc.reseed) {
      const r = sc.reseed[i]
      state.pos = new Vec3(...r.pos)
      state.vel = new Vec3(...r.vel)
      state.onGround = r.onGround
      state.isCollidedHorizontally = !!r.hcoll
      state.jumpTicks = r.jumpTicks || 0
    }
    for (const k of Object.keys(control)) control[k] = !!c[k]
    state.yaw = mineflayerYaw(c.yaw || 0)
    state.pitch = mineflayerPitch(c.pitch || 0)
    physics.simulatePlayer(state, world)
    ticks.push({
      pos: [state.pos.x, state.pos.y, state.pos.z],
      vel: [state.vel.x, state.vel.y, state.vel.z],
      onGround: state.onGround,
      hcoll: state.isCollidedHorizontally,
      inWater: state.isInWater,
      jumpTicks: state.jumpTicks
    })
  })
  return { name: sc.name, ticks }
}

function bench (version, n, cluttered) {
  const reg = registryFor(version)
  const stone = reg.mcData.blocksByName.stone.defaultState
  const spec = { groundTop: 0, ground: stone, blocks: [] }
  if (cluttered) {
    const slab = reg.mcData.blocksByName.oak_slab.defaultState
    const fence = reg.mcData.blocksByName.oak_fence.defaultState
    for (let x = -8; x < 40; x += 3) {
      for (let z = -8; z < 200; z += 2) spec.blocks.push([x, 0, z, (x + z) % 4 === 0 ? slab : fence])
    }
  }
  const world = makeWorld(reg, spec)
  const physics = Physics(reg.mcData, world)
  const bot = fakeBot({ pos: [0.5, 0, 0.5], onGround: true }, version)
  const control = { forward: true, back: false, left: false, right: false, jump: true, sprint: true, sneak: false }
  const state = new PlayerState(bot, control)
  const run = (count) => {
    for (let i = 0; i < count; i++) {
      if (i % 200 === 0) {
        state.pos = new Vec3(0.5, 0, 0.5)
        state.vel = new Vec3(0, 0, 0)
        state.onGround = true
      }
      physics.simulatePlayer(state, world)
    }
  }
  run(Math.min(n, 20000)) // warm the JIT up
  const t0 = process.hrtime.bigint()
  run(n)
  const t1 = process.hrtime.bigint()
  console.log(JSON.stringify({ nsPerTick: Number(t1 - t0) / n, ticks: n }))
}

if (process.argv[2] === '--bench') {
  bench(process.argv[3], Number(process.argv[4] || 100000), process.argv[5] === 'cluttered')
} else if (process.argv[2]) {
  const scenarios = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'))
  for (const sc of scenarios) console.log(JSON.stringify(runScenario(sc)))
} else {
  let input = ''
  process.stdin.setEncoding('utf8')
  process.stdin.on('data', d => { input += d })
  process.stdin.on('end', () => {
    for (const sc of JSON.parse(input)) console.log(JSON.stringify(runScenario(sc)))
  })
}
