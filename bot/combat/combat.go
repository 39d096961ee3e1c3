// Package combat is the bot's fighting: attacking one target until it dies
// (mc_attack) and, while enabled, hitting hostile mobs that come within
// reach (mc_defend).
//
// An attack is what the game's client sends for a left click on an entity:
// the attack (use_entity, or 26.1's attack packet) and the swing. The
// server scales damage by the attack strength, which recovers over ticks
// after each swing at the rate of the held item's attack speed, so the bot
// waits for full strength before each hit. The server decides reach (3
// blocks from the eyes to the target's box) and says what the hit did:
// the target's death event, its health, its removal.
//
// Concurrency: Attack runs on the caller's goroutine and holds the
// session's tick in real time while it fights; defending runs on the tick,
// held in real time while defending is on (no lock held while sending).
// The last attack's tick is shared through an atomic, so both respect one
// cooldown.
package combat

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/entity"
	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/move"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/geom"
)

// NearestHostile is the target that means the nearest hostile mob.
const NearestHostile = "nearest_hostile"

// sightRadius bounds the search for a target.
const sightRadius = 32

// Combat is one session's fighting.
type Combat struct {
	s    *core.Session
	c    *codec.Codec
	game *mcdata.GameData
	inv  *inventory.Inventory
	me   *self.Self
	ents *entity.Entities
	body move.Body

	// lastAttack is the tick of the bot's last swing (0: none yet).
	lastAttack atomic.Uint64
	defending  atomic.Bool
	// hold keeps the session's tick in real time while defending: the
	// defence looks for a target at every tick, never in a burst of
	// catch-up ticks. Guarded by holdMu.
	holdMu sync.Mutex
	hold   func()
	// defended counts the defending hits, for tests and status.
	defended atomic.Uint64
}

// Attach registers the fighting tick on s.
func Attach(s *core.Session, inv *inventory.Inventory, me *self.Self, ents *entity.Entities, body move.Body) *Combat {
	f := &Combat{s: s, c: s.Codec, game: mcdata.Game(s.Codec.Protocol), inv: inv, me: me, ents: ents, body: body}
	s.OnTickCatchUp(f.onTick)
	return f
}

// onTick defends at every tick on time; a catch-up tick (only before the
// defence's hold took effect) hits nothing.
func (f *Combat) onTick(n uint64) {
	if f.defending.Load() && !f.s.TickIsLate() {
		f.defend(n)
	}
}

// ---- the cooldown ----

// weaponPattern splits a tool's name into tier and kind.
var weaponPattern = regexp.MustCompile(`^(wooden|stone|copper|iron|golden|diamond|netherite)_(sword|axe|pickaxe|shovel|hoe)$`)

// AttackSpeed is the held item's attacks per second at full strength: the
// game's attack_speed attribute (base 4, plus the item's modifier from its
// default components, Items.java / ToolMaterial, 1.21): swords 1.6,
// pickaxes 1.2, shovels 1.0, axes 0.8 to 1.0 by tier, hoes 1.0 to 4.0 by
// tier, a trident 1.1, a mace 0.6; anything else, the hand's 4.
func AttackSpeed(item string) float64 {
	switch item {
	case "trident":
		return 1.1
	case "mace":
		return 0.6
	}
	m := weaponPattern.FindStringSubmatch(item)
	if m == nil {
		return 4
	}
	tier, kind := m[1], m[2]
	switch kind {
	case "sword":
		return 1.6
	case "pickaxe":
		return 1.2
	case "shovel":
		return 1.0
	case "axe":
		return map[string]float64{"wooden": 0.8, "stone": 0.8, "copper": 0.8, "iron": 0.9, "golden": 1.0, "diamond": 1.0, "netherite": 1.0}[tier]
	}
	return map[string]float64{"wooden": 1, "golden": 1, "stone": 2, "copper": 2, "iron": 3, "diamond": 4, "netherite": 4}[tier]
}

