package ui

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/blockmate/blockmate/protocol"
)

// htmlEscapes are the escapes encoding/json writes for &, < and > by
// default, so that JSON can sit in HTML. A terminal is no HTML page: the
// console shows the characters themselves.
var htmlEscapes = map[string]byte{`\u0026`: '&', `\u003c`: '<', `\u003e`: '>', `\u003C`: '<', `\u003E`: '>'}

// plainJSON returns raw JSON with the HTML escapes inside its strings
// written as the characters they stand for. blockmate's own JSON never has
// them (protocol.Marshal writes every result and event payload), but JSON
// a caller wrote is kept as sent: a call's id and arguments, and the ids
// mc_stop and mc_status echo in their results. A caller whose encoder
// escapes (Go's, by default) would otherwise show \u0026 for &, and
// protocol.Marshal passes such bytes through as they are. It reads the
// escape structure, so an escaped backslash followed by "u0026" (text that
// really says \u0026) stays as it is. raw itself is never changed (payloads
// are shared with other subscribers); when there is nothing to undo it is
// returned as it is.
func plainJSON(raw json.RawMessage) json.RawMessage {
	if !bytes.Contains(raw, []byte(`\u00`)) {
		return raw
	}
	out := make([]byte, 0, len(raw))
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case !inString:
			inString = c == '"'
			out = append(out, c)
		case c == '"':
			inString = false
			out = append(out, c)
		case c == '\\' && i+1 < len(raw):
			if i+6 <= len(raw) {
				if r, ok := htmlEscapes[string(raw[i:i+6])]; ok {
					out = append(out, r)
					i += 5
					continue
				}
			}
			out = append(out, c, raw[i+1])
			i++
		default:
			out = append(out, c)
		}
	}
	return out
}

// plainArgs is plainJSON for every argument of a call.
func plainArgs(args map[string]json.RawMessage) map[string]json.RawMessage {
	changed := false
	for _, v := range args {
		if bytes.Contains(v, []byte(`\u00`)) {
			changed = true
			break
		}
	}
	if !changed {
		return args
	}
	out := make(map[string]json.RawMessage, len(args))
	for k, v := range args {
		out[k] = plainJSON(v)
	}
	return out
}

// indentJSON renders v as indented JSON for the detail views: encoded by
// protocol.Marshal (no HTML escapes), with any a caller wrote undone, every
// line cleaned of anything a terminal would act on.
func indentJSON(v any) string {
	raw, err := protocol.Marshal(v)
	if err != nil {
		return clean(err.Error())
	}
	var b bytes.Buffer
	if err := json.Indent(&b, plainJSON(raw), "", "  "); err != nil {
		return clean(err.Error())
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = clean(l)
	}
	return strings.Join(lines, "\n")
}
