package lan

import (
	"errors"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/ping"
)

func TestParseAnnouncement(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Announcement
	}{
		{"[MOTD]Eduard - Survival[/MOTD][AD]51234[/AD]", Announcement{MOTD: "Eduard - Survival", Port: 51234}},
		{"[MOTD]§6Eduard§r - §lNew World[/MOTD][AD]25565[/AD]", Announcement{MOTD: "Eduard - New World", Port: 25565}},
		{"[MOTD]x[/MOTD][AD]192.168.1.20:40000[/AD]", Announcement{MOTD: "x", Host: "192.168.1.20", Port: 40000}},
		{"[MOTD]x[/MOTD][AD]my-pc.local:40000[/AD]", Announcement{MOTD: "x", Host: "my-pc.local", Port: 40000}},
		{"[MOTD]x[/MOTD][AD][fe80::1]:40000[/AD]", Announcement{MOTD: "x", Host: "fe80::1", Port: 40000}},
		{"[MOTD]x[/MOTD][AD]0.0.0.0:40000[/AD]", Announcement{MOTD: "x", Port: 40000}},
		{"[AD]40000[/AD]", Announcement{Port: 40000}},
		{"[AD] 40000 [/AD][MOTD]after[/MOTD]", Announcement{MOTD: "after", Port: 40000}},
		{"[MOTD]line\none\x07[/MOTD][AD]1[/AD]", Announcement{MOTD: "line one", Port: 1}},
		{"[MOTD][AD]1[/AD][/MOTD][AD]2[/AD]", Announcement{MOTD: "[AD]1[/AD]", Port: 1}},
		// Bidi controls reorder what a reader sees; an escape sequence
		// recolours the console: both go, whole.
		{"[MOTD]\u202eEduard\u200f \u2066World\u2069 \x1b[31mred\x1b[0m[/MOTD][AD]1[/AD]", Announcement{MOTD: "Eduard World red", Port: 1}},
	} {
		got, err := ParseAnnouncement([]byte(tc.in))
		if err != nil {
			t.Errorf("ParseAnnouncement(%q): %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("ParseAnnouncement(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestParseAnnouncementRejects(t *testing.T) {
	for in, why := range map[string]string{
		"":                            "no [AD]",
		"[MOTD]x[/MOTD]":              "no [AD]",
		"[MOTD]x[/MOTD][AD]51234":     "no [AD]",
		"[AD]0[/AD]":                  "between 1 and 65535",
		"[AD]65536[/AD]":              "between 1 and 65535",
		"[AD]-5[/AD]":                 "between 1 and 65535",
		"[AD]port[/AD]":               "between 1 and 65535",
		"[AD]a:b:c[/AD]":              "not host:port",
		"[AD]evil host;rm:25565[/AD]": "not an IP address or host name",
		"[AD]" + strings.Repeat("a.", 200) + "b:1[/AD]": "not an IP address or host name",
		strings.Repeat("x", MaxDatagram+1):              "more than the 1024",
	} {
		_, err := ParseAnnouncement([]byte(in))
		if err == nil || !errors.Is(err, ErrNotAnnouncement) || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseAnnouncement(%.40q) err = %v, want %q", in, err, why)
		}
	}
}

func TestFormatAnnouncementRoundTrip(t *testing.T) {
	a, err := ParseAnnouncement(FormatAnnouncement("A world", "12345"))
	if err != nil || a != (Announcement{MOTD: "A world", Port: 12345}) {
		t.Fatalf("round trip = %+v, %v", a, err)
	}
}

func FuzzParseAnnouncement(f *testing.F) {
	f.Add([]byte("[MOTD]Eduard - Survival[/MOTD][AD]51234[/AD]"))
	f.Add([]byte("[MOTD]§6x§[/MOTD][AD]10.0.0.1:25565[/AD]"))
	f.Add([]byte("[MOTD]x[/MOTD][AD][::1]:1[/AD]"))
	f.Add([]byte("[AD][/AD][MOTD]"))
	f.Add([]byte("\xff\xfe[AD]99999999999999999999[/AD]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := ParseAnnouncement(b)
		if err != nil {
			if !errors.Is(err, ErrNotAnnouncement) {
				t.Fatalf("error does not wrap ErrNotAnnouncement: %v", err)
			}
			return
		}
		if a.Port < 1 || a.Port > 65535 {
			t.Fatalf("port %d accepted", a.Port)
		}
		if a.Host != "" && !validHost(a.Host) {
			t.Fatalf("host %q accepted", a.Host)
		}
		if len([]rune(a.MOTD)) > ping.MaxMOTD || strings.ContainsAny(a.MOTD, "§\n\r\x1b") {
			t.Fatalf("MOTD not cleaned: %q", a.MOTD)
		}
	})
}
