package tools

import (
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot"

	"github.com/blockmate/blockmate/protocol"
)

// TestWalkOptInsAreInTheCatalog: mc_goto, mc_goto_player and mc_follow
// take dig and bridge as booleans, off unless given; a value of another
// type is refused by the catalog before the tool runs.
func TestWalkOptInsAreInTheCatalog(t *testing.T) {
	c := protocol.NewCatalog()
	d := protocol.NewDispatcher(c, protocol.NewBus(nil), nil)
	Register(c, bot.NewClient(nil, nil, d, bot.Options{}), d)
	for _, name := range []string{"mc_goto", "mc_goto_player", "mc_follow"} {
		tool, ok := c.Lookup(name)
		if !ok {
			t.Fatalf("%s is not in the catalog", name)
		}
		for _, opt := range []string{"dig", "bridge"} {
			found := false
			for _, a := range tool.Args {
				if a.Name == opt {
					found = true
					if a.Kind != protocol.KindBoolean || a.Required || a.Default != false {
						t.Errorf("%s %s: %+v, want an optional boolean defaulting to false", name, opt, a)
					}
				}
			}
			if !found {
				t.Errorf("%s has no %s argument", name, opt)
			}
		}
	}
	if r := call(t, d, "mc_goto", `{"x":1,"y":64,"z":1,"dig":"yes"}`); r.OK || !strings.Contains(r.Error, "dig") {
		t.Errorf("mc_goto with dig \"yes\": %+v", r)
	}
	if r := call(t, d, "mc_goto", `{"x":1,"y":64,"z":1,"bridge":1}`); r.OK || !strings.Contains(r.Error, "bridge") {
		t.Errorf("mc_goto with bridge 1: %+v", r)
	}
	// Well-typed, the call reaches the tool, which needs a world.
	if r := call(t, d, "mc_goto", `{"x":1,"y":64,"z":1,"dig":true,"bridge":false}`); r.OK || r.Error != bot.ErrNotConnected.Error() {
		t.Errorf("mc_goto with dig true and no world: %+v", r)
	}
	tool, _ := c.Lookup("mc_goto")
	if !strings.Contains(tool.Description, "dig=true") || !strings.Contains(tool.Description, "bridge=true") {
		t.Errorf("mc_goto's description does not tell of dig and bridge: %q", tool.Description)
	}
}
