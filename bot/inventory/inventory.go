// Package inventory is the bot's inventory and the containers it opens,
// as the server has them: the player's 46-slot window (crafting grid,
// armour, main inventory, hotbar, off-hand), the held hotbar slot, the
// cursor, and an open container (its menu type, title, slots and
// properties such as a furnace's progress). It sends the bot's own
// inventory actions: clicks with the window's state id, held-slot changes,
// dropping from the hand, swapping hands, closing a container. It emits
// mc_item_picked_up when items enter the inventory.
//
// The server is the truth. The model changes only by the server's packets
// (window_items, set_slot, set_cursor_item, set_player_inventory), with
// two exceptions the game's own client makes because the server never
// answers them: the held slot the bot selects, and a drop from the held
// slot (Q), which the vanilla server records as already known to the
// client. Clicks are not applied locally: each tells the server the slots
// as the bot last heard them (no changed slots, the cursor as it is), so
// the server, which performs the click itself, sends back every slot the
// click changed (the game's handleContainerClick and broadcastChanges). A
// click waits for those answers: it predicts, as the game's click code
// would, which slots will change, and returns once the server has written
// each of them, or after AnswerTicks ticks with whatever the server did
// say. A click sent with a state id the server no longer has gets the
// whole window back (broadcastFullState), which the model takes as it
// comes.
//
// Concurrency: the read loop writes the model under the feature's mutex;
// readers copy a View under it. Waiters use a notification channel (View
// changes and ticks), never a polling loop. The bot's own actions are
// serialised by a second mutex so that one action's answers are not taken
// for another's.
package inventory

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// AnswerTicks is how many ticks (at 20 a second) an action waits for the
// server's answer before it settles for what the server has said. A
// vanilla server answers within its next tick; the bound only matters when
// the server refuses or ignores an action.
const AnswerTicks = 40

// Inventory is one session's inventory. Its methods are safe from any
// goroutine.
type Inventory struct {
	s    *core.Session
	c    *codec.Codec
	game *mcdata.GameData

	mu      sync.Mutex
	st      state
	changed core.Notify

	// op serialises the bot's own actions.
	op sync.Mutex
	// busy is above zero while an action of the bot's runs: what changes
	// then is the bot's doing, not a pick-up.
	busy atomic.Int32
}

// loc is a place a stack is kept: the player's inventory (the game's
// Inventory numbering), the 2×2 crafting slots of window 0, the cursor, or
// the open container's own slots.
type loc struct {
	kind  locKind
	index int
}

type locKind uint8

const (
	locNone locKind = iota
	locInv
	locCraft
	locCursor
	locOwn      // the open container's slots before the player's
	locTrailing // the open container's slots after the player's
)

type state struct {
	// synced is true once the server has sent window 0 whole.
	synced  bool
	stateID int32
	inv     [invSize]item.Stack
	craft   [5]item.Stack
	cursor  item.Stack
	held    int
	open    *container
	// closed is the container closed last, until another opens: the
	// server's answers to the last clicks in it may still be on their way
	// when it closes, and those about the player's own slots still hold.
	closed *container
	// opened counts the containers opened this session.
	opened uint64
	// returning are items the server will put back in the inventory (a
	// closed container's cursor and crafting grid): the bot's own, so not
	// picked up when they arrive.
	returning map[string]int32

	// Revisions: each server write to a place bumps its counter, which is
	// how an action knows the server has answered.
	invRev    [invSize]uint64
	craftRev  [5]uint64
	cursorRev uint64
}

type container struct {
	id      int32
	menu    Menu
	title   any
	stateID int32
	loaded  bool
	seq     uint64
	own     []item.Stack
	ownRev  []uint64
	trail   []item.Stack
	trailRv []uint64
	props   map[int16]int16
}

// maxUnknownSlots bounds the own slots of a menu type the table lacks.
const maxUnknownSlots = 256

