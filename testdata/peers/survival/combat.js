'use strict'
// combat.js: hurting living things as the game does, for players and for the
// plugin's mobs (GAME 1.21.4 LivingEntity.hurt / knockback / die,
// Player.attack, Player.getAttackStrengthScale).
//
// A hit inside the 20-tick invulnerability window (while more than 10 ticks
// of it are left) only deals what exceeds the last hit and shows nothing;
// otherwise the damage is dealt, damage_event goes to everyone tracking the
// victim (and the victim), the victim is knocked back with strength 0.4
// away from the attacker, and a player victim gets update_health,
// entity_velocity and hurt_animation. Death: entity status 3; a mob is
// removed 20 ticks later with status 60, after dropping its loot.

// Attack damage of a held item, the player's base 1 included (attribute
// modifiers of the game's tools: sword 3, pickaxe 1, shovel 1.5 plus the
// tier bonus; axes per tier; hoes total 1).
const TIER_BONUS = { wooden: 0, golden: 0, stone: 1, iron: 2, diamond: 3, netherite: 4 }
const AXE_DAMAGE = { wooden: 7, golden: 7, stone: 9, iron: 9, diamond: 9, netherite: 10 }
const AXE_SPEED = { wooden: 0.8, golden: 1.0, stone: 0.8, iron: 0.9, diamond: 1.0, netherite: 1.0 }
const HOE_SPEED = { wooden: 1.0, golden: 1.0, stone: 2.0, iron: 3.0, diamond: 4.0, netherite: 4.0 }

