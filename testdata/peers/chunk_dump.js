'use strict'
// chunk_dump.js builds and reads chunk data packets with prismarine-chunk
// (what flying-squid serves and mineflayer reads), for bot/world's
// differential test and benchmark.
//
//   node chunk_dump.js make <dir> <version>...
//     builds chunks of every palette kind for each version with
//     prismarine-chunk, serializes each as a map_chunk packet with
//     minecraft-protocol (packet id + body) into <dir>/<version>-<case>.bin,
//     and prints one JSON line per file: {version, name, path, minY, height}.
//   node chunk_dump.js read <list.json>
//     for each {version, path, minY, height} of the list, parses the packet
//     with minecraft-protocol, loads its chunk data into a prismarine-chunk
//     column and writes what prismarine-chunk reads: <path>.states (every
//     block state, uint16 little-endian, section by section, y<<8|z<<4|x)
//     and <path>.biomes (every 4×4×4 cell's biome, uint16, section by
//     section, y<<4|z<<2|x); prints one JSON line per packet with x, z,
//     the sections' counts, the block entities and the heightmap types.
//   node chunk_dump.js bench <list.json> <rounds>
//     times prismarine-chunk's load over the packets' chunk data, and the
//     whole of what mineflayer does per map_chunk (parse the packet, load,
//     load the light), and measures the heap one loaded column costs.
require('./emitted') // the emitted releases (26.2), from testdata/peers/mcdata
const fs = require('fs')
const path = require('path')
const mc = require('minecraft-protocol')
const nbt = require('prismarine-nbt')

const [mode, ...args] = process.argv.slice(2)

function rng (seed) { // mulberry32: the same chunks on every run
  return () => {
    seed |= 0; seed = seed + 0x6D2B79F5 | 0
    let t = Math.imul(seed ^ seed >>> 15, 1 | seed)
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t
    return ((t ^ t >>> 14) >>> 0) / 4294967296
  }
}

function packetCodecs (version) {
  return {
    serializer: mc.createSerializer({ state: 'play', isServer: true, version }),
    deserializer: mc.createDeserializer({ state: 'play', isServer: false, version })
  }
}