// Attach registers the feature's handlers on s.
func Attach(s *core.Session) *Inventory {
	inv := &Inventory{s: s, c: s.Codec, game: mcdata.Game(s.Codec.Protocol)}
	for p, h := range map[mcdata.Packet]core.Handler{
		mcdata.ClientboundPlayWindowItems:  inv.windowItems,
		mcdata.ClientboundPlaySetSlot:      inv.setSlot,
		mcdata.ClientboundPlayOpenWindow:   inv.openWindow,
		mcdata.ClientboundPlayCloseWindow:  inv.closeWindow,
		mcdata.ClientboundPlayHeldItemSlot: inv.heldSlot,
		mcdata.ClientboundPlayLogin:        inv.login,
		mcdata.ClientboundPlayRespawn:      inv.respawn,
		// The furnace's progress and the like.
		mcdata.ClientboundPlayCraftProgressBar: inv.windowProperty,
		// 1.21.2 and later: before, these came as set_slot windows -1 and -2.
		mcdata.ClientboundPlaySetCursorItem:      inv.setCursor,
		mcdata.ClientboundPlaySetPlayerInventory: inv.setPlayerInventory,
	} {
		s.HandleIfPresent(p, h)
	}
	return inv
}

// ---- the model

func (st *state) get(l loc) item.Stack {
	switch l.kind {
	case locInv:
		return st.inv[l.index]
	case locCraft:
		return st.craft[l.index]
	case locCursor:
		return st.cursor
	case locOwn:
		return st.open.own[l.index]
	case locTrailing:
		return st.open.trail[l.index]
	}
	return item.Stack{}
}

func (st *state) set(l loc, s item.Stack) {
	if s.Empty() {
		s = item.Stack{}
	}
	switch l.kind {
	case locInv:
		st.inv[l.index] = s
		st.invRev[l.index]++
	case locCraft:
		st.craft[l.index] = s
		st.craftRev[l.index]++
	case locCursor:
		st.cursor = s
		st.cursorRev++
	case locOwn:
		st.open.own[l.index] = s
		st.open.ownRev[l.index]++
	case locTrailing:
		st.open.trail[l.index] = s
		st.open.trailRv[l.index]++
	}
}

func (st *state) rev(l loc) uint64 {
	switch l.kind {
	case locInv:
		return st.invRev[l.index]
	case locCraft:
		return st.craftRev[l.index]
	case locCursor:
		return st.cursorRev
	case locOwn:
		return st.open.ownRev[l.index]
	case locTrailing:
		return st.open.trailRv[l.index]
	}
	return 0
}

// locOf maps a slot of window 0 or of the open container to where its
// stack is kept.
func (st *state) locOf(window int32, slot int) loc {
	if window == 0 {
		switch {
		case slot >= SlotCraftResult && slot < SlotHead:
			return loc{locCraft, slot}
		case slot >= SlotHead && slot < PlayerSlots:
			return loc{locInv, inventoryOfWindowSlot(slot)}
		}
		return loc{}
	}
	c := st.open
	if c == nil || c.id != window || slot < 0 {
		return loc{}
	}
	if slot < len(c.own) {
		return loc{locOwn, slot}
	}
	if i := c.menu.playerPartOf(slot); i >= 0 {
		return loc{locInv, i}
	}
	if t := slot - len(c.own) - 36; !c.menu.NoPlayer && t >= 0 && t < len(c.trail) {
		return loc{locTrailing, t}
	}
	return loc{}
}

// windowSize is how many slots a window has, 0 for a window that is not
// open.
func (st *state) windowSize(window int32) int {
	if window == 0 {
		return PlayerSlots
	}
	if c := st.open; c != nil && c.id == window {
		return c.menu.Size()
	}
	return 0
}

// windowSlots lists a window's stacks in its own numbering.
func (st *state) windowSlots(window int32) []item.Stack {
	n := st.windowSize(window)
	out := make([]item.Stack, n)
	for i := range out {
		out[i] = st.get(st.locOf(window, i))
	}
	return out
}

// ---- handlers

// pickups collects the items that entered the inventory during one
// packet; it is emitted after the lock is released.
type pickups map[string]int32

