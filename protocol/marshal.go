package protocol

import (
	"bytes"
	"encoding/json"
	"sync"
)

// Marshal encodes v as compact JSON without HTML escaping: "&", "<" and ">"
// stay as they are. encoding/json's Marshal writes them as \u0026, \u003c
// and \u003e (for JSON embedded in HTML), which a parent reading our lines
// decodes fine but a person or a language model reading them does not; and
// it does so even inside the output of a type's own MarshalJSON or a
// json.RawMessage, so every JSON blockmate writes goes through here.
func Marshal(v any) ([]byte, error) {
	e := encoders.Get().(*encoder)
	defer e.release()
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	// Encode ends the value with a newline; a line writer adds its own.
	return bytes.Clone(bytes.TrimSuffix(e.buf.Bytes(), []byte{'\n'})), nil
}

// encoder is a reusable json.Encoder writing to its own buffer: a call
// then costs one allocation, the result, as json.Marshal's does.
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var encoders = sync.Pool{New: func() any {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// maxPooledBuffer keeps a rare large result's buffer out of the pool.
const maxPooledBuffer = 64 << 10

func (e *encoder) release() {
	if e.buf.Cap() <= maxPooledBuffer {
		encoders.Put(e)
	}
}

// quote is Marshal for a string, which cannot fail.
func quote(s string) []byte {
	b, _ := Marshal(s)
	return b
}
