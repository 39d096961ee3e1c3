'use strict'
// rulesref.js: the game rules as prismarine's and mineflayer's own code
// has them, for practice/rules' differential tests.
//
//   node rulesref.js recipes <game version> <item>...
//     One JSON line a recipe of each item, as prismarine-recipe reads
//     minecraft-data: {item, result: {id, count}, inShape: [[id|null]],
//     ingredients: [id]} (inShape null for shapeless recipes).
//   node rulesref.js clicks <game version> <json>
//     Takes one JSON object, {slots: [{id, count}|null] (a
//     generic_9x3 window's 63 slots), clicks: [{mode, slot, mouseButton}]},
//     plays the clicks with prismarine-windows' acceptClick and writes one
//     JSON line a click: {slots, cursor}.
//   node rulesref.js digtimes <game version> <json>
//     Takes a JSON array of {block, tool, onGround, inWater} and writes the
//     dig time prismarine-block computes for each, in ms, a JSON line each.
const { dataVersion } = require('./versions')

const [cmd, version, ...rest] = process.argv.slice(2)
const registry = require('prismarine-registry')(dataVersion(version))

function plainItem (it) {
  return it ? { id: it.type, count: it.count } : null
}

function main () {
  switch (cmd) {
    case 'recipes': {
      const { Recipe } = require('prismarine-recipe')(registry)
      for (const name of rest) {
        const it = registry.itemsByName[name]
        if (!it) throw new Error('no item ' + name)
        for (const r of Recipe.find(it.id, null)) {
          const cell = c => (c && c.id >= 0 ? c.id : null)
          process.stdout.write(JSON.stringify({
            item: name,
            result: { id: r.result.id, count: r.result.count },
            inShape: r.inShape ? r.inShape.map(row => row.map(cell)) : null,
            ingredients: r.ingredients ? r.ingredients.map(cell) : null
          }) + '\n')
        }
      }
      break
    }
    case 'clicks': {
      const Item = require('prismarine-item')(registry)
      const windows = require('prismarine-windows')(registry)
      const input = JSON.parse(rest[0])
      const win = windows.createWindow(1, 'minecraft:generic_9x3', 'chest')
      input.slots.forEach((s, i) => { if (s) win.updateSlot(i, new Item(s.id, s.count)) })
      for (const c of input.clicks) {
        const click = { mode: c.mode, slot: c.slot, mouseButton: c.mouseButton, item: c.slot >= 0 ? win.slots[c.slot] : null }
        win.acceptClick(click, 0)
        process.stdout.write(JSON.stringify({ slots: win.slots.map(plainItem), cursor: plainItem(win.selectedItem) }) + '\n')
      }
      break
    }
    case 'digtimes': {
      const Block = require('prismarine-block')(registry)
      for (const q of JSON.parse(rest[0])) {
        const b = Block.fromStateId(registry.blocksByName[q.block].defaultState, 0)
        const tool = q.tool ? registry.itemsByName[q.tool].id : null
        const ms = b.digTime(tool, false, q.inWater, !q.onGround, [], {})
        process.stdout.write(JSON.stringify({ block: q.block, tool: q.tool, ms }) + '\n')
      }
      break
    }
    default:
      throw new Error('usage: node rulesref.js recipes|clicks|digtimes <version> …')
  }
}

main()