// AttackDamage is the damage of a full-strength hit with the item, in
// half hearts: the game's attack_damage attribute (base 1, plus the
// item's modifier from its default components, Items.java / ToolMaterial,
// 1.21; copper's tier from 1.21.9's ToolMaterial.COPPER, a bonus of 1
// as stone's), before enchantments and criticals. Anything that is no weapon
// hits as the hand does (1).
func AttackDamage(item string) float64 {
	switch item {
	case "trident":
		return 9
	case "mace":
		return 6 // before the fall's bonus
	}
	m := weaponPattern.FindStringSubmatch(item)
	if m == nil {
		return 1
	}
	tier, kind := m[1], m[2]
	bonus := map[string]float64{"wooden": 0, "golden": 0, "stone": 1, "copper": 1, "iron": 2, "diamond": 3, "netherite": 4}[tier]
	switch kind {
	case "sword":
		return 4 + bonus
	case "pickaxe":
		return 2 + bonus
	case "shovel":
		return 2.5 + bonus
	case "axe":
		return map[string]float64{"wooden": 7, "golden": 7, "stone": 9, "copper": 9, "iron": 9, "diamond": 9, "netherite": 10}[tier]
	}
	return 1 // hoes hit as the hand
}

// BestWeapon is the carried item that deals the most damage a second at
// full strength, "" when nothing beats the hand. A mob hurt is immune for
// the next 10 ticks (LivingEntity's invulnerableTime of 20, hurt only
// above 10), so no weapon lands more than two hits a second: the rate is
// damage × min(attacks a second, 2). A sword or an axe, then a pickaxe,
// beats a fist, whose 4 swings a second land only 2.
func BestWeapon(carried map[string]int) string {
	best, bestDPS := "", damagePerSecond("")
	names := make([]string, 0, len(carried))
	for name, n := range carried {
		if n > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names) // the same bag picks the same weapon
	for _, name := range names {
		if dps := damagePerSecond(name); dps > bestDPS+1e-9 {
			best, bestDPS = name, dps
		}
	}
	return best
}

// hitsPerSecond is the most hits a second that hurt a mob (its 10 ticks
// of immunity after each).
const hitsPerSecond = 2

func damagePerSecond(item string) float64 {
	return AttackDamage(item) * min(AttackSpeed(item), hitsPerSecond)
}

// CooldownTicks is how many ticks after a swing the attack strength is
// full again: the game's getAttackStrengthScale reaches 1 when the ticks
// since the swing, plus half a tick, reach 20 / attack speed.
func CooldownTicks(speed float64) uint64 {
	if speed <= 0 {
		return 20
	}
	return uint64(math.Ceil(20/speed - 0.5))
}

// ready says whether a swing now hits at full strength.
func (f *Combat) ready() bool {
	held := ""
	if st := f.inv.View().Held(); !st.Empty() {
		held = inventory.StackName(st)
	}
	last := f.lastAttack.Load()
	return last == 0 || f.s.Tick()-last >= CooldownTicks(AttackSpeed(held))
}

// hit sends one attack on an entity and the swing, as the game's client
// does for a left click.
func (f *Combat) hit(id int32) error {
	i := codec.Interact{EntityID: id, Attack: true}
	out := []core.Out{{Packet: f.c.InteractPacket(i), Build: func(w *wire.Writer) { f.c.WriteInteract(w, i) }}}
	if swing, ok := f.c.SwingPacket(codec.HandMain); ok {
		out = append(out, core.Out{Packet: swing, Build: func(w *wire.Writer) { f.c.WriteSwing(w, codec.HandMain) }})
	}
	err := f.s.Batch(out...)
	if err == nil {
		f.lastAttack.Store(max(f.s.Tick(), 1))
	}
	return err
}

// ---- reach ----

// eyes is where the bot's eyes are.
func (f *Combat) eyes() geom.Vec3 {
	p := f.me.Snapshot().Position
	p.Y += physics.EyeHeight
	return p
}

// box is an entity's box: its type's size around its position.
func (f *Combat) box(e entity.Entity) (lo, hi geom.Vec3) {
	w, h := 0.6, 1.8
	if t := f.game.EntityByName(e.Type); t != nil && t.Width > 0 {
		w, h = t.Width, t.Height
	}
	p := e.Position
	return geom.Vec3{X: p.X - w/2, Y: p.Y, Z: p.Z - w/2}, geom.Vec3{X: p.X + w/2, Y: p.Y + h, Z: p.Z + w/2}
}

