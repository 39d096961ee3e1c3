'use strict'
// beds.js: sleeping in beds as the game does; flying-squid has no beds.
//
//   GAME 1.21.4 BedBlock.useWithoutItem        a click on either half uses the head
//   ServerPlayer.startSleepInBed               the checks and their messages
//   LivingEntity.startSleeping/stopSleeping    occupied, pose, sleeping_pos, position
//   ServerPlayer.stopSleepInBed                the wake-up animation (2) and a teleport
//   Player.tick                                the sleep counter (to 100); day wakes sleepers
//   ServerLevel.tick, SleepStatus              everyone asleep for 100 ticks: the night is skipped
//   ServerGamePacketListenerImpl.handlePlayerCommand   STOP_SLEEPING (the "leave bed" button)
//   ServerGamePacketListenerImpl.handleMovePlayer      a sleeper's moves are ignored, and
//                                                      answered with a teleport beyond 1 block
//
// The rules are the same at 1.21.1, 1.21.3 and 1.21.4. flying-squid keeps
// no weather, so the night is the clear-weather night (and thunder, which
// lets players sleep by day, never happens here).
const { Vec3 } = require('vec3')

// The clear-weather night, in ticks of the day: the game's Level.isDay()
// (the sky darkness below 4) is false from 12542 to 23459.
const NIGHT_START = 12542
const NIGHT_END = 23459
// Player.isSleepingLongEnough: 100 ticks in bed.
const DEEP_SLEEP_TICKS = 100
// Pose ids (Pose.java) and the animation a waking player plays
// (ClientboundAnimatePacket.WAKE_UP).
const POSE_STANDING = 0
const POSE_SLEEPING = 2
const ANIMATION_WAKE_UP = 2
const DIRS = { north: new Vec3(0, 0, -1), south: new Vec3(0, 0, 1), west: new Vec3(-1, 0, 0), east: new Vec3(1, 0, 0) }
const OPPOSITE = { north: 'south', south: 'north', west: 'east', east: 'west' }
const CLOCKWISE = { north: 'east', east: 'south', south: 'west', west: 'north' }

