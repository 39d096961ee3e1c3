package bot

import (
	"log/slog"
	"testing"

	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/internal/testkit/testctx"
)

// The scripted server lives in internal/testkit/fakeserver, shared with the
// feature packages' tests.
type fakeServer = fakeserver.Server

func testLog() *slog.Logger { return fakeserver.Log() }

func jsonOf(v any) string { return fakeserver.JSON(v) }

// dialFake joins the scripted server on port as Theo, with every feature
// attached, and leaves when the test ends.
func dialFake(t *testing.T, port int, proto int32, rec *fakeserver.Recorder, opts Options) (*Session, error) {
	t.Helper()
	ctx, cancel := testctx.New(t)
	defer cancel()
	w, err := connect(ctx, testLog(), rec.Emit, "127.0.0.1", port, "Theo", proto, "test", opts)
	if err == nil {
		t.Cleanup(func() { w.cs.Leave() })
	}
	return w, err
}

// waitFor waits, up to 5 s, for cond, which a notification cannot tell.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	fakeserver.WaitFor(t, cond, what)
}
