package physics

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/world"
)

// fuzzWorld is an endless stone floor (y = −1) and an endless stone wall
// (x = 5), with a few bytes' worth of blocks of every kind in between: the
// player may go anywhere on the near side of the wall and above the floor,
// and must never pass through either.
type fuzzWorld struct {
	stone  mcdata.StateID
	blocks map[world.BlockPos]mcdata.StateID
}

func (w *fuzzWorld) BlockAt(p world.BlockPos) (mcdata.StateID, bool) {
	if p.X == 5 || p.Y == -1 {
		return w.stone, true
	}
	if s, ok := w.blocks[p]; ok {
		return s, true
	}
	return 0, true
}

// fuzzBlocks are the blocks a fuzzed world is built from: every shape and
// mechanism Step knows.
var fuzzBlocks = []string{
	"stone", "oak_slab[type=bottom]", "oak_slab[type=top]", "oak_stairs", "oak_stairs[half=top,facing=east]",
	"oak_fence[north=true]", "cobblestone_wall[up=true]", "oak_fence_gate", "snow[layers=3]", "white_carpet",
	"water", "water[level=3]", "water[level=9]", "lava", "lava[level=4]", "ladder", "vine[north=true]",
	"scaffolding", "scaffolding[bottom=true,distance=2]", "oak_trapdoor[open=true]", "soul_sand", "honey_block",
	"slime_block", "ice", "blue_ice", "cobweb", "sweet_berry_bush", "powder_snow", "bubble_column",
	"bubble_column[drag=false]", "red_bed", "seagrass", "chest", "bamboo", "lily_pad", "air",
}

func FuzzStep(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Add([]byte("sprint jump into the wall at the edge of the world, over water and slime"))
	f.Add(make([]byte, 200))
	seed := make([]byte, 120)
	for i := range seed {
		seed[i] = byte(i * 37)
	}
	f.Add(seed)
	engines := map[int32]*Engine{}
	states := map[int32][]mcdata.StateID{}
	for _, p := range mcdata.GameProtocols() {
		e := engine(f, p)
		engines[p] = e
		tw := &testWorld{g: e.Game()}
		for _, spec := range fuzzBlocks {
			states[p] = append(states[p], tw.state(f, spec))
		}
	}
	protocols := mcdata.GameProtocols()
	f.Fuzz(func(t *testing.T, data []byte) {
		r := byteReader{data: data}
		p := protocols[int(r.byte())%len(protocols)]
		e := engines[p]
		w := &fuzzWorld{stone: states[p][0], blocks: map[world.BlockPos]mcdata.StateID{}}
		for n := int(r.byte() % 48); n > 0; n-- {
			pos := world.BlockPos{X: int(r.byte()%10) - 5, Y: int(r.byte() % 8), Z: int(r.byte()%10) - 5}
			w.blocks[pos] = states[p][int(r.byte())%len(states[p])]
		}
		a := DefaultAttributes()
		if r.byte()&1 == 1 {
			a.StepHeight = float64(r.byte()%100) / 10
			a.Gravity = float64(int(r.byte())-128) / 1000
			a.JumpStrength = float64(r.byte()) / 64
			a.MovementSpeed = float64(r.byte()) / 256
			a.JumpBoost = int32(r.byte() % 4)
			a.Levitation = int32(r.byte() % 3)
			a.SlowFalling = r.byte()&1 == 1
			a.LeatherBoots = r.byte()&1 == 1
			a.WaterMovementEfficiency = float64(r.byte()) / 255
			a.MovementEfficiency = float64(r.byte()) / 255
		}
		s := State{
			Pos:          Vec3{r.coord(-4, 4.6), r.coord(0, 9), r.coord(-5, 5)},
			Vel:          Vec3{r.speed(), r.speed(), r.speed()},
			Yaw:          r.angle(),
			FallDistance: float64(r.byte()),
			OnGround:     r.byte()&1 == 1,
			Pose:         Pose(r.byte() % 3),
		}
		// Start outside the wall and the floor (the player may start in a
		// fuzzed block; it must still not cross the stone planes).
		for n := int(r.byte()%60) + 1; n > 0; n-- {
			c := Controls{Yaw: r.angle(), Pitch: r.angle() / 4}
			k := r.byte()
			c.Forward, c.Back, c.Left, c.Right = k&1 != 0, k&2 != 0, k&4 != 0, k&8 != 0
			c.Jump, c.Sneak, c.Sprint = k&16 != 0, k&32 != 0, k&64 != 0
			if k == 255 {
				c.Yaw = float32(math.NaN())
			}
			prev := s
			s = e.Step(w, s, c, a)
			for _, v := range []float64{s.Pos.X, s.Pos.Y, s.Pos.Z, s.Vel.X, s.Vel.Y, s.Vel.Z, s.FallDistance, s.WaterHeight, s.LavaHeight} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("protocol %d: a non-finite value after a step from %+v with %+v: %+v", p, prev, c, s)
				}
			}
			b := s.Box()
			if b.MaxX > 5+1e-7 {
				t.Fatalf("protocol %d: the player passed into the wall at x=5: box %+v (from %+v, controls %+v)", p, b, prev.Pos, c)
			}
			if b.MinY < -1e-7 {
				t.Fatalf("protocol %d: the player passed into the floor: box %+v (from %+v, controls %+v)", p, b, prev.Pos, c)
			}
		}
	})
}

// byteReader hands out fuzz bytes, then zeros.
type byteReader struct {
	data []byte
	i    int
}

func (r *byteReader) byte() byte {
	if r.i >= len(r.data) {
		return 0
	}
	r.i++
	return r.data[r.i-1]
}

func (r *byteReader) u16() uint16 { return binary.LittleEndian.Uint16([]byte{r.byte(), r.byte()}) }

func (r *byteReader) coord(lo, hi float64) float64 {
	return lo + (hi-lo)*float64(r.u16())/65535
}

// speed is a motion up to 20 blocks a tick either way, past Step's cap.
func (r *byteReader) speed() float64 { return (float64(r.u16()) - 32768) / 32768 * 20 }

func (r *byteReader) angle() float32 { return (float32(r.u16()) - 32768) / 32768 * 720 }
