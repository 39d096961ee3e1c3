package watch

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/blockmate/blockmate/protocol"
)

// FuzzClientRead feeds arbitrary bytes to a console's reader, as a broken
// or hostile process on the socket might send: nothing panics, every line
// is either used or skipped, a call waiting for its answer gets one, and
// the end is reported.
func FuzzClientRead(f *testing.F) {
	f.Add([]byte(`{"type":"event","name":"mc_player_chat","payload":{"username":"alex"},"at":"2026-01-01T00:00:00Z"}` + "\n"))
	f.Add([]byte(`{"type":"call","phase":"finished","id":"c1","tool":"mc_wait","args":{"ms":1},"origin":"sidecar","started":"2026-01-01T00:00:00Z","duration_ns":5,"response":{"id":"c1","ok":true,"result":{}}}` + "\n"))
	f.Add([]byte(`{"type":"response","response":{"id":"w1-c1","ok":false,"error":"no"}}` + "\n"))
	f.Add([]byte(`{"type":"call","phase":"started","id":null}` + "\n{]\n\x00\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &Client{path: "fuzz", pending: map[string]chan protocol.Response{}, subs: map[int]chan protocol.Event{},
			observers: map[int]func(protocol.CallEvent){}, done: make(chan struct{})}
		answer := make(chan protocol.Response, 1)
		c.pending[`"w1-c1"`] = answer
		events, _ := c.Subscribe(64)
		c.Observe(func(protocol.CallEvent) {})
		c.read(protocol.NewLineReader(bytes.NewReader(data), maxLine))
		<-c.Done()
		select {
		case r := <-answer:
			if !r.OK && r.Error == "" {
				t.Errorf("the waiting call got an empty refusal: %+v", r)
			}
		default:
			t.Error("the waiting call got no answer")
		}
		var last protocol.Event
		for len(events) > 0 {
			last = <-events
		}
		if last.Name != EndedEvent || !json.Valid(last.Payload) {
			t.Errorf("the last event is %q, want %s", last.Name, EndedEvent)
		}
	})
}
