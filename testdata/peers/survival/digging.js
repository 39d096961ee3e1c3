'use strict'
// digging.js: break times, refusals and drops as the game has them.
//
// The server side of digging is GAME 1.21.4 ServerPlayerGameMode
// (handleBlockBreakAction, tick, incrementDestroyProgress, destroyBlock):
//   - START: a block whose progress per tick is >= 1 breaks at once;
//     otherwise the dig starts at this player's game tick.
//   - STOP (finish): accepted when progress * (ticks since start + 1) >= 0.7
//     (the game allows 30 % for latency). A finish before that is not
//     destroyed: the server only acknowledges the sequence, so the client's
//     predicted air reverts to the block, and the block breaks later, on
//     the tick where progress reaches 1.0 ("delayed destroy").
//   - ABORT: the dig stops.
//   - every one of them is acknowledged with the packet's sequence.
// Progress per tick is BlockBehaviour.getDestroyProgress:
//   speed / hardness / (correct tool for drops ? 30 : 100), 0 if hardness -1
// and speed is Player.getDestroySpeed:
//   tool speed (1 if none); if > 1, + efficiency level^2 + 1;
//   * (1 + 0.2 * (haste amplifier + 1)); * mining fatigue (0.3, 0.09,
//   0.0027, 0.00081 by amplifier); * 0.2 with the eyes in water (1 with
//   aqua affinity); / 5 when not on the ground.
const { Vec3 } = require('vec3')

const TIER_SPEED = { wooden: 2, stone: 4, iron: 6, diamond: 8, golden: 12, netherite: 9 } // ToolMaterial
const FATIGUE = [0.3, 0.09, 0.0027, 0.00081]
// Tools lose 1 durability per block with a non-zero hardness, swords 2
// (Tool.damagePerBlock).
const TOOL_KINDS = ['pickaxe', 'axe', 'shovel', 'hoe', 'sword']

