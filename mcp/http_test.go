package mcp_test

import (
	"io"
	"net/http"
	"strings"
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
