package worldfeat

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/internal/testkit/offline"
)

// protocols are the versions the feature is tested at: every release.
func protocols() []int32 {
	var out []int32
	for _, r := range mcdata.Releases() {
		out = append(out, int32(r.Protocol))
	}
	return out
}

type harness struct {
	*offline.Session
	w    *World
	game *mcdata.GameData
}

// joined is a session with the world feature, configured with the
// fakeserver's registries, logged in and placed at x, y, z.
func joined(t *testing.T, proto int32, x, y, z float64, viewDistance int32) *harness {
	h := &harness{game: mcdata.Game(proto)}
	h.Session = offline.New(t, proto, func(s *core.Session) {
		reg := registry.Attach(s)
		me := self.Attach(s, reg, self.Options{})
		h.w = Attach(s, reg, me)
	})
	h.Configure()
	h.Join(x, y, z, viewDistance)
	return h
}

func (h *harness) state(name string) mcdata.StateID {
	h.T.Helper()
	set, err := h.game.MatchStates(name)
	if err != nil {
		h.T.Fatal(err)
	}
	for id := mcdata.StateID(0); int(id) < h.game.NumStates(); id++ {
		if set.Has(id) {
			return id
		}
	}
	h.T.Fatalf("no state matches %s", name)
	return 0
}

// flat is a column of stone below y 60, grass at 60 and air above.
func (h *harness) flat(x, z int32) *world.Chunk {
	stone, grass := h.state("stone"), h.state("grass_block[snowy=false]")
	return fakeserver.Column(h.Proto, x, z, 1, func(_, y, _ int) mcdata.StateID {
		switch {
		case y < 60:
			return stone
		case y == 60:
			return grass
		}
		return 0
	})
}

func (h *harness) chunk(c *world.Chunk) {
	h.T.Helper()
	h.RouteBytes(mcdata.ClientboundPlayMapChunk, world.AppendChunk(nil, c, fakeserver.OverworldLayout(h.Proto)))
}

func (h *harness) blockAt(x, y, z int) (string, bool) {
	st, ok := h.w.View().BlockAt(world.BlockPos{X: x, Y: y, Z: z})
	if !ok {
		return "", false
	}
	s, _ := h.game.StateByID(st)
	return s.String(), true
}

