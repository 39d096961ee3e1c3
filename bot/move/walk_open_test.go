package move

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/physics"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/geom"
)

// doorHands stands in for bot/dig: each click becomes a real use_item_on
// (so the peer sees it in order) and is remembered for the test to answer
// as a server would.
type doorHands struct {
	c      *codec.Codec
	mu     sync.Mutex
	seq    int32
	clicks []codec.UseItemOn
}

func (f *doorHands) ClickPackets(p world.BlockPos, face int32, cursor [3]float32) []core.Out {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	u := codec.UseItemOn{Hand: codec.HandMain, Pos: codec.BlockPos(p), Face: face, CursorX: cursor[0], CursorY: cursor[1], CursorZ: cursor[2], Sequence: f.seq}
	f.clicks = append(f.clicks, u)
	return []core.Out{{Packet: mcdata.ServerboundPlayBlockPlace, Build: func(w *wire.Writer) { f.c.WriteUseItemOn(w, u) }}}
}

// take returns the clicks since the last call.
func (f *doorHands) take() []codec.UseItemOn {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.clicks
	f.clicks = nil
	return out
}

// setBlock routes a block update, as the server sends one.
func (h *harness) setBlock(p world.BlockPos, s mcdata.StateID) {
	h.Route(mcdata.ClientboundPlayBlockChange, func(w *wire.Writer) {
		w.Int64(int64(p.X&0x3ffffff)<<38 | int64(p.Z&0x3ffffff)<<12 | int64(p.Y&0xfff))
		w.VarInt(int32(s))
	})
}

// toggled is the state like s with its open property flipped.
func (h *harness) toggled(s mcdata.StateID) mcdata.StateID {
	h.T.Helper()
	st, _ := h.game.StateByID(s)
	b := st.Block
	for id := b.MinState; id <= b.MaxState; id++ {
		o := mcdata.BlockState{ID: id, Block: b}
		same := true
		for i := range b.Props {
			if (b.Props[i].Name == "open") == (o.ValueIndex(i) == st.ValueIndex(i)) {
				same = false
				break
			}
		}
		if same {
			return id
		}
	}
	h.T.Fatalf("%s has no open property", st)
	return 0
}

// answerClicks is a server's answer to the clicks: a door's two halves or
// a gate swing open (the survival plugin's useblocks.js, the game's
// DoorBlock.useWithoutItem), unless the block is an iron door.
func (h *harness) answerClicks(hands *doorHands) int {
	n := 0
	for _, u := range hands.take() {
		n++
		p := world.BlockPos{X: int(u.Pos.X), Y: int(u.Pos.Y), Z: int(u.Pos.Z)}
		for _, q := range []world.BlockPos{p, {X: p.X, Y: p.Y + 1, Z: p.Z}} {
			s, _ := h.w.View().BlockAt(q)
			if b := h.game.BlockOf(s); b != nil && b.Name != "iron_door" {
				if _, i := b.Prop("open"); i >= 0 {
					h.setBlock(q, h.toggled(s))
				}
			}
		}
	}
	return n
}

// hut is flat ground with a stone hut (walls three high from x 4 to 10,
// z -3 to 3) whose only way in is a door at x 4, z 0 (its block names the
// door, e.g. "oak_door"); or, with a gate, a fence across the whole map at
// x 4 with a gate at z 0.
func hut(door string) func(h *harness, x, y, z int) mcdata.StateID {
	var lower, upper, fence mcdata.StateID
	return func(h *harness, x, y, z int) mcdata.StateID {
		if lower == 0 {
			if door == "oak_fence_gate" {
				lower = h.state("oak_fence_gate[facing=east,open=false,in_wall=false]")
				fence = h.state("oak_fence[north=true,south=true,east=false,west=false]")
			} else {
				lower = h.state(door + "[facing=east,half=lower,hinge=left,open=false]")
				upper = h.state(door + "[facing=east,half=upper,hinge=left,open=false]")
			}
		}
		if fence != 0 {
			if x == 4 && y == 64 {
				if z == 0 {
					return lower
				}
				return fence
			}
			return flat(h, x, y, z)
		}
		wall := (x == 4 || x == 10) && z >= -3 && z <= 3 || (z == -3 || z == 3) && x >= 4 && x <= 10
		switch {
		case x == 4 && z == 0 && y == 64:
			return lower
		case x == 4 && z == 0 && y == 65:
			return upper
		case wall && y >= 64 && y <= 66:
			return h.stone
		}
		return flat(h, x, y, z)
	}
}

// walkAnswering is GoNear to target with the server's answers to clicks
// given after each tick; it returns the walk's error, the clicks, the
// ticks and the plans walked.
func walkAnswering(t *testing.T, h *harness, hands *doorHands, target geom.Vec3, answer bool, maxTicks int) (error, int, int, int) {
	t.Helper()
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		err = h.m.GoNear(context.Background(), target, 1)
	}()
	clicks, ticks := 0, 0
	plans := map[*walk]bool{}
	for ; ticks < maxTicks; ticks++ {
		select {
		case <-done:
			return err, clicks, ticks, len(plans)
		default:
		}
		h.walkTick(done)
		h.m.mu.Lock()
		if h.m.walk != nil {
			plans[h.m.walk] = true
		}
		h.m.mu.Unlock()
		if answer {
			clicks += h.answerClicks(hands)
		} else {
			clicks += len(hands.take())
		}
	}
	t.Fatalf("the walk is not done after %d ticks; the bot is at %+v", maxTicks, h.m.State().Pos)
	return nil, 0, 0, 0
}

