package dig

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/blockmate/blockmate/bot/entity"
	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/mcdata"
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
	// Collected is how many more of Item the inventory holds than when
	// the collect began.
	Collected int
	// Item is what a block drops and Collect counts (oak_log for oak_log,
	// cobblestone for stone).
	Item string
	// Dug is how many blocks the bot broke.
	Dug      int
	Reason   string
	NextStep string
}

// Collect breaks blocks of the named kind, nearest first, and picks up
// their drops until the inventory holds count more of what they drop
// than when it began (counted from the inventory, not from the digs).
// progress is called with the count so far after every block. Cancelling
// ctx stops it within a tick (an unfinished dig is aborted).
func (d *Dig) Collect(ctx context.Context, blockName string, count int, progress func(done, total int)) (CollectResult, error) {
	if d.g == nil {
		return CollectResult{}, fmt.Errorf("blockmate has no block data for %v", d.c)
	}
	b := d.g.BlockByName(blockName)
	if b == nil {
		return CollectResult{}, fmt.Errorf("%q is not a block of %s; give a block's registry name, e.g. oak_log or stone", blockName, d.g.Version)
	}
	res := CollectResult{Item: dropOf(d.g, b)}
	if res.Item == "" {
		res.Reason = fmt.Sprintf("%s drops nothing when broken, so there is nothing to collect", blockName)
		return res, nil
	}
	if !d.canHarvest(b) {
		res.Reason = fmt.Sprintf("%s drops nothing unless broken with the right tool (%s), and the bot carries none", blockName, d.toolNames(b))
		res.NextStep = "craft or fetch one of those tools, then call mc_collect again"
		return res, nil
	}
	start := d.inv.View().Count(res.Item)
	collected := func() int { return max(0, d.inv.View().Count(res.Item)-start) }
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
		target, ok := d.nearest(b, tried)
		if !ok && !swept {
			// Drops that bounced out of reach while the bot dug on are
			// worth one more try before giving up.
			swept = true
			if err := d.sweep(ctx, res.Item); err != nil {
				return res, err
			}
			continue
		}
		if !ok {
			res.Reason = fmt.Sprintf("no more %s within %d blocks that the bot can see", blockName, CollectRadius)
			if lastReason != "" {
				res.Reason += " (the last one failed: " + lastReason + ")"
			}
			res.NextStep = fmt.Sprintf("move to where there is more %s, then call mc_collect again", blockName)
			return res, nil
		}
		had := d.inv.View().Count(res.Item)
		r, err := d.Dig(ctx, target)
		if err != nil {
			return res, err
		}
		if !r.Dug {
			tried[target] = true
			failures++
			lastReason = r.Reason
			if failures >= maxFailures {
				res.Reason = fmt.Sprintf("%d %s blocks in a row could not be dug; the last: %s", failures, blockName, r.Reason)
				res.NextStep = "call mc_find_blocks to see where they are, and move closer"
				return res, nil
			}
			continue
		}
		failures = 0
		res.Dug++
		if err := d.pickUpDrop(ctx, center(target), res.Item, had); err != nil {
			return res, err
		}
	}
}

