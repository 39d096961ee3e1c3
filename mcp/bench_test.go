package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
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
