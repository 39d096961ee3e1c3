'use strict'
// fluids.js: water flows as the game's does (GAME 1.21.4 FlowingFluid,
// WaterFluid, LiquidBlock), for the world the game made, whose lakes and
// ponds meet the holes players dig. flying-squid keeps water where it is.
//
//   - A block change schedules a fluid tick for the water at the changed
//     position and beside it (LiquidBlock.neighborChanged, onPlace): water
//     ticks every 5 game ticks (WaterFluid.getTickDelay).
//   - On its tick flowing water takes its new state from its neighbours
//     (FlowingFluid.getNewLiquid): falling water (amount 8) under water; a
//     source where two or more sources are beside it and the block below is
//     solid or a source (WaterFluid.canConvertToSource); otherwise the
//     largest neighbouring amount less one (the drop-off), or nothing.
//   - Then it spreads (FlowingFluid.spread): down when the block below can
//     take water (falling water there), and to the sides too when three or
//     more sources surround it; sideways only when it is a source or no
//     water hole is below: amount less one (7 from falling water), toward
//     the nearest way down within 4 blocks (getSpread, getSlopeDistance),
//     or every open side when there is none.
// Water fills air and the plants it washes away (short grass, flowers …;
// they drop nothing here). Sea grass and kelp are water sources that
// never change. Waterlogged blocks and lava are left out.
const { Vec3 } = require('vec3')

const TICK_DELAY = 5
const SLOPE_FIND_DISTANCE = 4
const WASHABLE = /^(short_grass|tall_grass|fern|large_fern|dandelion|poppy|blue_orchid|allium|azure_bluet|red_tulip|orange_tulip|white_tulip|pink_tulip|oxeye_daisy|cornflower|lily_of_the_valley|sunflower|lilac|rose_bush|peony|dead_bush|brown_mushroom|red_mushroom|.*_sapling|snow)$/
const WATER_PLANTS = /^(seagrass|tall_seagrass|kelp|kelp_plant|bubble_column)$/
const SIDES = [[1, 0], [-1, 0], [0, 1], [0, -1]]

