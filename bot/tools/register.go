// Package tools holds the mc_* tools that drive the bot: thin handlers,
// each reading a feature's snapshot or calling a feature's method through
// the client's session (bot.Session). The client (package bot) knows
// nothing of them; main and the console register them with Register.
//
// One file per family of tools (connection, perception, surroundings, map,
// chat, inventory, craft, chest, combat, dig, move, sleep, obtain, places,
// material, build); the helpers more than one family uses are in
// helpers.go.
package tools

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/places"
	blocks "github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/protocol"
)

// Tools is the tools of one client, registered in one catalog.
type Tools struct {
	cl      *bot.Client
	host    bot.Host
	emit    func(name, subKey string, payload any)
	catalog *protocol.Catalog
	// care is the self-care behaviours' state (behavior.go).
	care *care

	mu sync.Mutex
	// builds is the building tools' plans, operations and journal.
	builds *builds
	// mem is what the tools remember of the session the bot is in (mc_map's
	// columns, whether the first chunks were waited for); it goes with
	// the session.
	mem *memory
	// places is the places file (places.go), opened on first use.
	places *places.Store
}

// memory is the tools' own state for one session.
type memory struct {
	of *bot.Session
	// waitedForChunks is set once a world tool has waited for the first
	// chunks.
	waitedForChunks atomic.Bool
	// mapView is mc_map's memory of the columns it read last.
	mapView mapState
	// route, when set (by tests), is the walk mc_map draws instead of the
	// body's.
	route func() (path []blocks.BlockPos, goal *blocks.BlockPos)
}

// session is the session the tools act in: the client's, with the tools'
// memory of it.
type session struct {
	*bot.Session
	mem *memory
}

// Register adds the bot's tools, driving cl, to the catalog. host is the
// dispatcher the calls run on (mc_status lists its running calls).
func Register(c *protocol.Catalog, cl *bot.Client, host bot.Host) *Tools {
	t := &Tools{cl: cl, host: host, emit: func(string, string, any) {}, catalog: c, care: newCare(), builds: newBuilds()}
	if bus := host.Events(); bus != nil {
		t.emit = bus.Emit
	}
	t.registerConnection(c)
	t.registerPerception(c)
	t.registerSurroundings(c)
	t.registerMap(c)
	t.registerChat(c)
	t.registerInventory(c)
	t.registerCraft(c)
	t.registerEat(c)
	t.registerChest(c)
	t.registerCombat(c)
	t.registerSmelt(c)
	t.registerGive(c)
	t.registerDig(c)
	t.registerMovement(c)
	t.registerSleep(c)
	t.registerMaterial(c)
	t.registerBuild(c)
	t.registerPlaces(c)
	t.registerObtain(c)
	t.registerBehavior(c)
	cl.OnSession(t.watchSelf)
	// A call that ends may leave the bot idle: the behaviours look again.
	if o, ok := host.(interface {
		Observe(func(protocol.CallEvent)) func()
	}); ok {
		o.Observe(func(ev protocol.CallEvent) {
			if ev.Phase == protocol.Finished {
				t.care.callEnded(ev)
			}
		})
	}
	return t
}

// session is the session of the world the bot is in, with the tools'
// memory of it, or the error every in-world tool answers with.
func (t *Tools) session() (*session, error) {
	s, err := t.cl.Session()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.mem == nil || t.mem.of != s {
		t.mem = &memory{of: s}
	}
	return &session{Session: s, mem: t.mem}, nil
}

// alive is session for a tool that acts with the bot's body, which a dead
// bot has not: the error says what it cannot do and how to go on.
func (t *Tools) alive(doing string) (*session, error) {
	w, err := t.session()
	if err != nil {
		return nil, err
	}
	if w.Self().Snapshot().Dead {
		return nil, fmt.Errorf("the bot is dead and cannot %s: call mc_respawn first", doing)
	}
	return w, nil
}
