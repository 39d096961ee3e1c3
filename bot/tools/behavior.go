package tools

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/skill"
	"github.com/blockmate/blockmate/protocol"
)

// Self-care: behaviours that run while no call asks otherwise, each on or
// off with mc_set_behavior and listed in mc_status. Each acts only when the
// bot is idle (no call or task that drives it is running) or, for a death,
// when nothing else can act anyway, and says what it did with the
// mc_behavior event. They wait on the bot's own notifications (its state,
// its inventory) and never hold the tick in real time while they only
// watch, so a bot at rest stays at rest; what they do (eating) holds it
// only while it acts, as the skills do.

// behaviorSpec is one behaviour: its name, what it does, and whether it is
// on when blockmate starts (what a player would want).
type behaviorSpec struct {
	name string
	what string
	on   bool
}

// behaviorSpecs are the behaviours, in the order mc_status lists them.
var behaviorSpecs = []behaviorSpec{
	{"eat", fmt.Sprintf("eats the best food carried (never one that harms) when food falls to %d or below, or below %d while health is not full (the game heals only from %d up)", eatAtFood, healFood, healFood), true},
	// A death is news the player should hear of before the bot is back.
	{"respawn", "respawns at once after a death (off: the bot waits for mc_respawn, since a death is news)", false},
	{"defend", "hits any hostile mob that comes within reach, as mc_defend does", false},
	{"held_item", "when the tool or weapon in hand breaks, takes the best other one of its kind carried (pickaxe, axe, shovel, hoe, sword) into the hand", true},
}

const (
	// eatAtFood is the food level at which the bot eats when it is well:
	// three drumsticks gone, the point where bread (5) no longer wastes.
	eatAtFood = 14
	// healFood is the food level natural regeneration needs (the game's
	// FoodData: health comes back while food is 18 or more), so a hurt
	// bot eats below it.
	healFood = 18
)

// care is the behaviours' state, shared by every session.
type care struct {
	mu sync.Mutex
	on map[string]bool
	// failedAt is the food level at which eating last failed or was
	// refused, so a bot whose food does not change does not try again
	// and again; -1 when none.
	failedAt int32
	// poke wakes the watcher when a behaviour is switched or a call
	// ends.
	poke chan struct{}
	// looked counts the watcher's looks, for tests that must know it has
	// seen a change before they check that it did nothing.
	looked atomic.Uint64
	// ended are the calls that have answered but that the dispatcher still
	// lists while their answer is written (it tells observers first), by
	// endKey: they drive the bot no more.
	ended map[string]bool
}

// endKey names one call, its id and when it started, so that a later call
// sent with the same id is not taken for it.
func endKey(id []byte, started time.Time) string {
	return string(id) + "@" + strconv.FormatInt(started.UnixNano(), 10)
}

// callEnded notes a call's end and makes the watcher look again: the bot
// may be idle now.
func (c *care) callEnded(ev protocol.CallEvent) {
	c.mu.Lock()
	if len(c.ended) < maxEnded {
		c.ended[endKey(ev.ID, ev.Started)] = true
	}
	c.mu.Unlock()
	c.wake()
}

// maxEnded bounds the ended calls kept; idle forgets those no longer
// listed, so it is only reached by thousands of calls answering at once.
const maxEnded = 1024

// handWatch is what one session's watcher remembers of the hand: the last
// loss of the held stack it has seen (the inventory counts them), and the
// kind of a tool lost so (a break) until it is replaced or the hand holds
// something again.
type handWatch struct {
	lostSeq uint64
	broken  string
}

func newCare() *care {
	c := &care{on: map[string]bool{}, failedAt: -1, poke: make(chan struct{}, 1), ended: map[string]bool{}}
	for _, b := range behaviorSpecs {
		c.on[b.name] = b.on
	}
	return c
}

func (c *care) enabled(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.on[name]
}

func (c *care) set(name string, on bool) {
	c.mu.Lock()
	c.on[name] = on
	c.failedAt = -1
	c.mu.Unlock()
	c.wake()
}