func (p pickups) add(s item.Stack, sign int32) {
	if s.Empty() {
		return
	}
	p[stackName(s)] += sign * s.Count
}

// owned reports whether a place holds the player's own items for the
// pick-up count: the inventory, the cursor and the 2×2 grid; not a crafting
// result (made, not had) nor a container's slots.
func owned(l loc) bool {
	return l.kind == locInv || l.kind == locCursor || (l.kind == locCraft && l.index > 0)
}

// write sets a place from the server and records what it adds to the
// player's items.
func (inv *Inventory) write(st *state, l loc, s item.Stack, p pickups) {
	if l.kind == locNone {
		return
	}
	if owned(l) && p != nil {
		p.add(st.get(l), -1)
		p.add(s, 1)
	}
	st.set(l, s)
}

// collect starts a pick-up count for one packet, or nil when changes now
// are not pick-ups: what the server says before the bot has spawned and
// before it has sent the whole inventory once (vanilla sends it right after
// the login: the contents the bot joins with are not news; a server that
// never sends it, flying-squid, has the bot start empty, as the game's
// client starts), and what changes while the bot's own action runs.
func (inv *Inventory) collect(st *state) pickups {
	if inv.busy.Load() > 0 {
		return nil
	}
	if !st.synced {
		select {
		case <-inv.s.Spawned():
		default:
			return nil
		}
	}
	return pickups{}
}

// emit publishes mc_item_picked_up for every item whose count went up.
func (inv *Inventory) emit(p pickups) {
	for name, n := range p {
		if n > 0 {
			inv.s.Emit("mc_item_picked_up", name, struct {
				Item  string `json:"item"`
				Count int32  `json:"count"`
			}{name, n})
		}
	}
}

// update wraps a handler's change: it runs under the lock, wakes the
// waiters and emits the pick-ups after.
func (inv *Inventory) update(change func(st *state, p pickups)) {
	inv.mu.Lock()
	p := inv.collect(&inv.st)
	change(&inv.st, p)
	for name, n := range p {
		if back := inv.st.returning[name]; n > 0 && back > 0 {
			used := min(n, back)
			p[name] -= used
			inv.st.returning[name] -= used
		}
	}
	inv.mu.Unlock()
	inv.changed.Broadcast()
	inv.emit(p)
}

func (inv *Inventory) windowItems(r *wire.Reader) error {
	w := inv.c.WindowItems(r)
	if r.Err() != nil {
		return nil
	}
	inv.update(func(st *state, p pickups) {
		switch {
		case w.Window == 0:
			if !st.synced {
				p = nil // the contents the bot joins with are not news
			}
			if len(w.Items) != PlayerSlots {
				inv.s.Log.Debug("window 0 contents with an unexpected slot count", "slots", len(w.Items))
			}
			for i := 0; i < min(len(w.Items), PlayerSlots); i++ {
				inv.write(st, st.locOf(0, i), w.Items[i], p)
			}
			st.synced, st.stateID = true, w.StateID
		case st.open != nil && st.open.id == w.Window:
			c := st.open
			if !c.loaded && c.menu.Slots < 0 {
				// A menu type this table lacks: the player's 36 slots
				// end the window.
				c.menu.Slots = min(max(len(w.Items)-36, 0), maxUnknownSlots)
				c.own, c.ownRev = make([]item.Stack, c.menu.Slots), make([]uint64, c.menu.Slots)
			}
			for i := 0; i < min(len(w.Items), c.menu.Size()); i++ {
				inv.write(st, st.locOf(w.Window, i), w.Items[i], p)
			}
			c.loaded, c.stateID = true, w.StateID
		default:
			return // a window that is not open: the game ignores it too
		}
		inv.write(st, loc{locCursor, 0}, w.Carried, p)
	})
	return nil
}

