'use strict'
// versions.js maps a game version to the minecraft-data version that
// describes its protocol. minecraft-data has no 1.21.2 of its own and answers
// a lookup of "1.21.2" with 1.21 (protocol 767), but 1.21.2 speaks protocol
// 768, the same as 1.21.3; so 1.21.2 is served and joined with 1.21.3's data.
const DATA_VERSION = { '1.21.2': '1.21.3' }

function dataVersion (version) {
  return DATA_VERSION[version] || version
}

module.exports = { dataVersion }
