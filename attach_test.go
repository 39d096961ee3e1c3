//go:build linux

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/blockmate/blockmate/internal/testkit/netnstest"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// tmuxConsole is a console in a tmux server of its own (a private socket,
// so nothing the person running the tests has open is touched).
type tmuxConsole struct {
	t      *testing.T
	socket string
}

func startTmuxConsole(t *testing.T, argv ...string) *tmuxConsole {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if peertest.InCI() {
			t.Fatal("tmux is not installed; CI must install it (apt-get install -y tmux)")
		}
		t.Skip("tmux is not installed (apt-get install -y tmux)")
	}
	s := &tmuxConsole{t: t, socket: fmt.Sprintf("blockmate-attach-%d-%d", os.Getpid(), time.Now().UnixNano())}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	s.run("new-session", "-d", "-s", "console", "-x", "120", "-y", "36", "-e", "TERM=xterm-256color", strings.Join(quoted, " "))
	s.run("set-option", "-t", "console", "remain-on-exit", "on")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

func (s *tmuxConsole) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (s *tmuxConsole) screen() string { return s.run("capture-pane", "-p", "-t", "console") }

// waitFor waits until the screen shows every want.
func (s *tmuxConsole) waitFor(ctx context.Context, what string, wants ...string) {
	s.t.Helper()
	for {
		scr := s.screen()
		ok := true
		for _, w := range wants {
			ok = ok && strings.Contains(scr, w)
		}
		if ok {
			return
		}
		select {
		case <-ctx.Done():
			s.t.Fatalf("waiting for %s: the console shows\n%s", what, scr)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (s *tmuxConsole) dead() bool {
	return strings.TrimSpace(s.run("display-message", "-p", "-t", "console", "#{pane_dead}")) == "1"
}

// publicDir is a directory every user may enter, so that a refusal to
// another user comes from the socket's own mode, not from a folder above it.
func publicDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "blockmate-attach-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestAttachToADrivenSidecar: a program drives `blockmate sidecar
// --watch-socket` over pipes; a console attached in tmux shows the
// program's calls and events as they happen, and its stop key cancels the
// program's running call, which answers as stopped. A second console may
// attach; one that quits changes nothing for the program; nothing the
// consoles do reaches the program's stdout.
func TestAttachToADrivenSidecar(t *testing.T) {
	bin := sidecartest.Build(t)
	sock := filepath.Join(publicDir(t), "bm.sock")
	sc := sidecartest.Start(t, bin, "--watch-socket", sock)
	ctx, cancel := testctx.New(t)
	defer cancel()
	// The sidecar answers once it is ready, and it opens the socket first.
	if r := sc.Call(ctx, "mc_wait", map[string]any{"ms": 0}); !r.OK {
		t.Fatal(r.Error)
	}

	first := startTmuxConsole(t, bin, "attach", sock)
	first.waitFor(ctx, "the attach note", "Attached to "+sock)

	// The program's long call, and the progress events it makes.
	sc.Send(`{"id":"prog-long","tool":"mc_wait","args":{"ms":600000}}`)
	first.waitFor(ctx, "the program's call in the timeline", "prog-long mc_wait ms=600000 [sidecar]")
	if _, err := sc.WaitEvent(ctx, "mc_task_progress", nil); err != nil {
		t.Fatal(err)
	}
	first.waitFor(ctx, "the progress event", "of 600000")

	// The second console attaches mid-session: it is shown what came
	// before (the program's first call, finished, and the progress so
	// far) as well as what runs.
	second := startTmuxConsole(t, bin, "attach", sock)
	second.waitFor(ctx, "the second console's view of the running call", "prog-long mc_wait ms=600000 [sidecar]")
	second.waitFor(ctx, "what came before the second console attached", "t1 mc_wait ms=0 [sidecar]", "of 600000")

	// The stop key in the first console stops the program's call.
	first.run("send-keys", "-t", "console", "C-x")
	r := sc.WaitReply(ctx, "prog-long")
	if r.OK || !strings.Contains(r.Error, "mc_wait was stopped by mc_stop") {
		t.Errorf("the program's call answered %+v after the console's stop key", r)
	}
	first.waitFor(ctx, "the stop in the first console", "w1-c1 mc_stop", `cancelled=["prog-long"]`)
	second.waitFor(ctx, "the first console's stop, marked, in the second", "w1-c1 mc_stop [console]", "✗ prog-long")

	// The first console quits; the program and the second console go on.
	first.run("send-keys", "-t", "console", "C-c")
	for !first.dead() {
		select {
		case <-ctx.Done():
			t.Fatalf("the first console did not quit:\n%s", first.screen())
		case <-time.After(50 * time.Millisecond):
		}
	}
	if r := sc.Call(ctx, "mc_wait", map[string]any{"ms": 5}); !r.OK {
		t.Errorf("the program after a console quit: %+v", r)
	}
	second.waitFor(ctx, "the program's next call in the second console", "mc_wait ms=5 [sidecar]")

	// Nothing of the consoles reached the program's stdout.
	for _, l := range sc.Lines() {
		var v struct {
			ID   any    `json:"id"`
			Type string `json:"type"`
		}
		_ = json.Unmarshal([]byte(l), &v)
		// The program's ids: prog-long, and t1, t2… that sidecartest.Call gives.
		id := fmt.Sprint(v.ID)
		if json.Unmarshal([]byte(l), &v) != nil || (v.Type != "event" && id != "prog-long" && !regexp.MustCompile(`^t\d+$`).MatchString(id)) {
			t.Errorf("the program's stdout has a line it did not ask for: %s", l)
		}
		if strings.Contains(l, `"w1-`) || strings.Contains(l, `"w2-`) {
			t.Errorf("a console's call reached the program's stdout: %s", l)
		}
	}
}

// TestWatchSocketRefusesOtherUsers runs `blockmate attach` as the user
// nobody against a socket root owns: the socket's mode refuses it. With the
// mode opened up by hand, the server's own check of the peer's user id
// still refuses it.
func TestWatchSocketRefusesOtherUsers(t *testing.T) {
	if os.Getuid() != 0 {
		if peertest.InCI() {
			t.Fatal("this test runs a process as another user, which needs root")
		}
		t.Skip("needs root to run a process as another user")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatal("setpriv (util-linux) is needed to run a process as another user")
	}
	dir := publicDir(t)
	// A copy of the binary that nobody may run.
	bin := filepath.Join(dir, "blockmate")
	src, err := os.ReadFile(sidecartest.Build(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, src, 0o755); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "bm.sock")
	sc := sidecartest.Start(t, bin, "--watch-socket", sock)
	ctx, cancel := testctx.New(t)
	defer cancel()
	if r := sc.Call(ctx, "mc_wait", map[string]any{"ms": 0}); !r.OK {
		t.Fatal(r.Error)
	}
	asNobody := func() string {
		cmd := exec.CommandContext(ctx, setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin, "attach", "--config=", sock)
		cmd.Stdin = strings.NewReader("")
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("nobody attached: %s", out)
		}
		return string(out)
	}
	if out := asNobody(); !strings.Contains(out, "belongs to another user") {
		t.Errorf("nobody was refused, but not for the socket's owner: %s", out)
	}
	if err := os.Chmod(sock, 0o666); err != nil {
		t.Fatal(err)
	}
	if out := asNobody(); !strings.Contains(out, "refused the console") {
		t.Errorf("with the mode opened, nobody was not refused by the peer check: %s", out)
	}
	// The sidecar serves on, and said why it refused.
	if r := sc.Call(ctx, "mc_wait", map[string]any{"ms": 0}); !r.OK {
		t.Errorf("after the refusals: %+v", r)
	}
	sc.CloseStdin()
	sc.Wait()
	if !strings.Contains(sc.Stderr(), "user 65534 opened the watch socket, which belongs to user 0") {
		t.Errorf("the sidecar did not log the refusal:\n%s", sc.Stderr())
	}
}

// TestConsoleWithMCPHTTP runs the console with --mcp-http in a network
// namespace of its own (the console listens for LAN worlds, which must not
// touch the machine's network), connects the official Go SDK's client to
// it, and checks that the model's calls show in the timeline marked [mcp]
// as they run, and that the console's stop key stops one, which answers
// the client as stopped.
func TestConsoleWithMCPHTTP(t *testing.T) {
	bin := sidecartest.Build(t)
	ns := netnstest.New(t)
	dir := t.TempDir()
	console := startTmuxConsole(t, ns.Command(bin, "--config", filepath.Join(dir, "console.json"), "--log-file", filepath.Join(dir, "console.log"),
		"--mcp-http", "127.0.0.1:8765", "--token", "console-token")...)
	ctx, cancel := testctx.New(t)
	defer cancel()
	console.waitFor(ctx, "the MCP note", "MCP server at http://127.0.0.1:8765/mcp")

	// The client dials inside the namespace, where the console listens.
	transport := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		var c net.Conn
		err := ns.Do(func() (err error) {
			c, err = (&net.Dialer{}).DialContext(ctx, network, addr)
			return err
		})
		return c, err
	}}
	client := sdk.NewClient(&sdk.Implementation{Name: "blockmate-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://127.0.0.1:8765/mcp",
		HTTPClient: &http.Client{Transport: withBearer{"console-token", transport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "mc_wait", Arguments: map[string]any{"ms": 7}})
	if err != nil || res.IsError {
		t.Fatalf("mc_wait 7: %v %+v", err, res)
	}
	console.waitFor(ctx, "the model's finished call", "mc_wait ms=7 [mcp]", "waited_ms=")

	answered := make(chan *sdk.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "mc_wait", Arguments: map[string]any{"ms": 600000}})
		if err != nil {
			t.Errorf("the long wait: %v", err)
		}
		answered <- res
	}()
	console.waitFor(ctx, "the model's running call", "mc_wait ms=600000 [mcp]", "running")
	console.run("send-keys", "-t", "console", "C-x")
	select {
	case res := <-answered:
		if res == nil || !res.IsError || !strings.Contains(textContent(t, res), "mc_wait was stopped by mc_stop") {
			t.Errorf("the model's call after the stop key: %+v", res)
		}
	case <-ctx.Done():
		t.Fatal("the model's call never answered after the stop key")
	}
	console.waitFor(ctx, "the stop in the timeline", "mc_stop", "cancelled=")
}

// withBearer adds the bearer token to every request.
type withBearer struct {
	token string
	base  http.RoundTripper
}

func (w withBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+w.token)
	return w.base.RoundTrip(r)
}
