package mcversion

import (
	"strings"
	"testing"
)

func TestSupported(t *testing.T) {
	for _, p := range []int{767, 768, 769} {
		if !IsSupported(p) {
			t.Errorf("protocol %d should be supported", p)
		}
	}
	if IsSupported(770) || IsSupported(766) {
		t.Error("770 and 766 are not supported")
	}
	if Range() != "1.21 to 1.21.4" || Newest() != "1.21.4" {
		t.Errorf("Range %q Newest %q", Range(), Newest())
	}
}

func TestAdvice(t *testing.T) {
	a := Advice("1.21.11", 774)
	for _, want := range []string{"1.21.11", "1.21 to 1.21.4", "New installation", "release 1.21.4", "Open to LAN"} {
		if !strings.Contains(a, want) {
			t.Errorf("advice %q lacks %q", a, want)
		}
	}
}
