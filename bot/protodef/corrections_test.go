package protodef_test

import (
	"encoding/hex"
	"fmt"
	"math"
	"testing"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/metadata"
	"github.com/blockmate/blockmate/bot/protodef"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/mdtest"
)

// gameVector is one value written as the decompiled game writes it, where
// minecraft-data's layout differs (a correction of corrections.go). Each
// is a whole item stack or metadata list with a plain value after the
// corrected one, so that a reader that takes one byte too many or too few
// fails.
type gameVector struct {
	id        string
	protocols []int32
	what      string
	// mdType is the type minecraft-protocol parses the bytes as.
	mdType string
	build  func(w *wire.Writer, p int32)
	// check decodes the bytes with blockmate and checks the values.
	check func(t *testing.T, p int32, b []byte)
}

func span(from, to int32) []int32 {
	var out []int32
	for p := from; p <= to; p++ {
		out = append(out, p)
	}
	return out
}

func compID(t testing.TB, p int32, name string) int32 {
	id, ok := item.ComponentID(p, name)
	if !ok {
		t.Fatalf("protocol %d has no component %s", p, name)
	}
	return id
}

// slotWith writes a stack of one item with the named component, then a
// damage component of 5 (which must still read as 5).
func slotWith(p int32, name string, value func(w *wire.Writer)) func(w *wire.Writer, p int32) {
	return func(w *wire.Writer, p int32) {
		w.VarInt(1)  // count
		w.VarInt(42) // item id
		w.VarInt(2)  // added components
		w.VarInt(0)  // removed
		id, _ := item.ComponentID(p, name)
		w.VarInt(id)
		value(w)
		dmg, _ := item.ComponentID(p, "damage")
		w.VarInt(dmg)
		w.VarInt(5)
	}
}

// readSlot decodes a slotWith stack and returns the named component's
// value.
func readSlot(t *testing.T, p int32, b []byte, name string) protodef.Value {
	t.Helper()
	r := wire.NewReader(b)
	s := item.ReadSlot(r, p)
	if r.Err() != nil || r.Remaining() != 0 {
		t.Fatalf("protocol %d: %v, %d bytes left", p, r.Err(), r.Remaining())
	}
	if d, ok := s.Damage(); !ok || d != 5 {
		t.Fatalf("protocol %d: the damage after %s reads %d (%v), want 5", p, name, d, ok)
	}
	c, ok := s.Component(name)
	if !ok {
		t.Fatalf("protocol %d: no %s component", p, name)
	}
	v, err := c.Decode()
	if err != nil {
		t.Fatalf("protocol %d: %v", p, err)
	}
	return v
}

