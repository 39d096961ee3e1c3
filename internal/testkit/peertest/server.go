package peertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"testing"
)

// Server flavours.
const (
	// FlavorFlyingSquid is flying-squid 1.12.0: a superflat world, chat,
	// commands. It serves 1.21.1, 1.21.3 and 1.21.4 (see FlyingSquidServes).
	FlavorFlyingSquid = "flying-squid"
	// FlavorMinecraftProtocol is testdata/peers/mpserver.js, a small server
	// on minecraft-protocol 1.68.0 with prismarine-chunk's chunks. It serves
	// every release from 1.21 to 26.1.2: configuration as vanilla does it
	// (with an optional dialog and code of conduct), a small world that
	// commands can change, chunks loading and unloading as a player moves,
	// player entities, vanilla-shaped chat, join and leave lines, /kill with
	// a death message and respawn, and a console (Server.Command).
	FlavorMinecraftProtocol = "minecraft-protocol"
)

// ServerOptions configures StartServer. Zero values pick sensible defaults.
type ServerOptions struct {
	Version      string // game version, e.g. "1.21.4" (the default)
	MOTD         string // the status ping's message of the day
	ViewDistance int    // chunks; default 4
	Flavor       string // FlavorFlyingSquid (the default) or FlavorMinecraftProtocol

	// The options below exist in the minecraft-protocol flavour only;
	// StartServer fails a test that sets them for flying-squid.

	// GameMode is the players' game mode: survival (the default),
	// creative, adventure or spectator.
	GameMode string
	// CodeOfConduct is sent during configuration on 1.21.9 and later;
	// configuration then waits until the client accepts it, as vanilla
	// does. The server reports "code_of_conduct_accepted".
	CodeOfConduct string
	// ConfigDialog is the body text of a notice dialog sent during
	// configuration on 1.21.6 and later.
	ConfigDialog string
}

// mpserverConfig is mpserver.js's JSON configuration (its option names).
type mpserverConfig struct {
	Version       string `json:"version,omitempty"`
	MOTD          string `json:"motd,omitempty"`
	ViewDistance  int    `json:"viewDistance,omitempty"`
	GameMode      string `json:"gameMode,omitempty"`
	CodeOfConduct string `json:"codeOfConduct,omitempty"`
	ConfigDialog  string `json:"configDialog,omitempty"`
	StatusOnly    bool   `json:"statusOnly,omitempty"`
	Protocol      int    `json:"protocol,omitempty"`
	VersionName   string `json:"versionName,omitempty"`
}

// Server is a running test server on 127.0.0.1.
type Server struct {
	Host    string
	Port    int
	Version string
	Flavor  string

	proc *Peer
	log  *eventLog
	// survival marks the survival plugin's server, whose inventories
	// Query("inventory") reports.
	survival bool
}

// Addr is host:port.
func (s *Server) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// Command runs a server console command (without the slash), e.g.
// "kill alex" or "say hello". Both flavours have a console; its answers go
// to the server's log.
func (s *Server) Command(line string) error { return s.proc.send([]byte(line)) }

// Log returns what the server has printed so far.
func (s *Server) Log() string { return s.proc.log.String() }

// WaitEvent returns the first event named name the server reported (see
// Event) for which match (nil matches all) is true and that no earlier
// wait returned. flying-squid reports only "ready".
func (s *Server) WaitEvent(ctx context.Context, name string, match func(Event) bool) (Event, error) {
	return s.log.wait(ctx, name, match)
}

// Events returns every event named name the server has reported so far.
func (s *Server) Events(name string) []Event { return s.log.all(name) }

