// Package worldfeat is the bot's world feature: it feeds the block store
// (bot/world) from the server's chunk data, chunk unloads, block and
// section updates and block entity data; follows the dimension (its height
// from the dimension type registry, a fresh store on every dimension
// change) and the view's centre and radius (columns outside it are
// dropped, as the game's client drops them); acknowledges chunk batches
// with the rate the bot can take; and names biomes from the registry the
// server sent. Light data is not kept.
//
// Concurrency: the read loop is the only writer (every handler here runs
// on it). Readers never wait for it: View returns an immutable snapshot
// (world.Store's copy-on-write scheme, described in bot/world's package
// doc), and the feature's own small state (dimension, centre, counters) is
// behind a mutex held only to copy a few words. Changed and
// DimensionChanged wake waiters; nobody polls.
package worldfeat

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
)

// maxViewRadius bounds the view radius a server may set (the game's own
// servers allow 32), and with it how many columns the bot keeps.
const maxViewRadius = 32

// MaxColumns is the most columns the store holds at once: the view square
// of the largest radius, with the game client's margin of 3.
const MaxColumns = (2*(maxViewRadius+3) + 1) * (2*(maxViewRadius+3) + 1)

// Dimension is the dimension the bot is in.
type Dimension struct {
	// Name is the dimension ("minecraft:overworld"), Type its dimension
	// type's name in the registry.
	Name, Type string
	// MinY is its lowest block y, Height its number of block layers.
	MinY, Height int
	// Known is false when the server did not describe the dimension type
	// (no height): chunks are then not read.
	Known bool
}

// MaxY is the highest block y of the dimension.
func (d Dimension) MaxY() int { return d.MinY + d.Height - 1 }

// World is the world feature of one session. Its methods are safe from any
// goroutine.
type World struct {
	s    *core.Session
	c    *codec.Codec
	reg  *registry.Registry
	self *self.Self
	game *mcdata.GameData

	store *world.Store

	mu     sync.Mutex
	dim    Dimension
	layout world.Layout
	// center is the column the server centres the view on; hasCenter is
	// false until it says (flying-squid never does before the bot moves),
	// and the bot's own column stands in.
	center    world.ChunkPos
	hasCenter bool
	radius    int // the server's view distance, in chunks
	batch     batchRate
	// unreadable counts chunks that did not decode; lastError is the last
	// reason.
	unreadable int
	lastError  string
	refused    int // chunks outside the view or past MaxColumns

	dimChanged core.Notify

	// memo caches the store's size until the store changes: counting it
	// walks every section, and mc_status asks often.
	memo struct {
		sync.Mutex
		valid         <-chan struct{} // closed when the store changes
		columns, size int
	}
}

// Attach registers the feature's handlers on s. reg gives dimension types
// and biome names, me the bot's position (the view's centre until the
// server names one).
func Attach(s *core.Session, reg *registry.Registry, me *self.Self) *World {
	w := &World{s: s, c: s.Codec, reg: reg, self: me, game: mcdata.Game(s.Codec.Protocol), radius: 2}
	w.batch.reset()
	if w.game == nil {
		// Every release has game data (TestEveryReleaseHasGameData); a
		// codec without it cannot read chunks, so the feature stays off.
		return w
	}
	w.layout = world.Layout{Format: w.c.ChunkFormat, MinY: -64, Height: 384, NumStates: w.game.NumStates(), NumBiomes: max(1, len(w.game.Biomes))}
	store, err := world.NewStore(w.game, w.layout)
	if err != nil {
		panic("worldfeat: the default layout is invalid: " + err.Error())
	}
	w.store = store
	s.HandleIfPresent(mcdata.ClientboundPlayLogin, w.login)
	s.HandleIfPresent(mcdata.ClientboundPlayRespawn, w.respawn)
	s.HandleIfPresent(mcdata.ClientboundPlayStartConfiguration, w.reconfigure)
	s.HandleIfPresent(mcdata.ClientboundPlayPosition, w.moved)
	s.HandleIfPresent(mcdata.ClientboundPlayMapChunk, w.chunk)
	// The bot reads a chunk's terrain, not its light data, which is most
	// of the packet (at view distance 10, inflating the light and checking
	// its checksum was most of an idle bot's CPU): the connection stops
	// inflating a chunk where its terrain ends.
	s.CutAt(mcdata.ClientboundPlayMapChunk, w.layout.TerrainEnd)
	s.HandleIfPresent(mcdata.ClientboundPlayUnloadChunk, w.unload)
	s.HandleIfPresent(mcdata.ClientboundPlayBlockChange, w.blockChange)
	s.HandleIfPresent(mcdata.ClientboundPlayMultiBlockChange, w.sectionChange)
	s.HandleIfPresent(mcdata.ClientboundPlayTileEntityData, w.blockEntity)
	s.HandleIfPresent(mcdata.ClientboundPlayUpdateViewPosition, w.viewCenter)
	s.HandleIfPresent(mcdata.ClientboundPlayUpdateViewDistance, w.viewDistance)
	s.HandleIfPresent(mcdata.ClientboundPlayChunkBatchStart, w.batchStart)
	s.HandleIfPresent(mcdata.ClientboundPlayChunkBatchFinished, w.batchFinished)
	return w
}

