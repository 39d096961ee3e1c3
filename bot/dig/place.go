package dig

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/inventory"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/geom"
)

// PlaceResult is what a placement did, from the server's answer.
type PlaceResult struct {
	Placed bool
	// Block is what the target holds afterwards.
	Block string
	// Against is the block clicked and Face the face of it (up, north …).
	Against world.BlockPos
	Face    string
	Reason  string
}

// faces are the six directions in the game's order, with their offsets.
var faces = [6]struct {
	name       string
	dx, dy, dz int
}{
	codec.FaceDown:  {"down", 0, -1, 0},
	codec.FaceUp:    {"up", 0, 1, 0},
	codec.FaceNorth: {"north", 0, 0, -1},
	codec.FaceSouth: {"south", 0, 0, 1},
	codec.FaceWest:  {"west", -1, 0, 0},
	codec.FaceEast:  {"east", 1, 0, 0},
}

// replaceable names blocks a placement replaces (the game's replaceable
// blocks a bot meets: airs, fluids, grass, snow layers …).
var replaceable = map[string]bool{
	"air": true, "cave_air": true, "void_air": true, "water": true, "lava": true,
	"short_grass": true, "grass": true, "tall_grass": true, "fern": true, "large_fern": true,
	"dead_bush": true, "seagrass": true, "tall_seagrass": true, "snow": true, "vine": true,
	"glow_lichen": true, "fire": true, "soul_fire": true, "structure_void": true,
}

// Replaceable says a placement replaces the named block without digging it
// first (the building tools ask before they dig).
func Replaceable(name string) bool { return replaceable[name] }

