package inventory

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/menu"
)

// ResolveItem turns what a caller calls an item ("oak_log",
// "minecraft:oak_log", "Oak Log", "oak log") into the version's item name,
// or an error that suggests the names it might have meant.
func ResolveItem(g *mcdata.GameData, name string) (string, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	key = strings.TrimPrefix(key, "minecraft:")
	key = strings.ReplaceAll(key, " ", "_")
	if key == "" {
		return "", errors.New("the item name is empty; give one such as oak_log")
	}
	if g == nil {
		return key, nil
	}
	if it := g.ItemByName(key); it != nil {
		return it.Name, nil
	}
	for i := range g.Items {
		if strings.EqualFold(g.Items[i].DisplayName, strings.TrimSpace(name)) {
			return g.Items[i].Name, nil
		}
	}
	var near []string
	for i := range g.Items {
		if n := g.Items[i].Name; strings.Contains(n, key) || strings.Contains(key, n) {
			near = append(near, n)
		}
	}
	sort.Slice(near, func(a, b int) bool {
		return len(near[a]) < len(near[b]) || len(near[a]) == len(near[b]) && near[a] < near[b]
	})
	if len(near) > 5 {
		near = near[:5]
	}
	if len(near) > 0 {
		return "", fmt.Errorf("%q is not an item of Minecraft %s; did you mean %s?", name, g.Version, strings.Join(near, ", "))
	}
	return "", fmt.Errorf("%q is not an item of Minecraft %s; give its registry name, e.g. oak_log or cobblestone", name, g.Version)
}

// Game is the version's static game data.
func (inv *Inventory) Game() *mcdata.GameData { return inv.game }

// EquipResult is what Equip did, verified from the server's answer.
type EquipResult struct {
	Equipped bool
	// Slot is where the item is now (window 0's numbering).
	Slot int
	// From is where it was, -1 when it was already there.
	From int
	// Reason says why it is not equipped.
	Reason string
	View   View
}

// ErrNotCarried is Equip's and Drop's answer for an item the bot does not
// have.
var ErrNotCarried = errors.New("the bot does not carry that item")

