// Package sidecartest runs the real `blockmate sidecar` binary over pipes,
// for tests that check the protocol as a parent process sees it.
package sidecartest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blockmate/blockmate/protocol"
)

var (
	buildOnce sync.Once
	buildPath string
	buildErr  error
)

// ModuleRoot finds the directory holding go.mod, walking up from the
// working directory of the test.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("sidecartest: no go.mod above the test's directory")
		}
		dir = parent
	}
}

// Build compiles blockmate once per test process and returns the binary.
// With the race detector on, the binary is built with it too.
func Build(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "blockmate-bin-")
		if err != nil {
			buildErr = err
			return
		}
		buildPath = filepath.Join(dir, "blockmate")
		args := []string{"build", "-o", buildPath}
		if raceEnabled {
			args = append(args, "-race")
		}
		cmd := exec.Command("go", append(args, ".")...)
		cmd.Dir = ModuleRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildPath
}

// Reply is one response as the parent sees it.
type Reply struct {
	ID     string
	OK     bool
	Result json.RawMessage
	Error  string
	// Raw is the whole line as written on stdout.
	Raw string
}

// Decode unmarshals the result into v.
func (r Reply) Decode(v any) error {
	if !r.OK {
		return fmt.Errorf("call failed: %s", r.Error)
	}
	return json.Unmarshal(r.Result, v)
}

// Sidecar is a running `blockmate sidecar` with its pipes.
type Sidecar struct {
	t     testing.TB
	cmd   *exec.Cmd
	stdin io.WriteCloser

	writeMu sync.Mutex
	mu      sync.Mutex
	cond    *sync.Cond
	lines   []string
	replies map[string]Reply
	events  []protocol.Event
	bad     []string // stdout lines that are not protocol
	// undocumented lists events whose payload does not match the catalog
	// entry that documents it; the test fails with them at its end.
	undocumented []string
	eof          bool
	stderr       strings.Builder
	nextID       int
	exited       chan struct{}
	code         int
}

// Start runs `bin sidecar args...`; it is stopped in t.Cleanup.
func Start(t testing.TB, bin string, args ...string) *Sidecar {
	return StartCommand(t, append([]string{bin, "sidecar"}, args...))
}

// StartCommand runs a command line that ends up speaking the sidecar
// protocol, for a sidecar run under a wrapper such as `ip netns exec`.
func StartCommand(t testing.TB, argv []string) *Sidecar {
	t.Helper()
	s := &Sidecar{t: t, replies: map[string]Reply{}, exited: make(chan struct{})}
	s.cond = sync.NewCond(&s.mu)
	s.cmd = exec.Command(argv[0], argv[1:]...)
	OwnProcessGroup(s.cmd)
	var err error
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pipes sync.WaitGroup
	pipes.Add(2)
	go func() { defer pipes.Done(); s.readStdout(stdout) }()
	go func() {
		defer pipes.Done()
		b, _ := io.ReadAll(stderr)
		s.mu.Lock()
		s.stderr.Write(b)
		s.mu.Unlock()
	}()
	go func() {
		pipes.Wait()
		err := s.cmd.Wait()
		code := 0
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else if err != nil {
			code = -1
		}
		s.mu.Lock()
		s.code = code
		s.mu.Unlock()
		close(s.exited)
	}()
	t.Cleanup(func() {
		s.CloseStdin()
		select {
		case <-s.exited:
		case <-time.After(15 * time.Second):
			KillProcessGroup(s.cmd.Process.Pid)
			<-s.exited
		}
		s.mu.Lock()
		undocumented := s.undocumented
		s.mu.Unlock()
		// Every event a sidecar wrote in any test matches the catalog
		// entry that documents it (and so the README's event table).
		for _, u := range undocumented {
			t.Errorf("sidecartest: %s", u)
		}
		if t.Failed() {
			t.Logf("sidecar stderr:\n%s", s.Stderr())
		}
	})
	return s
}

