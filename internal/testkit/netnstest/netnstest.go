//go:build linux

// Package netnstest gives tests a private network namespace with a loopback
// interface that carries multicast, so LAN discovery can be tested for real
// without a datagram ever reaching a real interface.
//
// A namespace is created with `ip netns add`, its lo brought up with
// multicast on and a route for 224.0.0.0/4, and deleted in t.Cleanup. Code
// runs inside it in two ways: Do runs a function on an OS thread that has
// entered the namespace (sockets created there stay in the namespace for
// their whole life, whatever thread uses them later), and Command prefixes
// an argv with `ip netns exec NAME` for child processes.
//
// Any test that starts blockmate in a way that discovers LAN worlds (the
// console calls mc_discover_lan at start; the console's Watcher listens all
// the time) should run it under ns.Command, so that it joins the
// announcement group and sends mDNS queries on the namespace's lo only,
// never on the test machine's real interfaces.
package netnstest

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// NS is a network namespace a test created.
type NS struct {
	Name string
	path string
}

var counter atomic.Int64

// InCI reports whether the tests run in CI, where a namespace that cannot be
// created is a failure rather than a skip. It is peertest.InCI, the one
// reader of the CI variable.
func InCI() bool { return peertest.InCI() }

// New creates a namespace with lo up, multicast on and a multicast route.
// When namespaces cannot be created (not root, no iproute2), it fails the
// test in CI and skips it elsewhere, saying why either way.
func New(t testing.TB) *NS {
	t.Helper()
	refuse := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if InCI() {
			t.Fatalf("cannot create a network namespace for this test: %s (CI runs as root with iproute2 installed: apt-get install iproute2)", msg)
		}
		t.Skipf("skipping: cannot create a network namespace: %s (run as root with iproute2 to test LAN discovery for real)", msg)
	}
	if _, err := exec.LookPath("ip"); err != nil {
		refuse("the ip command (iproute2) is not installed")
	}
	name := fmt.Sprintf("bm-lan-%d-%d", os.Getpid(), counter.Add(1))
	if out, err := exec.Command("ip", "netns", "add", name).CombinedOutput(); err != nil {
		refuse("ip netns add %s: %v: %s", name, err, strings.TrimSpace(string(out)))
	}
	ns := &NS{Name: name, path: "/var/run/netns/" + name}
	t.Cleanup(func() {
		if out, err := exec.Command("ip", "netns", "del", name).CombinedOutput(); err != nil {
			t.Errorf("ip netns del %s: %v: %s", name, err, out)
		}
	})
	for _, args := range [][]string{
		{"link", "set", "lo", "up"},
		{"link", "set", "lo", "multicast", "on"},
		{"route", "add", "224.0.0.0/4", "dev", "lo", "src", "127.0.0.1"},
	} {
		full := append([]string{"-n", name}, args...)
		if out, err := exec.Command("ip", full...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v: %s", strings.Join(full, " "), err, out)
		}
	}
	return ns
}

// Do runs fn on an OS thread inside the namespace and waits for it. The
// thread is never handed back to the Go scheduler: the goroutine exits while
// still locked, so the runtime discards the thread rather than letting other
// goroutines run in the wrong namespace.
func (ns *NS) Do(fn func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// No UnlockOSThread: see above.
		fd, err := unix.Open(ns.path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			errc <- fmt.Errorf("open %s: %w", ns.path, err)
			return
		}
		defer unix.Close(fd)
		if err := unix.Setns(fd, unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("setns %s: %w", ns.Name, err)
			return
		}
		errc <- fn()
	}()
	return <-errc
}

// Command returns argv prefixed to run inside the namespace.
func (ns *NS) Command(argv ...string) []string {
	return append([]string{"ip", "netns", "exec", ns.Name}, argv...)
}

// IP runs `ip -n NAME args…` and fails the test if it fails.
func (ns *NS) IP(t testing.TB, args ...string) {
	t.Helper()
	full := append([]string{"-n", ns.Name}, args...)
	if out, err := exec.Command("ip", full...).CombinedOutput(); err != nil {
		t.Fatalf("ip %s: %v: %s", strings.Join(full, " "), err, out)
	}
}

// Link joins ns to other with a veth pair, ns's end named ifname with
// address addr and other's end otherIfname with otherAddr (CIDR, such as
// "10.201.0.1/24"), both up and multicast-capable. It is the test's own
// wire between two namespaces: nothing on it reaches a real interface.
// Deleting either namespace removes the pair.
func (ns *NS) Link(t testing.TB, ifname, addr string, other *NS, otherIfname, otherAddr string) {
	t.Helper()
	if out, err := exec.Command("ip", "link", "add", ifname, "netns", ns.Name, "type", "veth", "peer", "name", otherIfname, "netns", other.Name).CombinedOutput(); err != nil {
		t.Fatalf("ip link add %s (veth to %s in %s): %v: %s", ifname, otherIfname, other.Name, err, out)
	}
	for _, end := range []struct {
		ns           *NS
		ifname, addr string
	}{{ns, ifname, addr}, {other, otherIfname, otherAddr}} {
		end.ns.IP(t, "addr", "add", end.addr, "dev", end.ifname)
		end.ns.IP(t, "link", "set", end.ifname, "up", "multicast", "on")
	}
}

// ForwardTCP makes the root namespace's 127.0.0.1:port reachable at
// 127.0.0.1:port inside the namespace, so a peer a test started on the
// host's loopback (flying-squid) can be joined by a blockmate running in the
// namespace. The forwarder stops when the test ends.
func (ns *NS) ForwardTCP(t testing.TB, port int) { ns.ForwardTCPFrom(t, "127.0.0.1", port) }

// ForwardTCPFrom is ForwardTCP listening on ip (an address the namespace
// has, such as its end of a Link) instead of 127.0.0.1.
func (ns *NS) ForwardTCPFrom(t testing.TB, ip string, port int) {
	t.Helper()
	var ln net.Listener
	if err := ns.Do(func() (err error) {
		ln, err = net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port)))
		return err
	}); err != nil {
		t.Fatalf("netnstest: listen on %s:%d in %s: %v", ip, port, ns.Name, err)
	}
	target := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	var (
		mu    sync.Mutex
		conns = map[net.Conn]bool{}
		wg    sync.WaitGroup
	)
	track := func(c net.Conn) {
		mu.Lock()
		conns[c] = true
		mu.Unlock()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			// This goroutine's thread is in the test's own namespace.
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			track(in)
			track(out)
			pipe := func(dst, src net.Conn) {
				defer wg.Done()
				_, _ = io.Copy(dst, src)
				dst.Close()
				src.Close()
			}
			wg.Add(2)
			go pipe(out, in)
			go pipe(in, out)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
}
