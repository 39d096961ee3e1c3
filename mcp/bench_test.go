package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/mcp"
)

// BenchmarkStdioCall measures one trivial call (mc_wait ms=0) through the
// server's stdio loop in process, with a raw client, in both protocol
// eras: the MCP layer's own cost, without process and pipe scheduling.
// Profile it with -cpuprofile and -memprofile.
func BenchmarkStdioCall(b *testing.B) {
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		b.Run(era, func(b *testing.B) {
			f := newFixture(&testing.T{})
			toServer, fromClient := io.Pipe()
			toClient, fromServer := io.Pipe()
			ctx, stop := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { f.server.ServeStdio(ctx, toServer, fromServer); close(done) }()
			defer func() { fromClient.Close(); stop(); <-done }()
			out := bufio.NewReader(toClient)
			meta := ""
			if era < "2026" {
				io.WriteString(fromClient, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+era+`","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n")
				out.ReadSlice('\n')
				io.WriteString(fromClient, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
			} else {
				meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + era + `","io.modelcontextprotocol/clientCapabilities":{}}`
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				fmt.Fprintf(fromClient, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"mc_wait","arguments":{"ms":0}%s}}`+"\n", i+1, meta)
				line, err := out.ReadSlice('\n')
				if err != nil || !bytes.Contains(line, []byte(`"result"`)) {
					b.Fatalf("%q %v", line, err)
				}
			}
		})
	}
}

// BenchmarkHTTPCall measures one trivial call (mc_wait ms=0) through the
// HTTP handler in process, over loopback with a keep-alive client, in both
// protocol eras: the MCP layer's own cost over HTTP. Profile it with
// -cpuprofile and -memprofile.
func BenchmarkHTTPCall(b *testing.B) {
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		b.Run(era, func(b *testing.B) {
			f := newFixture(&testing.T{})
			srv := httptest.NewServer(f.server.HTTPHandler(mcp.HTTPOptions{Token: "tok"}))
			defer srv.Close()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
			defer client.CloseIdleConnections()
			session := ""
			post := func(body, method string, version bool) []byte {
				req, _ := http.NewRequest(http.MethodPost, srv.URL+mcp.Path, strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer tok")
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				if session != "" {
					req.Header.Set("Mcp-Session-Id", session)
				}
				if version {
					req.Header.Set("Mcp-Protocol-Version", era)
				}
				if era >= "2026" {
					req.Header.Set("Mcp-Method", method)
					req.Header.Set("Mcp-Name", "mc_wait")
				}
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				data, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode/100 != 2 {
					b.Fatalf("%s: %d %s %v", method, resp.StatusCode, data, err)
				}
				if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
					session = s
				}
				return data
			}
			meta := ""
			if era < "2026" {
				post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+era+`","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`, "initialize", false)
				post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "notifications/initialized", true)
			} else {
				meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + era + `","io.modelcontextprotocol/clientCapabilities":{}}`
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				data := post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"mc_wait","arguments":{"ms":0}%s}}`, i+1, meta), "tools/call", true)
				if !bytes.Contains(data, []byte(fmt.Sprintf(`"id":%d,"result":{`, i+1))) {
					b.Fatalf("%q", data)
				}
			}
		})
	}
}
