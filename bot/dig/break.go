package dig

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/geom"
)

// DigResult is what a dig did, from the server's answer.
type DigResult struct {
	Dug bool
	// Block is what was at the position when the dig began.
	Block string
	// Tool is the item the bot dug with, "" for the hand.
	Tool string
	// Ticks is the break time the bot waited, in game ticks.
	Ticks int
	// Drops says whether the block drops anything with that tool.
	Drops  bool
	Reason string
}

// Game modes as the server sends them.
const (
	survival  = 0
	creative  = 1
	adventure = 2
	spectator = 3
)

// refuse is a dig the bot does not try, with the reason.
func refuse(block, reason string) DigResult { return DigResult{Block: block, Reason: reason} }

// Dig breaks the block at p: it refuses what cannot be broken and says
// why, walks within reach when the body can, takes the best tool the bot
// carries, looks at the block, starts digging, finishes after the game's
// break time (counted on the session's tick), and reports dug once the
// server's block change has made the block air. Cancelling ctx aborts the
// dig (the server is told).
func (d *Dig) Dig(ctx context.Context, p world.BlockPos) (DigResult, error) {
	d.op.Lock()
	defer d.op.Unlock()
	return d.dig(ctx, p, true)
}

// dig breaks the block at p; walk says whether it may walk within reach
// (the body's own digging steps may not: the body is in the middle of a
// walk).
func (d *Dig) dig(ctx context.Context, p world.BlockPos, walk bool) (DigResult, error) {
	if d.g == nil {
		return DigResult{}, fmt.Errorf("blockmate has no block data for %v", d.c)
	}
	st, ok := d.blockAt(p)
	if !ok {
		return refuse("", fmt.Sprintf("the chunk holding %s is not loaded, so the bot cannot see the block; go closer first", posString(p))), nil
	}
	b := d.g.BlockOf(st)
	name := d.blockName(st)
	switch {
	case d.isAir(st):
		return refuse(name, fmt.Sprintf("there is no block at %s (air)", posString(p))), nil
	case b == nil:
		return refuse(name, fmt.Sprintf("the block at %s is unknown to blockmate's data", posString(p))), nil
	case d.g.Fluid(st).Kind != mcdata.NoFluid && (b.Name == "water" || b.Name == "lava"):
		return refuse(name, fmt.Sprintf("%s at %s is a fluid; it cannot be dug (place a block into it instead)", name, posString(p))), nil
	case b.Hardness < 0:
		return refuse(name, fmt.Sprintf("%s cannot be broken in survival", name)), nil
	}
	me := d.self.Snapshot()
	switch me.GameMode {
	case adventure:
		return refuse(name, "the bot is in adventure mode, where blocks cannot be broken"), nil
	case spectator:
		return refuse(name, "the bot is in spectator mode, where blocks cannot be broken"), nil
	}
	if me.Dead {
		return refuse(name, "the bot is dead: call mc_respawn"), nil
	}
	if err := d.reachBlock(ctx, p, walk); err != nil {
		if ctx.Err() != nil {
			return refuse(name, ""), err
		}
		return refuse(name, err.Error()), nil
	}

	tool, err := d.equipBest(ctx, b)
	if err != nil {
		return refuse(name, ""), err
	}
	cond := d.conditions()
	ticks, _ := BreakTicks(b, cond)
	if me.GameMode == creative {
		ticks = 0
	}
	res := DigResult{Block: name, Tool: tool, Ticks: ticks, Drops: b.CanHarvest(cond.ToolID)}
	if err := d.body.LookAt(ctx, center(p)); err != nil {
		return res, err
	}

	face := faceToward(p, d.eyes())
	start := d.nextSeq()
	if err := d.send(codec.PlayerAction{Status: codec.ActionStartDigging, Pos: codec.BlockPos(p), Face: face, Sequence: start}); err != nil {
		return res, err
	}
	last := start
	if ticks > 0 {
		if err := d.waitTicks(ctx, ticks); err != nil {
			abort := d.nextSeq()
			_ = d.send(codec.PlayerAction{Status: codec.ActionAbortDigging, Pos: codec.BlockPos(p), Face: face, Sequence: abort})
			return res, err
		}
		last = d.nextSeq()
		if err := d.send(codec.PlayerAction{Status: codec.ActionStopDigging, Pos: codec.BlockPos(p), Face: face, Sequence: last}); err != nil {
			return res, err
		}
	}
	// The server answers with the block's change, then the acknowledgement
	// of the sequence. A server that judged the finish early (the game
	// allows 30 % for latency) breaks the block on the tick its progress
	// reaches 1, so the wait goes on a while after the acknowledgement.
	limit := 20 + ticks/2
	broken, err := d.waitFor(ctx, limit, func() bool {
		now, ok := d.blockAt(p)
		return ok && d.isAir(now)
	})
	if err != nil {
		return res, err
	}
	if !broken {
		now, _ := d.blockAt(p)
		if d.ackedAt(last) {
			res.Reason = fmt.Sprintf("the server acknowledged the dig but %s is still at %s (it may protect the block, or judged the bot out of reach)", d.blockName(now), posString(p))
		} else {
			res.Reason = fmt.Sprintf("the server did not answer the dig within %d ticks; %s is still at %s", limit, d.blockName(now), posString(p))
		}
		return res, nil
	}
	res.Dug = true
	return res, nil
}

