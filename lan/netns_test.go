//go:build linux

package lan

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/mdns"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot/ping"
	"github.com/blockmate/blockmate/internal/testkit/netnstest"
	"github.com/blockmate/blockmate/internal/testkit/statusserver"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
	"github.com/blockmate/blockmate/protocol"
)

// Every test in this file runs its network traffic inside a namespace it
// creates: announcers send on the namespace's lo, listeners join the group
// there. Nothing reaches a real interface.

// startAnnouncer sends the game's datagram from inside ns every period, the
// first one at once, until the test ends. src, when set, is the source
// address (it must exist in ns).
func startAnnouncer(t *testing.T, ns *netnstest.NS, payload []byte, src string) (stop func()) {
	t.Helper()
	var conn *net.UDPConn
	err := ns.Do(func() error {
		var laddr *net.UDPAddr
		if src != "" {
			laddr = &net.UDPAddr{IP: net.ParseIP(src)}
		}
		var err error
		conn, err = net.DialUDP("udp4", laddr, &net.UDPAddr{IP: net.ParseIP(GroupIPv4), Port: GroupPort})
		return err
	})
	if err != nil {
		t.Fatalf("announcer: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(AnnouncePeriod)
		defer tick.Stop()
		for {
			if _, err := conn.Write(payload); err != nil {
				t.Logf("announcer: %v", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait(); conn.Close() }) }
	t.Cleanup(stop)
	return stop
}

// listenInNS returns a TCP listener on 127.0.0.1 inside ns (port 0: any).
func listenInNS(t *testing.T, ns *netnstest.NS, port int) net.Listener {
	t.Helper()
	var ln net.Listener
	if err := ns.Do(func() (err error) {
		ln, err = net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		return err
	}); err != nil {
		t.Fatalf("listen in namespace: %v", err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln
}

func nsConfig(ns *netnstest.NS) ListenConfig {
	return ListenConfig{Enter: ns.Do, NoMDNS: true}
}

func firstSighting(t *testing.T, l *Listener, match func(Sighting) bool) Sighting {
	t.Helper()
	ctx, cancel := testctx.New(t)
	defer cancel()
	got := make(chan Sighting, 1)
	go func() {
		_ = l.Run(ctx, func(s Sighting) {
			if match(s) {
				select {
				case got <- s:
				default:
				}
				cancel()
			}
		})
	}()
	select {
	case s := <-got:
		return s
	case <-ctx.Done():
		select {
		case s := <-got:
			return s
		default:
		}
		t.Fatal("no announcement heard within 10 s")
		return Sighting{}
	}
}

func TestListenerHearsTheGamesAnnouncement(t *testing.T) {
	ns := netnstest.New(t)
	l, err := Listen(nsConfig(ns))
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	defer l.Close()
	if len(l.Joined) != 1 || l.Joined[0] != "lo" {
		t.Fatalf("joined the group on %v; the namespace has only lo", l.Joined)
	}
	startAnnouncer(t, ns, []byte("junk that is not an announcement"), "")
	startAnnouncer(t, ns, FormatAnnouncement("§6Eduard§r - Survival", "51234"), "")
	s := firstSighting(t, l, func(Sighting) bool { return true })
	want := Sighting{Host: "127.0.0.1", Port: 51234, MOTD: "Eduard - Survival", IsLocalMachine: true, Source: api.FromAnnouncement}
	s.From = nil
	if s.Host != want.Host || s.Port != want.Port || s.MOTD != want.MOTD || s.IsLocalMachine != want.IsLocalMachine || s.Source != want.Source {
		t.Errorf("sighting = %+v, want %+v", s, want)
	}
}

func TestListenerHostFromSenderOrAD(t *testing.T) {
	ns := netnstest.New(t)
	// A second address on the namespace's lo plays another computer: the
	// listener is told this machine has only 127.0.0.1.
	ns.IP(t, "addr", "add", "10.77.0.2/32", "dev", "lo")
	cfg := nsConfig(ns)
	cfg.LocalAddrs = func() ([]net.Addr, error) {
		return []net.Addr{&net.IPNet{IP: net.IPv4(127, 0, 0, 1), Mask: net.CIDRMask(8, 32)}}, nil
	}
	l, err := Listen(cfg)
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	defer l.Close()
	startAnnouncer(t, ns, FormatAnnouncement("Remote", "40000"), "10.77.0.2")
	s := firstSighting(t, l, func(s Sighting) bool { return s.MOTD == "Remote" })
	if s.Host != "10.77.0.2" || s.Port != 40000 || s.IsLocalMachine {
		t.Errorf("sighting = %+v, want host 10.77.0.2 (the sender), not local", s)
	}

	l2, err := Listen(cfg)
	if err != nil {
		t.Fatalf("a second listener cannot share the port: %v", err)
	}
	defer l2.Close()
	startAnnouncer(t, ns, FormatAnnouncement("Named", "10.1.2.3:41000"), "10.77.0.2")
	s = firstSighting(t, l2, func(s Sighting) bool { return s.MOTD == "Named" })
	if s.Host != "10.1.2.3" || s.Port != 41000 {
		t.Errorf("sighting = %+v, want the host:port the AD names", s)
	}
}

func TestDiscoverPingsWhatItHears(t *testing.T) {
	ns := netnstest.New(t)
	srv := statusserver.Serve(t, listenInNS(t, ns, 0), statusserver.Behaviour{StatusJSON: `{"version":{"name":"1.21.4","protocol":769},"players":{"max":8,"online":1},"description":"Eduard - Survival"}`})
	startAnnouncer(t, ns, FormatAnnouncement("Eduard - Survival", strconv.Itoa(srv.Port())), "")
	// The status ping dials from the namespace too (Enter).
	d := Discover(context.Background(), nsConfig(ns), 2*AnnouncePeriod)
	if d.ListenErr != nil {
		t.Fatalf("ListenErr: %v", d.ListenErr)
	}
	if len(d.Worlds) != 1 {
		t.Fatalf("worlds = %+v, want the one announced (duplicates merged)", d.Worlds)
	}
	w := d.Worlds[0]
	if w.Host != "127.0.0.1" || w.Port != srv.Port() || !w.IsLocalMachine || w.Version != "1.21.4" || w.Compatible == nil || !*w.Compatible || *w.PlayersOnline != 1 {
		t.Errorf("world = %+v", w)
	}
	r := discoverResult(d, DefaultWindow)
	if r.Found != 1 || r.Reason != "" {
		t.Errorf("result = %+v", r)
	}
}

func TestBrowseMDNSInNamespace(t *testing.T) {
	ns := netnstest.New(t)
	var server *mdns.Server
	if err := ns.Do(func() error {
		lo, err := net.InterfaceByName("lo")
		if err != nil {
			return err
		}
		zone, err := mdns.NewMDNSService("Eduard World", MDNSService, "", "eduard-pc.local.", 25599, []net.IP{net.IPv4(127, 0, 0, 1)}, []string{"motd=§aEduard - Creative"})
		if err != nil {
			return err
		}
		server, err = mdns.NewServer(&mdns.Config{Zone: zone, Iface: lo, Logger: discardLogger()})
		return err
	}); err != nil {
		t.Fatalf("mDNS server in the namespace: %v", err)
	}
	t.Cleanup(func() { server.Shutdown() })

	cfg := ListenConfig{Enter: ns.Do}
	var mu sync.Mutex
	var found []Sighting
	err := BrowseMDNS(context.Background(), cfg, 3*time.Second, func(s Sighting) {
		mu.Lock()
		found = append(found, s)
		mu.Unlock()
	})
	if err != nil {
		t.Fatalf("BrowseMDNS: %v", err)
	}
	if len(found) == 0 {
		t.Fatal("the mDNS browse found nothing")
	}
	s := found[0]
	if s.Host != "127.0.0.1" || s.Port != 25599 || s.MOTD != "Eduard - Creative" || s.Source != api.FromMDNS || !s.IsLocalMachine {
		t.Errorf("sighting = %+v", s)
	}
}

func TestListenFailsWithoutInterfaces(t *testing.T) {
	cfg := ListenConfig{Interfaces: func() ([]net.Interface, error) { return nil, nil }, NoMDNS: true}
	_, err := Listen(cfg)
	if err == nil {
		t.Fatal("Listen succeeded with no interface")
	}
	d := Discover(context.Background(), cfg, 200*time.Millisecond)
	r := discoverResult(d, 200*time.Millisecond)
	if r.Found != 0 || r.Reason == "" || r.NextStep == "" {
		t.Fatalf("result = %+v", r)
	}
}

func discardLogger() *log.Logger { return log.New(io.Discard, "", 0) }

// deadPort is a port in ns where nothing listens.
func deadPort(t *testing.T, ns *netnstest.NS) int {
	t.Helper()
	ln := listenInNS(t, ns, 0)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return port
}

// QA finding 1: mc_discover_lan stopped half a second into a 5 s window,
// having heard only a world where nothing listens, answered ok:true with
// that world and "call mc_join … immediately". A stopped discovery is an
// error that says it was stopped, and it answers at once.
func TestDiscoverToolStopped(t *testing.T) {
	ns := netnstest.New(t)
	dead := deadPort(t, ns)
	for _, tc := range []struct {
		name string
		stop func(d *protocol.Dispatcher) []string
		want string
	}{
		{"mc_stop", func(d *protocol.Dispatcher) []string {
			resp := d.Call(context.Background(), protocol.Request{ID: json.RawMessage(`"s1"`), Tool: "mc_stop"})
			var r struct{ Cancelled []string }
			_ = json.Unmarshal(resp.Result, &r)
			return r.Cancelled
		}, "mc_discover_lan was stopped by mc_stop after "},
		{"shutdown", func(d *protocol.Dispatcher) []string {
			return d.Stop("", protocol.ErrShutdown)
		}, "mc_discover_lan was cancelled after "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := protocol.NewCatalog()
			d := protocol.NewDispatcher(c, protocol.NewBus(nil), nil)
			protocol.RegisterBuiltins(c, d)
			RegisterTools(c, Options{Listen: nsConfig(ns)})
			start := time.Now()
			done := startCall(d, "d1", "mc_discover_lan", `{"timeout_ms":5000}`)
			// The listener is up within milliseconds; the announcer's first
			// datagram goes out at once, so the dead world is heard.
			time.Sleep(100 * time.Millisecond)
			startAnnouncer(t, ns, FormatAnnouncement("Nobody home", strconv.Itoa(dead)), "")
			time.Sleep(400 * time.Millisecond)
			if got := tc.stop(d); len(got) != 1 || got[0] != "d1" {
				t.Errorf("cancelled %v, want [d1]", got)
			}
			resp := waitResponse(t, done, 3*time.Second)
			if resp.OK || !strings.HasPrefix(resp.Error, tc.want) {
				t.Errorf("response = ok:%v result:%s error:%q; want an error starting %q", resp.OK, resp.Result, resp.Error, tc.want)
			}
			if took := time.Since(start); took > 2500*time.Millisecond {
				t.Errorf("answered after %v, not when stopped", took)
			}
		})
	}
}

// A browse whose context ends returns then, not when its window would have
// closed: mc_stop during mc_discover_lan answers at once.
func TestBrowseMDNSReturnsWhenStopped(t *testing.T) {
	ns := netnstest.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	err := BrowseMDNS(ctx, ListenConfig{Enter: ns.Do}, 5*time.Second, func(Sighting) {})
	if took := time.Since(start); took > 1500*time.Millisecond {
		t.Errorf("BrowseMDNS returned %v after it was cancelled at 200ms", took)
	}
	if err != nil {
		t.Errorf("a cancelled browse is not a failure: %v", err)
	}
}

// An address with no route from this computer is a host problem, told apart
// from a refused port: the namespace has no route to 10.0.0.0/8 at all.
func TestPingNoRouteIsAHostProblem(t *testing.T) {
	ns := netnstest.New(t)
	var err error
	_ = ns.Do(func() error {
		_, err = ping.Server(context.Background(), "10.9.9.9", 25565)
		return nil
	})
	var pe *ping.Error
	if !errors.As(err, &pe) || pe.Kind != ping.NoRoute {
		t.Fatalf("err = %v, want a ping.NoRoute PingError", err)
	}
	if !strings.HasPrefix(err.Error(), "10.9.9.9:25565 cannot be reached from this computer (") || !strings.Contains(pingAdvice(err), "on the same network") {
		t.Errorf("error %q, advice %q", err, pingAdvice(err))
	}
}
