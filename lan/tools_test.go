package lan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot/mcversion"
	"github.com/blockmate/blockmate/internal/testkit/statusserver"
	"github.com/blockmate/blockmate/protocol"
)

func callTool(t *testing.T, c *protocol.Catalog, tool string, args string) json.RawMessage {
	t.Helper()
	d := protocol.NewDispatcher(c, protocol.NewBus(nil), nil)
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(args), &m); err != nil {
		t.Fatal(err)
	}
	resp := d.Call(context.Background(), protocol.Request{ID: json.RawMessage(`"t1"`), Tool: tool, Args: m})
	if !resp.OK {
		t.Fatalf("%s %s failed: %s", tool, args, resp.Error)
	}
	return resp.Result
}

func TestPingServerTool(t *testing.T) {
	c := protocol.NewCatalog()
	RegisterTools(c, Options{})
	srv := statusserver.Start(t, statusserver.Behaviour{StatusJSON: `{"version":{"name":"1.21.4","protocol":769},"players":{"max":8,"online":2},"description":"§6Eduard - Survival"}`})
	raw := callTool(t, c, "mc_ping_server", `{"port":`+itoa(srv.Port())+`}`)
	if !strings.HasPrefix(string(raw), `{"reachable":true,"version":"1.21.4","protocol":769,"compatible":true,"motd":"Eduard - Survival","players_online":2,"players_max":8,"latency_ms":`) {
		t.Errorf("result = %s", raw)
	}
	var r PingResult
	_ = json.Unmarshal(raw, &r)
	if !strings.Contains(r.NextStep, `call mc_join with {"host": "127.0.0.1", "port": `+itoa(srv.Port())+`}`) {
		t.Errorf("next_step = %q", r.NextStep)
	}
}

func TestPingServerToolIncompatible(t *testing.T) {
	c := protocol.NewCatalog()
	RegisterTools(c, Options{})
	srv := statusserver.Start(t, statusserver.Behaviour{StatusJSON: `{"version":{"name":"26.4","protocol":778},"players":{"max":8,"online":0},"description":"x"}`})
	var r PingResult
	_ = json.Unmarshal(callTool(t, c, "mc_ping_server", `{"host":"127.0.0.1","port":`+itoa(srv.Port())+`}`), &r)
	if !r.Reachable || r.Compatible == nil || *r.Compatible {
		t.Fatalf("result = %+v", r)
	}
	if !strings.Contains(r.Reason, "cannot join Minecraft 26.4") || !strings.Contains(r.NextStep, "New installation") {
		t.Errorf("reason %q / next_step %q", r.Reason, r.NextStep)
	}
}