// ---- what readers use ----

// Game is the version's static data (block names, shapes, biomes).
func (w *World) Game() *mcdata.GameData { return w.game }

// View returns an immutable snapshot of the loaded columns, to read as
// long as one likes without holding up the read loop (see world.View).
func (w *World) View() *world.View {
	if w.store == nil {
		return world.EmptyView()
	}
	return w.store.Snapshot()
}

// Changed returns a channel closed at the next change of the blocks (a
// column loaded or unloaded, a block changed, a dimension change).
func (w *World) Changed() <-chan struct{} {
	if w.store == nil {
		return nil
	}
	return w.store.Changed()
}

// DimensionChanged returns a channel closed at the next dimension change
// (a login, a respawn into another dimension, a return to configuration).
func (w *World) DimensionChanged() <-chan struct{} { return w.dimChanged.Wait() }

// Dimension is the dimension the bot is in.
func (w *World) Dimension() Dimension {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.dim
}

// Stats are the feature's figures, for mc_status and the benchmark.
type Stats struct {
	Columns int // loaded columns
	// Bytes estimates the memory the loaded columns hold (world.Store.Bytes).
	Bytes int
	// ViewRadius is the server's view distance, in chunks.
	ViewRadius int
	// Center is the view's centre column.
	Center world.ChunkPos
	// Unreadable counts chunks that could not be decoded, LastError says
	// why the last one could not.
	Unreadable int
	LastError  string
}

// Stats returns the feature's figures.
func (w *World) Stats() Stats {
	w.mu.Lock()
	st := Stats{ViewRadius: w.radius, Center: w.centerLocked(), Unreadable: w.unreadable, LastError: w.lastError}
	w.mu.Unlock()
	st.Columns, st.Bytes = w.memory()
	return st
}

// memory is how many columns are loaded and what they hold, recounted only
// after the store changed.
func (w *World) memory() (columns, size int) {
	if w.store == nil {
		return 0, 0
	}
	m := &w.memo
	m.Lock()
	defer m.Unlock()
	if m.valid != nil {
		select {
		case <-m.valid:
		default:
			return m.columns, m.size
		}
	}
	m.valid = w.store.Changed() // before the count: a change during it is seen next time
	v := w.store.Snapshot()
	m.columns, m.size = v.Len(), v.Bytes()
	return m.columns, m.size
}

// BiomeName names a biome id of chunk data: the registry the server sent,
// or the vanilla order when it sent none.
func (w *World) BiomeName(id int32) (string, bool) {
	if names := w.reg.Biomes(); names != nil {
		if id >= 0 && int(id) < len(names) {
			return names[id], true
		}
		return "", false
	}
	if w.game != nil && id >= 0 && int(id) < len(w.game.Biomes) {
		return w.game.Biomes[id].Name, true
	}
	return "", false
}

