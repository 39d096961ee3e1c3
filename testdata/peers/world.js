'use strict'
// world.js is the small world mpserver.js serves: an overworld of layers
// (bedrock, stone, dirt, grass) with a few things on it, kept as
// prismarine-chunk columns so that commands can change blocks and the chunks
// sent afterwards show the change.
//
// Chunk data is written by prismarine-chunk 1.41.0, which knows each
// version's layout (1.21.5 dropped the length prefix of paletted data; 26.1
// counts fluid blocks per section). Heightmaps and sky light are computed
// here, in the vanilla layout: they are simple (sky light is 15 above a
// column's highest motion-blocking block and 0 at and below it; there is no
// block light) but they are what a client would read.
//
// Near the spawn (0.5, 64, 0.5) stand, in absolute block coordinates:
//   oak trees     trunks oak_log[axis=y] at (5, 64..68, 5) and (21, 64..68, -11)
//   water         a pool at x -6..-3, z -6..-3 (y 63, and y 62 in its middle), sand around it
//   a slab        oak_slab[type=bottom] at (3, 64, -3)
//   stairs        oak_stairs[facing=north] at (4, 64, -3)
//   ores          coal_ore at (2, 59, 2) and (3, 59, 2); iron_ore at (-2, 57..58, -1);
//                 an exposed iron_ore at (-8, 63, 0)
// and, for decoders rather than players, two blocks of block samples high
// in the sky: the default states of the first 40 blocks of the registry at
// x -16..-1, y 100, z 16..18 (a section whose palette needs 6 bits) and of
// the first 300 blocks at x 16..31, y 96..97, z 16..31 (a section too
// varied for a palette: global ids). The chunk (0, -1) has desert biome
// cells beside the plains from y 64 to 79.
const Vec3 = require('vec3')

// FEATURES lists the blocks placed over the layers, as [x, y, z, block].
const FEATURES = (() => {
  const out = []
  const tree = (x0, z0) => {
    for (let y = 67; y <= 68; y++) {
      for (let dx = -2; dx <= 2; dx++) {
        for (let dz = -2; dz <= 2; dz++) {
          if (Math.abs(dx) === 2 && Math.abs(dz) === 2) continue // rounded corners
          out.push([x0 + dx, y, z0 + dz, 'oak_leaves[persistent=true]'])
        }
      }
    }
    for (let y = 69; y <= 70; y++) {
      for (let dx = -1; dx <= 1; dx++) {
        for (let dz = -1; dz <= 1; dz++) {
          if (y === 70 && dx !== 0 && dz !== 0) continue
          out.push([x0 + dx, y, z0 + dz, 'oak_leaves[persistent=true]'])
        }
      }
    }
    for (let y = 64; y <= 68; y++) out.push([x0, y, z0, 'oak_log[axis=y]'])
  }
  tree(5, 5)
  tree(21, -11)
  for (let x = -7; x <= -2; x++) {
    for (let z = -7; z <= -2; z++) {
      const edge = x === -7 || x === -2 || z === -7 || z === -2
      out.push([x, 63, z, edge ? 'sand' : 'water[level=0]'])
      if (!edge && x >= -5 && x <= -4 && z >= -5 && z <= -4) out.push([x, 62, z, 'water[level=0]'])
    }
  }
  out.push([3, 64, -3, 'oak_slab[type=bottom]'])
  out.push([4, 64, -3, 'oak_stairs[facing=north]'])
  out.push([2, 59, 2, 'coal_ore'], [3, 59, 2, 'coal_ore'])
  out.push([-2, 58, -1, 'iron_ore'], [-2, 57, -1, 'iron_ore'])
  out.push([-8, 63, 0, 'iron_ore'])
  return out
})()

// Layer tops: stone below DIRT_FROM, dirt up to GRASS_Y, grass at GRASS_Y.
const DIRT_FROM = 60
const GRASS_Y = 63
const SPAWN = { x: 0.5, y: GRASS_Y + 1, z: 0.5 }

const SECTION = 4096

function chunkKey (cx, cz) { return cx + ',' + cz }

