package mcp

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzDecodeBody: whatever a client POSTs, the HTTP handling's decoder
// neither panics nor loses a message: a body it accepts holds exactly the
// messages the envelope decoder finds in it (one, or each of a batch), and
// the facts the session-less path reads from a request's params (name, the
// _meta version) agree with encoding/json's reading.
func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"mc_wait","arguments":{"ms":0},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5,"_meta":[1]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"x"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"a\u0062","name":"c","_meta":{"io.modelcontextprotocol/protocolVersion":"v\"1"}}}`,
		` [] `, `[`, ``, `{"jsonrpc":"2.0","id":7,"result":{}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		msgs, isBatch, err := decodeBody(body)
		if err != nil {
			return
		}
		if len(msgs) == 0 || (!isBatch && len(msgs) != 1) {
			t.Fatalf("%q: %d messages, batch %v", body, len(msgs), isBatch)
		}
		for _, msg := range msgs {
			req, ok := msg.(*jsonrpc.Request)
			if !ok || len(req.Params) == 0 {
				continue
			}
			name, version := requestFacts(req.Params)
			// Keys match in exact case, as the SDK's decoder matches them
			// ("nAme" is not "name"); a key given twice counts by its last
			// value.
			var members map[string]json.RawMessage
			if json.Unmarshal(req.Params, &members) != nil {
				if name != "" || version != "" {
					t.Fatalf("%q: facts %q, %q from params that are not an object", req.Params, name, version)
				}
				continue
			}
			var wantName string
			json.Unmarshal(members["name"], &wantName)
			var meta map[string]json.RawMessage
			var wantVersion string
			if json.Unmarshal(members["_meta"], &meta) == nil {
				json.Unmarshal(meta["io.modelcontextprotocol/protocolVersion"], &wantVersion)
			}
			if name != wantName || version != wantVersion {
				t.Fatalf("%q: name %q, version %q; want %q, %q", req.Params, name, version, wantName, wantVersion)
			}
		}
	})
}
