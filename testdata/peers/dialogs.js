'use strict'
// dialogs.js reads a show_dialog packet's dialog (1.21.6+) into a title and
// the text of its body, for the players' fd-3 reports. In configuration the
// dialog is inline NBT; in play it is either inline ({data}) or an id into
// the dialog registry ({dialog}).
const nbt = require('prismarine-nbt')

// componentText flattens a text component (as nbt.simplify leaves it) into
// its plain text; a translatable component shows its key.
function componentText (c) {
  if (c === undefined || c === null) return ''
  if (typeof c === 'string' || typeof c === 'number' || typeof c === 'boolean') return String(c)
  if (Array.isArray(c)) return c.map(componentText).join('')
  let s = c.text !== undefined ? String(c.text) : (c.translate !== undefined ? String(c.translate) : '')
  if (c[''] !== undefined) s += componentText(c[''])
  if (c.extra) s += componentText(c.extra)
  return s
}

function dialogSummary (dialog) {
  let value = dialog
  if (dialog && dialog.dialog !== undefined && dialog.data === undefined && dialog.type === undefined) {
    return { title: '', text: '', registryId: dialog.dialog }
  }
  if (dialog && dialog.data !== undefined) value = dialog.data
  const d = value && value.type === 'compound' ? nbt.simplify(value) : value
  if (!d || typeof d !== 'object') return { title: '', text: '' }
  const body = Array.isArray(d.body) ? d.body : (d.body ? [d.body] : [])
  return {
    kind: String(d.type || ''),
    title: componentText(d.title),
    text: body.map(b => componentText(b.contents)).join('\n')
  }
}

module.exports = { dialogSummary, componentText }
