package item_test

import (
	"bytes"
	"fmt"
	"sort"
	"testing"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/protodef"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/mdtest"
)

// TestSlotsMatchMinecraftProtocol decodes, for every protocol, item stacks
// minecraft-protocol serialized from minecraft-data's layouts: every
// component type in several variants (walking the cases of each switch,
// option and holder) and hand-picked realistic stacks. Each must read to
// the end of its bytes, agree field by field with minecraft-protocol's own
// parse, read the same through the generic schema (no item framing), and
// write back to the same bytes; the untrusted (set_creative_slot) and
// hashed (window_click) forms must equal minecraft-protocol's bytes.
// Vectors that pass through a corrected part of minecraft-data
// (corrections.go) carry minecraft-data's bytes there, not the game's, and
// are not expected to decode: TestCorrections holds the game's bytes for
// those. A component type met only in such vectors counts as covered
// there.
func TestSlotsMatchMinecraftProtocol(t *testing.T) {
	vectors := mdtest.Load(t, "slot", "untrusted", "hashed")
	slots := map[string][]byte{} // protocol + name → Slot bytes
	for _, v := range vectors {
		if v.Kind == "slot" {
			slots[fmt.Sprint(v.Protocol, v.Name)] = v.Bytes()
		}
	}
	covered := map[int32]map[string]bool{}
	realisticChecked := map[int32]int{}
	checked := map[int32]int{}
	correctedOnly := map[int32]map[string]bool{} // component types met in vectors that pass through a correction
	for _, v := range vectors {
		if _, ok := realistic[v.Name]; ok && len(v.Touched) > 0 {
			realisticChecked[v.Protocol]++ // checked with the game's bytes in TestCorrections
		}
		if len(v.Touched) > 0 {
			if correctedOnly[v.Protocol] == nil {
				correctedOnly[v.Protocol] = map[string]bool{}
			}
			for _, n := range componentTypes(v.Parsed) {
				correctedOnly[v.Protocol][n] = true
			}
			continue
		}
		if v.Error != "" {
			t.Errorf("%v: minecraft-protocol could not write it: %s", v, v.Error)
			continue
		}
		checked[v.Protocol]++
		switch v.Kind {
		case "slot":
			b := v.Bytes()
			r := wire.NewReader(b)
			s := item.ReadSlot(r, v.Protocol)
			if r.Err() != nil || r.Remaining() != 0 {
				t.Errorf("%v: ReadSlot: %v, %d bytes left\n%s", v, r.Err(), r.Remaining(), v.Hex)
				continue
			}
			if d := mdtest.Compare(s.Plain(), v.Parsed); d != "" {
				t.Errorf("%v: %s\n%s", v, d, v.Hex)
				continue
			}
			schema, _ := protodef.For(v.Protocol)
			r = wire.NewReader(b)
			generic := protodef.NewDecoder(r, nil).Decode(schema.Type("Slot"))
			if r.Err() != nil || r.Remaining() != 0 {
				t.Errorf("%v: the generic Slot: %v, %d bytes left", v, r.Err(), r.Remaining())
			} else if d := mdtest.Compare(generic.Plain(), v.Parsed); d != "" {
				t.Errorf("%v: the generic Slot: %s", v, d)
			}
			var w wire.Writer
			if err := item.WriteSlot(&w, v.Protocol, s); err != nil || !bytes.Equal(w.Bytes(), b) {
				t.Errorf("%v: WriteSlot wrote %x (%v), want %x", v, w.Bytes(), err, b)
			}
			if check, ok := realistic[v.Name]; ok {
				if err := check(s); err != nil {
					t.Errorf("%v: %v", v, err)
				}
				realisticChecked[v.Protocol]++
			}
			if covered[v.Protocol] == nil {
				covered[v.Protocol] = map[string]bool{}
			}
			for _, c := range s.Components {
				covered[v.Protocol][c.Name] = true
			}
		case "untrusted", "hashed":
			slot := slots[fmt.Sprint(v.Protocol, v.Name)]
			r := wire.NewReader(slot)
			s := item.ReadSlot(r, v.Protocol)
			if r.Err() != nil {
				t.Errorf("%v: ReadSlot: %v", v, r.Err())
				continue
			}
			var w wire.Writer
			var err error
			want := v.Bytes()
			if v.Kind == "untrusted" {
				err = item.WriteUntrustedSlot(&w, v.Protocol, s)
			} else {
				err = item.WriteHashedStack(&w, v.Protocol, s)
				want = append([]byte{1}, want...) // window_click's Optional<HashedStack>
			}
			if err != nil || !bytes.Equal(w.Bytes(), want) {
				t.Errorf("%v: wrote %x (%v), minecraft-protocol %x", v, w.Bytes(), err, want)
			}
		}
	}
	for _, p := range mcdata.SchemaProtocols() {
		names, err := item.ComponentNames(p)
		if err != nil {
			t.Fatal(err)
		}
		var missing []string
		for _, n := range names {
			if !covered[p][n] && !correctedOnly[p][n] {
				missing = append(missing, n)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("protocol %d: no vector decoded component types %v", p, missing)
		}
		want := len(realistic)
		if p < 768 {
			want-- // no consumable component before 1.21.2
		}
		if realisticChecked[p] != want {
			t.Errorf("protocol %d: %d of the %d realistic stacks were checked or corrected", p, realisticChecked[p], want)
		}
		if checked[p] < 100 {
			t.Errorf("protocol %d: only %d vectors checked", p, checked[p])
		}
		t.Logf("protocol %d: %d vectors agree with minecraft-protocol, %d component types", p, checked[p], len(covered[p]))
	}
}

// componentTypes lists the component types of a stack as
// minecraft-protocol parsed it.
func componentTypes(parsed any) []string {
	m, _ := parsed.(map[string]any)
	list, _ := m["components"].([]any)
	var out []string
	for _, c := range list {
		cm, _ := c.(map[string]any)
		if n, ok := cm["type"].(string); ok {
			out = append(out, n)
		}
	}
	return out
}

// realistic are the accessors' expectations for itemvectors.js's
// hand-picked stacks (the values are the script's).
var realistic = map[string]func(s item.Stack) error{
	"cobblestone": func(s item.Stack) error {
		return expect(s.ID == 35 && s.Count == 64 && len(s.Components) == 0, "a plain stack of 64 cobblestone (item 35)")
	},
	"enchanted diamond pickaxe": func(s item.Stack) error {
		d, ok := s.Damage()
		e, ok2 := s.Enchantments()
		rc, ok3 := s.RepairCost()
		return expect(ok && d == 37 && ok2 && fmt.Sprint(e) == "[{12 5} {37 3} {22 1}]" && ok3 && rc == 3,
			fmt.Sprintf("damage 37, enchantments 12:5 37:3 22:1, repair cost 3; got %d %v %d", d, e, rc))
	},
	"named sword": func(s item.Stack) error {
		d, _ := s.Damage()
		return expect(s.DisplayName() == "Excalibur ✦" && d == 3, fmt.Sprintf("named Excalibur ✦ with damage 3; got %q %d", s.DisplayName(), d))
	},
	"enchanted book": func(s item.Stack) error {
		e, ok := s.StoredEnchantments()
		_, plain := s.Enchantments()
		return expect(ok && !plain && fmt.Sprint(e) == "[{9 4}]", fmt.Sprintf("stored enchantment 9:4; got %v", e))
	},
	"water bottle": func(s item.Stack) error {
		p, ok := s.Potion()
		return expect(ok && p.HasPotionID && p.PotionID == 1 && len(p.CustomEffects) == 0, fmt.Sprintf("potion 1; got %+v", p))
	},
	"potion of swiftness": func(s item.Stack) error {
		p, ok := s.Potion()
		return expect(ok && p.PotionID == 14 && fmt.Sprint(p.CustomEffects) == "[{1 1 3600}]", fmt.Sprintf("potion 14 with effect 1 level 2 for 3600 ticks; got %+v", p))
	},
	"written book": func(s item.Stack) error {
		return expect(s.Has("written_book_content"), "a written book")
	},
	"food with item name": func(s item.Stack) error {
		f, ok := s.Food()
		name, _ := s.ItemName()
		_, custom := s.CustomName()
		return expect(ok && f.Nutrition == 8 && f.SaturationModifier == 0.8 && f.CanAlwaysEat && name != nil && !custom && s.DisplayName() == "Excalibur ✦",
			fmt.Sprintf("food 8/0.8/always and an item name; got %+v %q", f, s.DisplayName()))
	},
	"consumable": func(s item.Stack) error {
		c, ok := s.Consumable()
		return expect(ok && c.Seconds == 1.6 && c.Animation == "eat", fmt.Sprintf("eaten in 1.6 s; got %+v", c))
	},
	"tool": func(s item.Stack) error {
		tool, ok := s.Tool()
		md, _ := s.MaxDamage()
		ms, _ := s.MaxStackSize()
		if !ok || len(tool.Rules) != 2 || tool.DefaultMiningSpeed != 1 || tool.DamagePerBlock != 1 || md != 1561 || ms != 1 || !s.RemovesDefault("food") {
			return fmt.Errorf("want a tool of 2 rules, max damage 1561, stack size 1, food removed; got %+v %d %d", tool, md, ms)
		}
		r0, r1 := tool.Rules[0], tool.Rules[1]
		return expect(r0.Blocks.Tag == "minecraft:mineable/pickaxe" && r0.HasSpeed && r0.Speed == 8 && r0.HasCorrectForDrops && r0.CorrectForDrops &&
			fmt.Sprint(r1.Blocks.IDs) == "[1 2 3]", fmt.Sprintf("rules pickaxe-tag@8 and ids 1,2,3; got %+v", tool.Rules))
	},
	"shulker box with contents": func(s item.Stack) error {
		c, ok := s.Container()
		if !ok || len(c) != 3 {
			return fmt.Errorf("want 3 slots, got %d (%v)", len(c), ok)
		}
		d, _ := c[2].Damage()
		return expect(c[0].ID == 35 && c[0].Count == 64 && c[1].Empty() && c[2].ID == 850 && d == 5, fmt.Sprintf("cobblestone, empty, a damaged pickaxe; got %+v", c))
	},
	"bundle": func(s item.Stack) error {
		c, ok := s.BundleContents()
		return expect(ok && len(c) == 2 && c[0].Count == 64 && c[1].ID == 850, fmt.Sprintf("two stacks; got %+v", c))
	},
	"firework rocket": func(s item.Stack) error { return expect(s.Has("fireworks") && s.Count == 3, "3 rockets") },
	"banner":          func(s item.Stack) error { return expect(s.Has("banner_patterns"), "patterns") },
	"lore and unbreakable": func(s item.Stack) error {
		return expect(s.Unbreakable() && s.Has("lore"), "unbreakable with lore")
	},
}

func expect(ok bool, want string) error {
	if ok {
		return nil
	}
	return fmt.Errorf("want %s", want)
}