func TestPingServerToolUnreachable(t *testing.T) {
	c := protocol.NewCatalog()
	RegisterTools(c, Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	raw := callTool(t, c, "mc_ping_server", `{"port":`+itoa(port)+`}`)
	var r PingResult
	_ = json.Unmarshal(raw, &r)
	if !strings.HasPrefix(string(raw), `{"reachable":false,"reason":"nothing answers at`) {
		t.Errorf("result = %s", raw)
	}
	if !strings.Contains(r.NextStep, "read the port from the chat line") || !strings.Contains(r.NextStep, "mc_discover_lan") {
		t.Errorf("next_step = %q", r.NextStep)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestDiscoverResultSentences checks every next_step branch word for word.
// Only joinable worlds (answered, with a version the bot speaks) are
// choices; the rest are listed and counted in the sentence.
func TestDiscoverResultSentences(t *testing.T) {
	yes, no := true, false
	two, eight := 2, 8
	answered := func(w World, compatible bool, version string, protocol int) World {
		w.Version, w.Protocol, w.PlayersOnline, w.PlayersMax = version, protocol, &two, &eight
		if compatible {
			w.Compatible = &yes
		} else {
			w.Compatible = &no
		}
		return w
	}
	dead := func(w World) World {
		w.PingError = "nothing answers at " + w.Key() + " (connection refused): check the port"
		return w
	}
	local := answered(World{LANWorld: api.LANWorld{Host: "127.0.0.1", Port: 51234, MOTD: "Eduard", IsLocalMachine: true}}, true, "1.21.4", 769)
	local2 := answered(World{LANWorld: api.LANWorld{Host: "127.0.0.1", Port: 51235, MOTD: "Eduard 2", IsLocalMachine: true}}, true, "1.21.4", 769)
	localDead := dead(World{LANWorld: api.LANWorld{Host: "127.0.0.1", Port: 40999, MOTD: "Eduard old session", IsLocalMachine: true}})
	localDead2 := dead(World{LANWorld: api.LANWorld{Host: "127.0.0.1", Port: 40998, MOTD: "Eduard older", IsLocalMachine: true}})
	localOld := answered(World{LANWorld: api.LANWorld{Host: "127.0.0.1", Port: 51236, MOTD: "Eduard 1.20", IsLocalMachine: true}}, false, "1.20.4", 765)
	remote := answered(World{LANWorld: api.LANWorld{Host: "192.168.1.20", Port: 40000, MOTD: "Ana - World"}}, true, "1.21.4", 769)
	remote2 := answered(World{LANWorld: api.LANWorld{Host: "192.168.1.22", Port: 40002, MOTD: "Bo"}}, true, "1.21.1", 767)
	remoteDead := dead(World{LANWorld: api.LANWorld{Host: "192.168.1.23", Port: 40003, MOTD: "Gone"}})
	remoteDead2 := dead(World{LANWorld: api.LANWorld{Host: "192.168.1.24", Port: 40004, MOTD: "Gone too"}})
	old := answered(World{LANWorld: api.LANWorld{Host: "192.168.1.21", Port: 40001, MOTD: "Old"}}, false, "1.20.4", 765)
	old2 := answered(World{LANWorld: api.LANWorld{Host: "192.168.1.25", Port: 40005, MOTD: "Older"}}, false, "1.19.4", 762)
	// A world found but not pinged (no status either way) is a choice.
	unpinged := World{LANWorld: api.LANWorld{Host: "192.168.1.26", Port: 40006, MOTD: "Quiet"}}

	r := mcversion.Range()
	advice := func(version string, protocol int) string {
		return "Tell the player: " + mcversion.Advice(version, protocol)
	}
	const askAgain = ", then call mc_discover_lan again; or ask for the port the game shows in chat (\"Local game hosted on port …\") and call mc_ping_server with it."
	const others = " Other worlds on the network can be joined: ask the player whether they want one of those instead."
	for _, tc := range []struct {
		name   string
		d      Discovery
		reason string
		next   string
	}{
		{"nothing heard, listener down", Discovery{ListenErr: errors.New("no interface")}, "could not listen for LAN announcements: no interface",
			"Discovery cannot hear worlds from here, so ask the player for the port instead: after Esc → Open to LAN → Start LAN World the game writes \"Local game hosted on port …\" in chat. Then call mc_join with that port (host 127.0.0.1 when the game runs on this computer)."},
		{"nothing heard", Discovery{}, "no world announced itself on the local network within 1.7 s",
			"Ask the player to open their world to LAN (Esc → Open to LAN → Start LAN World), then call mc_discover_lan again. Or ask for the port the game shows in chat (\"Local game hosted on port …\") and call mc_join with it."},

		// The player's own world, joinable: the document's sentence.
		{"one local", Discovery{Worlds: []World{local}}, "",
			`Exactly one world with is_local_machine=true: call mc_join with its {port, host} immediately without asking ({"host": "127.0.0.1", "port": 51234}).`},
		{"one local, a remote one too", Discovery{Worlds: []World{local, remote}}, "",
			`Exactly one world with is_local_machine=true: call mc_join with its {port, host} immediately without asking ({"host": "127.0.0.1", "port": 51234}).`},
		// QA finding 2: a local world that refuses connections is no choice.
		{"one local joinable, one local dead", Discovery{Worlds: []World{local, localDead}}, "",
			`Exactly one world with is_local_machine=true can be joined: call mc_join with its {port, host} immediately without asking ({"host": "127.0.0.1", "port": 51234}). 1 world did not answer its status ping (see its ping_error): leave it out.`},
		{"one local joinable, one local old, remote dead", Discovery{Worlds: []World{local, localOld, remoteDead}}, "",
			`Exactly one world with is_local_machine=true can be joined: call mc_join with its {port, host} immediately without asking ({"host": "127.0.0.1", "port": 51234}). 1 world did not answer its status ping (see its ping_error) and 1 world runs a version the bot cannot join (compatible=false): leave them out.`},
		{"one local joinable, remote dead", Discovery{Worlds: []World{local, remoteDead, remoteDead2}}, "",
			`Exactly one world with is_local_machine=true: call mc_join with its {port, host} immediately without asking ({"host": "127.0.0.1", "port": 51234}). 2 worlds did not answer their status ping (see ping_error): leave them out.`},
		{"two local", Discovery{Worlds: []World{local, local2}}, "",
			`2 worlds are open on this computer: ask the player which one to join, naming each by its motd, then call mc_join with that world's {port, host} ({"host": "127.0.0.1", "port": 51234}, {"host": "127.0.0.1", "port": 51235}).`},
		{"two local joinable, one dead, two old", Discovery{Worlds: []World{local, localDead, local2, localOld, old}}, "",
			`2 worlds are open on this computer: ask the player which one to join, naming each by its motd, then call mc_join with that world's {port, host} ({"host": "127.0.0.1", "port": 51234}, {"host": "127.0.0.1", "port": 51235}). 1 world did not answer its status ping (see its ping_error) and 2 worlds run a version the bot cannot join (compatible=false): leave them out.`},

		// The player's own world cannot be joined: say so, not a stranger's.
		{"own world old", Discovery{Worlds: []World{localOld}}, "the world on this computer runs Minecraft 1.20.4, which the bot cannot join (it joins " + r + ")",
			advice("1.20.4", 765)},
		{"own world old, another joinable", Discovery{Worlds: []World{localOld, remote, remoteDead}}, "the world on this computer runs Minecraft 1.20.4, which the bot cannot join (it joins " + r + ")",
			advice("1.20.4", 765) + others + " 1 world did not answer its status ping (see its ping_error): leave it out."},
		{"own world old and own world dead", Discovery{Worlds: []World{localDead, localOld}}, "the world on this computer runs Minecraft 1.20.4, which the bot cannot join (it joins " + r + ")",
			advice("1.20.4", 765)},
		{"own world dead", Discovery{Worlds: []World{localDead}}, "the world on this computer did not answer its status ping (see ping_error)",
			"Ask the player whether their world is still open to LAN and whether a firewall blocks Java" + askAgain},
		{"two own worlds dead", Discovery{Worlds: []World{localDead, localDead2}}, "the 2 worlds on this computer did not answer their status ping (see ping_error)",
			"Ask the player whether their world is still open to LAN and whether a firewall blocks Java" + askAgain},
		{"own world dead, a remote one joinable", Discovery{Worlds: []World{localDead, remote, old}}, "the world on this computer did not answer its status ping (see ping_error)",
			"Ask the player whether their world is still open to LAN and whether a firewall blocks Java" + askAgain + others + " 1 world runs a version the bot cannot join (compatible=false): leave it out."},
		{"own world dead, remote ones dead or old", Discovery{Worlds: []World{localDead, remoteDead, old}}, "the world on this computer did not answer its status ping (see ping_error)",
			"Ask the player whether their world is still open to LAN and whether a firewall blocks Java" + askAgain},

		// Only other computers' worlds.
		{"one remote", Discovery{Worlds: []World{remote}}, "",
			`Exactly one world, on another computer on the network: call mc_join with its {port, host} ({"host": "192.168.1.20", "port": 40000}), and tell the player which world you are joining by its motd.`},
		{"one remote joinable, one dead, one old", Discovery{Worlds: []World{remoteDead, remote, old}}, "",
			`Exactly one world, on another computer on the network: call mc_join with its {port, host} ({"host": "192.168.1.20", "port": 40000}), and tell the player which world you are joining by its motd. 1 world did not answer its status ping (see its ping_error) and 1 world runs a version the bot cannot join (compatible=false): leave them out.`},
		{"two remote", Discovery{Worlds: []World{remote, unpinged}}, "",
			`2 worlds found on the network: ask the player which one to join, naming each by its motd, then call mc_join with that world's {port, host} ({"host": "192.168.1.20", "port": 40000}, {"host": "192.168.1.26", "port": 40006}).`},
		{"two remote joinable, two dead", Discovery{Worlds: []World{remote, remoteDead, remote2, remoteDead2}}, "",
			`2 worlds found on the network: ask the player which one to join, naming each by its motd, then call mc_join with that world's {port, host} ({"host": "192.168.1.20", "port": 40000}, {"host": "192.168.1.22", "port": 40002}). 2 worlds did not answer their status ping (see ping_error): leave them out.`},
		{"only old", Discovery{Worlds: []World{old}}, "the world runs Minecraft 1.20.4, which the bot cannot join (it joins " + r + ")",
			advice("1.20.4", 765)},
		{"old and dead", Discovery{Worlds: []World{remoteDead, old}}, "the only world that answered runs Minecraft 1.20.4, which the bot cannot join (it joins " + r + ")",
			advice("1.20.4", 765) + " 1 world did not answer its status ping (see its ping_error): leave it out."},
		{"two old", Discovery{Worlds: []World{old, old2}}, "the bot cannot join the version these worlds run (it joins " + r + ")",
			advice("1.20.4", 765)},
		{"only dead", Discovery{Worlds: []World{remoteDead}}, "the world found did not answer its status ping (see ping_error)",
			"Ask the player whether the world is still open to LAN and whether a firewall on the computer running it blocks Java" + askAgain},
		{"two dead", Discovery{Worlds: []World{remoteDead, remoteDead2}}, "none of the 2 worlds found answered its status ping (see ping_error)",
			"Ask the player whether the world is still open to LAN and whether a firewall on the computer running it blocks Java" + askAgain},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := discoverResult(tc.d, DefaultWindow)
			if res.Reason != tc.reason {
				t.Errorf("reason = %q\nwant     %q", res.Reason, tc.reason)
			}
			if res.NextStep != tc.next {
				t.Errorf("next_step = %q\nwant        %q", res.NextStep, tc.next)
			}
			// Every world is listed, the dead and the old included.
			if res.Found != len(tc.d.Worlds) || len(res.Worlds) != len(tc.d.Worlds) {
				t.Errorf("found %d, %d listed; want %d", res.Found, len(res.Worlds), len(tc.d.Worlds))
			}
		})
	}
}

func TestJoinable(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		w    World
		want bool
	}{
		{World{LANWorld: api.LANWorld{Compatible: &yes}}, true},
		{World{LANWorld: api.LANWorld{Compatible: &no}}, false},
		{World{}, true}, // not pinged: nothing says otherwise
		{World{LANWorld: api.LANWorld{PingError: "nothing answers"}}, false},
		{World{LANWorld: api.LANWorld{PingError: "x", Compatible: &yes}}, false},
	} {
		if got := tc.w.Joinable(); got != tc.want {
			t.Errorf("%+v.Joinable() = %v, want %v", tc.w, got, tc.want)
		}
	}
}

