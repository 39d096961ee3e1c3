package lan

import (
	"context"
	"net"
	"testing"
)

// reusePort is the listener's platform code (reuse_unix.go,
// reuse_windows.go): two sockets, as blockmate and the game (or two
// blockmates) open them, share one UDP port. The test binds loopback only
// and sends nothing; it runs on whichever platform's build the tests run.
func TestReusePortLetsTwoListenersShareThePort(t *testing.T) {
	lc := net.ListenConfig{Control: reusePort}
	first, err := lc.ListenPacket(context.Background(), "udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("first socket: %v", err)
	}
	defer first.Close()
	addr := first.LocalAddr().String()
	second, err := lc.ListenPacket(context.Background(), "udp4", addr)
	if err != nil {
		t.Fatalf("a second socket cannot share %s: %v", addr, err)
	}
	second.Close()

	// Without the option the port is taken: the test can tell.
	plain, err := net.ListenPacket("udp4", addr)
	if err == nil {
		plain.Close()
		t.Fatalf("a socket without reusePort could bind %s too; the test proves nothing here", addr)
	}
}
