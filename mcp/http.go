package mcp

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
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

// HTTPHandler serves MCP at Path. It refuses, before the SDK sees the
// request, a foreign Origin (a web page reaching a local server through DNS
// rebinding) and a missing or wrong bearer token. Then a request that
// declares protocol 2026-07-28 or later goes to a stateless handler, and
// any other (the 2025 handshake and its sessions) to a stateful one; both
// serve the same Server. The token is compared in constant time and never
// logged.
func (s *Server) HTTPHandler(opts HTTPOptions) http.Handler {
	if opts.Token == "" {
		panic("mcp: HTTPHandler needs a token")
	}
	if opts.SessionTimeout <= 0 {
		opts.SessionTimeout = 30 * time.Minute
	}
	sdkLog := s.sdkLog
	getServer := func(*http.Request) *sdk.Server { return s.sdk }
	stateful := sdk.NewStreamableHTTPHandler(getServer, &sdk.StreamableHTTPOptions{Logger: sdkLog, SessionTimeout: opts.SessionTimeout})
	stateless := sdk.NewStreamableHTTPHandler(getServer, &sdk.StreamableHTTPOptions{
		Logger:    sdkLog,
		Stateless: true,
		// In 2026-07-28 the POST is the whole call: a client that drops it
		// has cancelled the call.
		PropagateRequestCancellation: true,
	})
	want := sha256.Sum256([]byte(opts.Token))
	mux := http.NewServeMux()
	mux.HandleFunc(Path, func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !allowedOrigin(origin, r.Host, opts.AllowRemote) {
			http.Error(w, "Forbidden: blockmate's MCP endpoint does not answer web pages (Origin "+quoteShort(origin)+"); connect from an MCP client instead.", http.StatusForbidden)
			return
		}
		got, ok := bearer(r.Header.Get("Authorization"))
		gotSum := sha256.Sum256([]byte(got))
		if subtle.ConstantTimeCompare(gotSum[:], want[:]) != 1 || !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="blockmate"`)
			http.Error(w, "Unauthorized: send the header \"Authorization: Bearer TOKEN\" with the token blockmate printed when it started (or the one given with --token / BLOCKMATE_MCP_TOKEN).", http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodDelete {
			// The client ends its session: the SDK waits for the session's
			// calls before it closes it, so stop them first.
			s.endSession(r.Header.Get("Mcp-Session-Id"))
		}
		if v := r.Header.Get("Mcp-Protocol-Version"); v >= statelessFrom {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
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