// BiomeAt names the biome at a block, and false where no column is loaded.
func (w *World) BiomeAt(p world.BlockPos) (string, bool) {
	if w.store == nil {
		return "", false
	}
	id, ok := w.store.BiomeAt(p)
	if !ok {
		return "", false
	}
	return w.BiomeName(id)
}

// BlockEntityAt returns the block entity (chest, furnace, sign …) at a
// position, with its NBT undecoded, and false when there is none or the
// column is not loaded.
func (w *World) BlockEntityAt(p world.BlockPos) (world.BlockEntity, bool) {
	col := w.View().Column(p.Chunk())
	if col == nil {
		return world.BlockEntity{}, false
	}
	for _, e := range col.BlockEntities() {
		if e.Pos == p {
			return e, true
		}
	}
	return world.BlockEntity{}, false
}

// WaitLoaded waits until the column holding p is loaded, at most timeout,
// on the store's notifications; it reports whether it is.
func (w *World) WaitLoaded(ctx context.Context, p world.BlockPos, timeout time.Duration) bool {
	if w.store == nil {
		return false
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		changed := w.store.Changed()
		if w.store.Loaded(p.Chunk()) {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		case <-w.s.Done():
			return false
		case <-deadline.C:
			return false
		}
	}
}

// ---- the handlers (the read loop) ----

func (w *World) login(r *wire.Reader) error {
	l := w.c.PlayLogin(r)
	if r.Err() != nil {
		return nil
	}
	w.mu.Lock()
	w.radius = clampRadius(l.ViewDistance)
	w.hasCenter = false
	w.mu.Unlock()
	if w.store != nil {
		w.enter(l.Spawn, true)
	}
	return nil
}

func (w *World) respawn(r *wire.Reader) error {
	rs := w.c.Respawn(r)
	if r.Err() != nil {
		return nil
	}
	// The game's client keeps its level (and every column) on a respawn
	// in the same dimension, and makes a new one otherwise.
	w.mu.Lock()
	other := rs.Spawn.Dimension != w.dim.Name
	w.mu.Unlock()
	if w.store != nil {
		w.enter(rs.Spawn, other)
	}
	return nil
}

// reconfigure forgets the world: the game's client clears its level when
// the server sends it back to configuration, and a login follows.
func (w *World) reconfigure(*wire.Reader) error {
	w.mu.Lock()
	w.dim, w.hasCenter = Dimension{}, false
	layout := w.layout
	w.mu.Unlock()
	if w.store != nil {
		_ = w.store.Reset(layout)
	}
	w.dimChanged.Broadcast()
	return nil
}

// enter takes the dimension of a spawn info; fresh drops every column
// even when the dimension stays the same (a new login).
func (w *World) enter(si codec.SpawnInfo, fresh bool) {
	dim := Dimension{Name: si.Dimension}
	w.mu.Lock()
	layout := w.layout
	w.mu.Unlock()
	dt, ok := w.reg.DimensionType(si.DimensionType)
	if ok {
		dim.Type, dim.MinY, dim.Height = dt.Name, int(dt.MinY), int(dt.Height)
		layout.MinY, layout.Height = dim.MinY, dim.Height
	}
	if biomes := w.reg.Biomes(); len(biomes) > 0 {
		layout.NumBiomes = len(biomes)
	}
	dim.Known = ok && layout.Check() == nil
	w.mu.Lock()
	changed := fresh || dim != w.dim
	if dim.Known {
		w.layout = layout
	} else {
		w.lastError = fmt.Sprintf("the server did not describe the height of dimension type %d (%s), so the bot cannot read its chunks", si.DimensionType, si.Dimension)
	}
	w.dim = dim
	layout = w.layout
	w.mu.Unlock()
	if !dim.Known {
		w.s.Log.Warn("dimension height unknown; chunks will not be read", "dimension", si.Dimension, "type", si.DimensionType)
	}
	if changed {
		if err := w.store.Reset(layout); err != nil {
			w.s.Log.Warn("world reset failed", "err", err)
		}
		w.dimChanged.Broadcast()
	}
}

