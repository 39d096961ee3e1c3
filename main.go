// Command blockmate is a companion console for Minecraft: Java Edition: a
// headless bot that joins a world opened to LAN, driven by tool calls from
// its console or, as `blockmate sidecar`, from JSON Lines on stdin.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/tools"
	"github.com/blockmate/blockmate/lan"
	"github.com/blockmate/blockmate/mcp"
	"github.com/blockmate/blockmate/protocol"

	// Imported for its side effect: no terminal queries on stdout in sidecar mode.
	_ "github.com/blockmate/blockmate/protocol/quietstdout"
	"github.com/blockmate/blockmate/themes"
	"github.com/blockmate/blockmate/ui"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise
// the module's build information is used.
var version = ""

const usage = `blockmate: a companion for Minecraft: Java Edition that joins your LAN world as a bot.

Usage:
  blockmate [flags]            open the console (finds worlds opened to LAN on its own)
  blockmate sidecar [flags]    speak the JSON Lines tool protocol on stdin/stdout
  blockmate mcp [flags]        be an MCP server on stdin/stdout, or over HTTP with --http
  blockmate attach PATH        open the console on a sidecar or MCP server started with --watch-socket PATH
  blockmate tools              print the tool catalog as JSON
  blockmate --version          print the version
  blockmate --help             this text

Run "blockmate sidecar --help" or "blockmate mcp --help" for their flags.
`

func main() {
	oneProcessor()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// oneProcessor runs the program's goroutines on one processor unless the
// GOMAXPROCS environment variable asks otherwise. blockmate runs beside the
// game, and its work is a few small packets a tick with nothing to do in
// parallel; with more processors, every packet and tick wakes an idle
// processor's thread to look for work that is not there, and those wake-ups
// cost more than the work. CPU time of 30 s following a walking player
// (BenchmarkFollowCPUVsMineflayer, on a 2-core virtual machine): 480 ms on
// two processors, 425 ms on one, 460 ms on two with the socket's raw reads
// and writes (bot/conn), 335 ms (median) on one with them, and 280 ms once
// packets are read at the tick as well (core.Options.ReadOnTick): together
// they meet the goal of a fifth of mineflayer's.
func oneProcessor() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := ""
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "":
		return runConsole(args, stdout, stderr)
	case "sidecar":
		return runSidecar(args, stdin, stdout, stderr)
	case "mcp":
		return runMCP(args, stdin, stdout, stderr)
	case "attach":
		return runAttach(args, stdout, stderr)
	case "tools":
		return runTools(args, stdout, stderr)
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "blockmate: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
}

// common holds the flags every subcommand shares.
type common struct {
	logFile  string
	logLevel string
	version  bool
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.logFile, "log-file", "", "write logs to this file instead of stderr")
	fs.StringVar(&c.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
}

// logger opens the log destination. Logs never go to stdout, which belongs
// to the protocol.
func (c *common) logger(stderr io.Writer) (*slog.Logger, func(), error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return nil, nil, fmt.Errorf("--log-level must be debug, info, warn or error; got %q", c.logLevel)
	}
	out, closeFn := stderr, func() {}
	if c.logFile != "" {
		f, err := os.OpenFile(c.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("cannot open the log file: %w", err)
		}
		out, closeFn = f, func() { f.Close() }
	}
	return slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: level})), closeFn, nil
}

// runtimeParts is everything a transport needs, wired once.
type runtimeParts struct {
	catalog    *protocol.Catalog
	bus        *protocol.Bus
	dispatcher *protocol.Dispatcher
	// lan is the LAN watcher, run by watchLANWorlds (the console always,
	// the sidecar and MCP with --watch-lan); the bot asks it where a LAN
	// world it lost came back.
	lan *lan.Watcher
	// close leaves the world and stops background work.
	close func(ctx context.Context)
}

// wireOptions are the settings that change how the parts behave.
type wireOptions struct {
	// noReconnect is --no-reconnect (or the console's "reconnect": false).
	noReconnect bool
}

// wire builds the catalog, the event bus and the dispatcher, and registers
// every package's tools. It is the one place the parts meet.
func wire(log *slog.Logger) *runtimeParts { return wireWith(log, wireOptions{}) }

