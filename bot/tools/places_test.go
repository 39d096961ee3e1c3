package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/places"
)

// TestPlacesSurviveARestart: "remember this as home" in a world, then a
// new client and tools on the same config directory (blockmate
// restarted) join the same world (same host and name, another port) and
// find home, which mc_map marks for the console; mc_goto with an unknown place says what to do; a corrupt
// places file is refused with the sentence and kept aside.
func TestPlacesSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	first := newScriptedWorld(t, 769, nil, nil)
	first.t.SetPlacesDir(dir)
	r := callN(t, first.d, "mc_remember_place", `{"name":"home\u202e"}`)
	if !r.OK || !strings.HasPrefix(string(r.Result), `{"remembered":true,"name":"home","position":{"x":0,"y":64,"z":0}`) {
		t.Fatalf("mc_remember_place = %s %s", r.Result, r.Error)
	}
	if r := callN(t, first.d, "mc_remember_place", `{"name":"mine","x":5,"y":12}`); r.OK || !strings.Contains(r.Error, "all of x, y and z") {
		t.Errorf("a partial position: %+v", r)
	}

	again := newScriptedWorld(t, 769, nil, nil)
	again.t.SetPlacesDir(dir)
	var list struct {
		Count  int           `json:"count"`
		Places []placeResult `json:"places"`
	}
	r = callN(t, again.d, "mc_list_places", "")
	if err := json.Unmarshal(r.Result, &list); err != nil || list.Count != 1 || list.Places[0].Name != "home" || list.Places[0].Position != (Vec3{Y: 64}) {
		t.Fatalf("after a restart: %s %s", r.Result, r.Error)
	}
	if r := callN(t, again.d, "mc_map", `{"radius":4}`); !r.OK || !strings.Contains(string(r.Result), `"places":[{"name":"home","dx":0,"dz":0,"dy":0}]`) {
		t.Errorf("mc_map does not mark home: %s %s", r.Result, r.Error)
	}
	if r := callN(t, again.d, "mc_goto", `{"place":"attic"}`); r.OK || !strings.Contains(r.Error, `no place called "attic"`) {
		t.Errorf("mc_goto to an unknown place: %+v", r)
	}
	if r := callN(t, again.d, "mc_goto", `{"place":"home","x":1,"y":2,"z":3}`); r.OK || !strings.Contains(r.Error, "not both") {
		t.Errorf("mc_goto with place and x y z: %+v", r)
	}
	if r := callN(t, again.d, "mc_forget_place", `{"name":"HOME"}`); !r.OK || string(r.Result) != `{"forgotten":true}` {
		t.Errorf("mc_forget_place = %s %s", r.Result, r.Error)
	}

	if err := os.WriteFile(filepath.Join(dir, places.FileName), []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = callN(t, again.d, "mc_list_places", "")
	if r.OK || !strings.Contains(r.Error, "kept aside as") {
		t.Errorf("a corrupt file: %+v", r)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, places.FileName+".corrupt-*"))
	if len(kept) != 1 {
		t.Errorf("kept aside: %v", kept)
	}
}
