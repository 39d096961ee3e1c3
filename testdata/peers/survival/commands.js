'use strict'
// commands.js: the commands tests use to set up a scene and to read the
// server's side of it.
//
//   /give <player> <item> [count]   as the game's: whole stacks into the
//                                   inventory, what does not fit dropped at the
//                                   player (flying-squid's keeps the count as
//                                   text and overfills stacks)
//   /summon zombie [x y z]          a zombie with its AI (at the player, or
//                                   at x y z; from the console x y z are needed)
//   /survival food <player> <food> [saturation]    set hunger, to test eating
//   /survival clear <player>        empty the player's inventory
//   /survival tp <player> <x> <y> <z>   move a player (flying-squid's /tp is
//                                   for players only)
//   /survival query <id> <what> [args]             answer through options.onQuery:
//       player <name>      health, food, saturation, position, onGround, held slot, open window
//       inventory <name>   every non-empty slot (window 0 numbering) and the carried stack
//       block <x> <y> <z>  the block's name and state id
//       furnace <x> <y> <z>, chest <x> <y> <z>   the block entity's contents
//       entities           the plugin's mobs, alive or dead
//       items              item entities on the ground
//       time               the world's time and time of day
//       tick               answers after the next game tick (for re-checking
//                          a condition once per tick)
//       log [kind] [since] the event log (dig verdicts, eating, hits, deaths,
//                          drops, pick-ups, furnace events, windows), from
//                          entry number since
const { Vec3 } = require('vec3')
const UserError = require('flying-squid').UserError