// wake makes the watcher look again; it never blocks.
func (c *care) wake() {
	select {
	case c.poke <- struct{}{}:
	default:
	}
}

// list is the behaviours as mc_status shows them.
func (c *care) list() []api.Behavior {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]api.Behavior, len(behaviorSpecs))
	for i, b := range behaviorSpecs {
		out[i] = api.Behavior{Name: b.name, Enabled: c.on[b.name]}
	}
	return out
}

// BehaviorResult is mc_set_behavior's result.
type BehaviorResult struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
	What    string `json:"what"`
}

// behaviorDone is the payload of mc_behavior.
type behaviorDone struct {
	Name string `json:"name"`
	Did  string `json:"did"`
}

func (t *Tools) registerBehavior(c *protocol.Catalog) {
	names := make([]string, len(behaviorSpecs))
	var help []string
	for i, b := range behaviorSpecs {
		names[i] = b.name
		state := "off"
		if b.on {
			state = "on"
		}
		help = append(help, fmt.Sprintf("%s (%s by default): %s", b.name, state, b.what))
	}
	c.Add(protocol.Tool{
		Name: "mc_set_behavior",
		Description: "Turns one of the bot's self-care behaviours on or off. They run while no call asks otherwise, act only when the bot is idle (or dead), and report what they did as the mc_behavior event; mc_status lists them. " +
			strings.Join(help, "; ") + ".",
		Args: protocol.Schema{
			protocol.Str("name", "the behaviour: "+strings.Join(names, ", ")).Req().OneOf(names...),
			protocol.Bool("enabled", "true to turn it on, false to turn it off").Req(),
		},
		Effect:     protocol.Write,
		Idempotent: true,
		Handler: func(_ context.Context, a protocol.Args) (any, error) {
			return t.setBehavior(a.String("name"), a.Bool("enabled")), nil
		},
	})
}

// setBehavior switches a behaviour, for mc_set_behavior and mc_defend
// alike: defending is the combat feature's, so the session in play hears
// of it at once.
func (t *Tools) setBehavior(name string, on bool) BehaviorResult {
	t.care.set(name, on)
	if name == "defend" {
		if w, err := t.cl.Session(); err == nil {
			w.Combat().SetDefending(on)
		}
	}
	i := slices.IndexFunc(behaviorSpecs, func(b behaviorSpec) bool { return b.name == name })
	return BehaviorResult{Name: name, Enabled: on, What: behaviorSpecs[i].what}
}

// watchSelf runs the behaviours for one session, from its spawn to its
// end: it looks again whenever the bot's state or inventory changes or a
// behaviour is switched, and never otherwise.
func (t *Tools) watchSelf(w *bot.Session) {
	cs := w.Core()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-cs.Done():
			cancel()
		case <-ctx.Done():
		}
	}()
	if t.care.enabled("defend") {
		w.Combat().SetDefending(true)
	}
	var hand handWatch
	for {
		changed, items := w.Self().Changed(), w.Inventory().Changed()
		t.lookAfter(ctx, w, &hand)
		t.care.looked.Add(1)
		select {
		case <-changed:
		case <-items:
		case <-t.care.poke:
		case <-cs.Done():
			return
		}
	}
}

