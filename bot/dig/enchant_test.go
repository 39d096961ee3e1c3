package dig

import (
	"testing"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/wire"
)

// TestEfficiencyFromTheStack: a diamond pickaxe whose enchantments
// component holds efficiency V (in each version's wire form) digs stone in
// 2 ticks; its efficiency is read from the stack, by the enchantment's
// name (the vanilla registry order when the server sent no registry).
func TestEfficiencyFromTheStack(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		enchantments, ok := item.ComponentID(p, "enchantments")
		if !ok {
			t.Fatalf("%d has no enchantments component", p)
		}
		var w wire.Writer
		w.VarInt(1)
		w.VarInt(int32(g.ItemByName("diamond_pickaxe").ID))
		w.VarInt(1) // components added
		w.VarInt(0) // removed
		w.VarInt(enchantments)
		w.VarInt(1)
		w.VarInt(g.EnchantmentByName("efficiency").ID)
		w.VarInt(5)
		if p < 770 { // show_in_tooltip, gone in 1.21.5
			w.Bool(true)
		}
		r := wire.NewReader(w.Bytes())
		s := item.ReadSlot(r, p)
		if r.Err() != nil || r.Remaining() != 0 || s.Name != "diamond_pickaxe" {
			t.Fatalf("%d: the stack reads as %+v, %v", p, s, r.Err())
		}
		d := &Dig{g: g, reg: &registry.Registry{}}
		if lvl := d.enchantment(s, "efficiency"); lvl != 5 {
			t.Errorf("%d: efficiency %d, want 5", p, lvl)
		}
		if lvl := d.enchantment(s, "aqua_affinity"); lvl != 0 {
			t.Errorf("%d: aqua affinity %d on a pickaxe", p, lvl)
		}
		c := Hand()
		c.Tool, c.ToolID, c.Efficiency = s.Name, mcdata.ItemID(s.ID), d.enchantment(s, "efficiency")
		if n, _ := BreakTicks(g.BlockByName("stone"), c); n != 2 {
			t.Errorf("%d: stone with a diamond pickaxe with efficiency V: %d ticks, want 2", p, n)
		}
	}
}
