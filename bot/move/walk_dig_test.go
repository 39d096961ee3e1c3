package move

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/geom"
)

// workHands stands in for bot/dig: a break or a placement is answered by
// the block change a server sends, routed to the session as the read loop
// would; refuse makes every break fail (a protected block).
type workHands struct {
	h      *harness
	stone  mcdata.StateID
	blocks int
	refuse bool

	mu     sync.Mutex
	broken []world.BlockPos
	placed []world.BlockPos
	// at is where the bot's feet were at each break or placement.
	at []geom.Vec3
}

func (f *workHands) change(p world.BlockPos, st mcdata.StateID) error {
	return f.h.RouteErr(mcdata.ClientboundPlayBlockChange, func(w *wire.Writer) {
		w.Int64(int64(p.X&0x3ffffff)<<38 | int64(p.Z&0x3ffffff)<<12 | int64(p.Y&0xfff))
		w.VarInt(int32(st))
	})
}

func (f *workHands) Break(ctx context.Context, p world.BlockPos) error {
	if f.refuse {
		return errors.New("the server did not break it")
	}
	pos, _ := f.h.m.Position()
	f.mu.Lock()
	f.broken = append(f.broken, p)
	f.at = append(f.at, pos)
	f.mu.Unlock()
	return f.change(p, 0)
}

func (f *workHands) PlaceUnder(ctx context.Context, p world.BlockPos) error {
	pos, _ := f.h.m.Position()
	f.mu.Lock()
	f.placed = append(f.placed, p)
	f.at = append(f.at, pos)
	f.blocks--
	f.mu.Unlock()
	return f.change(p, f.stone)
}

func (f *workHands) BreakCost() func(mcdata.StateID) (int, bool) {
	return func(st mcdata.StateID) (int, bool) {
		b := f.h.game.BlockOf(st)
		if b == nil || b.Hardness < 0 {
			return 0, false
		}
		return 8, true
	}
}

func (f *workHands) Throwaway() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.blocks
}

// goWith walks to the block middle at (x, 64, z) with the options and
// returns the walk's error once done.
func goWith(h *harness, x, z float64, dig, bridge bool, maxTicks int) error {
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		target := geom.Vec3{X: x, Y: 64, Z: z}
		_, err = h.m.Go(context.Background(), Target{Kind: "goto", Point: func() (geom.Vec3, bool) { return target, true }, Within: 0.5, Dig: dig, Bridge: bridge})
	}()
	h.walkUntil(done, maxTicks)
	return err
}

// TestWalkDigsThroughAWall: a wall three thick across the whole loaded
// world is no path without Dig; with it the body stops at each layer, the
// hands break the head's block and then the feet's, and the bot walks on
// to the goal; it never breaks a block under its feet.
func TestWalkDigsThroughAWall(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, func(h *harness, x, y, z int) mcdata.StateID {
		if x >= 5 && x <= 7 && y >= 64 && y <= 67 {
			return h.stone
		}
		return flat(h, x, y, z)
	})
	hands := &workHands{h: h, stone: h.stone}
	h.m.SetHands(hands)
	var f *Failure
	if err := goWith(h, 10.5, 0.5, false, false, 400); !errors.As(err, &f) || f.Code != "needs_digging" {
		t.Fatalf("without dig: %v", err)
	}
	if len(hands.broken) != 0 {
		t.Fatalf("broke %v without dig", hands.broken)
	}
	if err := goWith(h, 10.5, 0.5, true, false, 600); err != nil {
		t.Fatalf("with dig: %v", err)
	}
	var want []world.BlockPos
	for x := 5; x <= 7; x++ {
		want = append(want, world.BlockPos{X: x, Y: 65, Z: 0}, world.BlockPos{X: x, Y: 64, Z: 0})
	}
	if fmt.Sprint(hands.broken) != fmt.Sprint(want) {
		t.Errorf("broke %v, want %v", hands.broken, want)
	}
	for i, p := range hands.at {
		// Each break is done from the block before the layer, in reach.
		if dx := float64(hands.broken[i].X) - p.X; dx < 0 || dx > 1.6 {
			t.Errorf("broke %v from %+v", hands.broken[i], p)
		}
	}
	if p, _ := h.m.Position(); p.X < 10 || p.X > 11 {
		t.Errorf("the bot ended at %+v", p)
	}
}

// TestWalkBridgesATrench: a trench three wide and too deep to climb out
// of: no path without Bridge, none with Bridge and no blocks, and with
// blocks the hands place one under each step and the bot walks over.
func TestWalkBridgesATrench(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, func(h *harness, x, y, z int) mcdata.StateID {
		if x >= 4 && x <= 6 && y >= 54 {
			return 0
		}
		return flat(h, x, y, z)
	})
	hands := &workHands{h: h, stone: h.stone}
	h.m.SetHands(hands)
	var f *Failure
	if err := goWith(h, 9.5, 0.5, false, true, 400); !errors.As(err, &f) || !strings.Contains(f.NextStep, "no blocks to bridge with") {
		t.Fatalf("bridge with no blocks: %v", err)
	}
	hands.blocks = 10
	if err := goWith(h, 9.5, 0.5, false, true, 600); err != nil {
		t.Fatalf("with bridge: %v", err)
	}
	want := []world.BlockPos{{X: 4, Y: 63, Z: 0}, {X: 5, Y: 63, Z: 0}, {X: 6, Y: 63, Z: 0}}
	if fmt.Sprint(hands.placed) != fmt.Sprint(want) {
		t.Errorf("placed %v, want %v", hands.placed, want)
	}
	if p, _ := h.m.Position(); p.X < 9 || p.X > 10 || p.Y != 64 {
		t.Errorf("the bot ended at %+v", p)
	}
}

// TestWalkReplansWhenABreakIsRefused: hands that cannot break give up as
// stuck after the planner's tries, without walking into the wall.
func TestWalkReplansWhenABreakIsRefused(t *testing.T) {
	h := joined(t, 769, 0.5, 64, 0.5, func(h *harness, x, y, z int) mcdata.StateID {
		if x == 3 && y >= 64 && y <= 67 {
			return h.stone
		}
		return flat(h, x, y, z)
	})
	hands := &workHands{h: h, stone: h.stone, refuse: true}
	h.m.SetHands(hands)
	var f *Failure
	if err := goWith(h, 8.5, 0.5, true, false, 400); !errors.As(err, &f) || f.Code != "stuck" {
		t.Fatalf("refused breaks: %v", err)
	}
	if p, _ := h.m.Position(); p.X > 3 {
		t.Errorf("the bot is at %+v, past the wall", p)
	}
}

// ClickPackets: the digging tests' worlds have no doors to click.
func (f *workHands) ClickPackets(world.BlockPos, int32, [3]float32) []core.Out { return nil }