// Equip puts an item the bot carries in a hand or where it is worn, with
// the clicks a player would make in the inventory screen, and reports
// what the server made of them. The item goes to the hand by selecting
// its hotbar slot, or from the main inventory by a number-key swap with
// the held slot; to the off-hand by F (when held) or the F-over-a-slot
// swap; to an armour slot by picking it up and putting it down there (the
// piece it replaces goes where the new one was). e "" means where the item
// is worn, else the hand.
func (inv *Inventory) Equip(ctx context.Context, name string, e Equipment) (EquipResult, error) {
	inv.op.Lock()
	defer inv.op.Unlock()
	inv.busy.Add(1)
	defer inv.busy.Add(-1)

	v := inv.View()
	if v.Container != nil {
		return EquipResult{}, fmt.Errorf("a container (%s) is open; close it first, since equipping works in the inventory window", v.Container.Menu.Name)
	}
	if err := inv.putCursorDown(ctx); err != nil {
		return EquipResult{}, err
	}
	v = inv.View()
	slots := v.Find(name)
	worn := -1
	for _, s := range []int{SlotHead, SlotChest, SlotLegs, SlotFeet} {
		if st := v.Slots[s]; !st.Empty() && st.Name == name {
			worn = s
		}
	}
	if e == "" {
		e = Hand
		probe := func(s int) {
			if w, ok := menu.WornOn(v.Slots[s]); ok {
				e = w
			}
		}
		switch {
		case worn >= 0:
			probe(worn)
		case len(slots) > 0:
			probe(slots[0])
		}
	}
	target := -1
	switch e {
	case Hand:
		target = HotbarSlot(v.HeldSlot)
	case OffHand:
		target = SlotOffhand
	case Head, Chest, Legs, Feet:
		target, _ = menu.ArmourSlot(e)
	default:
		return EquipResult{}, fmt.Errorf("%q is not a place to equip to; use hand, off_hand, head, chest, legs or feet", e)
	}
	if st := v.Slots[target]; !st.Empty() && st.Name == name {
		return EquipResult{Equipped: true, Slot: target, From: -1, View: v}, nil
	}
	if worn >= 0 && worn != target {
		slots = append(slots, worn)
	}
	if len(slots) == 0 {
		return EquipResult{}, fmt.Errorf("%w: no %s in the inventory", ErrNotCarried, name)
	}
	from := slots[0]
	if e == OffHand || e == Hand {
		// Any slot but the target itself will do; the off-hand's item can
		// go to the hand and back.
		for _, s := range slots {
			if s != target {
				from = s
				break
			}
		}
	}
	if _, ok := menu.ArmourSlot(e); ok {
		if w, wearable := menu.WornOn(v.Slots[from]); !wearable || w != e {
			return EquipResult{Reason: fmt.Sprintf("%s is not worn on the %s", name, e), Slot: from, From: from, View: v}, nil
		}
	}

	var err error
	switch {
	case e == Hand && from >= SlotHotbarFirst && from < SlotOffhand:
		err = inv.selectHotbar(from - SlotHotbarFirst)
	case e == Hand:
		_, err = inv.click(ctx, SwapHotbar(0, from, v.HeldSlot))
	case e == OffHand && from == HotbarSlot(v.HeldSlot):
		_, err = inv.swapHands(ctx)
	case e == OffHand:
		_, err = inv.click(ctx, SwapOffhand(0, from))
	default:
		err = inv.moveOne(ctx, from, target)
	}
	v = inv.View()
	res := EquipResult{Slot: target, From: from, View: v}
	if e == Hand {
		res.Slot = HotbarSlot(v.HeldSlot)
	}
	if st := v.Slots[res.Slot]; !st.Empty() && st.Name == name {
		res.Equipped = true
		return res, err
	}
	if err != nil {
		return res, err
	}
	res.Reason = fmt.Sprintf("the server did not move %s to the %s (it has %s there)", name, e, describe(v.Slots[res.Slot]))
	return res, nil
}

// moveOne moves a stack from one window-0 slot to another with a pick up
// and a put down, putting whatever was there where the stack came from;
// anything left on the cursor afterwards goes back to where it came from.
func (inv *Inventory) moveOne(ctx context.Context, from, to int) error {
	steps := []Click{LeftClick(0, from), LeftClick(0, to)}
	for _, c := range steps {
		r, err := inv.click(ctx, c)
		if err != nil {
			return err
		}
		if !r.Confirmed() {
			break
		}
	}
	// The piece that was worn (or the new one, refused) is on the cursor:
	// put it where the new one came from, or anywhere free.
	if v := inv.View(); !v.Cursor.Empty() {
		back := from
		if !v.Slots[from].Empty() {
			back = firstEmpty(v)
		}
		if back < 0 {
			return fmt.Errorf("the inventory is full, so %d %s stay on the cursor", v.Cursor.Count, stackName(v.Cursor))
		}
		if _, err := inv.click(ctx, LeftClick(0, back)); err != nil {
			return err
		}
	}
	return nil
}

// putCursorDown puts a stack left on the cursor (by an action that did not
// finish) into the inventory: onto a stack of the same item with room, or
// into the first empty slot, as a player would before doing anything else.
func (inv *Inventory) putCursorDown(ctx context.Context) error {
	for range 4 {
		v := inv.View()
		c := v.Cursor
		if c.Empty() {
			return nil
		}
		to := -1
		for _, s := range carried[:len(carried)-1] {
			if st := v.Slots[s]; menu.SameItem(st, c) && st.Count < menu.MaxStack(inv.game, st) {
				to = s
				break
			}
		}
		if to < 0 {
			to = firstEmpty(v)
		}
		if to < 0 {
			return fmt.Errorf("the cursor holds %d %s and the inventory has no room for it; drop something first", c.Count, stackName(c))
		}
		r, err := inv.click(ctx, LeftClick(0, to))
		if err != nil {
			return err
		}
		if !r.Confirmed() {
			return fmt.Errorf("the cursor holds %d %s and the server did not let the bot put it down", c.Count, stackName(c))
		}
	}
	return errors.New("the cursor's stack did not fit anywhere after several tries; call mc_get_inventory to see the inventory")
}

