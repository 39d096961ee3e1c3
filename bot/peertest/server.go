package peertest

import (
	"context"
	"encoding/json"
	"net"
	"strconv"
	"testing"
)

// Server flavours.
const (
	// FlavorFlyingSquid is flying-squid 1.12.0: a real world, chat, commands.
	// It serves 1.21.1, 1.21.3 and 1.21.4.
	FlavorFlyingSquid = "flying-squid"
	// FlavorMinecraftProtocol is a small minecraft-protocol 1.68.0 server:
	// offline login, configuration, a spawn position, keep-alive and chat
	// relay; enough to join, chat and stay. Use it for game versions
	// flying-squid lacks (1.21 and 1.21.2).
	FlavorMinecraftProtocol = "minecraft-protocol"
)

// ServerOptions configures StartServer. Zero values pick sensible defaults.
type ServerOptions struct {
	Version      string // game version, e.g. "1.21.4" (the default)
	MOTD         string // the status ping's message of the day
	ViewDistance int    // chunks; default 4
	Flavor       string // FlavorFlyingSquid (the default) or FlavorMinecraftProtocol
}

// Server is a running test server on 127.0.0.1.
type Server struct {
	Host    string
	Port    int
	Version string
	Flavor  string

	proc *Peer
}

// Addr is host:port.
func (s *Server) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// Command runs a server console command (without the slash), e.g.
// "kill alex". Only the flying-squid flavour has a console.
func (s *Server) Command(line string) error { return s.proc.send([]byte(line)) }

// Log returns what the server has printed so far.
func (s *Server) Log() string { return s.proc.log.String() }

// StartServer starts a server and returns once it accepts logins. It is
// stopped in t.Cleanup.
func StartServer(t testing.TB, opts ServerOptions) *Server {
	t.Helper()
	if opts.Version == "" {
		opts.Version = "1.21.4"
	}
	if opts.ViewDistance <= 0 {
		opts.ViewDistance = 4
	}
	if opts.MOTD == "" {
		opts.MOTD = "blockmate test server"
	}
	script := "server.js"
	switch opts.Flavor {
	case "", FlavorFlyingSquid:
		opts.Flavor = FlavorFlyingSquid
	case FlavorMinecraftProtocol:
		script = "mpserver.js"
	default:
		t.Fatalf("peertest: unknown server flavour %q (want %q or %q)", opts.Flavor, FlavorFlyingSquid, FlavorMinecraftProtocol)
	}
	cfg := struct {
		Version      string `json:"version"`
		MOTD         string `json:"motd"`
		ViewDistance int    `json:"viewDistance"`
	}{opts.Version, opts.MOTD, opts.ViewDistance}
	p := startNode(t, opts.Flavor+" "+opts.Version, script, cfg)
	ctx, cancel := context.WithTimeoutCause(context.Background(), startTimeout, errNotReady)
	defer cancel()
	ev, err := p.waitFor(ctx, "ready", nil)
	if err != nil {
		t.Fatalf("peertest: %s server %s did not start: %v", opts.Flavor, opts.Version, err)
	}
	return &Server{Host: "127.0.0.1", Port: ev.Port, Version: opts.Version, Flavor: opts.Flavor, proc: p}
}

// marshalLine encodes a command for a peer's stdin.
func marshalLine(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only fixed struct types are encoded
	}
	return b
}
