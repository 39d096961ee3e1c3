'use strict'
// gameworld.js: a world the game generated, ready for flying-squid.
//
//   node gameworld.js prepare '{"version":"1.21.4","folder":"/tmp/w"}'
//
// The world is the region file prismarine-provider-anvil ships as a test
// fixture (test/fixtures/1.21.1/r.0.0.mca: saved by the game at 1.21.1,
// data version 3955). prepare writes <folder>/region/r.0.0.mca for the
// version asked for and surveys it:
//
//   - at 1.21.1 the region is copied as it is;
//   - at 1.21.3 and 1.21.4 every block state of every section's palette is
//     converted by name and properties: the state's name and properties are
//     looked up in the target version's registry (prismarine-registry,
//     prismarine-block), the state it names is read back, and the conversion
//     fails unless that state has exactly the same name and properties (no
//     property dropped, none filled in by default, no value the target does
//     not know). Biomes are checked by name the same way. The palette
//     indexes (the packed data) do not change, since the palette entries
//     map one to one; the chunk's DataVersion becomes the target's. The
//     server's provider then maps each name to the target's state id as it
//     loads the chunk.
//
// Then it surveys the written region as prismarine-chunk reads it at that
// version (the server's own reading) and writes:
//   <folder>/facts.json   the facts tests need (printed on stdout too):
//       the land (the chunks that hold blocks), the spawn, trees, lakes,
//       caves, exposed and buried ores, block counts, each column's surface
//   <folder>/blocks.bin   every block state of the land, uint16 big-endian,
//       index ((y - minY) * depth + (z - minZ)) * width + (x - minX)
//   <folder>/states.json  state id → "name[prop=value,…]" for the ids used
// Nothing here is typed in: every fact is found by reading the region.
const fs = require('fs')
const path = require('path')
const nbt = require('prismarine-nbt')
const RegionFile = require('prismarine-provider-anvil/src/region')

const SOURCE_VERSION = '1.21.1'
const SOURCE = path.join(__dirname, 'node_modules', 'prismarine-provider-anvil', 'test', 'fixtures', SOURCE_VERSION, 'r.0.0.mca')
const VERSIONS = ['1.21.1', '1.21.3', '1.21.4']
const MIN_Y = -64
const HEIGHT = 384

function stateKey (name, props) {
  const keys = Object.keys(props || {}).sort()
  return keys.length ? `${name}[${keys.map(k => `${k}=${props[k]}`).join(',')}]` : name
}

// convertPaletteEntry is one palette entry ({Name, Properties} as NBT)
// converted into the target registry's canonical form, or an error naming
// what does not carry over.
function converter (target) {
  const Block = require('prismarine-block')(target)
  const cache = new Map()
  return function convert (entry) {
    const name = entry.Name.replace(/^minecraft:/, '')
    const props = entry.Properties || {}
    const key = stateKey(name, props)
    if (cache.has(key)) return cache.get(key)
    const def = target.blocksByName[name]
    if (!def) throw new Error(`${key}: ${target.version.minecraftVersion} has no block ${name}`)
    const states = def.states || []
    for (const [k, v] of Object.entries(props)) {
      const st = states.find(s => s.name === k)
      if (!st) throw new Error(`${key}: ${target.version.minecraftVersion}'s ${name} has no property ${k}`)
      if (st.values && !st.values.includes(String(v))) throw new Error(`${key}: ${target.version.minecraftVersion}'s ${name}.${k} has no value ${v}`)
    }
    for (const st of states) {
      if (!(st.name in props)) throw new Error(`${key}: ${target.version.minecraftVersion}'s ${name} has the property ${st.name}, which the source state does not give`)
    }
    const b = Block.fromProperties(name, props, 0)
    const back = Block.fromStateId(b.stateId, 0)
    const got = Object.fromEntries(Object.entries(back.getProperties()).map(([k, v]) => [k, String(v)]))
    const want = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, String(v)]))
    if (back.name !== name || stateKey(name, got) !== stateKey(name, want)) {
      throw new Error(`${key}: ${target.version.minecraftVersion} reads its state ${b.stateId} back as ${stateKey(back.name, got)}`)
    }
    const out = { name, props: want, stateId: b.stateId, key }
    cache.set(key, out)
    return out
  }
}

