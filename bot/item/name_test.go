package item_test

import (
	"testing"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// TestStackNames: every stack read gets its registry name from the
// version's static data, stacks inside components too; an id the data does
// not know reads with no name, and a skipped stack is not named.
func TestStackNames(t *testing.T) {
	for _, p := range mcdata.SchemaProtocols() {
		g := mcdata.Game(p)
		if g == nil {
			t.Fatalf("protocol %d has no static game data", p)
		}
		log, shulker := g.ItemByName("oak_log"), g.ItemByName("shulker_box")
		if log == nil || shulker == nil {
			t.Fatalf("protocol %d has no oak_log or shulker_box", p)
		}
		var w wire.Writer
		w.VarInt(5)
		w.VarInt(int32(log.ID))
		w.VarInt(0)
		w.VarInt(0)
		r := wire.NewReader(w.Bytes())
		if s := item.ReadSlot(r, p); r.Err() != nil || s.Name != "oak_log" || s.Count != 5 {
			t.Errorf("protocol %d: %+v, %v", p, s, r.Err())
		}

		// A shulker box holding the log: the nested stack is named too.
		w = wire.Writer{}
		w.VarInt(1)
		w.VarInt(int32(shulker.ID))
		w.VarInt(1)
		w.VarInt(0)
		w.VarInt(comp(t, p, "container"))
		w.VarInt(1)
		if p >= 775 { // an optional ItemStackTemplate: present, id, count
			w.Bool(true)
			w.VarInt(int32(log.ID))
			w.VarInt(3)
		} else {
			w.VarInt(3)
			w.VarInt(int32(log.ID))
		}
		w.VarInt(0)
		w.VarInt(0)
		r = wire.NewReader(w.Bytes())
		s := item.ReadSlot(r, p)
		inner, ok := s.Container()
		if r.Err() != nil || s.Name != "shulker_box" || !ok || len(inner) != 1 || inner[0].Name != "oak_log" || inner[0].Count != 3 {
			t.Errorf("protocol %d: shulker box %+v holding %+v (%v), %v", p, s, inner, ok, r.Err())
		}

		w = wire.Writer{}
		w.VarInt(1)
		w.VarInt(int32(len(g.Items)) + 5)
		w.VarInt(0)
		w.VarInt(0)
		r = wire.NewReader(w.Bytes())
		if s := item.ReadSlot(r, p); r.Err() != nil || s.Name != "" || s.Count != 1 {
			t.Errorf("protocol %d: an unknown id reads as %+v, %v", p, s, r.Err())
		}
	}
}
