package mcp

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where the Streamable HTTP endpoint lives.
const Path = "/mcp"

// statelessFrom is the first protocol version served without sessions.
// The SDK accepts it over HTTP only on a stateless handler, and refuses
// sessions (which 2025-era clients need for events) on one, so requests are
// routed by the version they declare.
const statelessFrom = "2026-07-28"

// HTTPOptions configure the HTTP handler.
type HTTPOptions struct {
	// Token is the bearer token every request must carry. It must not be
	// empty (see NewToken).
	Token string
	// AllowRemote lets web pages of a non-loopback origin through the Origin
	// check when that origin is the address the request was sent to; only
	// for a server deliberately listening beyond this machine.
	AllowRemote bool
	// SessionTimeout closes a 2025-era session idle this long; 0 means 30
	// minutes.
	SessionTimeout time.Duration
}

// NewToken returns a fresh random bearer token (256 bits, URL-safe).
func NewToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("no randomness for the MCP token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// HTTPHandler serves MCP at Path. It refuses, before MCP sees the request,
// a foreign Origin or Host (a web page reaching a local server through DNS
// rebinding) and a missing or wrong bearer token; the token is compared in
// constant time and never logged. Then a request that declares protocol
// 2026-07-28 or later is served without a session, and any other (the 2025
// handshake and its sessions) within its session.
//
// The requests clients send all the time (the 2025 handshake, everything
// within a session it opened, and 2026-07-28 tool calls and listings) are
// served by blockmate's own Streamable HTTP handling (httpHandler), which
// costs a fraction of the SDK's; the SDK's StreamableHTTPHandler serves the
// rest, so that every corner of the protocol keeps the SDK's behaviour:
// subscriptions/listen and server/discover, JSON-RPC batches outside a
// session, and anything malformed, which it answers with its error.
func (s *Server) HTTPHandler(opts HTTPOptions) http.Handler {
	if opts.Token == "" {
		panic("mcp: HTTPHandler needs a token")
	}
	if opts.SessionTimeout <= 0 {
		opts.SessionTimeout = 30 * time.Minute
	}
	sdkLog := s.sdkLog
	getServer := func(*http.Request) *sdk.Server { return s.sdk }
	h := &httpHandler{
		s:        s,
		opts:     opts,
		want:     sha256.Sum256([]byte(opts.Token)),
		stateful: sdk.NewStreamableHTTPHandler(getServer, &sdk.StreamableHTTPOptions{Logger: sdkLog, SessionTimeout: opts.SessionTimeout}),
		stateless: sdk.NewStreamableHTTPHandler(getServer, &sdk.StreamableHTTPOptions{
			Logger:    sdkLog,
			Stateless: true,
			// In 2026-07-28 the POST is the whole call: a client that drops it
			// has cancelled the call.
			PropagateRequestCancellation: true,
		}),
		versions: map[string]bool{},
		sessions: map[string]*httpSession{},
	}
	for _, v := range sdk.SupportedProtocolVersions() {
		h.versions[v] = true
	}
	h.paramHeaderTools = map[string]bool{}
	for _, t := range s.d.Catalog().Tools() {
		if raw, err := json.Marshal(describeTool(t).InputSchema); err == nil && bytes.Contains(raw, []byte("x-mcp-header")) {
			h.paramHeaderTools[t.Name] = true
		}
	}
	s.addCloser(h.closeAll)
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Not found: blockmate serves MCP at "+Path+".", http.StatusNotFound)
	})
	return mux
}

// endSession stops the calls of the session with that id, if there is one.
func (s *Server) endSession(id string) {
	if id == "" {
		return
	}
	for ss := range s.sdk.Sessions() {
		if ss.ID() == id {
			s.cancelSessionCalls(ss)
		}
	}
}

// bearer extracts the token from an Authorization header.
func bearer(h string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// allowedOrigin accepts an Origin on this machine (localhost, 127.0.0.0/8,
// ::1) and, with allowRemote, the very host the request was sent to.
func allowedOrigin(origin, host string, allowRemote bool) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	if isLoopbackHost(u.Hostname()) {
		return true
	}
	return allowRemote && strings.EqualFold(u.Host, host)
}

func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// CheckListenAddr refuses an address beyond this machine unless
// allowRemote: an MCP server drives a bot in someone's world, and a token
// sent over plain HTTP on a shared network can be read by others.
func CheckListenAddr(addr string, allowRemote bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return fmt.Errorf("--http wants host:port, e.g. 127.0.0.1:8765; got %q", addr)
	}
	if isLoopbackHost(host) || allowRemote {
		return nil
	}
	if host == "" {
		host = "every interface"
	}
	return fmt.Errorf("--http %s would listen on %s, beyond this machine; use 127.0.0.1:%s, or add --allow-remote if other computers must reach it (anyone who can read the token on that network can then drive the bot)", addr, host, port)
}

func quoteShort(s string) string {
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return fmt.Sprintf("%q", s)
}
