// Package item reads and writes item stacks (slots) with their data
// components, for every protocol blockmate speaks (767–775).
//
// From 1.20.5 on a stack is an item id, a count and a patch of data
// components over the item's defaults. Clientbound stacks are not
// delimited: each component's value follows its type id with a layout of
// its own, so every component of a version must be read exactly or the
// rest of the packet is lost. The layouts come from the generated schemas
// (bot/protodef, mcdata.Schema); this package frames the stack as the game
// does (a count ≤ 0 is an empty stack) and reads each component's value
// with protodef's Skip, keeping its exact bytes. Nothing is decoded until
// someone asks: Damage, Enchantments, Food, Tool, Container … decode one
// component when called, and Component.Decode gives any component as a
// generic value.
//
// Only the patch travels: an item's default components (a diamond
// pickaxe's max_damage and tool rules, bread's food) are not on the wire,
// so an accessor answers false for them; the item's static data
// (mcdata.Game's items) holds the defaults.
package item

import (
	"errors"
	"fmt"
	"sync"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/protodef"
	"github.com/blockmate/blockmate/bot/wire"
)

// Stack is one item stack as the server sent it.
type Stack struct {
	// ID is the item's id in the version's item registry; meaningful only
	// when Count > 0.
	ID int32
	// Name is the item's registry name ("diamond_pickaxe", no "minecraft:"
	// prefix). The wire carries only ID; every stack this package reads,
	// nested ones included, gets its name from the version's static item
	// data (mcdata.Game), the one place names are filled. It is empty for
	// an id the data does not know (a modded server's item).
	Name string
	// Count is how many items the stack holds; 0 is an empty slot.
	Count int32
	// Components are the components the stack adds or overrides, in wire
	// order; Removed are the item defaults it removes (their Raw is nil).
	Components []Component
	Removed    []Component
}

// Component is one data component of a stack.
type Component struct {
	// ID is the component type's id in the version's registry, Name its
	// minecraft-data name ("damage", "custom_name", "minecraft" prefix
	// omitted).
	ID   int32
	Name string
	// Raw is the value's bytes, exactly as on the wire (not length
	// prefixed); nil for a removed component.
	Raw []byte
	v   *version
}

// Empty reports whether the stack is an empty slot.
func (s Stack) Empty() bool { return s.Count <= 0 }

// version is one protocol's component table, built from its schema on
// first use.
type version struct {
	protocol int32
	schema   *protodef.Schema
	// comps[id] is a component type's name and value type.
	comps  []compType
	byName map[string]int32
	hook   protodef.Hook
	// items are the version's items by id, for the stacks' names; nil when
	// no static data covers the protocol.
	items []mcdata.Item
	// templates: at 775 stacks inside components are ItemStackTemplates
	// (no leading count, never empty).
	pool sync.Pool
}

type compType struct {
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

// ErrUnknownProtocol wraps the error for a protocol without a schema.
var ErrUnknownProtocol = errors.New("item: no item stack layouts for this protocol")

func versionFor(protocol int32) (*version, error) {
	versionsMu.Lock()
	l, ok := versions[protocol]
	if !ok {
		l = &lazyVersion{}
		versions[protocol] = l
	}
	versionsMu.Unlock()
	l.once.Do(func() { l.v, l.err = loadVersion(protocol) })
	return l.v, l.err
}

func loadVersion(protocol int32) (*version, error) {
	s, err := protodef.For(protocol)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnknownProtocol, err)
	}
	sc := s.Type("SlotComponent")
	if sc == nil || sc.Kind != protodef.Container || len(sc.Fields) != 2 {
		return nil, fmt.Errorf("item: protocol %d: SlotComponent is not a {type, data} container", protocol)
	}
	enum := sc.Fields[0].Type.Resolve()
	sw := sc.Fields[1].Type
	if enum == nil || enum.Kind != protodef.Enum || sw.Kind != protodef.Switch || sw.Disc != 0 {
		return nil, fmt.Errorf("item: protocol %d: SlotComponent does not switch on its type", protocol)
	}
	v := &version{protocol: protocol, schema: s, byName: map[string]int32{}}
	if g := mcdata.Game(protocol); g != nil {
		v.items = g.Items
	}
	for id, name := range enum.Names {
		if name == "" {
			continue
		}
		t := sw.Case(int64(id))
		if t == nil { // the generator refuses this; a misread stack would follow
			return nil, fmt.Errorf("item: protocol %d: component type %s has no layout", protocol, name)
		}
		for len(v.comps) <= id {
			v.comps = append(v.comps, compType{})
		}
		v.comps[id] = compType{name, t}
		v.byName[name] = int32(id)
	}
	v.hook = v.readNested
	v.pool.New = func() any { return protodef.NewDecoder(nil, v.hook) }
	return v, nil
}