// moved re-centres the view on the bot after a position sync while the
// server has not named a centre.
func (w *World) moved(*wire.Reader) error {
	w.mu.Lock()
	has := w.hasCenter
	w.mu.Unlock()
	if !has {
		w.retain()
	}
	return nil
}

func (w *World) chunk(r *wire.Reader) error {
	// Decode from a reader of its own: a chunk the bot cannot read is
	// reported and skipped, not a reason to leave the world.
	data := r.Rest()
	w.mu.Lock()
	known, layout := w.dim.Known, w.layout
	w.mu.Unlock()
	if !known || w.store == nil {
		return nil
	}
	cr := wire.NewReader(data)
	c, err := world.DecodeTerrain(cr, layout)
	if err == nil && cr.Remaining() != 0 {
		// The light data is here when the connection did not cut the
		// packet at the terrain's end (it came uncompressed): read past
		// it, as a check that the layout is the server's.
		layout.SkipLight(cr)
		if err = cr.Err(); err != nil {
			err = fmt.Errorf("chunk %d,%d: %w", c.Pos.X, c.Pos.Z, err)
		} else if cr.Remaining() != 0 && layout.LightMaskBytes {
			// The light data ends the packet: bytes after it mean the
			// layout is not the server's (26.3's byte light masks read
			// as longs). Checked from 26.3, whose masks changed; older
			// peers are not held to it.
			err = fmt.Errorf("chunk %d,%d: %d bytes after the light data", c.Pos.X, c.Pos.Z, cr.Remaining())
		}
	}
	if err != nil {
		w.mu.Lock()
		w.unreadable++
		first := w.unreadable == 1
		w.lastError = err.Error()
		w.mu.Unlock()
		if first {
			w.s.Log.Warn("a chunk could not be read; it is skipped", "err", err)
		}
		return nil
	}
	w.mu.Lock()
	w.batch.chunks++
	inView := w.inViewLocked(c.Pos)
	w.mu.Unlock()
	if !inView || !w.store.Loaded(c.Pos) && w.store.Len() >= MaxColumns {
		w.mu.Lock()
		w.refused++
		w.mu.Unlock()
		return nil
	}
	if err := w.store.Load(c); err != nil {
		w.mu.Lock()
		w.unreadable++
		w.lastError = err.Error()
		w.mu.Unlock()
	}
	return nil
}

func (w *World) unload(r *wire.Reader) error {
	pos := w.c.UnloadChunk(r)
	if r.Err() == nil && w.store != nil {
		w.store.Unload(pos)
	}
	return nil
}

func (w *World) blockChange(r *wire.Reader) error {
	b := w.c.BlockChange(r)
	if r.Err() == nil && w.store != nil {
		w.store.SetBlock(world.BlockPos{X: b.Pos.X, Y: b.Pos.Y, Z: b.Pos.Z}, mcdata.StateID(b.State))
	}
	return nil
}

func (w *World) sectionChange(r *wire.Reader) error {
	m := w.c.MultiBlockChange(r)
	if r.Err() != nil || w.store == nil {
		return nil
	}
	changes := make([]world.BlockChange, len(m.Records))
	for i, rec := range m.Records {
		changes[i] = world.SectionChange(m.Section, rec)
	}
	w.store.SetBlocks(changes)
	return nil
}

func (w *World) blockEntity(r *wire.Reader) error {
	d := w.c.BlockEntityData(r)
	if r.Err() == nil && w.store != nil {
		w.store.SetBlockEntity(world.BlockEntity{Pos: world.BlockPos{X: d.Pos.X, Y: d.Pos.Y, Z: d.Pos.Z}, Type: d.Type, NBT: d.NBT})
	}
	return nil
}

func (w *World) viewCenter(r *wire.Reader) error {
	c := w.c.ChunkCenter(r)
	if r.Err() != nil {
		return nil
	}
	w.mu.Lock()
	w.center, w.hasCenter = c, true
	w.mu.Unlock()
	w.retain()
	return nil
}