func TestCollectorIsBounded(t *testing.T) {
	c := newCollector()
	for port := 1; port <= 1000; port++ {
		c.add(Sighting{Host: "10.0.0.9", Port: port, Source: api.FromAnnouncement})
	}
	if n := len(c.list()); n != maxWorlds {
		t.Errorf("kept %d worlds, want at most %d", n, maxWorlds)
	}
	// Duplicates merge: an announcement replaces an mDNS answer's details.
	c = newCollector()
	c.add(Sighting{Host: "10.0.0.9", Port: 1, MOTD: "from mdns", Source: api.FromMDNS})
	c.add(Sighting{Host: "10.0.0.9", Port: 1, MOTD: "from the game", Source: api.FromAnnouncement})
	if l := c.list(); len(l) != 1 || l[0].MOTD != "from the game" || l[0].Source != api.FromAnnouncement {
		t.Errorf("merged = %+v", l)
	}
}

// startCall runs one request through d in the background and returns its
// response channel.
func startCall(d *protocol.Dispatcher, id, tool, args string) <-chan protocol.Response {
	var m map[string]json.RawMessage
	_ = json.Unmarshal([]byte(args), &m)
	done := make(chan protocol.Response, 1)
	run := d.Start(context.Background(), protocol.Request{ID: json.RawMessage(`"` + id + `"`), Tool: tool, Args: m})
	go func() { done <- run() }()
	return done
}

