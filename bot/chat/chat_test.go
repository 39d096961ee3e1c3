package chat

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPlain(t *testing.T) {
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"string", "hello", "hello"},
		{"text+extra", map[string]any{"text": "a", "extra": []any{"b", map[string]any{"text": "c"}}}, "abc"},
		{"chat.type.text", map[string]any{"translate": "chat.type.text", "with": []any{"Eduard", "follow me"}}, "<Eduard> follow me"},
		{"positional", map[string]any{"translate": "x", "fallback": "%2$s then %1$s, 100%%", "with": []any{"a", "b"}}, "b then a, 100%"},
		{"unknown key", map[string]any{"translate": "no.such.key"}, "no.such.key"},
		{"death", map[string]any{"translate": "death.attack.generic", "with": []any{map[string]any{"text": "Theo"}}}, "Theo died"},
		{"nbt empty key", []any{map[string]any{"": "x"}, map[string]any{"": int32(5)}}, "x5"},
		{"legacy codes", "§aGreen §lbold§r plain", "Green bold plain"},
		{"json number", float64(3), "3"},
		{"nil", nil, ""},
	}
	for _, c := range cases {
		if got := Plain(c.in); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSegments(t *testing.T) {
	segs := Segments(map[string]any{"text": "a", "color": "red", "bold": int8(1), "extra": []any{map[string]any{"text": "b", "bold": false}, "c"}})
	want := []Segment{{Text: "a", Color: "red", Bold: true}, {Text: "b", Color: "red"}, {Text: "c", Color: "red", Bold: true}}
	if len(segs) != len(want) {
		t.Fatalf("%+v", segs)
	}
	for i := range want {
		if segs[i] != want[i] {
			t.Errorf("segment %d: %+v, want %+v", i, segs[i], want[i])
		}
	}
	if s := Segments("§cred§r"); len(s) != 1 || s[0].Color != "red" || s[0].Text != "red" {
		t.Errorf("legacy: %+v", s)
	}
}

func TestParseJSON(t *testing.T) {
	if got := Plain(ParseJSON(`{"text":"Server closed","extra":[{"text":"!"}]}`)); got != "Server closed!" {
		t.Error(got)
	}
	if got := Plain(ParseJSON(`"quoted"`)); got != "quoted" {
		t.Error(got)
	}
	if got := Plain(ParseJSON(`not json`)); got != "not json" {
		t.Error(got)
	}
}

// TestHostileComponentIsBounded: an argument that repeats itself at every
// level would double 64 times; rendering stops at the budgets instead.
func TestHostileComponentIsBounded(t *testing.T) {
	var c any = map[string]any{"text": strings.Repeat("x", 100)}
	for i := 0; i < 60; i++ {
		c = map[string]any{"translate": "bomb", "fallback": "%1$s%1$s%1$s%1$s", "with": []any{c}}
	}
	got := Plain(c)
	if n := utf8.RuneCountInString(got); n > MaxRunes+1 {
		t.Errorf("rendered %d runes", n)
	}
	var empty any = map[string]any{"text": ""}
	for i := 0; i < 60; i++ {
		empty = map[string]any{"translate": "bomb", "fallback": strings.Repeat("%1$s", 1000), "with": []any{empty}}
	}
	if Plain(empty) != "" {
		t.Error("empty bomb rendered text")
	}
}
