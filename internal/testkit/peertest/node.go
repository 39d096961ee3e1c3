package peertest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// NodeBinary returns the Node.js the reference scripts run on (nodeIn's
// rule: the pinned Node of testdata/peers, else node from PATH). Like
// NodeModules, it fails the test in CI and skips it elsewhere when the
// peers are not installed.
func NodeBinary(t testing.TB) string {
	t.Helper()
	dir := NodeModules(t)
	for _, pkg := range []string{"prismarine-registry", "prismarine-block", "prismarine-chunk"} {
		if _, err := os.Stat(filepath.Join(dir, pkg, "package.json")); err != nil {
			missingPeers(t, "the test peers are not installed ("+pkg+" is missing from "+dir+"): run `"+InstallCommand+"`")
		}
	}
	return nodeIn(PeersDir(t))
}

// NodeIn is nodeIn for programs that are not tests (bench): the
// Node.js the peers in dir run on.
func NodeIn(dir string) string { return nodeIn(dir) }

func missingPeers(t testing.TB, why string) {
	t.Helper()
	if InCI() {
		t.Fatalf("peertest: %s", why)
	}
	t.Skipf("peertest: skipping, %s", why)
}

// RunNode runs a script of testdata/peers with the given arguments and
// returns what it wrote on stdout. The test fails, showing the script's
// stderr, when the script fails.
func RunNode(t testing.TB, script string, args ...string) []byte {
	t.Helper()
	node := NodeBinary(t)
	cmd := exec.Command(node, append([]string{script}, args...)...)
	cmd.Dir = PeersDir(t)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("peertest: %s %s failed: %v\n%s", node, script, err, stderr.String())
	}
	return stdout.Bytes()
}
