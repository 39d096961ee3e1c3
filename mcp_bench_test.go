package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
)

// BenchmarkToolRoundTrip measures one trivial call (mc_wait ms=0), one at a
// time, through every way in, in one run: the sidecar, and `blockmate mcp`
// over stdio and over Streamable HTTP in both protocol eras. The clients
// are minimal (raw lines, raw HTTP) so the figures are the server's, not a
// client library's. Each reports calls/s (from ns/op), p50/p99 latency and,
// on Linux, the CPU time the blockmate process spent per call
// (cpu-µs/call): on a shared, loaded machine the wall-clock figures swing
// with everyone else's work, while the CPU a call costs barely moves.
//
//	go test -run '^$' -bench ToolRoundTrip -benchtime 3000x .
//
// BLOCKMATE_BENCH_BIN names a built blockmate to measure instead of this
// tree's, so that two builds (before and after a change) can be measured
// alternately in one sitting, under the same load.
func BenchmarkToolRoundTrip(b *testing.B) {
	bin := os.Getenv("BLOCKMATE_BENCH_BIN")
	if bin == "" {
		bin = buildPlain(b)
	}
	b.Run("sidecar", func(b *testing.B) {
		roundTrip, pid := sidecarRoundTrip(b, bin)
		measure(b, pid, roundTrip)
	})
	// paired-stdio alternates a sidecar call and an MCP call of each era,
	// so that all three meet the same moments of the machine's load: on a
	// shared machine this is the fair comparison of their latencies.
	b.Run("paired-stdio", func(b *testing.B) {
		sidecar, _ := sidecarRoundTrip(b, bin)
		mcp2025, _ := stdioRoundTrip(b, bin, "2025-11-25")
		mcp2026, _ := stdioRoundTrip(b, bin, "2026-07-28")
		measurePaired(b, []string{"sidecar", "mcp-2025", "mcp-2026"}, []func(){sidecar, mcp2025, mcp2026})
	})
	// paired-http does the same with MCP over HTTP: the sidecar, then a
	// call of each era over Streamable HTTP, in turn.
	b.Run("paired-http", func(b *testing.B) {
		sidecar, _ := sidecarRoundTrip(b, bin)
		http2025, _ := httpRoundTrip(b, bin, "2025-11-25")
		http2026, _ := httpRoundTrip(b, bin, "2026-07-28")
		measurePaired(b, []string{"sidecar", "http-2025", "http-2026"}, []func(){sidecar, http2025, http2026})
	})
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		b.Run("mcp-stdio-"+era, func(b *testing.B) {
			roundTrip, pid := stdioRoundTrip(b, bin, era)
			measure(b, pid, roundTrip)
		})
		b.Run("mcp-http-"+era, func(b *testing.B) {
			roundTrip, pid := httpRoundTrip(b, bin, era)
			measure(b, pid, roundTrip)
		})
	}
}

// httpRoundTrip starts `bin mcp --http`, speaks era's handshake over one
// kept-alive connection, and returns one mc_wait ms=0 round trip through
// it, and the server's process id.
func httpRoundTrip(b *testing.B, bin, era string) (func(), int) {
	url, token, pid := startHTTP(b, bin)
	c := dialRawHTTP(b, url, token, era)
	if era < "2026" {
		// The initialize request carries no version header yet.
		_, header, _ := c.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+era+`","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`, "", false)
		c.session = header.Get("Mcp-Session-Id")
		c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "notifications/initialized", true)
	}
	id := 0
	return func() {
		id++
		_, _, data := c.post(callLine(id, era), "tools/call", true)
		if !bytes.Contains(data, []byte(fmt.Sprintf(`"id":%d,"result":{`, id))) || bytes.Contains(data, []byte(`"isError":true`)) {
			b.Fatalf("call %d answered %s", id, data)
		}
	}, pid
}

