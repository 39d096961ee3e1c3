// Package untrusted makes text other people wrote (chat, player names, a
// server's MOTD or kick message) safe to show in a terminal, write to a log
// or hand to a language model. It is the one sanitiser blockmate has: the
// bot's chat, the LAN MOTDs and the console all call it, so a rule added
// here holds everywhere.
//
// The rules, and what each one stops:
//
//   - Escape sequences are removed whole, not just their ESC: CSI (ESC [ …
//     final, or the 8-bit U+009B), OSC (ESC ], U+009D: window titles,
//     hyperlinks, clipboard writes with OSC 52), DCS, SOS, PM and APC strings
//     up to their terminator (BEL, ESC \ or U+009C; to the end of the text
//     when unterminated, which is what a terminal would swallow too), and
//     two- and three-byte escapes (ESC 7, ESC c, ESC ( B). A player could
//     otherwise recolour or clear the console, move the cursor to fake a
//     line of output, retitle the window or write to the clipboard.
//   - C0 controls (U+0000–U+001F) and DEL (U+007F) are removed, except tab
//     and line feed where line breaks are kept (Text). Carriage return,
//     backspace, vertical tab and form feed overwrite or erase what is
//     already on screen; NUL ends strings in C programs a log may reach.
//   - C1 controls (U+0080–U+009F) are removed: several terminals treat
//     them as the 8-bit forms of ESC [ and friends.
//   - Line breaks other than LF — CR LF, a lone CR, NEL (U+0085), LINE
//     SEPARATOR (U+2028), PARAGRAPH SEPARATOR (U+2029) — become LF in Text
//     and a space in Line, so no one can start a new, forged line where the
//     reader expects one line.
//   - Bidirectional controls are removed: the embeddings and overrides
//     U+202A–U+202E, the isolates U+2066–U+2069, and the marks U+200E
//     (LRM), U+200F (RLM) and U+061C (ALM). They make text display in an
//     order other than the one it is read or processed in ("Trojan Source",
//     CVE-2021-42574): a name can look like another, a message can show
//     words a model never sees, or hide words a person never sees.
//   - Other invisible characters are removed: every other format character
//     (Unicode category Cf: zero-width space U+200B, word joiner U+2060,
//     the byte-order mark U+FEFF, soft hyphen U+00AD, interlinear
//     annotation U+FFF9–U+FFFB, …), the tag characters U+E0000–U+E007F
//     (invisible copies of ASCII, used to smuggle instructions to language
//     models), the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0 (blank
//     "letters" used for invisible names), and the rest of Unicode's
//     default-ignorable characters. Each lets a person hide text from one
//     reader and show it to another, or make two names look the same.
//   - Three invisible characters that real text needs are kept where they
//     do their job: ZERO WIDTH NON-JOINER (U+200C, Persian and Indic
//     scripts), ZERO WIDTH JOINER (U+200D, emoji sequences such as 👨‍👩‍👧) and
//     the text and emoji presentation selectors (U+FE0E, U+FE0F). A
//     selector is kept only right after a visible character, a joiner only
//     after a visible character or a selector, never two of a kind in a
//     row: that is every place they mean something, and it leaves no room
//     for a run of invisible characters carrying a hidden message. Other
//     variation selectors (U+FE00–U+FE0D, U+E0100–U+E01EF) are removed; one
//     of the supplement's 240 selectors after each letter would carry a
//     hidden byte.
//   - At most 30 combining marks follow one base character (the limit of
//     Unicode's Stream-Safe Text Format, UAX #15): more only pile up
//     ("Zalgo" text) over the lines around them.
//   - Noncharacters (U+FDD0–U+FDEF and the last two code points of every
//     plane) are removed: they are for a program's internal use, and U+FFFE
//     reads as a byte-swapped byte-order mark.
//   - Bytes that are not UTF-8 become U+FFFD, so the result is always valid
//     UTF-8 and a JSON encoder or terminal has nothing left to guess.
//
// Everything else, including § formatting codes, private-use characters and
// unassigned code points, is kept: it shows as what it is and acts on
// nothing. Length is the caller's business (a MOTD is capped where it is
// parsed). Cleaning is idempotent: cleaning clean text changes nothing.
package untrusted

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxCombiningMarks is how many combining marks may follow one base
// character: Unicode's Stream-Safe Text Format limit (UAX #15).
const MaxCombiningMarks = 30

// Text cleans s and keeps its line breaks (as LF) and tabs: for text that is
// passed on as data, such as a chat line or a kick message in a JSON result.
func Text(s string) string { return clean(s, false) }

// Line cleans s onto one line: line breaks and tabs become spaces. For a row
// in a terminal, a list entry, a MOTD.
func Line(s string) string { return clean(s, true) }

