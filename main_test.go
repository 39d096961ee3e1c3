package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blockmate/blockmate/internal/testkit/netnstest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
	"github.com/blockmate/blockmate/lan"
)

func TestHelpVersionAndUnknownCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"--help"}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "blockmate sidecar [flags]") {
		t.Fatalf("--help: %d %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"--version"}, nil, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "blockmate ") {
		t.Fatalf("--version: %d %q", code, out.String())
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"fly"}, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), `unknown command "fly"`) || out.Len() != 0 {
		t.Fatalf("unknown command: %d %q %q", code, out.String(), errOut.String())
	}
	// The sidecar's help must not touch stdout, which belongs to the protocol.
	out.Reset()
	errOut.Reset()
	if code := run([]string{"sidecar", "--help"}, nil, &out, &errOut); code != 0 || out.Len() != 0 || !strings.Contains(errOut.String(), "-max-line") {
		t.Fatalf("sidecar --help: %d stdout %q", code, out.String())
	}
}

func TestToolsPrintsTheCatalog(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"tools"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var listing struct {
		Count int `json:"count"`
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Args        json.RawMessage `json:"args"`
			Effect      string          `json:"effect"`
		} `json:"tools"`
		Events []struct {
			Name string `json:"name"`
		} `json:"events"`
	}
	if err := json.Unmarshal(out.Bytes(), &listing); err != nil {
		t.Fatal(err)
	}
	parts := wire(slog.New(slog.DiscardHandler))
	if listing.Count != len(parts.catalog.Names()) || listing.Count != len(listing.Tools) || len(listing.Events) == 0 {
		t.Fatalf("listed %d tools, catalog has %d", listing.Count, len(parts.catalog.Names()))
	}
	for _, tool := range listing.Tools {
		if tool.Description == "" || !bytes.Contains(tool.Args, []byte(`"type": "object"`)) || tool.Effect == "" {
			t.Errorf("%s is listed without description, schema or effect", tool.Name)
		}
	}
}

// transcript is one file of testdata/transcripts.
type transcript struct {
	steps []step
}

type step struct {
	kind string // send, expect, stderr, wait-running, wait-answered
	text string
	line int
}

func parseTranscript(t *testing.T, path string) transcript {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var tr transcript
	for i, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "> "):
			tr.steps = append(tr.steps, step{"send", l[2:], i + 1})
		case strings.HasPrefix(l, "< "):
			tr.steps = append(tr.steps, step{"expect", l[2:], i + 1})
		case strings.HasPrefix(l, "stderr: "):
			tr.steps = append(tr.steps, step{"stderr", l[8:], i + 1})
		case strings.HasPrefix(l, "wait running "):
			tr.steps = append(tr.steps, step{"wait-running", l[13:], i + 1})
		case strings.HasPrefix(l, "wait answered "):
			tr.steps = append(tr.steps, step{"wait-answered", l[14:], i + 1})
		case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#"):
		default:
			t.Fatalf("%s:%d: cannot read %q", path, i+1, l)
		}
	}
	return tr
}

