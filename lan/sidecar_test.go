//go:build linux

package lan

import (
	"encoding/json"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/mdns"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot/ping"
	"github.com/blockmate/blockmate/internal/testkit/netnstest"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/sidecartest"
	"github.com/blockmate/blockmate/internal/testkit/statusserver"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// These tests run the real `blockmate sidecar` under `ip netns exec` in a
// namespace the test creates, so its listener joins the group on that
// namespace's lo only.

func startSidecarIn(t *testing.T, ns *netnstest.NS) *sidecartest.Sidecar {
	t.Helper()
	bin := sidecartest.Build(t)
	return sidecartest.StartCommand(t, ns.Command(bin, "sidecar", "--log-level", "debug"))
}

func discoverVia(t *testing.T, sc *sidecartest.Sidecar, args any) (DiscoverResult, string) {
	t.Helper()
	ctx, cancel := testctx.New(t)
	defer cancel()
	reply := sc.Call(ctx, "mc_discover_lan", args)
	if !reply.OK {
		t.Fatalf("mc_discover_lan failed (it never should): %s", reply.Raw)
	}
	var r DiscoverResult
	if err := reply.Decode(&r); err != nil {
		t.Fatalf("decode %s: %v", reply.Raw, err)
	}
	return r, string(reply.Result)
}

func TestSidecarDiscoversAnnouncedWorld(t *testing.T) {
	ns := netnstest.New(t)
	srv := statusserver.Serve(t, listenInNS(t, ns, 0), statusserver.Behaviour{StatusJSON: `{"version":{"name":"1.21.4","protocol":769},"players":{"max":8,"online":1},"description":{"text":"Eduard - Survival"}}`})
	startAnnouncer(t, ns, FormatAnnouncement("§6Eduard§r - Survival", strconv.Itoa(srv.Port())), "")
	sc := startSidecarIn(t, ns)
	r, raw := discoverVia(t, sc, map[string]any{})
	// The verdict and what to do lead; the list follows; every world's motd
	// is marked as someone else's text.
	if !strings.HasPrefix(raw, `{"found":1,"next_step":"Exactly one world`) ||
		!strings.Contains(raw, `"worlds":[{"host":"127.0.0.1","port":`+strconv.Itoa(srv.Port())+`,"motd":"Eduard - Survival","is_local_machine":true,"version":"1.21.4"`) ||
		!strings.HasSuffix(raw, `"source":"announcement","untrusted":true}]}`) {
		t.Errorf("result = %s", raw)
	}
	w := r.Worlds[0]
	if w.Compatible == nil || !*w.Compatible || w.PlayersOnline == nil || *w.PlayersOnline != 1 {
		t.Errorf("world = %+v", w)
	}
	want := `Exactly one world with is_local_machine=true: call mc_join with its {port, host} immediately without asking ({"host": "127.0.0.1", "port": ` + strconv.Itoa(srv.Port()) + `}).`
	if r.NextStep != want {
		t.Errorf("next_step = %q\nwant        %q", r.NextStep, want)
	}
}

func TestSidecarNothingAnnounced(t *testing.T) {
	ns := netnstest.New(t)
	sc := startSidecarIn(t, ns)
	r, raw := discoverVia(t, sc, map[string]any{"timeout_ms": 500})
	if !strings.HasPrefix(raw, `{"found":0,"reason":"no world announced itself on the local network within 0.5 s","next_step":`) || !strings.HasSuffix(raw, `,"worlds":[]}`) {
		t.Errorf("result = %s", raw)
	}
	for _, want := range []string{"Esc → Open to LAN → Start LAN World", "call mc_discover_lan again", "Local game hosted on port", "mc_join"} {
		if !strings.Contains(r.NextStep, want) {
			t.Errorf("next_step %q lacks %q", r.NextStep, want)
		}
	}
}

func TestSidecarListenerCannotStart(t *testing.T) {
	ns := netnstest.New(t)
	// Without multicast on lo, no interface can join the group: the
	// listener cannot start, and discovery says to ask for the port.
	ns.IP(t, "link", "set", "lo", "multicast", "off")
	sc := startSidecarIn(t, ns)
	r, raw := discoverVia(t, sc, map[string]any{"timeout_ms": 300})
	if r.Found != 0 || !strings.HasPrefix(r.Reason, "could not listen for LAN announcements: ") {
		t.Errorf("result = %s", raw)
	}
	if !strings.Contains(r.NextStep, "ask the player for the port") || !strings.Contains(r.NextStep, "mc_join") {
		t.Errorf("next_step = %q", r.NextStep)
	}
}

func TestSidecarSeveralWorldsAndOldVersion(t *testing.T) {
	ns := netnstest.New(t)
	a := statusserver.Serve(t, listenInNS(t, ns, 0), statusserver.Behaviour{StatusJSON: `{"version":{"name":"1.21.4","protocol":769},"players":{"max":8,"online":0},"description":"A"}`})
	b := statusserver.Serve(t, listenInNS(t, ns, 0), statusserver.Behaviour{StatusJSON: `{"version":{"name":"1.21.1","protocol":767},"players":{"max":8,"online":0},"description":"B"}`})
	old := statusserver.Serve(t, listenInNS(t, ns, 0), statusserver.Behaviour{StatusJSON: `{"version":{"name":"1.20.4","protocol":765},"players":{"max":8,"online":0},"description":"Old"}`})
	for _, s := range []struct {
		motd string
		port int
	}{{"World A", a.Port()}, {"World B", b.Port()}, {"Old world", old.Port()}} {
		startAnnouncer(t, ns, FormatAnnouncement(s.motd, strconv.Itoa(s.port)), "")
	}
	sc := startSidecarIn(t, ns)
	r, raw := discoverVia(t, sc, map[string]any{"timeout_ms": 2500})
	if r.Found != 3 {
		t.Fatalf("result = %s", raw)
	}
	if !strings.Contains(r.NextStep, "2 worlds are open on this computer: ask the player which one to join, naming each by its motd") ||
		!strings.HasSuffix(r.NextStep, " 1 world runs a version the bot cannot join (compatible=false): leave it out.") ||
		strings.Contains(r.NextStep, strconv.Itoa(old.Port())) {
		t.Errorf("next_step = %q", r.NextStep)
	}
	i := slices.IndexFunc(r.Worlds, func(w World) bool { return w.MOTD == "Old world" })
	if i < 0 || r.Worlds[i].Compatible == nil || *r.Worlds[i].Compatible {
		t.Errorf("the 1.20.4 world should be listed as not compatible: %s", raw)
	}
}

// QA finding 2: one world on this computer answers, another announced
// there refuses connections. The dead one is listed with its ping_error, but
// the joinable one is the only choice: join it now.
func TestSidecarDeadWorldIsNoChoice(t *testing.T) {
	ns := netnstest.New(t)
	srv := statusserver.Serve(t, listenInNS(t, ns, 0), statusserver.Behaviour{StatusJSON: `{"version":{"name":"1.21.4","protocol":769},"players":{"max":8,"online":1},"description":"Eduard - Survival"}`})
	dead := deadPort(t, ns)
	startAnnouncer(t, ns, FormatAnnouncement("Eduard - Survival", strconv.Itoa(srv.Port())), "")
	startAnnouncer(t, ns, FormatAnnouncement("Eduard - Yesterday", strconv.Itoa(dead)), "")
	sc := startSidecarIn(t, ns)
	r, raw := discoverVia(t, sc, map[string]any{"timeout_ms": 2500})
	if r.Found != 2 || r.Reason != "" {
		t.Fatalf("result = %s", raw)
	}
	i := slices.IndexFunc(r.Worlds, func(w World) bool { return w.Port == dead })
	if i < 0 || !strings.HasPrefix(r.Worlds[i].PingError, "nothing answers at 127.0.0.1:"+strconv.Itoa(dead)+" (connection refused)") {
		t.Errorf("the dead world should be listed with its ping_error: %s", raw)
	}
	want := `Exactly one world with is_local_machine=true can be joined: call mc_join with its {port, host} immediately without asking ({"host": "127.0.0.1", "port": ` + strconv.Itoa(srv.Port()) + `}). 1 world did not answer its status ping (see its ping_error): leave it out.`
	if r.NextStep != want {
		t.Errorf("next_step = %q\nwant        %q", r.NextStep, want)
	}
}

// QA finding 1 through the real sidecar: mc_discover_lan (5 s window) and
// mc_ping_server (a server that never answers) both running, mc_stop half a
// second later. Both answer at once, as stopped, and the next discovery
// runs normally.
func TestSidecarStopDiscoveryAndPing(t *testing.T) {
	ns := netnstest.New(t)
	dead := deadPort(t, ns)
	silent := statusserver.Serve(t, listenInNS(t, ns, 0), statusserver.Behaviour{Silent: true})
	sc := startSidecarIn(t, ns)
	ctx, cancel := testctx.New(t)
	defer cancel()
	if r := sc.Call(ctx, "mc_wait", map[string]any{"ms": 0}); !r.OK { // the sidecar is up
		t.Fatalf("mc_wait: %s", r.Raw)
	}
	start := time.Now()
	sc.Send(`{"id":"disc","tool":"mc_discover_lan","args":{"timeout_ms":5000}}`)
	sc.Send(`{"id":"ping","tool":"mc_ping_server","args":{"port":` + strconv.Itoa(silent.Port()) + `}}`)
	time.Sleep(100 * time.Millisecond)
	startAnnouncer(t, ns, FormatAnnouncement("Nobody home", strconv.Itoa(dead)), "")
	select {
	case <-silent.Handshakes:
	case <-time.After(5 * time.Second):
		t.Fatal("the ping never reached the server")
	}
	t.Logf("ping reached the server after %v", time.Since(start))
	time.Sleep(400 * time.Millisecond)
	stop := sc.Call(ctx, "mc_stop", nil)
	t.Logf("mc_stop answered after %v: %s", time.Since(start), stop.Raw)
	var stopped struct {
		Cancelled []string `json:"cancelled"`
	}
	if err := stop.Decode(&stopped); err != nil || len(stopped.Cancelled) != 2 {
		t.Errorf("mc_stop = %s", stop.Raw)
	}
	for _, c := range []struct{ id, tool string }{{"disc", "mc_discover_lan"}, {"ping", "mc_ping_server"}} {
		r := sc.WaitReply(ctx, c.id)
		if r.OK || !strings.HasPrefix(r.Error, c.tool+" was stopped by mc_stop after ") {
			t.Errorf("%s after mc_stop = %s", c.tool, r.Raw)
		}
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("the stopped calls answered after %v", took)
	}
	// Not sticky: the next discovery hears the world and says it is dead.
	r, raw := discoverVia(t, sc, map[string]any{"timeout_ms": 2000})
	if r.Found != 1 || r.Worlds[0].PingError == "" || !strings.Contains(r.Reason, "did not answer its status ping") {
		t.Errorf("discovery after the stop = %s", raw)
	}
}

func TestSidecarOnlyAnUnsupportedVersion(t *testing.T) {
	ns := netnstest.New(t)
	old := statusserver.Serve(t, listenInNS(t, ns, 0), statusserver.Behaviour{StatusJSON: `{"version":{"name":"26.4","protocol":778},"players":{"max":8,"online":0},"description":"New"}`})
	startAnnouncer(t, ns, FormatAnnouncement("New", strconv.Itoa(old.Port())), "")
	sc := startSidecarIn(t, ns)
	r, raw := discoverVia(t, sc, map[string]any{})
	if r.Found != 1 || !strings.Contains(r.Reason, "the world on this computer runs Minecraft 26.4, which the bot cannot join") {
		t.Errorf("result = %s", raw)
	}
	if !strings.Contains(r.NextStep, "New installation") {
		t.Errorf("next_step = %q", r.NextStep)
	}
}

func TestSidecarDiscoversMDNSWorld(t *testing.T) {
	ns := netnstest.New(t)
	srv := statusserver.Serve(t, listenInNS(t, ns, 0), statusserver.Behaviour{StatusJSON: `{"version":{"name":"1.21.3","protocol":768},"players":{"max":20,"online":3},"description":"Club server"}`})
	var server *mdns.Server
	if err := ns.Do(func() error {
		lo, err := net.InterfaceByName("lo")
		if err != nil {
			return err
		}
		zone, err := mdns.NewMDNSService("Club", MDNSService, "", "club.local.", srv.Port(), []net.IP{net.IPv4(127, 0, 0, 1)}, []string{"motd=Club server"})
		if err != nil {
			return err
		}
		server, err = mdns.NewServer(&mdns.Config{Zone: zone, Iface: lo, Logger: discardLogger()})
		return err
	}); err != nil {
		t.Fatalf("mDNS server in the namespace: %v", err)
	}
	t.Cleanup(func() { server.Shutdown() })
	sc := startSidecarIn(t, ns)
	r, raw := discoverVia(t, sc, map[string]any{"timeout_ms": 2000})
	if r.Found != 1 || r.Worlds[0].Source != api.FromMDNS || r.Worlds[0].Port != srv.Port() || r.Worlds[0].Version != "1.21.3" {
		t.Fatalf("result = %s", raw)
	}
}

// TestPingFlyingSquid pings a real server: flying-squid from the test peers.
func TestPingFlyingSquid(t *testing.T) {
	srv := peertest.StartServer(t, peertest.ServerOptions{Version: "1.21.4", MOTD: "§aLAN test world"})
	ctx, cancel := testctx.New(t)
	defer cancel()
	st, err := ping.Server(ctx, srv.Host, srv.Port)
	if err != nil {
		t.Fatalf("Ping flying-squid: %v", err)
	}
	if st.Version != "1.21.4" || st.Protocol != 769 || !st.Compatible || st.MOTD != "LAN test world" || st.PlayersMax <= 0 {
		t.Errorf("status = %+v", st)
	}
	if st.Latency <= 0 {
		t.Errorf("latency = %v", st.Latency)
	}
	t.Logf("flying-squid 1.21.4 status: %+v", st)

	sc := sidecartest.Start(t, sidecartest.Build(t))
	reply := sc.Call(ctx, "mc_ping_server", map[string]any{"host": srv.Host, "port": srv.Port})
	var r PingResult
	if err := reply.Decode(&r); err != nil {
		t.Fatal(err)
	}
	if !r.Reachable || r.Version != "1.21.4" || r.Compatible == nil || !*r.Compatible || !strings.Contains(r.NextStep, "call mc_join") {
		t.Errorf("mc_ping_server = %s", reply.Raw)
	}
}

// TestDiscoverThenJoin is the flow a player sees: the game (here flying-squid
// reached through a forwarder inside the namespace) is announced, the
// sidecar finds it, and mc_join with the host and port it returned joins.
func TestDiscoverThenJoin(t *testing.T) {
	bin := sidecartest.Build(t)
	if !hasTool(t, bin, "mc_join") {
		t.Fatal("the sidecar has no mc_join tool")
	}
	srv := peertest.StartServer(t, peertest.ServerOptions{Version: "1.21.4", MOTD: "Eduard - Survival"})
	ns := netnstest.New(t)
	ns.ForwardTCP(t, srv.Port)
	startAnnouncer(t, ns, FormatAnnouncement("Eduard - Survival", strconv.Itoa(srv.Port)), "")
	sc := startSidecarIn(t, ns)
	ctx, cancel := testctx.New(t)
	defer cancel()
	// A world that did not answer its status ping in discovery's window
	// (a node server on a loaded machine) gets next_step "call
	// mc_discover_lan again": do as it says until the world answers.
	r, raw := discoverVia(t, sc, map[string]any{})
	for r.Found == 1 && r.Worlds[0].PingError != "" && ctx.Err() == nil {
		r, raw = discoverVia(t, sc, map[string]any{})
	}
	if r.Found != 1 || !strings.Contains(r.NextStep, "call mc_join with its {port, host} immediately") {
		t.Fatalf("discovery = %s", raw)
	}
	w := r.Worlds[0]
	t.Logf("discovered: %s", raw)
	reply := sc.Call(ctx, "mc_join", map[string]any{"host": w.Host, "port": w.Port, "username": "Theo"})
	var joined struct {
		Joined  bool   `json:"joined"`
		Version string `json:"version"`
	}
	if err := reply.Decode(&joined); err != nil || !joined.Joined || joined.Version != "1.21.4" {
		t.Fatalf("mc_join with the discovered host and port: %s (%v)", reply.Raw, err)
	}
	t.Logf("joined: %s", reply.Raw)
	leave := sc.Call(ctx, "mc_leave", map[string]any{})
	if !leave.OK {
		t.Errorf("mc_leave: %s", leave.Raw)
	}
}

func hasTool(t *testing.T, bin, name string) bool {
	t.Helper()
	sc := sidecartest.Start(t, bin)
	ctx, cancel := testctx.New(t)
	defer cancel()
	reply := sc.Call(ctx, "mc_list_tools", map[string]any{})
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reply.Result, &list); err != nil {
		t.Fatalf("mc_list_tools: %s", reply.Raw)
	}
	return slices.ContainsFunc(list.Tools, func(tool struct {
		Name string `json:"name"`
	}) bool {
		return tool.Name == name
	})
}