// wireWith is wire with settings.
func wireWith(log *slog.Logger, o wireOptions) *runtimeParts {
	catalog := protocol.NewCatalog()
	bus := protocol.NewBus(log)
	d := protocol.NewDispatcher(catalog, bus, log)
	protocol.RegisterBuiltins(catalog, d)
	watcher := lan.NewWatcher(lan.WatchOptions{Listen: lan.ListenConfig{Log: log}})
	mc := bot.NewClient(log, bus.Emit, d, bot.Options{Reconnect: bot.ReconnectOptions{Off: o.noReconnect, LANWorlds: func() []api.LANWorld {
		worlds := watcher.Worlds()
		out := make([]api.LANWorld, len(worlds))
		for i, w := range worlds {
			out[i] = w.LANWorld
		}
		return out
	}}})
	tools.Register(catalog, mc, d)
	lan.RegisterTools(catalog, lan.Options{Log: log})
	return &runtimeParts{catalog: catalog, bus: bus, dispatcher: d, lan: watcher, close: mc.Close}
}

// noReconnectHelp is --no-reconnect's help, the same for every subcommand
// that joins worlds.
const noReconnectHelp = "do not rejoin by itself after a lost connection (the world closed, the server restarted, a timeout); by default the bot comes back with backoff, finding a LAN world reopened on a new port by its name"

// parse parses flags. Asked-for output (help, version) goes to out; a flag
// error and the usage after it go to errOut.
func parse(fs *flag.FlagSet, args []string, c *common, out, errOut io.Writer) (done bool, code int) {
	var said bytes.Buffer
	fs.SetOutput(&said)
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		out.Write(said.Bytes())
		return true, 0
	case err != nil:
		errOut.Write(said.Bytes())
		return true, 2
	case c.version:
		fmt.Fprintln(out, "blockmate", versionString())
		return true, 0
	}
	return false, 0
}

func runSidecar(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("blockmate sidecar", flag.ContinueOnError)
	var c common
	c.register(fs)
	maxLine := fs.Int("max-line", protocol.DefaultMaxLine, fmt.Sprintf("longest request line accepted, in bytes, from %d to %d; longer lines are logged and skipped", protocol.MinMaxLine, protocol.MaxMaxLine))
	drain := fs.Duration("drain", protocol.DefaultDrain, "when stdin ends, how long calls in flight may finish before they are cancelled, from 0s (cancel them at once) to "+fmtDuration(protocol.MaxDrain))
	watchLAN := fs.Bool("watch-lan", false, "listen for LAN worlds in the background and push mc_lan_world_found / mc_lan_world_lost events (joins the LAN multicast group)")
	watchSocket := fs.String("watch-socket", "", watchSocketHelp)
	wait := fs.Duration("wait", 0, "answer a long call (mc_collect, mc_goto, mc_sleep …) that sends no wait of its own after this long with {running, task_id, so_far}, and finish it in the background (mc_task_done, mc_task_result); 0 waits until the call ends")
	noReconnect := fs.Bool("no-reconnect", false, noReconnectHelp)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: blockmate sidecar [flags]\n\nSpeaks JSON Lines on stdin/stdout: one request {\"id\",\"tool\",\"args\"} per line in,\none response per request and events out. Logs go to stderr.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	// Help goes to stderr here: stdout is the protocol's even for --help.
	if done, code := parse(fs, args, &c, stderr, stderr); done {
		return code
	}
	if err := checkSidecarFlags(*maxLine, *drain); err != nil {
		fmt.Fprintln(stderr, "blockmate sidecar:", err)
		return 2
	}
	if *drain == 0 {
		*drain = protocol.NoDrain
	}
	log, closeLog, err := c.logger(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "blockmate:", err)
		return 2
	}
	defer closeLog()
	parts := wireWith(log, wireOptions{noReconnect: *noReconnect})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A parent that closes our stdout must not kill us with SIGPIPE before
	// the bot has left: with SIGPIPE noticed, the write fails instead and
	// the sidecar shuts down in order.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	if *watchLAN {
		defer watchLANWorlds(ctx, parts)()
	}
	if *watchSocket != "" {
		stopWatch, err := startWatch(*watchSocket, parts.dispatcher, log)
		if err != nil {
			fmt.Fprintln(stderr, "blockmate:", err)
			return 1
		}
		defer stopWatch()
	}
	log.Info("sidecar ready", "version", versionString(), "tools", len(parts.catalog.Names()))
	err = protocol.Serve(ctx, parts.dispatcher, stdin, stdout, protocol.SidecarOptions{
		MaxLine: *maxLine, Drain: *drain, Log: log, BeforeExit: parts.close, DefaultWait: *wait,
	})
	if err != nil {
		log.Error("sidecar ended with an error", "err", err)
		return 1
	}
	log.Info("sidecar finished")
	return 0
}

