package tools

import (
	"log/slog"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// The scripted server lives in internal/testkit/fakeserver, shared with the
// client's and the feature packages' tests.
type fakeServer = fakeserver.Server

func testLog() *slog.Logger { return fakeserver.Log() }

func jsonOf(v any) string { return fakeserver.JSON(v) }

// waitFor waits, up to 5 s, for cond, which a notification cannot tell.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	fakeserver.WaitFor(t, cond, what)
}
