package world

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Column is one loaded chunk column. Like its sections it is immutable once
// a store holds it: changes build a new Column.
type Column struct {
	Pos      ChunkPos
	sections []*Section
	entities []BlockEntity
}

// Section returns the column's i-th section from the bottom, or nil.
func (c *Column) Section(i int) *Section {
	if uint(i) >= uint(len(c.sections)) {
		return nil
	}
	return c.sections[i]
}

// BlockEntities are the column's block entities (shared: do not modify).
func (c *Column) BlockEntities() []BlockEntity { return c.entities }

// BlockChange is one block a block update or a section update sets.
type BlockChange struct {
	Pos   BlockPos
	State mcdata.StateID
}

// SectionChange unpacks one record of a section update (multi block
// change): the section's packed position (x 22 bits, z 22 bits, y 20 bits,
// signed) and a record (state << 12 | x << 8 | z << 4 | y, section-local).
func SectionChange(section, record int64) BlockChange {
	sx, sz, sy := int(section>>42), int(section<<22>>42), int(section<<44>>44)
	return BlockChange{
		Pos:   BlockPos{sx<<4 | int(record>>8&15), sy<<4 | int(record&15), sz<<4 | int(record>>4&15)},
		State: mcdata.StateID(record >> 12),
	}
}

// Store holds the loaded columns of the bot's dimension.
type Store struct {
	game *mcdata.GameData

	// wmu serialises writers (the read loop, normally the only one), so a
	// read-modify-write of a column cannot lose another writer's change.
	wmu sync.Mutex

	mu        sync.RWMutex // guards the fields below; held only for O(1) work
	layout    Layout
	blockKind kind
	columns   map[ChunkPos]*Column
	changed   chan struct{} // closed at the next change; nil until someone waits
}

// NewStore makes an empty store for a layout; game is the version's static
// data (its NumStates must be the layout's).
func NewStore(game *mcdata.GameData, l Layout) (*Store, error) {
	s := &Store{game: game}
	if err := s.Reset(l); err != nil {
		return nil, err
	}
	return s, nil
}

// Reset drops every column and takes a new layout: on a dimension change
// or a respawn into another dimension.
func (s *Store) Reset(l Layout) error {
	if err := l.Check(); err != nil {
		return err
	}
	if s.game != nil && l.NumStates != s.game.NumStates() {
		return fmt.Errorf("the layout has %d block states but %s has %d", l.NumStates, s.game.Version, s.game.NumStates())
	}
	bk, _ := l.kinds()
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	s.layout, s.blockKind, s.columns = l, bk, map[ChunkPos]*Column{}
	s.notifyLocked()
	s.mu.Unlock()
	return nil
}

// Layout is the store's current layout.
func (s *Store) Layout() Layout {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.layout
}

// Load stores a decoded chunk, replacing the column at its position.
func (s *Store) Load(c *Chunk) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.RLock()
	want := s.layout.Sections()
	s.mu.RUnlock()
	if len(c.Sections) != want {
		return fmt.Errorf("chunk %d,%d has %d sections; the dimension has %d", c.Pos.X, c.Pos.Z, len(c.Sections), want)
	}
	col := &Column{Pos: c.Pos, sections: append([]*Section(nil), c.Sections...)}
	if len(c.BlockEntities) > 0 {
		col.entities = append([]BlockEntity(nil), c.BlockEntities...)
	}
	s.mu.Lock()
	s.columns[c.Pos] = col
	s.notifyLocked()
	s.mu.Unlock()
	return nil
}

// Unload forgets a column; its memory goes with the last reader holding it.
func (s *Store) Unload(pos ChunkPos) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	if _, ok := s.columns[pos]; ok {
		delete(s.columns, pos)
		s.notifyLocked()
	}
	s.mu.Unlock()
}

// Retain unloads every column keep refuses, under one lock hold, and
// returns how many it unloaded: the columns that fall out of the view when
// its centre moves.
func (s *Store) Retain(keep func(ChunkPos) bool) int {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for pos := range s.columns {
		if !keep(pos) {
			delete(s.columns, pos)
			n++
		}
	}
	if n > 0 {
		s.notifyLocked()
	}
	return n
}