// matches reports whether got equals want, where the string "<any>" in want
// matches any value.
func matches(want, got any) bool {
	if s, ok := want.(string); ok && s == "<any>" {
		return true
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, v := range w {
			if gv, ok := g[k]; !ok || !matches(v, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !matches(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}

// TestTranscripts pipes each transcript into a real `blockmate sidecar` and
// checks every response, the log, the exit code, and that stdout carried
// nothing but protocol for the whole run.
func TestTranscripts(t *testing.T) {
	bin := sidecartest.Build(t)
	files, _ := filepath.Glob("testdata/transcripts/*.txt")
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			tr := parseTranscript(t, file)
			sc := sidecartest.Start(t, bin)
			ctx, cancel := testctx.New(t)
			defer cancel()
			var expected []step
			var stderrWant []step
			for _, s := range tr.steps {
				switch s.kind {
				case "send":
					sc.Send(s.text)
				case "expect":
					expected = append(expected, s)
				case "stderr":
					stderrWant = append(stderrWant, s)
				case "wait-running":
					waitRunning(ctx, t, sc, s.text)
				case "wait-answered":
					if r := sc.WaitReply(ctx, s.text); strings.HasPrefix(r.Error, "sidecartest:") {
						t.Fatalf("line %d: %s", s.line, r.Error)
					}
				}
			}
			sc.CloseStdin()
			if code := sc.Wait(); code != 0 {
				t.Fatalf("exit code %d\n%s", code, sc.Stderr())
			}
			if bad := sc.NonProtocol(); len(bad) > 0 {
				t.Fatalf("stdout carried lines that are not protocol: %q", bad)
			}
			var got []map[string]any
			for _, line := range sc.Lines() {
				var m map[string]any
				_ = json.Unmarshal([]byte(line), &m)
				if id, _ := m["id"].(string); m["type"] == nil && !strings.HasPrefix(id, "_poll") {
					got = append(got, m)
				}
			}
			used := make([]bool, len(got))
			for _, e := range expected {
				var want map[string]any
				if err := json.Unmarshal([]byte(e.text), &want); err != nil {
					t.Fatalf("line %d: expected line is not JSON: %v", e.line, err)
				}
				found := false
				for i, g := range got {
					if !used[i] && matches(want, g) {
						used[i], found = true, true
						break
					}
				}
				if !found {
					t.Errorf("line %d: no response matches %s\ngot:\n%s", e.line, e.text, strings.Join(sc.Lines(), "\n"))
				}
			}
			for i, g := range got {
				if !used[i] {
					b, _ := json.Marshal(g)
					t.Errorf("unexpected response %s", b)
				}
			}
			stderr := strings.ReplaceAll(sc.Stderr(), `\"`, `"`)
			for _, s := range stderrWant {
				if !strings.Contains(stderr, s.text) {
					t.Errorf("line %d: the log does not say %q:\n%s", s.line, s.text, stderr)
				}
			}
		})
	}
}

// waitRunning polls mc_status until its task list shows the call id.
func waitRunning(ctx context.Context, t *testing.T, sc *sidecartest.Sidecar, id string) {
	t.Helper()
	for i := 0; ; i++ {
		line := fmt.Sprintf(`{"id":"_poll%d","tool":"mc_status","args":{}}`, i)
		sc.Send(line)
		r := sc.WaitReply(ctx, fmt.Sprintf("_poll%d", i))
		var st struct {
			Task []struct{ ID string } `json:"task"`
		}
		if err := r.Decode(&st); err != nil {
			t.Fatalf("polling mc_status: %v", err)
		}
		for _, task := range st.Task {
			if task.ID == id {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("call %s never showed as running", id)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestSignalsEndTheSidecarCleanly sends SIGINT and SIGTERM to a sidecar
// with a call in flight: the call is answered with a cancellation, the
// process exits 0 and nothing follows the last response.
func TestSignalsEndTheSidecarCleanly(t *testing.T) {
	bin := sidecartest.Build(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			sc := sidecartest.Start(t, bin)
			ctx, cancel := testctx.New(t)
			defer cancel()
			sc.Send(`{"id":"long","tool":"mc_wait","args":{"ms":600000}}`)
			waitRunning(ctx, t, sc, "long")
			if err := sc.Signal(sig); err != nil {
				t.Fatal(err)
			}
			r := sc.WaitReply(ctx, "long")
			if r.OK || !strings.Contains(r.Error, "cancelled") || !strings.Contains(r.Error, "shutting down") {
				t.Fatalf("%+v", r)
			}
			if code := sc.Wait(); code != 0 {
				t.Fatalf("exit %d\n%s", code, sc.Stderr())
			}
			lines := sc.Lines()
			if last := lines[len(lines)-1]; last != r.Raw {
				t.Fatalf("a line followed the last response: %q", last)
			}
		})
	}
}

// TestStreamCutMidLine ends stdin in the middle of a request: the cut
// line is logged and dropped, earlier requests are answered, exit is 0.
func TestStreamCutMidLine(t *testing.T) {
	sc := sidecartest.Start(t, sidecartest.Build(t))
	sc.Send(`{"id":"whole","tool":"mc_status","args":{}}`)
	sc.SendRaw(`{"id":"cut","tool":"mc_wa`)
	sc.CloseStdin()
	if code := sc.Wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	ctx, cancel := testctx.New(t)
	defer cancel()
	if r := sc.WaitReply(ctx, "whole"); !r.OK {
		t.Fatalf("%+v", r)
	}
	if len(sc.Lines()) != 1 || !strings.Contains(sc.Stderr(), "not valid JSON") {
		t.Fatalf("stdout %q, stderr %s", sc.Lines(), sc.Stderr())
	}
}

// TestHugeAndDeepLinesLoseNothing sends a 50 MiB line and lines of 100,000
// nested brackets through the real binary. The big request is answered
// with an error (its id comes first) without being held whole; the deep
// ones are logged and skipped; the next request is answered.
func TestHugeAndDeepLinesLoseNothing(t *testing.T) {
	sc := sidecartest.Start(t, sidecartest.Build(t))
	big := `{"id":"big","tool":"mc_say","args":{"message":"` + strings.Repeat("a", 50<<20) + `"}}`
	sc.Send(big)
	sc.Send(strings.Repeat("[", 100000) + strings.Repeat("]", 100000))
	sc.Send(`{"id":"deep","tool":"mc_wait","args":{"ms":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`)
	sc.Send(`{"id":"after","tool":"mc_wait","args":{"ms":1}}`)
	ctx, cancel := testctx.New(t)
	defer cancel()
	if r := sc.WaitReply(ctx, "after"); !r.OK {
		t.Fatalf("%+v", r)
	}
	if r := sc.WaitReply(ctx, "big"); r.OK || r.Error != fmt.Sprintf("the request is %d bytes, over the 1048576-byte limit, so it was not run; send shorter arguments", len(big)) {
		t.Fatalf("%+v", r)
	}
	sc.CloseStdin()
	if code := sc.Wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	stderr := sc.Stderr()
	if !strings.Contains(stderr, fmt.Sprintf("line 1 refused: line 1 is %d bytes, over the 1048576-byte limit", len(big))) ||
		!strings.Contains(stderr, "line 2 skipped") || !strings.Contains(stderr, "line 3 skipped") || len(sc.Lines()) != 2 {
		t.Fatalf("stdout %q\nstderr %s", sc.Lines(), stderr)
	}
}

// BenchmarkSidecarRoundTrip measures mc_status through a real `blockmate
// sidecar` process over pipes, one call at a time, and reports p50 and p99
// latency. The client side is kept minimal (write a line, read a line) so
// the figure is the sidecar's, not the test harness's.
func BenchmarkSidecarRoundTrip(b *testing.B) {
	cmd := exec.Command(buildPlain(b), "sidecar", "--log-level", "warn")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	out := bufio.NewReader(stdout)
	req := []byte(`{"id":"b","tool":"mc_status","args":{}}` + "\n")
	roundTrip := func() {
		if _, err := stdin.Write(req); err != nil {
			b.Fatal(err)
		}
		line, err := out.ReadSlice('\n')
		if err != nil || !bytes.HasPrefix(line, []byte(`{"id":"b","ok":true`)) {
			b.Fatalf("%q %v", line, err)
		}
	}
	for i := 0; i < 500; i++ { // warm up
		roundTrip()
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		roundTrip()
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1000, "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1000, "p99-µs")
}

// buildPlain builds blockmate without the race detector, so benchmarks
// measure the program users run.
func buildPlain(b *testing.B) string {
	dir := b.TempDir()
	bin := filepath.Join(dir, "blockmate")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	return bin
}

// TestParentClosingStdout: a parent that closes the sidecar's stdout does
// not kill it with SIGPIPE; it cancels what runs, says why on stderr and
// exits 0.
func TestParentClosingStdout(t *testing.T) {
	cmd := exec.Command(sidecartest.Build(t), "sidecar")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, `{"id":"long","tool":"mc_wait","args":{"ms":600000}}`+"\n")
	stdout.Close()
	io.WriteString(stdin, `{"id":"s","tool":"mc_status","args":{}}`+"\n")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the sidecar kept running with its stdout closed\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "stdout was closed by the parent") {
		t.Fatalf("stderr: %s", stderr.String())
	}
}

// TestSidecarWatchLAN: with --watch-lan the sidecar pushes
// mc_lan_world_found for a world announced on the network. It runs in a
// network namespace the test creates, so nothing reaches a real interface.
func TestSidecarWatchLAN(t *testing.T) {
	ns := netnstest.New(t)
	var conn *net.UDPConn
	if err := ns.Do(func() (err error) {
		conn, err = net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.ParseIP(lan.GroupIPv4), Port: lan.GroupPort})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			conn.Write(lan.FormatAnnouncement("Eduard - Survival", "51234"))
			select {
			case <-stop:
				return
			case <-time.After(lan.AnnouncePeriod):
			}
		}
	}()
	sc := sidecartest.StartCommand(t, ns.Command(sidecartest.Build(t), "sidecar", "--watch-lan"))
	ctx, cancel := testctx.New(t)
	defer cancel()
	ev, err := sc.WaitEvent(ctx, "mc_lan_world_found", nil)
	if err != nil {
		t.Fatalf("no mc_lan_world_found: %v\n%s", err, sc.Stderr())
	}
	var world struct {
		Host string `json:"host"`
		Port int    `json:"port"`
		MOTD string `json:"motd"`
	}
	if err := json.Unmarshal(ev.Payload, &world); err != nil || world.Port != 51234 || world.MOTD != "Eduard - Survival" {
		t.Fatalf("%s %v", ev.Payload, err)
	}
}

