// schematic.js cross-checks blockmate's Sponge schematic codec
// (bot/schematic) with prismarine-nbt, an NBT reader and writer blockmate
// did not write.
//
//   node schematic.js read FILE    prints the file as prismarine-nbt reads
//                                  it: sizes, offset, data version and each
//                                  position's state, the varints unpacked
//   node schematic.js write FILE   reads {width, height, length, offset,
//                                  dataVersion, blocks: [state per
//                                  position]} on stdin and writes it as a
//                                  gzipped Sponge v2 schematic
'use strict'
const fs = require('fs')
const zlib = require('zlib')
const nbt = require('prismarine-nbt')

async function read (file) {
  const { parsed } = await nbt.parse(fs.readFileSync(file))
  const s = nbt.simplify(parsed)
  const byIndex = []
  for (const [state, i] of Object.entries(s.Palette)) byIndex[i] = state
  const data = Buffer.from(s.BlockData)
  const blocks = []
  for (let i = 0; i < data.length;) {
    let v = 0; let shift = 0; let b
    do { b = data[i++]; v |= (b & 0x7f) << shift; shift += 7 } while (b & 0x80)
    blocks.push(byIndex[v])
  }
  const out = {
    name: parsed.name,
    version: s.Version,
    dataVersion: s.DataVersion,
    width: s.Width & 0xffff,
    height: s.Height & 0xffff,
    length: s.Length & 0xffff,
    offset: s.Offset,
    paletteMax: s.PaletteMax,
    blocks
  }
  process.stdout.write(JSON.stringify(out) + '\n')
}

function write (file) {
  const want = JSON.parse(fs.readFileSync(0, 'utf8'))
  const palette = {}
  const indices = []
  for (const st of want.blocks) {
    if (!(st in palette)) palette[st] = Object.keys(palette).length
    indices.push(palette[st])
  }
  const bytes = []
  for (let v of indices) {
    while (v >= 0x80) { bytes.push((v & 0x7f) | 0x80); v >>>= 7 }
    bytes.push(v)
  }
  const pal = {}
  for (const [st, i] of Object.entries(palette)) pal[st] = nbt.int(i)
  const root = nbt.comp({
    Version: nbt.int(2),
    DataVersion: nbt.int(want.dataVersion),
    Width: nbt.short(want.width),
    Height: nbt.short(want.height),
    Length: nbt.short(want.length),
    Offset: nbt.intArray(want.offset),
    PaletteMax: nbt.int(Object.keys(palette).length),
    Palette: nbt.comp(pal),
    BlockData: nbt.byteArray(bytes.map(b => (b << 24) >> 24)),
    BlockEntities: nbt.list(nbt.comp([])),
    Metadata: nbt.comp({ Name: nbt.string('prismarine-nbt') })
  }, 'Schematic')
  fs.writeFileSync(file, zlib.gzipSync(nbt.writeUncompressed(root, 'big')))
}

const [mode, file] = process.argv.slice(2)
if (mode === 'read') read(file).catch(e => { console.error(e); process.exit(1) })
else if (mode === 'write') write(file)
else { console.error('usage: node schematic.js read|write FILE'); process.exit(2) }