// convertChunk rewrites one chunk's NBT (as read, not simplified) for the
// target registry, in place; returns the distinct states it converted.
function convertChunk (tag, target, convert, seen) {
  const v = tag.value
  v.DataVersion = nbt.int(target.version.dataVersion)
  for (const section of v.sections.value.value) {
    const palette = section.block_states.value.palette.value.value
    for (let i = 0; i < palette.length; i++) {
      const simple = nbt.simplify({ type: 'compound', value: palette[i] })
      const c = convert(simple)
      seen.set(c.key, c)
      const entry = { Name: nbt.string('minecraft:' + c.name) }
      if (Object.keys(c.props).length) {
        entry.Properties = nbt.comp(Object.fromEntries(Object.entries(c.props).map(([k, val]) => [k, nbt.string(val)])))
      }
      palette[i] = entry
    }
    for (const b of section.biomes.value.palette.value.value) {
      const name = b.replace(/^minecraft:/, '')
      if (!target.biomesByName[name]) throw new Error(`biome ${name}: ${target.version.minecraftVersion} has no such biome`)
    }
  }
}

async function writeRegion (version, file) {
  const target = require('prismarine-registry')(version)
  const src = new RegionFile(SOURCE)
  await src.initialize()
  const report = { from: SOURCE_VERSION, to: version, dataVersion: target.version.dataVersion, states: 0, renumbered: 0 }
  if (version === SOURCE_VERSION) {
    await src.file.close()
    fs.copyFileSync(SOURCE, file)
    return report
  }
  const source = require('prismarine-registry')(SOURCE_VERSION)
  const SourceBlock = require('prismarine-block')(source)
  const convert = converter(target)
  const seen = new Map()
  const dst = new RegionFile(file)
  await dst.initialize()
  for (let x = 0; x < 32; x++) {
    for (let z = 0; z < 32; z++) {
      if (!src.hasChunk(x, z)) continue
      const tag = await src.read(x, z)
      convertChunk(tag, target, convert, seen)
      await dst.write(x, z, tag)
    }
  }
  await src.file.close()
  await dst.file.close()
  report.states = seen.size
  for (const c of seen.values()) {
    const from = SourceBlock.fromProperties(c.name, c.props, 0)
    if (from.stateId !== c.stateId) report.renumbered++
  }
  return report
}

// ---- the survey

const PLANTS = /^(short_grass|tall_grass|fern|large_fern|dandelion|poppy|blue_orchid|allium|azure_bluet|red_tulip|orange_tulip|white_tulip|pink_tulip|oxeye_daisy|cornflower|lily_of_the_valley|sunflower|lilac|rose_bush|peony|sugar_cane|seagrass|tall_seagrass|kelp|kelp_plant|glow_lichen|vine|dead_bush|brown_mushroom|red_mushroom|sweet_berry_bush|.*_sapling|lily_pad|snow)$/
const isAir = (n) => n === 'air' || n === 'cave_air' || n === 'void_air'
const isLeaves = (n) => n.endsWith('_leaves')
const isLog = (n) => /_(log|wood)$/.test(n) && !n.startsWith('stripped_')
const isFluid = (n) => n === 'water' || n === 'lava'