// measurePaired warms up, then times b.N rounds of trips, one of each in
// turn, and reports each one's p50, p99 and mean latency, and how many
// times the sidecar's (the first) the others' mean and p99 are: for calls
// made one at a time, the ratio of the means is the ratio of calls/s.
func measurePaired(b *testing.B, names []string, trips []func()) {
	for range 300 {
		for _, trip := range trips {
			trip()
		}
	}
	lat := make([][]time.Duration, len(trips))
	b.ResetTimer()
	for range b.N {
		for i, trip := range trips {
			t := time.Now()
			trip()
			lat[i] = append(lat[i], time.Since(t))
		}
	}
	b.StopTimer()
	var p99, mean []float64
	for i, l := range lat {
		var sum time.Duration
		for _, d := range l {
			sum += d
		}
		sort.Slice(l, func(a, b int) bool { return l[a] < l[b] })
		p99 = append(p99, float64(l[len(l)*99/100].Nanoseconds())/1000)
		mean = append(mean, float64(sum.Nanoseconds())/1000/float64(len(l)))
		b.ReportMetric(float64(l[len(l)/2].Nanoseconds())/1000, "p50-µs-"+names[i])
		b.ReportMetric(p99[i], "p99-µs-"+names[i])
		b.ReportMetric(mean[i], "mean-µs-"+names[i])
	}
	for i := 1; i < len(names); i++ {
		b.ReportMetric(mean[i]/mean[0], "x-"+names[i])
		b.ReportMetric(p99[i]/p99[0], "p99-x-"+names[i])
	}
}

// rawHTTP is a minimal HTTP/1.1 client on one kept-alive connection, as
// minimal as the raw lines the stdio benchmarks write: Go's http.Client
// spends more CPU per request on this machine (about 130 µs, in goroutines
// of its own per connection) than the sidecar spends on a whole call, and
// would measure itself rather than the server. It writes each request in
// one write and reads the answer whole (a Content-Length body, or a chunked
// one as an SSE stream comes).
type rawHTTP struct {
	b       *testing.B
	conn    net.Conn
	r       *bufio.Reader
	head    string
	era     string
	session string
	buf     []byte
}

func dialRawHTTP(b *testing.B, url, token, era string) *rawHTTP {
	hostPath := strings.TrimPrefix(url, "http://")
	host, path, _ := strings.Cut(hostPath, "/")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	head := "POST /" + path + " HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + token + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
	return &rawHTTP{b: b, conn: conn, r: bufio.NewReaderSize(conn, 1<<16), head: head, era: era}
}

// post sends body and returns the answer's status, headers and body.
func (c *rawHTTP) post(body, method string, version bool) (int, http.Header, []byte) {
	req := append(c.buf[:0], c.head...)
	if c.session != "" {
		req = append(append(append(req, "Mcp-Session-Id: "...), c.session...), "\r\n"...)
	}
	if version {
		req = append(append(append(req, "Mcp-Protocol-Version: "...), c.era...), "\r\n"...)
	}
	if c.era >= "2026" {
		req = append(append(append(req, "Mcp-Method: "...), method...), "\r\nMcp-Name: mc_wait\r\n"...)
	}
	req = append(strconv.AppendInt(append(req, "Content-Length: "...), int64(len(body)), 10), "\r\n\r\n"...)
	req = append(req, body...)
	c.buf = req
	if _, err := c.conn.Write(req); err != nil {
		c.b.Fatal(err)
	}
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil {
		c.b.Fatal(err)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode/100 != 2 {
		c.b.Fatalf("%s: %d %s %v", method, resp.StatusCode, data, err)
	}
	return resp.StatusCode, resp.Header, data
}

// sidecarRoundTrip starts `bin sidecar` and returns one mc_wait ms=0 round
// trip through it, and its process id.
func sidecarRoundTrip(b *testing.B, bin string) (func(), int) {
	in, out, pid, stop := startPiped(b, bin, "sidecar", "--log-level", "warn")
	b.Cleanup(stop)
	req := []byte(`{"id":"b","tool":"mc_wait","args":{"ms":0}}` + "\n")
	return func() {
		if _, err := in.Write(req); err != nil {
			b.Fatal(err)
		}
		line, err := out.ReadSlice('\n')
		if err != nil || !bytes.HasPrefix(line, []byte(`{"id":"b","ok":true`)) {
			b.Fatalf("%q %v", line, err)
		}
	}, pid
}

// stdioRoundTrip starts `bin mcp` on stdio, speaks era's handshake, and
// returns one mc_wait ms=0 round trip through it, and its process id.
func stdioRoundTrip(b *testing.B, bin, era string) (func(), int) {
	in, out, pid, stop := startPiped(b, bin, "mcp", "--log-level", "warn")
	b.Cleanup(stop)
	if era < "2026" {
		io.WriteString(in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+era+`","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`+"\n")
		readID(b, out, 0)
		io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	}
	id := 0
	return func() {
		id++
		if _, err := io.WriteString(in, callLine(id, era)+"\n"); err != nil {
			b.Fatal(err)
		}
		readID(b, out, id)
	}, pid
}

// callLine is a tools/call of mc_wait ms=0 in era's form: 2026-07-28
// requests carry their version and capabilities in _meta.
func callLine(id int, era string) string {
	meta := ""
	if era >= "2026" {
		meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + era + `","io.modelcontextprotocol/clientCapabilities":{}}`
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"mc_wait","arguments":{"ms":0}%s}}`, id, meta)
}

// readID reads lines until the response to id, which must be a success.
func readID(b *testing.B, out *bufio.Reader, id int) {
	prefix := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{`, id))
	for {
		line, err := out.ReadSlice('\n')
		if err != nil {
			b.Fatalf("reading the answer to %d: %v", id, err)
		}
		if bytes.HasPrefix(line, prefix) {
			if bytes.Contains(line, []byte(`"isError":true`)) {
				b.Fatalf("call %d failed: %s", id, line)
			}
			return
		}
		if bytes.Contains(line, []byte(`"id":`)) && !bytes.Contains(line, []byte(`"method"`)) {
			b.Fatalf("unexpected answer: %s", line)
		}
	}
}

