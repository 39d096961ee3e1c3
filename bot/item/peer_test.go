package item_test

import (
	"bytes"
	"fmt"
	"sort"
	"testing"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/protodef"
	"github.com/blockmate/blockmate/bot/protodef/mdtest"
	"github.com/blockmate/blockmate/bot/wire"
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
	checked := map[int32]int{}
	correctedOnly := map[int32]map[string]bool{} // component types met in vectors that pass through a correction
	for _, v := range vectors {
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
