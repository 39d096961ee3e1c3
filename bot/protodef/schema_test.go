package protodef

import (
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// TestEverySchemaParses: every generated schema parses and links, and has
// the types the item and metadata readers start from.
func TestEverySchemaParses(t *testing.T) {
	protocols := mcdata.SchemaProtocols()
	releases := mcdata.Releases()
	if len(protocols) != len(releases) || protocols[0] != 767 || int(protocols[len(protocols)-1]) != releases[len(releases)-1].Protocol {
		t.Fatalf("schemas cover %v, want every release from 767 on (%d releases)", protocols, len(releases))
	}
	for _, p := range protocols {
		s, err := For(p)
		if err != nil {
			t.Fatalf("protocol %d: %v", p, err)
		}
		for _, name := range []string{"Slot", "SlotComponent", "SlotComponentType", "entityMetadataEntry", "Particle"} {
			if s.Type(name) == nil {
				t.Errorf("protocol %d has no %s", p, name)
			}
		}
		if p >= 770 && (s.Type("HashedSlot") == nil || s.Type("UntrustedSlot") == nil) {
			t.Errorf("protocol %d lacks the 1.21.5 stack forms", p)
		}
		if got := s.Type("Slot").MinSize(); got != 1 {
			t.Errorf("protocol %d: a Slot takes at least %d bytes, want 1", p, got)
		}
	}
	if _, err := For(766); err == nil {
		t.Error("protocol 766 has a schema")
	}
}
