'use strict'
// emitted.js makes the releases blockmate's generator emits (26.2, 26.3:
// testdata/peers/mcdata, written by `go generate ./bot/mcdata` from the
// facts of bot/mcdata/internal/gen/sources) known to the pinned
// minecraft-data and minecraft-protocol, which have no data for them, so
// that minecraft-protocol's server and client, prismarine-chunk and
// prismarine-registry serve and read them exactly as a release
// minecraft-data ships. Nothing here describes a release: the files do,
// and minecraft-data's own table of releases (protocolVersions.json)
// already names 26.2 and 26.3 with their protocol numbers.
//
// Requiring it is enough (versions.js does, so every script that picks a
// release through versions.js has them); it is idempotent.
const path = require('path')

const index = require('./mcdata/dataPaths.json')
const data = require('minecraft-data/data.js')
const mpVersions = require('minecraft-protocol/src/version').supportedVersions

const EMITTED = 'blockmate/'

// file resolves a dataPaths folder and kind to a JSON file: an emitted
// folder (blockmate/26.2) lives in testdata/peers/mcdata, any other in
// minecraft-data.
function file (folder, kind) {
  if (folder.startsWith(EMITTED)) return path.join(__dirname, 'mcdata', folder.slice(EMITTED.length), kind + '.json')
  return require.resolve('minecraft-data/minecraft-data/data/' + folder + '/' + kind + '.json')
}

for (const [version, paths] of Object.entries(index)) {
  if (!data.pc[version]) {
    const entry = {}
    for (const [kind, folder] of Object.entries(paths)) {
      const f = file(folder, kind)
      Object.defineProperty(entry, kind, { enumerable: true, get: () => require(f) })
    }
    data.pc[version] = entry
  }
  if (!mpVersions.includes(version)) mpVersions.push(version)
}

// The base of each emitted release (releases.json: 26.1 for 26.2): its
// chunk format is the base's.
const baseOf = new Map(require('./mcdata/releases.json').map(r => [r.version, r.base]))

// chunk is prismarine-chunk's Chunk class for a registry. prismarine-chunk
// picks its implementation by the release's major version and knows none
// for an emitted release, whose chunk format is its base's (ViaVersion
// reads 26.2 and 26.3 chunks with its ChunkType26_1): the implementation of
// the base is built with the release's own registry, whose version checks
// (fluid counts from 26.1 …) then answer for the release.
function chunk (registry, load = require('prismarine-chunk')) {
  const v = registry.version
  let base = baseOf.get(v.majorVersion)
  if (base === undefined) return load(registry)
  while (baseOf.has(base)) base = baseOf.get(base)
  const own = v.majorVersion
  v.majorVersion = require('minecraft-data')(base).version.majorVersion
  try {
    return byteMasks(load(registry))
  } finally {
    v.majorVersion = own
  }
}

// byteMasks lets the base's chunk class take 26.3's light masks: the
// emitted 26.3 protocol.json types them as byte arrays (BitSet.toByteArray,
// little end first), where prismarine-chunk reads arrays of [high, low]
// longs. A byte array is turned into those longs; longs pass through.
function byteMasks (Chunk) {
  const proto = Chunk.prototype
  if (!proto.loadParsedLight || proto.loadParsedLight.blockmateByteMasks) return Chunk
  const original = proto.loadParsedLight
  const longs = (mask) => {
    if (!Buffer.isBuffer(mask)) return mask
    const padded = Buffer.alloc(Math.ceil(mask.length / 8) * 8)
    mask.copy(padded)
    const out = []
    for (let i = 0; i < padded.length; i += 8) out.push([padded.readInt32LE(i + 4), padded.readInt32LE(i)])
    return out
  }
  proto.loadParsedLight = function (sky, block, skyMask, blockMask, emptySky, emptyBlock) {
    return original.call(this, sky, block, longs(skyMask), longs(blockMask), longs(emptySky), longs(emptyBlock))
  }
  proto.loadParsedLight.blockmateByteMasks = true
  return Chunk
}

// Code we did not write that loads prismarine-chunk itself (mineflayer's
// blocks plugin) gets the same loader: the module's export is replaced in
// require's cache, so this file must be required before such code is. The
// loader's other exports (BlobEntry …) are kept.
const chunkPath = require.resolve('prismarine-chunk')
const chunkModule = require(chunkPath)
if (!chunkModule.blockmateEmitted) {
  const original = chunkModule
  const wrapped = (registryOrVersion) => chunk(typeof registryOrVersion === 'string' ? require('prismarine-registry')(registryOrVersion) : registryOrVersion, original)
  Object.assign(wrapped, original, { blockmateEmitted: true })
  require.cache[chunkPath].exports = wrapped
}

// prismarine-physics lists, per feature, the major versions that have it,
// and knows none after 26.1: an emitted release has the features of its
// base (no source names a change of the player's physics in 26.2).
const physicsFeatures = require('prismarine-physics/lib/features.json')
for (const [version, base] of baseOf) {
  let root = base
  while (baseOf.has(root)) root = baseOf.get(root)
  const rootMajor = require('minecraft-data')(root).version.majorVersion
  for (const f of physicsFeatures) {
    if (f.versions.includes(rootMajor) && !f.versions.includes(version)) f.versions.push(version)
  }
}

// protocolFile is the protocol.json of an emitted release, or undefined
// for a release minecraft-data has itself.
function protocolFile (version) {
  const paths = index[version]
  return paths && paths.protocol ? file(paths.protocol, 'protocol') : undefined
}

module.exports = { versions: Object.keys(index), protocolFile, chunk }