func TestBlocksFollowTheServer(t *testing.T) {
	for _, proto := range protocols() {
		t.Run(fmt.Sprint(proto), func(t *testing.T) {
			h := joined(t, proto, 8.5, 61, 8.5, 4)
			if d := h.w.Dimension(); !d.Known || d.MinY != -64 || d.Height != 384 || d.Name != "minecraft:overworld" || d.Type != "minecraft:overworld" {
				t.Fatalf("dimension = %+v", d)
			}
			changed := h.w.Changed()
			h.chunk(h.flat(0, 0))
			h.chunk(h.flat(-1, 0))
			select {
			case <-changed:
			default:
				t.Error("loading a chunk did not notify")
			}
			for _, c := range []struct{ x, y, z int }{{0, 59, 0}, {15, 60, 15}, {-16, 60, 3}, {5, 61, 5}, {3, -64, 3}, {3, 319, 3}} {
				got, ok := h.blockAt(c.x, c.y, c.z)
				want := map[bool]string{true: "stone", false: "air"}[c.y < 60]
				if c.y == 60 {
					want = "grass_block[snowy=false]"
				}
				if !ok || got != want {
					t.Errorf("block at %d %d %d = %q, %v; want %q", c.x, c.y, c.z, got, ok, want)
				}
			}
			if _, ok := h.blockAt(16, 60, 0); ok {
				t.Error("a block of a column never sent reads as loaded")
			}
			if _, ok := h.blockAt(0, 320, 0); ok {
				t.Error("a block above the dimension reads as loaded")
			}
			if b, ok := h.w.BiomeAt(world.BlockPos{X: 1, Y: 64, Z: 1}); !ok || b != "desert" {
				t.Errorf("biome = %q, %v; want desert (index 1 of the registry sent)", b, ok)
			}

			// A block change, then a section change of three blocks in the
			// section at y -16…-1 of column -1, 0.
			glass := h.state("glass")
			h.Route(mcdata.ClientboundPlayBlockChange, func(w *wire.Writer) {
				w.Int64(int64(2&0x3ffffff)<<38 | int64(3&0x3ffffff)<<12 | 61)
				w.VarInt(int32(glass))
			})
			if got, _ := h.blockAt(2, 61, 3); got != "glass" {
				t.Errorf("after a block change: %q", got)
			}
			log := h.state("oak_log[axis=x]")
			sx, sy := int64(-1), int64(-1)
			section := sx<<42 | 0<<20 | sy&0xfffff
			h.Route(mcdata.ClientboundPlayMultiBlockChange, func(w *wire.Writer) {
				w.Int64(section)
				w.VarInt(3)
				for _, xyz := range [][3]int{{0, 0, 0}, {15, 15, 15}, {4, 9, 2}} {
					w.VarLong(int64(log)<<12 | int64(xyz[0])<<8 | int64(xyz[2])<<4 | int64(xyz[1]))
				}
			})
			for _, p := range [][3]int{{-16, -16, 0}, {-1, -1, 15}, {-12, -7, 2}} {
				if got, _ := h.blockAt(p[0], p[1], p[2]); got != "oak_log[axis=x]" {
					t.Errorf("after a section change, %v = %q", p, got)
				}
			}
			if got, _ := h.blockAt(-12, -7, 3); got != "stone" {
				t.Errorf("a block the section change did not name = %q", got)
			}

			// Block entity data at a chest.
			chest := h.state("chest[facing=north,type=single,waterlogged=false]")
			h.Route(mcdata.ClientboundPlayBlockChange, func(w *wire.Writer) {
				w.Int64(int64(4)<<38 | int64(4)<<12 | 61)
				w.VarInt(int32(chest))
			})
			h.Route(mcdata.ClientboundPlayTileEntityData, func(w *wire.Writer) {
				w.Int64(int64(4)<<38 | int64(4)<<12 | 61)
				w.VarInt(1)
				fakeserver.NBTInts(w, map[string]int32{"x": 4})
			})
			if e, ok := h.w.BlockEntityAt(world.BlockPos{X: 4, Y: 61, Z: 4}); !ok || e.Type != 1 || len(e.NBT) == 0 {
				t.Errorf("block entity = %+v, %v", e, ok)
			}

			// Unloads free the columns.
			before := h.w.Stats()
			if before.Columns != 2 || before.Bytes <= 0 {
				t.Fatalf("stats = %+v", before)
			}
			h.Route(mcdata.ClientboundPlayUnloadChunk, func(w *wire.Writer) { w.Int32(0); w.Int32(-1) })
			if _, ok := h.blockAt(-5, 60, 0); ok {
				t.Error("an unloaded column still reads")
			}
			if got, _ := h.blockAt(5, 60, 0); got != "grass_block[snowy=false]" {
				t.Errorf("the other column: %q", got)
			}
			h.Route(mcdata.ClientboundPlayUnloadChunk, func(w *wire.Writer) { w.Int32(0); w.Int32(0) })
			if st := h.w.Stats(); st.Columns != 0 || st.Bytes != 0 {
				t.Errorf("after unloading everything: %+v", st)
			}
		})
	}
}