// send writes a block_dig and a swing of the main hand, as a player's
// click does.
func (d *Dig) send(a codec.PlayerAction) error {
	if err := d.s.Send(mcdata.ServerboundPlayBlockDig, func(w *wire.Writer) { d.c.WritePlayerAction(w, a) }); err != nil {
		return fmt.Errorf("the dig could not be sent (%v); the connection may be closing: call mc_status", err)
	}
	if swing, ok := d.c.SwingPacket(codec.HandMain); ok && a.Status != codec.ActionAbortDigging {
		_ = d.s.Send(swing, func(w *wire.Writer) { d.c.WriteSwing(w, codec.HandMain) })
	}
	return nil
}

// faceToward is the face of block p that looks at the point e (the face
// whose outward normal is the largest part of the way from the block's
// centre to e).
func faceToward(p world.BlockPos, e geom.Vec3) int8 {
	c := center(p)
	dx, dy, dz := e.X-c.X, e.Y-c.Y, e.Z-c.Z
	ax, ay, az := math.Abs(dx), math.Abs(dy), math.Abs(dz)
	switch {
	case ay >= ax && ay >= az:
		if dy > 0 {
			return codec.FaceUp
		}
		return codec.FaceDown
	case ax >= az:
		if dx > 0 {
			return codec.FaceEast
		}
		return codec.FaceWest
	default:
		if dz > 0 {
			return codec.FaceSouth
		}
		return codec.FaceNorth
	}
}

// conditions are the bot's digging conditions now, with what it holds.
func (d *Dig) conditions() Conditions {
	v := d.inv.View()
	c := d.conditionsWith(v.Held())
	return c
}

// conditionsWith are the bot's digging conditions were it holding s.
func (d *Dig) conditionsWith(s item.Stack) Conditions {
	c := Hand()
	if !s.Empty() {
		c.Tool, c.ToolID = s.Name, mcdata.ItemID(s.ID)
		c.Efficiency = d.enchantment(s, "efficiency")
	}
	if a, ok := d.Effect("haste"); ok {
		c.Haste = int(a)
	}
	if a, ok := d.Effect("conduit_power"); ok && int(a) > c.Haste {
		c.Haste = int(a)
	}
	if a, ok := d.Effect("mining_fatigue"); ok {
		c.MiningFatigue = int(a)
	}
	me := d.self.Snapshot()
	c.OnGround = me.OnGround || d.standsOnBlock(me.Position)
	eye := d.eyes()
	if st, ok := d.blockAt(world.BlockPos{X: int(math.Floor(eye.X)), Y: int(math.Floor(eye.Y)), Z: int(math.Floor(eye.Z))}); ok {
		c.EyesInWater = d.g.Fluid(st).Kind == mcdata.Water
	}
	c.AquaAffinity = d.enchantment(d.inv.View().Slots[inventory.SlotHead], "aqua_affinity") > 0
	return c
}