// interactive says whether right-clicking the block uses it (opens,
// flips, presses) rather than placing against it, so the bot does not
// place against such blocks.
func interactive(name string) bool {
	for _, s := range []string{"_door", "_trapdoor", "_fence_gate", "_button", "_bed", "_sign", "chest", "shulker_box"} {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	switch name {
	case "lever", "crafting_table", "furnace", "blast_furnace", "smoker", "barrel", "anvil", "chipped_anvil", "damaged_anvil",
		"enchanting_table", "brewing_stand", "hopper", "dispenser", "dropper", "beacon", "loom", "grindstone",
		"stonecutter", "cartography_table", "smithing_table", "note_block", "repeater", "comparator", "daylight_detector",
		"cake", "bell", "lectern", "respawn_anchor", "composter", "cauldron", "jukebox", "crafter":
		return true
	}
	return false
}

// solid says whether a state has a collision shape to place against.
func (d *Dig) solid(st mcdata.StateID) bool {
	b := d.g.BlockOf(st)
	return b != nil && !d.isAir(st) && !replaceable[b.Name] && len(d.g.Shapes(st)) > 0
}

// Place puts a block of the named item at p, against a solid neighbour's
// face: it equips the item, looks at the face and right-clicks it, and
// reports placed once the server's block change shows the block there.
func (d *Dig) Place(ctx context.Context, itemName string, p world.BlockPos) (PlaceResult, error) {
	d.op.Lock()
	defer d.op.Unlock()
	return d.place(ctx, itemName, p, true)
}

// place is Place; walk says whether it may walk within reach of a face
// (the body's bridging steps may not).
func (d *Dig) place(ctx context.Context, itemName string, p world.BlockPos, walk bool) (PlaceResult, error) {
	if d.g == nil {
		return PlaceResult{}, fmt.Errorf("blockmate has no block data for %v", d.c)
	}
	no := func(format string, a ...any) (PlaceResult, error) {
		return PlaceResult{Reason: fmt.Sprintf(format, a...)}, nil
	}
	me := d.self.Snapshot()
	switch {
	case me.Dead:
		return no("the bot is dead: call mc_respawn")
	case me.GameMode == adventure || me.GameMode == spectator:
		return no("the bot cannot place blocks in adventure or spectator mode")
	}
	if d.inv.View().Count(itemName) == 0 {
		return no("the bot has no %s; call mc_get_inventory to see what it carries", itemName)
	}
	before, ok := d.blockAt(p)
	if !ok {
		return no("the chunk holding %s is not loaded, so the bot cannot see there; go closer first", posString(p))
	}
	if b := d.g.BlockOf(before); b == nil || !replaceable[b.Name] {
		if d.blockName(before) == itemName {
			return PlaceResult{Block: itemName, Reason: fmt.Sprintf("%s is already at %s", itemName, posString(p))}, nil
		}
		return no("%s already holds %s; dig it first (mc_dig) or choose an empty position", posString(p), d.blockName(before))
	}
	if pb := d.g.BlockByName(itemName); pb != nil && len(d.g.Shapes(pb.DefaultState)) > 0 && d.insideBot(p) {
		return no("the bot stands at %s, and a block there would be inside it; place it next to the bot instead", posString(p))
	}

	click, err := d.pickFace(ctx, p, walk)
	if err != nil {
		if ctx.Err() != nil {
			return PlaceResult{}, err
		}
		return no("%s", err.Error())
	}
	v := d.inv.View()
	if held := v.Held(); held.Empty() || held.Name != itemName {
		r, err := d.inv.Equip(ctx, itemName, inventory.Hand)
		switch {
		case errors.Is(err, inventory.ErrNotCarried):
			return no("the bot has no %s", itemName)
		case err != nil:
			return PlaceResult{}, fmt.Errorf("equipping %s to place it failed: %v; call mc_get_inventory", itemName, err)
		case !r.Equipped:
			return no("the server did not put %s in the bot's hand: %s", itemName, r.Reason)
		}
	}
	if err := d.body.LookAt(ctx, click.point); err != nil {
		return PlaceResult{}, err
	}
	seq := d.nextSeq()
	u := codec.UseItemOn{Hand: codec.HandMain, Pos: codec.BlockPos(click.against), Face: int32(click.face), CursorX: click.cursor[0], CursorY: click.cursor[1], CursorZ: click.cursor[2], Sequence: seq}
	if err := d.useOn(u); err != nil {
		return PlaceResult{}, err
	}
	res := PlaceResult{Against: click.against, Face: faces[click.face].name}
	changed, err := d.waitFor(ctx, answerTicks, func() bool {
		now, ok := d.blockAt(p)
		return ok && now != before
	})
	if err != nil {
		return res, err
	}
	now, _ := d.blockAt(p)
	res.Block = d.blockName(now)
	if !changed || !d.solidOrPlaced(now) {
		res.Reason = fmt.Sprintf("the server did not place the block: %s still holds %s", posString(p), res.Block)
		return res, nil
	}
	res.Placed = true
	return res, nil
}

// solidOrPlaced says a state is something placed (not air, not a bare
// fluid).
func (d *Dig) solidOrPlaced(st mcdata.StateID) bool {
	n := d.blockName(st)
	return !d.isAir(st) && n != "water" && n != "lava"
}

// answerTicks bounds the wait for the server's answer to a click: the
// game answers within the tick; a server that never acknowledges
// (flying-squid's placement) is given a second.
const answerTicks = 20

// insideBot says whether the block cell p overlaps the bot's box.
func (d *Dig) insideBot(p world.BlockPos) bool {
	me := d.self.Snapshot().Position
	const half, height = 0.3, 1.8
	return me.X+half > float64(p.X) && me.X-half < float64(p.X+1) &&
		me.Y+height > float64(p.Y) && me.Y < float64(p.Y+1) &&
		me.Z+half > float64(p.Z) && me.Z-half < float64(p.Z+1)
}

// clickTarget is a face to click: the block, the face, the point on it
// (world coordinates) and the cursor (relative to the block).
type clickTarget struct {
	against world.BlockPos
	face    int
	point   geom.Vec3
	cursor  [3]float32
}

// pickFace finds the nearest face of a solid neighbour of p that the bot
// reaches, walking near p first when none is in reach; the error is a
// sentence.
func (d *Dig) pickFace(ctx context.Context, p world.BlockPos, walk bool) (clickTarget, error) {
	list := d.faceCandidates(p)
	if len(list) == 0 {
		return clickTarget{}, fmt.Errorf("no solid block touches %s to place against (all six neighbours are air, fluid, plants or blocks that open when clicked); place a block next to it first", posString(p))
	}
	if distance(d.eyes(), list[0].point) > physics.BlockReach && !walk {
		return clickTarget{}, fmt.Errorf("the nearest face to place against is %.1f blocks from the bot's eyes, beyond its reach of %.1f", distance(d.eyes(), list[0].point), physics.BlockReach)
	}
	if distance(d.eyes(), list[0].point) > physics.BlockReach {
		if err := d.body.GoNear(ctx, center(p), physics.BlockReach-1); err != nil {
			if ctx.Err() != nil {
				return clickTarget{}, context.Cause(ctx)
			}
			return clickTarget{}, fmt.Errorf("the nearest face to place against is %.1f blocks from the bot's eyes, beyond its reach of %.1f, and the bot could not get closer: %v", distance(d.eyes(), list[0].point), physics.BlockReach, err)
		}
		list = d.faceCandidates(p)
		if len(list) == 0 || distance(d.eyes(), list[0].point) > physics.BlockReach {
			return clickTarget{}, fmt.Errorf("no face to place against is within reach of %.1f after walking", physics.BlockReach)
		}
	}
	return list[0], nil
}

// faceCandidates lists the faces of p's solid neighbours that point at p,
// nearest to the bot's eyes first.
func (d *Dig) faceCandidates(p world.BlockPos) []clickTarget {
	eye := d.eyes()
	var out []clickTarget
	for f, dir := range faces {
		n := world.BlockPos{X: p.X + dir.dx, Y: p.Y + dir.dy, Z: p.Z + dir.dz}
		st, ok := d.blockAt(n)
		if !ok || !d.solid(st) || interactive(d.blockName(st)) {
			continue
		}
		// The clicked face of n is the one facing p: the opposite of f.
		face := f ^ 1
		nf := faces[face]
		cursor := [3]float32{0.5 + 0.5*float32(nf.dx), 0.5 + 0.5*float32(nf.dy), 0.5 + 0.5*float32(nf.dz)}
		point := geom.Vec3{X: float64(n.X) + float64(cursor[0]), Y: float64(n.Y) + float64(cursor[1]), Z: float64(n.Z) + float64(cursor[2])}
		out = append(out, clickTarget{against: n, face: face, point: point, cursor: cursor})
	}
	sort.SliceStable(out, func(i, j int) bool { return distance(eye, out[i].point) < distance(eye, out[j].point) })
	return out
}

// useOn sends use_item_on and the swing of the hand.
func (d *Dig) useOn(u codec.UseItemOn) error {
	if err := d.s.Batch(d.usePackets(u)...); err != nil {
		return fmt.Errorf("the click could not be sent (%v); the connection may be closing: call mc_status", err)
	}
	return nil
}

// UseResult is what using a block did.
type UseResult struct {
	Used bool
	// Block is the block used, State its state properties afterwards.
	Block string
	State map[string]string
	// Changed says the block's state changed (a door opened, a lever
	// flipped).
	Changed bool
	Reason  string
}

// Use right-clicks the block at p with the main hand, as a player opens a
// door, flips a lever or presses a button, and reports the state the
// server sent back. For blocks whose use changes their state (open,
// powered) used is that change; for others it is the server's
// acknowledgement.
func (d *Dig) Use(ctx context.Context, p world.BlockPos) (UseResult, error) {
	d.op.Lock()
	defer d.op.Unlock()
	if d.g == nil {
		return UseResult{}, fmt.Errorf("blockmate has no block data for %v", d.c)
	}
	before, ok := d.blockAt(p)
	if !ok {
		return UseResult{Reason: fmt.Sprintf("the chunk holding %s is not loaded, so the bot cannot see the block; go closer first", posString(p))}, nil
	}
	name := d.blockName(before)
	res := UseResult{Block: name, State: d.props(before)}
	if d.isAir(before) {
		res.Reason = fmt.Sprintf("there is no block at %s (air)", posString(p))
		return res, nil
	}
	if me := d.self.Snapshot(); me.Dead || me.GameMode == spectator {
		res.Reason = "the bot cannot use blocks while dead or in spectator mode"
		return res, nil
	}
	if err := d.reachBlock(ctx, p, true); err != nil {
		if ctx.Err() != nil {
			return res, err
		}
		res.Reason = err.Error()
		return res, nil
	}
	face := int(faceToward(p, d.eyes()))
	f := faces[face]
	cursor := [3]float32{0.5 + 0.5*float32(f.dx), 0.5 + 0.5*float32(f.dy), 0.5 + 0.5*float32(f.dz)}
	point := geom.Vec3{X: float64(p.X) + float64(cursor[0]), Y: float64(p.Y) + float64(cursor[1]), Z: float64(p.Z) + float64(cursor[2])}
	if err := d.body.LookAt(ctx, point); err != nil {
		return res, err
	}
	seq := d.nextSeq()
	if err := d.useOn(codec.UseItemOn{Hand: codec.HandMain, Pos: codec.BlockPos(p), Face: int32(face), CursorX: cursor[0], CursorY: cursor[1], CursorZ: cursor[2], Sequence: seq}); err != nil {
		return res, err
	}
	toggles := d.toggles(before)
	changed, err := d.waitFor(ctx, answerTicks, func() bool {
		now, ok := d.blockAt(p)
		return (ok && now != before) || (!toggles && d.ackedAt(seq))
	})
	if err != nil {
		return res, err
	}
	now, _ := d.blockAt(p)
	res.Block, res.State = d.blockName(now), d.props(now)
	res.Changed = now != before
	switch {
	case res.Changed:
		res.Used = true
	case toggles:
		why := "the server did not change it"
		if strings.HasPrefix(name, "iron_") {
			why = "iron doors and trapdoors open only with redstone"
		}
		res.Reason = fmt.Sprintf("%s at %s did not change: %s", name, posString(p), why)
	case changed:
		res.Used = true
	default:
		res.Reason = fmt.Sprintf("the server did not answer the click on %s within %d ticks", name, answerTicks)
	}
	return res, nil
}

// toggles says a state has a property a use changes (open, powered).
func (d *Dig) toggles(st mcdata.StateID) bool {
	s, ok := d.g.StateByID(st)
	if !ok {
		return false
	}
	for _, prop := range []string{"open", "powered"} {
		if _, ok := s.Value(prop); ok {
			return true
		}
	}
	return false
}

// props are a state's properties by name.
func (d *Dig) props(st mcdata.StateID) map[string]string {
	s, ok := d.g.StateByID(st)
	if !ok || s.Block == nil || len(s.Block.Props) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, p := range s.Block.Props {
		if v, ok := s.Value(p.Name); ok {
			out[p.Name] = v
		}
	}
	return out
}