// checkSidecarFlags refuses a flag value outside its range, naming the
// range, rather than running with a limit that makes no sense (a negative
// line length, a negative drain).
func checkSidecarFlags(maxLine int, drain time.Duration) error {
	if maxLine < protocol.MinMaxLine || maxLine > protocol.MaxMaxLine {
		return fmt.Errorf("--max-line must be from %d to %d bytes (1 KiB to 64 MiB; the default is %d); got %d", protocol.MinMaxLine, protocol.MaxMaxLine, protocol.DefaultMaxLine, maxLine)
	}
	if drain < 0 || drain > protocol.MaxDrain {
		return fmt.Errorf("--drain must be from 0s (cancel calls in flight as soon as stdin ends) to %s (the default is %s); got %s", fmtDuration(protocol.MaxDrain), fmtDuration(protocol.DefaultDrain), drain)
	}
	return nil
}

// fmtDuration writes 1h0m0s as 1h and 10s as 10s.
func fmtDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// watchLANWorlds runs LAN discovery in the background, emitting
// mc_lan_world_found / mc_lan_world_lost on bus, until the returned stop
// func is called (it waits for the watcher to end).
func watchLANWorlds(ctx context.Context, parts *runtimeParts) (stop func()) {
	watchCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		parts.lan.Run(watchCtx, parts.bus)
	}()
	return func() { cancel(); <-done }
}

func runTools(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("blockmate tools", flag.ContinueOnError)
	var c common
	c.register(fs)
	if done, code := parse(fs, args, &c, stdout, stderr); done {
		return code
	}
	parts := wire(slog.New(slog.DiscardHandler))
	tools := parts.catalog.Tools()
	out := struct {
		Count  int                  `json:"count"`
		Tools  []protocol.ToolInfo  `json:"tools"`
		Events []protocol.EventSpec `json:"events"`
	}{Count: len(tools), Events: protocol.EventCatalog}
	for _, t := range tools {
		out.Tools = append(out.Tools, t.Info())
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // descriptions keep "&", "<" and ">" as written
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(stderr, "blockmate:", err)
		return 1
	}
	return 0
}

