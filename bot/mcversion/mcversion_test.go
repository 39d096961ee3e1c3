package mcversion

import (
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// TestSupported: the supported releases are the generated release list,
// every one of them, and nothing else.
func TestSupported(t *testing.T) {
	releases := mcdata.Releases()
	for _, r := range releases {
		if got, ok := Lookup(r.Protocol); !ok || strings.Join(got.Names, ",") != strings.Join(r.Names, ",") {
			t.Errorf("protocol %d (%v) is not supported as the tables have it: %+v %v", r.Protocol, r.Names, got, ok)
		}
	}
	if len(Supported()) != len(releases) {
		t.Errorf("%d supported releases, the tables have %d", len(Supported()), len(releases))
	}
	first, last := releases[0], releases[len(releases)-1]
	if IsSupported(first.Protocol-1) || IsSupported(last.Protocol+1) {
		t.Error("a protocol outside the tables is supported")
	}
	wantRange := first.Names[0] + " to " + last.Names[len(last.Names)-1]
	if Range() != wantRange || Newest() != last.Names[len(last.Names)-1] || Oldest() != first.Names[0] {
		t.Errorf("Range %q Newest %q Oldest %q", Range(), Newest(), Oldest())
	}
	// The pinned data covers 1.21 to 26.1.2 and the generator emits 26.2
	// from public facts; a newer pin may go further, never back.
	for _, name := range []string{"1.21", "1.21.4", "1.21.5", "1.21.8", "1.21.10", "1.21.11", "26.1", "26.1.2", "26.2"} {
		found := false
		for _, r := range Supported() {
			for _, n := range r.Names {
				found = found || n == name
			}
		}
		if !found {
			t.Errorf("%s is not supported", name)
		}
	}
}

// TestAdvice: a newer world (26.4) and an older one (1.20.4) each get the
// version they run, the versions blockmate joins, the launcher steps for
// the newest, a new world to play in, and a backup before any other step
// on the world; never "open your world" in an older version as the way to
// go.
func TestAdvice(t *testing.T) {
	newest := Newest()
	newer := Advice("26.4", 778)
	for _, want := range []string{"26.4", "newer", Range(), "New installation", "release " + newest, "new world", "Open to LAN",
		"Do not open this world in " + newest, "corrupt", "back the world up first", "check for an update"} {
		if !strings.Contains(newer, want) {
			t.Errorf("advice for 26.4 lacks %q:\n%s", want, newer)
		}
	}
	// The backup comes before the only sentence that mentions trying the
	// world in the older version.
	if i, j := strings.Index(newer, "try anyway"), strings.Index(newer, "back the world up"); i < 0 || j < i {
		t.Errorf("advice for 26.4 does not say to back up before trying:\n%s", newer)
	}
	for _, bad := range []string{"open your world", "open the same world", "Open your world"} {
		if strings.Contains(newer, bad) {
			t.Errorf("advice for a newer world says %q:\n%s", bad, newer)
		}
	}
	older := Advice("1.20.4", 765)
	for _, want := range []string{"1.20.4", "older", Range(), "New installation", "release " + newest, "new world", "back the world up first", "no way back"} {
		if !strings.Contains(older, want) {
			t.Errorf("advice for 1.20.4 lacks %q:\n%s", want, older)
		}
	}
	if i, j := strings.Index(older, "back the world up"), strings.Index(older, "then open it"); i < 0 || j < i {
		t.Errorf("advice for 1.20.4 opens the world before backing it up:\n%s", older)
	}
	if a := Advice("", 800); !strings.Contains(a, "protocol 800") {
		t.Errorf("advice without a name: %s", a)
	}
}

func TestLookupName(t *testing.T) {
	if r, ok := LookupName("1.21.10"); !ok || r.Protocol != 773 {
		t.Errorf("1.21.10 = %+v %v, want protocol 773", r, ok)
	}
	if r, ok := LookupName("26.2"); !ok || r.Protocol != 776 {
		t.Errorf("26.2 = %+v %v, want protocol 776", r, ok)
	}
	if r, ok := LookupName("26.3"); !ok || r.Protocol != 777 {
		t.Errorf("26.3 = %+v %v, want protocol 777", r, ok)
	}
	if _, ok := LookupName("26.4"); ok {
		t.Error("26.4 is not supported")
	}
}