// enchantment is a stack's level of the named enchantment, looked up in
// the enchantment registry the server sent (the static vanilla order when
// it sent none).
func (d *Dig) enchantment(s item.Stack, name string) int {
	if s.Empty() {
		return 0
	}
	list, ok := s.Enchantments()
	if !ok {
		return 0
	}
	for _, e := range list {
		n, ok := d.reg.Enchantment(e.ID)
		if !ok && int(e.ID) >= 0 && int(e.ID) < len(d.g.Enchantments) {
			n = d.g.Enchantments[e.ID].Name
		}
		if n == name {
			return int(e.Level)
		}
	}
	return 0
}

// equipBest puts the best tool the bot carries for b in its hand (the
// held item when nothing is better) and returns its name, "" for a bare
// hand. Best is: one that makes the block drop, if any does; then the
// fewest ticks; then what is already held.
func (d *Dig) equipBest(ctx context.Context, b *mcdata.Block) (string, error) {
	v := d.inv.View()
	held := v.Held()
	best := bestTool(b, d.toolConditions(v))
	if best.name == "" || (!held.Empty() && best.name == held.Name) {
		return best.name, nil
	}
	r, err := d.inv.Equip(ctx, best.name, inventory.Hand)
	if err != nil {
		if errors.Is(err, inventory.ErrNotCarried) {
			return d.inv.View().Held().Name, nil
		}
		return "", fmt.Errorf("equipping %s to dig failed: %v", best.name, err)
	}
	if !r.Equipped {
		// Dig with what is held rather than not at all.
		return d.inv.View().Held().Name, nil
	}
	return best.name, nil
}

// standsOnBlock says whether feet at p rest on the top of a collision box
// of the block under them. The body's on-ground flag lags a position sync
// by a tick or two (its first step after one moves nothing, so it touches
// no ground), and a dig begun then must not take five times too long.
func (d *Dig) standsOnBlock(p geom.Vec3) bool {
	if !p.Finite() {
		return false
	}
	x, z := int(math.Floor(p.X)), int(math.Floor(p.Z))
	// The block whose box top may be at the feet: the one they are in (a
	// slab's top half is air) or the one below.
	for _, y := range []int{int(math.Floor(p.Y)), int(math.Floor(p.Y)) - 1} {
		st, ok := d.blockAt(world.BlockPos{X: x, Y: y, Z: z})
		if !ok {
			return false
		}
		for _, b := range d.g.Shapes(st) {
			if math.Abs(float64(y)+b.MaxY-p.Y) < 1e-6 {
				return true
			}
		}
	}
	return false
}

// toolChoice is how one tool does on a block.
type toolChoice struct {
	name  string
	drops bool
	ticks int
}

// toolConditions are the digging conditions with each item the bot
// carries in hand, the held item first (a tie keeps it).
func (d *Dig) toolConditions(v inventory.View) []Conditions {
	out := []Conditions{d.conditionsWith(v.Held())}
	seen := map[string]bool{v.Held().Name: true}
	for s := inventory.SlotMainFirst; s < inventory.SlotOffhand; s++ {
		if st := v.Slots[s]; !st.Empty() && !seen[st.Name] {
			seen[st.Name] = true
			out = append(out, d.conditionsWith(st))
		}
	}
	return out
}

// bestTool is the best of the conditions for b: one that makes the block
// drop, if any does; then the fewest ticks; then the first (what is held).
func bestTool(b *mcdata.Block, conds []Conditions) toolChoice {
	var best toolChoice
	for i, c := range conds {
		t, _ := BreakTicks(b, c)
		ch := toolChoice{c.Tool, b.CanHarvest(c.ToolID), t}
		if i == 0 || ch.drops && !best.drops || ch.drops == best.drops && ch.ticks < best.ticks {
			best = ch
		}
	}
	return best
}
