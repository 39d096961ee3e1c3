package lan

import (
	"encoding/json"
	"strings"
	"unicode"
)

// maxMOTD bounds a MOTD after cleaning, in runes. The game shows two short
// lines; anything longer is someone padding a datagram.
const maxMOTD = 256

// StripFormatting removes the game's § formatting codes (colour and style:
// "§a", "§l", "§r", …) and control characters from s, and trims it. The
// character after a § is always part of the code, whatever it is, which is
// how the game renders it too.
func StripFormatting(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	skip := false
	for _, r := range s {
		switch {
		case skip:
			skip = false
		case r == '§':
			skip = true
		case r == '\n' || r == '\t':
			b.WriteByte(' ')
		case r == '\uFFFD', unicode.IsControl(r), r == '\u2028', r == '\u2029':
			// Invalid UTF-8 and control characters would let a MOTD move a
			// terminal's cursor or split a log line.
		default:
			b.WriteRune(r)
		}
	}
	return truncateRunes(strings.Join(strings.Fields(b.String()), " "), maxMOTD)
}

func truncateRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// maxComponentDepth bounds how deep a text component may nest before the
// rest is ignored; real MOTDs nest two or three levels.
const maxComponentDepth = 32

// plainText flattens a JSON text component (a string, an object with text
// and extra, or an array of components) into its plain text. Parts without
// literal text (translate keys, scores) contribute nothing rather than failing: the MOTD
// is decoration, not a reason to call a server unreachable.
func plainText(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return ""
	}
	var b strings.Builder
	flatten(&b, v, 0)
	return StripFormatting(b.String())
}

func flatten(b *strings.Builder, v any, depth int) {
	if depth > maxComponentDepth || b.Len() > 4*maxMOTD {
		return
	}
	switch c := v.(type) {
	case string:
		b.WriteString(c)
	case []any:
		for _, e := range c {
			flatten(b, e, depth+1)
		}
	case map[string]any:
		if t, ok := c["text"].(string); ok {
			b.WriteString(t)
		}
		if extra, ok := c["extra"].([]any); ok {
			for _, e := range extra {
				flatten(b, e, depth+1)
			}
		}
	}
}
