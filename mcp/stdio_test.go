package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/blockmate/blockmate/protocol"
)

// rawStdio serves one stdio session on pipes and talks to it in raw lines,
// as a client that writes JSON-RPC by hand would.
type rawStdio struct {
	t    *testing.T
	d    *protocol.Dispatcher
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startRawStdio(t *testing.T, maxLine int) *rawStdio {
	t.Helper()
	catalog := protocol.NewCatalog()
	d := protocol.NewDispatcher(catalog, protocol.NewBus(nil), nil)
	protocol.RegisterBuiltins(catalog, d)
	s := New(d, Options{Version: "test"})
	t.Cleanup(s.Close)
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	r := &rawStdio{t: t, d: d, in: fromClient, out: bufio.NewReader(toClient), done: make(chan error, 1)}
	go func() {
		r.done <- s.serveStdio(context.Background(), toServer, fromServer, maxLine)
		fromServer.Close()
	}()
	t.Cleanup(func() {
		fromClient.Close()
		if err := <-r.done; err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	})
	return r
}

func (r *rawStdio) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line); err != nil {
		r.t.Fatalf("writing %q: %v", line, err)
	}
}

// next reads the next line that is not a notification.
func (r *rawStdio) next() string {
	r.t.Helper()
	for {
		line, err := r.out.ReadString('\n')
		if err != nil {
			r.t.Fatalf("reading an answer: %v", err)
		}
		if !strings.HasPrefix(line, `{"jsonrpc":"2.0","method":`) {
			return strings.TrimSuffix(line, "\n")
		}
	}
}

func (r *rawStdio) initialize(version string) {
	r.t.Helper()
	r.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n")
	if got := r.next(); !strings.Contains(got, `"protocolVersion":"`+version+`"`) {
		r.t.Fatalf("initialize answered %s", got)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
}

func waitCall(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"mc_wait","arguments":{"ms":0}}}`, id)
}

// errorAnswer decodes an error answer, failing when the line is none.
func errorAnswer(t *testing.T, line string) (id any, code int, message string) {
	t.Helper()
	var a struct {
		ID    any `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &a); err != nil || a.Error == nil {
		t.Fatalf("want an error answer, got %s", line)
	}
	return a.ID, a.Error.Code, a.Error.Message
}

// TestStdioBadLinesAreAnswered: a line that is not a message gets a
// JSON-RPC error that says what was wrong (with its id when it had one),
// and the session goes on: the next call is answered. The SDK's own stdio
// transport would end the session instead.
func TestStdioBadLinesAreAnswered(t *testing.T) {
	r := startRawStdio(t, 256)
	r.initialize("2025-11-25")
	for _, tc := range []struct {
		line   string
		id     any
		code   int
		saying string
	}{
		{"{not json\n", nil, -32700, "not valid JSON"},
		{"\xff\xfe{}\n", nil, -32700, "not valid UTF-8"},
		{`{"jsonrpc":"1.0","id":"v","method":"ping"}` + "\n", "v", -32600, `"jsonrpc" must be "2.0"`},
		{`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"mc_wait","arguments":{"ms":0}},"pad":"` + strings.Repeat("x", 300) + `"}` + "\n", nil, -32600, "over the 256-byte limit"},
		{`[]` + "\n", nil, -32600, "the batch is empty"},
		{`[{"jsonrpc":"2.0","id":5,"method":"ping"}]` + "\n", nil, -32600, "batches are not part of protocol 2025-11-25"},
	} {
		r.send(tc.line)
		id, code, msg := errorAnswer(t, r.next())
		if id != tc.id || code != tc.code || !strings.Contains(msg, tc.saying) {
			t.Errorf("%q answered id %v, code %d, %q; want id %v, code %d, saying %q", tc.line, id, code, msg, tc.id, tc.code, tc.saying)
		}
		r.send(waitCall(1) + "\n")
		if got := r.next(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":1,"result":{`) {
			t.Fatalf("after %q, a call answered %s", tc.line, got)
		}
	}
	// Blank lines and a byte-order mark are nothing to answer.
	r.send("\n  \r\n\xef\xbb\xbf" + waitCall(2) + "\r\n")
	if got := r.next(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":2,"result":{`) {
		t.Fatalf("a call after blank lines answered %s", got)
	}
}