func waitResponse(t *testing.T, done <-chan protocol.Response, within time.Duration) protocol.Response {
	t.Helper()
	select {
	case resp := <-done:
		return resp
	case <-time.After(within):
		t.Fatalf("no response within %v", within)
		return protocol.Response{}
	}
}

// QA finding 1, for mc_ping_server: a ping that mc_stop (or shutdown)
// cancels answers as stopped, not as ok:true with reachable:false.
func TestPingServerToolStopped(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(d *protocol.Dispatcher) error
		want string
	}{
		{"mc_stop", func(d *protocol.Dispatcher) error {
			resp := d.Call(context.Background(), protocol.Request{ID: json.RawMessage(`"s1"`), Tool: "mc_stop"})
			if !resp.OK || string(resp.Result) != `{"stopped":true,"cancelled":["p1"]}` {
				return fmt.Errorf("mc_stop = %+v %s", resp, resp.Result)
			}
			return nil
		}, "mc_ping_server was stopped by mc_stop after "},
		{"shutdown", func(d *protocol.Dispatcher) error {
			d.Stop("", protocol.ErrShutdown)
			return nil
		}, "mc_ping_server was cancelled after "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := protocol.NewCatalog()
			d := protocol.NewDispatcher(c, protocol.NewBus(nil), nil)
			protocol.RegisterBuiltins(c, d)
			RegisterTools(c, Options{})
			// A server that takes the request and never answers: the ping
			// would wait its full 3 s.
			srv := statusserver.Start(t, statusserver.Behaviour{Silent: true})
			start := time.Now()
			done := startCall(d, "p1", "mc_ping_server", `{"port":`+itoa(srv.Port())+`}`)
			select {
			case <-srv.Handshakes:
			case <-time.After(5 * time.Second):
				t.Fatal("the ping never reached the server")
			}
			if err := tc.stop(d); err != nil {
				t.Fatal(err)
			}
			resp := waitResponse(t, done, 2*time.Second)
			if resp.OK || !strings.HasPrefix(resp.Error, tc.want) {
				t.Errorf("response = ok:%v result:%s error:%q; want an error starting %q", resp.OK, resp.Result, resp.Error, tc.want)
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("answered after %v; the stop should end it at once", took)
			}
		})
	}
}

// pingTool's own error wraps the context's error and its cause, so callers
// other than the dispatcher can tell a stop from a shutdown.
func TestPingToolReturnsTheCause(t *testing.T) {
	srv := statusserver.Start(t, statusserver.Behaviour{Silent: true})
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() { <-srv.Handshakes; cancel(protocol.ErrStopped) }()
	r, err := pingTool(ctx, "127.0.0.1", srv.Port())
	if !errors.Is(err, context.Canceled) || !errors.Is(err, protocol.ErrStopped) {
		t.Fatalf("pingTool = %+v, %v; want context.Canceled and ErrStopped", r, err)
	}
	// A ping that fails on its own is an outcome, not an error.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	r, err = pingTool(context.Background(), "127.0.0.1", port)
	if err != nil || r.Reachable || !strings.HasPrefix(r.Reason, "nothing answers at") {
		t.Fatalf("pingTool = %+v, %v", r, err)
	}
}