module.exports = function beds (ctx) {
  const { serv, registry } = ctx
  const Block = require('prismarine-block')(registry)
  const keys = registry.entitiesByName.player.metadataKeys
  const POSE = keys.indexOf('pose')
  const SLEEPING_POS = keys.indexOf('sleeping_pos')
  // update_time gained tickDayTime at 1.21.2 (the daylight cycle rule;
  // before, a stopped cycle was a negative time).
  const timeHasTickFlag = registry.version['>=']('1.21.2')

  const sleepers = new Set()

  // timeOfDay is the time of day, 0..23999.
  const timeOfDay = () => ((serv.time % 24000) + 24000) % 24000
  const isDay = () => { const t = timeOfDay(); return t < NIGHT_START || t > NIGHT_END }

  // message shows a translated line over the hotbar, as
  // Player.displayClientMessage(component, true) does.
  function message (player, key, args, actionBar = true) {
    const content = { type: 'compound', name: '', value: { translate: { type: 'string', value: key } } }
    if (args) content.value.with = { type: 'list', value: { type: 'string', value: args.map(String) } }
    player._client.write('system_chat', { content, isActionBar: actionBar })
  }

  function sendPose (player, sleepingAt) {
    const metadata = [{ key: POSE, type: 'pose', value: sleepingAt ? POSE_SLEEPING : POSE_STANDING }]
    metadata.push({ key: SLEEPING_POS, type: 'optional_block_pos', value: sleepingAt ? { x: sleepingAt.x, y: sleepingAt.y, z: sleepingAt.z } : undefined })
    ctx.writeToTrackers(player, 'entity_metadata', { entityId: player.id, metadata }, true)
  }

  function setOccupied (world, pos, occupied) {
    const b = ctx.blockAt(world, pos)
    if (!b || !b.name.endsWith('_bed')) return
    const props = Object.assign({}, b.getProperties(), { occupied })
    const next = Block.fromProperties(b.name, props, 0)
    if (next.stateId !== b.stateId) serv.setBlock(world, pos, next.stateId)
  }

  // passable: nothing to collide with (air, plants, open doors…), as far
  // as minecraft-data's box says.
  function passable (world, pos) {
    const b = ctx.blockAt(world, pos)
    return !!b && b.boundingBox === 'empty'
  }
  // suffocating approximates BlockState.isSuffocating: a full solid block.
  function suffocating (world, pos) {
    const b = ctx.blockAt(world, pos)
    return !!b && b.boundingBox === 'block' && !b.name.endsWith('_bed')
  }

  // isReachableBedBlock: the player within 3, 2, 3 of the block's bottom
  // centre.
  function reachable (player, pos) {
    const p = player.position
    return Math.abs(p.x - (pos.x + 0.5)) <= 3 && Math.abs(p.y - pos.y) <= 2 && Math.abs(p.z - (pos.z + 0.5)) <= 3
  }

  // monstersNear: the game's monsters in the box 8, 5, 8 around the bed's
  // bottom centre (every Monster prevents rest; the zombie is the
  // plugin's only one with AI, and minecraft-data's hostile type stands
  // for the game's Monster class).
  function monstersNear (player, pos) {
    for (const m of ctx.mobs.list()) {
      if (m.dead || registry.entitiesByName[m.name]?.type !== 'hostile') continue
      const [x, y, z] = m.pos
      if (Math.abs(x - (pos.x + 0.5)) <= 8 && Math.abs(y - pos.y) <= 5 && Math.abs(z - (pos.z + 0.5)) <= 8) return true
    }
    return false
  }

  // use is BedBlock.useWithoutItem; it always consumes the click.
  function use ({ block, player }) {
    const st = ctx.state(player)
    if (!st.inventory || player.gameMode === 3) return false
    if (player.crouching && (st.inventory.getItem(st.inventory.selected) || st.inventory.getItem(40))) return false
    const world = player.world
    let pos = new Vec3(block.position.x, block.position.y, block.position.z)
    let bed = ctx.blockAt(world, pos)
    if (!bed || !bed.name.endsWith('_bed')) return false
    let props = bed.getProperties()
    if (props.part !== 'head') {
      pos = pos.plus(DIRS[props.facing])
      const head = ctx.blockAt(world, pos)
      if (!head || head.name !== bed.name) return true
      bed = head
      props = head.getProperties()
    }
    if (world !== serv.overworld) {
      // The game explodes beds outside the overworld; not modelled.
      log(player, pos, 'not_possible_here')
      return true
    }
    if (props.occupied) {
      message(player, 'block.minecraft.bed.occupied')
      log(player, pos, 'occupied')
      return true
    }
    const problem = startSleepInBed(player, pos, props.facing)
    if (problem) {
      if (problem !== 'other') message(player, 'block.minecraft.bed.' + problem)
      log(player, pos, problem)
    }
    return true
  }

  // startSleepInBed returns the problem's message key suffix, or null when
  // the player went to sleep.
  function startSleepInBed (player, pos, facing) {
    const st = ctx.state(player)
    if (st.sleep || (st.living && st.living.dead) || player.health <= 0) return 'other'
    const foot = pos.plus(DIRS[OPPOSITE[facing]])
    if (!reachable(player, pos) && !reachable(player, foot)) return 'too_far_away'
    if (suffocating(player.world, pos.offset(0, 1, 0)) || suffocating(player.world, foot.offset(0, 1, 0))) return 'obstructed'
    if (isDay()) return 'no_sleep'
    if (player.gameMode !== 1 && monstersNear(player, pos)) return 'not_safe'
    // LivingEntity.startSleeping: the head is occupied, the player lies at
    // the head (0.6875 above its floor) with the sleeping pose.
    setOccupied(player.world, pos, true)
    st.sleep = { pos, facing, counter: 0 }
    sleepers.add(player)
    player.sendPosition(new Vec3(pos.x + 0.5, pos.y + 0.6875, pos.z + 0.5), false, true)
    sendPose(player, pos)
    log(player, pos, 'slept')
    announce()
    return null
  }

  // stopSleepInBed is ServerPlayer.stopSleepInBed: the wake-up animation
  // to the player and those who see it, LivingEntity.stopSleeping (the bed
  // freed, the player stood up beside it, the standing pose) and a teleport
  // to where it stands.
  function stopSleepInBed (player, why) {
    const st = ctx.state(player)
    if (!st.sleep) return
    const { pos, facing } = st.sleep
    ctx.writeToTrackers(player, 'animation', { entityId: player.id, animation: ANIMATION_WAKE_UP }, true)
    st.sleep = null
    sleepers.delete(player)
    let stand = null
    const bed = ctx.blockAt(player.world, pos)
    if (bed && bed.name.endsWith('_bed')) {
      setOccupied(player.world, pos, false)
      stand = standUpPosition(player.world, pos, facing) || new Vec3(pos.x + 0.5, pos.y + 1.1, pos.z + 0.5)
    }
    sendPose(player, null)
    if (stand && !player._client.ended) player.teleport(stand)
    log(player, pos, 'woke', { why })
    announce()
  }

  // standUpPosition approximates BedBlock.findStandUpPosition: the first
  // free spot beside the bed with solid ground, looking first beside the
  // foot and the head (the game's bedStandUpOffsets), then at the ends.
  function standUpPosition (world, head, facing) {
    const foot = head.plus(DIRS[OPPOSITE[facing]])
    const side = DIRS[CLOCKWISE[facing]]
    const candidates = [
      foot.plus(side), foot.minus(side), head.plus(side), head.minus(side),
      foot.plus(DIRS[OPPOSITE[facing]]), head.plus(DIRS[facing]),
      foot.plus(side).plus(DIRS[OPPOSITE[facing]]), foot.minus(side).plus(DIRS[OPPOSITE[facing]]),
      head.plus(side).plus(DIRS[facing]), head.minus(side).plus(DIRS[facing])
    ]
    for (const c of candidates) {
      if (passable(world, c) && passable(world, c.offset(0, 1, 0)) && !passable(world, c.offset(0, -1, 0))) {
        return new Vec3(c.x + 0.5, c.y, c.z + 0.5)
      }
    }
    return null
  }

  // announce is ServerLevel.announceSleepStatus: every player hears how
  // many sleep, or that the night is being skipped.
  let lastStatus = ''
  function announce () {
    const { active, sleeping, needed } = sleepStatus()
    const status = `${active}/${sleeping}`
    if (status === lastStatus) return
    lastStatus = status
    if (sleeping === 0) return
    for (const p of serv.players) {
      if (sleeping >= needed) message(p, 'sleep.skipping_night')
      else message(p, 'sleep.players_sleeping', [sleeping, needed])
    }
  }

  // sleepStatus is SleepStatus.update with playersSleepingPercentage 100:
  // every player but spectators must sleep.
  function sleepStatus () {
    let active = 0
    let sleeping = 0
    let deep = 0
    for (const p of serv.players) {
      if (p.gameMode === 3 || p.world !== serv.overworld) continue
      active++
      const s = ctx.state(p).sleep
      if (s) {
        sleeping++
        if (s.counter >= DEEP_SLEEP_TICKS) deep++
      }
    }
    return { active, sleeping, deep, needed: Math.max(1, active) }
  }

  function log (player, pos, verdict, extra) {
    ctx.log('sleep', Object.assign({ player: player.username, pos: [pos.x, pos.y, pos.z], verdict, time: serv.time }, extra))
  }

  // tick is ServerLevel.tick's night skip, then each sleeper's Player.tick.
  function tick () {
    const { sleeping, deep, needed } = sleepStatus()
    if (sleeping > 0 && sleeping >= needed && deep >= needed) {
      const next = serv.time + 24000
      const morning = next - next % 24000
      ctx.log('night', { from: serv.time, to: morning })
      serv.setTime(morning)
      for (const p of [...sleepers]) stopSleepInBed(p, 'morning')
    }
    for (const p of [...sleepers]) {
      const st = ctx.state(p).sleep
      if (!st) { sleepers.delete(p); continue }
      if (!serv.players.includes(p)) { sleepers.delete(p); setOccupied(p.world, st.pos, false); continue }
      st.counter = Math.min(DEEP_SLEEP_TICKS, st.counter + 1)
      const bed = ctx.blockAt(p.world, st.pos)
      if (!bed || !bed.name.endsWith('_bed')) stopSleepInBed(p, 'bed gone')
      else if (isDay()) stopSleepInBed(p, 'day')
    }
  }

  function install () {
    for (const def of registry.blocksArray) {
      if (def.name.endsWith('_bed')) serv.onBlockInteraction(def.name, use)
    }
    // update_time as the game sends it: from 1.21.2 with the daylight
    // cycle flag, which flying-squid leaves out (it went out as false).
    serv.setTime = (time) => {
      serv.time = time
      const packet = { age: [0, ctx.ticks], time: [Math.floor(time / 4294967296), time >>> 0] }
      if (timeHasTickFlag) packet.tickDayTime = serv.doDaylightCycle !== false
      serv._writeAll('update_time', packet)
    }
  }

  // setup hooks one player's leave-bed button, its moves while asleep and
  // its leaving.
  function setup (player) {
    player._client.on('entity_action', ({ actionId } = {}) => {
      if (actionId === 2 || actionId === 'stop_sleeping') stopSleepInBed(player, 'left the bed')
    })
    player.on('move_cancel', (data, cancel) => {
      const s = ctx.state(player).sleep
      if (!s || data.teleport) return
      const at = player.position
      const d2 = (data.position.x - at.x) ** 2 + (data.position.y - at.y) ** 2 + (data.position.z - at.z) ** 2
      // Ignored; beyond one block the game teleports the client back.
      cancel(d2 > 1, false)
    })
    player._client.on('end', () => {
      const s = ctx.state(player).sleep
      if (s) { setOccupied(player.world, s.pos, false); sleepers.delete(player); ctx.state(player).sleep = null }
    })
  }

  function describe (player) {
    const s = ctx.state(player).sleep
    return s ? { sleeping: true, bed: [s.pos.x, s.pos.y, s.pos.z], sleepTicks: s.counter } : { sleeping: false }
  }

  return { install, setup, tick, describe, timeOfDay }
}