// TestMemoryFollowsTheLoadedColumns: the store's bytes grow with each
// column of varied terrain and fall back to nothing when they unload.
func TestMemoryFollowsTheLoadedColumns(t *testing.T) {
	h := joined(t, 769, 8, 70, 8, 10)
	var sizes []int
	n := 0
	for x := int32(-4); x <= 4; x++ {
		for z := int32(-4); z <= 4; z++ {
			h.chunk(varied(h, x, z))
			n++
			sizes = append(sizes, h.w.Stats().Bytes)
		}
	}
	per := float64(sizes[len(sizes)-1]) / float64(n)
	if per < 2000 || per > 200_000 {
		t.Errorf("%.0f bytes a column; a terrain column of 24 sections is tens of kilobytes", per)
	}
	for i := 1; i < len(sizes); i++ {
		if sizes[i] <= sizes[i-1] {
			t.Fatalf("memory did not grow with column %d: %v", i, sizes[:i+1])
		}
	}
	// Linear: the second half of the columns costs what the first did,
	// within a quarter.
	half := len(sizes) / 2
	first, second := float64(sizes[half-1]), float64(sizes[len(sizes)-1]-sizes[half-1])
	if r := second / first * float64(half) / float64(len(sizes)-half); math.Abs(r-1) > 0.25 {
		t.Errorf("memory is not proportional to the columns: %v (ratio %.2f)", sizes, r)
	}
	for x := int32(-4); x <= 4; x++ {
		for z := int32(-4); z <= 4; z++ {
			h.Route(mcdata.ClientboundPlayUnloadChunk, func(w *wire.Writer) { w.Int32(z); w.Int32(x) })
		}
	}
	if st := h.w.Stats(); st.Columns != 0 || st.Bytes != 0 {
		t.Errorf("after unloading every column: %+v", st)
	}
}

// varied is a column whose sections each hold a few states chosen by its
// position, so that no two columns share their sections.
func varied(h *harness, x, z int32) *world.Chunk {
	states := []mcdata.StateID{h.state("stone"), h.state("dirt"), h.state("andesite"), h.state("granite"), h.state("diorite"), h.state("gravel")}
	return fakeserver.Column(h.Proto, x, z, 0, func(bx, y, bz int) mcdata.StateID {
		if y > 64 {
			return 0
		}
		return states[uint(bx*7+y*13+bz*3+int(x*z))%uint(len(states))]
	})
}

// TestDimensionChangeFreesEverything: a respawn into another dimension
// drops every column and takes the new dimension's height; a respawn in
// the same dimension keeps them (as the game's client does); a return to
// configuration drops them.
func TestDimensionChangeFreesEverything(t *testing.T) {
	for _, proto := range protocols() {
		t.Run(fmt.Sprint(proto), func(t *testing.T) {
			h := joined(t, proto, 8, 70, 8, 4)
			for x := int32(-1); x <= 1; x++ {
				h.chunk(h.flat(x, 0))
			}
			h.RouteBytes(mcdata.ClientboundPlayRespawn, fakeserver.RespawnBody(proto, 0, "minecraft:overworld"))
			if st := h.w.Stats(); st.Columns != 3 {
				t.Errorf("a respawn in the same dimension dropped columns: %+v", st)
			}
			dimChanged := h.w.DimensionChanged()
			h.RouteBytes(mcdata.ClientboundPlayRespawn, fakeserver.RespawnBody(proto, 1, "minecraft:the_nether"))
			select {
			case <-dimChanged:
			default:
				t.Error("no dimension change notification")
			}
			if st := h.w.Stats(); st.Columns != 0 || st.Bytes != 0 {
				t.Errorf("after a dimension change: %+v", st)
			}
			d := h.w.Dimension()
			if d.Name != "minecraft:the_nether" || d.MinY != 0 || d.Height != 256 || d.MaxY() != 255 || !d.Known {
				t.Errorf("nether = %+v", d)
			}
			// A nether column has 16 sections; one of the overworld's 24
			// no longer fits.
			netherrack := h.state("netherrack")
			l := fakeserver.OverworldLayout(proto)
			l.MinY, l.Height = 0, 256
			c := &world.Chunk{Pos: world.ChunkPos{X: 0, Z: 0}}
			for i := 0; i < l.Sections(); i++ {
				c.Sections = append(c.Sections, world.BuildSection(l, 0, func(x, y, z int) mcdata.StateID { return netherrack }))
			}
			h.RouteBytes(mcdata.ClientboundPlayMapChunk, world.AppendChunk(nil, c, l))
			if got, _ := h.blockAt(3, 200, 3); got != "netherrack" {
				t.Errorf("nether block = %q", got)
			}
			h.chunk(h.flat(1, 0))
			if st := h.w.Stats(); st.Columns != 1 || st.Unreadable != 1 || !strings.Contains(st.LastError, "sections") {
				t.Errorf("an overworld column in the nether: %+v", st)
			}
			h.Route(mcdata.ClientboundPlayStartConfiguration, nil)
			if st := h.w.Stats(); st.Columns != 0 {
				t.Errorf("after a return to configuration: %+v", st)
			}
		})
	}
}

