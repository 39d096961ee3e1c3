package dig

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/blockmate/blockmate/bot/entity"
	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/move"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/geom"
)

// CollectRadius is how far Collect looks for blocks, in blocks.
const CollectRadius = 64

// pickupTicks bounds the wait for a block's drop to reach the inventory:
// a drop may be picked up 10 ticks after it appears (ItemEntity's pick-up
// delay), and it falls and slides first.
const pickupTicks = 40

// maxFailures is how many blocks in a row may fail before Collect gives
// up.
const maxFailures = 5

// CollectResult is what Collect gathered, counted from the inventory.
type CollectResult struct {
	// Collected is how many more of the wanted items the inventory holds
	// than when the collect began.
	Collected int
	// Item names what Collect counts: the one item (oak_log for oak_log,
	// cobblestone for stone, coal for coal), or the word as understood
	// when several items count ("logs" for any log kind).
	Item string
	// Items is what arrived, item by item, when more than one kind counts.
	Items []PickedUp
	// Dug is how many blocks of the kinds asked for the bot broke;
	// DugThrough the other blocks it broke on its way to buried ones,
	// block by block (never silently).
	Dug        int
	DugThrough []PickedUp
	// Sources are the blocks Collect breaks for the items, by name.
	Sources  []string
	Reason   string
	NextStep string
	// MissingTool names the tools that would harvest the sources when the
	// bot carries none of them (stone needs a pickaxe).
	MissingTool []string
}

// itemSet is the items a collect counts, by name.
type itemSet map[string]bool

// count is how many of the set's items v holds.
func (s itemSet) count(v inventory.View) int {
	n := 0
	for s2 := inventory.SlotMainFirst; s2 <= inventory.SlotOffhand; s2++ {
		if st := v.Slots[s2]; !st.Empty() && s[st.Name] {
			n += int(st.Count)
		}
	}
	return n
}

