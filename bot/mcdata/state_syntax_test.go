package mcdata_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// TestEveryStateRoundTrips reads back the canonical form of every state of
// every block of every version; for a sample of states also the same state
// written with "minecraft:", its properties reversed and upper-cased, and
// with only the properties that differ from the default: each must name
// the same id.
func TestEveryStateRoundTrips(t *testing.T) {
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		if g.Protocols[0] != p {
			continue // the same data as an earlier protocol
		}
		n := 0
		for id := mcdata.StateID(0); int(id) < g.NumStates(); id++ {
			s, _ := g.StateByID(id)
			text := s.String()
			back, err := g.ParseState(text)
			if err != nil || back.ID != id {
				t.Fatalf("%s: %q reads as %v, %v; want state %d", g.Version, text, back.ID, err, id)
			}
			if back.String() != text {
				t.Fatalf("%s: the canonical form of %q is %q", g.Version, text, back.String())
			}
			n++
			// The other spellings exercise the reader, not the data: a
			// sample of states is enough, and keeps the race run short.
			if id%13 != 0 {
				continue
			}
			if got, err := g.ParseState(variant(s)); err != nil || got.ID != id {
				t.Fatalf("%s: %q reads as %v, %v; want state %d (%s)", g.Version, variant(s), got.ID, err, id, text)
			}
			if got, err := g.ParseState(shortest(s)); err != nil || got.ID != id {
				t.Fatalf("%s: %q reads as %v, %v; want state %d (%s)", g.Version, shortest(s), got.ID, err, id, text)
			}
		}
		if n != g.NumStates() || n < 20000 {
			t.Errorf("%s: %d states checked of %d", g.Version, n, g.NumStates())
		}
	}
}

// variant writes the state with the namespace, its properties in reverse
// order, upper case and spaces around every token.
func variant(s mcdata.BlockState) string {
	var parts []string
	for i := len(s.Block.Props) - 1; i >= 0; i-- {
		p := s.Block.Props[i]
		parts = append(parts, " "+strings.ToUpper(p.Name)+" = "+strings.ToUpper(p.Values[s.ValueIndex(i)])+" ")
	}
	out := " MINECRAFT:" + strings.ToUpper(s.Block.Name)
	if len(parts) > 0 {
		out += " [" + strings.Join(parts, ",") + "] "
	}
	return out
}

// shortest writes only the properties whose value differs from the
// block's default state.
func shortest(s mcdata.BlockState) string {
	def := mcdata.BlockState{ID: s.Block.DefaultState, Block: s.Block}
	var parts []string
	for i, p := range s.Block.Props {
		if v := s.ValueIndex(i); v != def.ValueIndex(i) {
			parts = append(parts, p.Name+"="+p.Values[v])
		}
	}
	if len(parts) == 0 {
		return s.Block.Name
	}
	return s.Block.Name + "[" + strings.Join(parts, ",") + "]"
}

func TestParseStateDefaultsAndErrors(t *testing.T) {
	g := newest(t)
	stairs, err := g.ParseState("oak_stairs[facing=south]")
	if err != nil {
		t.Fatal(err)
	}
	def, _ := g.StateByID(g.BlockByName("oak_stairs").DefaultState)
	for _, prop := range []string{"half", "shape", "waterlogged"} {
		got, _ := stairs.Value(prop)
		want, _ := def.Value(prop)
		if got != want {
			t.Errorf("oak_stairs[facing=south]: %s is %q, the default is %q", prop, got, want)
		}
	}
	if v, _ := stairs.Value("facing"); v != "south" {
		t.Errorf("facing is %q", v)
	}
	if s, err := g.ParseState("stone[]"); err != nil || s.String() != "stone" {
		t.Errorf("stone[]: %v %v", s, err)
	}
	for _, c := range []struct{ text, says string }{
		{"", "names no block"},
		{"oak_stairs[facing=up]", "facing cannot be \"up\"; it is one of north, south, west, east"},
		{"oak_stairs[color=red]", "has no property \"color\"; it has facing, half, shape, waterlogged"},
		{"stone[axis=y]", "stone has no properties; write it as stone"},
		{"oak_stairs[facing=south,facing=north]", "sets facing twice"},
		{"oak_stairs[facing=south]x", "goes on after its closing ]"},
		{"oak_stairs[facing=south", "no closing ]"},
		{"oak_stairs[facing]", "is not property=value"},
		{"oak_stairs[=south]", "empty property name"},
		{"oak_stairs[facing=]", "empty value of facing"},
		{"create:gearbox", "not a Minecraft block"},
		{"oak stairs", "has the character ' '"},
		{"oak_stairz", "did you mean oak_stairs"},
		{"minecraft:" + strings.Repeat("a", mcdata.MaxStateText), "at most 1024"},
	} {
		_, err := g.ParseState(c.text)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q: %v, want it to say %q", c.text, err, c.says)
		}
	}
}

