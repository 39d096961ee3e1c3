package mcp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/blockmate/blockmate/mcp"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`

// post sends an initialize request with the given headers and returns the
// status and body.
func post(t *testing.T, url string, headers map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(initialize))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, string(body)
}

// TestHTTPRefusals: no token, a wrong token (also one that shares the
// right one's prefix), another scheme, a web page's Origin and a rebinding
// Host are refused before MCP sees the request; the right token passes.
func TestHTTPRefusals(t *testing.T) {
	f := newFixture(t)
	const token = "right-token-0123456789"
	srv := httpServer(t, f, token)
	url := srv.URL + mcp.Path
	cases := []struct {
		name    string
		headers map[string]string
		status  int
		says    string
	}{
		{"no token", nil, 401, "Authorization: Bearer"},
		{"wrong token", map[string]string{"Authorization": "Bearer wrong"}, 401, "Authorization: Bearer"},
		{"the right token's prefix", map[string]string{"Authorization": "Bearer right-token"}, 401, "Authorization: Bearer"},
		{"the right token and more", map[string]string{"Authorization": "Bearer " + token + "x"}, 401, "Authorization: Bearer"},
		{"basic scheme", map[string]string{"Authorization": "Basic " + token}, 401, "Authorization: Bearer"},
		{"foreign origin", map[string]string{"Authorization": "Bearer " + token, "Origin": "https://evil.example"}, 403, "does not answer web pages"},
		{"rebinding origin", map[string]string{"Authorization": "Bearer " + token, "Origin": "http://attacker.example:" + srv.Listener.Addr().String()[strings.LastIndex(srv.Listener.Addr().String(), ":")+1:]}, 403, "does not answer web pages"},
		{"null origin", map[string]string{"Authorization": "Bearer " + token, "Origin": "null"}, 403, "does not answer web pages"},
		{"rebinding host", map[string]string{"Authorization": "Bearer " + token, "Host": "attacker.example"}, 403, "invalid Host"},
		{"right token", map[string]string{"Authorization": "Bearer " + token}, 200, `"serverInfo"`},
		{"right token, local origin", map[string]string{"Authorization": "Bearer " + token, "Origin": "http://localhost:6274"}, 200, `"serverInfo"`},
	}
	for _, c := range cases {
		status, body := post(t, url, c.headers)
		if status != c.status || !strings.Contains(body, c.says) {
			t.Errorf("%s: %d %q; want %d saying %q", c.name, status, body, c.status, c.says)
		}
		if strings.Contains(body, token) {
			t.Errorf("%s: the answer repeats the token: %q", c.name, body)
		}
	}
	if status, _ := post(t, srv.URL+"/elsewhere", map[string]string{"Authorization": "Bearer " + token}); status != 404 {
		t.Errorf("a path other than %s answered %d", mcp.Path, status)
	}
}

// TestCheckListenAddr: loopback is fine; every other address needs the
// flag that says so.
func TestCheckListenAddr(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:8765", "127.0.0.2:0", "[::1]:8765", "localhost:8765"} {
		if err := mcp.CheckListenAddr(addr, false); err != nil {
			t.Errorf("%s: %v", addr, err)
		}
	}
	for _, addr := range []string{":8765", "0.0.0.0:8765", "192.168.1.5:8765", "[::]:8765", "example.com:8765"} {
		err := mcp.CheckListenAddr(addr, false)
		if err == nil || !strings.Contains(err.Error(), "--allow-remote") {
			t.Errorf("%s: %v; want a refusal naming --allow-remote", addr, err)
		}
		if err := mcp.CheckListenAddr(addr, true); err != nil {
			t.Errorf("%s with --allow-remote: %v", addr, err)
		}
	}
	if err := mcp.CheckListenAddr("8765", false); err == nil || !strings.Contains(err.Error(), "host:port") {
		t.Errorf("a bare port: %v", err)
	}
}

func TestNewTokenIsFresh(t *testing.T) {
	a, err := mcp.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := mcp.NewToken()
	if a == b || len(a) < 40 {
		t.Errorf("tokens %q and %q", a, b)
	}
}

// rawHTTP talks to the HTTP handler as a client that writes requests by
// hand would, to see what goes over the wire: status, headers, body.
type rawHTTP struct {
	t       *testing.T
	url     string
	era     string
	session string
}

type rawAnswer struct {
	status int
	header http.Header
	body   string
}