func firstEmpty(v View) int {
	for _, s := range carried[:len(carried)-1] {
		if v.Slots[s].Empty() {
			return s
		}
	}
	return -1
}

// describe names a stack for a sentence: "nothing" or "3 oak_log".
func describe(s item.Stack) string {
	if s.Empty() {
		return "nothing"
	}
	return fmt.Sprintf("%d %s", s.Count, stackName(s))
}

// DropResult is what Drop did, counted from the server's answers.
type DropResult struct {
	// Dropped is how many of the item left the inventory.
	Dropped int
	// Left is how many the bot still carries.
	Left   int
	Reason string
	View   View
}

// Drop throws count of an item out of the inventory, stack by stack with
// the window's throw clicks (Q over a slot), which the server answers
// slot by slot; the count is what the server's answers took out. Items
// in the main inventory go first, then the hotbar, the held slot last.
func (inv *Inventory) Drop(ctx context.Context, name string, count int) (DropResult, error) {
	if count <= 0 {
		return DropResult{}, fmt.Errorf("the count must be 1 or more, not %d", count)
	}
	inv.op.Lock()
	defer inv.op.Unlock()
	inv.busy.Add(1)
	defer inv.busy.Add(-1)

	v := inv.View()
	window := int32(0)
	if v.Container != nil {
		return DropResult{}, fmt.Errorf("a container (%s) is open; close it first, since dropping works in the inventory window", v.Container.Menu.Name)
	}
	if err := inv.putCursorDown(ctx); err != nil {
		return DropResult{}, err
	}
	v = inv.View()
	have := v.Count(name)
	if have == 0 {
		return DropResult{}, fmt.Errorf("%w: no %s in the inventory", ErrNotCarried, name)
	}
	// Main inventory, then the hotbar, the held slot last, then the
	// off-hand: what the bot holds stays in hand longest.
	held := HotbarSlot(v.HeldSlot)
	var order []int
	for _, s := range v.Find(name) {
		if s >= SlotMainFirst && s < SlotHotbarFirst {
			order = append(order, s)
		}
	}
	for _, s := range v.Find(name) {
		if s >= SlotHotbarFirst && s < SlotOffhand && s != held {
			order = append(order, s)
		}
	}
	for _, s := range v.Find(name) {
		if s == held || s == SlotOffhand {
			order = append(order, s)
		}
	}
	want := min(count, have)
	reason := ""
loop:
	for _, s := range order {
		for {
			now := inv.View()
			left := want - (have - now.Count(name))
			st := now.Slots[s]
			if left <= 0 || st.Empty() || st.Name != name {
				break
			}
			r, err := inv.click(ctx, Throw(window, s, int(st.Count) <= left))
			if err != nil {
				return inv.dropResult(name, have, reason), err
			}
			// An answer that took nothing out (or none at all) ends it:
			// throwing again would not do better.
			if after := r.View.Slots[s]; !r.Confirmed() || (after.Name == name && after.Count >= st.Count) {
				reason = "the server did not take the items out (it did not perform the throw); the inventory shows what it has"
				break loop
			}
		}
	}
	res := inv.dropResult(name, have, reason)
	if res.Dropped < count && res.Reason == "" {
		res.Reason = fmt.Sprintf("the bot had only %d %s", have, name)
	}
	return res, nil
}

func (inv *Inventory) dropResult(name string, had int, reason string) DropResult {
	v := inv.View()
	n := v.Count(name)
	return DropResult{Dropped: had - n, Left: n, Reason: reason, View: v}
}
