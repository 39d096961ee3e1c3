package untrusted

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Each case is an attack (or a text that must survive) as a player or a
// server operator would send it.
var cases = []struct {
	name, in, text, line string
}{
	{"plain ASCII is returned as is", "follow me", "follow me", "follow me"},
	{"CSI colour and clear screen", "\x1b[31mred\x1b[0m \x1b[2J\x1b[Hhome", "red home", "red home"},
	{"CSI with private parameters (hide cursor)", "a\x1b[?25lb", "ab", "ab"},
	{"OSC window title, BEL-terminated", "\x1b]0;pwned\x07hi", "hi", "hi"},
	{"OSC 52 clipboard write, ST-terminated", "\x1b]52;c;cm0gLXJmIH4=\x1b\\hi", "hi", "hi"},
	{"OSC 8 hyperlink keeps only its visible text", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click", "click"},
	{"unterminated OSC swallows the rest, as a terminal would", "ok\x1b]0;title forever", "ok", "ok"},
	{"DCS string", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab", "ab"},
	{"two-byte escapes (save cursor, full reset)", "a\x1b7b\x1bcc", "abc", "abc"},
	{"charset designation ESC ( B", "a\x1b(Bb", "ab", "ab"},
	{"a lone ESC at the end", "bye\x1b", "bye", "bye"},
	{"8-bit CSI (U+009B)", "a\u009b31mb", "ab", "ab"},
	{"8-bit OSC ended by 8-bit ST", "a\u009d0;t\u009cb", "ab", "ab"},
	{"other C1 controls", "a\u0085b\u0084c\u008dd", "a\nbcd", "a bcd"},
	{"carriage return overwrites a line", "I am admin\roperator", "I am admin\noperator", "I am admin operator"},
	{"CR LF is one line break", "one\r\ntwo", "one\ntwo", "one two"},
	{"backspace, bell, NUL, vertical tab, form feed, DEL", "ab\bc\a\x00d\ve\ff\x7fg", "abcdefg", "abcdefg"},
	{"tab and newline", "a\tb\nc", "a\tb\nc", "a b c"},
	{"line and paragraph separators", "a\u2028b\u2029c", "a\nb\nc", "a b c"},
	{"bidi override (Trojan Source)", "user\u202Egnp.exe", "usergnp.exe", "usergnp.exe"},
	{"bidi embeddings and pop", "\u202Aa\u202Bb\u202Cc\u202Dd", "abcd", "abcd"},
	{"bidi isolates", "\u2066a\u2067b\u2068c\u2069", "abc", "abc"},
	{"bidi marks LRM, RLM, ALM", "a\u200Eb\u200Fc\u061Cd", "abcd", "abcd"},
	{"zero-width space splitting a name", "Edu\u200Bard", "Eduard", "Eduard"},
	{"word joiner, BOM, soft hyphen", "\uFEFFa\u2060b\u00ADc", "abc", "abc"},
	{"tag characters smuggling ASCII", "hi\U000E0001\U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065\U000E007F", "hi", "hi"},
	{"Hangul fillers make a blank name", "\u3164\u115F\u1160\uFFA0", "", ""},
	{"variation selector supplement carries hidden bytes", "a\U000E0100\U000E0150b", "ab", "ab"},
	{"variation selectors other than text/emoji presentation", "a\uFE00b\uFE0Dc", "abc", "abc"},
	{"emoji presentation selector after a character is kept", "\u2764\uFE0F", "\u2764\uFE0F", "\u2764\uFE0F"},
	{"a run of selectors keeps the first", "\u2764\uFE0F\uFE0F\uFE0E", "\u2764\uFE0F", "\u2764\uFE0F"},
	{"a selector with nothing before it", "\uFE0Fa", "a", "a"},
	{"ZWJ emoji family survives", "👨\u200D👩\u200D👧", "👨\u200D👩\u200D👧", "👨\u200D👩\u200D👧"},
	{"ZWJ after a presentation selector survives (heart on fire)", "\u2764\uFE0F\u200D🔥", "\u2764\uFE0F\u200D🔥", "\u2764\uFE0F\u200D🔥"},
	{"ZWNJ in Persian survives", "می\u200Cخواهم", "می\u200Cخواهم", "می\u200Cخواهم"},
	{"a run of joiners keeps one", "a\u200D\u200C\u200D\u200Cb", "a\u200Db", "a\u200Db"},
	{"a joiner at the start goes", "\u200Da", "a", "a"},
	{"noncharacters", "a\uFFFEb\uFDD0c\U0010FFFFd", "abcd", "abcd"},
	{"invalid UTF-8 becomes U+FFFD", "a\xffb\xc3", "a\uFFFDb\uFFFD", "a\uFFFDb\uFFFD"},
	{"accents and other scripts are kept", "Ça va, 世界, Ελλάδα, é", "Ça va, 世界, Ελλάδα, é", "Ça va, 世界, Ελλάδα, é"},
	{"formatting codes and private use are kept", "§aGreen \uE000", "§aGreen \uE000", "§aGreen \uE000"},
}

func TestRules(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Text(tc.in); got != tc.text {
				t.Errorf("Text(%+q) = %+q, want %+q", tc.in, got, tc.text)
			}
			if got := Line(tc.in); got != tc.line {
				t.Errorf("Line(%+q) = %+q, want %+q", tc.in, got, tc.line)
			}
		})
	}
}

