package ui

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/peertest"
	"github.com/blockmate/blockmate/lan"
	"github.com/blockmate/blockmate/lan/netnstest"
	"github.com/blockmate/blockmate/protocol/sidecartest"
)

// tmuxSession is a detached tmux server of its own (a private socket, so
// nothing the person running the tests has open is touched) with one
// window of fixed size running a command.
type tmuxSession struct {
	t      *testing.T
	socket string
}

func startTmux(t *testing.T, w, h int, argv ...string) *tmuxSession {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if peertest.InCI() {
			t.Fatal("tmux is not installed; CI must install it (apt-get install -y tmux)")
		}
		t.Skip("tmux is not installed (apt-get install -y tmux)")
	}
	s := &tmuxSession{t: t, socket: fmt.Sprintf("blockmate-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	cmd := strings.Join(quoteAll(argv), " ")
	s.run("new-session", "-d", "-s", "console", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-e", "TERM=xterm-256color", "-e", "COLORTERM=truecolor", cmd)
	s.run("set-option", "-t", "console", "remain-on-exit", "on")
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

func quoteAll(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return out
}

func (s *tmuxSession) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen is what the pane shows now, as text.
func (s *tmuxSession) screen() string { return s.run("capture-pane", "-p", "-t", "console") }

// keys types literal text; key presses named by tmux (Enter, C-c) go with press.
func (s *tmuxSession) keys(text string) { s.run("send-keys", "-t", "console", "-l", text) }
func (s *tmuxSession) press(key string) { s.run("send-keys", "-t", "console", key) }

// hotkeys presses single-key commands one by one, a beat apart, as a person
// does: keys arriving in one read would be one multi-rune key message.
func (s *tmuxSession) hotkeys(keys string) {
	for _, k := range keys {
		s.keys(string(k))
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *tmuxSession) dead() bool {
	return strings.TrimSpace(s.run("display-message", "-p", "-t", "console", "#{pane_dead}")) == "1"
}

// waitFor polls the screen until it shows every want.
func (s *tmuxSession) waitFor(what string, wants ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		scr := s.screen()
		ok := true
		for _, w := range wants {
			ok = ok && strings.Contains(scr, w)
		}
		if ok {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waiting for %s: the console shows\n%s", what, scr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// saveScreen keeps the pane with its colours for the README's screenshots
// when BLOCKMATE_SCREENSHOTS names a directory.
func (s *tmuxSession) saveScreen(name string) {
	dir := os.Getenv("BLOCKMATE_SCREENSHOTS")
	if dir == "" {
		return
	}
	out := s.run("capture-pane", "-e", "-p", "-t", "console")
	if err := os.WriteFile(filepath.Join(dir, name+".ansi"), []byte(out), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// startAnnouncer sends the game's Open to LAN announcement for port inside
// the namespace, as Minecraft does every 1.5 s, until the test ends.
func startAnnouncer(t *testing.T, ns *netnstest.NS, motd string, port int) {
	t.Helper()
	var conn *net.UDPConn
	if err := ns.Do(func() (err error) {
		conn, err = net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.ParseIP(lan.GroupIPv4), Port: lan.GroupPort})
		return err
	}); err != nil {
		t.Fatalf("announcer: %v", err)
	}
	payload := lan.FormatAnnouncement(motd, strconv.Itoa(port))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(1500 * time.Millisecond)
		defer tick.Stop()
		for {
			_, _ = conn.Write(payload)
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done; conn.Close() })
}

// consoleWorld is a flying-squid world announced to LAN in a private
// network namespace, with blockmate's console running in that namespace in
// a tmux window, so discovery never touches the machine's real network.
type consoleWorld struct {
	srv    *peertest.Server
	tmux   *tmuxSession
	logDir string
}

func startConsoleWorld(t *testing.T, args func(addr string) []string) *consoleWorld {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a server and the binary")
	}
	srv := peertest.StartServer(t, peertest.ServerOptions{Version: "1.21.4", MOTD: "Eduard - Survival"})
	ns := netnstest.New(t)
	ns.ForwardTCP(t, srv.Port)
	startAnnouncer(t, ns, "Eduard - Survival", srv.Port)
	bin := sidecartest.Build(t)
	dir := t.TempDir()
	argv := ns.Command(append([]string{bin, "--username", "Theo", "--log-file", filepath.Join(dir, "console.log"),
		"--log-level", "debug", "--config", filepath.Join(dir, "none.json")}, args(srv.Addr())...)...)
	return &consoleWorld{srv: srv, tmux: startTmux(t, 120, 36, argv...), logDir: dir}
}

// waitExit waits for the console to end after a quit key.
func (s *tmuxSession) waitExit() {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !s.dead() {
		if time.Now().After(deadline) {
			s.t.Fatalf("the console did not exit; it shows\n%s", s.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestTmuxSmoke is the new player's flow in a real terminal against a real
// server: the world announced to LAN shows in the worlds pane, Enter joins
// it, a player's chat shows in the event stream, the person types the short
// form and a JSON call and sees both in the timeline, stops a long call,
// switches theme and layout, and quits; the bot leaves the world.
func TestTmuxSmoke(t *testing.T) {
	w := startConsoleWorld(t, func(string) []string { return nil })
	s := w.tmux
	addr := w.srv.Addr()
	s.waitFor("the announced world in the worlds pane", "Eduard - Survival", addr, "can join")
	s.saveScreen("worlds-dark")
	s.press("Enter")
	s.waitFor("the bot to join", "Theo in "+addr, "joined=true")

	player := peertest.StartPlayer(t, w.srv, "alex")
	s.waitFor("alex to join", "player_joined")
	if err := player.Chat("hello from alex"); err != nil {
		t.Fatal(err)
	}
	s.waitFor("alex's chat in the event stream", "<alex> hello from alex")

	s.keys("say hi")
	s.press("Enter")
	s.waitFor("say hi in the timeline", "mc_say", "said=true")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := player.WaitChat(ctx, func(l peertest.ChatLine) bool { return strings.Contains(l.Text, "hi") }); err != nil {
		t.Fatalf("alex never heard the bot say hi: %v", err)
	}
	s.keys(`{"id":"json1","tool":"mc_status"}`)
	s.press("Enter")
	s.waitFor("the JSON call in the timeline", "json1", "connected=true")
	if err := player.Chat("nice, can you get some wood?"); err != nil {
		t.Fatal(err)
	}
	s.waitFor("alex's second line", "can you get some wood?")

	// A long call runs, shows in status and timeline, and the stop key ends it.
	s.keys("wait 600000")
	s.press("Enter")
	s.waitFor("the wait to run", "1 running", "Task   mc_wait")
	s.saveScreen("console-dark")
	s.press("C-x")
	s.waitFor("the stop", "mc_stop", "stopped by mc_stop")

	// Theme and overlay, outside the input line. (Tab rather than Escape:
	// a terminal reads Escape and a quick next key as one alt+key.)
	s.press("Tab")
	s.hotkeys("t")
	s.waitFor("the light theme", "theme light")
	s.saveScreen("console-light")
	s.hotkeys("tt")
	s.waitFor("the streamer theme", "theme streamer")
	s.saveScreen("console-streamer")
	// The overlay layout in a small window, as streaming software captures it.
	s.hotkeys("o")
	s.run("resize-window", "-t", "console", "-x", "52", "-y", "12")
	s.waitFor("the overlay", "blockmate ● playing", "Task ")
	s.saveScreen("overlay-streamer")
	// Typing into the overlay's window by mistake does nothing: no pane
	// there takes keys.
	s.hotkeys(":")
	s.keys("say oops")
	s.press("Enter")
	s.run("resize-window", "-t", "console", "-x", "120", "-y", "36")
	s.hotkeys("ot")
	if scr := s.waitFor("back to dark", "theme dark", "Tool calls"); strings.Contains(scr, "oops") {
		t.Fatalf("keys typed in the overlay reached a hidden pane:\n%s", scr)
	}

	s.press("C-c")
	s.waitExit()
	leftCtx, cancelLeft := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancelLeft()
	if _, err := player.WaitChat(leftCtx, func(l peertest.ChatLine) bool { return strings.Contains(l.Text, "Theo left") }); err != nil {
		t.Fatalf("the server never said the bot left: %v\nchat: %v", err, player.Lines())
	}
}

// TestTmuxConnectFlag: --connect joins at start, without the worlds pane.
func TestTmuxConnectFlag(t *testing.T) {
	w := startConsoleWorld(t, func(addr string) []string { return []string{"--connect", addr} })
	s := w.tmux
	s.waitFor("the bot to join at start", "Theo in "+w.srv.Addr(), "mc_join", "joined=true")
	s.press("C-c")
	s.waitExit()
	log, err := os.ReadFile(filepath.Join(w.logDir, "console.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "console starting") {
		t.Fatalf("the console's log file has no start line:\n%s", log)
	}
}
