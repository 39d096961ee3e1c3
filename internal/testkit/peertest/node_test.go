package peertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestNodeInPrefersThePinnedNode(t *testing.T) {
	dir := t.TempDir()
	if got := nodeIn(dir); got != "node" {
		t.Errorf("without node_modules: %q, want node from PATH", got)
	}
	pinned := filepath.Join(dir, "node_modules", "node", "bin", "node")
	if runtime.GOOS == "windows" {
		pinned += ".exe"
	}
	if err := os.MkdirAll(filepath.Dir(pinned), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pinned, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := nodeIn(dir); got != pinned {
		t.Errorf("with the pinned node installed: %q, want %q", got, pinned)
	}
	if got := NodeIn(dir); got != pinned {
		t.Errorf("NodeIn: %q, want nodeIn's %q", got, pinned)
	}
}

// The peers run on the Node they declare: npm ci installs Node 22 from the
// "node" package, whatever node ran npm.
func TestPeersRunOnNode22(t *testing.T) {
	node := NodeBinary(t)
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", node, err)
	}
	if v := strings.TrimSpace(string(out)); !strings.HasPrefix(v, "v22.") {
		t.Errorf("the peers run on %s %s, want Node 22 (the node package pinned in testdata/peers/package.json)", node, v)
	}
}