module.exports = function commands (ctx, logLines) {
  const { serv, items: I } = ctx

  // add registers a command whose unexpected errors are reported to the
  // caller instead of ending the server (flying-squid rethrows anything
  // that is not a UserError).
  function add (def) {
    const action = def.action
    def.action = (args, c) => {
      try {
        return action(args, c)
      } catch (err) {
        if (err.userError) throw err
        throw new UserError(String(err && err.message ? err.message : err))
      }
    }
    serv.commands.add(def)
  }

  function playerNamed (name) {
    const p = serv.getPlayer(name)
    if (!p) throw new UserError('no player called ' + name)
    return p
  }

  function number (s, base) {
    if (s === undefined) throw new UserError('missing coordinate')
    if (s.startsWith('~')) return base + (s.length > 1 ? Number(s.slice(1)) : 0)
    const n = Number(s)
    if (!Number.isFinite(n)) throw new UserError('not a number: ' + s)
    return n
  }

  add({
    base: 'give',
    info: 'Gives an item to a player',
    usage: '/give <player> <item> [count]',
    tab: ['player', 'item', 'number'],
    op: true,
    parse (str) { return str ? str.trim().split(/\s+/) : false },
    action (args, ctx2) {
      if (args.length < 2) throw new UserError('usage: /give <player> <item> [count]')
      const players = serv.getPlayers(args[0], ctx2.player)
      if (players.length === 0) throw new UserError('No player was found')
      const name = args[1].replace('minecraft:', '')
      const def = ctx.registry.itemsByName[name]
      if (!def) throw new UserError(`Unknown item '${name}'`)
      const count = args[2] === undefined ? 1 : Number(args[2])
      if (!Number.isInteger(count) || count < 1 || count > def.stackSize * 100) throw new UserError(`Can't give ${args[2]} of ${name}`)
      // GiveCommand.giveItem
      for (const p of players) {
        const inv = ctx.inventoryOf(p)
        if (!inv) continue
        let left = count
        while (left > 0) {
          const n = Math.min(def.stackSize, left)
          left -= n
          const stack = I.make(name, n)
          inv.add(stack)
          if (stack.count > 0) ctx.drops.spawnItem(p.world, p.position.offset(0, 1.32, 0), stack, { x: 0, y: 0.1, z: 0 }, 0)
        }
        ctx.batch(p, () => ctx.state(p).menu.broadcastChanges())
      }
      return `Gave ${count} [${name}] to ${players.length === 1 ? players[0].username : players.length + ' players'}`
    }
  })

  add({
    base: 'summon',
    info: 'Summon an entity; a zombie gets the survival plugin\'s AI',
    usage: '/summon <entity> [x y z]',
    op: true,
    parse (str) { return str ? str.trim().split(/\s+/) : false },
    action (args, ctx2) {
      const name = args[0].replace('minecraft:', '')
      const here = ctx2.player ? ctx2.player.position : new Vec3(0, 0, 0)
      const world = ctx2.player ? ctx2.player.world : serv.overworld
      let pos
      if (args.length >= 4) pos = new Vec3(number(args[1], here.x), number(args[2], here.y), number(args[3], here.z))
      else if (ctx2.player) pos = here.clone()
      else throw new UserError('the console must give x y z')
      if (!ctx.registry.entitiesByName[name]) throw new UserError('no entity called ' + name)
      const mob = ctx.mobs.summon(name, world, pos)
      return `Summoned ${name} ${mob.id}`
    }
  })

  function query (what, args) {
    switch (what) {
      case 'player': {
        const p = playerNamed(args[0])
        const st = ctx.state(p)
        return {
          name: p.username,
          id: p.id,
          health: p.health,
          food: p.food,
          saturation: p.foodSaturation,
          pos: [p.position.x, p.position.y, p.position.z],
          onGround: st.onGround,
          gameMode: p.gameMode,
          heldSlot: p.heldItemSlot,
          window: st.menu ? { id: st.menu.containerId, type: st.menu.type || 'minecraft:inventory', stateId: st.menu.stateId } : null,
          // flying-squid is busy sending this player chunks (which stalls
          // the server's ticks for a while).
          sendingChunks: !!p.sendingChunks,
          // flying-squid has finished logging the player in (its last
          // resend of the spawn position, which undoes an earlier teleport).
          joined: !!st.joined,
          using: st.using ? st.using.name : null,
          // sleeping, and the bed's head and the ticks slept while asleep
          ...ctx.beds.describe(p)
        }
      }
      case 'inventory': {
        const p = playerNamed(args[0])
        const st = ctx.state(p)
        const slots = []
        for (let i = 0; i < st.inventoryMenu.slots.length; i++) {
          const s = st.inventoryMenu.slots[i].getItem()
          if (s) slots.push(Object.assign({ slot: i }, I.describe(s)))
        }
        const counts = {}
        for (const s of slots) if (s.slot >= 5) counts[s.name] = (counts[s.name] || 0) + s.count
        return { slots, counts, carried: I.describe(st.menu.getCarried()), heldSlot: p.heldItemSlot }
      }
      case 'block': {
        const pos = new Vec3(number(args[0]), number(args[1]), number(args[2]))
        const b = ctx.blockAt(serv.overworld, pos)
        return { pos: [pos.x, pos.y, pos.z], name: b ? b.name : null, stateId: b ? b.stateId : null, properties: b ? b.getProperties() : null }
      }
      case 'furnace': {
        const pos = new Vec3(number(args[0]), number(args[1]), number(args[2]))
        const f = ctx.blockEntities.furnaceAt(serv.overworld, pos, false)
        return f ? f.describe() : null
      }
      case 'chest': {
        const pos = new Vec3(number(args[0]), number(args[1]), number(args[2]))
        const c = ctx.blockEntities.chestAt(serv.overworld, pos, null, false)
        return c ? c.describe() : null
      }
      case 'time':
        return { time: serv.time, timeOfDay: ctx.beds.timeOfDay() }
      case 'entities':
        return ctx.mobs.list()
      case 'items':
        return ctx.drops.list()
      case 'log': {
        const kind = args[0] && args[0] !== '*' ? args[0] : null
        const since = args[1] ? Number(args[1]) : 0
        return logLines.filter(l => (!kind || l.kind === kind) && l.seq >= since).slice(0, 1000)
      }
      default:
        throw new UserError('unknown query ' + what)
    }
  }

  add({
    base: 'survival',
    info: 'Survival plugin controls and queries for tests',
    usage: '/survival query <id> <what> [args] | food <player> <food> [saturation] | clear <player> | tp <player> <x> <y> <z>',
    op: true,
    parse (str) { return str ? str.trim().split(/\s+/) : false },
    action (args) {
      const [sub, ...rest] = args
      if (sub === 'query') {
        const [id, what, ...qargs] = rest
        if (!id || !what) throw new UserError('usage: survival query <id> <what> [args]')
        const answer = (result) => { if (ctx.options.onQuery) ctx.options.onQuery(id, result) }
        if (what === 'tick') {
          const at = ctx.ticks
          ctx.afterTick(() => answer({ ok: true, value: { tick: at + 1 } }))
          return
        }
        try {
          answer({ ok: true, value: query(what, qargs) })
        } catch (err) {
          answer({ ok: false, error: err.message })
        }
        return
      }
      if (sub === 'food') {
        const p = playerNamed(rest[0])
        const food = Math.max(0, Math.min(20, Math.floor(number(rest[1]))))
        const sat = rest[2] === undefined ? Math.min(p.foodSaturation, food) : Math.max(0, Math.min(food, number(rest[2])))
        p.food = food
        p.foodSaturation = sat
        p.updateHealth(p.health)
        return `Set ${p.username}'s food to ${food}, saturation ${sat}`
      }
      if (sub === 'tp') {
        const p = playerNamed(rest[0])
        const to = new Vec3(number(rest[1], p.position.x), number(rest[2], p.position.y), number(rest[3], p.position.z))
        p.teleport(to)
        return `Teleported ${p.username} to ${to}`
      }
      if (sub === 'clear') {
        const p = playerNamed(rest[0])
        const inv = ctx.inventoryOf(p)
        for (let i = 0; i < inv.size; i++) inv.setItem(i, null)
        return `Cleared ${p.username}'s inventory`
      }
      throw new UserError('unknown survival command ' + sub)
    }
  })
}
