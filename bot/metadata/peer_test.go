package metadata_test

import (
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/metadata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/mdtest"
)

// TestMetadataMatchesMinecraftProtocol decodes, for every protocol,
// metadata lists minecraft-protocol serialized: every value type in three
// variants, and one list with every type in a row (each value must end
// exactly where the next entry starts). Each must read to its end marker
// and agree field by field with minecraft-protocol's parse. Vectors of a
// corrected type (C5, optional_global_pos before 1.21.9) are left to
// TestCorrections, which has the game's bytes.
func TestMetadataMatchesMinecraftProtocol(t *testing.T) {
	vectors := mdtest.Load(t, "metadata")
	covered := map[int32]map[string]bool{}
	for _, v := range vectors {
		if len(v.Touched) > 0 {
			continue
		}
		if v.Error != "" {
			t.Errorf("%v: minecraft-protocol could not write it: %s", v, v.Error)
			continue
		}
		r := wire.NewReader(v.Bytes())
		entries := metadata.Read(r, v.Protocol)
		if r.Err() != nil || r.Remaining() != 0 {
			t.Errorf("%v: %v, %d bytes left\n%s", v, r.Err(), r.Remaining(), v.Hex)
			continue
		}
		got := make([]any, len(entries))
		for i, e := range entries {
			got[i] = e.Plain()
			if covered[v.Protocol] == nil {
				covered[v.Protocol] = map[string]bool{}
			}
			covered[v.Protocol][e.Type] = true
		}
		if d := mdtest.Compare(got, v.Parsed); d != "" {
			t.Errorf("%v: %s\n%s", v, d, v.Hex)
		}
	}
	for _, p := range mcdata.SchemaProtocols() {
		names, err := metadata.TypeNames(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if !covered[p][n] && !(n == "optional_global_pos" && p <= 772) {
				t.Errorf("protocol %d: no vector decoded metadata type %s", p, n)
			}
		}
		t.Logf("protocol %d: %d metadata types agree with minecraft-protocol", p, len(covered[p]))
	}
}