// do sends method with body (a JSON-RPC message, or "") and the headers
// a client of r's era sends, plus extra.
func (r *rawHTTP) do(method, body string, extra map[string]string) rawAnswer {
	r.t.Helper()
	req, err := http.NewRequest(method, r.url, strings.NewReader(body))
	if err != nil {
		r.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer tok")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if r.session != "" {
		req.Header.Set("Mcp-Session-Id", r.session)
	}
	if r.era != "" {
		req.Header.Set("Mcp-Protocol-Version", r.era)
	}
	for k, v := range extra {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		r.t.Fatal(err)
	}
	return rawAnswer{resp.StatusCode, resp.Header, string(data)}
}

// open2025 opens a 2025-11-25 session by hand.
func open2025(t *testing.T, url string) *rawHTTP {
	t.Helper()
	r := &rawHTTP{t: t, url: url}
	a := r.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, nil)
	r.session = a.header.Get("Mcp-Session-Id")
	if a.status != 200 || r.session == "" || !strings.Contains(a.body, `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("initialize: %d, session %q, %s", a.status, r.session, a.body)
	}
	r.era = "2025-11-25"
	if a := r.do(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil); a.status != http.StatusAccepted || a.body != "" {
		t.Fatalf("notifications/initialized: %d %q; want 202 with no body", a.status, a.body)
	}
	return r
}

// sseMessages are the data of an event stream's message events.
func sseMessages(body string) []string {
	var out []string
	for _, event := range strings.Split(body, "\n\n") {
		for _, line := range strings.Split(event, "\n") {
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				out = append(out, data)
			}
		}
	}
	return out
}

// TestHTTPAnswersAsPlainJSONUnlessTheCallStreams: a call that sends nothing
// before its answer is answered as one application/json body; a call whose
// progress goes out while it runs is answered as an event stream, the
// progress first and the answer last, on that call's own response.
func TestHTTPAnswersAsPlainJSONUnlessTheCallStreams(t *testing.T) {
	f := newFixture(t)
	srv := httpServer(t, f, "tok")
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			r := &rawHTTP{t: t, url: srv.URL + mcp.Path, era: era}
			meta := `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
			if era < "2026" {
				r = open2025(t, srv.URL+mcp.Path)
				meta = ""
			}
			headers := map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "mc_wait"}
			a := r.do(http.MethodPost, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mc_wait","arguments":{"ms":0}`+meta+`}}`, headers)
			if a.status != 200 || a.header.Get("Content-Type") != "application/json" || !strings.HasPrefix(a.body, `{"jsonrpc":"2.0","id":7,"result":{`) || strings.Contains(a.body, `"isError":true`) {
				t.Errorf("a quick call: %d %q %s; want 200 application/json with the result", a.status, a.header.Get("Content-Type"), a.body)
			}

			withToken := strings.Replace(meta, `"_meta":{`, `"_meta":{"progressToken":"p1",`, 1)
			if era < "2026" {
				withToken = `,"_meta":{"progressToken":"p1"}`
			}
			a = r.do(http.MethodPost, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"mc_wait","arguments":{"ms":1200}`+withToken+`}}`, headers)
			msgs := sseMessages(a.body)
			if a.status != 200 || a.header.Get("Content-Type") != "text/event-stream" || len(msgs) < 2 {
				t.Fatalf("a call with progress: %d %q %s; want an event stream of progress, then the answer", a.status, a.header.Get("Content-Type"), a.body)
			}
			for _, m := range msgs[:len(msgs)-1] {
				if !strings.Contains(m, `"method":"notifications/progress"`) || !strings.Contains(m, `"progressToken":"p1"`) {
					t.Errorf("before the answer: %s; want only progress of p1", m)
				}
			}
			if last := msgs[len(msgs)-1]; !strings.HasPrefix(last, `{"jsonrpc":"2.0","id":8,"result":{`) {
				t.Errorf("last event %s; want the answer to 8", last)
			}
		})
	}
}

// TestHTTPSessions: the session rules of Streamable HTTP, over blockmate's
// own handling: a session's id in the answer to initialize; 202 for what
// needs no answer; an event stream on GET, one at a time; DELETE ends the
// session, after which it is unknown (404); and the refusals.
func TestHTTPSessions(t *testing.T) {
	f := newFixture(t)
	srv := httpServer(t, f, "tok")
	url := srv.URL + mcp.Path
	r := open2025(t, url)
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mc_test_break","arguments":{"what":"vase"}}}`
	if a := r.do(http.MethodPost, call, nil); a.status != 200 || !strings.Contains(a.body, `"structuredContent":{"broken":"vase"}`) {
		t.Errorf("a call in the session: %d %s", a.status, a.body)
	}

	// An event stream, held open while another is refused.
	ctx, cancel := context.WithCancel(testContext(t))
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer tok")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", r.session)
	req.Header.Set("Mcp-Protocol-Version", r.era)
	stream, err := http.DefaultClient.Do(req)
	if err != nil || stream.StatusCode != 200 || stream.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET: %v %+v", err, stream)
	}
	f.d.Events().Emit("mc_player_chat", "", map[string]any{"username": "Mallory", "message": "hi"})
	events := bufio.NewReader(stream.Body)
	for {
		line, err := events.ReadString('\n')
		if err != nil {
			t.Fatalf("the event stream ended before the event came: %v", err)
		}
		if strings.HasPrefix(line, "data: ") && strings.Contains(line, `"method":"notifications/message"`) && strings.Contains(line, `"mc_player_chat"`) {
			break
		}
	}
	if a := r.do(http.MethodGet, "", map[string]string{"Accept": "text/event-stream"}); a.status != http.StatusConflict {
		t.Errorf("a second GET stream: %d %s; want 409", a.status, a.body)
	}
	cancel()
	stream.Body.Close()

	refusals := []struct {
		name, method, body string
		headers            map[string]string
		status             int
		says               string
	}{
		{"GET without text/event-stream", http.MethodGet, "", map[string]string{"Accept": "application/json"}, 400, ""},
		{"a method HTTP has but MCP does not use", http.MethodPut, call, nil, 405, ""},
		{"not JSON", http.MethodPost, `{"jsonrpc":`, nil, 400, ""},
		{"another content type", http.MethodPost, call, map[string]string{"Content-Type": "text/plain"}, 415, ""},
		{"no text/event-stream accepted", http.MethodPost, call, map[string]string{"Accept": "application/json"}, 400, ""},
		{"a batch in 2025-11-25", http.MethodPost, "[" + call + "]", nil, 400, ""},
		{"a version nobody speaks", http.MethodPost, call, map[string]string{"Mcp-Protocol-Version": "1999-01-01"}, 400, ""},
		{"Last-Event-ID on a POST", http.MethodPost, call, map[string]string{"Last-Event-ID": "x_1"}, 400, ""},
		{"a 2026-07-28 request in a 2025 session", http.MethodPost, `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, nil, 400, `"code":-32022`},
	}
	for _, c := range refusals {
		if a := r.do(c.method, c.body, c.headers); a.status != c.status || !strings.Contains(a.body, c.says) {
			t.Errorf("%s: %d %s; want %d %s", c.name, a.status, a.body, c.status, c.says)
		}
	}

	if a := r.do(http.MethodDelete, "", nil); a.status != http.StatusNoContent {
		t.Errorf("DELETE: %d %s; want 204", a.status, a.body)
	}
	if a := r.do(http.MethodPost, call, nil); a.status != http.StatusNotFound {
		t.Errorf("a call in the deleted session: %d %s; want 404", a.status, a.body)
	}
	r.session = "no-such-session"
	if a := r.do(http.MethodPost, call, nil); a.status != http.StatusNotFound {
		t.Errorf("a call in an unknown session: %d %s; want 404", a.status, a.body)
	}
}

// TestSessionlessClientsWithTheSameIDs: 2026-07-28 requests of many
// clients share one server session, and clients number their requests
// alike: each still gets its own answer, under its own id.
func TestSessionlessClientsWithTheSameIDs(t *testing.T) {
	f := newFixture(t)
	srv := httpServer(t, f, "tok")
	meta := `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	var wg sync.WaitGroup
	for c := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &rawHTTP{t: t, url: srv.URL + mcp.Path, era: "2026-07-28"}
			for n := range 10 {
				what := fmt.Sprintf("c%d-%d", c, n)
				a := r.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"mc_test_break","arguments":{"what":"`+what+`"}`+meta+`}}`, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "mc_test_break"})
				if a.status != 200 || !strings.HasPrefix(a.body, `{"jsonrpc":"2.0","id":1,"result":{`) || !strings.Contains(a.body, `"structuredContent":{"broken":"`+what+`"}`) {
					t.Errorf("client %d asked to break %s: %d %s", c, what, a.status, a.body)
					return
				}
			}
		}()
	}
	wg.Wait()

	// What the fast path leaves to the SDK's handler is answered as the
	// SDK answers it: a name header that does not match the body.
	r := &rawHTTP{t: t, url: srv.URL + mcp.Path, era: "2026-07-28"}
	a := r.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"mc_wait","arguments":{"ms":0}`+meta+`}}`, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "mc_stop"})
	if a.status != 400 || !strings.Contains(a.body, "Mcp-Name") {
		t.Errorf("a mismatched Mcp-Name: %d %s; want the SDK's 400", a.status, a.body)
	}
}