function make (dir, versions) {
  for (const version of versions) {
    const registry = require('prismarine-registry')(version)
    const Chunk = require('./emitted').chunk(registry)
    const { serializer } = packetCodecs(version)
    const numStates = Math.max(...registry.blocksArray.map(b => b.maxStateId)) + 1
    const biomeIds = registry.biomesArray.map(b => b.id)
    const random = rng(1234)
    const pick = (list) => list[Math.floor(random() * list.length)]
    const someStates = (n) => Array.from({ length: n }, () => Math.floor(random() * numStates))
    const arrayHeightmaps = registry.version['>=']('1.21.5')
    // 1.21.5–1.21.8 send a heightmap's type as a bare VarInt; later
    // versions' protocol.json maps the numbers to names.
    const namedHeightmaps = JSON.stringify(registry.protocol.play.toClient.types.packet_map_chunk).includes('motion_blocking')
    const heightmapType = (name, number) => namedHeightmaps ? name : number

    // Each case fills a column: fill(chunk, minY, height).
    const cases = {
      air: { fill: () => {} },
      flat: {
        fill: (c, minY) => {
          const ids = ['bedrock', 'stone', 'dirt', 'grass_block'].map(n => registry.blocksByName[n].defaultState)
          for (let y = minY; y < 64; y++) {
            const s = y === minY ? ids[0] : y < 60 ? ids[1] : y < 63 ? ids[2] : ids[3]
            for (let x = 0; x < 16; x++) for (let z = 0; z < 16; z++) c.setBlockStateId({ x, y, z }, s)
          }
        }
      },
      // An overworld column as a world generator makes it: bedrock,
      // deepslate and stone with ores and caves, dirt, grass, a tree,
      // water where the ground is low, and sky light above the ground
      // (the light arrays a real server sends).
      terrain: {
        fill: (c, minY, height) => {
          const S = n => registry.blocksByName[n].defaultState
          const base = 58 + Math.floor(random() * 10)
          for (let x = 0; x < 16; x++) {
            for (let z = 0; z < 16; z++) {
              const top = base + ((x * 7 + z * 3) % 4)
              for (let y = minY; y <= Math.max(top, 62); y++) {
                let s
                const r = random()
                if (y === minY) s = S('bedrock')
                else if (y > top) s = S('water')
                else if (y < 0) s = r < 0.01 ? S('deepslate_iron_ore') : r < 0.013 ? S('deepslate_diamond_ore') : r < 0.04 ? S('air') : S('deepslate')
                else if (y < top - 3) s = r < 0.012 ? S('coal_ore') : r < 0.018 ? S('iron_ore') : r < 0.04 ? S('air') : S('stone')
                else if (y < top) s = S('dirt')
                else s = S('grass_block')
                c.setBlockStateId({ x, y, z }, s)
              }
              for (let y = Math.max(top, 62) + 1; y < minY + height; y++) c.setSkyLight({ x, y, z }, 15)
            }
          }
          const ground = base + 3
          for (let y = ground + 1; y < ground + 6; y++) c.setBlockStateId({ x: 8, y, z: 8 }, S('oak_log'))
          for (let x = 6; x <= 10; x++) for (let z = 6; z <= 10; z++) for (let y = ground + 4; y < ground + 7; y++) {
            if (x !== 8 || z !== 8) c.setBlockStateId({ x, y, z }, S('oak_leaves'))
          }
        },
        biomes: 2
      },
      // Indirect palettes of 4, 6 and 8 bits and biome palettes of 1–3 bits.
      noise4: { states: 10, biomes: 2 },
      noise6: { states: 40, biomes: 4 },
      noise8: { states: 200, biomes: 7 },
      // More than 256 states: the global palette.
      direct: { states: 400, biomes: 1 },
      // Sections of every kind in one column, block entities and light.
      mixed: { mixed: true },
      // The nether's 256-block height.
      nether: { states: 12, biomes: 3, minY: 0, height: 256 }
    }
    for (const [name, spec] of Object.entries(cases)) {
      const minY = spec.minY ?? -64
      const height = spec.height ?? 384
      const chunk = new Chunk({ minY, worldHeight: height })
      const x = Math.floor(random() * 200) - 100
      const z = Math.floor(random() * 200) - 100
      if (spec.fill) spec.fill(chunk, minY, height)
      const sections = height >> 4
      for (let s = 0; s < sections; s++) {
        let states = spec.states
        let biomes = spec.biomes
        if (spec.mixed) {
          // air, one state, 4 bits, 5 bits, 8 bits, global, repeat
          states = [0, 1, 9, 20, 150, 300][s % 6]
          biomes = [1, 2, 5][s % 3]
        }
        if (states) {
          const palette = someStates(states)
          if (states === 1) palette[0] = registry.blocksByName.stone.defaultState
          for (let i = 0; i < 4096; i++) {
            const p = { x: i & 15, y: minY + s * 16 + (i >> 8), z: (i >> 4) & 15 }
            // Every palette entry is used at least once; the rest at random.
            chunk.setBlockStateId(p, i < palette.length ? palette[i] : pick(palette))
          }
        }
        if (biomes) {
          const palette = Array.from({ length: biomes }, () => pick(biomeIds))
          for (let i = 0; i < 64; i++) {
            const p = { x: (i & 3) * 4, y: minY + s * 16 + (i >> 4) * 4, z: ((i >> 2) & 3) * 4 }
            chunk.setBiome(p, i < palette.length ? palette[i] : pick(palette))
          }
        }
        if (spec.mixed && s % 2 === 0) {
          for (let i = 0; i < 40; i++) chunk.setSkyLight({ x: i % 16, y: minY + s * 16 + (i % 16), z: (i * 7) % 16 }, 15)
        }
      }
      const blockEntities = []
      if (spec.mixed) {
        blockEntities.push({ x: 3, z: 12, y: 70, type: 7, nbtData: nbt.comp({ Items: nbt.list(nbt.comp([])), id: nbt.string('minecraft:chest') }) })
        blockEntities.push({ x: 15, z: 0, y: -60, type: 8, nbtData: undefined })
      }
      const heightmaps = arrayHeightmaps
        ? [{ type: heightmapType('motion_blocking', 4), data: new Array(37).fill([0, 0x41]) }, { type: heightmapType('world_surface', 1), data: new Array(37).fill([0, 7]) }]
        : nbt.comp({ MOTION_BLOCKING: nbt.longArray(new Array(37).fill([0, 0x41])), WORLD_SURFACE: nbt.longArray(new Array(37).fill([0, 7])) })
      const buf = serializer.createPacketBuffer({
        name: 'map_chunk',
        params: { x, z, heightmaps, chunkData: chunk.dump(), blockEntities, ...chunk.dumpLight() }
      })
      const file = path.join(dir, `${version}-${name}.bin`)
      fs.writeFileSync(file, buf)
      process.stdout.write(JSON.stringify({ version, name, path: file, minY, height }) + '\n')
    }
  }
}

