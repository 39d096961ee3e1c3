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

// protocolFile is the protocol.json of an emitted release, or undefined
// for a release minecraft-data has itself.
function protocolFile (version) {
  const paths = index[version]
  return paths && paths.protocol ? file(paths.protocol, 'protocol') : undefined
}

module.exports = { versions: Object.keys(index), protocolFile }