class World {
  // registry is prismarine-registry's for the served version; codec the
  // registry data sent in configuration (the world's height and the biome
  // ids come from it, as a client reads them).
  constructor (registry, codec) {
    this.registry = registry
    this.Block = require('prismarine-block')(registry)
    this.Chunk = require('./emitted').chunk(registry)
    const overworld = codec['minecraft:dimension_type'].entries.find(e => e.key === 'minecraft:overworld').value.value
    this.minY = overworld.min_y.value
    this.height = overworld.height.value
    this.biome = codec['minecraft:worldgen/biome'].entries.findIndex(e => e.key === 'minecraft:plains')
    if (this.biome < 0) this.biome = 0
    this.noSizePrefix = registry.version['>=']('1.21.5')
    this.hasFluidCount = registry.version['>=']('26.1')
    this.chunks = new Map()
    this.packets = new Map() // chunk key → map_chunk params, until a block in it changes
    this.info = new Map() // state id → { air, motion, leaves, fluid, name }

    this.state = {
      air: this.parse('air'),
      bedrock: this.parse('bedrock'),
      stone: this.parse('stone'),
      dirt: this.parse('dirt'),
      grass: this.parse('grass_block[snowy=false]')
    }
    // features by chunk, resolved to state ids once.
    this.features = new Map()
    const place = (x, y, z, state) => {
      const key = chunkKey(x >> 4, z >> 4)
      if (!this.features.has(key)) this.features.set(key, [])
      this.features.get(key).push([x, y, z, state])
    }
    for (const [x, y, z, block] of FEATURES) place(x, y, z, this.parse(block))
    const samples = registry.blocksArray.filter(b => b.name !== 'air').map(b => b.defaultState)
    samples.slice(0, 40).forEach((state, i) => place(-16 + (i % 16), 100, 16 + (i >> 4), state))
    samples.slice(0, 300).forEach((state, i) => place(16 + (i % 16), 96 + (i >> 8), 16 + ((i >> 4) & 15), state))
    const biomes = codec['minecraft:worldgen/biome'].entries
    this.desert = biomes.findIndex(e => e.key === 'minecraft:desert')
  }

  get spawn () { return { ...SPAWN } }

