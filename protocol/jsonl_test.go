package protocol

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

func readAll(t *testing.T, lr *LineReader) (lines []string, errs []error) {
	t.Helper()
	for i := 0; i < 1000; i++ {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			errs = append(errs, err)
			if errors.Is(err, ErrPartialLine) {
				lines = append(lines, "partial:"+string(line))
				return
			}
			continue
		}
		lines = append(lines, string(line))
	}
	t.Fatal("reader never ended")
	return
}

func TestLineReaderSplitsLinesAndKeepsGoingAfterAnOversizedOne(t *testing.T) {
	in := "a\r\n\nbb\n" + strings.Repeat("x", 100) + "\nccc\nlast"
	lines, errs := readAll(t, NewLineReader(strings.NewReader(in), 10))
	want := []string{"a", "", "bb", "ccc", "partial:last"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Fatalf("lines %q, want %q", lines, want)
	}
	var tooLong *LineTooLongError
	if len(errs) != 2 || !errors.As(errs[0], &tooLong) || tooLong.Line != 4 || tooLong.Bytes != 100 {
		t.Fatalf("errors %v", errs)
	}
}

func TestLineReaderLimitIsExact(t *testing.T) {
	lines, errs := readAll(t, NewLineReader(strings.NewReader("12345\n123456\n"), 5))
	if len(lines) != 1 || lines[0] != "12345" || len(errs) != 1 {
		t.Fatalf("lines %q errs %v", lines, errs)
	}
}

// endless yields n bytes of 'x' without ever holding them, then a newline
// and a tail.
type endless struct {
	n    int64
	tail *strings.Reader
}

func (e *endless) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return e.tail.Read(p)
	}
	k := int64(len(p))
	if k > e.n {
		k = e.n
	}
	for i := range p[:k] {
		p[i] = 'x'
	}
	e.n -= k
	return int(k), nil
}

func TestLineReaderSkips50MiBLineInBoundedMemory(t *testing.T) {
	src := &endless{n: 50 << 20, tail: strings.NewReader("\n{\"id\":\"after\"}\n")}
	lr := NewLineReader(src, DefaultMaxLine)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := lr.Next()
	runtime.ReadMemStats(&after)
	var tooLong *LineTooLongError
	if !errors.As(err, &tooLong) || tooLong.Bytes != 50<<20 {
		t.Fatalf("got %v, want a 50 MiB LineTooLongError", err)
	}
	// The reader may hold one line's worth (1 MiB) plus its 64 KiB buffer;
	// holding the 50 MiB line would show as tens of MiB allocated.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Fatalf("skipping the line allocated %d bytes", grew)
	}
	line, err := lr.Next()
	if err != nil || string(line) != `{"id":"after"}` {
		t.Fatalf("the line after the big one: %q, %v", line, err)
	}
}

func TestDecodeRequestRefusesWhatCannotBeAnswered(t *testing.T) {
	cases := []struct{ line, want string }{
		{`not json`, "not valid JSON"},
		{`{"id":"a","tool":"mc_status"`, "not valid JSON"},
		{`[1,2]`, "a request must be a JSON object; got array"},
		{`"hi"`, "a request must be a JSON object; got string"},
		{`{"tool":"mc_status"}`, `missing "id"`},
		{`{"id":"","tool":"mc_status"}`, `"id" is empty`},
		{`{"id":null,"tool":"mc_status"}`, `"id" must be a non-empty string or a number; got null`},
		{`{"id":true,"tool":"mc_status"}`, `"id" must be a non-empty string or a number; got true`},
		{`{"id":{"a":1},"tool":"mc_status"}`, `"id" must be a non-empty string or a number`},
		{`{"id":"a"}`, `request a has no "tool"`},
		{`{"id":"a","tool":""}`, `"tool" must be a non-empty string naming a tool, e.g. "mc_status"; got "". Call mc_list_tools to see every tool.`},
		{`{"id":"a","tool":5}`, `"tool" must be a non-empty string naming a tool, e.g. "mc_status"; got 5.`},
		{`{"id":"a","tool":"mc_say","args":[1]}`, `"args" must be an object such as {"port":25565}; got [1]`},
		{`{"id":"a","tool":"mc_say","args":"hi"}`, `"args" must be an object`},
		{"{\"id\":\"a\xff\",\"tool\":\"mc_status\"}", "not valid UTF-8"},
		{strings.Repeat("[", 100000) + strings.Repeat("]", 100000), "not valid JSON"},
		{`{"id":"a","tool":"mc_say","args":{"m":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`, "not valid JSON"},
	}
	for _, c := range cases {
		_, err := DecodeRequest([]byte(c.line))
		var re *RequestError
		if !errors.As(err, &re) || !strings.Contains(re.Error(), c.want) {
			short := c.line
			if len(short) > 60 {
				short = short[:60]
			}
			t.Errorf("%s: got %v, want a RequestError containing %q", short, err, c.want)
		}
	}
}

