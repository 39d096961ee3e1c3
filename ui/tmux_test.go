package ui

import (
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/internal/testkit/netnstest"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
	"github.com/blockmate/blockmate/lan"
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

// keys types literal text in one go; key presses named by tmux (Enter, C-c)
// go with press.
func (s *tmuxSession) keys(text string) { s.run("send-keys", "-t", "console", "-l", text) }
func (s *tmuxSession) press(key string) { s.run("send-keys", "-t", "console", key) }

// typeSlowly types text one character at a time, as a person does, each
// its own send-keys, and after each waits until the input line shows what
// has been typed so far: so every key arrives on its own, and every key is
// seen to land in the input line (none taken as an action). prompt is the
// theme's input prompt.
func (s *tmuxSession) typeSlowly(prompt, text string) {
	s.t.Helper()
	typed := ""
	for _, r := range text {
		s.keys(string(r))
		typed += string(r)
		s.waitFor(fmt.Sprintf("%q to reach the input line", typed), prompt+strings.TrimRight(typed, " "))
	}
}

// paste pastes text as a terminal does when the application asked for
// bracketed paste (Bubble Tea does): tmux paste-buffer -p.
func (s *tmuxSession) paste(text string) {
	s.run("set-buffer", "-b", "blockmate-paste", text)
	s.run("paste-buffer", "-p", "-d", "-b", "blockmate-paste", "-t", "console")
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
	srv        *peertest.Server
	tmux       *tmuxSession
	logDir     string
	configPath string
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
	config := filepath.Join(dir, "console.json")
	argv := ns.Command(append([]string{bin, "--username", "Theo", "--log-file", filepath.Join(dir, "console.log"),
		"--log-level", "debug", "--config", config}, args(srv.Addr())...)...)
	return &consoleWorld{srv: srv, tmux: startTmux(t, 120, 36, argv...), logDir: dir, configPath: config}
}

// waitGone polls the screen until it no longer shows gone.
func (s *tmuxSession) waitGone(what, gone string) {
	s.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for strings.Contains(s.screen(), gone) {
		if time.Now().After(deadline) {
			s.t.Fatalf("waiting for %s to go: the console shows\n%s", what, s.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
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
// server, typed one key at a time: the world announced to LAN shows in the
// worlds pane, Enter joins it, a player's join shows once and their chat
// shows in the event stream; words typed from the timeline and the events
// pane land in the input line and run on Enter, the bot's own line shows
// beside the player's, a JSON call pasted with bracketed paste waits in the
// input line for Enter; a long call is stopped with ctrl+x; ctrl+t and
// ctrl+o switch theme and layout; typing in the overlay does nothing and
// Esc leaves it; ctrl+c asks, a second ctrl+c quits and the bot leaves.
func TestTmuxSmoke(t *testing.T) {
	w := startConsoleWorld(t, func(string) []string { return nil })
	s := w.tmux
	addr := w.srv.Addr()
	const prompt = "› "
	s.waitFor("the announced world in the worlds pane", "Eduard - Survival", addr, "can join")
	s.saveScreen("worlds-dark")
	s.press("Enter")
	s.waitFor("the bot to join", "Theo in "+addr, "joined=true")

	player := peertest.StartPlayer(t, w.srv, "alex")
	scr := s.waitFor("alex to join", "alex joined")
	if n := strings.Count(scr, "alex joined"); n != 1 {
		t.Fatalf("alex's join shows %d times; the event and the server's line are one piece of news:\n%s", n, scr)
	}
	if err := player.Chat("hello from alex"); err != nil {
		t.Fatal(err)
	}
	s.waitFor("alex's chat in the event stream", "<alex> hello from alex")

	// From the events pane (input → timeline → events), typed one key at
	// a time: s, a, y, and the space are text, nothing else.
	s.press("Tab")
	s.press("Tab")
	s.typeSlowly(prompt, "say hi alex")
	s.press("Enter")
	s.waitFor("say hi alex in the timeline, and the bot's own line in the events", "mc_say", "said=true", "<Theo> hi alex")
	ctx, cancel := testctx.New(t)
	defer cancel()
	if _, err := player.WaitChat(ctx, func(l peertest.ChatLine) bool { return strings.Contains(l.Text, "hi alex") }); err != nil {
		t.Fatalf("alex never heard the bot say hi: %v", err)
	}
	// From the timeline: status's s and t once stopped the bot and
	// changed the theme.
	s.press("Tab")
	s.typeSlowly(prompt, "status")
	if scr := s.screen(); !strings.Contains(scr, "theme dark") || strings.Contains(scr, "mc_stop") {
		t.Fatalf("typing status acted on its letters:\n%s", scr)
	}
	s.press("Enter")
	s.waitFor("status in the timeline", "mc_status", "connected=true")

	// A JSON call pasted from the timeline pane lands in the input line
	// and waits for Enter, though the paste ends in a line break.
	s.press("BTab")
	s.press("BTab")
	s.paste("{\n  \"id\": \"json1\",\n  \"tool\": \"mc_status\"\n}\n")
	scr = s.waitFor("the paste in the input line", prompt+`{ "id": "json1", "tool": "mc_status" }`)
	if strings.Contains(scr, "json1 mc_status") {
		t.Fatalf("the paste ran before Enter:\n%s", scr)
	}
	s.press("Enter")
	s.waitFor("the JSON call in the timeline", "json1", "connected=true")
	if err := player.Chat("nice, can you get some wood?"); err != nil {
		t.Fatal(err)
	}
	s.waitFor("alex's second line", "can you get some wood?")

	// The map: alex under his letter once he has walked over (flying-squid
	// spawns each player somewhere of its own), and a pond and an oak the
	// server places near the bot.
	where := regexp.MustCompile(`Where\s+(-?\d+\.\d) (-?\d+\.\d) (-?\d+\.\d)`).FindStringSubmatch(s.screen())
	if where == nil {
		t.Fatalf("the status pane does not say where the bot is:\n%s", s.screen())
	}
	block := func(v string) int {
		f, _ := strconv.ParseFloat(v, 64)
		return int(math.Floor(f))
	}
	fx, fy, fz := block(where[1]), block(where[2]), block(where[3])
	// alex walks first, over flat ground, so the pond and the oak are
	// not in his way.
	walkCtx, cancelWalk := testctx.New(t)
	defer cancelWalk()
	if _, _, _, err := player.WalkTo(walkCtx, float64(fx-2)+0.5, float64(fz+2)+0.5); err != nil {
		t.Fatal(err)
	}
	var place []string
	for x := fx + 2; x <= fx+4; x++ {
		for z := fz - 3; z <= fz-2; z++ {
			place = append(place, fmt.Sprintf("setblock %d %d %d water", x, fy-1, z))
		}
	}
	for y := fy; y <= fy+2; y++ {
		place = append(place, fmt.Sprintf("setblock %d %d %d oak_log", fx+3, y, fz+3))
	}
	for x := fx + 2; x <= fx+4; x++ {
		for z := fz + 2; z <= fz+4; z++ {
			place = append(place, fmt.Sprintf("setblock %d %d %d oak_leaves", x, fy+3, z))
		}
	}
	for _, c := range place {
		if err := w.srv.Command(c); err != nil {
			t.Fatal(err)
		}
	}
	s.waitFor("the pond, the oak and alex on the map", "~~~~~~", "******", "A alex")

	// A long call runs, shows in status and timeline, and ctrl+x ends it.
	s.typeSlowly(prompt, "wait 600000")
	s.press("Enter")
	s.waitFor("the wait to run", "1 running", "Task   mc_wait")
	s.saveScreen("console-dark")
	s.press("C-x")
	s.waitFor("the stop", "mc_stop", "stopped by mc_stop")

	// Theme and overlay are on ctrl keys, from any pane.
	// A switch says that it wrote the settings file; the note goes with
	// the next key (End, which keeps the timeline following).
	s.press("Tab")
	s.press("C-t")
	s.waitFor("the light theme, saved", "theme light", "Theme light, saved to "+w.configPath)
	if cfg, err := LoadConfig(w.configPath); err != nil || cfg.Theme != "light" {
		t.Fatalf("the console said it saved the theme; the settings file says %+v (%v)", cfg, err)
	}
	s.press("End")
	s.waitGone("the note", "saved to")
	s.saveScreen("console-light")
	s.press("C-t")
	s.press("C-t")
	s.waitFor("the streamer theme", "theme streamer")
	s.press("End")
	s.waitGone("the note", "saved to")
	s.saveScreen("console-streamer")
	// The overlay layout in a small window, as streaming software captures it.
	s.press("C-o")
	s.run("resize-window", "-t", "console", "-x", "52", "-y", "12")
	s.waitFor("the overlay, saying how to leave it", "blockmate ● playing", "Task ", "esc or ctrl+o: full console")
	s.saveScreen("overlay-streamer")
	// Typing into the overlay's window by mistake does nothing: no pane
	// there takes keys.
	s.keys("say oops")
	s.press("Enter")
	s.run("resize-window", "-t", "console", "-x", "120", "-y", "36")
	s.press("Escape")
	s.waitFor("the full console", "Tool calls", "theme streamer")
	s.press("C-t")
	if scr := s.waitFor("back to dark", "theme dark", "Tool calls"); strings.Contains(scr, "oops") {
		t.Fatalf("keys typed in the overlay reached a hidden pane:\n%s", scr)
	}

	// In a world, ctrl+c asks first; the second one quits.
	s.press("C-c")
	s.waitFor("the quit to ask", "ctrl+c again: leave the world and quit")
	if s.dead() {
		t.Fatal("one ctrl+c in a world quit the console")
	}
	s.press("C-c")
	s.waitExit()
	leftCtx, cancelLeft := testctx.New(t)
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
	s.waitFor("the quit to ask", "ctrl+c again")
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
