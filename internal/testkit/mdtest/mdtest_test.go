package mdtest

import (
	"encoding/json"
	"strings"
	"testing"
)

func js(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestCompare: the comparison the differential tests rest on finds each
// kind of difference, and understands prismarine-nbt's tags and Buffers.
func TestCompare(t *testing.T) {
	nbt := `{"type":"compound","name":"","value":{"n":{"type":"int","value":5},"l":{"type":"list","value":{"type":"string","value":["a","b"]}}}}`
	same := []struct {
		got  any
		want string
	}{
		{map[string]any{"n": int32(5), "l": []any{"a", "b"}}, nbt},
		{[]byte{1, 2}, `{"type":"Buffer","data":[1,2]}`},
		{map[string]any{"a": int64(3), "b": 0.5, "c": "x", "d": true}, `{"a":3,"b":0.5,"c":"x","d":true}`},
		{[]any{nil, int64(1)}, `[null,1]`},
	}
	for _, c := range same {
		if d := Compare(c.got, js(t, c.want)); d != "" {
			t.Errorf("%v vs %s: %s", c.got, c.want, d)
		}
	}
	differ := []struct {
		got  any
		want string
	}{
		{map[string]any{"n": int32(6), "l": []any{"a", "b"}}, nbt},
		{map[string]any{"a": int64(3)}, `{"a":3,"b":1}`},
		{map[string]any{"a": int64(3), "b": int64(1)}, `{"a":3}`},
		{[]any{int64(1)}, `[1,2]`},
		{"x", `"y"`},
		{0.5, `0.25`},
		{[]byte{1}, `{"type":"Buffer","data":[2]}`},
		{nil, `1`},
		{int64(1), `"1"`},
	}
	for _, c := range differ {
		if d := Compare(c.got, js(t, c.want)); d == "" {
			t.Errorf("%v vs %s: no difference found", c.got, c.want)
		}
	}
}