  // parse turns "oak_stairs[facing=east]" (a namespace is allowed) into a
  // state id, or throws an Error whose message says what is wrong, as
  // vanilla's block argument does.
  parse (text) {
    const m = /^(?:minecraft:)?([a-z0-9_]+)(?:\[([^\]]*)\])?$/.exec(String(text).trim())
    if (!m) throw new Error('Invalid block: ' + text)
    const block = this.registry.blocksByName[m[1]]
    if (!block) throw new Error('Unknown block type \'minecraft:' + m[1] + '\'')
    // Properties left out keep the block's default state's values, as in
    // vanilla (prismarine-block would take each property's first value).
    const props = this.Block.fromStateId(block.defaultState, 0).getProperties()
    if (m[2]) {
      for (const pair of m[2].split(',').filter(Boolean)) {
        const [k, v] = pair.split('=').map(s => s && s.trim())
        const state = (block.states || []).find(s => s.name === k)
        if (!state) throw new Error('Block minecraft:' + m[1] + ' does not have property \'' + k + '\'')
        if (v === undefined || (state.values && !state.values.includes(v)) ||
            (state.type === 'bool' && v !== 'true' && v !== 'false')) {
          throw new Error('Block minecraft:' + m[1] + ' does not accept \'' + v + '\' for ' + k + ' property')
        }
        props[k] = state.type === 'bool' ? v === 'true' : (state.type === 'int' ? Number(v) : v)
      }
    }
    return this.Block.fromProperties(block.id, props, 0).stateId
  }

  // about describes a state id: its name and the heightmap predicates.
  about (stateId) {
    let i = this.info.get(stateId)
    if (i) return i
    const b = this.Block.fromStateId(stateId, 0)
    const fluid = b.name === 'water' || b.name === 'lava' || b.getProperties().waterlogged === true
    const air = b.name === 'air' || b.name === 'cave_air' || b.name === 'void_air'
    i = { name: b.name, air, fluid, motion: fluid || b.boundingBox === 'block', leaves: b.name.endsWith('_leaves') }
    this.info.set(stateId, i)
    return i
  }

  // base is the layered terrain without features.
  base (y) {
    if (y === this.minY) return this.state.bedrock
    if (y < DIRT_FROM) return this.state.stone
    if (y < GRASS_Y) return this.state.dirt
    if (y === GRASS_Y) return this.state.grass
    return this.state.air
  }

  column (cx, cz) {
    const key = chunkKey(cx, cz)
    let chunk = this.chunks.get(key)
    if (!chunk) {
      chunk = this.generate(cx, cz)
      this.chunks.set(key, chunk)
    }
    return chunk
  }

  generate (cx, cz) {
    const chunk = new this.Chunk({ minY: this.minY, worldHeight: this.height })
    const Section = this.Chunk.section
    const features = this.features.get(chunkKey(cx, cz)) || []
    const numSections = this.height >> 4
    for (let s = 0; s < numSections; s++) {
      const y0 = this.minY + 16 * s
      const states = new Uint32Array(SECTION)
      for (let y = 0; y < 16; y++) states.fill(this.base(y0 + y), y << 8, (y + 1) << 8)
      for (const [x, y, z, state] of features) {
        if (y >= y0 && y < y0 + 16) states[((y - y0) << 8) | ((z & 15) << 4) | (x & 15)] = state
      }
      chunk.sections[s] = this.section(Section, chunk.maxBitsPerBlock, states)
      chunk.biomes[s] = new chunk.biomes[s].constructor({ noSizePrefix: this.noSizePrefix, singleValue: this.biome })
      if (cx === 0 && cz === -1 && y0 === 64 && this.desert >= 0) {
        for (let by = 0; by < 4; by++) for (let bz = 0; bz < 4; bz++) for (let bx = 0; bx < 2; bx++) chunk.biomes[s].set({ x: bx, y: by, z: bz }, this.desert)
      }
    }
    return chunk
  }

  // section builds a prismarine-chunk section from 4096 state ids. Filling a
  // section block by block makes prismarine-chunk look each block up to
  // count fluids (26.1), which is slow; so the blocks go into a section
  // without fluid counting and the counts are given to the real one.
  section (Section, maxBitsPerBlock, states) {
    const opts = { noSizePrefix: this.noSizePrefix, maxBitsPerBlock }
    if (states.every(s => s === states[0])) {
      return new Section({ ...opts, hasFluidCount: this.hasFluidCount, singleValue: states[0] })
    }
    const tmp = new Section({ ...opts, hasFluidCount: false })
    let fluids = 0
    const pos = { x: 0, y: 0, z: 0 }
    for (let i = 0; i < SECTION; i++) {
      if (states[i] === 0) continue
      pos.x = i & 15; pos.z = (i >> 4) & 15; pos.y = i >> 8
      tmp.set(pos, states[i])
      if (this.about(states[i]).fluid) fluids++
    }
    return new Section({
      ...opts,
      hasFluidCount: this.hasFluidCount,
      data: tmp.data,
      solidBlockCount: tmp.solidBlockCount,
      fluidCount: this.hasFluidCount ? fluids : 0
    })
  }

  inWorld (y) { return y >= this.minY && y < this.minY + this.height }

  getBlock (x, y, z) {
    if (!this.inWorld(y)) return this.state.air
    return this.column(x >> 4, z >> 4).getBlockStateId(new Vec3(x & 15, y, z & 15))
  }

  // setBlock changes one block and reports whether it changed.
  setBlock (x, y, z, stateId) {
    if (!this.inWorld(y)) return false
    const chunk = this.column(x >> 4, z >> 4)
    const pos = new Vec3(x & 15, y, z & 15)
    if (chunk.getBlockStateId(pos) === stateId) return false
    chunk.setBlockStateId(pos, stateId)
    this.packets.delete(chunkKey(x >> 4, z >> 4))
    return true
  }

  // tops returns, per column (index z*16+x), the y of the highest block
  // that is not air, that blocks motion, and that blocks motion and is not
  // leaves; minY-1 where there is none.
  tops (chunk) {
    const none = this.minY - 1
    const surface = new Int32Array(256).fill(none)
    const motion = new Int32Array(256).fill(none)
    const noLeaves = new Int32Array(256).fill(none)
    let left = 256
    const pos = new Vec3(0, 0, 0)
    for (let s = chunk.sections.length - 1; s >= 0 && left > 0; s--) {
      if (chunk.sections[s].solidBlockCount === 0) continue
      for (let y = this.minY + 16 * s + 15; y >= this.minY + 16 * s && left > 0; y--) {
        pos.y = y
        for (let i = 0; i < 256; i++) {
          if (noLeaves[i] !== none) continue
          pos.x = i & 15; pos.z = i >> 4
          const a = this.about(chunk.getBlockStateId(pos))
          if (a.air) continue
          if (surface[i] === none) surface[i] = y
          if (a.motion && motion[i] === none) motion[i] = y
          if (a.motion && !a.leaves) { noLeaves[i] = y; left-- }
        }
      }
    }
    return { surface, motion, noLeaves }
  }

  // heightmap packs 256 heights (y - minY + 1) as vanilla does: as many
  // values per long as fit, none spanning two longs, lowest bits first.
  heightmap (tops) {
    const bits = Math.ceil(Math.log2(this.height + 1))
    const perLong = Math.floor(64 / bits)
    const longs = new Array(Math.ceil(256 / perLong)).fill(0n)
    for (let i = 0; i < 256; i++) {
      const v = BigInt(tops[i] - this.minY + 1)
      longs[Math.floor(i / perLong)] |= v << BigInt((i % perLong) * bits)
    }
    return longs.map(l => BigInt.asIntN(64, l))
  }

  // light returns the sky light sections and masks of a column, as the
  // chunk packet carries them (one section below and one above the world).
  light (tops) {
    const count = (this.height >> 4) + 2
    let skyMask = 0n
    let emptyMask = 0n
    const skyLight = []
    let lowest = Infinity
    let highest = -Infinity
    for (const t of tops) { lowest = Math.min(lowest, t); highest = Math.max(highest, t) }
    for (let l = 0; l < count; l++) {
      const y0 = this.minY + 16 * (l - 1)
      if (y0 + 15 <= lowest) { // every block at or below its column's top: dark
        emptyMask |= 1n << BigInt(l)
        continue
      }
      const nibbles = Buffer.alloc(2048)
      if (y0 > highest) {
        nibbles.fill(0xff)
      } else {
        for (let y = 0; y < 16; y++) {
          for (let i = 0; i < 256; i++) {
            if (y0 + y <= tops[i]) continue
            const index = (y << 8) | i
            nibbles[index >> 1] |= (index & 1) ? 0xf0 : 0x0f
          }
        }
      }
      skyMask |= 1n << BigInt(l)
      skyLight.push(nibbles)
    }
    return { skyLightMask: skyMask, emptySkyLightMask: emptyMask, skyLight }
  }

  // chunkPacket returns the map_chunk packet of a column for protocol (the
  // served version's minecraft-data protocol definition).
  chunkPacket (cx, cz, protocol) {
    const key = chunkKey(cx, cz)
    let packet = this.packets.get(key)
    if (!packet) {
      packet = this.buildChunkPacket(cx, cz, protocol)
      this.packets.set(key, packet)
    }
    return packet
  }

  buildChunkPacket (cx, cz, protocol) {
    const chunk = this.column(cx, cz)
    const tops = this.tops(chunk)
    const maps = { WORLD_SURFACE: tops.surface, MOTION_BLOCKING: tops.motion, MOTION_BLOCKING_NO_LEAVES: tops.noLeaves }
    const light = this.light(tops.motion)
    // From 26.3 a light mask is a byte array (BitSet.toByteArray), not
    // longs: the served protocol.json says which.
    const fields = protocol.play.toClient.types.packet_map_chunk[1]
    const maskType = fields.find(f => f.name === 'skyLightMask').type
    const mask = Array.isArray(maskType) && maskType[0] === 'buffer' ? bytes : longs
    return {
      x: cx,
      z: cz,
      heightmaps: heightmapField(protocol, maps, t => this.heightmap(t)),
      chunkData: chunk.dump(),
      blockEntities: [],
      skyLightMask: mask(light.skyLightMask),
      blockLightMask: mask(0n),
      emptySkyLightMask: mask(light.emptySkyLightMask),
      emptyBlockLightMask: mask(0n),
      skyLight: light.skyLight,
      blockLight: []
    }
  }
}

