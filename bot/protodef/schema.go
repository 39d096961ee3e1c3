package protodef

import (
	"fmt"
	"sync"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Schema is one protocol's types, parsed from mcdata.Schema.
type Schema struct {
	Protocol int32
	types    map[string]*Type
}

// Type returns a named type ("Slot", "SlotComponent", "entityMetadataEntry",
// "Particle", "SlotComponent.food" …), or nil if the version has none.
func (s *Schema) Type(name string) *Type { return s.types[name] }

// Names lists the schema's named types (in no particular order).
func (s *Schema) Names() []string {
	out := make([]string, 0, len(s.types))
	for n := range s.types {
		out = append(out, n)
	}
	return out
}

type lazySchema struct {
	once   sync.Once
	schema *Schema
	err    error
}

var schemas = func() map[int32]*lazySchema {
	m := map[int32]*lazySchema{}
	for _, p := range mcdata.SchemaProtocols() {
		m[p] = &lazySchema{}
	}
	return m
}()

// For returns a protocol's schema, parsed on first use. The error names the
// protocols there are schemas for.
func For(protocol int32) (*Schema, error) {
	l, ok := schemas[protocol]
	if !ok {
		return nil, fmt.Errorf("%w: %d (schemas cover %v)", ErrNoSchema, protocol, mcdata.SchemaProtocols())
	}
	l.once.Do(func() {
		defs := map[string]string{}
		for _, t := range mcdata.Schema(protocol) {
			defs[t.Name] = t.Def
		}
		types, err := Parse(defs)
		if err != nil {
			l.err = fmt.Errorf("protocol %d: %w", protocol, err)
			return
		}
		l.schema = &Schema{Protocol: protocol, types: types}
	})
	return l.schema, l.err
}