// Collect breaks blocks that drop what the word names ("oak_log", "coal"
// for coal ore and deepslate coal ore, "cobblestone" for stone and
// cobblestone, "dirt" for grass blocks too, "wood" for any log; resolved
// by mcdata.Gatherable from the game's drop tables), exposed ones nearest
// first, tunnelling to the nearest buried one when none is exposed, and
// picks up their drops until the inventory holds count more of the items
// than when it began (counted from the inventory, not from the digs).
// progress is called with the count so far after every block. Cancelling
// ctx stops it within a tick (an unfinished dig is aborted).
func (d *Dig) Collect(ctx context.Context, word string, count int, progress func(done, total int)) (res CollectResult, err error) {
	if d.g == nil {
		return CollectResult{}, fmt.Errorf("blockmate has no block data for %v", d.c)
	}
	want, err := resolveGather(d.g, word)
	if err != nil {
		return CollectResult{}, err
	}
	res = CollectResult{Item: want.label}
	wanted, sources := want.items, want.sources
	if len(sources) == 0 {
		res.Reason = fmt.Sprintf("no block drops %s when broken, so there is nothing to collect", res.Item)
		res.NextStep = "call mc_recipe to see how it is made"
		return res, nil
	}
	var blocks []*mcdata.Block
	for _, s := range sources {
		res.Sources = append(res.Sources, s.Block.Name)
		if d.canHarvest(s.Block) {
			blocks = append(blocks, s.Block)
		}
	}
	if len(blocks) == 0 {
		res.MissingTool = d.toolNames(sources[0].Block)
		res.Reason = fmt.Sprintf("%s drops nothing unless broken with the right tool (%s), and the bot carries none", sources[0].Block.Name, strings.Join(res.MissingTool, ", "))
		res.NextStep = "craft or fetch one of those tools (mc_craft), then call mc_collect again"
		if len(res.MissingTool) > 0 {
			res.NextStep = fmt.Sprintf("craft or fetch a %s (mc_craft %s), or call mc_collect again with craft_tools=true", res.MissingTool[0], res.MissingTool[0])
		}
		return res, nil
	}
	states := d.g.StatesOf(func(b *mcdata.Block) bool { return slices.Contains(blocks, b) })
	start := wanted.count(d.inv.View())
	before := totals(d.inv.View())
	collected := func() int { return max(0, wanted.count(d.inv.View())-start) }
	finish := func() {
		res.Collected = collected()
		if len(wanted) > 1 {
			res.Items = arrived(before, totals(d.inv.View()), wanted)
		}
		var wantedOnTheWay int
		res.DugThrough, wantedOnTheWay = d.stopRecording()
		res.Dug += wantedOnTheWay
	}
	// finish fills the answer's counts however the collect ends (res is
	// the named result, so what it sets is what the caller gets).
	d.startRecording(states.Has)
	defer finish()

	tried := map[world.BlockPos]bool{}
	failures, lastReason := 0, ""
	report := -1
	swept := false
	for {
		res.Collected = collected()
		if res.Collected != report && progress != nil {
			progress(min(res.Collected, count), count)
			report = res.Collected
		}
		if res.Collected >= count {
			return res, nil
		}
		if err := context.Cause(ctx); err != nil {
			return res, err
		}
		target, open, ok := d.nearest(states.Has, tried)
		if !ok && !swept {
			// Drops that bounced out of reach while the bot dug on are
			// worth one more try before giving up.
			swept = true
			if err := d.sweep(ctx, wanted); err != nil {
				return res, err
			}
			continue
		}
		if !ok {
			res.Reason = fmt.Sprintf("no more %s within %d blocks that the bot can see or tunnel to", strings.Join(res.Sources, " or "), CollectRadius)
			if lastReason != "" {
				res.Reason += " (the last one failed: " + lastReason + ")"
			}
			res.NextStep = fmt.Sprintf("move to where there is more %s, then call mc_collect again", res.Item)
			return res, nil
		}
		if open && boxDistance(d.eyes(), target) > physics.BlockReach {
			if err := d.reachBlock(ctx, target, true); err != nil {
				if ctx.Err() != nil {
					return res, context.Cause(ctx)
				}
				// Its open face is on air the bot cannot walk to (a pocket
				// inside the stone, a ledge): dig a way, as to a buried one.
				open = false
			}
		}
		if !open {
			// Buried: dig a way to it, as mc_goto with dig=true does
			// (staircases, never the block underfoot), so that its drop
			// falls where the bot stands instead of sealed in stone.
			if err := d.tunnelTo(ctx, target); err != nil {
				if ctx.Err() != nil {
					return res, context.Cause(ctx)
				}
				tried[target] = true
				failures++
				lastReason = "tunnelling to it: " + err.Error()
				if failures >= maxFailures {
					res.Reason = fmt.Sprintf("%d blocks in a row could not be reached or dug; the last: %s", failures, lastReason)
					res.NextStep = "call mc_find_blocks to see where they are, and move closer"
					return res, nil
				}
				continue
			}
			if !d.exposed(target) {
				tried[target] = true
				continue
			}
		}
		had := wanted.count(d.inv.View())
		r, err := d.Dig(ctx, target)
		if err != nil {
			return res, err
		}
		if !r.Dug {
			tried[target] = true
			failures++
			lastReason = r.Reason
			if failures >= maxFailures {
				res.Reason = fmt.Sprintf("%d blocks in a row could not be dug; the last: %s", failures, r.Reason)
				res.NextStep = "call mc_find_blocks to see where they are, and move closer"
				return res, nil
			}
			continue
		}
		failures = 0
		res.Dug++
		if err := d.pickUpDrop(ctx, center(target), wanted, had); err != nil {
			return res, err
		}
	}
}

// gathering is what a collect word means: the items counted, what the
// answer calls them, and the blocks to break.
type gathering struct {
	items   itemSet
	label   string
	sources []mcdata.DropSource
}

// resolveGather reads a word as mcdata.Gatherable does (the game's drop
// tables and item tags): the blocks that always drop one of its items, or,
// when only a chance drop gives it (flint from gravel), those, to dig
// until enough has arrived.
func resolveGather(g *mcdata.GameData, word string) (gathering, error) {
	gather, ok := g.Gatherable(word)
	if !ok {
		return gathering{}, fmt.Errorf("%q is neither an item nor a block of %s; give a block or item name (oak_log, stone, coal, cobblestone, dirt) or a word such as wood or logs", word, g.Version)
	}
	out := gathering{items: itemSet{}, label: gather.Word, sources: gather.Sources}
	for _, id := range gather.Items {
		if it := g.Item(id); it != nil {
			out.items[it.Name] = true
		}
	}
	if len(gather.Items) == 1 {
		if it := g.Item(gather.Items[0]); it != nil {
			out.label = it.Name
		}
	}
	if len(out.sources) == 0 {
		out.sources = gather.ByChance
	}
	return out, nil
}