// TestTheViewDropsColumnsBehind: columns outside the view's square (the
// view distance plus 3, around the server's centre, or the bot's column
// before the server names one) are refused, and moving the centre drops
// those left behind.
func TestTheViewDropsColumnsBehind(t *testing.T) {
	h := joined(t, 768, 8, 70, 8, 2) // a radius of 2+3 around column 0, 0
	h.chunk(h.flat(5, -5))
	h.chunk(h.flat(6, 0))
	if h.w.View().Column(world.ChunkPos{X: 5, Z: -5}) == nil || h.w.Stats().Columns != 1 {
		t.Fatalf("the corner of the view was refused or the column past it kept: %+v", h.w.Stats())
	}
	h.Route(mcdata.ClientboundPlayUpdateViewPosition, func(w *wire.Writer) { w.VarInt(10); w.VarInt(0) })
	if st := h.w.Stats(); st.Columns != 1 || st.Center != (world.ChunkPos{X: 10, Z: 0}) {
		t.Errorf("column 5, -5 is in view of 10, 0: %+v", st)
	}
	h.chunk(h.flat(15, 0))
	h.Route(mcdata.ClientboundPlayUpdateViewPosition, func(w *wire.Writer) { w.VarInt(20); w.VarInt(0) })
	if st := h.w.Stats(); st.Columns != 1 || h.w.View().Column(world.ChunkPos{X: 15, Z: 0}) == nil {
		t.Errorf("after the centre moved to 20, 0: %+v", st)
	}
	h.Route(mcdata.ClientboundPlayUpdateViewDistance, func(w *wire.Writer) { w.VarInt(1000) })
	if st := h.w.Stats(); st.ViewRadius != maxViewRadius {
		t.Errorf("a view distance of 1000 gives radius %d", st.ViewRadius)
	}
}

// TestChunkBatchesAreAcknowledged: every batch is acknowledged with the
// rate the game's client computes; with no time passing between a batch's
// start and end (the manual clock) the rate climbs from the game's 3.5.
func TestChunkBatchesAreAcknowledged(t *testing.T) {
	h := joined(t, 769, 8, 70, 8, 4)
	for i := 0; i < 3; i++ {
		h.Route(mcdata.ClientboundPlayChunkBatchStart, nil)
		h.chunk(h.flat(0, 0))
		h.Route(mcdata.ClientboundPlayChunkBatchFinished, func(w *wire.Writer) { w.VarInt(1) })
	}
	var rates []float32
	for _, body := range h.WaitFor(mcdata.ServerboundPlayChunkBatchReceived, 3) {
		rates = append(rates, wire.NewReader(body).Float32())
	}
	// The game's first answer: (2 ms·1 + 2/3 ms) / 2 per chunk, 7 ms a tick.
	if math.Abs(float64(rates[0])-5.25) > 0.01 || !(rates[1] > rates[0] && rates[2] > rates[1]) {
		t.Errorf("rates %v, want 5.25 then rising", rates)
	}
}