func (inv *Inventory) setSlot(r *wire.Reader) error {
	s := inv.c.SetSlot(r)
	if r.Err() != nil {
		return nil
	}
	inv.update(func(st *state, p pickups) {
		switch {
		case s.Window == codec.WindowCursor:
			inv.write(st, loc{locCursor, 0}, s.Item, p)
		case s.Window == codec.WindowInventory:
			if s.Slot >= 0 && int(s.Slot) < invSize {
				inv.write(st, loc{locInv, int(s.Slot)}, s.Item, p)
			}
		case st.open == nil && st.closed != nil && st.closed.id == s.Window:
			// An answer to a click in the window the bot just closed (a
			// shift-click's destination comes after its source): the
			// player's part of it is the inventory's; the rest is gone.
			// What it brings was the bot's already: no pick-up.
			if i := st.closed.menu.playerPartOf(int(s.Slot)); i >= 0 {
				inv.write(st, loc{locInv, i}, s.Item, nil)
			}
		case s.Window == 0 || (st.open != nil && st.open.id == s.Window):
			l := st.locOf(s.Window, int(s.Slot))
			if l.kind == locNone {
				inv.s.Log.Debug("set_slot for a slot the window does not have", "window", s.Window, "slot", s.Slot)
				return
			}
			inv.write(st, l, s.Item, p)
			if s.Window == 0 {
				st.stateID = s.StateID
			} else {
				st.open.stateID = s.StateID
			}
		default:
			inv.s.Log.Debug("set_slot for a window that is not open", "window", s.Window, "slot", s.Slot, "item", stackName(s.Item))
		}
	})
	return nil
}

func (inv *Inventory) setCursor(r *wire.Reader) error {
	s := inv.c.SetCursorItem(r)
	if r.Err() != nil {
		return nil
	}
	inv.update(func(st *state, p pickups) { inv.write(st, loc{locCursor, 0}, s, p) })
	return nil
}

func (inv *Inventory) setPlayerInventory(r *wire.Reader) error {
	s := inv.c.SetPlayerInventory(r)
	if r.Err() != nil {
		return nil
	}
	inv.update(func(st *state, p pickups) {
		if s.Slot >= 0 && s.Slot < invSize {
			inv.write(st, loc{locInv, int(s.Slot)}, s.Item, p)
		}
	})
	return nil
}

func (inv *Inventory) openWindow(r *wire.Reader) error {
	o := inv.c.OpenWindow(r)
	if r.Err() != nil {
		return nil
	}
	menu, ok := MenuByID(o.MenuType)
	if !ok {
		menu = Menu{ID: o.MenuType, Name: fmt.Sprintf("menu_%d", o.MenuType), Slots: -1, Result: -1}
	}
	inv.update(func(st *state, _ pickups) {
		st.opened++
		c := &container{id: o.Window, menu: menu, title: o.Title, seq: st.opened, props: map[int16]int16{}}
		if menu.Slots >= 0 {
			c.own, c.ownRev = make([]item.Stack, menu.Slots), make([]uint64, menu.Slots)
		}
		c.trail, c.trailRv = make([]item.Stack, menu.Trailing), make([]uint64, menu.Trailing)
		// Opening a screen closes the one before, as in the game.
		st.open, st.closed = c, nil
	})
	return nil
}

func (inv *Inventory) closeWindow(r *wire.Reader) error {
	inv.c.CloseWindow(r)
	if r.Err() != nil {
		return nil
	}
	// The game's client closes whatever is open, whatever the id.
	inv.update(func(st *state, _ pickups) { inv.closeLocked(st) })
	return nil
}

// closeLocked forgets the open container. The server puts the cursor's
// stack back in the inventory (or drops it) and says so in its own
// packets; the bot's cursor is empty from now on, as the game's client's.
func (inv *Inventory) closeLocked(st *state) {
	c := st.open
	if c == nil {
		return
	}
	back := []item.Stack{st.cursor}
	if transientMenus[c.menu.Name] {
		for i, s := range c.own {
			if i != c.menu.Result {
				back = append(back, s)
			}
		}
	}
	for _, s := range back {
		if !s.Empty() {
			if st.returning == nil {
				st.returning = map[string]int32{}
			}
			st.returning[stackName(s)] += s.Count
		}
	}
	st.open, st.closed = nil, c
	st.set(loc{locCursor, 0}, item.Stack{})
}

