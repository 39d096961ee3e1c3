//go:build linux

package lan

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot/ping"
	"github.com/blockmate/blockmate/internal/testkit/netnstest"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// These tests check blockmate's mDNS browse against a responder we did not
// write: Avahi, Debian's avahi-daemon, with a static _minecraft._tcp service
// file, as a server operator would publish one. Avahi runs without D-Bus in
// a namespace of its own, joined to the test's namespace by a veth pair; the
// sidecar runs in the test's namespace. Nothing reaches a real interface.

// avahiDaemon finds avahi-daemon; without it the test fails in CI and is
// skipped elsewhere, saying how to install it.
func avahiDaemon(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"avahi-daemon", "/usr/sbin/avahi-daemon"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if netnstest.InCI() {
		t.Fatal("avahi-daemon is not installed (CI installs it: apt-get install avahi-daemon)")
	}
	t.Skip("skipping: avahi-daemon is not installed (apt-get install avahi-daemon)")
	return ""
}

// avahiService is what an operator puts in /etc/avahi/services. The MOTD
// carries a formatting code, an ampersand (escaped as XML requires) and a
// right-to-left override: blockmate must show "Avahi & friends".
const avahiService = `<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<service-group>
  <name>Avahi World</name>
  <service>
    <type>_minecraft._tcp</type>
    <port>%d</port>
    <txt-record>motd=§bAvahi &amp; &#x202E;friends</txt-record>
  </service>
</service-group>
`

// startAvahi runs avahi-daemon inside ns, publishing the service file for
// port on ifname only, and returns once Avahi says the service is
// established. It runs in the foreground without D-Bus, privilege drop or
// chroot; /run and /etc/avahi/services are private to it (ip netns exec
// gives it a mount namespace of its own), so it neither needs nor disturbs
// a system avahi-daemon. It is stopped when the test ends.
func startAvahi(t *testing.T, ns *netnstest.NS, ifname string, port int) {
	t.Helper()
	daemon := avahiDaemon(t)
	dir := t.TempDir()
	services := filepath.Join(dir, "services")
	if err := os.Mkdir(services, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(services, "minecraft.service"), fmt.Appendf(nil, avahiService, port), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "avahi-daemon.conf")
	if err := os.WriteFile(conf, []byte(`[server]
host-name=bm-avahi-test
domain-name=local
use-ipv4=yes
use-ipv6=no
allow-interfaces=`+ifname+`
enable-dbus=no
ratelimit-interval-usec=1000000
ratelimit-burst=1000
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
`), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `set -e
mount -t tmpfs tmpfs /run
mkdir -p /run/avahi-daemon
mount --bind "$1" /etc/avahi/services
exec "$2" -f "$3" --no-drop-root --no-chroot --no-rlimits --no-proc-title`
	argv := ns.Command("sh", "-c", script, "sh", services, daemon, conf)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = cmd.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start avahi-daemon: %v", err)
	}
	var (
		mu  sync.Mutex
		log strings.Builder
	)
	established := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		var once sync.Once
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			mu.Lock()
			log.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if strings.Contains(sc.Text(), `Service "Avahi World"`) && strings.Contains(sc.Text(), "successfully established") {
				once.Do(func() { close(established) })
			}
		}
		_ = cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		if t.Failed() {
			mu.Lock()
			t.Logf("avahi-daemon's log:\n%s", log.String())
			mu.Unlock()
		}
	})
	select {
	case <-established:
	case <-exited:
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("avahi-daemon exited before publishing the service:\n%s", log.String())
	case <-time.After(30 * time.Second):
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("avahi-daemon did not publish the service within 30 s:\n%s", log.String())
	}
}

