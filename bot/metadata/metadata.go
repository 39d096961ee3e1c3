// Package metadata reads entity metadata (the entity_metadata packet's
// entries, and the same list wherever it appears) for every protocol
// blockmate speaks. Every value type of a version is read by its generated
// layout (bot/protodef), item stacks by package item, so an entry the
// entity feature does not look at never costs it the rest of the packet.
//
// An entry is an index (its meaning depends on the entity type: 0 is the
// shared flags byte, 2 the custom name, 6 the pose …; minecraft-data's
// entities.json lists them as metadataKeys) and a typed value. The type ids
// change between versions (1.21.5 and 1.21.9 renumber them); Entry.Type is
// minecraft-data's stable name for the type.
package metadata

import (
	"fmt"
	"sync"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/protodef"
	"github.com/blockmate/blockmate/bot/wire"
)

// End is the index byte that ends a metadata list.
const End = 0xff

// Entry is one metadata entry.
type Entry struct {
	Index uint8
	// TypeID is the value type's id in this protocol; Type its
	// minecraft-data name: "byte", "int", "float", "string", "component",
	// "optional_component", "item_stack", "boolean", "pose" …
	TypeID int32
	Type   string
	// Value is the decoded value (see protodef.Value); an item_stack's
	// Stack is in Value.Ext.
	Value protodef.Value
}

type version struct {
	types []valueType
	hook  protodef.Hook
}

type valueType struct {
	name string
	t    *protodef.Type
}

type lazyVersion struct {
	once sync.Once
	v    *version
	err  error
}

var (
	versionsMu sync.Mutex
	versions   = map[int32]*lazyVersion{}
)

func versionFor(protocol int32) (*version, error) {
	versionsMu.Lock()
	l, ok := versions[protocol]
	if !ok {
		l = &lazyVersion{}
		versions[protocol] = l
	}
	versionsMu.Unlock()
	l.once.Do(func() { l.v, l.err = load(protocol) })
	return l.v, l.err
}

func load(protocol int32) (*version, error) {
	s, err := protodef.For(protocol)
	if err != nil {
		return nil, fmt.Errorf("metadata: %w", err)
	}
	hook, err := item.DecodeHook(protocol)
	if err != nil {
		return nil, fmt.Errorf("metadata: %w", err)
	}
	e := s.Type("entityMetadataEntry")
	if e == nil || e.Kind != protodef.Container || len(e.Fields) != 3 {
		return nil, fmt.Errorf("metadata: protocol %d: entityMetadataEntry is not a {key, type, value} container", protocol)
	}
	enum := e.Fields[1].Type.Resolve()
	sw := e.Fields[2].Type
	if enum.Kind != protodef.Enum || sw.Kind != protodef.Switch || sw.Disc != 1 {
		return nil, fmt.Errorf("metadata: protocol %d: entityMetadataEntry does not switch on its type", protocol)
	}
	v := &version{hook: hook}
	for id, name := range enum.Names {
		t := sw.Case(int64(id))
		if name == "" || t == nil {
			return nil, fmt.Errorf("metadata: protocol %d: metadata type %d (%q) has no layout", protocol, id, name)
		}
		v.types = append(v.types, valueType{name, t})
	}
	return v, nil
}

// maxEntries bounds one list; an entity has a few dozen at most, and the
// index is a byte.
const maxEntries = 255

// Read reads metadata entries up to the end marker (0xff). On an error (an
// unknown type id, a value that does not parse, no end marker) it returns
// the entries read so far and leaves the error on r.
func Read(r *wire.Reader, protocol int32) []Entry {
	v, err := versionFor(protocol)
	if err != nil {
		r.Fail(err)
		return nil
	}
	var out []Entry
	d := protodef.NewDecoder(r, v.hook)
	for r.Err() == nil {
		index := r.Byte()
		if r.Err() != nil || index == End {
			break
		}
		if len(out) >= maxEntries {
			r.Failf("metadata list longer than %d entries", maxEntries)
			break
		}
		id := r.VarInt()
		if r.Err() != nil {
			break
		}
		if id < 0 || int(id) >= len(v.types) {
			r.Failf("unknown entity metadata type %d in protocol %d: the server sent a value type this version's layouts lack (a modded server, or minecraft-data needs updating), so the rest of the packet cannot be read", id, protocol)
			break
		}
		d.Reset(r)
		val := d.Decode(v.types[id].t)
		if r.Err() != nil {
			break
		}
		out = append(out, Entry{Index: index, TypeID: id, Type: v.types[id].name, Value: val})
	}
	return out
}

// TypeNames lists a protocol's metadata value types by id.
func TypeNames(protocol int32) ([]string, error) {
	v, err := versionFor(protocol)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(v.types))
	for i, t := range v.types {
		out[i] = t.name
	}
	return out, nil
}

// Plain is the entry in the shape minecraft-protocol parses it into (an
// absent optional value leaves "value" out).
func (e Entry) Plain() any {
	m := map[string]any{"key": int64(e.Index), "type": e.Type}
	if v := e.Value.Plain(); v != nil {
		m["value"] = v
	}
	return m
}