// IsClean reports whether Text would return s unchanged.
func IsClean(s string) bool { return Text(s) == s }

// plain reports whether s is printable ASCII (with tab and LF unless
// oneLine), the common case, which needs no work and no allocation.
func plain(s string, oneLine bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if !oneLine && (c == '\n' || c == '\t') {
			continue
		}
		return false
	}
	return true
}

// last is what the previous character written was, for the rules that
// depend on it.
type last int

const (
	lastNone     last = iota // nothing yet, or a line break
	lastVisible              // a character that shows (a mark counts)
	lastJoiner               // U+200C or U+200D
	lastSelector             // U+FE0E or U+FE0F
)

func clean(s string, oneLine bool) string {
	if plain(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	prev := lastNone
	marks := 0 // combining marks written since the last base character
	newline := func() {
		if oneLine {
			b.WriteByte(' ')
		} else {
			b.WriteByte('\n')
		}
		prev, marks = lastNone, 0
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// A byte that is not UTF-8.
			b.WriteRune(utf8.RuneError)
			prev, marks = lastVisible, 0
			i++
			continue
		}
		next := i + size
		switch {
		case r == 0x1b:
			i = skipEscape(s, next)
			continue
		case r == 0x9b: // 8-bit CSI
			i = skipCSI(s, next)
			continue
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // 8-bit OSC, DCS, SOS, PM, APC
			i = skipString(s, next)
			continue
		case r == '\r':
			if next < len(s) && s[next] == '\n' {
				next++
			}
			newline()
		case r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029:
			newline()
		case r == '\t':
			if oneLine {
				b.WriteByte(' ')
			} else {
				b.WriteByte('\t')
			}
			prev, marks = lastNone, 0
		case r < 0x20 || (r >= 0x7f && r < 0xa0):
			// C0 and C1 controls, DEL: dropped.
		case r == 0x200c || r == 0x200d:
			if prev == lastVisible || prev == lastSelector {
				b.WriteRune(r)
				prev = lastJoiner
			}
		case r == 0xfe0e || r == 0xfe0f:
			if prev == lastVisible {
				b.WriteRune(r)
				prev = lastSelector
			}
		case invisible(r), noncharacter(r):
			// dropped
		case unicode.In(r, unicode.Mn, unicode.Me):
			if marks < MaxCombiningMarks {
				b.WriteRune(r)
				marks++
				prev = lastVisible
			}
		default:
			b.WriteRune(r)
			prev, marks = lastVisible, 0
		}
		i = next
	}
	return b.String()
}

// invisible reports whether r is a format or other default-ignorable
// character: bidi controls, zero-width characters, tags, fillers, variation
// selectors. The few that real text needs are handled before this is asked.
func invisible(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector) ||
		(r >= 0xe0000 && r <= 0xe007f)
}

// noncharacter reports whether r is one of Unicode's 66 noncharacters.
func noncharacter(r rune) bool {
	return (r >= 0xfdd0 && r <= 0xfdef) || r&0xfffe == 0xfffe
}

// skipEscape returns the index after the escape sequence whose ESC ends just
// before i.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch c := s[i]; {
	case c == '[':
		return skipCSI(s, i+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return skipString(s, i+1)
	case c >= 0x20 && c <= 0x2f:
		// Intermediate bytes, then one final byte (ESC ( B).
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			i++
		}
		return i
	case c >= 0x30 && c <= 0x7e:
		return i + 1 // ESC 7, ESC c, ESC M …
	}
	return i // a lone ESC: only it goes
}

// skipCSI returns the index after a control sequence whose introducer ends
// just before i: parameter bytes, intermediate bytes, one final byte.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
		i++
	}
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString returns the index after a control string (OSC, DCS, SOS, PM,
// APC) whose introducer ends just before i: up to and including BEL, ESC \
// or U+009C, or the end of s.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c: // U+009C in UTF-8
			return i + 2
		}
		i++
	}
	return i
}

// Short makes a short label someone else wrote (a world's MOTD, the version
// name a server reports) fit to show on one line: Line's cleaning, then the
// game's § formatting codes (colour and style: "§a", "§l", "§r" …) go, runs
// of spaces become one, and the result is trimmed and capped at max runes.
// The character after a § is always part of the code, whatever it is,
// which is how the game renders it too.
func Short(s string, max int) string {
	s = Line(s)
	var b strings.Builder
	b.Grow(len(s))
	skip := false
	for _, r := range s {
		switch {
		case skip:
			skip = false
		case r == '§':
			skip = true
		default:
			b.WriteRune(r)
		}
	}
	s = strings.Join(strings.Fields(b.String()), " ")
	i := 0
	for pos := range s {
		if i == max {
			return s[:pos]
		}
		i++
	}
	return s
}
