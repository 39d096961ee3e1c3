package lan

import (
	"encoding/json"
	"strings"

	"github.com/blockmate/blockmate/untrusted"
)

// maxMOTD bounds a MOTD after cleaning, in runes. The game shows two short
// lines; anything longer is someone padding a datagram.
const maxMOTD = 256

// StripFormatting makes a MOTD (or a version name) a server sent fit to
// show: the one sanitiser, untrusted.Line, removes what could act on a
// terminal or hide text; then the game's § formatting codes (colour and
// style: "§a", "§l", "§r", …) go, runs of spaces become one, and the result
// is trimmed and capped at maxMOTD characters. The character after a § is
// always part of the code, whatever it is, which is how the game renders it
// too.
func StripFormatting(s string) string {
	s = untrusted.Line(s)
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
