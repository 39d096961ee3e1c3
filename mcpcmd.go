package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/blockmate/blockmate/mcp"
	"github.com/blockmate/blockmate/protocol"
)

// mcpFlags are the flags of `blockmate mcp`; the console's --mcp-http
// shares the HTTP ones.
type mcpFlags struct {
	http        string
	token       string
	allowRemote bool
	wait        time.Duration
}

func (f *mcpFlags) registerHTTP(fs *flag.FlagSet, name string) {
	fs.StringVar(&f.http, name, "", "serve MCP over Streamable HTTP at http://ADDR/mcp instead of stdin/stdout, e.g. 127.0.0.1:8765 (loopback only unless --allow-remote)")
	fs.StringVar(&f.token, "token", "", "the bearer token HTTP clients must send (default: $BLOCKMATE_MCP_TOKEN, else a fresh one printed to stderr at start)")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "let --http listen on an address other computers can reach")
	fs.DurationVar(&f.wait, "wait", 0, "answer a long call (mc_collect, mc_goto, mc_sleep …) that sends no wait of its own after this long with {running, task_id, so_far}, and finish it in the background (mc_task_done, mc_task_result); e.g. 50s for a client that gives up after 60 s. 0 waits until the call ends")
}

// serverOptions are the MCP server's options from the flags.
func (f *mcpFlags) serverOptions(log *slog.Logger) mcp.Options {
	return mcp.Options{Version: versionString(), Log: log, DefaultWait: f.wait}
}

// httpToken is the token from the flag or the environment, or a new one;
// generated tells whether the person still has to be told it.
func (f *mcpFlags) httpToken() (token string, generated bool, err error) {
	if f.token != "" {
		return f.token, false, nil
	}
	if t := os.Getenv("BLOCKMATE_MCP_TOKEN"); t != "" {
		return t, false, nil
	}
	t, err := mcp.NewToken()
	return t, true, err
}

func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("blockmate mcp", flag.ContinueOnError)
	var c common
	c.register(fs)
	var f mcpFlags
	f.registerHTTP(fs, "http")
	noReconnect := fs.Bool("no-reconnect", false, noReconnectHelp)
	watchLAN := fs.Bool("watch-lan", false, "listen for LAN worlds in the background and send mc_lan_world_found / mc_lan_world_lost events (joins the LAN multicast group)")
	watchSocket := fs.String("watch-socket", "", watchSocketHelp)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: blockmate mcp [flags]\n\nAn MCP server (Model Context Protocol) with every blockmate tool: on stdin/stdout for a\nclient that starts it (stdout carries protocol only; logs go to stderr), or with --http\nat http://ADDR/mcp for clients that connect (a bearer token is required).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if done, code := parse(fs, args, &c, stderr, stderr); done {
		return code
	}
	if f.http != "" {
		if err := mcp.CheckListenAddr(f.http, f.allowRemote); err != nil {
			fmt.Fprintln(stderr, "blockmate:", err)
			return 2
		}
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
	reserveGCHeadroom()
	server := mcp.New(parts.dispatcher, f.serverOptions(log))
	defer server.Close()
	defer func() {
		// Background tasks end with the process, and the bot leaves.
		parts.dispatcher.Stop("", protocol.ErrShutdown)
		closeCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		parts.close(closeCtx)
	}()

	if f.http == "" {
		log.Info("MCP server ready on stdin/stdout", "version", versionString(), "tools", len(parts.catalog.Names()))
		if err := server.ServeStdio(ctx, stdin, stdout); err != nil {
			log.Error("MCP server ended with an error", "err", err)
			return 1
		}
		log.Info("MCP session ended")
		return 0
	}
	token, generated, err := f.httpToken()
	if err != nil {
		fmt.Fprintln(stderr, "blockmate:", err)
		return 1
	}
	url, stopHTTP, err := listenMCPHTTP(ctx, server, f, token, log)
	if err != nil {
		fmt.Fprintln(stderr, "blockmate:", err)
		return 1
	}
	// The person is told where to connect and, when blockmate made it, the
	// token: on stderr, never in the log, in one write, so that a program
	// reading stderr never sees the address without the token.
	announce := fmt.Sprintf("blockmate: MCP server at %s\n", url)
	if generated {
		announce += fmt.Sprintf("blockmate: bearer token for this run: %s\nblockmate: clients send the header \"Authorization: Bearer %s\" (set BLOCKMATE_MCP_TOKEN or --token to keep one across runs)\n", token, token)
	} else {
		announce += "blockmate: clients must send the bearer token you gave\n"
	}
	_, _ = io.WriteString(stderr, announce)
	<-ctx.Done()
	stopHTTP()
	log.Info("MCP server finished")
	return 0
}