// TestSidecarWritesNothingToATerminal runs the sidecar with stdout on a
// pseudo-terminal (util-linux `script`): Bubble Tea's init would query the
// terminal there, and stdout must carry nothing but protocol.
func TestSidecarWritesNothingToATerminal(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Fatal("this test needs util-linux's script (apt-get install bsdutils)")
	}
	bin := sidecartest.Build(t)
	out, err := exec.Command("script", "-qc", bin+" sidecar </dev/null 2>/dev/null", "/dev/null").Output()
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 0 {
		t.Fatalf("the sidecar wrote %q to its terminal", out)
	}
}

func TestFlagErrorsGoToStderr(t *testing.T) {
	for _, args := range [][]string{{"--bogus"}, {"sidecar", "--bogus"}, {"tools", "--bogus"}} {
		var out, errOut bytes.Buffer
		if code := run(args, nil, &out, &errOut); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "flag provided but not defined: -bogus") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out.String(), errOut.String())
		}
	}
}

// Flag values outside their range are refused with the range, and nothing
// is written to stdout (the protocol's).
func TestSidecarFlagsOutOfRangeAreRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-line", "-5"}, "--max-line must be from 1024 to 67108864 bytes (1 KiB to 64 MiB; the default is 1048576); got -5"},
		{[]string{"--max-line", "0"}, "--max-line must be from 1024 to 67108864 bytes"},
		{[]string{"--max-line", "100000000"}, "got 100000000"},
		{[]string{"--drain", "-1s"}, "--drain must be from 0s (cancel calls in flight as soon as stdin ends) to 1h (the default is 10s); got -1s"},
		{[]string{"--drain", "2h"}, "got 2h0m0s"},
	} {
		var out, errOut bytes.Buffer
		code := run(append([]string{"sidecar"}, tc.args...), strings.NewReader(""), &out, &errOut)
		if code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("sidecar %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out.String(), errOut.String(), tc.want)
		}
	}
}

// --drain 0 means calls in flight are cancelled as soon as stdin ends, and
// each still answers.
func TestSidecarDrainZeroCancelsAtOnce(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"sidecar", "--drain", "0"}, strings.NewReader(`{"id":1,"tool":"mc_wait","args":{"ms":600000}}`+"\n"), &out, &errOut)
	if code != 0 || !strings.HasPrefix(out.String(), `{"id":1,"ok":false,"error":"mc_wait was cancelled after `) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