// avahiWorld sets up the test's namespace (where blockmate runs) and Avahi's,
// linked by a veth pair, with a real flying-squid reachable at the address
// and port Avahi advertises.
func avahiWorld(t *testing.T) (ns *netnstest.NS, host string, port int) {
	t.Helper()
	srv := peertest.StartServer(t, peertest.ServerOptions{Version: "1.21.4", MOTD: "flying-squid behind Avahi"})
	// flying-squid answers its first status request many times slower than
	// the next ones (about 250 ms against 10 on an idle machine; seconds on
	// a loaded one), so discovery's 1.5 s status ping could time out on
	// that, which is not what these tests are about: ask it once first,
	// with all the time it needs.
	warm, cancel := testctx.New(t)
	defer cancel()
	if _, err := ping.Server(warm, "127.0.0.1", srv.Port); err != nil {
		t.Fatalf("flying-squid did not answer its first status ping: %v", err)
	}
	ns = netnstest.New(t)
	avahiNS := netnstest.New(t)
	ns.Link(t, "bm0", "10.201.0.1/24", avahiNS, "bm1", "10.201.0.2/24")
	// Avahi advertises its host's address on the link, 10.201.0.2: the
	// server must answer there.
	avahiNS.ForwardTCPFrom(t, "10.201.0.2", srv.Port)
	startAvahi(t, avahiNS, "bm1", srv.Port)
	return ns, "10.201.0.2", srv.Port
}

// TestSidecarFindsAvahiWorld: the sidecar's mc_discover_lan finds the
// service Avahi publishes, status-pings the server at the address Avahi
// gives, offers it in next_step, and mc_join with what it offered joins.
func TestSidecarFindsAvahiWorld(t *testing.T) {
	ns, host, port := avahiWorld(t)
	sc := startSidecarIn(t, ns)
	r, raw := discoverVia(t, sc, map[string]any{"timeout_ms": 3000})
	t.Logf("discovered: %s", raw)
	if r.Found != 1 || r.Reason != "" || r.Note != "" {
		t.Fatalf("result = %s", raw)
	}
	w := r.Worlds[0]
	if w.Host != host || w.Port != port || w.Source != api.FromMDNS || w.IsLocalMachine || !w.Untrusted {
		t.Errorf("world = %+v; want %s:%d found over mDNS, on another computer, marked untrusted", w, host, port)
	}
	// The TXT record's MOTD, cleaned: no formatting code, no bidi override,
	// and the ampersand as it is, on the wire too.
	if w.MOTD != "Avahi & friends" || !strings.Contains(raw, `"motd":"Avahi & friends"`) {
		t.Errorf("motd = %q (raw %s)", w.MOTD, raw)
	}
	if w.PingError != "" || w.Version != "1.21.4" || w.Compatible == nil || !*w.Compatible {
		t.Errorf("the status ping of the advertised address: %+v", w)
	}
	want := `Exactly one world, on another computer on the network: call mc_join with its {port, host} ({"host": "` + host + `", "port": ` + strconv.Itoa(port) + `})`
	if !strings.HasPrefix(r.NextStep, want) {
		t.Errorf("next_step = %q\nwant it to start %q", r.NextStep, want)
	}

	ctx, cancel := testctx.New(t)
	defer cancel()
	reply := sc.Call(ctx, "mc_join", map[string]any{"host": w.Host, "port": w.Port, "username": "Theo"})
	var joined struct {
		Joined bool   `json:"joined"`
		Server string `json:"server"`
	}
	if err := reply.Decode(&joined); err != nil || !joined.Joined {
		t.Fatalf("mc_join with what discovery offered: %s (%v)", reply.Raw, err)
	}
	if leave := sc.Call(ctx, "mc_leave", map[string]any{}); !leave.OK {
		t.Errorf("mc_leave: %s", leave.Raw)
	}
}

// TestSidecarSaysMDNSCannotStart: without a multicast route in the
// namespace, hashicorp/mdns cannot bind its multicast socket ("setsockopt:
// no such device"). The announcement listener still runs; the result says
// that the mDNS browse could not start, rather than only that no world
// announced itself.
func TestSidecarSaysMDNSCannotStart(t *testing.T) {
	ns, _, _ := avahiWorld(t)
	ns.IP(t, "route", "del", "224.0.0.0/4", "dev", "lo")
	sc := startSidecarIn(t, ns)
	r, raw := discoverVia(t, sc, map[string]any{"timeout_ms": 1000})
	t.Logf("discovered: %s", raw)
	if r.Found != 0 || !strings.HasPrefix(r.Reason, "no world announced itself on the local network within 1 s; the mDNS browse could not start (no interface could send the mDNS query (") {
		t.Errorf("result = %s", raw)
	}
	if !strings.Contains(r.NextStep, "Local game hosted on port") {
		t.Errorf("next_step = %q; want the way to ask for the port", r.NextStep)
	}
}