// Loaded says whether a column is loaded.
func (s *Store) Loaded(pos ChunkPos) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.columns[pos] != nil
}

// Len is how many columns are loaded.
func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.columns)
}

// BlockAt returns the state at a position, and false when its column is not
// loaded or y is outside the dimension.
func (s *Store) BlockAt(p BlockPos) (mcdata.StateID, bool) {
	s.mu.RLock()
	col, minY := s.columns[p.Chunk()], s.layout.MinY
	s.mu.RUnlock()
	return blockIn(col, minY, p)
}

// BiomeAt returns the biome id (in the server's biome registry) at a
// position, and false when its column is not loaded or y is outside.
func (s *Store) BiomeAt(p BlockPos) (int32, bool) {
	s.mu.RLock()
	col, minY := s.columns[p.Chunk()], s.layout.MinY
	s.mu.RUnlock()
	return biomeIn(col, minY, p)
}

func blockIn(col *Column, minY int, p BlockPos) (mcdata.StateID, bool) {
	if col == nil {
		return 0, false
	}
	sec := col.Section((p.Y - minY) >> 4)
	if sec == nil || p.Y < minY {
		return 0, false
	}
	return sec.Block(p.X&15, (p.Y-minY)&15, p.Z&15), true
}

func biomeIn(col *Column, minY int, p BlockPos) (int32, bool) {
	if col == nil {
		return 0, false
	}
	sec := col.Section((p.Y - minY) >> 4)
	if sec == nil || p.Y < minY {
		return 0, false
	}
	return sec.Biome(p.X&15, (p.Y-minY)&15, p.Z&15), true
}

// SetBlock sets one block (a block update). It returns false, changing
// nothing, when the block's column is not loaded, y is outside the
// dimension or the state is not one of the version's.
func (s *Store) SetBlock(p BlockPos, st mcdata.StateID) bool {
	return s.SetBlocks([]BlockChange{{p, st}}) == 1
}

// SetBlocks applies block changes (a section update, or any batch) and
// returns how many it applied; changes to unloaded columns, outside the
// dimension or with unknown states are skipped. Each touched section is
// copied once, and readers see all the changes of a column at once.
func (s *Store) SetBlocks(changes []BlockChange) int {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.RLock()
	l, bk := s.layout, s.blockKind
	s.mu.RUnlock()
	fresh := map[ChunkPos]*Column{} // the new columns, private until published
	copied := map[*Section]bool{}   // sections already copied in this batch
	applied := 0
	for _, ch := range changes {
		i := (ch.Pos.Y - l.MinY) >> 4
		if ch.Pos.Y < l.MinY || i >= l.Sections() || uint32(ch.State) >= uint32(l.NumStates) {
			continue
		}
		pos := ch.Pos.Chunk()
		col := fresh[pos]
		if col == nil {
			s.mu.RLock()
			old := s.columns[pos]
			s.mu.RUnlock()
			if old == nil {
				continue
			}
			col = &Column{Pos: pos, sections: append([]*Section(nil), old.sections...), entities: old.entities}
			fresh[pos] = col
		}
		sec := col.sections[i]
		if !copied[sec] {
			cp := &Section{blocks: sec.blocks.clone(), biomes: sec.biomes}
			col.sections[i] = cp
			copied[cp] = true
			sec = cp
		}
		lx, ly, lz := ch.Pos.X&15, (ch.Pos.Y-l.MinY)&15, ch.Pos.Z&15
		before := mcdata.StateID(sec.blocks.get(ly<<8 | lz<<4 | lx))
		sec.blocks.set(ly<<8|lz<<4|lx, uint32(ch.State), &bk)
		if before != ch.State && !s.sameBlock(before, ch.State) {
			col.entities = withoutEntity(col.entities, ch.Pos)
		}
		applied++
	}
	if len(fresh) > 0 {
		s.mu.Lock()
		for pos, col := range fresh {
			if s.columns[pos] != nil { // writers hold wmu: only this one could have changed it
				s.columns[pos] = col
			}
		}
		s.notifyLocked()
		s.mu.Unlock()
	}
	return applied
}