func runConsole(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("blockmate", flag.ContinueOnError)
	var c common
	c.register(fs)
	configPath := fs.String("config", ui.DefaultConfigPath(), "console settings file (JSON: {\"username\":…,\"theme\":…}); a missing file is fine")
	username := fs.String("username", "", "the bot's name in the world (default from the settings file, else \""+ui.DefaultUsername+"\")")
	themeName := fs.String("theme", "", "colour theme: "+strings.Join(themes.Names(), ", ")+" (ctrl+t switches while running and saves the choice in the settings file)")
	overlay := fs.Bool("overlay", false, "start in the compact layout for a small terminal captured by streaming software (ctrl+o or esc switches back)")
	connect := fs.String("connect", "", "join the world at host:port at start, e.g. 127.0.0.1:51234 (the port Minecraft prints after Open to LAN)")
	noReconnect := fs.Bool("no-reconnect", false, noReconnectHelp+" (the settings file's \"reconnect\": false says the same)")
	var mf mcpFlags
	mf.registerHTTP(fs, "mcp-http")
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage, "\nFlags:\n"); fs.PrintDefaults() }
	if done, code := parse(fs, args, &c, stdout, stderr); done {
		return code
	}
	cfg, err := ui.LoadConfig(*configPath)
	if err != nil {
		fmt.Fprintln(stderr, "blockmate:", err)
		return 2
	}
	opts := ui.Options{Username: firstOf(*username, cfg.Username, ui.DefaultUsername), Overlay: *overlay, Connect: *connect, Theme: themes.Dark, ConfigPath: *configPath}
	if err := ui.CheckUsername(opts.Username); err != nil {
		from := "--username"
		if *username == "" {
			from = "the username in " + *configPath
		}
		fmt.Fprintf(stderr, "blockmate: %s: %v\n", from, err)
		return 2
	}
	if name := firstOf(*themeName, cfg.Theme); name != "" {
		if opts.Theme, err = themes.ByName(name); err != nil {
			fmt.Fprintln(stderr, "blockmate:", err)
			return 2
		}
	}
	if *connect != "" {
		if _, _, err := ui.CheckAddress(*connect); err != nil {
			fmt.Fprintln(stderr, "blockmate: --connect:", err)
			return 2
		}
	}
	if mf.http != "" {
		if err := mcp.CheckListenAddr(mf.http, mf.allowRemote); err != nil {
			fmt.Fprintln(stderr, "blockmate:", strings.Replace(err.Error(), "--http", "--mcp-http", 1))
			return 2
		}
	}
	// Bubble Tea needs a terminal both ways; without one it would write
	// escape sequences and then fail. Programs have the sidecar.
	if !isTerminal(os.Stdin) || !isTerminal(stdout) {
		fmt.Fprintln(stderr, "blockmate: the console needs a terminal (run it in one); programs should use `blockmate sidecar`, which speaks JSON Lines on stdin/stdout.")
		return 2
	}
	// The console owns the terminal, so logs go to a file or nowhere.
	if c.logFile == "" {
		c.logFile = os.DevNull
	}
	log, closeLog, err := c.logger(stderr)
	if err != nil {
		fmt.Fprintln(stderr, "blockmate:", err)
		return 2
	}
	defer closeLog()
	parts := wireWith(log, wireOptions{noReconnect: *noReconnect || (cfg.Reconnect != nil && !*cfg.Reconnect)})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts.Dispatcher = parts.dispatcher
	// The worlds pane hears of LAN worlds from the watcher's events.
	defer watchLANWorlds(ctx, parts)()
	if mf.http != "" {
		// A language model's calls go through this very dispatcher, so the
		// timeline shows them as they run and the stop key stops them.
		token, where, err := consoleToken(mf)
		if err != nil {
			fmt.Fprintln(stderr, "blockmate:", err)
			return 1
		}
		reserveGCHeadroom()
		server := mcp.New(parts.dispatcher, mf.serverOptions(log))
		defer server.Close()
		url, stopHTTP, err := listenMCPHTTP(ctx, server, mf, token, log)
		if err != nil {
			fmt.Fprintln(stderr, "blockmate:", err)
			return 1
		}
		defer stopHTTP()
		opts.Note = "MCP server at " + url + " (bearer token: " + where + "); a model's calls show here marked [mcp]"
	}
	log.Info("console starting", "version", versionString(), "tools", len(parts.catalog.Names()))
	err = ui.Run(ctx, opts, os.Stdin, stdout)
	// Leave the world however the console ended (quit already left; this
	// is for a signal).
	closeCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	parts.close(closeCtx)
	if err != nil {
		fmt.Fprintln(stderr, "blockmate: the console stopped:", err)
		return 1
	}
	return 0
}

// isTerminal reports whether f is a terminal.
func isTerminal(f any) bool {
	fd, ok := f.(interface{ Fd() uintptr })
	return ok && (isatty.IsTerminal(fd.Fd()) || isatty.IsCygwinTerminal(fd.Fd()))
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

func versionString() string {
	if version != "" {
		return version
	}
	v := "dev"
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		rev, dirty := "", ""
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && len(s.Value) >= 12:
				rev = s.Value[:12]
			case s.Key == "vcs.modified" && s.Value == "true":
				dirty = "+modified"
			}
		}
		if rev != "" {
			v += " (" + rev + dirty + ")"
		}
	}
	return v
}