// arrived lists the wanted items whose count went up from before to after.
func arrived(before, after map[string]int, wanted itemSet) []PickedUp {
	var out []PickedUp
	for name, n := range after {
		if wanted[name] && n > before[name] {
			out = append(out, PickedUp{name, n - before[name]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Item < out[j].Item })
	return out
}

// canHarvest says whether the hand or a carried item makes b drop.
func (d *Dig) canHarvest(b *mcdata.Block) bool {
	if b.CanHarvest(mcdata.NoItem) {
		return true
	}
	v := d.inv.View()
	for s := inventory.SlotMainFirst; s < inventory.SlotOffhand; s++ {
		if st := v.Slots[s]; !st.Empty() && b.CanHarvest(mcdata.ItemID(st.ID)) {
			return true
		}
	}
	return false
}

// toolNames lists the tools that harvest b, weakest first as the data
// lists them.
func (d *Dig) toolNames(b *mcdata.Block) []string {
	var out []string
	for _, id := range b.HarvestTools {
		if it := d.g.Item(id); it != nil {
			out = append(out, it.Name)
		}
	}
	return out
}

// pickWindow is how many of the nearest matching blocks beyond those
// already tried the picker weighs: enough to find an exposed one among
// the buried blocks of a vein or a hillside.
const pickWindow = 64

// nearest is the block the collect digs next, among those match accepts
// that it has not tried: the nearest with an open face (a neighbour of
// air, a plant or a fluid, so the bot can see it and its drop falls where
// the bot can fetch it) that the bot may dig from where it stands, those
// in reach first; open is false when no such block is near and the pick
// is the nearest buried one, to be tunnelled to.
func (d *Dig) nearest(match func(mcdata.StateID) bool, tried map[world.BlockPos]bool) (p world.BlockPos, open, ok bool) {
	feet := d.self.Snapshot().Position
	from := world.BlockPos{X: int(math.Floor(feet.X)), Y: int(math.Floor(feet.Y)), Z: int(math.Floor(feet.Z))}
	found := d.world.View().FindBlocks(from, CollectRadius, len(tried)+pickWindow, match)
	eye := d.eyes()
	var buried []world.BlockPos
	best, bestReach := world.BlockPos{}, false
	for _, f := range found {
		if tried[f.Pos] {
			continue
		}
		if !d.exposed(f.Pos) {
			// The digging walk to a buried block keeps to the miner's
			// rule by itself: it never digs under its feet.
			buried = append(buried, f.Pos)
			continue
		}
		if !d.mayDigFrom(feet, f.Pos) {
			continue
		}
		inReach := boxDistance(eye, f.Pos) <= physics.BlockReach
		if !ok || inReach && !bestReach {
			// The nearest exposed one, unless one in reach comes later:
			// the bot digs what it can reach before walking.
			best, bestReach, ok = f.Pos, inReach, true
		}
	}
	if ok {
		return best, true, true
	}
	if len(buried) > 0 {
		return buried[0], false, true
	}
	return world.BlockPos{}, false, false
}

// exposed says whether a block has a face open to a loaded neighbour the
// bot could stand in or see through: air, a plant, a fluid (no collision
// box).
func (d *Dig) exposed(p world.BlockPos) bool {
	v := d.world.View()
	for _, n := range [6]world.BlockPos{
		{X: p.X, Y: p.Y + 1, Z: p.Z}, {X: p.X, Y: p.Y - 1, Z: p.Z},
		{X: p.X + 1, Y: p.Y, Z: p.Z}, {X: p.X - 1, Y: p.Y, Z: p.Z},
		{X: p.X, Y: p.Y, Z: p.Z + 1}, {X: p.X, Y: p.Y, Z: p.Z - 1},
	} {
		if st, loaded := v.BlockAt(n); loaded && (d.isAir(st) || len(d.g.Shapes(st)) == 0) {
			return true
		}
	}
	return false
}

// mayDigFrom is the miner's rule that keeps the bot out of shafts it
// cannot climb out of: never a block under the bot's box (digging it drops
// the bot into the hole it made, and the next one under it makes a 1×1
// shaft), and nothing more than one below the feet's level unless the
// block's top is already open (a cave floor, a hillside), so every hole
// the bot steps into to fetch a drop is one it can jump out of: the
// collect goes down as a staircase, not a shaft.
func (d *Dig) mayDigFrom(feet geom.Vec3, p world.BlockPos) bool {
	fy := int(math.Floor(feet.Y + 1e-6))
	if p.Y < fy && p.Y >= fy-2 && underBox(feet, p) {
		return false
	}
	if p.Y >= fy-1 {
		return true
	}
	st, loaded := d.world.View().BlockAt(world.BlockPos{X: p.X, Y: p.Y + 1, Z: p.Z})
	return loaded && (d.isAir(st) || len(d.g.Shapes(st)) == 0)
}

// underBox says whether the column of block p lies under the bot's box
// (0.6 wide, centred on the feet): digging there takes the floor from
// under the bot.
func underBox(feet geom.Vec3, p world.BlockPos) bool {
	const half = 0.3 // a standing player's half width (physics' pose sizes)
	return float64(p.X) < feet.X+half && float64(p.X+1) > feet.X-half &&
		float64(p.Z) < feet.Z+half && float64(p.Z+1) > feet.Z-half
}

// tunnelWithin is how near the eyes come to a buried block's middle when
// the bot tunnels to it: beside it, face to face, so that its drop falls
// into the tunnel.
const tunnelWithin = 1.6

// walker is the part of the body that walks with digging allowed
// (*move.Mover).
type walker interface {
	Go(ctx context.Context, t move.Target) (move.Arrival, error)
}

// tunnelTo digs a way to a buried block with the body's digging walk,
// until the bot stands beside it.
func (d *Dig) tunnelTo(ctx context.Context, p world.BlockPos) error {
	w, ok := d.body.(walker)
	if !ok {
		return errors.New("the bot's body cannot dig its way")
	}
	to := center(p)
	_, err := w.Go(ctx, move.Target{Kind: "collect", Point: func() (geom.Vec3, bool) { return to, true }, Within: tunnelWithin, Eyes: true, Dig: true})
	return err
}

// startRecording makes the hands (Break, as the body digs its way) count
// the blocks they break that want does not accept, until stopRecording.
func (d *Dig) startRecording(want func(mcdata.StateID) bool) {
	d.mu.Lock()
	d.recording, d.recordWant, d.through = true, want, map[string]int{}
	d.mu.Unlock()
}

// stopRecording ends the recording and returns the other blocks broken,
// by name, and how many of the wanted ones the body broke on its way.
func (d *Dig) stopRecording() ([]PickedUp, int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []PickedUp
	for name, n := range d.through {
		out = append(out, PickedUp{name, n})
	}
	wanted := d.throughWanted
	d.recording, d.recordWant, d.through, d.throughWanted = false, nil, nil, 0
	sort.Slice(out, func(i, j int) bool { return out[i].Item < out[j].Item })
	return out, wanted
}

// record counts a block the hands broke while recording.
func (d *Dig) record(st mcdata.StateID) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.recording {
		return
	}
	if d.recordWant != nil && d.recordWant(st) {
		d.throughWanted++
		return
	}
	if name := d.blockName(st); name != "" {
		d.through[name]++
	}
}

// pickUpDrop waits for a dug block's drop to reach the inventory (had is
// the count before the dig). The drop is looked for both around the dug
// block and around the bot: a drop from a block high above the bot falls
// to the bot's level, farther from the block than from the bot, and may
// drift out of the server's pick-up box on the way down. A drop that does
// not arrive is not an error: the caller counts the inventory.
func (d *Dig) pickUpDrop(ctx context.Context, at geom.Vec3, wanted itemSet, had int) error {
	return d.chase(ctx, wanted, had, func() []entity.Entity {
		near := d.itemsNear(at, 4)
		for _, e := range d.itemsNear(d.self.Snapshot().Position, 4) {
			if !slices.ContainsFunc(near, func(n entity.Entity) bool { return n.ID == e.ID }) {
				near = append(near, e)
			}
		}
		return near
	})
}

// chase waits until the inventory holds more of the wanted items than
// had, walking to each wanted item that find lists once it lies on the
// ground, and again whenever one slid or bounced half a block from where
// the bot last went for it.
func (d *Dig) chase(ctx context.Context, wanted itemSet, had int, find func() []entity.Entity) error {
	walkedTo := map[int32]geom.Vec3{}
	return d.awaitArrival(ctx, wanted, had, func() {
		for _, e := range find() {
			if e.Item == nil || !wanted[e.Item.Name] || !e.OnGround {
				// A falling drop has no place to walk to yet: where it
				// is now may be beside a block the bot cannot stand
				// under, so the walk would find no path.
				continue
			}
			if last, ok := walkedTo[e.ID]; ok && distance(last, e.Position) < 0.5 {
				continue
			}
			walkedTo[e.ID] = e.Position
			_ = d.goToItem(ctx, e.Position)
		}
	})
}

// goToItem walks until the bot's feet are within pickupWithin of an item
// (the server picks up what touches the bot's box, which starts at the
// feet). The body measures from the eyes, so the point it is given is the
// item raised by the eye height: asked for the eyes near the item itself,
// a bot standing on the item's level is always 1.62 blocks off, and the
// planner finds no block to stand on within range. An item already above
// the bottom of the pick-up box and within it sideways needs no walk: it
// touches the box, or falls into it (a drop falling onto the bot has no
// place to stand under it). A failed walk is not an error: the caller
// counts the inventory.
func (d *Dig) goToItem(ctx context.Context, item geom.Vec3) error {
	feet := d.self.Snapshot().Position
	if math.Abs(item.X-feet.X) < pickupWithin && math.Abs(item.Z-feet.Z) < pickupWithin && item.Y+0.25 > feet.Y-0.5 {
		return nil
	}
	return d.body.GoNear(ctx, geom.Vec3{X: item.X, Y: item.Y + physics.EyeHeight, Z: item.Z}, pickupWithin)
}

// awaitArrival waits until the inventory holds more of the wanted items
// than had:
// pickupTicks at least, and on while such an item lies within the server's
// pick-up reach of the bot (a busy server's ticks may lag the bot's), up
// to maxPickupTicks. each runs at every check.
func (d *Dig) awaitArrival(ctx context.Context, wanted itemSet, had int, each func()) error {
	arrived := func() bool {
		if wanted.count(d.inv.View()) > had {
			return true
		}
		if each != nil {
			each()
		}
		return false
	}
	if done, err := d.waitFor(ctx, pickupTicks, arrived); done || err != nil {
		return err
	}
	_, err := d.waitFor(ctx, maxPickupTicks-pickupTicks, func() bool { return arrived() || !d.itemWithinReach(wanted) })
	return err
}

// maxPickupTicks bounds the wait for an item in reach: 10 s.
const maxPickupTicks = 200

// itemWithinReach says whether an item of the kind (or one whose stack the
// bot has not heard of yet) touches the box the server picks up from: the
// bot's box grown by 1 sideways and 0.5 up and down.
func (d *Dig) itemWithinReach(wanted itemSet) bool {
	me := d.self.Snapshot().Position
	for _, e := range d.itemsNear(me, 4) {
		if e.Item != nil && !wanted[e.Item.Name] {
			continue
		}
		p := e.Position
		if math.Abs(p.X-me.X) < 1.3+0.125 && math.Abs(p.Z-me.Z) < 1.3+0.125 && p.Y+0.25 > me.Y-0.5 && p.Y < me.Y+2.3 {
			return true
		}
	}
	return false
}

// sweep goes after the items of the named kind lying within a few blocks
// of the bot (and items whose stack the bot has not heard of yet), one at a
// time, following each as it slides, and waits for each to reach the
// inventory, counted there: an item entity vanishes a moment before the
// inventory update that it was picked up.
func (d *Dig) sweep(ctx context.Context, wanted itemSet) error {
	for _, e := range d.itemsNear(d.self.Snapshot().Position, 6) {
		if e.Item != nil && !wanted[e.Item.Name] {
			continue
		}
		had := wanted.count(d.inv.View())
		_ = d.goToItem(ctx, e.Position)
		id := e.ID
		err := d.chase(ctx, wanted, had, func() []entity.Entity {
			if now, ok := d.entities.Get(id); ok {
				return []entity.Entity{now}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// pickupWithin is how near the bot's feet get to an item to pick it up:
// the server picks up items that touch the player's box grown by one block
// sideways (1.3 from the feet along each axis, plus the item's half width
// of 0.125), so 1.4 blocks in a straight line is inside it on every axis.
// It is also wide enough to reach an item lying in a cell the bot cannot
// stand in (under the rest of a trunk) from the middle of the next block.
const pickupWithin = 1.4

// itemsNear lists the item entities within r blocks of p, nearest first.
func (d *Dig) itemsNear(p geom.Vec3, r float64) []entity.Entity {
	all, _ := d.entities.Near(p, r)
	out := all[:0]
	for _, e := range all {
		if e.Type == "item" {
			out = append(out, e)
		}
	}
	return out
}

// PickedUp is one item and how many of it arrived.
type PickedUp struct {
	Item  string
	Count int
}

// PickupResult is what PickUp gathered, counted from the inventory.
type PickupResult struct {
	PickedUp []PickedUp
	// Seen is how many item entities were within the radius.
	Seen     int
	Reason   string
	NextStep string
}

// PickUp walks to the item entities within radius of the bot, nearest
// first, and reports what arrived in the inventory.
func (d *Dig) PickUp(ctx context.Context, radius float64) (PickupResult, error) {
	before := totals(d.inv.View())
	feet := d.self.Snapshot().Position
	items := d.itemsNear(feet, radius)
	res := PickupResult{Seen: len(items), PickedUp: []PickedUp{}}
	if len(items) == 0 {
		res.Reason = fmt.Sprintf("no items on the ground within %g blocks", radius)
		return res, nil
	}
	var lastErr error
	vanished := 0
	for _, e := range items {
		if err := context.Cause(ctx); err != nil {
			return res, err
		}
		if err := d.goToItem(ctx, e.Position); err != nil {
			if ctx.Err() != nil {
				return res, context.Cause(ctx)
			}
			// Out of reach: the server will not hand it over, so
			// waiting for it would only waste the caller's time.
			lastErr = err
			continue
		}
		id := e.ID
		gone, err := d.waitFor(ctx, pickupTicks, func() bool {
			_, there := d.entities.Get(id)
			return !there
		})
		if err != nil {
			return res, err
		}
		if gone {
			vanished++
		}
	}
	// A server may remove the item entity before it sends the slot the
	// item went to (the game's inventory changes go out at the end of its
	// tick): give the inventory that tick to catch up.
	if vanished > 0 {
		if _, err := d.waitFor(ctx, settleTicks, func() bool { return gained(before, totals(d.inv.View())) }); err != nil {
			return res, err
		}
	}
	after := totals(d.inv.View())
	for name, n := range after {
		if n > before[name] {
			res.PickedUp = append(res.PickedUp, PickedUp{name, n - before[name]})
		}
	}
	sort.Slice(res.PickedUp, func(i, j int) bool { return res.PickedUp[i].Item < res.PickedUp[j].Item })
	if len(res.PickedUp) == 0 {
		res.Reason = fmt.Sprintf("%d items lie within %g blocks but none reached the inventory", len(items), radius)
		if lastErr != nil {
			res.Reason += ": " + lastErr.Error()
		}
		res.NextStep = "walk to them (mc_goto) or check that the inventory has room (mc_get_inventory)"
	}
	return res, nil
}

// settleTicks is how long PickUp waits for the inventory after the items
// it walked to were taken from the ground.
const settleTicks = 20

// gained says whether any item's count went up from before to after.
func gained(before, after map[string]int) bool {
	for name, n := range after {
		if n > before[name] {
			return true
		}
	}
	return false
}

// totals counts each item the bot carries.
func totals(v inventory.View) map[string]int {
	out := map[string]int{}
	for s := inventory.SlotMainFirst; s <= inventory.SlotOffhand; s++ {
		if st := v.Slots[s]; !st.Empty() && st.Name != "" {
			out[st.Name] += int(st.Count)
		}
	}
	return out
}
