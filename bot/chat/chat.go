// Package chat turns Minecraft text components, as NBT (play and
// configuration packets since 1.20.3) or JSON (login disconnects, the
// status ping), into plain text for tools and events and into styled
// segments for the console.
//
// Components are taken as the generic trees wire.Reader.NBT and
// encoding/json produce. Rendering is bounded: a hostile component whose
// translation arguments repeat themselves cannot grow the output past
// MaxRunes nor recurse past MaxDepth.
package chat

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// MaxRunes bounds the text one component renders to.
const MaxRunes = 32 << 10

// MaxDepth bounds how deeply components may nest when rendered.
const MaxDepth = 64

// Segment is a run of text in one style.
type Segment struct {
	Text          string `json:"text"`
	Color         string `json:"color,omitempty"` // a name such as "red" or "#rrggbb"
	Bold          bool   `json:"bold,omitempty"`
	Italic        bool   `json:"italic,omitempty"`
	Underlined    bool   `json:"underlined,omitempty"`
	Strikethrough bool   `json:"strikethrough,omitempty"`
	Obfuscated    bool   `json:"obfuscated,omitempty"`
}

// ParseJSON reads a JSON text component. Text that is not JSON is taken as
// plain text, as the game does.
func ParseJSON(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return s
	}
	return v
}

// Plain renders a component to plain text, with legacy § codes removed.
func Plain(c any) string {
	var b strings.Builder
	for _, s := range Segments(c) {
		b.WriteString(s.Text)
	}
	return b.String()
}

// Segments renders a component to styled runs of text. Adjacent runs of the
// same style are merged.
func Segments(c any) []Segment {
	r := renderer{budget: MaxRunes, steps: maxSteps}
	r.walk(c, Segment{}, 0)
	return r.out
}

type renderer struct {
	out    []Segment
	budget int // runes left to emit
	steps  int // components left to visit, so empty ones cannot loop for ever
}

// maxSteps bounds the components one render visits.
const maxSteps = 1 << 16

func (r *renderer) emit(text string, st Segment) {
	if text == "" || r.budget <= 0 {
		return
	}
	// Legacy formatting codes (§a, §l …) still appear in server text;
	// they style the rest of this run.
	for text != "" && r.budget > 0 {
		i := strings.IndexRune(text, '§')
		chunk := text
		if i >= 0 {
			chunk = text[:i]
		}
		r.add(chunk, st)
		if i < 0 {
			return
		}
		rest := text[i+len("§"):]
		if rest == "" {
			return
		}
		code, size := utf8.DecodeRuneInString(rest)
		st = legacy(st, code)
		text = rest[size:]
	}
}

func (r *renderer) add(text string, st Segment) {
	if text == "" {
		return
	}
	if n := utf8.RuneCountInString(text); n > r.budget {
		runes := []rune(text)[:r.budget]
		text = string(runes) + "…"
		r.budget = 0
	} else {
		r.budget -= n
	}
	st.Text = ""
	if k := len(r.out); k > 0 {
		last := r.out[k-1]
		last.Text = ""
		if last == st {
			r.out[k-1].Text += text
			return
		}
	}
	st.Text = text
	r.out = append(r.out, st)
}

func (r *renderer) walk(c any, st Segment, depth int) {
	r.steps--
	if r.budget <= 0 || r.steps < 0 || depth > MaxDepth {
		return
	}
	switch v := c.(type) {
	case nil:
	case string:
		r.emit(v, st)
	case []any:
		// A list is its first element with the rest as its extras.
		if len(v) == 0 {
			return
		}
		first := st
		if m, ok := v[0].(map[string]any); ok {
			first = style(m, st)
		}
		r.walk(v[0], st, depth+1)
		for _, e := range v[1:] {
			r.walk(e, first, depth+1)
		}
	case map[string]any:
		st = style(v, st)
		switch {
		case has(v, "text"):
			r.emit(str(v["text"]), st)
		case has(v, ""):
			// NBT lists of mixed types wrap plain values as {"": value}.
			r.walk(v[""], st, depth+1)
		case has(v, "translate"):
			r.translate(v, st, depth)
		case has(v, "keybind"):
			r.emit(str(v["keybind"]), st)
		case has(v, "selector"):
			r.emit(str(v["selector"]), st)
		case has(v, "score"):
			if m, ok := v["score"].(map[string]any); ok {
				r.emit(str(m["value"]), st)
			}
		}
		if extra, ok := v["extra"].([]any); ok {
			for _, e := range extra {
				r.walk(e, st, depth+1)
			}
		}
	default:
		// Numbers and booleans standing alone render as text.
		r.emit(str(v), st)
	}
}

