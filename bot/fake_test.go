package bot

import (
	"log/slog"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/internal/fakeserver"
	"github.com/blockmate/blockmate/internal/testctx"
)

// The scripted server lives in bot/internal/fakeserver, shared with the
// feature packages' tests.
type fakeServer = fakeserver.Server

func testLog() *slog.Logger { return fakeserver.Log() }

func jsonOf(v any) string { return fakeserver.JSON(v) }

// dialFake joins the scripted server on port as Theo, with every feature
// attached, and leaves when the test ends.
func dialFake(t *testing.T, port int, proto int32, rec *fakeserver.Recorder, opts Options) (*world, error) {
	t.Helper()
	ctx, cancel := testctx.New(t)
	defer cancel()
	w, err := connect(ctx, testLog(), rec.Emit, "127.0.0.1", port, "Theo", proto, "test", opts)
	if err == nil {
		t.Cleanup(func() { w.s.Leave() })
	}
	return w, err
}

// waitFor waits, up to 5 s, for cond, which a notification cannot tell.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
