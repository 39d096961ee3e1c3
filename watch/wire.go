// Package watch lets a console attach to a blockmate that another program
// runs (`blockmate sidecar --watch-socket PATH`, `blockmate mcp
// --watch-socket PATH`, then `blockmate attach PATH`): the console sees the
// parent's calls and events live and its calls go through the parent's one
// dispatcher, while nothing of this reaches the parent's stdout.
//
// The socket is local and private: a Unix socket only its owner may open
// (mode 0600, and the peer's user id is checked where the system tells
// it); on Windows, which the socket path cannot protect the same way, a
// loopback TCP port whose address and a random token are written to PATH,
// and the console proves it read the file by sending the token.
//
// # The wire
//
// JSON Lines, one object per line, its "type" first. The process writes:
//
//	{"type":"hello","version":"…","id_prefix":"w1-","tools":[{"name":…,"description":…,"effect":…,"untrusted_text":…,"idempotent":…,"local_only":…,"args":[{"Name":…,"Kind":…,…}]}],"history":{"events":[{"type":"event",…}],"calls":[{"type":"call","phase":"finished",…}]}}
//	{"type":"event","name":"mc_player_chat","payload":{…},"at":"2026-…Z"}
//	{"type":"call","phase":"started","id":"c1","tool":"mc_wait","args":{"ms":500},"origin":"sidecar","started":"…"}
//	{"type":"call","phase":"finished","id":"c1","tool":"mc_wait","args":{…},"origin":"sidecar","started":"…","duration_ns":500123456,"response":{"id":"c1","ok":true,"result":{…}}}
//	{"type":"response","response":{"id":"w1-c3","ok":false,"error":"…"}}
//
// hello comes first, once, with the history: the latest events (up to 200)
// and finished calls (up to 100) from before the console attached, oldest
// first, so a console that attaches mid-session has context; then the
// calls running at that moment, as started. event is an event exactly as
// the sidecar pushes it, with its time; call is a call of any transport
// starting or finishing (the sidecar's own, an MCP client's, another
// console's); response answers a call this console made. A console that
// reads too slowly loses lines and is then told how many: events by an
// mc_events_dropped event, calls by an mc_call_events_dropped event
// (protocol.CallEventsDropped). The console writes:
//
//	{"type":"attach","token":""}
//	{"type":"call","id":"w1-c3","tool":"mc_stop","args":{},"origin":"console"}
//	{"type":"cancel","id":"w1-c3"}
//
// attach comes first (its token is empty on Unix); call runs a request
// through the dispatcher, its id starting with the hello's id_prefix, its
// origin "console" (shown in every timeline) or "internal" (the console's
// own status poll, shown nowhere); cancel stops that console's call alone.
// A console that disconnects changes nothing: its calls run on to their end.
package watch

import (
	"encoding/json"
	"time"

	"github.com/blockmate/blockmate/protocol"
)

// toolSpec is a catalog entry on the wire: everything but the handler.
type toolSpec struct {
	Name          string          `json:"name"`
	Description   string          `json:"description"`
	Effect        protocol.Effect `json:"effect"`
	UntrustedText bool            `json:"untrusted_text"`
	Idempotent    bool            `json:"idempotent"`
	LocalOnly     bool            `json:"local_only"`
	Args          []argFields     `json:"args"`
}

// argFields is protocol.Arg without its JSON Schema rendering: the fields
// as they are, so the console rebuilds the very same argument.
type argFields protocol.Arg

type helloLine struct {
	Type     string       `json:"type"`
	Version  string       `json:"version"`
	IDPrefix string       `json:"id_prefix"`
	Tools    []toolSpec   `json:"tools"`
	History  *historyLine `json:"history,omitempty"`
}

// historyLine is what happened before the console attached, oldest first.
type historyLine struct {
	Events []eventLine `json:"events"`
	Calls  []callLine  `json:"calls"`
}

type eventLine struct {
	Type    string          `json:"type"`
	Name    string          `json:"name"`
	Payload json.RawMessage `json:"payload"`
	At      time.Time       `json:"at"`
}

type callLine struct {
	Type       string                     `json:"type"`
	Phase      string                     `json:"phase"`
	ID         json.RawMessage            `json:"id"`
	Tool       string                     `json:"tool"`
	Args       map[string]json.RawMessage `json:"args,omitempty"`
	Origin     protocol.Origin            `json:"origin,omitempty"`
	Started    time.Time                  `json:"started"`
	DurationNS int64                      `json:"duration_ns,omitempty"`
	Response   *protocol.Response         `json:"response,omitempty"`
}

type responseLine struct {
	Type     string            `json:"type"`
	Response protocol.Response `json:"response"`
}

// clientLine is any line the console writes.
type clientLine struct {
	Type   string                     `json:"type"`
	Token  string                     `json:"token,omitempty"`
	ID     json.RawMessage            `json:"id,omitempty"`
	Tool   string                     `json:"tool,omitempty"`
	Args   map[string]json.RawMessage `json:"args,omitempty"`
	Origin protocol.Origin            `json:"origin,omitempty"`
}

// line adapts any value to the LineWriter, which takes json.Marshalers.
type line struct{ v any }

func (l line) MarshalJSON() ([]byte, error) { return json.Marshal(l.v) }

const (
	phaseStarted  = "started"
	phaseFinished = "finished"
)

// maxLine bounds one line either way; the longest is a hello with the
// whole catalog.
const maxLine = 4 << 20