// startPiped runs bin with args on pipes.
func startPiped(b *testing.B, bin string, args ...string) (io.Writer, *bufio.Reader, int, func()) {
	cmd := exec.Command(bin, args...)
	in, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return in, bufio.NewReaderSize(stdout, 1<<16), cmd.Process.Pid, func() { in.Close(); cmd.Wait() }
}

// startHTTP runs `bin mcp --http 127.0.0.1:0` and returns its URL, token
// and process id.
func startHTTP(b *testing.B, bin string) (url, token string, pid int) {
	cmd := exec.Command(bin, "mcp", "--http", "127.0.0.1:0", "--log-level", "warn")
	sidecartest.OwnProcessGroup(cmd)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	urlRe := regexp.MustCompile(`MCP server at (\S+)$`)
	tokenRe := regexp.MustCompile(`bearer token for this run: (\S+)$`)
	for sc.Scan() && (url == "" || token == "") {
		if m := urlRe.FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
		if m := tokenRe.FindStringSubmatch(sc.Text()); m != nil {
			token = m[1]
		}
	}
	if url == "" || token == "" {
		b.Fatal("blockmate mcp --http printed no URL or token")
	}
	go io.Copy(io.Discard, stderr)
	return url, token, cmd.Process.Pid
}

// measure warms up, then times b.N round trips and reports calls/s, the
// p50 and p99 latency, and the CPU time process pid spent per call.
func measure(b *testing.B, pid int, roundTrip func()) {
	for range 300 {
		roundTrip()
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	cpuBefore, cpuOK := processCPU(pid)
	start := time.Now()
	for range b.N {
		t := time.Now()
		roundTrip()
		lat = append(lat, time.Since(t))
	}
	elapsed := time.Since(start)
	cpuAfter, cpuOK2 := processCPU(pid)
	b.StopTimer()
	if cpuOK && cpuOK2 {
		b.ReportMetric(float64((cpuAfter-cpuBefore).Nanoseconds())/1000/float64(b.N), "cpu-µs/call")
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1000, "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1000, "p99-µs")
}

// processCPU is the CPU time all threads of process pid have run, from
// Linux's /proc/PID/task/*/schedstat (nanoseconds, unlike the 10 ms ticks
// of /proc/PID/stat); ok is false elsewhere.
func processCPU(pid int) (cpu time.Duration, ok bool) {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, false
	}
	for _, t := range tasks {
		raw, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue // the thread ended meanwhile
		}
		var ns int64
		if _, err := fmt.Sscan(string(raw), &ns); err != nil {
			return 0, false
		}
		cpu += time.Duration(ns)
	}
	return cpu, true
}
