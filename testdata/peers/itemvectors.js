// itemvectors.js: item stacks, data components and entity metadata
// serialized by minecraft-protocol's own serializer, for the Go
// differential tests of bot/item and bot/metadata.
//
//   node itemvectors.js '<json config>'
//
// config: { protocols: [767, …], corrected: [{protocol, path}], seed, kinds }
// (kinds: the kinds of vector to write; all when absent), or
// { parse: [{protocol, type, hex}] } to only parse bytes (see parseOnly),
// or { window: protocol, corrected } for the benchmark's fixture (see
// windowItems).
// For every protocol it builds values from minecraft-data's protocol.json
// types (every component type with several variants that walk the cases of
// every switch, option and holder; hand-picked realistic stacks; every
// entity metadata type), serializes each with minecraft-protocol's
// compiled protocol (the same code its client and server use), parses the
// bytes back with it, and writes one JSON line per vector:
//
//   {kind, protocol, version, name, hex, parsed, touched}
//
// kind: slot | metadata | untrusted | hashed. touched lists the corrected
// paths (corrections.go) a vector's value passes through: there the bytes
// are minecraft-data's, not the game's, and the Go test does not expect
// them to decode.
//
// The buffers are zero-filled: minecraft-protocol 1.68.0's
// registryEntryHolder writer skips the inline marker byte ("offset += 1")
// instead of writing 0, so its own createPacketBuffer (Buffer.allocUnsafe)
// can put garbage there.
'use strict'

require('./emitted') // the emitted releases (26.2), from testdata/peers/mcdata
const mc = require('minecraft-protocol')
const mcData = require('minecraft-data')
const protocolVersions = require('minecraft-data/minecraft-data/data/pc/common/protocolVersions.json')

const config = JSON.parse(process.argv[2] || '{}')