// transientMenus are the menus whose slots empty into the player's
// inventory when they close (their container lives only while open: the
// game's clearContainer in removed()); a chest or a furnace keeps its
// items.
var transientMenus = map[string]bool{
	"crafting": true, "anvil": true, "enchantment": true, "grindstone": true, "loom": true, "smithing": true,
	"cartography_table": true, "stonecutter": true, "beacon": true, "merchant": true,
}

func (inv *Inventory) windowProperty(r *wire.Reader) error {
	wp := inv.c.WindowProperty(r)
	if r.Err() != nil {
		return nil
	}
	inv.update(func(st *state, _ pickups) {
		if c := st.open; c != nil && c.id == wp.Window && len(c.props) < 256 {
			c.props[wp.Property] = wp.Value
		}
	})
	return nil
}

func (inv *Inventory) heldSlot(r *wire.Reader) error {
	slot := inv.c.HeldSlot(r)
	if r.Err() != nil || slot < 0 || slot > 8 {
		return nil
	}
	inv.update(func(st *state, _ pickups) { st.held = int(slot) })
	return nil
}

// login starts the play state over (after a reconfiguration too): the
// server sends the inventory again.
func (inv *Inventory) login(*wire.Reader) error {
	inv.update(func(st *state, _ pickups) {
		opened := st.opened
		*st = state{opened: opened, invRev: st.invRev, craftRev: st.craftRev, cursorRev: st.cursorRev + 1}
	})
	return nil
}

// respawn closes any container; the server sends the inventory again.
func (inv *Inventory) respawn(*wire.Reader) error {
	inv.update(func(st *state, _ pickups) { inv.closeLocked(st) })
	return nil
}

// ---- reading

// View is the inventory at one moment, as the server has it.
type View struct {
	// Synced is false until the server has sent the whole inventory; slots
	// it has not mentioned read empty until then.
	Synced bool
	// StateID is window 0's state id, the one a click on it carries.
	StateID int32
	// Slots are window 0's slots (see the Slot constants).
	Slots [PlayerSlots]item.Stack
	// Cursor is the stack the bot holds on the cursor while clicking.
	Cursor item.Stack
	// HeldSlot is the selected hotbar slot, 0–8 (window 0's slot 36+).
	HeldSlot int
	// Container is the open container, nil when none is.
	Container *Container
}

// Container is an open container.
type Container struct {
	// Window is the container's window id, which clicks on it carry.
	Window int32
	Menu   Menu
	// Title is the window's title as plain text. A player can name a chest
	// with an anvil: it is untrusted text.
	Title   string
	StateID int32
	// Loaded is false until the server has sent the container's contents.
	Loaded bool
	// Seq numbers the containers opened in this session, from 1.
	Seq uint64
	// Slots are the container's own slots, numbered as in its window
	// (Menu.Slots of them); the player's slots follow them in the window.
	Slots []item.Stack
	// Trailing are the slots after the player's (Menu.Trailing).
	Trailing []item.Stack
	// Properties are the window's values by index (a furnace's 0 fuel
	// left, 1 fuel total, 2 cooking progress, 3 cooking total).
	Properties map[int16]int16
}

// View copies the inventory.
func (inv *Inventory) View() View {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.st.view()
}

func (st *state) view() View {
	v := View{Synced: st.synced, StateID: st.stateID, Cursor: st.cursor, HeldSlot: st.held}
	for i := range v.Slots {
		v.Slots[i] = st.get(st.locOf(0, i))
	}
	if c := st.open; c != nil {
		v.Container = &Container{
			Window: c.id, Menu: c.menu, Title: chat.Plain(c.title), StateID: c.stateID, Loaded: c.loaded, Seq: c.seq,
			Slots: append([]item.Stack(nil), c.own...), Trailing: append([]item.Stack(nil), c.trail...),
			Properties: make(map[int16]int16, len(c.props)),
		}
		for k, val := range c.props {
			v.Container.Properties[k] = val
		}
	}
	return v
}

