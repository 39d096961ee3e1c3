'use strict'
// path_bench.js plans paths with mineflayer-pathfinder, without a server,
// over the world bot/path's benchmark generated: the same chunk section
// data, loaded with prismarine-chunk into prismarine-world (what mineflayer
// keeps), and times the search, for the side-by-side benchmark.
//
//   node --expose-gc --max-semi-space-size=128 path_bench.js <spec.json>
//
// spec.json: {version, minY, height, rounds, columns: [{x, z, path}],
//             routes: [{name, start: [x,y,z], goal: [x,y,z], range}]}
// Each column file is the section data of one chunk, as a chunk data
// packet carries it. Prints one JSON line per route: the status, the time
// of the first (cold) search and the median of the warm ones (wall and
// CPU), in ms, the path (its positions), the nodes visited, the heap one
// search allocates and what its result holds. With semi-spaces of 128 MiB
// no collection runs during one search, so the heap's growth over it is
// what it allocated (and the searches run with less collecting than
// mineflayer's defaults: if anything, faster).
//
// The bot is a stand-in with what mineflayer-pathfinder reads: the
// registry, blockAt over the world, an empty inventory, no entities. It is
// given to the real pathfinder plugin (inject), and the search is the
// plugin's own getPathFromTo with its default Movements, except that it
// may not dig or place blocks (bot/path does neither yet), and with one
// unbounded think: the time to a complete path is what is compared.
require('./emitted') // the emitted releases (26.2), from testdata/peers/mcdata
const fs = require('fs')
const { EventEmitter } = require('events')
const { performance } = require('perf_hooks')
const { Vec3 } = require('vec3')

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
const registry = require('prismarine-registry')(spec.version)
const Chunk = require('./emitted').chunk(registry)
const World = require('prismarine-world')(registry)
const { pathfinder, Movements, goals } = require('mineflayer-pathfinder')

const world = new World(null).sync
for (const c of spec.columns) {
  const column = new Chunk({ minY: spec.minY, worldHeight: spec.height })
  column.load(fs.readFileSync(c.path))
  world.setColumn(c.x, c.z, column)
}

const bot = new EventEmitter()
bot.registry = registry
bot.version = spec.version
bot.world = world
bot.blockAt = (p) => world.getBlock(p)
bot.game = { minY: spec.minY, height: spec.height }
bot.entity = { position: new Vec3(0, 0, 0), onGround: true, height: 1.8, effects: {} }
bot.entities = {}
bot.inventory = { items: () => [] }
bot.controlState = {}
bot.setControlState = () => {}
bot.clearControlStates = () => {}
pathfinder(bot)

function movements () {
  const m = new Movements(bot)
  m.canDig = false
  m.allow1by1towers = false
  m.scafoldingBlocks = []
  m.allowEntityDetection = false
  return m
}

function search (route) {
  const m = movements()
  const [sx, sy, sz] = route.start
  const goal = new goals.GoalNear(route.goal[0], route.goal[1], route.goal[2], route.range)
  const t0 = performance.now()
  const c0 = process.cpuUsage()
  const gen = bot.pathfinder.getPathFromTo(m, new Vec3(sx + 0.5, sy, sz + 0.5), goal, { timeout: 60000, tickTimeout: 60000 })
  let result
  for (const step of gen) result = step.result
  const c1 = process.cpuUsage(c0)
  return { ms: performance.now() - t0, cpuMs: (c1.user + c1.system) / 1000, result }
}

function median (xs) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

for (const route of spec.routes) {
  const cold = search(route)
  const warm = []
  const warmCpu = []
  for (let i = 0; i < spec.rounds; i++) {
    const w = search(route)
    warm.push(w.ms)
    warmCpu.push(w.cpuMs)
  }
  // Heap: what one search allocates (the growth of the heap over it,
  // about all of it when no collection runs meanwhile) and what its
  // result holds afterwards (the path and the A* context it returns).
  let allocated = 0
  let retained = 0
  if (global.gc) {
    const kept = []
    const n = 5
    for (let i = 0; i < n; i++) {
      global.gc()
      const before = process.memoryUsage().heapUsed
      kept.push(search(route))
      allocated += (process.memoryUsage().heapUsed - before) / n
    }
    global.gc()
    const before = process.memoryUsage().heapUsed
    kept.length = 0
    global.gc()
    retained = (before - process.memoryUsage().heapUsed) / n
  }
  const r = cold.result
  const start = new Vec3(...route.start)
  let length = 0
  let prev = start
  const path = []
  for (const p of r.path) {
    const q = new Vec3(Math.floor(p.x), Math.floor(p.y), Math.floor(p.z))
    length += Math.hypot(q.x - prev.x, q.y - prev.y, q.z - prev.z)
    path.push([q.x, q.y, q.z])
    prev = q
  }
  console.log(JSON.stringify({
    name: route.name,
    status: r.status,
    coldMs: cold.ms,
    warmMs: median(warm),
    warmCpuMs: median(warmCpu),
    cost: r.cost,
    visited: r.visitedNodes,
    generated: r.generatedNodes,
    steps: r.path.length,
    length,
    end: [prev.x, prev.y, prev.z],
    path,
    allocatedBytes: allocated,
    retainedBytes: retained
  }))
}
