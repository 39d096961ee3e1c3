//go:build unix

package peertest

import (
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// TestPeerExitsWhenStdinCloses checks the guard against leaked peers: a
// server whose parent goes away (its stdin closes) exits by itself, and Stop
// leaves nothing of its process group behind.
func TestPeerExitsWhenStdinCloses(t *testing.T) {
	NodeModules(t)
	p, err := Launch(PeersDir(t), "server", "server.js", map[string]any{"version": "1.21.4"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	ctx, cancel := testctx.New(t)
	defer cancel()
	if _, err := p.Wait(ctx, "ready"); err != nil {
		t.Fatalf("%v\n%s", err, p.Log())
	}
	p.writeMu.Lock()
	p.stdin.Close()
	p.writeMu.Unlock()
	select {
	case <-p.Done():
	case <-time.After(time.Minute):
		t.Fatalf("the server did not exit after its stdin closed\n%s", p.Log())
	}
	p.Stop()
	if err := syscall.Kill(-p.Pid(), 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process group %d still exists after Stop (kill 0: %v)", p.Pid(), err)
	}
	if err := p.Send(map[string]string{"cmd": "quit"}); err == nil {
		t.Errorf("Send to a stopped peer succeeded, want an error")
	}
}
