package lan

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot/ping"
	"github.com/blockmate/blockmate/internal/testkit/statusserver"
	"github.com/blockmate/blockmate/protocol"
)

// mc_ping_server takes host:port in host, as mc_join does, and marks the
// MOTD it returns as someone else's text.
func TestPingServerToolHostCarriesPort(t *testing.T) {
	c := protocol.NewCatalog()
	RegisterTools(c, Options{})
	srv := statusserver.Start(t, statusserver.Behaviour{StatusJSON: `{"version":{"name":"1.21.4","protocol":769},"players":{"max":8,"online":2},"description":"Eduard & <friends>"}`})
	raw := callTool(t, c, "mc_ping_server", `{"host":"127.0.0.1:`+itoa(srv.Port())+`"}`)
	var r PingResult
	if err := json.Unmarshal(raw, &r); err != nil || !r.Reachable || r.MOTD != "Eduard & <friends>" || !r.Untrusted {
		t.Errorf("mc_ping_server with host:port = %s", raw)
	}
	if !strings.HasSuffix(string(raw), `,"untrusted":true}`) {
		t.Errorf("the untrusted mark should close the result: %s", raw)
	}
}

// Every refusal of a port, by the schema or by the host/port rule, ends
// with the protocol document's recovery sentence.
func TestPingServerToolPortRefusals(t *testing.T) {
	c := protocol.NewCatalog()
	RegisterTools(c, Options{})
	d := protocol.NewDispatcher(c, protocol.NewBus(nil), nil)
	for _, args := range []string{`{}`, `{"port":0}`, `{"port":70000}`, `{"port":"51234"}`, `{"host":"127.0.0.1:x"}`, `{"host":"127.0.0.1:1","port":2}`} {
		var m map[string]json.RawMessage
		_ = json.Unmarshal([]byte(args), &m)
		resp := d.Call(context.Background(), protocol.Request{ID: json.RawMessage(`1`), Tool: "mc_ping_server", Args: m})
		if resp.OK || !strings.HasSuffix(resp.Error, " — run mc_discover_lan first, or ask the user for the port from Minecraft chat") {
			t.Errorf("mc_ping_server %s: ok=%v error=%q", args, resp.OK, resp.Error)
		}
	}
}

// A host name that does not resolve is a host problem: the advice is about
// the address, not the port. The name is not a valid DNS name, so the
// resolver refuses it without sending a query anywhere.
func TestPingServerToolUnknownHost(t *testing.T) {
	c := protocol.NewCatalog()
	RegisterTools(c, Options{})
	var r PingResult
	raw := callTool(t, c, "mc_ping_server", `{"host":"eduards pc!","port":25565}`)
	_ = json.Unmarshal(raw, &r)
	if r.Reachable || !strings.HasPrefix(r.Reason, `no computer is called "eduards pc!"`) {
		t.Errorf("reason = %q", r.Reason)
	}
	if strings.Contains(r.NextStep, "port") || !strings.Contains(r.NextStep, "address of the computer") {
		t.Errorf("next_step = %q; want advice about the host, not the port", r.NextStep)
	}
}

// Each kind of failure gets its own advice; only a refusal and another
// program on the port talk about the port.
func TestPingAdviceFitsTheFailure(t *testing.T) {
	for kind, want := range map[ping.ErrorKind]string{
		ping.UnknownHost:  "address of the computer the world runs on",
		ping.NoRoute:      "on the same network",
		ping.TimedOut:     "firewall",
		ping.NotMinecraft: "Another program answers on that port",
		ping.Unreachable:  "read the port from the chat line",
	} {
		got := pingAdvice(&ping.Error{Addr: "x:1", Kind: kind, Err: errors.New("e")})
		if !strings.Contains(got, want) || !strings.HasSuffix(got, "call mc_discover_lan to find worlds on this network.") {
			t.Errorf("kind %d: advice %q lacks %q", kind, got, want)
		}
		if mentionsPort := strings.Contains(got, "port"); mentionsPort != (kind == ping.NotMinecraft || kind == ping.Unreachable) {
			t.Errorf("kind %d: advice %q talks about the port: %v", kind, got, mentionsPort)
		}
	}
}

func TestClampWindow(t *testing.T) {
	for _, tc := range []struct {
		ms     float64
		window time.Duration
		note   string
	}{
		{1700, 1700 * time.Millisecond, ""},
		{200, 200 * time.Millisecond, ""},
		{30000, 30 * time.Second, ""},
		{1500.6, 1501 * time.Millisecond, ""},
		{50, 200 * time.Millisecond, "timeout_ms 50 is below the 200 ms minimum, so discovery listened for 200 ms."},
		{-5, 200 * time.Millisecond, "timeout_ms -5 is below the 200 ms minimum, so discovery listened for 200 ms."},
		{1e9, 30 * time.Second, "timeout_ms 1000000000 is above the 30000 ms maximum, so discovery listened for 30000 ms."},
	} {
		w, note := clampWindow(tc.ms)
		if w != tc.window || note != tc.note {
			t.Errorf("clampWindow(%v) = %v %q, want %v %q", tc.ms, w, note, tc.window, tc.note)
		}
	}
}