// listenMCPHTTP listens on f.http and serves MCP there until stop is
// called, and returns the endpoint's URL.
func listenMCPHTTP(ctx context.Context, server *mcp.Server, f mcpFlags, token string, log *slog.Logger) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", f.http)
	if err != nil {
		return "", nil, fmt.Errorf("cannot listen on %s for MCP (%v); pick another port", f.http, err)
	}
	url = "http://" + ln.Addr().String() + mcp.Path
	srv := &http.Server{
		Handler:           server.HTTPHandler(mcp.HTTPOptions{Token: token, AllowRemote: f.allowRemote}),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	log.Info("MCP server listening", "url", url, "version", versionString())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("MCP HTTP server stopped", "err", err)
		}
	}()
	return url, func() {
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		// Open event streams never end on their own: close them.
		if err := srv.Shutdown(shutdownCtx); err != nil {
			srv.Close()
		}
		<-done
	}, nil
}

// consoleToken is the token of the console's MCP server: given with
// --token or $BLOCKMATE_MCP_TOKEN, or else kept in a file only its owner
// can read, made on first use, so that MCP clients configured once keep
// working and the token never shows on a screen that may be streamed.
func consoleToken(f mcpFlags) (token, where string, err error) {
	if t, generated, _ := f.httpToken(); !generated {
		return t, "the one you gave", nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", "", fmt.Errorf("no settings folder for the MCP token (%v); pass --token or set BLOCKMATE_MCP_TOKEN", err)
	}
	path := filepath.Join(dir, "blockmate", "mcp-token")
	if raw, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(raw))) >= 16 {
		return strings.TrimSpace(string(raw)), path, nil
	}
	t, err := mcp.NewToken()
	if err != nil {
		return "", "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", "", fmt.Errorf("cannot keep the MCP token in %s (%v); pass --token or set BLOCKMATE_MCP_TOKEN", path, err)
	}
	if err := os.WriteFile(path, []byte(t+"\n"), 0o600); err != nil {
		return "", "", fmt.Errorf("cannot keep the MCP token in %s (%v); pass --token or set BLOCKMATE_MCP_TOKEN", path, err)
	}
	return t, path, nil
}

// gcHeadroom is reserved heap that nobody reads or writes; see
// reserveGCHeadroom.
var gcHeadroom []byte

// gcHeadroomSize is how far the heap may grow before the first collection.
const gcHeadroomSize = 32 << 20

// reserveGCHeadroom lets the heap grow by tens of megabytes between
// collections in a process that serves MCP. The SDK allocates 64 to 200 KB
// of short-lived garbage per call (a fresh 32 KiB read buffer for each of
// its JSON decodes, two to six per call), and a bot that is not in a world
// keeps only 1 to 4 MB alive, so the collector, which runs when the heap
// has doubled (4 MB at least), would run every 20 to 60 calls: measured, a
// third of an HTTP call's CPU. With 32 MiB reserved it runs every few
// hundred. The reserve is one pointer-free allocation that is never
// touched, so the collector never scans it and the system never gives it
// memory (resident size grows by well under 1 MB); it costs address space.
// Once the bot holds a world the live heap is larger and the reserve
// matters less. A person who set GOGC or GOMEMLIMIT has tuned the
// collector already, and it is left as they set it.
func reserveGCHeadroom() {
	if gcHeadroom != nil || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	gcHeadroom = make([]byte, gcHeadroomSize)
}