function read (list) {
  for (const item of list) {
    const registry = require('prismarine-registry')(item.version)
    const Chunk = require('./emitted').chunk(registry)
    const { deserializer } = packetCodecs(item.version)
    const packet = deserializer.parsePacketBuffer(fs.readFileSync(item.path)).data
    if (packet.name !== 'map_chunk') throw new Error(`${item.path} is a ${packet.name} packet`)
    const p = packet.params
    const column = new Chunk({ minY: item.minY, worldHeight: item.height })
    column.load(p.chunkData)
    const sections = item.height >> 4
    const states = new Uint16Array(sections * 4096)
    const biomes = new Uint16Array(sections * 64)
    for (let s = 0; s < sections; s++) {
      for (let i = 0; i < 4096; i++) {
        states[s * 4096 + i] = column.getBlockStateId({ x: i & 15, y: item.minY + s * 16 + (i >> 8), z: (i >> 4) & 15 })
      }
      for (let i = 0; i < 64; i++) {
        biomes[s * 64 + i] = column.getBiome({ x: (i & 3) * 4, y: item.minY + s * 16 + (i >> 4) * 4, z: ((i >> 2) & 3) * 4 })
      }
    }
    fs.writeFileSync(item.path + '.states', Buffer.from(states.buffer))
    fs.writeFileSync(item.path + '.biomes', Buffer.from(biomes.buffer))
    process.stdout.write(JSON.stringify({
      path: item.path,
      x: p.x,
      z: p.z,
      counts: column.sections.map(s => [s.solidBlockCount, s.fluidCount ?? 0]),
      blockEntities: (p.blockEntities || []).map(e => ({ x: e.x, y: e.y, z: e.z, type: e.type, nbt: e.nbtData !== undefined && e.nbtData !== null })),
      heightmaps: Array.isArray(p.heightmaps) ? p.heightmaps.map(h => h.type) : Object.keys(p.heightmaps?.value || {})
    }) + '\n')
  }
}

function bench (list, rounds) {
  const loaded = list.map(item => {
    const registry = require('prismarine-registry')(item.version)
    const { deserializer } = packetCodecs(item.version)
    const raw = fs.readFileSync(item.path)
    return { item, raw, deserializer, Chunk: require('./emitted').chunk(registry), params: deserializer.parsePacketBuffer(raw).data.params }
  })
  const time = (fn) => {
    for (let i = 0; i < 3; i++) fn() // warm up the JIT
    const start = process.hrtime.bigint()
    for (let r = 0; r < rounds; r++) fn()
    return Number(process.hrtime.bigint() - start) / (rounds * loaded.length)
  }
  const loadNs = time(() => {
    for (const l of loaded) new l.Chunk({ minY: l.item.minY, worldHeight: l.item.height }).load(l.params.chunkData)
  })
  const mineflayerNs = time(() => {
    for (const l of loaded) {
      const p = l.deserializer.parsePacketBuffer(l.raw).data.params
      const c = new l.Chunk({ minY: l.item.minY, worldHeight: l.item.height })
      c.load(p.chunkData)
      c.loadParsedLight(p.skyLight, p.blockLight, p.skyLightMask, p.blockLightMask, p.emptySkyLightMask, p.emptyBlockLightMask)
    }
  })
  // Heap per loaded column: keep many columns alive and compare the heap.
  const columns = 441
  // A collector to call between measurements, without --expose-gc on the
  // command line.
  require('v8').setFlagsFromString('--expose-gc')
  const gc = require('vm').runInNewContext('gc')
  const heap = (withLight) => {
    gc(); gc()
    const before = process.memoryUsage()
    const keep = []
    for (let i = 0; i < columns; i++) {
      const l = loaded[i % loaded.length]
      const c = new l.Chunk({ minY: l.item.minY, worldHeight: l.item.height })
      c.load(l.params.chunkData)
      if (withLight) c.loadParsedLight(l.params.skyLight, l.params.blockLight, l.params.skyLightMask, l.params.blockLightMask, l.params.emptySkyLightMask, l.params.emptyBlockLightMask)
      keep.push(c)
    }
    gc(); gc()
    const after = process.memoryUsage()
    const bytes = (after.heapUsed - before.heapUsed) + (after.arrayBuffers - before.arrayBuffers)
    return { bytes: bytes / columns, keep: keep.length }
  }
  process.stdout.write(JSON.stringify({
    loadNsPerChunk: loadNs,
    mineflayerNsPerChunk: mineflayerNs,
    bytesPerColumn: heap(false).bytes,
    bytesPerColumnWithLight: heap(true).bytes
  }) + '\n')
}

if (mode === 'make') make(args[0], args.slice(1))
else if (mode === 'read') read(JSON.parse(fs.readFileSync(args[0], 'utf8')))
else if (mode === 'bench') bench(JSON.parse(fs.readFileSync(args[0], 'utf8')), Number(args[1] || 20))
else throw new Error('usage: chunk_dump.js make|read|bench …')