// An out-of-range timeout_ms is no failure: discovery answers ok:true,
// listened for the clamped window, and its note says so.
func TestDiscoverToolClampsTimeout(t *testing.T) {
	c := protocol.NewCatalog()
	// No interface: nothing is joined or sent anywhere.
	RegisterTools(c, Options{Listen: ListenConfig{Interfaces: func() ([]net.Interface, error) { return nil, nil }}})
	var r DiscoverResult
	raw := callTool(t, c, "mc_discover_lan", `{"timeout_ms":5}`)
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	if r.Note != "timeout_ms 5 is below the 200 ms minimum, so discovery listened for 200 ms." {
		t.Errorf("note = %q (result %s)", r.Note, raw)
	}
	if !strings.HasPrefix(string(raw), `{"found":0,"reason":`) || !strings.HasSuffix(string(raw), `,"worlds":[]}`) {
		t.Errorf("the verdict and reason lead, the list closes: %s", raw)
	}
}

// When a way of finding worlds cannot start, the result says so: in the
// reason when nothing was found, in a note when the other way found worlds.
func TestDiscoverResultSaysWhatCouldNotStart(t *testing.T) {
	listenErr := errors.New("cannot open UDP port 4445")
	mdnsErr := errors.New("no interface could send the mDNS query (eth0: setsockopt: no such device)")
	world := World{LANWorld: api.LANWorld{Host: "127.0.0.1", Port: 1, IsLocalMachine: true}}
	for _, tc := range []struct {
		name         string
		d            Discovery
		reason, note string
	}{
		{"mDNS down, nothing heard", Discovery{MDNSErr: mdnsErr},
			"no world announced itself on the local network within 1.7 s; the mDNS browse could not start (" + mdnsErr.Error() + "), so only the game's own announcements were listened for", ""},
		{"both down", Discovery{ListenErr: listenErr, MDNSErr: mdnsErr},
			"could not listen for LAN announcements: cannot open UDP port 4445; and the mDNS browse could not start: " + mdnsErr.Error(), ""},
		{"mDNS turned off on purpose says nothing", Discovery{MDNSErr: ErrMDNSOff},
			"no world announced itself on the local network within 1.7 s", ""},
		{"mDNS down, a world announced", Discovery{MDNSErr: mdnsErr, Worlds: []World{world}},
			"", "The mDNS browse could not start (" + mdnsErr.Error() + "), so servers that advertise over mDNS may be missing from this list."},
		{"listener down, a world over mDNS", Discovery{ListenErr: listenErr, Worlds: []World{world}},
			"", "Could not listen for LAN announcements (cannot open UDP port 4445), so a world opened to LAN may be missing from this list; if the player's world is not here, ask for the port the game shows in chat."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := discoverResult(tc.d, DefaultWindow)
			if r.Reason != tc.reason || r.Note != tc.note {
				t.Errorf("reason = %q\nwant     %q\nnote = %q\nwant   %q", r.Reason, tc.reason, r.Note, tc.note)
			}
		})
	}
}

// A ping's outcome replaces the previous one in full: a world that answers
// again loses its old ping_error, and one that stops answering loses the
// version and counts of the last answer.
func TestPingReplacesThePreviousOutcome(t *testing.T) {
	srv := statusserver.Start(t, statusserver.Behaviour{StatusJSON: `{"version":{"name":"1.21.4","protocol":769},"players":{"max":8,"online":3},"description":"back"}`})
	stale := World{LANWorld: api.LANWorld{Host: "127.0.0.1", Port: srv.Port(), PingError: "nothing answers at 127.0.0.1 (connection refused)"}}
	got := PingAll(context.Background(), ListenConfig{}, []World{stale})[0]
	if got.PingError != "" || got.PlayersOnline == nil || *got.PlayersOnline != 3 {
		t.Errorf("a world that answers again = %+v; want its counts and no ping_error", got)
	}

	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	yes, n := true, 3
	answered := World{LANWorld: api.LANWorld{Host: "127.0.0.1", Port: dead, Version: "1.21.4", Protocol: 769, PlayersOnline: &n, PlayersMax: &n, Compatible: &yes}}
	got = PingAll(context.Background(), ListenConfig{}, []World{answered})[0]
	if got.PingError == "" || got.Version != "" || got.Protocol != 0 || got.PlayersOnline != nil || got.PlayersMax != nil || got.Compatible != nil {
		t.Errorf("a world that stopped answering = %+v; want its ping_error and nothing of the old answer", got)
	}
}

// World is mc_lan_world_found's payload type and WorldLost
// mc_lan_world_lost's: both match the catalog entries that document them,
// before a status ping (no status fields), after one that answered and
// after one that failed.
func TestLANEventPayloadsMatchTheCatalog(t *testing.T) {
	yes, n := true, 1
	fresh := newWorld(Sighting{Host: "127.0.0.1", Port: 1, MOTD: "m", IsLocalMachine: true, Source: api.FromAnnouncement})
	answered := fresh
	answered.Version, answered.Protocol, answered.PlayersOnline, answered.PlayersMax, answered.Compatible = "1.21.4", 769, &n, &n, &yes
	failed := fresh
	failed.PingError = "nothing answers"
	for _, w := range []World{fresh, answered, failed} {
		raw, _ := protocol.Marshal(w)
		if err := protocol.CheckEventPayload("mc_lan_world_found", raw); err != nil {
			t.Errorf("%v: %s", err, raw)
		}
		if !strings.HasSuffix(string(raw), `"untrusted":true}`) {
			t.Errorf("a world's motd is not marked untrusted: %s", raw)
		}
	}
	raw, _ := protocol.Marshal(WorldLost{Host: "h", Port: 1, MOTD: "m", Untrusted: true})
	if err := protocol.CheckEventPayload("mc_lan_world_lost", raw); err != nil {
		t.Errorf("%v: %s", err, raw)
	}
}