func TestDecodeRequestAcceptsStringAndNumberIDs(t *testing.T) {
	for line, id := range map[string]string{
		`{"id":"c1","tool":"mc_status","args":{}}`:   `"c1"`,
		`{"id":42,"tool":"mc_status"}`:               `42`,
		`{"id":-1.5,"tool":"mc_status","args":null}`: `-1.5`,
	} {
		req, err := DecodeRequest([]byte(line))
		if err != nil || string(req.ID) != id || req.Tool != "mc_status" {
			t.Errorf("%s: %+v %v", line, req, err)
		}
	}
	req, err := DecodeRequest([]byte(`{"id":"x","tool":"mc_wait","args":{"ms":5},"extra":1}`))
	if err != nil || string(req.Args["ms"]) != "5" {
		t.Fatalf("%+v %v", req, err)
	}
}

func TestResponseKeyOrder(t *testing.T) {
	ok, _ := Response{ID: []byte(`"c1"`), OK: true, Result: []byte(`{"found":1}`)}.MarshalJSON()
	bad, _ := Response{ID: []byte(`7`), Error: `say "hi"`}.MarshalJSON()
	if string(ok) != `{"id":"c1","ok":true,"result":{"found":1}}` || string(bad) != `{"id":7,"ok":false,"error":"say \"hi\""}` {
		t.Fatalf("%s\n%s", ok, bad)
	}
}

func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{`{"id":"c1","tool":"mc_join","args":{"port":51234}}`, `{"id":1,"tool":"x"}`, `{"id":null}`, `[`, "{\"id\":\"\xff\"}", `{"id":"a","tool":"b","args":[]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		req, err := DecodeRequest(line)
		if err != nil {
			var re *RequestError
			if !errors.As(err, &re) {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		if len(req.ID) == 0 || req.Tool == "" {
			t.Fatalf("accepted a request without id or tool: %q", line)
		}
		// An accepted id must be echoable as valid JSON.
		b, _ := Response{ID: req.ID, OK: true}.MarshalJSON()
		if _, err := DecodeRequest(bytes.Replace(b, []byte(`"ok":true,"result":{}`), []byte(`"tool":"t"`), 1)); err != nil {
			t.Fatalf("echoed id does not parse back: %s: %v", b, err)
		}
	})
}

func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nbb\r\n\n"), 4)
	f.Add([]byte(strings.Repeat("x", 70000)+"\nend"), 100)
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		if max <= 0 || max > 1<<16 {
			max = 1 + (max&0xffff+0xffff)%(1<<16)
		}
		lr := NewLineReader(bytes.NewReader(in), max)
		total := 0
		for n := 0; n <= len(in)+1; n++ {
			line, err := lr.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			var tooLong *LineTooLongError
			switch {
			case err == nil, errors.Is(err, ErrPartialLine):
				if len(line) > max {
					t.Fatalf("line of %d bytes over limit %d", len(line), max)
				}
				if !bytes.Contains(in, line) {
					t.Fatalf("line %q not in input", line)
				}
				total += len(line)
				if err != nil {
					return
				}
			case errors.As(err, &tooLong):
				if tooLong.Bytes <= int64(max) {
					t.Fatalf("skipped a line of %d bytes under limit %d", tooLong.Bytes, max)
				}
			default:
				t.Fatalf("unexpected error %v", err)
			}
		}
		t.Fatal("reader did not end")
	})
}

// Once the id is known, a broken request can be answered; before that it
// cannot, and the error carries no id.
func TestRequestErrorsCarryTheIDWhenItIsUsable(t *testing.T) {
	for line, answerable := range map[string]bool{
		`{"id":"a","tool":5}`:                 true,
		`{"id":"a","tool":"mc_say","args":1}`: true,
		`{"id":7,"tool":""}`:                  true,
		`{"id":"a"}`:                          false, // the protocol drops a request without a tool
		`{"tool":"mc_say"}`:                   false,
		`{"id":null,"tool":"mc_say"}`:         false,
	} {
		_, err := DecodeRequest([]byte(line))
		var re *RequestError
		if !errors.As(err, &re) || (re.ID != nil) != answerable {
			t.Errorf("%s: %#v", line, err)
		}
	}
	if req, err := DecodeRequest([]byte("\xef\xbb\xbf" + `{"id":"bom","tool":"mc_status"}`)); err != nil || req.Tool != "mc_status" {
		t.Fatalf("a leading byte-order mark: %v", err)
	}
}

func TestIDFromHead(t *testing.T) {
	for head, want := range map[string]string{
		`{"id":"c9","tool":"mc_say","args":{"message":"aaaa`: `"c9"`,
		`{"tool":"mc_say","id":12,"args":{"message":"aaaa`:   `12`,
		`{"tool":"mc_say","args":{"message":"aaaa`:           ``,
		`{"id":"c9`:             ``,
		`{"id":null,"tool":"x"`: ``,
		`[1,2,3`:                ``,
	} {
		if got := string(IDFromHead([]byte(head))); got != want {
			t.Errorf("%s: got %q, want %q", head, got, want)
		}
	}
}