// lookAfter does what the behaviours call for now, if anything.
func (t *Tools) lookAfter(ctx context.Context, w *bot.Session, hand *handWatch) {
	st := w.Self().Snapshot()
	if st.Dead {
		if t.care.enabled("respawn") && !st.Respawning {
			pos, err := w.Self().Respawn(ctx, respawnWait)
			if err == nil {
				r := pos.Round()
				t.emit("mc_behavior", "respawn", behaviorDone{"respawn", fmt.Sprintf("respawned at %v %v %v", r.X, r.Y, r.Z)})
			}
		}
		return
	}
	t.keepHeldItem(ctx, w, hand)
	// Hunger means nothing before the server has said it; creative and
	// spectator players do not get hungry.
	if !st.HasHealth || st.GameMode == 1 || st.GameMode == 3 || !t.care.enabled("eat") {
		return
	}
	hungry := st.Food <= eatAtFood || (st.Food < healFood && st.Health < self.MaxHealth)
	t.care.mu.Lock()
	failed := t.care.failedAt == st.Food
	t.care.mu.Unlock()
	if !hungry || failed || !t.idle() {
		return
	}
	have := skill.Have(w.Inventory().View())
	for name := range have {
		if skill.Harmful(name) {
			delete(have, name)
		}
	}
	food, ok := skill.BestFood(w.Skills().Game(), have)
	if !ok {
		return
	}
	r, err := w.Skills().Eat(ctx, food)
	if err != nil || !r.Ate {
		t.care.mu.Lock()
		t.care.failedAt = st.Food
		t.care.mu.Unlock()
		return
	}
	t.emit("mc_behavior", "eat", behaviorDone{"eat", fmt.Sprintf("ate %s: food %d → %d", strings.ReplaceAll(r.Item, "_", " "), st.Food, r.Food)})
}

// toolKinds are the tools a broken one is replaced by one of, by the end of
// their names (wooden_pickaxe, iron_sword).
var toolKinds = []string{"_pickaxe", "_axe", "_shovel", "_hoe", "_sword"}

// toolTiers rank a kind's tools, best first: the game's tiers by how hard
// and how long they work (netherite over diamond over iron over stone);
// gold digs fast but wears out soonest, so it comes after stone.
var toolTiers = []string{"netherite", "diamond", "iron", "stone", "golden", "wooden"}

func toolKind(name string) string {
	for _, k := range toolKinds {
		if strings.HasSuffix(name, k) {
			return k
		}
	}
	return ""
}

// keepHeldItem notices a tool the server took out of the hand (it broke:
// the game takes a broken tool away; the bot's own clicks, a drop, do not
// count) and, once the bot is idle, takes the best other tool of that kind
// carried into the hand.
func (t *Tools) keepHeldItem(ctx context.Context, w *bot.Session, c *handWatch) {
	v := w.Inventory().View()
	if v.HeldLostSeq != c.lostSeq {
		c.lostSeq, c.broken = v.HeldLostSeq, toolKind(v.HeldLost)
	}
	if !v.Held().Empty() {
		c.broken = ""
	}
	if c.broken == "" || !t.care.enabled("held_item") || !t.idle() {
		return
	}
	kind := c.broken
	best := ""
	for _, tier := range toolTiers {
		if v.Count(tier+kind) > 0 {
			best = tier + kind
			break
		}
	}
	if best == "" {
		c.broken = ""
		return
	}
	r, err := w.Inventory().Equip(ctx, best, "")
	if err != nil || !r.Equipped {
		c.broken = ""
		return
	}
	c.broken = ""
	t.emit("mc_behavior", "held_item", behaviorDone{"held_item", fmt.Sprintf("took a %s in hand after the %s broke", strings.ReplaceAll(best, "_", " "), strings.TrimPrefix(kind, "_"))})
}

// idle says whether no call or task that drives the bot is running: only
// calls that look (read tools, mc_status) and what a console asks for its
// own display may run while a behaviour acts. A task the catalog does not
// know (a follow's background work) drives the bot.
func (t *Tools) idle() bool {
	running := t.host.Running()
	t.care.mu.Lock()
	defer t.care.mu.Unlock()
	listed := make(map[string]bool, len(running))
	for _, r := range running {
		if !r.Background {
			listed[endKey(r.RawID, r.Started)] = true
		}
	}
	for k := range t.care.ended {
		if !listed[k] {
			delete(t.care.ended, k)
		}
	}
	for _, r := range running {
		if r.Origin == protocol.OriginInternal || (!r.Background && t.care.ended[endKey(r.RawID, r.Started)]) {
			continue
		}
		if tool, ok := t.catalog.Lookup(r.Tool); ok && tool.Effect == protocol.Read && !r.Background {
			continue
		}
		return false
	}
	return true
}