// A small deterministic generator (mulberry32).
function rng (seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function versionFor (protocol) {
  for (const v of protocolVersions) { // newest first
    if (v.version === protocol && v.releaseType === 'release' && mcData(v.minecraftVersion)) return v.minecraftVersion
  }
  throw new Error('no minecraft-data release for protocol ' + protocol)
}

const strings = ['minecraft:stone', 'hello', 'Ünïcødé ✓ 名前', '', 'minecraft:block/oak_log', 'a'.repeat(40)]

function nbtValue (r) {
  const choice = Math.floor(r() * 3)
  if (choice === 0) return { type: 'compound', name: '', value: { text: { type: 'string', value: 'Named ✓' }, color: { type: 'string', value: 'gold' } } }
  if (choice === 1) return { type: 'compound', name: '', value: { n: { type: 'int', value: 42 }, b: { type: 'byte', value: 1 }, l: { type: 'list', value: { type: 'string', value: ['x', 'y'] } }, d: { type: 'double', value: 0.5 }, inner: { type: 'compound', value: { s: { type: 'short', value: -3 } } } } }
  return { type: 'string', name: '', value: 'plain text' }
}

// Generator: builds a value for a protodef type. st: {types, r, variant,
// depth, corrected (Set of paths), touched (Set)}.
// neutral returns, for a corrected part, a value whose minecraft-data bytes
// are also the game's and that both sides parse alike (an absent option, an
// empty list), so that the vectors around it still count; ok is false when
// there is none.
function neutral (t) {
  if (t === 'anonOptionalNbt') return { ok: true, value: undefined }
  if (Array.isArray(t) && t[0] === 'option') return { ok: true, value: undefined }
  if (Array.isArray(t) && t[0] === 'array' && t[1].countType) return { ok: true, value: [] }
  return { ok: false }
}

function gen (t, st, path, scope) {
  if (st.corrected.has(path)) {
    const n = neutral(t)
    if (n.ok) return n.value
    st.touched.add(path)
  }
  if (typeof t === 'string') {
    const r = st.r
    switch (t) {
      case 'varint': case 'optvarint': return Math.floor(r() * 300)
      case 'varlong': return Math.floor(r() * 100000)
      case 'i8': return Math.floor(r() * 256) - 128
      case 'u8': return Math.floor(r() * 256)
      case 'i16': return Math.floor(r() * 65536) - 32768
      case 'u16': return Math.floor(r() * 65536)
      case 'i32': return Math.floor(r() * 4294967296) - 2147483648
      case 'u32': return Math.floor(r() * 4294967296)
      case 'f32': return Math.fround(Math.floor(r() * 2000 - 1000) / 8)
      case 'f64': return Math.floor(r() * 2000000 - 1000000) / 1024
      case 'bool': return r() < 0.5
      case 'string': return strings[Math.floor(r() * strings.length)]
      case 'UUID': {
        let h = ''
        for (let i = 0; i < 32; i++) h += Math.floor(r() * 16).toString(16)
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
      }
      case 'anonymousNbt': return nbtValue(r)
      case 'anonOptionalNbt': return r() < 0.25 ? undefined : nbtValue(r)
      case 'void': return undefined
      case 'ByteArray': return Buffer.from([1, 2, 3, Math.floor(r() * 256)])
      case 'position': return { x: Math.floor(r() * 60000) - 30000, y: Math.floor(r() * 400) - 64, z: Math.floor(r() * 60000) - 30000 }
    }
    const def = st.types[t]
    if (def === undefined) throw new Error('unknown type ' + t)
    if (def === 'native') throw new Error('native type ' + t + ' not generated')
    if ((t === 'Slot' || t === 'ItemStackTemplate') && st.depth >= 2) {
      // Deep enough: nested stacks carry no components.
      if (t === 'Slot' && st.r() < 0.5) return { itemCount: 0 }
      return { itemCount: 1 + Math.floor(st.r() * 64), itemId: 1 + Math.floor(st.r() * 900), addedComponentCount: 0, removedComponentCount: 0, components: [], removeComponents: [] }
    }
    st.depth++
    const v = gen(def, st, t, undefined)
    st.depth--
    return v
  }
  const [kind, opts] = t
  switch (kind) {
    case 'container': {
      const obj = {}
      for (const f of opts) {
        const fpath = f.anon ? path : path + '.' + f.name
        const v = gen(f.type, st, fpath, obj)
        if (f.anon) {
          if (v && typeof v === 'object') Object.assign(obj, v)
        } else {
          obj[f.name] = v
        }
      }
      // Array lengths that live in a sibling field follow the array.
      for (const f of opts) {
        if (Array.isArray(f.type) && f.type[0] === 'array' && f.type[1].count) obj[f.type[1].count] = obj[f.name].length
      }
      fixCounts(opts, obj)
      return obj
    }
    case 'array': {
      const n = st.depth > 3 ? 0 : (st.variant + Math.floor(st.r() * 2)) % 3
      const out = []
      for (let i = 0; i < n; i++) out.push(gen(opts.type, st, path + '.[]', undefined))
      return out
    }
    case 'option': {
      if (st.depth > 3 || (st.variant + Math.floor(st.r() * 2)) % 3 === 1) return undefined
      return gen(opts, st, path + '.?', scope)
    }
    case 'mapper': {
      const keys = Object.keys(opts.mappings)
      return opts.mappings[keys[(st.variant * 7 + Math.floor(st.r() * keys.length)) % keys.length]]
    }
    case 'switch': {
      const d = scope[opts.compareTo]
      const key = String(d)
      const c = Object.prototype.hasOwnProperty.call(opts.fields, key) ? opts.fields[key] : opts.default
      if (c === undefined) return undefined
      return gen(c, st, path + '.' + key, scope)
    }
    case 'registryEntryHolder': {
      if (st.depth > 3 || st.variant === 0 || (st.variant + Math.floor(st.r() * 2)) % 2 === 0) return { [opts.baseName]: Math.floor(st.r() * 50) }
      // minecraft-protocol tests the inline value for truth ("else if
      // (value.data)"): an empty string cannot be written inline.
      const inline = gen(opts.otherwise.type, st, path + '.' + opts.otherwise.name, undefined)
      return { [opts.otherwise.name]: inline === '' ? 'minecraft:inline' : inline }
    }
    case 'registryEntryHolderSet': {
      if ((st.variant + Math.floor(st.r() * 2)) % 2 === 0) return { [opts.base.name]: 'minecraft:logs' }
      const n = Math.floor(st.r() * 3)
      const ids = []
      for (let i = 0; i < n; i++) ids.push(gen(opts.otherwise.type, st, path + '.[]', undefined))
      return { [opts.otherwise.name]: ids }
    }
    case 'pstring': return gen('string', st, path)
    case 'buffer':
      if (opts.count) return Buffer.alloc(opts.count, 7)
      return Buffer.from([9, 8, 7])
    case 'bitfield':
      return gen('position', st, path)
  }
  throw new Error('cannot generate ' + kind + ' at ' + path)
}

// fixCounts sets count fields of arrays inside anonymous containers (the
// Slot's inner container) after the merge.
function fixCounts (fields, obj) {
  for (const f of fields) {
    if (!f.anon || !Array.isArray(f.type) || f.type[0] !== 'switch') continue
    for (const c of Object.values(f.type[1].fields).concat([f.type[1].default])) {
      if (!Array.isArray(c) || c[0] !== 'container') continue
      for (const g of c[1]) {
        if (Array.isArray(g.type) && g.type[0] === 'array' && g.type[1].count && Array.isArray(obj[g.name])) obj[g.type[1].count] = obj[g.name].length
      }
    }
  }
}

// fill builds a value from a partial one: given fields are kept (and filled
// recursively), missing ones generated.
function fill (t, partial, st, path, scope) {
  if (partial === null) return undefined // explicitly absent
  if (partial === undefined) return gen(t, st, path, scope)
  if (st.corrected.has(path)) st.touched.add(path)
  if (typeof t === 'string') {
    const def = st.types[t]
    if (def && def !== 'native' && typeof def !== 'string') return fill(def, partial, st, t, scope)
    return partial
  }
  const [kind, opts] = t
  if (kind === 'container' && partial && typeof partial === 'object' && !Array.isArray(partial)) {
    const obj = {}
    for (const f of opts) {
      if (f.anon) {
        const v = fill(f.type, partial, st, path, obj)
        if (v && typeof v === 'object') Object.assign(obj, v)
      } else {
        obj[f.name] = fill(f.type, partial[f.name], st, path + '.' + f.name, obj)
      }
    }
    for (const f of opts) {
      if (Array.isArray(f.type) && f.type[0] === 'array' && f.type[1].count) obj[f.type[1].count] = obj[f.name].length
    }
    fixCounts(opts, obj)
    return obj
  }
  if (kind === 'switch') {
    const key = String(scope[opts.compareTo])
    const c = Object.prototype.hasOwnProperty.call(opts.fields, key) ? opts.fields[key] : opts.default
    if (c === undefined) return undefined
    return fill(c, partial, st, path + '.' + key, scope)
  }
  if (kind === 'array' && Array.isArray(partial)) return partial.map(p => fill(opts.type, p, st, path + '.[]', undefined))
  if (kind === 'option') return fill(opts, partial, st, path + '.?', scope)
  return partial
}

function slotOf (components, count, itemId, removed = []) {
  return { itemCount: count, itemId, addedComponentCount: components.length, removedComponentCount: removed.length, components, removeComponents: removed.map(type => ({ type })) }
}

function componentNames (types) {
  return Object.values(types.SlotComponentType[1].mappings)
}

function realistic (types, st, names) {
  const has = n => names.includes(n)
  const comp = (type, data) => ({ type, data: fill(['container', [{ name: 'type', type: 'SlotComponentType' }, { name: 'data', type: types.SlotComponent[1][1].type }]], { type, data }, st, 'SlotComponent', {}).data })
  const name = { type: 'compound', name: '', value: { text: { type: 'string', value: 'Excalibur ✦' }, italic: { type: 'byte', value: 0 } } }
  const out = []
  const add = (name, build) => {
    st.touched = new Set()
    const slot = build()
    out.push([name, slot, st.touched])
  }
  add('cobblestone', () => slotOf([], 64, 35))
  add('enchanted diamond pickaxe', () => slotOf([
    comp('damage', 37),
    comp('enchantments', { enchantments: [{ id: 12, level: 5 }, { id: 37, level: 3 }, { id: 22, level: 1 }] }),
    comp('repair_cost', 3)
  ], 1, 850))
  add('named sword', () => slotOf([comp('custom_name', name), comp('damage', 3)], 1, 830))
  add('enchanted book', () => slotOf([comp('stored_enchantments', { enchantments: [{ id: 9, level: 4 }] })], 1, 1100))
  add('water bottle', () => slotOf([comp('potion_contents', { potionId: 1, customEffects: [] })], 1, 1000))
  add('potion of swiftness', () => slotOf([comp('potion_contents', { potionId: 14, customColor: 0x7cafc6, customEffects: [{ id: 1, details: { amplifier: 1, duration: 3600, ambient: false, showParticles: true, showIcon: true } }] })], 1, 1000))
  add('written book', () => slotOf([comp('written_book_content', { rawTitle: 'Diary', author: 'Steve', generation: 0, pages: [{ content: { type: 'string', name: '', value: 'Day 1' } }, { content: { type: 'string', name: '', value: 'Day 2 ✓' } }], resolved: true })], 1, 1050))
  add('food with item name', () => slotOf([comp('item_name', name), comp('food', { nutrition: 8, saturationModifier: Math.fround(0.8), canAlwaysEat: true })], 16, 790))
  if (has('consumable')) add('consumable', () => slotOf([comp('consumable', { consume_seconds: Math.fround(1.6), animation: 'eat', makes_particles: true, effects: [] })], 1, 790))
  add('tool', () => slotOf([comp('tool', { rules: [{ blocks: { name: 'minecraft:mineable/pickaxe' }, speed: 8, correctDropForBlocks: true }, { blocks: { ids: [1, 2, 3] } }], defaultMiningSpeed: 1, damagePerBlock: 1 }), comp('max_damage', 1561), comp('max_stack_size', 1)], 1, 850, ['food']))
  const inner = [slotOf([], 64, 35), { itemCount: 0 }, slotOf([comp('damage', 5)], 1, 850)]
  const template = types.ItemStackTemplate !== undefined
  if (template) {
    add('shulker box with contents', () => slotOf([comp('container', { contents: [inner[0], null, inner[2]] })], 1, 600))
    add('bundle', () => slotOf([comp('bundle_contents', { contents: [inner[0], inner[2]] })], 1, 900))
  } else {
    add('shulker box with contents', () => slotOf([comp('container', { contents: inner })], 1, 600))
    add('bundle', () => slotOf([comp('bundle_contents', { contents: [inner[0], inner[2]] })], 1, 900))
  }
  add('firework rocket', () => slotOf([comp('fireworks', { flightDuration: 2, explosions: [{ shape: 'large_ball', colors: [0xff0000, 0x00ff00], fadeColors: [], hasTrail: true, hasTwinkle: false }] })], 3, 1200))
  add('banner', () => slotOf([comp('banner_patterns', { layers: [{ pattern: { patternId: 3 }, colorId: 14 }, { pattern: { patternId: 7 }, colorId: 0 }] }), comp('base_color', undefined)], 1, 1300))
  add('lore and unbreakable', () => slotOf([comp('lore', [name, name]), comp('unbreakable', undefined)], 1, 850))
  return out
}

// parseOnly parses given bytes with minecraft-protocol (config.parse:
// [{protocol, type, hex}]) and writes [{ok, size, parsed, error}]: what
// minecraft-data makes of the game's bytes where the two disagree.
function parseOnly () {
  const out = config.parse.map(({ protocol, type, hex }) => {
    const proto = mc.createSerializer({ state: 'play', isServer: true, version: versionFor(protocol) }).proto
    try {
      const { value, size } = proto.read(Buffer.from(hex, 'hex'), 0, type)
      return { ok: true, size, parsed: value }
    } catch (err) {
      return { ok: false, error: String(err.message) }
    }
  })
  process.stdout.write(JSON.stringify(out, (k, v) => typeof v === 'bigint' ? v.toString() : v))
}

// windowItems writes a window_items payload (config.window: a protocol) of
// 46 varied stacks, the player inventory of a survival game: empty slots,
// plain stacks and the realistic stacks minecraft-data writes as the game
// does. It is the benchmark's fixture (bot/item/testdata).
function windowItems () {
  const protocol = config.window
  const version = versionFor(protocol)
  const types = mcData(version).protocol.types
  const proto = mc.createSerializer({ state: 'play', isServer: true, version }).proto
  const corrected = new Set((config.corrected || []).filter(c => c.protocol === protocol).map(c => c.path))
  const st = { types, r: rng(7), variant: 0, depth: 0, corrected, touched: new Set() }
  const good = realistic(types, st, componentNames(types)).filter(([, , touched]) => touched.size === 0).map(([, slot]) => slot)
  const items = []
  for (let i = 0; items.length < 46; i++) {
    if (i < 5 || i % 7 === 3) items.push({ itemCount: 0 })
    else if (i % 2 === 0) items.push(slotOf([], 1 + (i * 13) % 64, 1 + (i * 37) % 900))
    else items.push(good[i % good.length])
  }
  const packet = { windowId: 0, stateId: 7, items, carriedItem: { itemCount: 0 } }
  const size = proto.sizeOf(packet, 'packet_window_items')
  const buf = Buffer.alloc(size)
  proto.write(packet, buf, 0, 'packet_window_items')
  const back = proto.read(buf, 0, 'packet_window_items')
  if (back.size !== size || back.value.items.length !== 46) throw new Error('window_items does not read back')
  process.stdout.write(JSON.stringify({ protocol, version, hex: buf.toString('hex'), stacks: good.length }))
}

function main () {
  if (config.parse) return parseOnly()
  if (config.window) return windowItems()
  const seed = config.seed || 1
  const out = []
  for (const protocol of config.protocols) {
    const version = versionFor(protocol)
    const data = mcData(version)
    const types = data.protocol.types
    const proto = mc.createSerializer({ state: 'play', isServer: true, version }).proto
    const corrected = new Set(config.corrected.filter(c => c.protocol === protocol).map(c => c.path))
    const names = componentNames(types)
    const emit = (kind, name, type, value, touched) => {
      if (config.kinds && !config.kinds.includes(kind)) return
      try {
        return emitOne(kind, name, type, value, touched)
      } catch (err) {
        // A value written for the game's layout of a corrected part may not
        // fit minecraft-data's; the Go test has the game's bytes for it.
        if (touched.size === 0) throw err
        out.push({ kind, protocol, version, name, type, error: String(err.message), touched: [...touched] })
      }
    }
    const emitOne = (kind, name, type, value, touched) => {
      const size = proto.sizeOf(value, type)
      const buf = Buffer.alloc(size)
      const end = proto.write(value, buf, 0, type)
      // The compiled entityMetadataLoop writer returns offset + (offset + 1)
      // ("return offset + ctx.u8(…)"): its bytes are right, its end is not.
      if (end !== size && type !== 'entityMetadata') throw new Error(`${protocol} ${name}: wrote ${end} of ${size} bytes`)
      const parsed = proto.read(buf, 0, type)
      if (parsed.size !== size) throw new Error(`${protocol} ${name}: read ${parsed.size} of ${size} bytes`)
      out.push({ kind, protocol, version, name, type, hex: buf.toString('hex'), parsed: parsed.value, touched: [...touched] })
      return buf
    }
    // Every component type, several variants each.
    for (const n of names) {
      for (let variant = 0; variant < 4; variant++) {
        const st2 = { types, r: rng(seed * 7919 + protocol * 131 + variant * 17 + n.length), variant, depth: 0, corrected, touched: new Set() }
        const value = fill(['container', [{ name: 'type', type: 'SlotComponentType' }, { name: 'data', type: types.SlotComponent[1][1].type }]], { type: n }, st2, 'SlotComponent', {})
        const slot = slotOf([value], 1 + variant, 1 + variant * 100, variant % 2 ? [names[(variant * 13) % names.length]] : [])
        emit('slot', `component ${n} #${variant}`, 'Slot', slot, st2.touched)
      }
    }
    // Realistic stacks, and their untrusted and hashed forms (1.21.5+).
    const st = { types, r: rng(seed + protocol), variant: 0, depth: 0, corrected, touched: new Set() }
    for (const [name, slot, touched] of realistic(types, st, names)) {
      emit('slot', name, 'Slot', slot, touched)
      if (types.UntrustedSlot) {
        const untrusted = Object.assign({}, slot)
        if (slot.itemCount > 0) {
          untrusted.components = slot.components.map(c => {
            const size = proto.sizeOf(c, 'SlotComponent')
            const buf = Buffer.alloc(size)
            proto.write(c, buf, 0, 'SlotComponent')
            const idLen = proto.sizeOf(c.type, 'SlotComponentType')
            return { type: c.type, data: buf.subarray(idLen) }
          })
        }
        emit('untrusted', name, 'UntrustedSlot', untrusted, touched)
        if (slot.itemCount > 0) {
          emit('hashed', name, 'HashedSlot', { itemId: slot.itemId, itemCount: slot.itemCount, components: [], removeComponents: slot.removeComponents }, touched)
        }
      }
    }
    // Entity metadata: every type alone, several variants, then all in one.
    const entry = types.entityMetadataEntry
    const metaTypes = Object.values(entry[1][1].type[1].mappings)
    const all = []
    for (const [i, mt] of metaTypes.entries()) {
      for (let variant = 0; variant < 3; variant++) {
        const st = { types, r: rng(seed * 31 + protocol * 7 + i * 3 + variant), variant, depth: 0, corrected, touched: new Set() }
        const e = fill(entry, { key: i % 255, type: mt }, st, 'entityMetadataEntry', {})
        emit('metadata', `metadata ${mt} #${variant}`, 'entityMetadata', [e], st.touched)
        if (variant === 0 && st.touched.size === 0) all.push(e)
      }
    }
    emit('metadata', 'metadata every type', 'entityMetadata', all, new Set())
  }
  process.stdout.write(JSON.stringify(out, (k, v) => typeof v === 'bigint' ? v.toString() : v))
}

main()
