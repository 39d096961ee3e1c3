package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// ordered is a JSON object that keeps its keys in the order they were
// read. protocol.json needs it: protodef's compiler reads a definition's
// options in key order (a switch whose "default" comes before its
// "fields" compiles to a reader that loses the container's earlier fields),
// so the emitted protocol.json must keep minecraft-data's order.
type ordered struct {
	keys []string
	m    map[string]any
}

func newOrdered() *ordered { return &ordered{m: map[string]any{}} }

func (o *ordered) get(k string) (any, bool) {
	v, ok := o.m[k]
	return v, ok
}

// set replaces a key's value in place, or appends the key.
func (o *ordered) set(k string, v any) {
	if _, ok := o.m[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.m[k] = v
}

func (o *ordered) del(k string) {
	if _, ok := o.m[k]; !ok {
		return
	}
	delete(o.m, k)
	for i, x := range o.keys {
		if x == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

func (o *ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kr, _ := json.Marshal(k)
		b.Write(kr)
		b.WriteByte(':')
		vr, err := json.Marshal(o.m[k])
		if err != nil {
			return nil, err
		}
		b.Write(vr)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// decodeOrdered reads one JSON value: objects as *ordered, arrays as []any,
// numbers as json.Number.
func decodeOrdered(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := readOrdered(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the JSON value")
	}
	return v, nil
}

func readOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newOrdered()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key %v", kt)
				}
				v, err := readOrdered(dec)
				if err != nil {
					return nil, err
				}
				o.set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			list := []any{}
			for dec.More() {
				v, err := readOrdered(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return list, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return tok, nil
	}
}
