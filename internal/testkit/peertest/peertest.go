// Package peertest starts the real Minecraft peers blockmate's integration
// tests and benchmark talk to: a flying-squid server (or, for game versions
// flying-squid lacks, a small minecraft-protocol server) and mineflayer
// players. The peers are Node programs in testdata/peers, installed with
// `cd testdata/peers && npm ci`. Every peer listens on or connects to
// 127.0.0.1 only, runs in its own process group and is stopped in
// t.Cleanup; its stdout and stderr are shown in the test log when the test
// fails.
package peertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
)

// InstallCommand is what a person runs to install the peers.
const InstallCommand = "cd testdata/peers && npm ci"

// startTimeout bounds how long a peer may take to become ready. It is
// generous because the test machine may be shared and slow; tests never
// assert on it.
const startTimeout = 90 * time.Second

// InCI reports whether the tests run in CI (CI=true), where a missing peer
// is a failure rather than a skip.
func InCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "false" && v != "0"
}

// ModuleRoot returns the directory holding go.mod, found by walking up from
// the test's working directory (one implementation, in sidecartest).
func ModuleRoot(t testing.TB) string { return sidecartest.ModuleRoot(t) }

// PeersDir returns testdata/peers, where the peer scripts live.
func PeersDir(t testing.TB) string {
	t.Helper()
	return filepath.Join(ModuleRoot(t), "testdata", "peers")
}

// NodeModules returns the path of testdata/peers/node_modules. When node or
// the installed peers are missing it fails the test in CI and skips it
// elsewhere, naming the install command.
func NodeModules(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(PeersDir(t), "node_modules")
	missing := ""
	if _, err := exec.LookPath(nodeIn(PeersDir(t))); err != nil {
		missing = "neither the pinned Node (testdata/peers/node_modules/node) nor a node on PATH is there: install Node.js and npm (any version that runs npm), then run `" + InstallCommand + "`, which brings the Node 22 the peers need"
	} else {
		for _, pkg := range []string{"flying-squid", "mineflayer", "minecraft-protocol", "minecraft-data"} {
			if _, err := os.Stat(filepath.Join(dir, pkg, "package.json")); err != nil {
				missing = "the test peers are not installed (" + pkg + " is missing from " + dir + "): run `" + InstallCommand + "`"
				break
			}
		}
	}
	if missing != "" {
		if InCI() {
			t.Fatalf("peertest: %s", missing)
		}
		t.Skipf("peertest: skipping, %s", missing)
	}
	return dir
}