// bytes turns a bit set into the bytes a 26.3 packet carries, little end
// first and without trailing zero bytes (as java.util.BitSet.toByteArray
// does).
function bytes (mask) {
  const out = []
  while (mask > 0n) {
    out.push(Number(mask & 0xffn))
    mask >>= 8n
  }
  return Buffer.from(out)
}

// longs turns a bit set into the array of longs a packet carries, without
// trailing zero longs (as java.util.BitSet.toLongArray does).
function longs (mask) {
  const out = []
  while (mask > 0n) {
    out.push(BigInt.asIntN(64, mask & 0xffffffffffffffffn))
    mask >>= 64n
  }
  return out
}

// heightmapField writes the heightmaps in the version's layout: an NBT
// compound keyed by name before 1.21.5, then an array of (type, longs) whose
// type is a number (1.21.5) or a name minecraft-data maps to one (1.21.6+).
// The layout is read from the protocol definition, not from a version number.
function heightmapField (protocol, maps, pack) {
  const nbt = require('prismarine-nbt')
  const field = protocol.play.toClient.types.packet_map_chunk[1].find(f => f.name === 'heightmaps')
  if (field.type === 'anonymousNbt') {
    const value = {}
    for (const [name, tops] of Object.entries(maps)) value[name] = nbt.longArray(pack(tops))
    return nbt.comp(value)
  }
  // Heightmap.Types ids: 1 WORLD_SURFACE, 4 MOTION_BLOCKING, 5 MOTION_BLOCKING_NO_LEAVES.
  const ids = { WORLD_SURFACE: 1, MOTION_BLOCKING: 4, MOTION_BLOCKING_NO_LEAVES: 5 }
  const typeField = field.type[1].type[1].find(f => f.name === 'type')
  const mapping = Array.isArray(typeField.type) && typeField.type[0] === 'mapper' ? typeField.type[1].mappings : null
  return Object.entries(maps).map(([name, tops]) => ({
    type: mapping ? mapping[String(ids[name])] : ids[name],
    data: pack(tops)
  }))
}

module.exports = { World, FEATURES }
