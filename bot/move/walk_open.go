package move

import (
	"math"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/path"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/geom"
)

// Doors and fence gates on the way (path.Step.Open). The planner lists
// the closed wooden doors and gates a step passes (iron ones, which only
// redstone opens, are walls to it); before the step the body stops, looks
// at the first still closed one, right-clicks it (use_item_on with the
// hand's next prediction sequence, in the tick's own batch after the look)
// and waits until the world shows it open: the server answers a use with
// the block's new state. Then it walks through. A door the server leaves
// shut (a plugin that forbids it, a click lost) is given openWaitTicks;
// then the walk re-plans, and a bot that cannot get on stops as stuck.
//
// Doors are not closed behind: a second click costs the walk a stop and a
// turn for nothing it needs, and mineflayer-pathfinder leaves them open
// too.

// Hands is what the body borrows from bot/dig's *dig.Dig (which depends
// on the body, so the body names what it needs instead of importing it):
// to open a door on its way, the packets of one right-click on a block's
// face (use_item_on carrying the next prediction sequence, and the swing
// of the arm), to send in the tick's own batch right after the look that
// aims it; dig's sequence is the one counter the server acknowledges for
// every click and dig of the bot. And for the walks that may dig through
// or bridge, the worker's breaks and placements (walk_dig.go).
type Hands interface {
	ClickPackets(p world.BlockPos, face int32, cursor [3]float32) []core.Out
	worker
}

// SetHands gives the body its hands, and with them doors and gates on the
// paths it plans (a body without hands walks around them) and digging and
// bridging for the targets that ask (Target.Dig, Target.Bridge; plain
// walks without hands). Call it while attaching, before the session
// starts.
func (m *Mover) SetHands(h Hands) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.hands = h
	if m.eng != nil {
		m.planner = path.New(m.eng.Game(), plannerOptions(h != nil))
	}
}

// plannerOptions are the planner's options: jumps over gaps always (the
// tick times them, walk_jump.go), doors and gates when the body has hands
// to open them.
func plannerOptions(hands bool) path.Options {
	return path.Options{NoDoors: !hands}
}

// openWaitTicks bounds the wait for the server to show a clicked door
// open: the game answers within the tick, over loopback two or three
// ticks pass; a second is plenty.
const openWaitTicks = 20

// doorState is the walk's memory of the door it clicked.
type doorState struct {
	// step is the index plus one of the step whose door was clicked (0:
	// none), pos the door's (lower) block, waited the ticks since.
	step   int
	pos    world.BlockPos
	waited int
}

// openDoors handles the doors of the step the walk is on: while one is
// closed it turns the keys into a stop and a look at it (and a click, the
// first time), and says the tick should steer no further. With every door
// of the step open it leaves the keys alone. Callers hold m.mu.
func (w *walk) openDoors(m *Mover, wp path.Waypoint, ctl physics.Controls) (physics.Controls, bool) {
	if len(wp.Step.Open) == 0 {
		return ctl, false
	}
	door, closed := world.BlockPos{}, false
	for _, p := range wp.Step.Open {
		if m.closedDoorLocked(p) {
			door, closed = p, true
			break
		}
	}
	if !closed {
		return ctl, false
	}
	st := &m.st
	eye := st.EyePos()
	face, cursor := faceToward(door, eye, wp.Step)
	point := geom.Vec3{X: float64(door.X) + float64(cursor[0]), Y: float64(door.Y) + float64(cursor[1]), Z: float64(door.Z) + float64(cursor[2])}
	ctl.Yaw, ctl.Pitch = lookAngles(point.X-eye.X, point.Y-eye.Y, point.Z-eye.Z, st.Yaw)
	ctl.Forward, ctl.Back, ctl.Left, ctl.Right = false, false, false, false
	ctl.Jump, ctl.Sprint = false, false

	d := &w.door
	if d.step == wp.Index+1 && d.pos == door {
		if d.waited++; d.waited > openWaitTicks {
			w.need(replanSlow)
		}
		return ctl, true
	}
	if m.hands == nil {
		// Not planned without hands; a path from before SetHands.
		w.need(replanBlocks)
		return ctl, true
	}
	*d = doorState{step: wp.Index + 1, pos: door}
	w.out = append(w.out, m.hands.ClickPackets(door, face, cursor)...)
	return ctl, true
}

// closedDoorLocked says whether the body's world shows a closed door or
// gate (open=false) at p. Callers hold m.mu.
func (m *Mover) closedDoorLocked(p world.BlockPos) bool {
	id, ok := m.view.BlockAt(p)
	if !ok {
		return false
	}
	s, ok := m.eng.Game().StateByID(id)
	if !ok {
		return false
	}
	v, ok := s.Value("open")
	return ok && v == "false"
}

// faceToward is the side face of block p that looks at the eyes, and the
// point on it to click (the middle of the face, relative to the block).
// With the eyes over the block itself (a door in the bot's own cell) it
// is the face the step walks out of.
func faceToward(p world.BlockPos, eye physics.Vec3, st path.Step) (int32, [3]float32) {
	dx, dz := eye.X-(float64(p.X)+0.5), eye.Z-(float64(p.Z)+0.5)
	if math.Abs(dx) < 0.5 && math.Abs(dz) < 0.5 {
		dx, dz = float64(st.From.X-st.To.X), float64(st.From.Z-st.To.Z)
	}
	switch {
	case math.Abs(dx) >= math.Abs(dz) && dx > 0:
		return codec.FaceEast, [3]float32{1, 0.5, 0.5}
	case math.Abs(dx) >= math.Abs(dz):
		return codec.FaceWest, [3]float32{0, 0.5, 0.5}
	case dz > 0:
		return codec.FaceSouth, [3]float32{0.5, 0.5, 1}
	}
	return codec.FaceNorth, [3]float32{0.5, 0.5, 0}
}

// openedOnPathLocked says whether a block change on the walk's way is a
// door or gate of its remaining steps swinging (the same block, only its
// open property changed): the walk's own doing, or at worst something its
// door handling deals with, not a reason to plan again. Callers hold m.mu.
func (m *Mover) openedOnPathLocked(w *walk, p world.BlockPos, before, after mcdata.StateID) bool {
	g := m.eng.Game()
	a, ok1 := g.StateByID(before)
	b, ok2 := g.StateByID(after)
	if !ok1 || !ok2 || a.Block != b.Block {
		return false
	}
	openProp := -1
	for i := range a.Block.Props {
		if a.Block.Props[i].Name == "open" {
			openProp = i
		} else if a.ValueIndex(i) != b.ValueIndex(i) {
			return false
		}
	}
	if openProp < 0 {
		return false
	}
	below := world.BlockPos{X: p.X, Y: p.Y - 1, Z: p.Z}
	for i := w.cursor; i < len(w.path.Steps); i++ {
		for _, d := range w.path.Steps[i].Open {
			if d == p || d == below {
				return true
			}
		}
	}
	return false
}

// takeOutLocked hands the tick the packets the step handlers queued.
// Callers hold m.mu.
func (w *walk) takeOutLocked() []core.Out {
	out := w.out
	w.out = nil
	return out
}