// TestOpenTheDoor: the only way into the hut is its closed oak door (or
// the only way past the fence its gate): the body stops at it, looks at
// it, clicks it once, waits until the world shows it open and walks in.
// The click goes out after the look that aims it, on the door's face
// toward the bot, and the door swinging open is no reason to plan again.
func TestOpenTheDoor(t *testing.T) {
	for _, proto := range []int32{767, 769, 775} {
		for _, door := range []string{"oak_door", "oak_fence_gate"} {
			t.Run(fmt.Sprint(proto, "/", door), func(t *testing.T) {
				h := joined(t, proto, 0.5, 64, 0.5, hut(door))
				hands := &doorHands{c: h.m.c}
				h.m.SetHands(hands)
				target := geom.Vec3{X: 7.5, Y: 64 + physics.EyeHeight, Z: 0.5}
				err, clicks, ticks, plans := walkAnswering(t, h, hands, target, true, 400)
				if err != nil {
					t.Fatalf("GoNear through the door: %v", err)
				}
				if d := dist(h.m.EyePosition(), target); d > 1 {
					t.Errorf("arrived %.2f from the target", d)
				}
				if clicks != 1 {
					t.Errorf("%d clicks; want one", clicks)
				}
				// The door swinging open on the path is the walk's own
				// doing, not a changed world to plan again for.
				if plans != 1 {
					t.Errorf("%d plans; want one", plans)
				}
				s, _ := h.w.View().BlockAt(world.BlockPos{X: 4, Y: 64, Z: 0})
				if st, _ := h.game.StateByID(s); !containsOpen(st) {
					t.Errorf("the door is %s after the walk; it stays open behind", st)
				}
				// The peer saw a look toward the door, then the click on
				// its west face (the bot comes from the west).
				uses := h.WaitFor(mcdata.ServerboundPlayBlockPlace, 1)
				r := wire.NewReader(uses[0])
				hand := r.VarInt()
				pos := r.Int64()
				face := r.VarInt()
				if hand != codec.HandMain || pos>>38 != 4 || face != codec.FaceWest {
					t.Errorf("use_item_on hand %d pos %x face %d", hand, pos, face)
				}
				sent := h.Sent()
				var lastYaw float32 = -1000
				for _, s := range sent {
					if s.Packet == mcdata.ServerboundPlayPositionLook || s.Packet == mcdata.ServerboundPlayLook {
						r := wire.NewReader(s.Body)
						if s.Packet == mcdata.ServerboundPlayPositionLook {
							r.Float64()
							r.Float64()
							r.Float64()
						}
						lastYaw = r.Float32()
					}
					if s.Packet == mcdata.ServerboundPlayBlockPlace {
						break
					}
				}
				// Facing east is yaw −90.
				if math.Abs(float64(lastYaw)+90) > 30 {
					t.Errorf("the last look before the click had yaw %v; want about −90 (east, at the door)", lastYaw)
				}
				t.Logf("%d ticks", ticks)
			})
		}
	}
}

func containsOpen(st mcdata.BlockState) bool {
	v, ok := st.Value("open")
	return ok && v == "true"
}

// TestDoorThatStaysShut: a server that never opens the door (a click
// lost, a plugin that forbids it) costs the walk a bounded wait per plan:
// it re-plans, clicks again, and ends as stuck instead of waiting forever.
func TestDoorThatStaysShut(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, hut("oak_door"))
	hands := &doorHands{c: h.m.c}
	h.m.SetHands(hands)
	err, clicks, ticks, _ := walkAnswering(t, h, hands, geom.Vec3{X: 7.5, Y: 64 + physics.EyeHeight, Z: 0.5}, false, 600)
	var f *Failure
	if !errors.As(err, &f) || f.Code != "stuck" {
		t.Fatalf("a walk through a door that stays shut answered %v", err)
	}
	if clicks < 2 || clicks > stuckRounds+1 {
		t.Errorf("%d clicks; want one per plan", clicks)
	}
	t.Logf("%d ticks, %d clicks: %v", ticks, clicks, err)
}

// TestIronDoorIsAWall: an iron door opens only with redstone, so the
// planner treats it as a wall: there is no path into the roofless hut
// behind it (but over its walls), and the body clicks nothing.
func TestIronDoorIsAWall(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, hut("iron_door"))
	hands := &doorHands{c: h.m.c}
	h.m.SetHands(hands)
	err, clicks, _, _ := walkAnswering(t, h, hands, geom.Vec3{X: 7.5, Y: 64 + physics.EyeHeight, Z: 0.5}, true, 100)
	var f *Failure
	if !errors.As(err, &f) || (f.Code != "goal_enclosed" && f.Code != "needs_digging") || clicks != 0 {
		t.Fatalf("into a hut behind an iron door: %v, %d clicks", err, clicks)
	}
}

// doorHands neither digs nor bridges: the door tests' walks never ask.
func (f *doorHands) Break(context.Context, world.BlockPos) error {
	return errors.New("doorHands do not dig")
}

func (f *doorHands) PlaceUnder(context.Context, world.BlockPos) error {
	return errors.New("doorHands do not place")
}

func (f *doorHands) BreakCost() func(mcdata.StateID) (int, bool) {
	return func(mcdata.StateID) (int, bool) { return 0, false }
}

func (f *doorHands) Throwaway() int { return 0 }
