package mcdata

import "testing"

// TestSchemasCoverReleases: every protocol the packet tables cover has item
// and metadata schemas, so no supported version lacks a slot decoder.
func TestSchemasCoverReleases(t *testing.T) {
	for _, r := range Releases() {
		if len(Schema(int32(r.Protocol))) == 0 {
			t.Errorf("protocol %d (%v) has no schema", r.Protocol, r.Names)
		}
	}
	// The schemas come from the one release list, like the packet tables.
	if got := SchemaProtocols(); len(got) != len(Releases()) {
		t.Errorf("schemas cover %v, the release list has %d releases", got, len(Releases()))
	}
	for _, p := range SchemaProtocols() {
		names := map[string]bool{}
		for _, st := range Schema(p) {
			names[st.Name] = true
		}
		for _, want := range []string{"Slot", "SlotComponent", "SlotComponentType", "entityMetadataEntry", "Particle"} {
			if !names[want] {
				t.Errorf("protocol %d: schema lacks %s", p, want)
			}
		}
	}
}