// ServerSlot is one stack of a player's inventory as a server holds it,
// by the inventory window's slot number (36–44 the hotbar …).
type ServerSlot struct {
	Slot  int    `json:"slot"`
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// ServerInventory is a player's inventory as a server holds it.
type ServerInventory struct {
	Slots []ServerSlot `json:"slots"`
	// Held is the selected hotbar slot, 0–8.
	Held int `json:"held"`
}

// Inventory asks a flying-squid server (the console command "inspect",
// testdata/peers/server.js) for a player's inventory as it holds it; nil
// when the player is not in the world.
func (s *Server) Inventory(ctx context.Context, username string) (*ServerInventory, error) {
	if s.Flavor != FlavorFlyingSquid || s.log == nil || s.survival {
		return nil, fmt.Errorf("peertest: only a plain flying-squid server (StartServer) reports inventories this way; the survival server answers Query(\"inventory\")")
	}
	if err := s.Command("inspect " + username); err != nil {
		return nil, err
	}
	ev, err := s.log.wait(ctx, "inventory", func(ev Event) bool { return ev.Username == username })
	if err != nil {
		return nil, err
	}
	var out *ServerInventory
	if err := json.Unmarshal([]byte(ev.Text), &out); err != nil {
		return nil, fmt.Errorf("peertest: the server reported an inventory %q: %v", ev.Text, err)
	}
	return out, nil
}

// PlayerPosition asks the server where it holds a player to be (the console
// command "where", testdata/peers/server.js and mpserver.js): the position
// its movement packets brought it to, as the server accepted them.
func (s *Server) PlayerPosition(ctx context.Context, username string) (x, y, z float64, err error) {
	if s.log == nil {
		return 0, 0, 0, fmt.Errorf("peertest: this server reports no positions")
	}
	if err := s.Command("where " + username); err != nil {
		return 0, 0, 0, err
	}
	// Each answer is taken once: one question, one answer.
	ev, err := s.log.wait(ctx, "position", func(ev Event) bool { return ev.Username == username })
	if err != nil {
		return 0, 0, 0, err
	}
	if ev.X == nil || ev.Y == nil || ev.Z == nil {
		return 0, 0, 0, fmt.Errorf("peertest: the server reported a position without coordinates")
	}
	return *ev.X, *ev.Y, *ev.Z, nil
}

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
	var cfg any
	script := "server.js"
	switch opts.Flavor {
	case "", FlavorFlyingSquid:
		opts.Flavor = FlavorFlyingSquid
		if opts.GameMode != "" || opts.CodeOfConduct != "" || opts.ConfigDialog != "" {
			t.Fatalf("peertest: flying-squid has no game mode, code of conduct or configuration dialog option; use Flavor: FlavorMinecraftProtocol")
		}
		cfg = mpserverConfig{Version: opts.Version, MOTD: opts.MOTD, ViewDistance: opts.ViewDistance}
	case FlavorMinecraftProtocol:
		script = "mpserver.js"
		cfg = mpserverConfig{
			Version: opts.Version, MOTD: opts.MOTD, ViewDistance: opts.ViewDistance,
			GameMode: opts.GameMode, CodeOfConduct: opts.CodeOfConduct, ConfigDialog: opts.ConfigDialog,
		}
	default:
		t.Fatalf("peertest: unknown server flavour %q (want %q or %q)", opts.Flavor, FlavorFlyingSquid, FlavorMinecraftProtocol)
	}
	return startServer(t, opts.Flavor+" "+opts.Version, script, cfg, opts.Version, opts.Flavor)
}

// StatusOnlyOptions configures StartStatusOnlyServer.
type StatusOnlyOptions struct {
	Protocol    int    // the protocol number the status ping announces; default 778
	VersionName string // the version name it announces; default "26.4"
	MOTD        string
}

// StartStatusOnlyServer starts a server that answers the status ping as a
// release nothing here can speak (by default 26.4, protocol 778) and refuses
// every login with vanilla's message for an outdated client
// (multiplayer.disconnect.outdated_client, "Incompatible client! Please use
// 26.4"). It is stopped in t.Cleanup.
func StartStatusOnlyServer(t testing.TB, opts StatusOnlyOptions) *Server {
	t.Helper()
	if opts.Protocol == 0 {
		opts.Protocol = 778
	}
	if opts.VersionName == "" {
		opts.VersionName = "26.4"
	}
	if opts.MOTD == "" {
		opts.MOTD = "blockmate test server"
	}
	cfg := mpserverConfig{StatusOnly: true, Protocol: opts.Protocol, VersionName: opts.VersionName, MOTD: opts.MOTD}
	return startServer(t, "status-only "+opts.VersionName, "mpserver.js", cfg, opts.VersionName, FlavorMinecraftProtocol)
}

func startServer(t testing.TB, name, script string, cfg any, version, flavor string) *Server {
	t.Helper()
	p := startNode(t, name, script, cfg)
	log := newEventLog(name)
	go func() {
		for ev := range p.events {
			if ev.Event == "error" {
				fmt.Fprintf(p.log, "peertest: %s reported error: %s\n", name, ev.Message)
			}
			log.add(ev, nil)
		}
		<-p.done
		log.end(fmt.Errorf("the server exited (%v)", p.err))
	}()
	ctx, cancel := context.WithTimeoutCause(context.Background(), startTimeout, errNotReady)
	defer cancel()
	ev, err := log.wait(ctx, "ready", nil)
	if err != nil {
		t.Fatalf("peertest: %s server did not start: %v", name, err)
	}
	return &Server{Host: "127.0.0.1", Port: ev.Port, Version: version, Flavor: flavor, proc: p, log: log}
}

// marshalLine encodes a command for a peer's stdin.
func marshalLine(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only fixed struct types are encoded
	}
	return b
}