func (w *World) viewDistance(r *wire.Reader) error {
	d := w.c.ViewDistance(r)
	if r.Err() != nil {
		return nil
	}
	w.mu.Lock()
	w.radius = clampRadius(d)
	w.mu.Unlock()
	w.retain()
	return nil
}

// retain drops the columns outside the view.
func (w *World) retain() {
	if w.store == nil {
		return
	}
	w.mu.Lock()
	center, r := w.centerLocked(), storageRadius(w.radius)
	w.mu.Unlock()
	w.store.Retain(func(p world.ChunkPos) bool { return inSquare(p, center, r) })
}

// centerLocked is the view's centre: the server's, or the bot's column.
func (w *World) centerLocked() world.ChunkPos {
	if w.hasCenter {
		return w.center
	}
	pos := w.self.Snapshot().Position
	return world.BlockPos{X: floor(pos.X), Z: floor(pos.Z)}.Chunk()
}

// inViewLocked says whether a column is inside the view the game's client
// keeps: its view distance plus a margin of 3 (ClientChunkCache's
// calculateStorageRange), around the centre. Before the server names a
// centre and before the bot has a position, every column is in view
// (MaxColumns still bounds them); the first position sync trims them.
func (w *World) inViewLocked(p world.ChunkPos) bool {
	if !w.hasCenter {
		select {
		case <-w.s.Spawned():
		default:
			return true
		}
	}
	return inSquare(p, w.centerLocked(), storageRadius(w.radius))
}

func inSquare(p, center world.ChunkPos, r int) bool {
	dx, dz := int(p.X)-int(center.X), int(p.Z)-int(center.Z)
	return dx >= -r && dx <= r && dz >= -r && dz <= r
}

func storageRadius(viewDistance int) int { return max(2, viewDistance) + 3 }

func clampRadius(d int32) int { return int(min(max(d, 2), maxViewRadius)) }

func floor(f float64) int {
	i := int(f)
	if float64(i) > f {
		i--
	}
	return i
}

func (w *World) batchStart(*wire.Reader) error {
	w.mu.Lock()
	w.batch.start, w.batch.chunks = w.s.Now(), 0
	w.mu.Unlock()
	return nil
}

// batchFinished acknowledges a chunk batch with how many chunks a tick the
// bot can take, as the game's client measures it.
func (w *World) batchFinished(r *wire.Reader) error {
	size := w.c.ChunkBatchFinished(r)
	if r.Err() != nil {
		return nil
	}
	w.mu.Lock()
	w.batch.finished(w.s.Now(), size)
	rate := w.batch.perTick()
	w.mu.Unlock()
	return w.s.Send(mcdata.ServerboundPlayChunkBatchReceived, func(wr *wire.Writer) { w.c.WriteChunkBatchReceived(wr, rate) })
}

// batchRate is the game client's ChunkBatchSizeCalculator: an average of
// the time a chunk of a batch took from the batch's start to its end,
// weighted towards the past, which sets the rate the client asks for
// (7 ms of chunks a tick).
type batchRate struct {
	start         time.Time
	chunks        int
	nanosPer      float64
	samplesWeight int
}

func (b *batchRate) reset() { b.nanosPer, b.samplesWeight = 2e6, 1 }

func (b *batchRate) finished(now time.Time, size int32) {
	if size <= 0 || b.start.IsZero() {
		return
	}
	per := float64(now.Sub(b.start).Nanoseconds()) / float64(size)
	per = min(max(per, b.nanosPer/3), b.nanosPer*3)
	b.nanosPer = (b.nanosPer*float64(b.samplesWeight) + per) / float64(b.samplesWeight+1)
	b.samplesWeight = min(max(b.samplesWeight+1, 3), 49)
}

// perTick is the rate to ask for; the server clamps it to 0.01–64.
func (b *batchRate) perTick() float32 { return float32(7e6 / b.nanosPer) }