// nodeIn returns the Node.js the peers in dir (testdata/peers) run on:
// the Node 22 that `npm ci` installs there from the "node" package
// (minecraft-protocol 1.68.0 and mineflayer 4.39.0 declare node >= 22),
// else the node on PATH. It is the one rule; NodeBinary is its form for
// tests and NodeIn for programs. Windows has no executable bit, and the
// package puts node.exe where Unix has bin/node.
func nodeIn(dir string) string {
	pinned := filepath.Join(dir, "node_modules", "node", "bin", "node")
	if runtime.GOOS == "windows" {
		pinned = filepath.Join(dir, "node_modules", "node", "bin", "node.exe")
	}
	if st, err := os.Stat(pinned); err == nil && !st.IsDir() && (runtime.GOOS == "windows" || st.Mode()&0o111 != 0) {
		return pinned
	}
	return "node"
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago. The
// peers themselves bind port 0 and report the port the kernel chose, which
// cannot race; FreePort is for tests that need a port number in advance.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("peertest: no free port on 127.0.0.1: %v", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Event is one JSON line a peer writes to fd 3, with the fields that event
// carries. Players report "spawn", "chat", "code_of_conduct", "dialog",
// "death", "respawn", "block", "position", "kicked", "end" and "error";
// servers "ready" and, for the minecraft-protocol flavour, "join", "leave",
// "chat", "command", "code_of_conduct_accepted", "death" and "respawn". The
// scripts in testdata/peers say which fields each has.
type Event struct {
	Event    string   `json:"event"`
	Port     int      `json:"port,omitempty"`
	Version  string   `json:"version,omitempty"`
	Username string   `json:"username,omitempty"`
	Message  string   `json:"message,omitempty"`
	Text     string   `json:"text,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	T        int64    `json:"t,omitempty"`     // milliseconds since the peer's process started
	Phase    string   `json:"phase,omitempty"` // a dialog's: "configuration" or "play"
	Kind     string   `json:"kind,omitempty"`  // a dialog's type, e.g. "minecraft:notice"
	Title    string   `json:"title,omitempty"` // a dialog's title
	Name     string   `json:"name,omitempty"`  // a block's name ("" where no chunk is loaded)
	X        *float64 `json:"x,omitempty"`     // a position (respawn, position, block)
	Y        *float64 `json:"y,omitempty"`
	Z        *float64 `json:"z,omitempty"`
	Chunks   *int     `json:"chunks,omitempty"` // a player's loaded chunk columns (stats)
	// Data is an event's structured detail, e.g. mpserver's "click": the
	// window click as minecraft-protocol parsed it.
	Data json.RawMessage `json:"data,omitempty"`
}

// logBuffer keeps the last part of a peer's stdout and stderr.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

const logLimit = 256 << 10

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if b.buf.Len() > logLimit {
		keep := b.buf.Bytes()[b.buf.Len()-logLimit/2:]
		b.buf = *bytes.NewBuffer(append([]byte("…(earlier output dropped)\n"), keep...))
	}
	return len(p), nil
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Peer is one running Node peer process. Tests use StartServer and
// StartPlayer; Peer is for programs that are not tests, such as the
// benchmark, which start peers with Launch and must Stop them.
type Peer struct {
	name   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	log    *logBuffer
	events chan Event // closed when fd 3 closes
	done   chan struct{}
	err    error // set before done closes

	writeMu sync.Mutex
	stopMu  sync.Once
}

// startNode runs `node script config` in testdata/peers and registers its
// stop with t.Cleanup.
func startNode(t testing.TB, name, script string, config any) *Peer {
	t.Helper()
	NodeModules(t)
	p, err := Launch(PeersDir(t), name, script, config)
	if err != nil {
		t.Fatalf("peertest: start %s: %v", name, err)
	}
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("peertest: output of %s (%s):\n%s", name, script, p.log.String())
		}
	})
	return p
}

// Launch runs `node script config` in dir (testdata/peers), config being
// encoded as JSON; name is used in messages. The caller must call Stop.
func Launch(dir, name, script string, config any) (*Peer, error) {
	cfg, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("%s config: %w", name, err)
	}
	cmd := exec.Command(nodeIn(dir), script, string(cfg))
	cmd.Dir = dir
	sidecartest.OwnProcessGroup(cmd)
	log := &logBuffer{}
	cmd.Stdout = log
	cmd.Stderr = log
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	evr, evw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{evw} // fd 3 in the child
	cmd.Env = append(os.Environ(), "PEERTEST_EVENT_FD=3")
	if err := cmd.Start(); err != nil {
		evr.Close()
		evw.Close()
		return nil, err
	}
	evw.Close()
	p := &Peer{name: name, cmd: cmd, stdin: stdin, log: log, events: make(chan Event, 1024), done: make(chan struct{})}
	go func() {
		defer close(p.events)
		defer evr.Close()
		sc := bufio.NewScanner(evr)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			var ev Event
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				fmt.Fprintf(log, "peertest: bad event line from %s: %q\n", name, sc.Text())
				continue
			}
			p.events <- ev
		}
	}()
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Pid is the peer's process id (and process group id).
func (p *Peer) Pid() int { return p.cmd.Process.Pid }

// Log returns what the peer has printed on stdout and stderr so far.
func (p *Peer) Log() string { return p.log.String() }

// Done is closed when the peer's process has exited.
func (p *Peer) Done() <-chan struct{} { return p.done }

// Send writes v as one JSON line to the peer's stdin.
func (p *Peer) Send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return p.send(b)
}

// send writes one line to the peer's stdin.
func (p *Peer) send(line []byte) error {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	select {
	case <-p.done:
		return fmt.Errorf("%s has exited (%v)", p.name, p.err)
	default:
	}
	_, err := p.stdin.Write(append(line, '\n'))
	return err
}

// Stop ends the peer's whole process group: closing stdin asks it to leave,
// then SIGTERM, then SIGKILL. It returns once the process is reaped, and may
// be called more than once.
func (p *Peer) Stop() {
	p.stopMu.Do(func() {
		p.writeMu.Lock()
		p.stdin.Close()
		p.writeMu.Unlock()
		pgid := p.cmd.Process.Pid
		select {
		case <-p.done:
		case <-time.After(2 * time.Second):
			sidecartest.TerminateProcessGroup(pgid)
			select {
			case <-p.done:
			case <-time.After(3 * time.Second):
				sidecartest.KillProcessGroup(pgid)
				<-p.done
			}
		}
		// Children the peer may have started share its group.
		sidecartest.KillProcessGroup(pgid)
	})
}

// Wait reads events until one named want arrives and returns it. Other
// events are dropped ("error" events are added to the log); "kicked" or
// "end" first, the process exiting, or ctx ending are errors.
func (p *Peer) Wait(ctx context.Context, want string) (Event, error) {
	return p.waitFor(ctx, want, nil)
}

// waitFor is Wait handing every other event to keep, if not nil.
func (p *Peer) waitFor(ctx context.Context, want string, keep func(Event)) (Event, error) {
	for {
		select {
		case ev, ok := <-p.events:
			if !ok {
				<-p.done
				return Event{}, fmt.Errorf("%s exited before %q (%v)", p.name, want, p.err)
			}
			switch {
			case ev.Event == want:
				return ev, nil
			case ev.Event == "kicked" || ev.Event == "end":
				return ev, fmt.Errorf("%s: %s before %q: %s", p.name, ev.Event, want, ev.Reason)
			case ev.Event == "error" && want != "error":
				fmt.Fprintf(p.log, "peertest: %s reported error: %s\n", p.name, ev.Message)
				if keep != nil {
					keep(ev)
				}
			default:
				if keep != nil {
					keep(ev)
				}
			}
		case <-ctx.Done():
			return Event{}, fmt.Errorf("%s: waiting for %q: %w", p.name, want, context.Cause(ctx))
		}
	}
}

// errNotReady is the cause when a peer takes longer than startTimeout.
var errNotReady = errors.New("peer did not become ready in " + strconv.Itoa(int(startTimeout/time.Second)) + "s")
