package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzDecodeMessage holds blockmate's envelope decoder to the SDK's own
// (jsonrpc.DecodeMessage) on any line a client may send: nothing panics,
// and whatever the SDK reads as a message, ours reads as the same message
// (kind, id, method, params, result, error). Ours may refuse more, never
// less: invalid UTF-8 (which JSON does not allow), text after the value
// (which DecodeMessage ignores, but the SDK's stdio transport refuses too),
// and a null where JSON-RPC requires a string (the SDK reads
// "method":null as a notification named "", found by this fuzzer in CI).
func FuzzDecodeMessage(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"mc_wait","arguments":{"ms":0}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"a\"b","result":{"x":[1,{"y":"}"}]}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no","data":{"k":null}}}`,
		`{"jsonrpc":"2.0","id":null,"method":""}`,
		`{"jsonrpc":"2.0","Method":"x","id":1}`,
		`{"jsonrpc":"2.0","\u006dethod":"x","id":1.5}`,
		`{"id":1,"id":"two","jsonrpc":"2.0","method":"m","method":"n"}`,
		`{"jsonrpc":"1.0","id":true,"method":3}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		` { "jsonrpc" : "2.0" , "id" : -0 , "method" : "ping" , "params" : null } `,
		`null`, `"x"`, `{}`, `{"jsonrpc":"2.0"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		got, lerr := decodeMessage(line)
		want, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			return
		}
		if lerr != nil {
			if !utf8.Valid(line) || !json.Valid(line) || strings.Contains(lerr.msg, "must be a string; got null") {
				return
			}
			t.Fatalf("the SDK reads %q as %#v; blockmate refuses it: %s", line, want, lerr.msg)
		}
		switch w := want.(type) {
		case *jsonrpc.Request:
			g, ok := got.(*jsonrpc.Request)
			if !ok || g.ID != w.ID || g.Method != w.Method || !bytes.Equal(g.Params, w.Params) {
				t.Fatalf("%q:\nblockmate %#v\nSDK       %#v", line, got, want)
			}
		case *jsonrpc.Response:
			g, ok := got.(*jsonrpc.Response)
			if !ok || g.ID != w.ID || !bytes.Equal(g.Result, w.Result) || !sameWireError(g.Error, w.Error) {
				t.Fatalf("%q:\nblockmate %#v\nSDK       %#v", line, got, want)
			}
		}
	})
}

func sameWireError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var wa, wb *jsonrpc.Error
	if !errors.As(a, &wa) || !errors.As(b, &wb) {
		return false
	}
	return wa.Code == wb.Code && wa.Message == wb.Message && bytes.Equal(wa.Data, wb.Data)
}

// TestDecodeMessageRefusals: a line that is no message is refused with a
// sentence that says what is wrong, and with the id when there is one.
func TestDecodeMessageRefusals(t *testing.T) {
	for _, tc := range []struct {
		line   string
		code   int64
		hasID  bool
		saying string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":`, jsonrpc.CodeParseError, false, "not valid JSON"},
		{`[1,2]x`, jsonrpc.CodeParseError, false, "not valid JSON"},
		{`42`, jsonrpc.CodeInvalidRequest, false, "a JSON-RPC message is an object; got 42"},
		{`{"jsonrpc":"2.0","id":{},"method":"ping"}`, jsonrpc.CodeInvalidRequest, false, `"id" must be a string, a number or null`},
		{`{"jsonrpc":"1.0","id":3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, true, `"jsonrpc" must be "2.0"; got "1.0"`},
		{`{"jsonrpc":"2.0","id":3,"method":7}`, jsonrpc.CodeInvalidRequest, true, `"method" must be a string; got 7`},
		{`{"jsonrpc":"2.0","result":{}}`, jsonrpc.CodeInvalidRequest, false, `neither "method"`},
		{`{"jsonrpc":"2.0","id":"r","error":"bad"}`, jsonrpc.CodeInvalidRequest, true, `"error" must be an object`},
	} {
		_, lerr := decodeMessage([]byte(tc.line))
		if lerr == nil {
			t.Errorf("%s: accepted", tc.line)
			continue
		}
		if lerr.code != tc.code || lerr.id.IsValid() != tc.hasID || !bytes.Contains([]byte(lerr.msg), []byte(tc.saying)) {
			t.Errorf("%s: code %d, id %v, %q; want code %d, an id %v, saying %q", tc.line, lerr.code, lerr.id.Raw(), lerr.msg, tc.code, tc.hasID, tc.saying)
		}
	}
}