// dropOf is the item a block drops that Collect counts: the block's own
// item when it drops itself, else its first drop.
func dropOf(g *mcdata.GameData, b *mcdata.Block) string {
	for _, id := range b.Drops {
		if it := g.Item(id); it != nil && it.Name == b.Name {
			return it.Name
		}
	}
	for _, id := range b.Drops {
		if it := g.Item(id); it != nil {
			return it.Name
		}
	}
	return ""
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

// toolNames lists the tools that harvest b, for a sentence.
func (d *Dig) toolNames(b *mcdata.Block) string {
	out := ""
	for i, id := range b.HarvestTools {
		if it := d.g.Item(id); it != nil {
			if i > 0 {
				out += ", "
			}
			out += it.Name
		}
	}
	return out
}

// nearest is the nearest block of kind b the bot can see that it has not
// tried.
func (d *Dig) nearest(b *mcdata.Block, tried map[world.BlockPos]bool) (world.BlockPos, bool) {
	feet := d.self.Snapshot().Position
	from := world.BlockPos{X: int(math.Floor(feet.X)), Y: int(math.Floor(feet.Y)), Z: int(math.Floor(feet.Z))}
	match := func(st mcdata.StateID) bool { return st >= b.MinState && st <= b.MaxState }
	found := d.world.View().FindBlocks(from, CollectRadius, len(tried)+1, match)
	eye := d.eyes()
	// Among the nearest by distance, those in reach come first, so the
	// bot digs what it can reach before walking.
	sort.SliceStable(found, func(i, j int) bool {
		ri, rj := boxDistance(eye, found[i].Pos) <= physics.BlockReach, boxDistance(eye, found[j].Pos) <= physics.BlockReach
		return ri && !rj
	})
	for _, f := range found {
		if !tried[f.Pos] {
			return f.Pos, true
		}
	}
	return world.BlockPos{}, false
}

// pickUpDrop waits for a dug block's drop to reach the inventory (had is
// the count before the dig). The drop is looked for both around the dug
// block and around the bot: a drop from a block high above the bot falls
// to the bot's level, farther from the block than from the bot, and may
// drift out of the server's pick-up box on the way down. A drop that does
// not arrive is not an error: the caller counts the inventory.
func (d *Dig) pickUpDrop(ctx context.Context, at geom.Vec3, itemName string, had int) error {
	return d.chase(ctx, itemName, had, func() []entity.Entity {
		near := d.itemsNear(at, 4)
		for _, e := range d.itemsNear(d.self.Snapshot().Position, 4) {
			if !slices.ContainsFunc(near, func(n entity.Entity) bool { return n.ID == e.ID }) {
				near = append(near, e)
			}
		}
		return near
	})
}

// chase waits until the inventory holds more of the item than had,
// walking to each item of the kind that find lists once it lies on the
// ground, and again whenever one slid or bounced half a block from where
// the bot last went for it.
func (d *Dig) chase(ctx context.Context, itemName string, had int, find func() []entity.Entity) error {
	walkedTo := map[int32]geom.Vec3{}
	return d.awaitArrival(ctx, itemName, had, func() {
		for _, e := range find() {
			if e.Item == nil || e.Item.Name != itemName || !e.OnGround {
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

// awaitArrival waits until the inventory holds more of the item than had:
// pickupTicks at least, and on while such an item lies within the server's
// pick-up reach of the bot (a busy server's ticks may lag the bot's), up
// to maxPickupTicks. each runs at every check.
func (d *Dig) awaitArrival(ctx context.Context, itemName string, had int, each func()) error {
	arrived := func() bool {
		if d.inv.View().Count(itemName) > had {
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
	_, err := d.waitFor(ctx, maxPickupTicks-pickupTicks, func() bool { return arrived() || !d.itemWithinReach(itemName) })
	return err
}

// maxPickupTicks bounds the wait for an item in reach: 10 s.
const maxPickupTicks = 200

// itemWithinReach says whether an item of the kind (or one whose stack the
// bot has not heard of yet) touches the box the server picks up from: the
// bot's box grown by 1 sideways and 0.5 up and down.
func (d *Dig) itemWithinReach(itemName string) bool {
	me := d.self.Snapshot().Position
	for _, e := range d.itemsNear(me, 4) {
		if e.Item != nil && e.Item.Name != itemName {
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
func (d *Dig) sweep(ctx context.Context, itemName string) error {
	for _, e := range d.itemsNear(d.self.Snapshot().Position, 6) {
		if e.Item != nil && e.Item.Name != itemName {
			continue
		}
		had := d.inv.View().Count(itemName)
		_ = d.goToItem(ctx, e.Position)
		id := e.ID
		err := d.chase(ctx, itemName, had, func() []entity.Entity {
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