func (s *Sidecar) readStdout(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		s.mu.Lock()
		s.lines = append(s.lines, line)
		var probe struct {
			ID      json.RawMessage `json:"id"`
			OK      *bool           `json:"ok"`
			Result  json.RawMessage `json:"result"`
			Error   string          `json:"error"`
			Type    string          `json:"type"`
			Name    string          `json:"name"`
			Payload json.RawMessage `json:"payload"`
		}
		switch {
		case json.Unmarshal([]byte(line), &probe) != nil:
			s.bad = append(s.bad, line)
		case probe.Type == "event" && probe.ID == nil:
			s.events = append(s.events, protocol.Event{Name: probe.Name, Payload: probe.Payload, Time: time.Now()})
			if err := protocol.CheckEventPayload(probe.Name, probe.Payload); err != nil {
				s.undocumented = append(s.undocumented, err.Error()+": "+line)
			}
		case probe.ID != nil && probe.OK != nil:
			id := idText(probe.ID)
			s.replies[id] = Reply{ID: id, OK: *probe.OK, Result: probe.Result, Error: probe.Error, Raw: line}
		default:
			s.bad = append(s.bad, line)
		}
		s.cond.Broadcast()
		s.mu.Unlock()
	}
	s.mu.Lock()
	s.eof = true
	s.cond.Broadcast()
	s.mu.Unlock()
}

func idText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// Send writes one raw line (a newline is added).
func (s *Sidecar) Send(line string) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		s.t.Logf("sidecartest: write to stdin: %v", err)
	}
}

// Call sends a request with a fresh id and waits for its response. A
// response that never comes ends in a Reply with OK false and an Error
// starting "sidecartest:".
func (s *Sidecar) Call(ctx context.Context, tool string, args any) Reply {
	s.mu.Lock()
	s.nextID++
	id := "t" + strconv.Itoa(s.nextID)
	s.mu.Unlock()
	if args == nil {
		args = map[string]any{}
	}
	line, err := json.Marshal(map[string]any{"id": id, "tool": tool, "args": args})
	if err != nil {
		return Reply{ID: id, Error: "sidecartest: " + err.Error()}
	}
	s.Send(string(line))
	return s.WaitReply(ctx, id)
}

// WaitReply waits for the response with the given id.
func (s *Sidecar) WaitReply(ctx context.Context, id string) Reply {
	var r Reply
	err := s.waitFor(ctx, func() bool {
		var ok bool
		r, ok = s.replies[id]
		return ok
	})
	if err != nil {
		return Reply{ID: id, Error: fmt.Sprintf("sidecartest: no response to %s: %v", id, err)}
	}
	return r
}

// WaitEvent waits for an event with the given name whose payload satisfies
// match (nil matches any). Events seen before the call count too.
func (s *Sidecar) WaitEvent(ctx context.Context, name string, match func(payload json.RawMessage) bool) (protocol.Event, error) {
	var found protocol.Event
	err := s.waitFor(ctx, func() bool {
		for _, ev := range s.events {
			if ev.Name == name && (match == nil || match(ev.Payload)) {
				found = ev
				return true
			}
		}
		return false
	})
	return found, err
}

// waitFor blocks until cond (called with s.mu held) is true, stdout ends,
// or ctx is done.
func (s *Sidecar) waitFor(ctx context.Context, cond func() bool) error {
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	})
	defer stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for !cond() {
		if s.eof {
			return io.EOF
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.cond.Wait()
	}
	return nil
}

// Events returns the events seen so far.
func (s *Sidecar) Events() []protocol.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]protocol.Event(nil), s.events...)
}

// Lines returns every stdout line so far.
func (s *Sidecar) Lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

// NonProtocol returns stdout lines that are neither a response nor an event.
func (s *Sidecar) NonProtocol() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bad...)
}

// Stderr returns what the sidecar logged so far.
func (s *Sidecar) Stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

// CloseStdin ends the input, as a parent does when it is done.
func (s *Sidecar) CloseStdin() {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	_ = s.stdin.Close()
}

// Signal sends a signal to the sidecar process.
func (s *Sidecar) Signal(sig os.Signal) error { return s.cmd.Process.Signal(sig) }

// Pid is the sidecar's process id.
func (s *Sidecar) Pid() int { return s.cmd.Process.Pid }

// Wait waits for the process to exit and returns its exit code.
func (s *Sidecar) Wait() int {
	<-s.exited
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.code
}

// Exited is closed when the process has exited.
func (s *Sidecar) Exited() <-chan struct{} { return s.exited }

// SendRaw writes bytes as they are, with no newline added: for cutting a
// stream mid-line.
func (s *Sidecar) SendRaw(data string) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	_, _ = io.WriteString(s.stdin, data)
}