// TestStdioBatches: a 2025-03-26 client may send a JSON-RPC batch; its
// requests run and their answers come back as one array, in the batch's
// order. Notifications in it are answered by nothing.
func TestStdioBatches(t *testing.T) {
	r := startRawStdio(t, 0)
	r.initialize("2025-03-26")
	r.send(`[` + waitCall(11) + `,{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"x","progress":1}},{"jsonrpc":"2.0","id":"p","method":"ping"},` + waitCall(12) + `]` + "\n")
	var answers []struct {
		ID     any             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	line := r.next()
	if err := json.Unmarshal([]byte(line), &answers); err != nil {
		t.Fatalf("want an array of answers, got %s", line)
	}
	if len(answers) != 3 || answers[0].ID != 11.0 || answers[1].ID != "p" || answers[2].ID != 12.0 {
		t.Fatalf("answers %s, want ids 11, p, 12", line)
	}
	for _, a := range answers {
		if a.Error != nil || a.Result == nil {
			t.Errorf("answer %v failed: %s", a.ID, a.Error)
		}
	}
	r.send(`[` + waitCall(13) + `,` + waitCall(13) + `]` + "\n")
	if _, _, msg := errorAnswer(t, r.next()); !strings.Contains(msg, "uses id 13 twice") {
		t.Errorf("a batch with one id twice: %s", msg)
	}
	r.send(`[{"jsonrpc":"2.0","id":14,"method":"ping","_meta":1},{"jsonrpc":"2.0","id":15,"method":3}]` + "\n")
	if _, _, msg := errorAnswer(t, r.next()); !strings.Contains(msg, "message 2 of the batch") {
		t.Errorf("a batch with a bad message: %s", msg)
	}
}

// TestStdioEndOfInputStopsCalls: a client that closes its end has
// finished; what it left running is stopped, and the session ends.
func TestStdioEndOfInputStopsCalls(t *testing.T) {
	r := startRawStdio(t, 0)
	events := make(chan protocol.CallEvent, 16)
	defer r.d.Observe(func(ev protocol.CallEvent) { events <- ev })()
	r.initialize("2025-11-25")
	r.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"mc_wait","arguments":{"ms":600000}}}` + "\n")
	for ev := <-events; ev.Phase != protocol.Started; ev = <-events {
	}
	r.in.Close()
	ev := <-events
	if ev.Phase != protocol.Finished || ev.Response.OK || !strings.Contains(ev.Response.Error, "stopped") {
		t.Fatalf("the call left running answered %+v", ev.Response)
	}
	if err := <-r.done; err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	r.done <- nil // for the cleanup
}

// TestAppendMessageMatchesTheSDK: the lines the stdio transport writes
// itself say what jsonrpc.EncodeMessage says, and whatever it cannot write
// as is goes the SDK's way.
func TestAppendMessageMatchesTheSDK(t *testing.T) {
	id := func(v any) jsonrpc.ID {
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	for _, tc := range []struct {
		msg  jsonrpc.Message
		fast bool
	}{
		{&jsonrpc.Response{ID: id(float64(7)), Result: json.RawMessage(`{"content":[{"type":"text","text":"a\nb"}]}`)}, true},
		{&jsonrpc.Response{ID: id("c-1"), Result: json.RawMessage(`{}`)}, true},
		{&jsonrpc.Request{Method: "notifications/progress", Params: json.RawMessage(`{"progressToken":1,"progress":0.5}`)}, true},
		{&jsonrpc.Request{ID: id(float64(3)), Method: "ping"}, true},
		{&jsonrpc.Response{ID: id("quote\"d"), Result: json.RawMessage(`{}`)}, false},
		{&jsonrpc.Response{ID: id("ünïcode"), Result: json.RawMessage(`{}`)}, false},
		{&jsonrpc.Response{ID: id(float64(1)), Result: json.RawMessage("{\n}")}, false},
		{&jsonrpc.Response{ID: id(float64(1)), Result: json.RawMessage(`{"broken":`)}, false},
		{&jsonrpc.Response{ID: id(float64(1))}, false},
		{&jsonrpc.Response{ID: id(float64(2)), Error: &jsonrpc.Error{Code: -32602, Message: "no"}}, false},
	} {
		line, fast := appendMessage(nil, tc.msg)
		if fast != tc.fast {
			t.Errorf("%#v: written directly %v, want %v", tc.msg, fast, tc.fast)
		}
		if !fast {
			continue
		}
		want, err := jsonrpc.EncodeMessage(tc.msg)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(line, []byte("}\n")) || bytes.Count(line, []byte("\n")) != 1 {
			t.Errorf("%s is not one line", line)
		}
		var got, sdk any
		if err := json.Unmarshal(line, &got); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		json.Unmarshal(want, &sdk)
		if !reflect.DeepEqual(got, sdk) {
			t.Errorf("blockmate writes %s\nthe SDK writes  %s", line, want)
		}
	}
}

// TestStdioClientThatClosedOurOutputHasGone: a client that stopped reading
// (closed its end of our output) has gone as surely as one that closed our
// input, and the session ends without an error: a client that closes both
// ends at once, as the SDK's does, may have either seen first.
func TestStdioClientThatClosedOurOutputHasGone(t *testing.T) {
	catalog := protocol.NewCatalog()
	d := protocol.NewDispatcher(catalog, protocol.NewBus(nil), nil)
	protocol.RegisterBuiltins(catalog, d)
	s := New(d, Options{Version: "test"})
	t.Cleanup(s.Close)
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	defer fromClient.Close()
	done := make(chan error, 1)
	go func() { done <- s.serveStdio(context.Background(), toServer, fromServer, 0) }()
	toClient.Close()
	// The answer to initialize cannot be written: the reader is gone.
	go io.WriteString(fromClient, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n")
	if err := <-done; err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
}
