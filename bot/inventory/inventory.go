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
	"sync"
	"sync/atomic"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/menu"
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
	inv     [menu.InvSize]item.Stack
	craft   [5]item.Stack
	cursor  item.Stack
	held    int
	// heldLost is the stack the server took out of the held slot without
	// a click of the bot's (a tool that broke), and heldLostSeq counts
	// such losses, so a watcher that looks late still sees each one.
	heldLost    string
	heldLostSeq uint64
	open        *container
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
	invRev    [menu.InvSize]uint64
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
