package metadata_test

import (
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/metadata"
	"github.com/blockmate/blockmate/bot/wire"
)

func typeID(t *testing.T, p int32, name string) int32 {
	t.Helper()
	names, err := metadata.TypeNames(p)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		if n == name {
			return int32(i)
		}
	}
	t.Fatalf("protocol %d has no metadata type %s", p, name)
	return -1
}

// TestTypedAccessors: the entries the entity feature reads (shared flags,
// custom name, pose, health, a dropped item's stack, an owner, a sitting
// flag) through their typed accessors, on every version, where the type
// ids differ.
func TestTypedAccessors(t *testing.T) {
	for _, p := range mcdata.SchemaProtocols() {
		var w wire.Writer
		w.Byte(0)
		w.VarInt(typeID(t, p, "byte"))
		w.Byte(0x22) // shared flags: crouching (0x02) and invisible (0x20)
		w.Byte(2)
		w.VarInt(typeID(t, p, "optional_component"))
		w.Bool(true)
		w.Raw([]byte{8, 0, 5, 'G', 'r', 'u', 'm', 'm'}) // a string component
		w.Byte(6)
		w.VarInt(typeID(t, p, "pose"))
		w.VarInt(5)
		w.Byte(9)
		w.VarInt(typeID(t, p, "float"))
		w.Float32(17.5)
		w.Byte(8)
		w.VarInt(typeID(t, p, "item_stack"))
		w.VarInt(12)
		w.VarInt(35)
		w.VarInt(0)
		w.VarInt(0)
		w.Byte(17)
		w.VarInt(typeID(t, p, "optional_uuid"))
		w.Bool(true)
		w.Raw([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
		w.Byte(18)
		w.VarInt(typeID(t, p, "boolean"))
		w.Bool(true)
		w.Byte(19)
		w.VarInt(typeID(t, p, "optional_unsigned_int"))
		w.VarInt(0)
		w.Byte(metadata.End)
		r := wire.NewReader(w.Bytes())
		es := metadata.Read(r, p)
		if r.Err() != nil || r.Remaining() != 0 || len(es) != 8 {
			t.Fatalf("protocol %d: %d entries, %v", p, len(es), r.Err())
		}
		flags, ok0 := es[0].Byte()
		name, ok1 := es[1].Text()
		pose, ok2 := es[2].Pose()
		health, ok3 := es[3].Float()
		stack, ok4 := es[4].Stack()
		owner, ok5 := es[5].UUID()
		sitting, ok6 := es[6].Bool()
		_, some := es[7].OptionalInt()
		if !(ok0 && ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || flags != 0x22 || chat.Plain(name) != "Grumm" || pose != metadata.Crouching ||
			health != 17.5 || stack.ID != 35 || stack.Count != 12 || owner[15] != 16 || !sitting || some {
			t.Errorf("protocol %d: %v %q %v %v %+v %x %v", p, flags, chat.Plain(name), pose, health, stack, owner, sitting)
		}
		if _, ok := es[3].Int(); ok {
			t.Errorf("protocol %d: a float entry answered Int", p)
		}
		if es[2].Index != 6 || es[2].Type != "pose" || pose.String() != "crouching" {
			t.Errorf("protocol %d: %+v", p, es[2])
		}
	}
}

// TestReadErrors: an unknown type id or a missing end marker leaves an
// error on the reader and returns the entries read before it.
func TestReadErrors(t *testing.T) {
	names, _ := metadata.TypeNames(767)
	var w wire.Writer
	w.Byte(0)
	w.VarInt(typeID(t, 767, "byte"))
	w.Byte(1)
	w.Byte(1)
	w.VarInt(int32(len(names)))
	r := wire.NewReader(w.Bytes())
	es := metadata.Read(r, 767)
	if len(es) != 1 || r.Err() == nil || !strings.Contains(r.Err().Error(), "unknown entity metadata type") {
		t.Errorf("%v, %v", es, r.Err())
	}
	r = wire.NewReader([]byte{0, 0, 1})
	if es := metadata.Read(r, 767); len(es) != 1 || r.Err() == nil {
		t.Errorf("no end marker: %v, %v", es, r.Err())
	}
	// A dropped item whose stack does not parse ends the list with an error.
	var bad wire.Writer
	bad.Byte(8)
	bad.VarInt(typeID(t, 775, "item_stack"))
	bad.VarInt(1)
	bad.VarInt(35)
	bad.VarInt(1)
	bad.VarInt(0)
	bad.VarInt(9999)
	r = wire.NewReader(bad.Bytes())
	metadata.Read(r, 775)
	if r.Err() == nil || !strings.Contains(r.Err().Error(), "unknown item component") {
		t.Errorf("bad stack: %v", r.Err())
	}
}