func (v *version) decoder(r *wire.Reader) *protodef.Decoder {
	d := v.pool.Get().(*protodef.Decoder)
	d.Reset(r)
	return d
}

func (v *version) release(d *protodef.Decoder) {
	d.Reset(nil)
	v.pool.Put(d)
}

// ReadSlot reads one clientbound item stack (minecraft-data's Slot: a
// count, and if it is above 0 the item id and the component patch). Errors
// are left on r (check r.Err()), as everywhere in wire: an unknown protocol,
// an unknown component type, a component that does not parse.
func ReadSlot(r *wire.Reader, protocol int32) Stack {
	v, err := versionFor(protocol)
	if err != nil {
		r.Fail(err)
		return Stack{}
	}
	d := v.decoder(r)
	s := v.readStack(d, true, true)
	v.release(d)
	return s
}

// SkipSlot reads past one clientbound item stack without keeping it.
func SkipSlot(r *wire.Reader, protocol int32) {
	v, err := versionFor(protocol)
	if err != nil {
		r.Fail(err)
		return
	}
	d := v.decoder(r)
	v.readStack(d, true, false)
	v.release(d)
}

// ReadSlots reads an array of stacks with a VarInt count, as window_items
// sends them.
func ReadSlots(r *wire.Reader, protocol int32) []Stack {
	v, err := versionFor(protocol)
	if err != nil {
		r.Fail(err)
		return nil
	}
	n := r.Count(1)
	out := make([]Stack, 0, n)
	d := v.decoder(r)
	for i := 0; i < n && r.Err() == nil; i++ {
		out = append(out, v.readStack(d, true, true))
	}
	v.release(d)
	if r.Err() != nil {
		return nil
	}
	return out
}

// readNested is the protodef hook: every Slot (and, at 775,
// ItemStackTemplate) inside a component, a particle or a metadata value is
// framed here, with the game's rules, and becomes a Stack when built.
func (v *version) readNested(d *protodef.Decoder, t *protodef.Type, build bool) (any, bool) {
	var withCount bool
	switch t.Name {
	case "Slot":
		withCount = true
	case "ItemStackTemplate":
	default:
		return nil, false
	}
	if !d.Enter() {
		return nil, true
	}
	s := v.readStack(d, withCount, build)
	d.Leave()
	if !build {
		return nil, true
	}
	return s, true
}

// readStack reads a stack: with withCount the optional form (a count, and
// nothing more if it is ≤ 0, as the game reads it), else the template form
// of 775 (item id, then count). build keeps the components' bytes.
func (v *version) readStack(d *protodef.Decoder, withCount, build bool) Stack {
	r := d.R
	var s Stack
	if withCount {
		s.Count = r.VarInt()
		if s.Count <= 0 || r.Err() != nil {
			return Stack{}
		}
		s.ID = r.VarInt()
	} else {
		s.ID = r.VarInt()
		s.Count = r.VarInt()
	}
	added, removed := r.VarInt(), r.VarInt()
	if r.Err() != nil {
		return Stack{}
	}
	if build && s.ID >= 0 && int(s.ID) < len(v.items) {
		s.Name = v.items[s.ID].Name
	}
	// The game loops "for i < count": a negative count reads nothing.
	added, removed = max(added, 0), max(removed, 0)
	if int(added) > r.Remaining() || int(removed) > r.Remaining()-int(added) {
		r.Failf("item stack with %d components and %d removals does not fit in the %d bytes left", added, removed, r.Remaining())
		return Stack{}
	}
	if added == 0 && removed == 0 {
		return s
	}
	start := r.Pos()
	type span struct {
		id         int32
		start, end int
	}
	var local [8]span
	spans := local[:0]
	for i := int32(0); i < added && r.Err() == nil; i++ {
		id := r.VarInt()
		ct, ok := v.comp(id)
		if !ok {
			r.Failf("unknown item component type %d in protocol %d: the server sent a component this version's layouts lack (a modded server, or minecraft-data needs updating), so the rest of the packet cannot be read", id, v.protocol)
			break
		}
		p := r.Pos()
		d.Skip(ct.t)
		if build {
			spans = append(spans, span{id, p - start, r.Pos() - start})
		}
	}
	var removedIDs [8]int32
	gone := removedIDs[:0]
	for i := int32(0); i < removed && r.Err() == nil; i++ {
		id := r.VarInt()
		if _, ok := v.comp(id); !ok {
			r.Failf("unknown item component type %d removed in protocol %d", id, v.protocol)
			break
		}
		if build {
			gone = append(gone, id)
		}
	}
	if r.Err() != nil || !build {
		return Stack{}
	}
	raw := append([]byte(nil), r.Since(start)...)
	if len(spans) > 0 {
		s.Components = make([]Component, len(spans))
		for i, sp := range spans {
			s.Components[i] = Component{ID: sp.id, Name: v.comps[sp.id].name, Raw: raw[sp.start:sp.end:sp.end], v: v}
		}
	}
	if len(gone) > 0 {
		s.Removed = make([]Component, len(gone))
		for i, id := range gone {
			s.Removed[i] = Component{ID: id, Name: v.comps[id].name, v: v}
		}
	}
	return s
}