// metaWith writes a metadata list: entry 3 of the named type, then entry 4
// an int 9, then the end marker.
func metaWith(typeName string, value func(w *wire.Writer)) func(w *wire.Writer, p int32) {
	return func(w *wire.Writer, p int32) {
		names, _ := metadata.TypeNames(p)
		w.Byte(3)
		w.VarInt(int32(indexOf(names, typeName)))
		value(w)
		w.Byte(4)
		w.VarInt(int32(indexOf(names, "int")))
		w.VarInt(9)
		w.Byte(metadata.End)
	}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func readMeta(t *testing.T, p int32, b []byte) metadata.Entry {
	t.Helper()
	r := wire.NewReader(b)
	entries := metadata.Read(r, p)
	if r.Err() != nil || r.Remaining() != 0 || len(entries) != 2 {
		t.Fatalf("protocol %d: %d entries, %v, %d bytes left", p, len(entries), r.Err(), r.Remaining())
	}
	if n, ok := entries[1].Int(); !ok || n != 9 {
		t.Fatalf("protocol %d: the entry after reads %d (%v), want 9", p, n, ok)
	}
	return entries[0]
}

func position(x, y, z int64) int64 { return (x&0x3ffffff)<<38 | (z&0x3ffffff)<<12 | y&0xfff }

// nbtString writes a network NBT string tag (a text component).
func nbtString(w *wire.Writer, s string) {
	w.Byte(8)
	w.Uint16(uint16(len(s)))
	w.Raw([]byte(s))
}

// nbtCompoundInt writes a network NBT compound {name: value (int)}.
func nbtCompoundInt(w *wire.Writer, name string, v int32) {
	w.Byte(10)
	w.Byte(3)
	w.Uint16(uint16(len(name)))
	w.Raw([]byte(name))
	w.Int32(v)
	w.Byte(0)
}

func field(t *testing.T, v protodef.Value, path ...string) protodef.Value {
	t.Helper()
	f, ok := v.Path(path...)
	if !ok {
		t.Fatalf("no %v in %v", path, v.Plain())
	}
	return f
}

// predicate writes one can_place_on/can_break block predicate as the game
// does: an optional block set, optional state properties, optional NBT
// (C13), and from 1.21.5 the component matchers.
func predicate(w *wire.Writer, p int32, properties func(w *wire.Writer), nbt bool, partial bool) {
	w.Bool(true) // a block set: a tag
	w.VarInt(0)
	w.String("minecraft:logs")
	if properties != nil {
		w.Bool(true)
		properties(w)
	} else {
		w.Bool(false)
	}
	if nbt {
		w.Bool(true)
		nbtCompoundInt(w, "n", 5)
	} else {
		w.Bool(false)
	}
	if p >= 770 {
		w.VarInt(0) // exact matchers
		if partial {
			w.VarInt(1)
			if p >= 774 {
				w.Bool(true) // a predicate type, not a component type
			}
			w.VarInt(2) // the predicate type's id
			nbtCompoundInt(w, "min", 1)
		} else {
			w.VarInt(0)
		}
	}
}

var gameVectors = []gameVector{
	{
		id: "C5", protocols: span(767, 772), what: "a present optional global position", mdType: "entityMetadata",
		build: metaWith("optional_global_pos", func(w *wire.Writer) {
			w.Bool(true)
			w.String("minecraft:overworld")
			w.Int64(position(10, 64, -20))
		}),
		check: func(t *testing.T, p int32, b []byte) {
			dim, x, y, z, ok := readMeta(t, p, b).GlobalPos()
			if !ok || dim != "minecraft:overworld" || x != 10 || y != 64 || z != -20 {
				t.Errorf("protocol %d: global pos %q %d %d %d (%v)", p, dim, x, y, z, ok)
			}
		},
	},
	{
		id: "C6", protocols: []int32{768}, what: "custom_model_data as one VarInt", mdType: "Slot",
		build: slotWith(768, "custom_model_data", func(w *wire.Writer) { w.VarInt(7) }),
		check: func(t *testing.T, p int32, b []byte) {
			if v := readSlot(t, p, b, "custom_model_data"); v.Int != 7 {
				t.Errorf("custom_model_data %v", v.Plain())
			}
		},
	},
	{
		id: "C7", protocols: []int32{768}, what: "a banner layer with an inline pattern", mdType: "Slot",
		build: slotWith(768, "banner_patterns", func(w *wire.Writer) {
			w.VarInt(1) // one layer
			w.VarInt(0) // inline pattern
			w.String("minecraft:globe")
			w.String("block.minecraft.banner.globe")
			w.VarInt(14) // red
		}),
		check: func(t *testing.T, p int32, b []byte) {
			v := readSlot(t, p, b, "banner_patterns")
			layer := field(t, v, "layers").Items[0]
			pattern, ok := field(t, layer, "pattern").Elem()
			if !ok || field(t, pattern, "assetId").Str != "minecraft:globe" || field(t, layer, "colorId").Int != 14 {
				t.Errorf("layer %v", layer.Plain())
			}
		},
	},
	{
		id: "C12", protocols: span(770, 777), what: "a partial component matcher with its value", mdType: "Slot",
		build: func(w *wire.Writer, p int32) {
			slotWith(p, "can_break", func(w *wire.Writer) {
				w.VarInt(1)
				predicate(w, p, nil, false, true)
			})(w, p)
		},
		check: func(t *testing.T, p int32, b []byte) {
			v := readSlot(t, p, b, "can_break")
			m := field(t, field(t, v, "predicates").Items[0], "components", "partialMatchers").Items[0]
			if field(t, m, "type").Int != 2 || field(t, m, "predicate").NBT == nil {
				t.Errorf("partial matcher %v", m.Plain())
			}
			if p >= 774 && !field(t, m, "isPredicateType").Bool() {
				t.Errorf("partial matcher %v", m.Plain())
			}
		},
	},
	{
		id: "C13", protocols: span(767, 777), what: "a block predicate with NBT", mdType: "Slot",
		build: func(w *wire.Writer, p int32) {
			slotWith(p, "can_place_on", func(w *wire.Writer) {
				w.VarInt(1)
				predicate(w, p, nil, true, false)
				if p < 770 {
					w.Bool(true) // show in tooltip
				}
			})(w, p)
		},
		check: func(t *testing.T, p int32, b []byte) {
			v := readSlot(t, p, b, "can_place_on")
			nbt, _ := field(t, field(t, v, "predicates").Items[0], "nbt", "?").NBT.(map[string]any)
			if nbt["n"] != int32(5) {
				t.Errorf("predicate NBT %v", nbt)
			}
		},
	},
	{
		id: "C14", protocols: span(767, 777), what: "a ranged block state property with one bound", mdType: "Slot",
		build: func(w *wire.Writer, p int32) {
			slotWith(p, "can_place_on", func(w *wire.Writer) {
				w.VarInt(1)
				predicate(w, p, func(w *wire.Writer) {
					w.VarInt(1) // one property
					w.String("age")
					w.Bool(false) // ranged
					w.Bool(false) // no minimum
					w.Bool(true)
					w.String("3")
				}, false, false)
				if p < 770 {
					w.Bool(true)
				}
			})(w, p)
		},
		check: func(t *testing.T, p int32, b []byte) {
			v := readSlot(t, p, b, "can_place_on")
			prop := field(t, field(t, v, "predicates").Items[0], "properties", "?").Items[0]
			if _, ok := prop.Path("value", "minValue", "?"); ok || field(t, prop, "value", "maxValue", "?").Str != "3" {
				t.Errorf("property %v", prop.Plain())
			}
		},
	},
	{
		id: "C15", protocols: span(767, 777), what: "an inline painting variant", mdType: "entityMetadata",
		build: func(w *wire.Writer, p int32) {
			metaWith("painting_variant", func(w *wire.Writer) {
				w.VarInt(0) // inline
				w.VarInt(2)
				w.VarInt(1)
				w.String("minecraft:kebab")
				if p >= 768 {
					w.Bool(true)
					nbtString(w, "Kebab med tre pepperoni")
					w.Bool(false)
				}
			})(w, p)
		},
		check: func(t *testing.T, p int32, b []byte) {
			v, ok := readMeta(t, p, b).Value.Elem()
			if !ok || field(t, v, "width").Int != 2 || field(t, v, "height").Int != 1 || field(t, v, "assetId").Str != "minecraft:kebab" {
				t.Errorf("protocol %d: painting %v", p, v.Plain())
			}
		},
	},
	{
		id: "C16", protocols: []int32{767}, what: "food that converts into a bowl", mdType: "Slot",
		build: slotWith(767, "food", func(w *wire.Writer) {
			w.VarInt(6)
			w.Float32(0.6)
			w.Bool(false)
			w.Float32(1.6)
			w.Bool(true) // usingConvertsTo present
			w.VarInt(1)
			w.VarInt(840) // the bowl
			w.VarInt(0)
			w.VarInt(0)
			w.VarInt(0) // no effects
		}),
		check: func(t *testing.T, p int32, b []byte) {
			v := readSlot(t, p, b, "food")
			bowl, _ := field(t, v, "usingConvertsTo", "?").Ext.(item.Stack)
			if bowl.ID != 840 || bowl.Count != 1 {
				t.Errorf("food %v", v.Plain())
			}
		},
	},
	{
		id: "C17", protocols: []int32{767}, what: "potion contents without a custom name", mdType: "Slot",
		build: slotWith(767, "potion_contents", func(w *wire.Writer) {
			w.Bool(true)
			w.VarInt(5)
			w.Bool(false)
			w.VarInt(0)
		}),
		check: func(t *testing.T, p int32, b []byte) {
			if v := readSlot(t, p, b, "potion_contents"); field(t, v, "potionId", "?").Int != 5 {
				t.Errorf("potion %v", v.Plain())
			}
		},
	},
	{
		id: "C18", protocols: []int32{767}, what: "an inline instrument", mdType: "Slot",
		build: slotWith(767, "instrument", func(w *wire.Writer) {
			w.VarInt(0) // inline instrument
			w.VarInt(0) // inline sound event
			w.String("minecraft:item.goat_horn.sound.0")
			w.Bool(false)
			w.VarInt(140)
			w.Float32(256)
		}),
		check: func(t *testing.T, p int32, b []byte) {
			v, _ := readSlot(t, p, b, "instrument").Elem()
			if field(t, v, "useDuration").Int != 140 || field(t, v, "range").Float != 256 {
				t.Errorf("instrument %v", v.Plain())
			}
		},
	},
	{
		id: "C19", protocols: []int32{767, 768}, what: "an inline trim material", mdType: "Slot",
		build: func(w *wire.Writer, p int32) {
			slotWith(p, "trim", func(w *wire.Writer) {
				w.VarInt(0) // inline material
				w.String("gold")
				w.VarInt(800)
				w.Float32(0.6) // item model index
				w.VarInt(1)
				if p == 767 {
					w.VarInt(3) // armor material id
				} else {
					w.String("minecraft:gold")
				}
				w.String("gold_darker")
				nbtString(w, "Gold")
				w.VarInt(6) // pattern: registry entry 5
				w.Bool(true)
			})(w, p)
		},
		check: func(t *testing.T, p int32, b []byte) {
			v := readSlot(t, p, b, "trim")
			m, _ := field(t, v, "material").Elem()
			if field(t, m, "itemModelIndex").Float32() != 0.6 || field(t, m, "assetName").Str != "gold" || field(t, v, "pattern").Int != 5 {
				t.Errorf("trim %v", v.Plain())
			}
		},
	},
	{
		id: "C20", protocols: []int32{767}, what: "a dust colour transition particle", mdType: "entityMetadata",
		build: metaWith("particle", func(w *wire.Writer) {
			w.VarInt(14) // dust_color_transition in 1.21.1
			for _, f := range []float32{1, 0, 0, 0, 0, 1, 2.5} {
				w.Float32(f)
			}
		}),
		check: func(t *testing.T, p int32, b []byte) {
			v := readMeta(t, p, b).Value
			if field(t, v, "type").Name() != "dust_color_transition" || field(t, v, "data", "toBlue").Float != 1 || field(t, v, "data", "scale").Float != 2.5 {
				t.Errorf("particle %v", v.Plain())
			}
		},
	},
	{
		id: "C22", protocols: span(767, 777), what: "a written book page with filtered text", mdType: "Slot",
		build: func(w *wire.Writer, p int32) {
			slotWith(p, "written_book_content", func(w *wire.Writer) {
				w.String("Diary")
				w.Bool(false) // no filtered title
				w.String("Steve")
				w.VarInt(0)
				w.VarInt(1) // one page
				nbtString(w, "Day 1: a creeper")
				w.Bool(true) // filtered text present
				nbtString(w, "Day 1: a ***")
				w.Bool(true) // resolved
			})(w, p)
		},
		check: func(t *testing.T, p int32, b []byte) {
			v := readSlot(t, p, b, "written_book_content")
			page := field(t, v, "pages").Items[0]
			if field(t, page, "content").NBT != "Day 1: a creeper" || field(t, page, "filteredContent", "?").NBT != "Day 1: a ***" || !field(t, v, "resolved").Bool() {
				t.Errorf("book %v", v.Plain())
			}
		},
	},
	{
		id: "C21", protocols: []int32{775, 776, 777}, what: "26.1's plain holders and holder sets", mdType: "Slot",
		build: func(w *wire.Writer, p int32) {
			comps := []struct {
				name  string
				value func(w *wire.Writer)
			}{
				{"damage_type", func(w *wire.Writer) { w.VarInt(3) }},
				{"damage_resistant", func(w *wire.Writer) { w.VarInt(0); w.String("minecraft:is_fire") }},
				{"instrument", func(w *wire.Writer) { w.VarInt(2) }},
				{"provides_trim_material", func(w *wire.Writer) { w.VarInt(4) }},
				{"jukebox_playable", func(w *wire.Writer) { w.VarInt(3) }},
				{"provides_banner_patterns", func(w *wire.Writer) { w.VarInt(3); w.VarInt(1); w.VarInt(2) }},
				{"chicken/variant", func(w *wire.Writer) { w.VarInt(0) }},
				{"chicken/sound_variant", func(w *wire.Writer) { w.VarInt(1) }},
				{"zombie_nautilus/variant", func(w *wire.Writer) { w.VarInt(0) }},
			}
			w.VarInt(1)
			w.VarInt(42)
			w.VarInt(int32(len(comps) + 1))
			w.VarInt(0)
			for _, c := range comps {
				id, _ := item.ComponentID(p, c.name)
				w.VarInt(id)
				c.value(w)
			}
			dmg, _ := item.ComponentID(p, "damage")
			w.VarInt(dmg)
			w.VarInt(5)
		},
		check: func(t *testing.T, p int32, b []byte) {
			want := map[string]string{
				"damage_type": "3", "damage_resistant": `{"name":"minecraft:is_fire"}`, "instrument": `{"instrumentId":1}`,
				"provides_trim_material": `{"materialId":3}`, "jukebox_playable": `{"songId":2}`, "provides_banner_patterns": `{"ids":[1,2]}`,
				"chicken/variant": "0", "chicken/sound_variant": "1", "zombie_nautilus/variant": "0",
			}
			for name, w := range want {
				v := readSlot(t, p, b, name)
				if got := jsonOf(v.Plain()); got != w {
					t.Errorf("%s reads %s, want %s", name, got, w)
				}
			}
		},
	},
}

// TestCorrections decodes, for every correction and every protocol it
// applies to, a value written as the decompiled game writes it, checks the
// values, and has minecraft-protocol parse the same bytes: it must fail or
// read something else, which is why the correction exists. Every
// correction of corrections.go must have a vector here.
func TestCorrections(t *testing.T) {
	have := map[string]bool{}
	var reqs []mdtest.ParseRequest
	type job struct {
		v gameVector
		p int32
		b []byte
	}
	var jobs []job
	for _, v := range gameVectors {
		for _, p := range v.protocols {
			have[fmt.Sprint(v.id, p)] = true
			var w wire.Writer
			v.build(&w, p)
			b := w.Bytes()
			t.Run(fmt.Sprintf("%s/%d", v.id, p), func(t *testing.T) { v.check(t, p, b) })
			jobs = append(jobs, job{v, p, b})
			reqs = append(reqs, mdtest.ParseRequest{Protocol: p, Type: v.mdType, Hex: hex.EncodeToString(b)})
		}
	}
	for _, c := range mcdata.SchemaCorrections() {
		for _, p := range c.Protocols {
			if !have[fmt.Sprint(c.ID, p)] {
				t.Errorf("correction %s (%s) has no game vector for protocol %d", c.ID, c.Path, p)
			}
		}
	}
	parsed := mdtest.Parse(t, reqs)
	for i, j := range jobs {
		got := parsed[i]
		ours := plainOf(j.p, j.v.mdType, j.b)
		if got.OK && got.Size == len(j.b) && mdtest.Compare(ours, got.Value) == "" {
			t.Errorf("%s %d (%s): minecraft-protocol reads the game's bytes as blockmate does; is the correction still needed?", j.v.id, j.p, j.v.what)
		}
	}
}

func plainOf(p int32, mdType string, b []byte) any {
	r := wire.NewReader(b)
	if mdType == "Slot" {
		return item.ReadSlot(r, p).Plain()
	}
	var out []any
	for _, e := range metadata.Read(r, p) {
		out = append(out, e.Plain())
	}
	return out
}

func jsonOf(v any) string {
	switch x := v.(type) {
	case int64:
		return fmt.Sprint(x)
	case map[string]any:
		s := "{"
		for k, e := range x {
			s += fmt.Sprintf("%q:%s", k, jsonOf(e))
		}
		return s + "}"
	case []any:
		s := "["
		for i, e := range x {
			if i > 0 {
				s += ","
			}
			s += jsonOf(e)
		}
		return s + "]"
	case string:
		return fmt.Sprintf("%q", x)
	case float64:
		if math.Trunc(x) == x {
			return fmt.Sprint(int64(x))
		}
		return fmt.Sprint(x)
	}
	return fmt.Sprint(v)
}