func (r *renderer) translate(v map[string]any, st Segment, depth int) {
	key := str(v["translate"])
	format, ok := mcdata.Translate(key)
	if !ok {
		if fb, has := v["fallback"]; has {
			format = str(fb)
		} else {
			format = key
		}
	}
	var args []any
	switch w := v["with"].(type) {
	case []any:
		args = w
	case nil:
	default:
		args = []any{w}
	}
	next := 0
	for format != "" && r.budget > 0 && r.steps > 0 {
		r.steps--
		i := strings.IndexByte(format, '%')
		if i < 0 || i == len(format)-1 {
			r.emit(format, st)
			return
		}
		r.emit(format[:i], st)
		rest := format[i+1:]
		switch {
		case rest[0] == '%':
			r.emit("%", st)
			format = rest[1:]
		case rest[0] == 's':
			r.arg(args, next, st, depth)
			next++
			format = rest[1:]
		default:
			// %1$s
			j := strings.Index(rest, "$s")
			n, err := strconv.Atoi(rest[:max(j, 0)])
			if j <= 0 || j > 3 || err != nil {
				r.emit("%", st)
				format = rest
				continue
			}
			r.arg(args, n-1, st, depth)
			format = rest[j+2:]
		}
	}
}

func (r *renderer) arg(args []any, i int, st Segment, depth int) {
	if i < 0 || i >= len(args) {
		return
	}
	r.walk(args[i], st, depth+1)
}

func has(m map[string]any, k string) bool { _, ok := m[k]; return ok }

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	case bool:
		return strconv.FormatBool(x)
	case int8:
		return strconv.Itoa(int(x))
	case int16:
		return strconv.Itoa(int(x))
	case int32:
		return strconv.Itoa(int(x))
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return ""
}

// truthy reads a style flag: JSON gives booleans, NBT gives bytes.
func truthy(v any) (set, on bool) {
	switch x := v.(type) {
	case bool:
		return true, x
	case int8:
		return true, x != 0
	case string:
		return true, x == "true"
	}
	return false, false
}

func style(m map[string]any, st Segment) Segment {
	if c, ok := m["color"].(string); ok && len(c) <= 32 {
		st.Color = c
	}
	for k, p := range map[string]*bool{"bold": &st.Bold, "italic": &st.Italic, "underlined": &st.Underlined, "strikethrough": &st.Strikethrough, "obfuscated": &st.Obfuscated} {
		if set, on := truthy(m[k]); set {
			*p = on
		}
	}
	return st
}

var legacyColors = map[rune]string{
	'0': "black", '1': "dark_blue", '2': "dark_green", '3': "dark_aqua", '4': "dark_red", '5': "dark_purple",
	'6': "gold", '7': "gray", '8': "dark_gray", '9': "blue", 'a': "green", 'b': "aqua", 'c': "red",
	'd': "light_purple", 'e': "yellow", 'f': "white",
}

func legacy(st Segment, code rune) Segment {
	code = []rune(strings.ToLower(string(code)))[0]
	if c, ok := legacyColors[code]; ok {
		return Segment{Color: c}
	}
	switch code {
	case 'k':
		st.Obfuscated = true
	case 'l':
		st.Bold = true
	case 'm':
		st.Strikethrough = true
	case 'n':
		st.Underlined = true
	case 'o':
		st.Italic = true
	case 'r':
		return Segment{}
	}
	return st
}