func TestWithValue(t *testing.T) {
	g := newest(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		id := mcdata.StateID(rng.IntN(g.NumStates()))
		s, _ := g.StateByID(id)
		if len(s.Block.Props) == 0 {
			continue
		}
		p := s.Block.Props[rng.IntN(len(s.Block.Props))]
		v := p.Values[rng.IntN(len(p.Values))]
		got, ok := s.WithValue(p.Name, v)
		want, err := g.ParseState(s.String())
		if err != nil || !ok {
			t.Fatalf("%s: %v %v", s, ok, err)
		}
		want, _ = g.ParseState(strings.Replace(s.String(), p.Name+"="+mustValue(s, p.Name), p.Name+"="+v, 1))
		if got.ID != want.ID {
			t.Fatalf("%s with %s=%s is %s, want %s", s, p.Name, v, got, want)
		}
	}
	stone, _ := g.ParseState("stone")
	if _, ok := stone.WithValue("axis", "y"); ok {
		t.Error("stone took an axis")
	}
}

func mustValue(s mcdata.BlockState, prop string) string {
	v, _ := s.Value(prop)
	return v
}

// FuzzParseState reads arbitrary text: it never panics, and what it
// accepts reads back from its canonical form as the same state.
func FuzzParseState(f *testing.F) {
	for _, s := range []string{"stone", "minecraft:oak_stairs[facing=south,half=bottom]", "oak_log[axis=y,]", "[", "a[b=c]d", "oak_door[half=upper,hinge=left]"} {
		f.Add(s)
	}
	g := newest(f)
	f.Fuzz(func(t *testing.T, text string) {
		s, err := g.ParseState(text)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error")
			}
			return
		}
		back, err := g.ParseState(s.String())
		if err != nil || back.ID != s.ID {
			t.Fatalf("%q reads as %s, which reads back as %v, %v", text, s, back, err)
		}
	})
}

func TestUnknownBlockSuggestsOnlyNearNames(t *testing.T) {
	g := newest(t)
	_, err := g.ParseState("zzzqqqxx")
	if err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("zzzqqqxx: %v, want no suggestion", err)
	}
	_, err = g.ParseState("gravle")
	if err == nil || !strings.Contains(err.Error(), "did you mean gravel") {
		t.Errorf("gravle: %v, want gravel suggested", err)
	}
}

func TestCanonicalState(t *testing.T) {
	g := newest(t)
	got, err := g.CanonicalState("minecraft:oak_log")
	if err != nil || got != "oak_log[axis=y]" {
		t.Errorf("%q %v", got, err)
	}
	if _, err := g.CanonicalState("oak_log[axis=q]"); err == nil {
		t.Error("a bad value has a canonical form")
	}
}

func BenchmarkParseState(b *testing.B) {
	g := newest(b)
	for b.Loop() {
		if _, err := g.ParseState("oak_stairs[facing=east,half=top,shape=straight,waterlogged=false]"); err != nil {
			b.Fatal(err)
		}
	}
}