module.exports = function combat (ctx) {
  const { registry, items: I } = ctx

  function damageTypeId (name) {
    const reg = registry.loginPacket?.dimensionCodec?.['minecraft:damage_type']
    const entries = reg?.entries || []
    const i = entries.findIndex(e => e.key === 'minecraft:' + name)
    return i < 0 ? 0 : i
  }

  // weapon returns the held item's attack damage and attack speed.
  function weapon (stack) {
    const name = I.isEmpty(stack) ? '' : I.name(stack)
    const m = /^(wooden|stone|iron|diamond|golden|netherite)_(pickaxe|axe|shovel|hoe|sword)$/.exec(name)
    if (!m) {
      if (name === 'trident') return { damage: 9, speed: 1.1 }
      if (name === 'mace') return { damage: 6, speed: 0.6 }
      return { damage: 1, speed: 4 }
    }
    const [, tier, kind] = m
    switch (kind) {
      case 'sword': return { damage: 4 + TIER_BONUS[tier], speed: 1.6 }
      case 'pickaxe': return { damage: 2 + TIER_BONUS[tier], speed: 1.2 }
      case 'shovel': return { damage: 2.5 + TIER_BONUS[tier], speed: 1.0 }
      case 'axe': return { damage: AXE_DAMAGE[tier], speed: AXE_SPEED[tier] }
      default: return { damage: 1, speed: HOE_SPEED[tier] }
    }
  }

  function velocityPacket (entity, v) {
    const c = (x) => Math.max(-32768, Math.min(32767, Math.round(x * 8000)))
    return { entityId: entity.id, velocity: { x: c(v.x), y: c(v.y), z: c(v.z) } }
  }

  // knockback is LivingEntity.knockback; dx, dz point from the victim to
  // the attacker.
  function knockback (victim, strength, dx, dz) {
    const len = Math.sqrt(dx * dx + dz * dz)
    if (strength <= 0 || len < 1e-5) return
    // The server does not simulate a player's motion; a mob's is its own.
    const v = victim.motion || { x: 0, y: 0, z: 0 }
    const onGround = victim.type === 'player' ? ctx.state(victim).onGround : victim.onGround
    const nv = {
      x: v.x / 2 - (dx / len) * strength,
      y: onGround ? Math.min(0.4, v.y / 2 + strength) : v.y,
      z: v.z / 2 - (dz / len) * strength
    }
    if (victim.type === 'player') {
      // The game marks the player hurt and sends its motion to it and to
      // everyone tracking it; the player moves itself.
      ctx.writeToTrackers(victim, 'entity_velocity', velocityPacket(victim, nv), true)
      const yaw = Math.atan2(dz, dx) * 180 / Math.PI - (ctx.state(victim).yaw || 0)
      victim._client.write('hurt_animation', { entityId: victim.id, yaw })
    } else {
      victim.motion = nv
      ctx.writeToTrackers(victim, 'entity_velocity', velocityPacket(victim, nv), false)
    }
  }

  // posOf is where an entity is: the plugin's own mobs keep it in simPos.
  function posOf (entity) {
    return entity.simPos || entity.position
  }

  function livingOf (entity) {
    return entity.type === 'player' ? ctx.state(entity).living : entity.living
  }

  // hurt is LivingEntity.hurt for a player or one of the plugin's mobs.
  // Returns whether the hit counted.
  function hurt (victim, amount, source) {
    const living = livingOf(victim)
    if (!living || living.dead) return false
    if (victim.type === 'player') {
      if (victim.gameMode === 1 || victim.gameMode === 3) return false
      if (source.scalesWithDifficulty) {
        const difficulty = ctx.serv.difficulty ?? 1
        if (difficulty === 0) amount = 0
        else if (difficulty === 1) amount = Math.min(amount / 2 + 1, amount)
        else if (difficulty === 3) amount = amount * 3 / 2
      }
      if (amount <= 0) return false
    }
    let fresh
    if (living.invulnerableTime > 10) {
      if (amount <= living.lastHurt) return false
      applyDamage(victim, amount - living.lastHurt)
      living.lastHurt = amount
      fresh = false
    } else {
      living.lastHurt = amount
      living.invulnerableTime = 20
      applyDamage(victim, amount)
      fresh = true
    }
    const health = victim.type === 'player' ? victim.health : victim.health
    ctx.log('hurt', { victim: nameOf(victim), victimId: victim.id, attacker: source.attacker ? nameOf(source.attacker) : null, attackerId: source.attacker ? source.attacker.id : null, type: source.type, typeId: damageTypeId(source.type), amount, health, fresh })
    if (fresh) {
      const attacker = source.attacker
      ctx.writeToTrackers(victim, 'damage_event', {
        entityId: victim.id,
        sourceTypeId: damageTypeId(source.type),
        sourceCauseId: attacker ? attacker.id + 1 : 0,
        sourceDirectId: attacker ? attacker.id + 1 : 0,
        sourcePosition: undefined
      }, true)
      if (attacker) {
        const a = posOf(attacker)
        const v = posOf(victim)
        knockback(victim, 0.4, a.x - v.x, a.z - v.z)
      }
    }
    if (health <= 0) die(victim, source)
    return true
  }

  function applyDamage (victim, amount) {
    if (victim.type === 'player') {
      victim.updateHealth(Math.max(0, victim.health - amount))
    } else {
      victim.health = Math.max(0, victim.health - amount)
      const keys = registry.entities[victim.entityType]?.metadataKeys
      const key = keys ? keys.indexOf('health') : 9
      ctx.writeToTrackers(victim, 'entity_metadata', { entityId: victim.id, metadata: [{ key, type: 'float', value: victim.health }] }, false)
    }
  }

  function die (victim, source) {
    const living = livingOf(victim)
    living.dead = true
    living.deathTime = 0
    ctx.writeToTrackers(victim, 'entity_status', { entityId: victim.id, entityStatus: 3 }, false)
    ctx.log('death', { victim: nameOf(victim), victimId: victim.id, killer: source.attacker ? nameOf(source.attacker) : null, type: source.type })
    if (victim.type !== 'player') ctx.mobs.onDeath(victim, source)
  }

  function nameOf (entity) {
    return entity.type === 'player' ? entity.username : (entity.name || 'entity')
  }

  // attackStrengthScale is Player.getAttackStrengthScale(0.5).
  function attackStrengthScale (player) {
    const st = ctx.state(player)
    const delay = 20 / weapon(ctx.heldItem(player)).speed
    return Math.max(0, Math.min(1, (st.attackStrengthTicker + 0.5) / delay))
  }

  // attack is Player.attack without criticals, sweeping or enchantments.
  function attack (player, target) {
    const st = ctx.state(player)
    const base = weapon(ctx.heldItem(player)).damage
    const h = attackStrengthScale(player)
    const damage = base * (0.2 + h * h * 0.8)
    st.attackStrengthTicker = 0
    ctx.log('attack', { player: player.username, target: nameOf(target), targetId: target.id, strength: h, damage })
    hurt(target, damage, { type: 'player_attack', attacker: player, scalesWithDifficulty: false })
  }

  function onUseEntity (player, { target, mouse }) {
    if (mouse !== 1) return
    const entity = ctx.serv.entities[target]
    if (!entity || entity === player || player.gameMode === 3) return
    if (!livingOf(entity)) return
    if (!ctx.canInteractWithEntity(player, entity, 3.0)) return
    attack(player, entity)
  }

  function tickLiving (living) {
    if (living.invulnerableTime > 0) living.invulnerableTime--
  }

  return { hurt, attack, onUseEntity, tickLiving, weapon, damageTypeId }
}