func (v *version) comp(id int32) (compType, bool) {
	if id < 0 || int(id) >= len(v.comps) || v.comps[id].name == "" {
		return compType{}, false
	}
	return v.comps[id], true
}

// ComponentNames lists a protocol's component types by id.
func ComponentNames(protocol int32) ([]string, error) {
	v, err := versionFor(protocol)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(v.comps))
	for i, c := range v.comps {
		out[i] = c.name
	}
	return out, nil
}

// ComponentID is a component type's id in a protocol, by name.
func ComponentID(protocol int32, name string) (int32, bool) {
	v, err := versionFor(protocol)
	if err != nil {
		return 0, false
	}
	id, ok := v.byName[name]
	return id, ok
}

// Decode reads the component's value into a generic value (nested stacks
// become Stacks in Value.Ext).
func (c Component) Decode() (protodef.Value, error) {
	if c.v == nil {
		return protodef.Value{}, fmt.Errorf("item: component %s was not read from the wire", c.Name)
	}
	ct, ok := c.v.comp(c.ID)
	if !ok {
		return protodef.Value{}, fmt.Errorf("item: component type %d is unknown in protocol %d", c.ID, c.v.protocol)
	}
	r := wire.NewReader(c.Raw)
	d := c.v.decoder(r)
	val := d.Decode(ct.t)
	c.v.release(d)
	if err := r.Err(); err != nil {
		return protodef.Value{}, fmt.Errorf("item: component %s: %w", c.Name, err)
	}
	if r.Remaining() != 0 {
		return protodef.Value{}, fmt.Errorf("item: component %s: %d bytes left over", c.Name, r.Remaining())
	}
	return val, nil
}

// Component returns the stack's component of that name, as the game sees
// it: the last one sent, and none if the patch also removes it.
func (s Stack) Component(name string) (Component, bool) {
	for _, c := range s.Removed {
		if c.Name == name {
			return Component{}, false
		}
	}
	for i := len(s.Components) - 1; i >= 0; i-- {
		if s.Components[i].Name == name {
			return s.Components[i], true
		}
	}
	return Component{}, false
}

// Has reports whether the stack carries a component of that name.
func (s Stack) Has(name string) bool {
	_, ok := s.Component(name)
	return ok
}

// RemovesDefault reports whether the stack removes the item's default
// component of that name.
func (s Stack) RemovesDefault(name string) bool {
	for _, c := range s.Removed {
		if c.Name == name {
			return true
		}
	}
	return false
}

// Plain is the stack in the shape minecraft-protocol parses a Slot into
// (components decoded), for tests and for showing a stack as JSON.
func (s Stack) Plain() any {
	if s.Empty() {
		return map[string]any{"itemCount": int64(0)}
	}
	comps := make([]any, len(s.Components))
	for i, c := range s.Components {
		val, err := c.Decode()
		var data any
		if err == nil {
			data = val.Plain()
		}
		m := map[string]any{"type": c.Name}
		if data != nil {
			m["data"] = data
		}
		comps[i] = m
	}
	removed := make([]any, len(s.Removed))
	for i, c := range s.Removed {
		removed[i] = map[string]any{"type": c.Name}
	}
	return map[string]any{
		"itemCount": int64(s.Count), "itemId": int64(s.ID),
		"addedComponentCount": int64(len(s.Components)), "removedComponentCount": int64(len(s.Removed)),
		"components": comps, "removeComponents": removed,
	}
}

// DecodeHook returns the protodef hook that reads every item stack nested
// in a value (a metadata item_stack, an item particle, a component) with
// this package's framing; a decoded stack lands in Value.Ext as a Stack.
// Package metadata uses it.
func DecodeHook(protocol int32) (protodef.Hook, error) {
	v, err := versionFor(protocol)
	if err != nil {
		return nil, err
	}
	return v.hook, nil
}