// Held is the stack in the bot's main hand.
func (v View) Held() item.Stack { return v.Slots[SlotHotbarFirst+v.HeldSlot] }

// Offhand is the stack in the bot's off-hand.
func (v View) Offhand() item.Stack { return v.Slots[SlotOffhand] }

// Worn is the armour piece on e (Head, Chest, Legs or Feet).
func (v View) Worn(e Equipment) item.Stack {
	if s, ok := armourSlot(e); ok {
		return v.Slots[s]
	}
	return item.Stack{}
}

// carried lists window 0's slots that hold what the bot carries and can
// use: the hotbar, then the main inventory, then the off-hand.
var carried = func() []int {
	var out []int
	for i := SlotHotbarFirst; i < SlotOffhand; i++ {
		out = append(out, i)
	}
	for i := SlotMainFirst; i < SlotHotbarFirst; i++ {
		out = append(out, i)
	}
	return append(out, SlotOffhand)
}()

// Find lists window 0's slots holding the named item ("oak_log"), in the
// order a player reaches for them: hotbar, main inventory, off-hand.
// Armour being worn and the crafting grid are not searched.
func (v View) Find(name string) []int {
	var out []int
	for _, s := range carried {
		if st := v.Slots[s]; !st.Empty() && st.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// Count is how many of the named item the bot carries (hotbar, main
// inventory, off-hand).
func (v View) Count(name string) int {
	n := 0
	for _, s := range v.Find(name) {
		n += int(v.Slots[s].Count)
	}
	return n
}

// UsedSlots is how many of the 36 hotbar and main inventory slots hold
// something.
func (v View) UsedSlots() int {
	n := 0
	for i := SlotMainFirst; i < SlotOffhand; i++ {
		if !v.Slots[i].Empty() {
			n++
		}
	}
	return n
}

// Window lists a window's stacks in its numbering: window 0, or the open
// container's (its own slots, then the player's main inventory and
// hotbar, then any trailing slots). It is nil for a window that is not
// open.
func (v View) Window(window int32) []item.Stack {
	if window == 0 {
		return v.Slots[:]
	}
	c := v.Container
	if c == nil || c.Window != window {
		return nil
	}
	out := append([]item.Stack(nil), c.Slots...)
	if !c.Menu.NoPlayer {
		out = append(out, v.Slots[SlotMainFirst:SlotHotbarFirst]...)
		out = append(out, v.Slots[SlotHotbarFirst:SlotOffhand]...)
	}
	return append(out, c.Trailing...)
}

// FindIn lists the slots of a window (0 or the open container's) that
// hold the named item among the player's own slots, in the order Find
// uses, numbered as that window numbers them.
func (v View) FindIn(window int32, name string) []int {
	if window == 0 {
		return v.Find(name)
	}
	c := v.Container
	if c == nil || c.Window != window || c.Menu.NoPlayer {
		return nil
	}
	var out []int
	for _, s := range v.Find(name) {
		if ws := c.Menu.windowSlotOf(inventoryOfWindowSlot(s)); ws >= 0 {
			out = append(out, ws)
		}
	}
	return out
}

// Changed returns a channel that closes at the inventory's next change.
func (inv *Inventory) Changed() <-chan struct{} { return inv.changed.Wait() }

// WaitFor waits until cond holds for the inventory and returns that view,
// or the context's error, or core.ErrEnded.
func (inv *Inventory) WaitFor(ctx context.Context, cond func(View) bool) (View, error) {
	for {
		ch := inv.changed.Wait()
		if v := inv.View(); cond(v) {
			return v, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return View{}, ctx.Err()
		case <-inv.s.Done():
			return View{}, core.ErrEnded
		}
	}
}

// stackName is the name an item is reported by: its registry name, or its
// id for an item the static data does not know (a modded server's).
func stackName(s item.Stack) string {
	if s.Name != "" {
		return s.Name
	}
	return fmt.Sprintf("item_%d", s.ID)
}

// StackName is the name mc_get_inventory and the events report a stack by.
func StackName(s item.Stack) string { return stackName(s) }
