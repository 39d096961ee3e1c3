'use strict'
// versions.js maps a game version to the minecraft-data version that
// describes its protocol, and lists the releases the peers can serve.
//
// minecraft-data keeps protocol definitions for one release per protocol
// number (1.21.3 for 768, 1.21.8 for 772, 1.21.9 for 773, 26.1 for 775) and
// answers a lookup of a release it has no data of by name with a wrong one:
// "1.21.2" and "1.21.7" both resolve to 1.21 (protocol 767), though they speak
// 768 and 772. So every release is served and joined with the data of the
// release minecraft-protocol supports that has the same protocol number, read
// from minecraft-data's own table of releases: no version is written here by
// hand.
//
//   node versions.js        prints the releases as JSON, one object a line:
//   {"version":"1.21.2","protocol":768,"dataVersion":"1.21.3","mineflayer":true,"flyingSquid":false,"dialog":false,"codeOfConduct":false}
// The releases blockmate emits (26.2, 26.3) join minecraft-data and
// minecraft-protocol first, so that they are served like the others.
const emitted = require('./emitted')
const protocolVersions = require('minecraft-data/minecraft-data/data/pc/common/protocolVersions.json')
const mpSupported = require('minecraft-protocol/src/version').supportedVersions
const { testedVersions: mineflayerVersions } = require('mineflayer/lib/version')
const { testedVersions: flyingSquidVersions } = require('flying-squid/src/lib/version')

// A release name: 1.21, 1.21.11, 26.1.2 (no snapshots, pre-releases or
// release candidates).
const RELEASE_NAME = /^\d+\.\d+(\.\d+)?$/

function protocolOf (version) {
  const entry = protocolVersions.find(v => v.minecraftVersion === version)
  return entry ? entry.version : undefined
}

// dataProtocols maps each protocol number minecraft-protocol supports to the
// release whose data describes it.
const dataByProtocol = new Map()
for (const v of mpSupported) {
  const p = protocolOf(v)
  if (p !== undefined) dataByProtocol.set(p, v)
}

// dataVersion returns the minecraft-data version to serve or join version
// with: itself when minecraft-protocol supports it by name, else the
// supported release of the same protocol, else version unchanged (and
// minecraft-data's own lookup decides).
function dataVersion (version) {
  if (mpSupported.includes(version)) return version
  const p = protocolOf(version)
  return (p !== undefined && dataByProtocol.get(p)) || version
}

// configurationPackets lists the clientbound configuration packets of a
// minecraft-data version ([] before the configuration state existed).
function configurationPackets (data) {
  // Only the protocol definition is read: loading all of minecraft-data for
  // every release would cost seconds.
  const paths = require('minecraft-data/minecraft-data/data/dataPaths.json').pc[data]
  const file = emitted.protocolFile(data) || (paths && paths.protocol && require.resolve('minecraft-data/minecraft-data/data/' + paths.protocol + '/protocol.json'))
  if (!file) return []
  const protocol = require(file)
  const packet = protocol.configuration && protocol.configuration.toClient.types.packet
  return packet ? Object.values(packet[1][0].type[1].mappings) : []
}

// releases lists, oldest first, every release minecraft-data names whose
// protocol minecraft-protocol supports: the versions the peers can serve.
// mineflayer says whether mineflayer supports the release's protocol;
// flyingSquid whether flying-squid serves the release itself (by name);
// dialog and codeOfConduct whether the protocol has those packets (1.21.6
// and 1.21.9 added them), read from the protocol definition.
function releases () {
  const mineflayerProtocols = new Set(mineflayerVersions.map(protocolOf))
  return protocolVersions
    .filter(v => v.releaseType === 'release' && RELEASE_NAME.test(v.minecraftVersion) && dataByProtocol.has(v.version))
    .map(v => {
      const data = dataVersion(v.minecraftVersion)
      const config = configurationPackets(data)
      return {
        version: v.minecraftVersion,
        protocol: v.version,
        dataVersion: data,
        mineflayer: mineflayerProtocols.has(v.version),
        flyingSquid: flyingSquidVersions.includes(v.minecraftVersion),
        dialog: config.includes('show_dialog'),
        codeOfConduct: config.includes('code_of_conduct')
      }
    })
    .reverse()
}

module.exports = { dataVersion, protocolOf, releases }

if (require.main === module) {
  for (const r of releases()) process.stdout.write(JSON.stringify(r) + '\n')
}
