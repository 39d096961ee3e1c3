package ui

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/blockmate/blockmate/untrusted"
)

// clean makes text someone else wrote (chat, player names, MOTDs, results
// that carry them) safe to put on the terminal, on one line: the one
// sanitiser, untrusted.Line, removes escape sequences, control, bidi and
// other invisible characters, and turns line breaks into spaces, so a
// player cannot move the cursor, recolour the console or fake a line of
// output.
func clean(s string) string { return untrusted.Line(s) }

// field is one key and value of a JSON object, in the order sent.
type field struct {
	Key   string
	Value json.RawMessage
}

// objectFields reads the top-level keys of a JSON object in order, which
// matters because results lead with their verdict. A non-object gives nil.
func objectFields(raw json.RawMessage) []field {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil
	}
	var out []field
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out
		}
		out = append(out, field{key, v})
	}
	return out
}

// valueText renders a JSON value briefly: strings without quotes (cleaned),
// numbers and booleans as written, objects and arrays compacted.
func valueText(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return ""
	}
	if v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) == nil {
			if s == "" || strings.ContainsAny(s, " =") {
				return strconv.Quote(clean(s))
			}
			return clean(s)
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, v) == nil {
		return clean(b.String())
	}
	return clean(string(v))
}

// summary renders an object's fields as "k=v k=v", verdict first.
func summary(raw json.RawMessage) string {
	fields := objectFields(raw)
	if fields == nil {
		return valueText(raw)
	}
	parts := make([]string, 0, len(fields))
	for _, f := range fields {
		parts = append(parts, f.Key+"="+valueText(f.Value))
	}
	return strings.Join(parts, " ")
}

// argsSummary renders call arguments in the schema's order when known.
func argsSummary(args map[string]json.RawMessage, order []string) string {
	if len(args) == 0 {
		return ""
	}
	seen := map[string]bool{}
	var parts []string
	for _, k := range order {
		if v, ok := args[k]; ok {
			parts = append(parts, k+"="+valueText(v))
			seen[k] = true
		}
	}
	var rest []string
	for k := range args {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		parts = append(parts, clean(k)+"="+valueText(args[k]))
	}
	return strings.Join(parts, " ")
}

// truncate cuts s to width cells with an ellipsis.
func truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return ansi.Truncate(s, width, "…")
}