// distance is from the eyes to the nearest point of the entity's box, as
// the game measures reach.
func (f *Combat) distance(from geom.Vec3, e entity.Entity) float64 {
	lo, hi := f.box(e)
	c := func(v, a, b float64) float64 { return math.Max(a, math.Min(v, b)) - v }
	dx, dy, dz := c(from.X, lo.X, hi.X), c(from.Y, lo.Y, hi.Y), c(from.Z, lo.Z, hi.Z)
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

// center is the middle of the entity's box, where the bot looks.
func (f *Combat) center(e entity.Entity) geom.Vec3 {
	lo, hi := f.box(e)
	return geom.Vec3{X: (lo.X + hi.X) / 2, Y: (lo.Y + hi.Y) / 2, Z: (lo.Z + hi.Z) / 2}
}

// ---- targets ----

// ErrNoTarget is Attack's error when nothing matching the target is in
// sight.
var ErrNoTarget = errors.New("no such target in sight")

// find chooses the entity a target names: "nearest_hostile", a player's
// username, or an entity type ("zombie"); the nearest living one.
func (f *Combat) find(target string) (entity.Entity, error) {
	me := f.me.Snapshot()
	want := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(target)), "minecraft:")
	near, _ := f.ents.Near(me.Position, sightRadius)
	for _, e := range near {
		if e.ID == me.EntityID || e.Dead {
			continue
		}
		switch {
		case want == NearestHostile && e.Hostile && !e.Player:
			return e, nil
		case e.Player && strings.EqualFold(e.Username, strings.TrimSpace(target)):
			return e, nil
		case !e.Player && e.Type == want:
			return e, nil
		}
	}
	switch {
	case want == NearestHostile:
		return entity.Entity{}, fmt.Errorf("%w: no hostile mob within %d blocks", ErrNoTarget, sightRadius)
	case f.game.EntityByName(want) != nil:
		return entity.Entity{}, fmt.Errorf("%w: no living %s within %d blocks", ErrNoTarget, want, sightRadius)
	}
	return entity.Entity{}, fmt.Errorf("%w: no player or entity type called %q within %d blocks", ErrNoTarget, target, sightRadius)
}

// ---- attacking ----

// Result is what Attack did, from the server's answers.
type Result struct {
	// Target is the entity's type, and Name a player's username.
	Target string
	Name   string
	// Hits is how many attacks were sent.
	Hits   int
	Killed bool
	// Weapon is what the bot held for the fight ("" for the hand).
	Weapon string
	// Died is true when the bot died in the fight; LowHealth when it
	// stopped because its health fell to the low-health mark.
	Died      bool
	LowHealth bool
	Health    float32
	Reason    string
}

// Options shape one fight.
type Options struct {
	// ToTheEnd keeps fighting below the low-health mark; without it the
	// bot stops there, as a player backs off to eat and heal.
	ToTheEnd bool
}

// maxFightTicks bounds one Attack: a minute of game time.
const maxFightTicks = 1200

// comeBackTicks is how long Attack waits for a target out of reach, where
// the body cannot follow, to come back (a knocked-back mob does).
const comeBackTicks = 60

// Attack fights the target until it dies: within reach it looks at the
// target and hits at full attack strength; out of reach it asks the body
// to close in. Killed is true once the server says the target died (its
// death event or health 0), or removed it right after a hit.
//
// It fights with the best weapon carried (BestWeapon), taken in hand
// first, and, unless opts.ToTheEnd, stops with LowHealth set once the
// bot's health is at the low-health mark (mc_low_health's).
func (f *Combat) Attack(ctx context.Context, target string, opts Options) (Result, error) {
	e, err := f.find(target)
	if err != nil {
		return Result{}, err
	}
	res := Result{Target: e.Type, Name: e.Username}
	id := e.ID
	if me := f.me.Snapshot(); me.HasHealth && !opts.ToTheEnd && me.Health <= f.me.LowHealthThreshold() {
		res.LowHealth, res.Health = true, me.Health
		res.Reason = fmt.Sprintf("the bot's health is low (%.0f of %d): it does not start a fight like this", me.Health, self.MaxHealth)
		return res, nil
	}
	res.Weapon = f.takeWeapon(ctx)
	// The fight counts its ticks (the cooldown, the deadline) in real
	// time from the start.
	defer f.s.HoldRealTime()()
	deadline := f.s.Tick() + maxFightTicks
	// outOfReach is the tick the target went out of reach where the body
	// could not follow, 0 while it is in reach.
	var outOfReach uint64
	for {
		cur, ok := f.ents.Get(id)
		switch {
		case ok && cur.Dead:
			res.Killed = true
			return res, nil
		case !ok && res.Hits > 0:
			// The server removed it: a mob removed after the bot's hits
			// died of them (the death event may have come and gone).
			res.Killed = true
			return res, nil
		case !ok:
			res.Reason = "the target went out of sight"
			return res, nil
		}
		if f.s.Tick() >= deadline {
			res.Reason = fmt.Sprintf("the %s was still alive after %d hits and a minute of fighting", res.Target, res.Hits)
			return res, nil
		}
		me := f.me.Snapshot()
		if me.Dead {
			res.Died = true
			res.Reason = "the bot died"
			return res, nil
		}
		if me.HasHealth && !opts.ToTheEnd && me.Health <= f.me.LowHealthThreshold() {
			res.LowHealth, res.Health = true, me.Health
			res.Reason = fmt.Sprintf("the bot stopped fighting at low health (%.0f of %d) after %d hits", me.Health, self.MaxHealth, res.Hits)
			return res, nil
		}
		if d := f.distance(f.eyes(), cur); d > physics.EntityReach {
			err := f.body.GoNear(ctx, cur.Position, physics.EntityReach-0.5)
			switch {
			case ctx.Err() != nil:
				return res, ctx.Err()
			case err == nil:
				outOfReach = 0
				continue
			}
			// A hit knocks the target back; a mob comes back on its own.
			// Give it a moment before giving up.
			if outOfReach == 0 {
				outOfReach = f.s.Tick()
			}
			if f.s.Tick()-outOfReach >= comeBackTicks {
				res.Reason = fmt.Sprintf("the %s is out of reach (%.1f blocks): %v", res.Target, d, err)
				return res, nil
			}
			if err := f.waitTick(ctx); err != nil {
				return res, err
			}
			continue
		}
		outOfReach = 0
		if err := f.body.LookAt(ctx, f.center(cur)); err != nil {
			return res, err
		}
		if !f.ready() {
			if err := f.waitTick(ctx); err != nil {
				return res, err
			}
			continue
		}
		if err := f.hit(id); err != nil {
			return res, err
		}
		res.Hits++
		// Let the server answer before looking again.
		if err := f.waitTick(ctx); err != nil {
			return res, err
		}
	}
}

