package protocol

import (
	"bytes"
	"encoding/json"
)

// Marshal encodes v as compact JSON without HTML escaping: "&", "<" and ">"
// stay as they are. encoding/json's Marshal writes them as \u0026, \u003c
// and \u003e (for JSON embedded in HTML), which a parent reading our lines
// decodes fine but a person or a language model reading them does not; and
// it does so even inside the output of a type's own MarshalJSON or a
// json.RawMessage, so every JSON blockmate writes goes through here.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	// Encode ends the value with a newline; a line writer adds its own.
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// quote is Marshal for a string, which cannot fail.
func quote(s string) []byte {
	b, _ := Marshal(s)
	return b
}
