package lan

import (
	"context"
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcversion"
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
	srv := startStatusServer(t, serverBehaviour{statusJSON: `{"version":{"name":"1.21.4","protocol":769},"players":{"max":8,"online":2},"description":"§6Eduard - Survival"}`})
	raw := callTool(t, c, "mc_ping_server", `{"port":`+itoa(srv.port())+`}`)
	if !strings.HasPrefix(string(raw), `{"reachable":true,"version":"1.21.4","protocol":769,"compatible":true,"motd":"Eduard - Survival","players_online":2,"players_max":8,"latency_ms":`) {
		t.Errorf("result = %s", raw)
	}
	var r PingResult
	_ = json.Unmarshal(raw, &r)
	if !strings.Contains(r.NextStep, `call mc_join with {"host": "127.0.0.1", "port": `+itoa(srv.port())+`}`) {
		t.Errorf("next_step = %q", r.NextStep)
	}
}

func TestPingServerToolIncompatible(t *testing.T) {
	c := protocol.NewCatalog()
	RegisterTools(c, Options{})
	srv := startStatusServer(t, serverBehaviour{statusJSON: `{"version":{"name":"1.21.11","protocol":774},"players":{"max":8,"online":0},"description":"x"}`})
	var r PingResult
	_ = json.Unmarshal(callTool(t, c, "mc_ping_server", `{"host":"127.0.0.1","port":`+itoa(srv.port())+`}`), &r)
	if !r.Reachable || r.Compatible == nil || *r.Compatible {
		t.Fatalf("result = %+v", r)
	}
	if !strings.Contains(r.Reason, "cannot join Minecraft 1.21.11") || !strings.Contains(r.NextStep, "Installations → New installation") {
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

func TestDiscoverResultSentences(t *testing.T) {
	yes, no := true, false
	remote := World{Host: "192.168.1.20", Port: 40000, MOTD: "Ana - World", Compatible: &yes}
	local := World{Host: "127.0.0.1", Port: 51234, MOTD: "Eduard", IsLocalMachine: true, PingError: "nothing answers"}
	old := World{Host: "192.168.1.21", Port: 40001, MOTD: "Old", Version: "1.20.4", Protocol: 765, Compatible: &no}
	localOld := old
	localOld.IsLocalMachine, localOld.Host = true, "127.0.0.1"
	for _, tc := range []struct {
		name   string
		d      Discovery
		reason string
		next   string
	}{
		{"one remote", Discovery{Worlds: []World{remote}}, "", `Exactly one world, on another computer on the network: call mc_join with its {port, host} ({"host": "192.168.1.20", "port": 40000}), and tell the player which world you are joining by its motd.`},
		{"local, ping failed", Discovery{Worlds: []World{local, old}}, "", `Exactly one world with is_local_machine=true: call mc_join with its {port, host} immediately without asking ({"host": "127.0.0.1", "port": 51234}). Its status ping failed (see ping_error), so the join may fail too; if it does, ask the player whether the world is still open to LAN and whether a firewall blocks Java.`},
		{"two remote", Discovery{Worlds: []World{remote, {Host: "192.168.1.22", Port: 1}}}, "", "2 worlds found on the network: ask the player which one to join, naming each by its motd, then call mc_join with that world's {port, host}."},
		{"only old", Discovery{Worlds: []World{old}}, "the world runs Minecraft 1.20.4, which the bot cannot join (it joins " + mcversion.Range() + ")", ""},
		{"own world old, another joinable", Discovery{Worlds: []World{localOld, remote}}, "the world on this computer runs Minecraft 1.20.4, which the bot cannot join (it joins " + mcversion.Range() + ")", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := discoverResult(tc.d, DefaultWindow)
			if r.Reason != tc.reason {
				t.Errorf("reason = %q, want %q", r.Reason, tc.reason)
			}
			if tc.next != "" && r.NextStep != tc.next {
				t.Errorf("next_step = %q\nwant        %q", r.NextStep, tc.next)
			}
			if r.Found != len(tc.d.Worlds) || r.NextStep == "" {
				t.Errorf("result = %+v", r)
			}
		})
	}
}

func TestCollectorIsBounded(t *testing.T) {
	c := newCollector()
	for port := 1; port <= 1000; port++ {
		c.add(Sighting{Host: "10.0.0.9", Port: port, Source: FromAnnouncement})
	}
	if n := len(c.list()); n != maxWorlds {
		t.Errorf("kept %d worlds, want at most %d", n, maxWorlds)
	}
	// Duplicates merge: an announcement replaces an mDNS answer's details.
	c = newCollector()
	c.add(Sighting{Host: "10.0.0.9", Port: 1, MOTD: "from mdns", Source: FromMDNS})
	c.add(Sighting{Host: "10.0.0.9", Port: 1, MOTD: "from the game", Source: FromAnnouncement})
	if l := c.list(); len(l) != 1 || l[0].MOTD != "from the game" || l[0].Source != FromAnnouncement {
		t.Errorf("merged = %+v", l)
	}
}