// takeWeapon holds the best weapon carried for a fight and names what is
// held; a weapon that cannot be taken in hand leaves the fight to what is
// held rather than stopping it.
func (f *Combat) takeWeapon(ctx context.Context) string {
	v := f.inv.View()
	carried := map[string]int{}
	for s := inventory.SlotMainFirst; s <= inventory.SlotOffhand; s++ {
		if st := v.Slots[s]; !st.Empty() {
			carried[inventory.StackName(st)] += int(st.Count)
		}
	}
	held := inventory.StackName(v.Held())
	best := BestWeapon(carried)
	if best == "" || best == held {
		return weaponName(best)
	}
	if r, err := f.inv.Equip(ctx, best, inventory.Hand); err == nil && r.Equipped {
		return best
	}
	return weaponName(inventory.StackName(f.inv.View().Held()))
}

// weaponName is what the answer says the bot fought with: "" (the hand)
// for anything that hits no harder than a fist.
func weaponName(held string) string {
	if damagePerSecond(held) <= damagePerSecond("")+1e-9 {
		return ""
	}
	return held
}

// waitTick waits for the next tick or an entity change.
func (f *Combat) waitTick(ctx context.Context) error {
	return f.s.WaitTickOr(ctx, f.ents.Changed)
}

// ---- defending ----

// SetDefending turns defending on or off.
func (f *Combat) SetDefending(on bool) {
	f.holdMu.Lock()
	defer f.holdMu.Unlock()
	f.defending.Store(on)
	switch {
	case on && f.hold == nil:
		f.hold = f.s.HoldRealTime()
	case !on && f.hold != nil:
		f.hold()
		f.hold = nil
	}
}

// Defending says whether the bot defends itself.
func (f *Combat) Defending() bool { return f.defending.Load() }

// DefendHits is how many hits defending has sent this session.
func (f *Combat) DefendHits() uint64 { return f.defended.Load() }

// defend runs on the tick while defending: when the attack strength is
// full, it hits the nearest living hostile mob within reach. It does not
// turn the head (the server does not check where a player looks when it
// hits) and does not walk: it answers what comes close.
func (f *Combat) defend(uint64) {
	me := f.me.Snapshot()
	if me.Dead || !f.ready() {
		return
	}
	eyes := me.Position
	eyes.Y += physics.EyeHeight
	near, _ := f.ents.Near(me.Position, physics.EntityReach+3)
	for _, e := range near {
		if e.ID == me.EntityID || e.Dead || !e.Hostile || e.Player {
			continue
		}
		if f.distance(eyes, e) <= physics.EntityReach {
			if f.hit(e.ID) == nil {
				f.defended.Add(1)
			}
			return
		}
	}
}