module.exports = function digging (ctx) {
  const { registry, items: I } = ctx
  // The game computes break progress in 32-bit floats; ctx.doubles (for
  // breaktimes.js) computes in doubles, as mineflayer does, to tell
  // rounding apart from real differences.
  const F = ctx.doubles ? (x) => x : Math.fround

  function toolOf (stack) {
    if (I.isEmpty(stack)) return null
    const name = I.name(stack)
    if (name === 'shears') return { kind: 'shears', speed: 1 }
    const m = /^(wooden|stone|iron|diamond|golden|netherite)_(pickaxe|axe|shovel|hoe|sword)$/.exec(name)
    if (!m) return null
    return { kind: m[2], tier: m[1], speed: TIER_SPEED[m[1]] }
  }

  // materialTags splits minecraft-data's material ("leaves;mineable/hoe")
  // into the block tags it stands for.
  function materialTags (block) {
    return (block.material || 'default').split(';')
  }

  // toolSpeed is Tool.getMiningSpeed: the first rule naming the block.
  function toolSpeed (stack, block) {
    const tool = toolOf(stack)
    if (!tool) return 1
    const tags = materialTags(block)
    if (tool.kind === 'sword') {
      if (block.name === 'cobweb') return 15
      // The game's #sword_efficient tag is plants, leaves, vines and gourds;
      // minecraft-data only has the material, so this is its nearest form.
      if (tags.some(t => ['plant', 'leaves', 'gourd', 'vine_or_glow_lichen'].includes(t))) return 1.5
      return 1
    }
    if (tool.kind === 'shears') {
      if (block.name === 'cobweb' || tags.includes('leaves')) return 15
      if (tags.includes('wool')) return 5
      if (block.name === 'vine' || block.name === 'glow_lichen') return 2
      return 1
    }
    // minecraft-data files the blocks that need a stone, iron or diamond
    // tool (ores, metal blocks, obsidian …) under the material
    // "incorrect_for_wooden_tool" instead of their mineable/pickaxe; in the
    // game every one of them is mineable with a pickaxe.
    const pickaxeBlock = tags.includes('mineable/pickaxe') || tags.some(t => t.startsWith('incorrect_for_'))
    if (tool.kind === 'pickaxe' && pickaxeBlock) return tool.speed
    return tags.includes('mineable/' + tool.kind) ? tool.speed : 1
  }

  // hasCorrectToolForDrops: blocks that need a tool list the items that
  // harvest them (minecraft-data harvestTools, from the game's tags).
  function hasCorrectToolForDrops (stack, block) {
    if (!block.harvestTools) return true
    return !I.isEmpty(stack) && !!block.harvestTools[stack.type]
  }

  function enchantLevel (stack, name) {
    if (I.isEmpty(stack)) return 0
    try {
      for (const e of stack.enchants || []) {
        if ((e.name || '').replace('minecraft:', '') === name) return e.lvl ?? e.level ?? 0
        if (typeof e.id === 'number' && registry.enchantments[e.id]?.name === name) return e.level ?? e.lvl ?? 0
      }
    } catch (err) {}
    return 0
  }

  function effectAmplifier (player, effectName) {
    const def = registry.effectsByName[effectName]
    const e = def && player.effects && player.effects[def.id]
    return e ? (e.amplifier || 0) : -1
  }

  function eyeInWater (player) {
    const b = ctx.blockAt(player.world, player.position.offset(0, 1.62, 0))
    return !!b && (b.name === 'water' || b.getProperties?.().waterlogged === true)
  }

  // destroySpeed is Player.getDestroySpeed, in the game's 32-bit floats
  // (fround after each operation), so that a break time on the edge of a
  // tick comes out as the game's.
  function destroySpeed (player, block) {
    const held = ctx.heldItem(player)
    let f = F(toolSpeed(held, block))
    if (f > 1) {
      const eff = enchantLevel(held, 'efficiency')
      if (eff > 0) f = F(f + F(eff * eff + 1))
    }
    const haste = Math.max(effectAmplifier(player, 'Haste'), effectAmplifier(player, 'ConduitPower'))
    if (haste >= 0) f = F(f * F(1 + F(F(haste + 1) * F(0.2))))
    const fatigue = effectAmplifier(player, 'MiningFatigue')
    if (fatigue >= 0) f = F(f * F(FATIGUE[Math.min(fatigue, 3)]))
    if (eyeInWater(player)) {
      const helmet = ctx.inventoryOf(player).getItem(39)
      if (enchantLevel(helmet, 'aqua_affinity') === 0) f = F(f * F(0.2))
    }
    if (!ctx.state(player).onGround) f = F(f / 5)
    return f
  }

  // destroyProgress is BlockBehaviour.getDestroyProgress: the part of the
  // block broken per tick.
  function destroyProgress (player, block) {
    const hardness = block.hardness
    if (hardness === -1 || hardness === null || hardness === undefined) return 0
    const speed = destroySpeed(player, block)
    if (hardness === 0) return Infinity
    return F(F(speed / F(hardness)) / (hasCorrectToolForDrops(ctx.heldItem(player), block) ? 30 : 100))
  }

  // ticksToBreak is the first tick count whose progress * ticks reaches 1,
  // the rule the server breaks a block by (a delayed destroy); a client
  // waiting ceil(1 / progress) ticks, as mineflayer does, gets the same
  // number.
  function ticksToBreak (player, block) {
    const p = destroyProgress(player, block)
    if (p <= 0) return Infinity
    if (p >= 1) return 0
    let n = Math.max(1, Math.floor(1 / p) - 1)
    while (F(p * n) < 1) n++
    return n
  }

  function record (player, fields) {
    ctx.log('dig', Object.assign({ player: player.username }, fields))
  }

  function breakAnimation (player, pos, stage) {
    // Everyone but the digger sees the cracks (ServerLevel.destroyBlockProgress).
    for (const p of ctx.serv.players) {
      if (p !== player && p.world === player.world && p.position.distanceTo(pos) < 32) {
        p._client.write('block_break_animation', { entityId: player.id, location: pos, destroyStage: stage })
      }
    }
  }

  function ack (player, sequence) { ctx.ack(player, sequence) }

  function sendBlock (player, pos) {
    const b = ctx.blockAt(player.world, pos)
    player._client.write('block_change', { location: pos, type: b ? b.stateId : 0 })
  }

  function roll (item, chance, lo, hi) {
    if (Math.random() >= chance) return null
    const count = lo + Math.floor(Math.random() * (hi - lo + 1))
    return count > 0 && registry.itemsByName[item] ? I.make(item, count) : null
  }

  // leavesDrops is the game's leaves loot (BlockLootSubProvider.createLeavesDrops
  // without fortune): the leaves with shears or silk touch, otherwise a
  // sapling 1 in 20 (jungle 1 in 40), 1-2 sticks 1 in 50 and, from oak and
  // dark oak, an apple 1 in 200. minecraft-data's chances for leaves are not
  // these.
  function leavesDrops (block, held, silk) {
    if (silk || I.name(held) === 'shears') return [I.make(block.name, 1)]
    const wood = block.name.replace(/_leaves$/, '')
    const sapling = wood === 'azalea' ? 'azalea' : wood === 'flowering_azalea' ? 'flowering_azalea' : wood === 'mangrove' ? null : wood + '_sapling'
    return [
      sapling && roll(sapling, wood === 'jungle' ? 0.025 : 0.05, 1, 1),
      roll('stick', 0.02, 1, 2),
      (wood === 'oak' || wood === 'dark_oak') && roll('apple', 0.005, 1, 1)
    ].filter(Boolean)
  }

  // drops is Block.getDrops through minecraft-data's block loot: nothing
  // without the correct tool for drops. minecraft-data writes the game's
  // silk-touch alternatives as two entries of chance 0.5 (stone: stone with
  // silk touch, else cobblestone), so an entry marked for or against silk
  // touch is certain within its branch; entries for a crop's age count only
  // at that age; a plant's drop of itself needs shears or silk touch.
  function drops (player, block) {
    const held = ctx.heldItem(player)
    if (!hasCorrectToolForDrops(held, block)) return []
    const silk = enchantLevel(held, 'silk_touch') > 0
    if (block.name.endsWith('_leaves')) return leavesDrops(block, held, silk)
    const loot = registry.blockLoot && registry.blockLoot[block.name]
    const out = []
    if (loot) {
      const age = block.getProperties ? block.getProperties().age : undefined
      for (const d of loot.drops) {
        if (silk ? d.noSilkTouch : d.silkTouch) continue
        if (d.blockAge !== undefined && d.blockAge !== age) continue
        let chance = d.dropChance ?? 1
        if (d.silkTouch || d.noSilkTouch) chance = 1
        else if (d.item === block.name && chance < 1) chance = (silk || I.name(held) === 'shears') ? 1 : 0
        const [lo, hi] = d.stackSizeRange || [1, 1]
        const stack = roll(d.item, chance, lo, Math.max(lo, hi))
        if (stack) out.push(stack)
      }
    } else {
      for (const id of block.drops || []) {
        const def = registry.items[typeof id === 'object' ? id.drop?.id ?? id.id : id]
        if (def) out.push(I.make(def.id, 1))
      }
    }
    return out
  }

  // mineBlock wears the held tool (ItemStack.mineBlock / hurtAndBreak).
  function mineBlock (player, block) {
    if (player.gameMode !== 0 && player.gameMode !== 2) return
    const inv = ctx.inventoryOf(player)
    const held = inv.getItem(inv.selected)
    const tool = toolOf(held)
    if (!tool || !block.hardness) return
    ctx.damageItem(player, inv.selected, tool.kind === 'sword' ? 2 : 1)
  }

  // destroyBlock is ServerPlayerGameMode.destroyBlock for survival.
  // Returns the drops, or null when there was nothing to destroy.
  function destroyBlock (player, pos) {
    const block = ctx.blockAt(player.world, pos)
    if (!block || block.type === 0) return null
    const dropped = player.gameMode === 1 ? [] : drops(player, block)
    const held = ctx.heldItem(player)
    ctx.onBlockRemoved(player.world, pos, block)
    ctx.serv.setBlock(player.world, pos, 0)
    mineBlock(player, block)
    for (const stack of dropped) ctx.popResource(player.world, pos, stack)
    return { drops: dropped.map(I.describe), held: held ? I.name(held) : null }
  }

  function destroyAndAck (player, pos, reason, extra) {
    const block = ctx.blockAt(player.world, pos)
    const done = destroyBlock(player, pos)
    record(player, Object.assign({ verdict: reason, block: block ? block.name : 'air', pos: [pos.x, pos.y, pos.z], destroyed: !!done }, done, extra))
    if (!done) sendBlock(player, pos)
  }

  function handle (player, { location, status, sequence }) {
    const st = ctx.state(player).dig
    const pos = new Vec3(location.x, location.y, location.z)
    if (!ctx.canInteractWithBlock(player, pos, 1.0)) {
      record(player, { verdict: 'too far', pos: [pos.x, pos.y, pos.z] })
      ack(player, sequence)
      return
    }
    if (status === 0) {
      if (player.gameMode === 3 || player.gameMode === 2) {
        sendBlock(player, pos)
      } else if (player.gameMode === 1) {
        destroyAndAck(player, pos, 'creative destroy', {})
      } else {
        st.destroyProgressStart = st.gameTicks
        const block = ctx.blockAt(player.world, pos)
        let f = 1
        if (block && block.type !== 0) f = destroyProgress(player, block)
        if (block && block.type !== 0 && f >= 1) {
          destroyAndAck(player, pos, 'insta mine', { ticks: 0, ticksNeeded: 0 })
        } else {
          if (st.isDestroyingBlock) sendBlock(player, st.destroyPos)
          st.isDestroyingBlock = true
          st.destroyPos = pos
          const stage = Math.floor(f * 10)
          breakAnimation(player, pos, stage)
          st.lastSentState = stage
          record(player, { verdict: 'started', block: block ? block.name : 'air', pos: [pos.x, pos.y, pos.z], ticksNeeded: block ? ticksToBreak(player, block) : 0 })
        }
      }
    } else if (status === 2) {
      if (st.destroyPos && pos.equals(st.destroyPos)) {
        const ticks = st.gameTicks - st.destroyProgressStart
        const block = ctx.blockAt(player.world, pos)
        if (block && block.type !== 0) {
          const progress = F(destroyProgress(player, block) * (ticks + 1))
          if (progress >= 0.7) {
            st.isDestroyingBlock = false
            breakAnimation(player, pos, -1)
            destroyAndAck(player, pos, 'destroyed', { ticks, ticksNeeded: ticksToBreak(player, block), progress })
            ack(player, sequence)
            return
          }
          record(player, { verdict: 'too early', block: block.name, pos: [pos.x, pos.y, pos.z], ticks, ticksNeeded: ticksToBreak(player, block), progress })
          if (!st.hasDelayedDestroy) {
            st.isDestroyingBlock = false
            st.hasDelayedDestroy = true
            st.delayedDestroyPos = pos
            st.delayedTickStart = st.destroyProgressStart
          }
        }
      }
    } else if (status === 1) {
      st.isDestroyingBlock = false
      if (st.destroyPos && !pos.equals(st.destroyPos)) breakAnimation(player, st.destroyPos, -1)
      breakAnimation(player, pos, -1)
      record(player, { verdict: 'aborted', pos: [pos.x, pos.y, pos.z] })
    }
    ack(player, sequence)
  }

  function incrementDestroyProgress (player, block, pos, startTick) {
    const st = ctx.state(player).dig
    const f = F(destroyProgress(player, block) * (st.gameTicks - startTick + 1))
    const stage = Math.floor(f * 10)
    if (stage !== st.lastSentState) {
      breakAnimation(player, pos, stage)
      st.lastSentState = stage
    }
    return f
  }

  // tick is ServerPlayerGameMode.tick.
  function tick (player) {
    const st = ctx.state(player).dig
    st.gameTicks++
    if (st.hasDelayedDestroy) {
      const block = ctx.blockAt(player.world, st.delayedDestroyPos)
      if (!block || block.type === 0) {
        st.hasDelayedDestroy = false
      } else {
        const f = incrementDestroyProgress(player, block, st.delayedDestroyPos, st.delayedTickStart)
        if (f >= 1) {
          st.hasDelayedDestroy = false
          const pos = st.delayedDestroyPos
          const done = destroyBlock(player, pos)
          record(player, Object.assign({ verdict: 'delayed destroy', block: block.name, pos: [pos.x, pos.y, pos.z], ticks: st.gameTicks - st.delayedTickStart, progress: f }, done))
        }
      }
    } else if (st.isDestroyingBlock) {
      const block = ctx.blockAt(player.world, st.destroyPos)
      if (!block || block.type === 0) {
        breakAnimation(player, st.destroyPos, -1)
        st.lastSentState = -1
        st.isDestroyingBlock = false
      } else {
        incrementDestroyProgress(player, block, st.destroyPos, st.destroyProgressStart)
      }
    }
  }

  function newState () {
    return { gameTicks: 0, destroyProgressStart: 0, isDestroyingBlock: false, destroyPos: null, hasDelayedDestroy: false, delayedDestroyPos: null, delayedTickStart: 0, lastSentState: -1 }
  }

  return { handle, tick, newState, destroyProgress, ticksToBreak, hasCorrectToolForDrops, toolOf }
}