func TestCombiningMarksAreCapped(t *testing.T) {
	zalgo := "a" + strings.Repeat("\u0301", 200) + "b" + strings.Repeat("\u0300", 5)
	got := Text(zalgo)
	want := "a" + strings.Repeat("\u0301", MaxCombiningMarks) + "b" + strings.Repeat("\u0300", 5)
	if got != want {
		t.Errorf("Text(a + 200 marks + b + 5 marks) kept %d runes, want %d", utf8.RuneCountInString(got), utf8.RuneCountInString(want))
	}
	// Selectors and dropped characters in between do not start a new
	// base character.
	sneaky := "a" + strings.Repeat("\u0301", 30) + "\u200B\uFE0F" + strings.Repeat("\u0301", 30)
	if got := Text(sneaky); strings.Count(got, "\u0301") != MaxCombiningMarks {
		t.Errorf("marks split by invisible characters: kept %d, want %d", strings.Count(got, "\u0301"), MaxCombiningMarks)
	}
}

func TestPlainTextIsNotCopied(t *testing.T) {
	s := "Eduard - Survival"
	if allocs := testing.AllocsPerRun(100, func() { _ = Line(s) }); allocs != 0 {
		t.Errorf("Line of printable ASCII allocated %v times", allocs)
	}
}

// forbiddenIn reports the first rune out of place in a cleaned string,
// checked here independently of the implementation's own switch.
func forbiddenIn(s string, oneLine bool) (rune, bool) {
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			if oneLine {
				return r, true
			}
		case r < 0x20, r >= 0x7f && r < 0xa0, r == 0x2028, r == 0x2029:
			return r, true
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return r, true
		case r == 0x200b, r == 0x2060, r == 0xfeff, r >= 0xe0000 && r <= 0xe007f, r >= 0xe0100 && r <= 0xe01ef:
			return r, true
		case r == 0x3164, r == 0x115f, r == 0x1160, r == 0xffa0:
			return r, true
		case unicode.Is(unicode.Cf, r) && r != 0x200c && r != 0x200d:
			return r, true
		}
	}
	return 0, false
}

func FuzzClean(f *testing.F) {
	for _, tc := range cases {
		f.Add(tc.in)
	}
	f.Add("a" + strings.Repeat("\u0301", 40))
	f.Add("\x1b[\x1b]\x1bP\u009b\u009d")
	f.Fuzz(func(t *testing.T, in string) {
		for _, mode := range []struct {
			name    string
			clean   func(string) string
			oneLine bool
		}{{"Text", Text, false}, {"Line", Line, true}} {
			out := mode.clean(in)
			if !utf8.ValidString(out) {
				t.Fatalf("%s(%+q) = %+q is not UTF-8", mode.name, in, out)
			}
			if r, bad := forbiddenIn(out, mode.oneLine); bad {
				t.Fatalf("%s(%+q) = %+q keeps U+%04X", mode.name, in, out, r)
			}
			if again := mode.clean(out); again != out {
				t.Fatalf("%s is not idempotent: %+q → %+q → %+q", mode.name, in, out, again)
			}
			// Only invalid bytes grow (one byte becomes U+FFFD's three).
			if len(out) > 3*len(in) {
				t.Fatalf("%s(%d bytes) = %d bytes", mode.name, len(in), len(out))
			}
			run := 0
			for _, r := range out {
				switch {
				case unicode.In(r, unicode.Mn, unicode.Me):
					run++
					if run > MaxCombiningMarks {
						t.Fatalf("%s(%+q) keeps a run of more than %d combining marks", mode.name, in, MaxCombiningMarks)
					}
				case r == 0x200c || r == 0x200d || r == 0xfe0e || r == 0xfe0f:
				default:
					run = 0
				}
			}
			for _, pair := range []string{"\u200d\u200d", "\u200c\u200c", "\u200d\u200c", "\u200c\u200d", "\ufe0f\ufe0f", "\ufe0e\ufe0e", "\ufe0e\ufe0f", "\ufe0f\ufe0e"} {
				if strings.Contains(out, pair) {
					t.Fatalf("%s(%+q) = %+q keeps a run of invisible characters", mode.name, in, out)
				}
			}
		}
	})
}

// TestShort: a MOTD's cleaning (it was lan's StripFormatting).
func TestShort(t *testing.T) {
	for in, want := range map[string]string{
		"§aHello §lWorld§r":  "Hello World",
		"trailing §":         "trailing",
		"\x1b[31mred\x1b[0m": "red",
		"  two\n  lines  ":   "two lines",
		"bad \xff utf8":      "bad \uFFFD utf8",
		// The bidi controls the issue found kept in MOTDs.
		"\u202eEduard\u200f - \u2066Survival\u2069": "Eduard - Survival",
		strings.Repeat("x", 1000):                   strings.Repeat("x", 256),
	} {
		if got := Short(in, 256); got != want {
			t.Errorf("Short(%q, 256) = %q, want %q", in, got, want)
		}
	}
}
