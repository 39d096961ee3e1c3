package rules

import (
	"encoding/json"
	"testing"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/mcversion"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// newest is the release the practice server speaks: the newest the bot
// joins, from the one version list.
func newest(t testing.TB) (mcversion.Release, *mcdata.GameData) {
	t.Helper()
	all := mcversion.Supported()
	r := all[len(all)-1]
	g := mcdata.Game(int32(r.Protocol))
	if g == nil {
		t.Fatalf("no game data for protocol %d", r.Protocol)
	}
	return r, g
}

// st is a stack of n of the named item.
func st(t testing.TB, g *mcdata.GameData, name string, n int) item.Stack {
	t.Helper()
	it := g.ItemByName(name)
	if it == nil {
		t.Fatalf("no item %q", name)
	}
	return stackOf(g, it.ID, n)
}

// runNode runs rulesref.js and decodes its JSON lines into out's
// element type.
func runNode[T any](t *testing.T, args ...string) []T {
	t.Helper()
	raw := peertest.RunNode(t, "rulesref.js", args...)
	var out []T
	dec := json.NewDecoder(bytesReader(raw))
	for dec.More() {
		var v T
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("rulesref.js %v wrote something that is not JSON: %v", args[0], err)
		}
		out = append(out, v)
	}
	return out
}