async function survey (version, folder) {
  const registry = require('prismarine-registry')(version)
  const Anvil = require('prismarine-provider-anvil').Anvil(registry)
  const Block = require('prismarine-block')(registry)
  const anvil = new Anvil(path.join(folder, 'region'))
  const region = await anvil.getRegion(0, 0)

  // The chunks that hold any block but air.
  const columns = new Map()
  const land = []
  for (let cx = 0; cx < 32; cx++) {
    for (let cz = 0; cz < 32; cz++) {
      if (!region.hasChunk(cx, cz)) continue
      const raw = nbt.simplify(await region.read(cx, cz))
      const solid = raw.sections.some(s => !(s.block_states.palette.length === 1 && /^minecraft:(cave_|void_)?air$/.test(s.block_states.palette[0].Name)))
      if (!solid) continue
      land.push([cx, cz])
      columns.set(cx + ',' + cz, await anvil.load(cx, cz))
    }
  }
  await anvil.close()
  if (!land.length) throw new Error('the region holds no blocks')
  const minCX = Math.min(...land.map(c => c[0]))
  const maxCX = Math.max(...land.map(c => c[0]))
  const minCZ = Math.min(...land.map(c => c[1]))
  const maxCZ = Math.max(...land.map(c => c[1]))
  const minX = minCX * 16
  const minZ = minCZ * 16
  const W = (maxCX - minCX + 1) * 16
  const D = (maxCZ - minCZ + 1) * 16

  // Every block's state id, and the names.
  const ids = new Uint16Array(W * D * HEIGHT)
  const index = (x, y, z) => ((y - MIN_Y) * D + (z - minZ)) * W + (x - minX)
  for (const [cx, cz] of land) {
    const col = columns.get(cx + ',' + cz)
    for (let y = MIN_Y; y < MIN_Y + HEIGHT; y++) {
      for (let z = 0; z < 16; z++) {
        for (let x = 0; x < 16; x++) {
          ids[index(cx * 16 + x, y, cz * 16 + z)] = col.getBlockStateId({ x, y, z })
        }
      }
    }
  }
  const stateText = new Map()
  const nameOf = new Map()
  for (const id of new Set(ids)) {
    const b = Block.fromStateId(id, 0)
    stateText.set(id, stateKey(b.name, Object.fromEntries(Object.entries(b.getProperties()).map(([k, v]) => [k, String(v)]))))
    nameOf.set(id, b.name)
  }
  const inLand = (x, y, z) => x >= minX && x < minX + W && z >= minZ && z < minZ + D && y >= MIN_Y && y < MIN_Y + HEIGHT
  const name = (x, y, z) => (inLand(x, y, z) ? nameOf.get(ids[index(x, y, z)]) : 'air')
  const state = (x, y, z) => (inLand(x, y, z) ? stateText.get(ids[index(x, y, z)]) : 'air')

  const counts = {}
  for (const id of ids) { const n = nameOf.get(id); counts[n] = (counts[n] || 0) + 1 }

  // The surface of each column: the highest block that is not air, a
  // plant, leaves or a log (the ground, or the top of water).
  const surface = new Int16Array(W * D)
  const top = new Int16Array(W * D)
  const col = (x, z) => (z - minZ) * W + (x - minX)
  for (let z = minZ; z < minZ + D; z++) {
    for (let x = minX; x < minX + W; x++) {
      let y = MIN_Y + HEIGHT - 1
      while (y > MIN_Y && isAir(name(x, y, z))) y--
      top[col(x, z)] = y
      while (y > MIN_Y && (isAir(name(x, y, z)) || PLANTS.test(name(x, y, z)) || isLeaves(name(x, y, z)) || isLog(name(x, y, z)))) y--
      surface[col(x, z)] = y
    }
  }
  const surfaceAt = (x, z) => surface[col(x, z)]
  const inColumns = (x, z) => x >= minX && x < minX + W && z >= minZ && z < minZ + D

  // Air that the sky reaches: flood fill from the air above the surface
  // through air and plants (what a player walks through).
  const passable = (n) => isAir(n) || PLANTS.test(n)
  const open = new Uint8Array(ids.length) // 1: air the sky reaches
  const queue = []
  for (let z = minZ; z < minZ + D; z++) {
    for (let x = minX; x < minX + W; x++) {
      for (let y = MIN_Y + HEIGHT - 1; y > surfaceAt(x, z); y--) {
        const n = name(x, y, z)
        if (passable(n)) { open[index(x, y, z)] = 1; queue.push(index(x, y, z)) }
      }
    }
  }
  const NB = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]
  const unindex = (i) => {
    const x = i % W
    const zy = (i - x) / W
    const z = zy % D
    const y = (zy - z) / D
    return [x + minX, y + MIN_Y, z + minZ]
  }
  while (queue.length) {
    const [x, y, z] = unindex(queue.pop())
    for (const [dx, dy, dz] of NB) {
      const nx = x + dx; const ny = y + dy; const nz = z + dz
      if (!inLand(nx, ny, nz)) continue
      const j = index(nx, ny, nz)
      if (open[j] || !passable(name(nx, ny, nz))) continue
      open[j] = 1
      queue.push(j)
    }
  }

  // The spawn: a grass block with room for a player above it and the sky
  // over it, with a tree trunk within a few blocks and the lake near,
  // nearest the middle of the land. Found below, once trees and lakes are.

  // Trees: logs joined face, edge or corner to corner (an oak's branches
  // meet its trunk at an edge), each tree by its lowest log.
  const AROUND = []
  for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) if (dx || dy || dz) AROUND.push([dx, dy, dz])
  const treeSeen = new Uint8Array(ids.length)
  const trees = []
  for (let i = 0; i < ids.length; i++) {
    if (treeSeen[i] || !isLog(nameOf.get(ids[i]))) continue
    const stack = [i]
    treeSeen[i] = 1
    const logs = []
    while (stack.length) {
      const j = stack.pop()
      logs.push(unindex(j))
      const [x, y, z] = unindex(j)
      for (const [dx, dy, dz] of AROUND) {
        if (!inLand(x + dx, y + dy, z + dz)) continue
        const k = index(x + dx, y + dy, z + dz)
        if (treeSeen[k] || !isLog(nameOf.get(ids[k]))) continue
        treeSeen[k] = 1
        stack.push(k)
      }
    }
    logs.sort((a, b) => a[1] - b[1] || a[0] - b[0] || a[2] - b[2])
    const base = logs[0]
    const kinds = {}
    for (const l of logs) { const n = name(...l); kinds[n] = (kinds[n] || 0) + 1 }
    const kind = Object.entries(kinds).sort((a, b) => b[1] - a[1])[0][0]
    trees.push({
      kind,
      base,
      top: Math.max(...logs.map(l => l[1])),
      logs: logs.length,
      ground: name(base[0], base[1] - 1, base[2])
    })
  }

  // Water bodies: water joined face to face, from the water at the
  // surface; the largest first.
  const waterSeen = new Uint8Array(ids.length)
  const lakes = []
  for (let z = minZ; z < minZ + D; z++) {
    for (let x = minX; x < minX + W; x++) {
      const y = surfaceAt(x, z)
      if (name(x, y, z) !== 'water' || waterSeen[index(x, y, z)]) continue
      const stack = [index(x, y, z)]
      waterSeen[stack[0]] = 1
      let blocks = 0; let sources = 0
      const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]
      const surfaceCols = []
      while (stack.length) {
        const j = stack.pop()
        const p = unindex(j)
        blocks++
        if (/level=0\]/.test(stateText.get(ids[j]))) sources++
        for (let a = 0; a < 3; a++) { box[a] = Math.min(box[a], p[a]); box[a + 3] = Math.max(box[a + 3], p[a]) }
        if (p[1] === surfaceAt(p[0], p[2])) surfaceCols.push(p)
        for (const [dx, dy, dz] of NB) {
          const q = [p[0] + dx, p[1] + dy, p[2] + dz]
          if (!inLand(...q)) continue
          const k = index(...q)
          if (waterSeen[k] || name(...q) !== 'water') continue
          waterSeen[k] = 1
          stack.push(k)
        }
      }
      lakes.push({ blocks, sources, surfaceY: box[4], min: box.slice(0, 3), max: box.slice(3), surfaceColumns: surfaceCols.length, deepest: box[1], cells: surfaceCols })
    }
  }
  lakes.sort((a, b) => b.blocks - a.blocks)

  // A column a player can stand on: the surface is a full block (not
  // water, lava or leaves), the two blocks above it are passable, and
  // nothing but air is over them.
  const standable = (x, z) => {
    if (!inColumns(x, z)) return false
    const y = surfaceAt(x, z)
    const n = name(x, y, z)
    return !isFluid(n) && !isAir(n) && passable(name(x, y + 1, z)) && passable(name(x, y + 2, z))
  }
  const skyOver = (x, z) => top[col(x, z)] <= surfaceAt(x, z) + 1

  // The spawn.
  const midX = minX + W / 2; const midZ = minZ + D / 2
  const lake = lakes[0]
  const lakeCols = lake ? lake.cells : []
  let spawn = null; let best = Infinity
  for (let z = minZ + 8; z < minZ + D - 8; z++) {
    for (let x = minX + 8; x < minX + W - 8; x++) {
      if (!standable(x, z) || !skyOver(x, z) || name(x, surfaceAt(x, z), z) !== 'grass_block') continue
      const y = surfaceAt(x, z)
      // a flat spot: the eight around are standable within one block
      let flat = true
      for (let dx = -1; dx <= 1 && flat; dx++) for (let dz = -1; dz <= 1 && flat; dz++) if (!standable(x + dx, z + dz) || Math.abs(surfaceAt(x + dx, z + dz) - y) > 1) flat = false
      if (!flat) continue
      const treeD = Math.min(...trees.filter(t => /oak_log/.test(t.kind)).map(t => Math.hypot(t.base[0] - x, t.base[2] - z)))
      if (treeD < 3 || treeD > 6) continue
      let lakeD = Infinity
      for (const c of lakeCols) lakeD = Math.min(lakeD, Math.hypot(c[0] - x, c[2] - z))
      if (lakeD < 4 || lakeD > 16) continue
      const d = Math.hypot(x - midX, z - midZ)
      if (d < best) { best = d; spawn = [x, y + 1, z] }
    }
  }
  if (!spawn) throw new Error('no spawn: no grass block with the sky over it within 6 blocks of an oak and 16 of the lake')
  const dist = (p) => Math.hypot(p[0] + 0.5 - (spawn[0] + 0.5), p[1] - spawn[1], p[2] + 0.5 - (spawn[2] + 0.5))
  const flatDist = (p) => Math.hypot(p[0] - spawn[0], p[2] - spawn[2])
  for (const t of trees) t.distance = round(flatDist(t.base))
  trees.sort((a, b) => a.distance - b.distance)
  for (const l of lakes) {
    let nearest = null; let nd = Infinity
    for (const c of l.cells) { const d = flatDist(c); if (d < nd) { nd = d; nearest = c } }
    l.nearest = nearest
    l.distance = round(nd)
    // the shore: the standable column next to the nearest water surface
    let shore = null; let sd = Infinity
    for (const c of l.cells) {
      for (const [dx, , dz] of NB) {
        const x = c[0] + dx; const z = c[2] + dz
        if (!standable(x, z)) continue
        const d = flatDist([x, 0, z])
        if (d < sd) { sd = d; shore = [x, surfaceAt(x, z) + 1, z] }
      }
    }
    l.shore = shore
    delete l.cells
  }

  // Ores and gravel: each block, whether a face touches air (exposed) and
  // whether that air is open to the sky (a player walking the surface and
  // its open caves can reach it).
  const ORES = ['coal_ore', 'iron_ore', 'copper_ore', 'gold_ore', 'redstone_ore', 'lapis_ore', 'diamond_ore']
  const wanted = new Set(['gravel', ...ORES, ...ORES.map(o => 'deepslate_' + o)])
  const ores = {}
  for (let i = 0; i < ids.length; i++) {
    const n = nameOf.get(ids[i])
    if (!wanted.has(n)) continue
    const p = unindex(i)
    let exposed = null; let sky = null
    for (const [dx, dy, dz] of NB) {
      const q = [p[0] + dx, p[1] + dy, p[2] + dz]
      if (!inLand(...q) || !isAir(name(...q))) continue
      exposed = exposed || q
      if (open[index(...q)]) { sky = q; break }
    }
    const o = ores[n] || (ores[n] = { count: 0, exposed: 0, open: 0, nearestOpen: null, nearestExposed: null, nearestBuried: null })
    o.count++
    const entry = { position: p, distance: round(dist(p)), depth: surfaceAt(p[0], p[2]) - p[1] }
    const better = (cur) => !cur || entry.distance < cur.distance
    if (exposed) o.exposed++
    if (sky) { o.open++; if (better(o.nearestOpen)) o.nearestOpen = Object.assign({ air: sky }, entry) }
    if (exposed && better(o.nearestExposed)) o.nearestExposed = Object.assign({ air: exposed }, entry)
    if (!exposed && better(o.nearestBuried)) o.nearestBuried = entry
  }

  // Caves: air below the surface, joined face to face; open when the sky's
  // air reaches it. The largest first, with the entrance nearest the spawn.
  const caveSeen = new Uint8Array(ids.length)
  const caves = []
  for (let i = 0; i < ids.length; i++) {
    if (caveSeen[i] || !isAir(nameOf.get(ids[i]))) continue
    const p0 = unindex(i)
    if (p0[1] >= surfaceAt(p0[0], p0[2])) continue
    const stack = [i]
    caveSeen[i] = 1
    let blocks = 0
    const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]
    let entrance = null; let ed = Infinity; let openCells = 0
    let nearest = null; let nd = Infinity
    while (stack.length) {
      const j = stack.pop()
      const p = unindex(j)
      blocks++
      if (dist(p) < nd) { nd = dist(p); nearest = p }
      if (open[j]) {
        openCells++
        const d = dist(p)
        if (d < ed) { ed = d; entrance = p }
      }
      for (let a = 0; a < 3; a++) { box[a] = Math.min(box[a], p[a]); box[a + 3] = Math.max(box[a + 3], p[a]) }
      for (const [dx, dy, dz] of NB) {
        const q = [p[0] + dx, p[1] + dy, p[2] + dz]
        if (!inLand(...q)) continue
        const k = index(...q)
        if (caveSeen[k] || !isAir(name(...q)) || q[1] >= surfaceAt(q[0], q[2])) continue
        caveSeen[k] = 1
        stack.push(k)
      }
    }
    caves.push({ blocks, min: box.slice(0, 3), max: box.slice(3), open: openCells > 0, entrance, nearest, distance: round(nd) })
  }
  caves.sort((a, b) => b.blocks - a.blocks)

  // Files: the blocks and their states, and the facts.
  const states = {}
  for (const [id, text] of stateText) states[id] = text
  const buf = Buffer.alloc(ids.length * 2)
  for (let i = 0; i < ids.length; i++) buf.writeUInt16BE(ids[i], i * 2)
  fs.writeFileSync(path.join(folder, 'blocks.bin'), buf)
  fs.writeFileSync(path.join(folder, 'states.json'), JSON.stringify(states))

  const surfaceNames = []
  const surfaceBlock = []
  for (let z = minZ; z < minZ + D; z++) {
    for (let x = minX; x < minX + W; x++) {
      const n = name(x, surfaceAt(x, z), z)
      let k = surfaceNames.indexOf(n)
      if (k < 0) { k = surfaceNames.length; surfaceNames.push(n) }
      surfaceBlock.push(k)
    }
  }
  return {
    version,
    minY: MIN_Y,
    height: HEIGHT,
    land: { minX, minZ, maxX: minX + W - 1, maxZ: minZ + D - 1, chunks: land },
    spawn,
    trees,
    lakes: lakes.slice(0, 8),
    caves: caves.slice(0, 8),
    caveCount: caves.length,
    ores,
    counts,
    surface: { y: Array.from(surface), top: Array.from(top), names: surfaceNames, block: surfaceBlock },
    _state: state
  }
}

function round (n) { return Math.round(n * 100) / 100 }

async function prepare ({ version, folder }) {
  if (!VERSIONS.includes(version)) throw new Error(`the game-made world is served at ${VERSIONS.join(', ')}, not ${version}`)
  fs.mkdirSync(path.join(folder, 'region'), { recursive: true })
  const conversion = await writeRegion(version, path.join(folder, 'region', 'r.0.0.mca'))
  const facts = await survey(version, folder)
  delete facts._state
  facts.source = path.relative(__dirname, SOURCE)
  facts.conversion = conversion
  fs.writeFileSync(path.join(folder, 'facts.json'), JSON.stringify(facts))
  return facts
}

module.exports = { prepare, survey, SOURCE, SOURCE_VERSION, VERSIONS }

if (require.main === module) {
  const [mode, arg] = process.argv.slice(2)
  if (mode !== 'prepare') {
    console.error('usage: node gameworld.js prepare \'{"version":"1.21.4","folder":"/tmp/w"}\'')
    process.exit(2)
  }
  prepare(JSON.parse(arg || '{}')).then((facts) => {
    process.stdout.write(JSON.stringify(facts) + '\n')
  }, (err) => {
    console.error(err && err.stack ? err.stack : err)
    process.exit(1)
  })
}
