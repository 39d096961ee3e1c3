package protocol

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

func raw(t *testing.T, s string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

var collectSchema = Schema{
	Str("block_type", "the block to collect, e.g. oak_log").Req().Len(1, 64),
	Int("count", "how many", 1, 2304).Req(),
	Str("slot", "where").OneOf("hand", "off_hand").Def("hand"),
	Bool("sprint", "run"),
	Num("range", "how close", 0, 64),
}

func TestValidateNamesFieldExpectationAndValue(t *testing.T) {
	cases := []struct {
		args, want string
	}{
		{`{"block_type":"oak_log","count":"four"}`, `count must be a whole number from 1 to 2304; got "four"`},
		{`{"block_type":"oak_log","count":2.5}`, `count must be a whole number from 1 to 2304; got 2.5`},
		{`{"block_type":"oak_log","count":0}`, `count must be a whole number from 1 to 2304; got 0`},
		{`{"block_type":"oak_log","count":1e400}`, `count must be a whole number from 1 to 2304; got 1e400`},
		{`{"block_type":"oak_log"}`, `count is required: a whole number from 1 to 2304 (how many)`},
		{`{"block_type":"","count":1}`, `block_type must be text of 1 to 64 characters; got ""`},
		{`{"block_type":7,"count":1}`, `block_type must be text of 1 to 64 characters; got 7`},
		{`{"block_type":"x","count":1,"slot":"head"}`, `slot must be one of "hand", "off_hand"; got "head"`},
		{`{"block_type":"x","count":1,"sprint":"yes"}`, `sprint must be true or false; got "yes"`},
		{`{"block_type":"x","count":1,"range":[1]}`, `range must be a number from 0 to 64; got [1]`},
		{`{"block_type":"x","count":1,"cout":1}`, `mc_collect has no argument "cout". Did you mean "count"? It takes block_type, count, slot, sprint, range.`},
	}
	for _, c := range cases {
		_, err := collectSchema.Validate("mc_collect", raw(t, c.args))
		var ae *ArgError
		if !errors.As(err, &ae) {
			t.Errorf("%s: got %v, want an ArgError", c.args, err)
			continue
		}
		if ae.Error() != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.args, ae.Error(), c.want)
		}
	}
}

func TestValidateFillsDefaultsAndDecodes(t *testing.T) {
	args, err := collectSchema.Validate("mc_collect", raw(t, `{"block_type":"oak_log","count":4.0,"range":2.5,"sprint":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if args.String("block_type") != "oak_log" || args.Int("count") != 4 || args.String("slot") != "hand" ||
		args.Float("range") != 2.5 || !args.Bool("sprint") {
		t.Fatalf("decoded wrong: %v", args)
	}
	if args.Has("nothing") {
		t.Fatal("Has reports an argument that was not given")
	}
}

func TestValidateNullMeansAbsent(t *testing.T) {
	if _, err := collectSchema.Validate("mc_collect", raw(t, `{"block_type":"x","count":null}`)); err == nil || !strings.Contains(err.Error(), "count is required") {
		t.Fatalf("null for a required argument: got %v", err)
	}
}

func TestNoArgumentToolSaysSo(t *testing.T) {
	_, err := Schema{}.Validate("mc_status", raw(t, `{"verbose":true}`))
	if err == nil || err.Error() != `mc_status has no argument "verbose". It takes no arguments: send "args":{}.` {
		t.Fatalf("got %v", err)
	}
}

func TestSchemaMarshalsAsOrderedJSONSchema(t *testing.T) {
	b, err := json.Marshal(Schema{Int("count", "how many", 1, 9).Req(), Str("item", "what")})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{"count":{"type":"integer","description":"how many","minimum":1,"maximum":9},"item":{"type":"string","description":"what"}},"required":["count"],"additionalProperties":false}`
	if string(b) != want {
		t.Fatalf("\n got %s\nwant %s", b, want)
	}
}

func FuzzValidate(f *testing.F) {
	for _, s := range []string{`{"block_type":"oak_log","count":4}`, `{"count":"four"}`, `{"slot":null}`, `{"range":-0}`, `{"x":{"y":[]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &m) != nil {
			return
		}
		args, err := collectSchema.Validate("mc_collect", m)
		if err != nil {
			var ae *ArgError
			// The field may be "" (an argument named ""), but the
			// sentence must name it and say what the tool takes.
			if !errors.As(err, &ae) || !strings.Contains(ae.Error(), strconv.Quote(ae.Field)) && !strings.HasPrefix(ae.Error(), ae.Field+" ") {
				t.Fatalf("error does not name its field: %#v", err)
			}
			return
		}
		// What validates must decode to values inside the declared bounds.
		if n := args.Int("count"); n < 1 || n > 2304 {
			t.Fatalf("count %d passed validation", n)
		}
		if s := args.String("slot"); s != "hand" && s != "off_hand" {
			t.Fatalf("slot %q passed validation", s)
		}
	})
}

// TestObjectAndArrayArguments: structured arguments are checked for their
// JSON type and byte bound before a tool decodes them.
func TestObjectAndArrayArguments(t *testing.T) {
	s := Schema{Obj("min", "a corner", 40).Req(), Arr("blocks", "positions", 20)}
	cases := []struct{ args, want string }{
		{`{"min":[1,2,3]}`, `min must be a JSON object of at most 40 bytes; got [1,2,3]`},
		{`{"min":"1 2 3"}`, `min must be a JSON object of at most 40 bytes; got "1 2 3"`},
		{`{"min":{"x":1},"blocks":{"a":1}}`, `blocks must be a JSON array of at most 20 bytes; got {"a":1}`},
		{`{"min":{"x":1},"blocks":[1,2,3,4,5,6,7,8,9,10,11]}`, `blocks must be a JSON array of at most 20 bytes; got [1,2,3,4,5,6,7,8,9,10,11]`},
	}
	for _, c := range cases {
		_, err := s.Validate("mc_x", raw(t, c.args))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.args, err, c.want)
		}
	}
	args, err := s.Validate("mc_x", raw(t, `{"min":{"x":1,"y":2,"z":3}}`))
	if err != nil {
		t.Fatal(err)
	}
	var p struct{ X, Y, Z int }
	if err := args.Decode("min", &p); err != nil || p.X != 1 || p.Z != 3 {
		t.Errorf("decoded %+v, %v", p, err)
	}
	if b, _ := json.Marshal(s); strings.Contains(string(b), "maxLength") || !strings.Contains(string(b), `"type":"array"`) {
		t.Errorf("schema %s", b)
	}
}
