'use strict'
// capture.js records the chunk packets a real peer sends, for checks of
// blockmate's chunk decoder against prismarine-chunk's reading of the same
// bytes (testdata/chunks/README.md describes the files).
//
//   node capture.js                      every capture (see plan below) into ../chunks
//   node capture.js '{"peer":"mpserver","version":"1.21.5","out":"../chunks","radius":1}'
//
// For each capture it starts the peer (server.js for flying-squid,
// mpserver.js for minecraft-protocol's server) on 127.0.0.1, joins it with a
// bare minecraft-protocol client, keeps the map_chunk packets of the chunks
// within radius of chunk (0, 0) exactly as they arrived (decompressed,
// packet id included), decodes each with prismarine-chunk, writes the block
// state and biome ids it read, and stops the peer.
const fs = require('fs')
const path = require('path')
const zlib = require('zlib')
const { spawn } = require('child_process')
const mc = require('minecraft-protocol')
const { dataVersion, releases } = require('./versions')
const { World } = require('./world')

const opts = JSON.parse(process.argv[2] || '{}')
const out = path.resolve(__dirname, opts.out || '../chunks')
const radius = opts.radius ?? 1

// plan lists the captures: flying-squid at every release it serves from
// protocol 767 (1.21) on, and minecraft-protocol's server at one release per
// protocol flying-squid does not serve: the one whose minecraft-data it is.
function plan () {
  const squid = require('flying-squid/src/lib/version').testedVersions
  const list = releases().filter(r => r.protocol >= 767)
  const squidProtocols = new Set(list.filter(r => squid.includes(r.version)).map(r => r.protocol))
  const out = list.filter(r => squid.includes(r.version)).map(r => ({ peer: 'flying-squid', version: r.version }))
  for (const r of list) {
    if (!squidProtocols.has(r.protocol) && r.version === r.dataVersion) out.push({ peer: 'mpserver', version: r.version })
  }
  return out
}

function packageVersion (name) {
  return require(name + '/package.json').version
}

// startPeer runs a peer script with its events on fd 3 and resolves with
// the child and the port it reports ready on.
function startPeer (peer, version) {
  const script = peer === 'flying-squid' ? 'server.js' : 'mpserver.js'
  const child = spawn(process.execPath, [script, JSON.stringify({ version, viewDistance: radius + 1 })], {
    cwd: __dirname,
    stdio: ['pipe', 'ignore', 'inherit', 'pipe'],
    env: { ...process.env, PEERTEST_EVENT_FD: '3' }
  })
  return new Promise((resolve, reject) => {
    let buf = ''
    child.stdio[3].on('data', (d) => {
      buf += d
      let i
      while ((i = buf.indexOf('\n')) >= 0) {
        const ev = JSON.parse(buf.slice(0, i))
        buf = buf.slice(i + 1)
        if (ev.event === 'ready') resolve({ child, port: ev.port })
        if (ev.event === 'error') reject(new Error(peer + ' ' + version + ': ' + ev.message))
      }
    })
    child.on('exit', (code) => reject(new Error(peer + ' ' + version + ' exited (' + code + ') before it was ready')))
  })
}

// SQUID_BLOCKS are placed in flying-squid's superflat world (bedrock at
// y 0, dirt, grass at y 4) through its console before the capture, so that
// its chunks hold more than four block states. mpserver's world has its own.
const SQUID_BLOCKS = [
  [5, 5, 5, 'oak_log[axis=y]'], [5, 6, 5, 'oak_log[axis=y]'], [5, 7, 5, 'oak_leaves[persistent=true]'],
  [-4, 4, -4, 'water[level=0]'], [-5, 4, -5, 'sand'], [3, 5, -3, 'oak_slab[type=bottom]'],
  [4, 5, -3, 'oak_stairs[facing=east]'], [2, 2, 2, 'iron_ore'], [3, 2, 2, 'coal_ore'], [0, 5, 0, 'gold_block']
]

