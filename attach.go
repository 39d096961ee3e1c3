package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/protocol"
	"github.com/blockmate/blockmate/themes"
	"github.com/blockmate/blockmate/ui"
	"github.com/blockmate/blockmate/watch"
)

const watchSocketHelp = "open a private local socket at PATH on which `blockmate attach PATH` shows this process's calls and events in the console (a Unix socket only you may open; on Windows a file naming a loopback port and a token)"

// startWatch opens the watch socket and serves consoles on it until the
// returned func is called.
func startWatch(path string, d *protocol.Dispatcher, log *slog.Logger) (stop func(), err error) {
	ln, err := watch.Listen(path)
	if err != nil {
		return nil, err
	}
	srv := watch.Serve(d, ln, watch.ServerOptions{Version: versionString(), Log: log})
	log.Info("consoles may attach", "socket", path)
	return srv.Close, nil
}

// runAttach opens the console on a blockmate that another program runs
// (started with --watch-socket): its calls and events show live, and calls
// typed here go through its dispatcher. Quitting only detaches.
func runAttach(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("blockmate attach", flag.ContinueOnError)
	var c common
	c.register(fs)
	configPath := fs.String("config", ui.DefaultConfigPath(), "console settings file (JSON: {\"theme\":…}); a missing file is fine")
	themeName := fs.String("theme", "", "colour theme: "+strings.Join(themes.Names(), ", "))
	overlay := fs.Bool("overlay", false, "start in the compact layout for a small terminal captured by streaming software")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: blockmate attach [flags] PATH\n\nOpens the console on the blockmate sidecar or MCP server started with --watch-socket PATH:\nits calls (marked with where they came from) and events show as they happen, the stop\nkey stops what it runs, and calls typed here go through it. Quitting only detaches.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if done, code := parse(fs, args, &c, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "blockmate attach: give the path of the watch socket, e.g. blockmate attach /tmp/blockmate.sock (the PATH the sidecar or MCP server was started with: --watch-socket PATH)")
		return 2
	}
	path := fs.Arg(0)
	cfg, err := ui.LoadConfig(*configPath)
	if err != nil {
		fmt.Fprintln(stderr, "blockmate:", err)
		return 2
	}
	opts := ui.Options{Overlay: *overlay, Theme: themes.Dark, ConfigPath: *configPath, Username: firstOf(cfg.Username, ui.DefaultUsername)}
	if name := firstOf(*themeName, cfg.Theme); name != "" {
		if opts.Theme, err = themes.ByName(name); err != nil {
			fmt.Fprintln(stderr, "blockmate:", err)
			return 2
		}
	}
	// Attach first: a wrong path or another user's socket is the news,
	// whatever the terminal.
	client, err := watch.Attach(path)
	if err != nil {
		fmt.Fprintln(stderr, "blockmate:", err)
		return 1
	}
	defer client.Close()
	if !isTerminal(os.Stdin) || !isTerminal(stdout) {
		fmt.Fprintln(stderr, "blockmate: the console needs a terminal (run blockmate attach in one).")
		return 2
	}
	opts.Backend, opts.Attached, opts.IDPrefix = client, path, client.IDPrefix()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The bot there may have joined under another name than this console's
	// default: its own lines (from its mc_say calls) are shown under it.
	if name := watchedBotName(ctx, client); name != "" {
		opts.Username = name
	}
	opts.Note = "Attached to " + path + ": its calls and events show here, and ctrl+x stops what it runs. Quitting only detaches."
	if events, calls := client.Replay(); len(events)+len(calls) > 0 {
		opts.Note = fmt.Sprintf("Attached to %s: its latest %d events and %d calls from before are shown, then everything as it happens; ctrl+x stops what it runs. Quitting only detaches.", path, len(events), len(calls))
	}
	if err := ui.Run(ctx, opts, os.Stdin, stdout); err != nil {
		fmt.Fprintln(stderr, "blockmate: the console stopped:", err)
		return 1
	}
	return 0
}

// watchedBotName asks the watched blockmate which name its bot is in a
// world with; empty when it is in none or does not say.
func watchedBotName(ctx context.Context, client *watch.Client) string {
	ctx, cancel := context.WithTimeout(protocol.WithOrigin(ctx, protocol.OriginInternal), 5*time.Second)
	defer cancel()
	resp := client.Call(ctx, protocol.Request{ID: json.RawMessage(strconv.Quote(client.IDPrefix() + "console-name")), Tool: "mc_status"})
	var st api.Status
	if !resp.OK || json.Unmarshal(resp.Result, &st) != nil {
		return ""
	}
	return st.Username
}