// sameBlock says whether two states belong to one block, so that a block
// entity survives a state change (a furnace lighting up) but not a new
// block.
func (s *Store) sameBlock(a, b mcdata.StateID) bool {
	if s.game == nil {
		return false
	}
	return s.game.BlockOf(a) == s.game.BlockOf(b)
}

func withoutEntity(list []BlockEntity, p BlockPos) []BlockEntity {
	for i, e := range list {
		if e.Pos == p {
			out := make([]BlockEntity, 0, len(list)-1)
			out = append(out, list[:i]...)
			return append(out, list[i+1:]...)
		}
	}
	return list
}

// SetBlockEntity records a block entity's data (a block entity data
// packet), replacing any at its position. It returns false when the column
// is not loaded.
func (s *Store) SetBlockEntity(e BlockEntity) bool {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.RLock()
	old := s.columns[e.Pos.Chunk()]
	s.mu.RUnlock()
	if old == nil {
		return false
	}
	// A fresh slice: the old column's may be read by anyone holding it.
	entities := append([]BlockEntity(nil), withoutEntity(old.entities, e.Pos)...)
	entities = append(entities, BlockEntity{Pos: e.Pos, Type: e.Type, NBT: append([]byte(nil), e.NBT...)})
	col := &Column{Pos: old.Pos, sections: old.sections, entities: entities}
	s.mu.Lock()
	s.columns[old.Pos] = col
	s.notifyLocked()
	s.mu.Unlock()
	return true
}

// Changed returns a channel that is closed at the next change to the store
// (a load, an unload, a block change, a reset), for a tool that waits for
// the world to catch up instead of polling.
func (s *Store) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.changed == nil {
		s.changed = make(chan struct{})
	}
	return s.changed
}

func (s *Store) notifyLocked() {
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
}

// Snapshot returns a consistent, immutable view of the loaded columns: a
// copy of the column table (a pointer per column), after which the view
// needs no lock and the store's writer never waits for it.
func (s *Store) Snapshot() *View {
	s.mu.RLock()
	defer s.mu.RUnlock()
	cols := make(map[ChunkPos]*Column, len(s.columns))
	for k, v := range s.columns {
		cols[k] = v
	}
	return &View{layout: s.layout, columns: cols, game: s.game}
}

// Bytes estimates the memory the loaded columns hold: structs, slices,
// palettes and packed words, each shared section counted once.
func (s *Store) Bytes() int { return s.Snapshot().Bytes() }

// View is an immutable snapshot of the world, for planners and tools that
// read many blocks: no lock, no waiting on the read loop.
type View struct {
	layout  Layout
	columns map[ChunkPos]*Column
	game    *mcdata.GameData
}

// EmptyView is a view of no columns, for a reader asking before any store
// exists.
func EmptyView() *View { return &View{} }

// Layout is the layout the view was taken under.
func (v *View) Layout() Layout { return v.layout }

// Len is how many columns the view holds.
func (v *View) Len() int { return len(v.columns) }

// Column returns a loaded column, or nil.
func (v *View) Column(pos ChunkPos) *Column { return v.columns[pos] }

// BlockAt returns the state at a position, and false when its column is not
// loaded or y is outside the dimension.
func (v *View) BlockAt(p BlockPos) (mcdata.StateID, bool) {
	return blockIn(v.columns[p.Chunk()], v.layout.MinY, p)
}

// BiomeAt returns the biome id at a position, and false when unknown.
func (v *View) BiomeAt(p BlockPos) (int32, bool) {
	return biomeIn(v.columns[p.Chunk()], v.layout.MinY, p)
}

// Bytes estimates the memory the view's columns hold, each shared section
// counted once.
func (v *View) Bytes() int {
	seen := map[*Section]bool{}
	n := 0
	for _, c := range v.columns {
		n += int(unsafe.Sizeof(*c)) + 8*cap(c.sections) + int(unsafe.Sizeof(BlockEntity{}))*cap(c.entities)
		for _, e := range c.entities {
			n += cap(e.NBT)
		}
		for _, sec := range c.sections {
			if !seen[sec] {
				seen[sec] = true
				n += sec.Bytes()
			}
		}
	}
	return n
}
