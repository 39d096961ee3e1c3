package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestMarshalKeepsHTMLCharacters(t *testing.T) {
	v := struct {
		Text   string          `json:"text"`
		Raw    json.RawMessage `json:"raw"`
		Schema Schema          `json:"schema"`
	}{"Tom & Jerry <3>", json.RawMessage(`{"a":"<b>&"}`), Schema{Str("q", "x & <y>")}}
	b, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"text":"Tom & Jerry <3>","raw":{"a":"<b>&"},"schema":{"type":"object","properties":{"q":{"type":"string","description":"x & <y>"}},"additionalProperties":false}}`
	if string(b) != want {
		t.Errorf("Marshal = %s\nwant      %s", b, want)
	}
}

// Nothing the sidecar writes escapes "&", "<" or ">": not a result, not an
// error, not an event.
func TestSidecarOutputIsNotHTMLEscaped(t *testing.T) {
	d := newTestDispatcher(t)
	p := startPipeSidecar(t, d, SidecarOptions{})
	p.send(`{"id":"e1","tool":"mc_echo","args":{"text":"Tom & Jerry <3>"}}`)
	if r := p.response(t); r["id"] != "e1" {
		t.Fatalf("response = %v", r)
	}
	p.send(`{"id":"u1","tool":"mc_<x>&"}`)
	if r := p.response(t); r["id"] != "u1" {
		t.Fatalf("response = %v", r)
	}
	d.Events().Emit("mc_system_chat", "", struct {
		Message   string `json:"message"`
		Untrusted bool   `json:"untrusted"`
	}{"a <b> & c", true})
	for line := range p.lines {
		if strings.HasPrefix(line, `{"type":"event"`) {
			break
		}
	}
	p.in.Close()
	<-p.done
	p.mu.Lock()
	out := strings.Join(p.written, "\n")
	p.mu.Unlock()
	for _, want := range []string{`{"id":"e1","ok":true,"result":{"said":"Tom & Jerry <3>"}}`, `unknown tool \"mc_<x>&\"`, `{"type":"event","name":"mc_system_chat","payload":{"message":"a <b> & c","untrusted":true}}`} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %s:\n%s", want, out)
		}
	}
	for _, esc := range []string{`\u0026`, `\u003c`, `\u003e`} {
		if strings.Contains(out, esc) {
			t.Errorf("stdout contains %s:\n%s", esc, out)
		}
	}
}
