//go:build !linux

package netnstest

import (
	"errors"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// NS is a network namespace a test created; on this system there are none.
type NS struct {
	Name string
}

// InCI reports whether the tests run in CI; it is peertest.InCI, the one
// reader of the CI variable.
func InCI() bool { return peertest.InCI() }

// New skips the test (fails it in CI): network namespaces exist only on Linux.
func New(t testing.TB) *NS {
	t.Helper()
	if InCI() {
		t.Fatal("cannot create a network namespace for this test: network namespaces exist only on Linux")
	}
	t.Skip("skipping: network namespaces exist only on Linux")
	return nil
}

// Do cannot enter a namespace here.
func (ns *NS) Do(fn func() error) error {
	return errors.New("network namespaces exist only on Linux")
}

// Command returns argv unchanged.
func (ns *NS) Command(argv ...string) []string { return argv }

// IP fails the test.
func (ns *NS) IP(t testing.TB, args ...string) { t.Fatal("network namespaces exist only on Linux") }

// ForwardTCP fails the test.
func (ns *NS) ForwardTCP(t testing.TB, port int) { t.Fatal("network namespaces exist only on Linux") }

// ForwardTCPFrom fails the test.
func (ns *NS) ForwardTCPFrom(t testing.TB, ip string, port int) {
	t.Fatal("network namespaces exist only on Linux")
}

// Link fails the test.
func (ns *NS) Link(t testing.TB, ifname, addr string, other *NS, otherIfname, otherAddr string) {
	t.Fatal("network namespaces exist only on Linux")
}