async function capture ({ peer, version }) {
  const data = dataVersion(version)
  const { child, port } = await startPeer(peer, version)
  const registry = require('prismarine-registry')(data)
  const world = new World(registry, require('minecraft-data')(data).loginPacket.dimensionCodec)
  const placed = []
  if (peer === 'flying-squid') {
    for (const [x, y, z, block] of SQUID_BLOCKS) {
      const state = world.parse(block)
      const b = registry.blocksByStateId[state]
      child.stdin.write(['setblock', x, y, z, b.name, state - b.minStateId].join(' ') + '\n')
      placed.push([x, y, z, state])
    }
  }
  const Chunk = require('./emitted').chunk(registry)
  const client = mc.createClient({ host: '127.0.0.1', port, username: 'capture', version: data, auth: 'offline', hideErrors: true })
  const want = new Set()
  for (let x = -radius; x <= radius; x++) for (let z = -radius; z <= radius; z++) want.add(x + ',' + z)
  const got = new Map()
  let overworld = null
  let mapChunkId = null

  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(peer + ' ' + version + ': got ' + got.size + ' of ' + want.size + ' chunks in 60 s')), 60000)
    client.on('registry_data', (packet) => {
      if (packet.id !== 'minecraft:dimension_type') return
      const entry = packet.entries.find(e => e.key === 'minecraft:overworld')
      if (entry && entry.value) overworld = entry.value.value
    })
    client.on('packet', (params, meta, buffer, fullBuffer) => {
      if (meta.name !== 'map_chunk') return
      const key = params.x + ',' + params.z
      if (!want.has(key) || got.has(key)) return
      mapChunkId = readVarInt(fullBuffer)
      got.set(key, { params, raw: Buffer.from(fullBuffer), parsedBytes: buffer.length })
      if (got.size === want.size) {
        clearTimeout(timer)
        resolve()
      }
    })
    client.on('error', (err) => { clearTimeout(timer); reject(err) })
    client.on('end', (reason) => { clearTimeout(timer); reject(new Error(peer + ' ' + version + ': disconnected: ' + reason)) })
  })
  client.removeAllListeners('end')
  client.end()
  child.stdin.end()
  setTimeout(() => child.kill('SIGKILL'), 3000).unref()

  if (!overworld) throw new Error(peer + ' ' + version + ': no overworld dimension type in the registry data')
  for (const [x, y, z, state] of placed) {
    const { params } = got.get((x >> 4) + ',' + (z >> 4))
    const column = new Chunk({ minY: overworld.min_y.value, worldHeight: overworld.height.value })
    column.load(params.chunkData)
    const found = column.getBlockStateId({ x: x & 15, y, z: z & 15 })
    if (found !== state) throw new Error(peer + ' ' + version + ': the block placed at ' + [x, y, z] + ' is ' + found + ', not ' + state + ' (the capture came before the console command)')
  }
  const minY = overworld.min_y.value
  const height = overworld.height.value
  const dir = path.join(out, version)
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  const states = {}
  const chunks = []
  for (const [key, { params, raw, parsedBytes }] of [...got].sort()) {
    const [x, z] = key.split(',').map(Number)
    const column = new Chunk({ minY, worldHeight: height })
    column.load(params.chunkData)
    const blocks = Buffer.alloc(16 * 16 * height * 2)
    const pos = { x: 0, y: 0, z: 0 }
    let i = 0
    for (let y = minY; y < minY + height; y++) {
      for (let bz = 0; bz < 16; bz++) {
        for (let bx = 0; bx < 16; bx++) {
          pos.x = bx; pos.y = y; pos.z = bz
          const id = column.getBlockStateId(pos)
          blocks.writeUInt16BE(id, 2 * i++)
          if (!(id in states)) states[id] = stateName(registry, id)
        }
      }
    }
    const biomes = Buffer.alloc(4 * 4 * (height / 4) * 2)
    i = 0
    for (let y = minY; y < minY + height; y += 4) {
      for (let bz = 0; bz < 16; bz += 4) {
        for (let bx = 0; bx < 16; bx += 4) {
          pos.x = bx; pos.y = y; pos.z = bz
          biomes.writeUInt16BE(column.getBiome(pos), 2 * i++)
        }
      }
    }
    const base = 'chunk_' + x + '_' + z
    fs.writeFileSync(path.join(dir, base + '.packet.gz'), zlib.gzipSync(raw, { level: 9 }))
    fs.writeFileSync(path.join(dir, base + '.states.gz'), zlib.gzipSync(blocks, { level: 9 }))
    fs.writeFileSync(path.join(dir, base + '.biomes.gz'), zlib.gzipSync(biomes, { level: 9 }))
    chunks.push({ x, z, packet: base + '.packet.gz', packetBytes: raw.length, parsedBytes, states: base + '.states.gz', biomes: base + '.biomes.gz' })
  }
  const meta = {
    peer: peer === 'flying-squid' ? 'flying-squid ' + packageVersion('flying-squid') : 'mpserver.js (minecraft-protocol ' + packageVersion('minecraft-protocol') + ')',
    version,
    protocol: registry.version.version,
    dataVersion: data,
    minecraftData: packageVersion('minecraft-data'),
    prismarineChunk: packageVersion('prismarine-chunk'),
    mapChunkPacketId: mapChunkId,
    minY,
    height,
    chunks,
    states
  }
  fs.writeFileSync(path.join(dir, 'meta.json'), JSON.stringify(meta, null, 1) + '\n')
  console.log(version, peer + ':', chunks.length, 'chunks,', Object.keys(states).length, 'block states')
}

function stateName (registry, id) {
  const Block = require('prismarine-block')(registry)
  const b = Block.fromStateId(id, 0)
  const props = Object.entries(b.getProperties())
  return b.name + (props.length ? '[' + props.map(([k, v]) => k + '=' + v).join(',') + ']' : '')
}

function readVarInt (buf) {
  let value = 0
  for (let i = 0; i < 5; i++) {
    value |= (buf[i] & 0x7f) << (7 * i)
    if (!(buf[i] & 0x80)) break
  }
  return value
}

async function main () {
  const list = opts.peer ? [{ peer: opts.peer, version: opts.version }] : plan()
  for (const c of list) await capture(c)
}

main().then(() => process.exit(0), (err) => {
  console.error(err && err.stack ? err.stack : err)
  process.exit(1)
})