module.exports = function fluids (ctx) {
  const { serv, registry } = ctx
  const Block = require('prismarine-block')(registry)
  const scheduled = new Map() // "x,y,z" → due tick

  const key = (p) => `${p.x},${p.y},${p.z}`
  const blockAt = (p) => ctx.blockAt(serv.overworld, p)

  // fluidAt is the block's fluid: { amount 0..8, source, falling }.
  function fluidAt (p) {
    const b = blockAt(p)
    if (!b) return { amount: 0 }
    if (WATER_PLANTS.test(b.name)) return { amount: 8, source: true, fixed: true }
    if (b.name !== 'water') return { amount: 0 }
    const level = Number(b.getProperties().level)
    if (level === 0) return { amount: 8, source: true }
    if (level >= 8) return { amount: 8, falling: true }
    return { amount: 8 - level }
  }

  // holds says whether water may take the place of the block (air, or a
  // plant it washes away).
  function canHold (p) {
    const b = blockAt(p)
    return !!b && (b.type === 0 || b.name === 'cave_air' || WASHABLE.test(b.name))
  }
  const isSolid = (p) => { const b = blockAt(p); return !!b && b.boundingBox === 'block' && b.name !== 'water' }

  function waterState (f) {
    if (!f.amount) return registry.blocksByName.air.defaultState
    const level = f.source ? 0 : (8 - Math.min(f.amount, 8)) + (f.falling ? 8 : 0)
    return Block.fromProperties('water', { level: String(level) }, 0).stateId
  }
  const same = (a, b) => (a.amount || 0) === (b.amount || 0) && !!a.source === !!b.source && !!a.falling === !!b.falling

  // getNewLiquid is FlowingFluid.getNewLiquid for water.
  function newLiquid (p) {
    let most = 0
    let sources = 0
    for (const [dx, dz] of SIDES) {
      const f = fluidAt(p.offset(dx, 0, dz))
      if (!f.amount) continue
      if (f.source) sources++
      most = Math.max(most, f.amount)
    }
    if (sources >= 2) {
      const below = p.offset(0, -1, 0)
      if (isSolid(below) || fluidAt(below).source) return { amount: 8, source: true }
    }
    if (fluidAt(p.offset(0, 1, 0)).amount) return { amount: 8, falling: true }
    const k = most - 1
    return k <= 0 ? { amount: 0 } : { amount: k }
  }

  // accepts says whether water may flow into p: a place it can hold, or
  // flowing water with less in it.
  function accepts (p, f) {
    if (canHold(p)) return true
    const there = fluidAt(p)
    return there.amount > 0 && !there.source && !there.fixed && there.amount < f.amount
  }

  // set changes the block now (the world's own set is asynchronous, and
  // the rest of the tick reads it) and through serv.setBlock, which tells
  // the players and the neighbours.
  function set (p, f) {
    const id = waterState(f)
    try { serv.overworld.sync.setBlockStateId(p, id) } catch (err) { return }
    serv.setBlock(serv.overworld, p, id)
  }

  function spreadTo (p, f) {
    if (!accepts(p, f) && !(fluidAt(p).amount && !fluidAt(p).source && f.falling)) return
    set(p, f)
  }

  function holeBelow (p) { return canHold(p.offset(0, -1, 0)) || (fluidAt(p.offset(0, -1, 0)).amount > 0 && !fluidAt(p.offset(0, -1, 0)).source) }

  // getSlopeDistance: how far, at most SLOPE_FIND_DISTANCE, water from p
  // must flow to find a way down.
  function slopeDistance (p, depth, fromDx, fromDz) {
    let best = 1000
    for (const [dx, dz] of SIDES) {
      if (dx === fromDx && dz === fromDz) continue
      const q = p.offset(dx, 0, dz)
      if (!canHold(q) && !(fluidAt(q).amount && !fluidAt(q).source)) continue
      if (holeBelow(q)) return depth
      if (depth < SLOPE_FIND_DISTANCE) best = Math.min(best, slopeDistance(q, depth + 1, -dx, -dz))
    }
    return best
  }

  function spreadToSides (p, f) {
    const amount = f.falling ? 7 : f.amount - 1
    if (amount <= 0) return
    const next = { amount }
    let best = 1000
    const ways = []
    for (const [dx, dz] of SIDES) {
      const q = p.offset(dx, 0, dz)
      if (!accepts(q, next)) continue
      const d = holeBelow(q) ? 0 : slopeDistance(q, 1, -dx, -dz)
      if (d < best) { best = d; ways.length = 0 }
      if (d <= best) ways.push(q)
    }
    for (const q of ways) spreadTo(q, next)
  }

  function sourceNeighbours (p) {
    let n = 0
    for (const [dx, dz] of SIDES) if (fluidAt(p.offset(dx, 0, dz)).source) n++
    return n
  }

  // tick is FlowingFluid.tick.
  function tick (p) {
    let f = fluidAt(p)
    if (f.fixed) return
    if (f.amount && !f.source) {
      const n = newLiquid(p)
      if (!n.amount) {
        set(p, n)
        return
      }
      if (!same(n, f)) {
        set(p, n)
        f = n
      }
    }
    if (!f.amount) return
    const below = p.offset(0, -1, 0)
    if (accepts(below, { amount: 8 }) || (fluidAt(below).amount && !fluidAt(below).source)) {
      spreadTo(below, { amount: 8, falling: true })
      if (sourceNeighbours(p) >= 3) spreadToSides(p, f)
      return
    }
    if (f.source || !holeBelow(p)) spreadToSides(p, f)
  }

  function schedule (p) {
    const k = key(p)
    if (!scheduled.has(k)) scheduled.set(k, ctx.ticks + TICK_DELAY)
  }

  // Every block change in the overworld schedules the water at it and
  // beside it (neighbour updates). flying-squid's world plugin defines
  // serv.setBlock only once its world folder is read, after this plugin
  // is installed, so the wrapper goes on at the first tick (and again
  // should anything replace it).
  let wrapped = null
  function wrap () {
    if (!serv.setBlock || serv.setBlock === wrapped) return
    const setBlock = serv.setBlock
    wrapped = serv.setBlock = async (world, position, stateId) => {
      const done = setBlock(world, position, stateId)
      if (world === serv.overworld) {
        const p = new Vec3(position.x, position.y, position.z)
        for (const q of [p, p.offset(1, 0, 0), p.offset(-1, 0, 0), p.offset(0, 1, 0), p.offset(0, -1, 0), p.offset(0, 0, 1), p.offset(0, 0, -1)]) {
          const f = fluidAt(q)
          if (f.amount && !f.fixed) schedule(q)
        }
      }
      return done
    }
  }
  wrap()

  return {
    tick () {
      wrap()
      const due = []
      for (const [k, t] of scheduled) if (t <= ctx.ticks) due.push(k)
      for (const k of due) {
        scheduled.delete(k)
        const [x, y, z] = k.split(',').map(Number)
        tick(new Vec3(x, y, z))
      }
    },
    pending: () => scheduled.size
  }
}