// TestUnknownDimensionHeight: without the dimension type registry the bot
// cannot read chunks; it says so and stays in the world.
func TestUnknownDimensionHeight(t *testing.T) {
	h := &harness{game: mcdata.Game(769)}
	h.Session = offline.New(t, 769, func(s *core.Session) {
		reg := registry.Attach(s)
		h.w = Attach(s, reg, self.Attach(s, reg, self.Options{}))
	})
	h.Join(8, 70, 8, 4)
	h.chunk(h.flat(0, 0))
	st := h.w.Stats()
	if h.w.Dimension().Known || st.Columns != 0 || !strings.Contains(st.LastError, "did not describe the height") {
		t.Errorf("dimension %+v, stats %+v", h.w.Dimension(), st)
	}
}

// TestGarbageChunkIsSkipped: a chunk that does not decode is counted and
// skipped; the connection stays.
func TestGarbageChunkIsSkipped(t *testing.T) {
	h := joined(t, 769, 8, 70, 8, 4)
	if err := h.RouteErr(mcdata.ClientboundPlayMapChunk, func(w *wire.Writer) { w.Int32(0); w.Int32(0); w.Raw([]byte{10, 0, 0xff, 0xff, 0xff}) }); err != nil {
		t.Fatalf("a bad chunk ended the connection: %v", err)
	}
	if st := h.w.Stats(); st.Unreadable != 1 || st.LastError == "" {
		t.Errorf("stats %+v", st)
	}
	h.chunk(h.flat(0, 0))
	if st := h.w.Stats(); st.Columns != 1 {
		t.Errorf("the next chunk was not loaded: %+v", st)
	}
}

func TestWaitLoaded(t *testing.T) {
	h := joined(t, 769, 8, 70, 8, 4)
	done := make(chan bool)
	go func() { done <- h.w.WaitLoaded(context.Background(), world.BlockPos{X: 3, Y: 0, Z: 3}, time.Minute) }()
	h.chunk(h.flat(1, 1)) // another column: not what it waits for
	h.chunk(h.flat(0, 0))
	if !<-done {
		t.Error("WaitLoaded did not see the column load")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if h.w.WaitLoaded(ctx, world.BlockPos{X: 100, Y: 0, Z: 100}, time.Minute) {
		t.Error("WaitLoaded answered true for a column never sent")
	}
}

// TestAwaitAround: right after a join the wait ends when the columns
// around the bot have all arrived, and a column that never comes ends it
// after its ticks, not before, and not on the clock's time.
func TestAwaitAround(t *testing.T) {
	h := joined(t, 769, 8, 70, 8, 4)
	done := make(chan bool, 1)
	go func() { done <- h.w.AwaitAround(context.Background(), 1, 40) }()
	// Eight of the nine columns around (0, 0): not yet.
	for x := int32(-1); x <= 1; x++ {
		for z := int32(-1); z <= 1; z++ {
			if x == 1 && z == 1 {
				continue
			}
			h.chunk(h.flat(x, z))
		}
	}
	select {
	case <-done:
		t.Fatal("AwaitAround ended with a column around the bot missing")
	default:
	}
	h.chunk(h.flat(1, 1))
	if !<-done {
		t.Error("AwaitAround did not see the last column load")
	}
	if !h.w.AroundLoaded(1) {
		t.Error("AroundLoaded is false with all nine columns there")
	}

	// Radius 2 needs the ring at distance 2, which never comes: the wait
	// runs out after its 40 ticks of the session, not before. The clock
	// ticks faster than a loaded machine may run the waiter, so the bound
	// on the ticks given is loose; the session's own count is the measure.
	started := make(chan uint64)
	go func() {
		started <- h.S.Tick()
		done <- h.w.AwaitAround(context.Background(), 2, 40)
	}()
	from := <-started
	for given := 0; ; given++ {
		select {
		case ok := <-done:
			if ok {
				t.Error("AwaitAround answered true for columns never sent")
			}
			if ran := h.S.Tick() - from; ran < 40 {
				t.Errorf("AwaitAround gave up after %d ticks of the session, want 40", ran)
			}
			return
		default:
		}
		if given > 4000 {
			t.Fatalf("AwaitAround did not give up after %d ticks given (%d run)", given, h.S.Tick()-from)
		}
		h.Clock.Tick()
		runtime.Gosched()
	}
}
