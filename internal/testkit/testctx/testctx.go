// Package testctx gives a test the one context its waits should end with:
// the test binary's own deadline (go test -timeout), less a margin to
// report what the test was waiting for.
//
// Integration tests wait on conditions (a server's answer, an event, a
// tick), never on a guess in seconds: a budget such as "two minutes for
// this scene" holds on a quiet machine and fails on a loaded CI runner
// that is merely slow, which is a flaky test, not a finding. A condition
// that never comes still ends the test, at the deadline the whole run
// accepted, with the test's own message instead of the binary's panic.
package testctx

import (
	"context"
	"testing"
	"time"
)

// margin is the part of the time left kept back for the failure report
// and the cleanups (stopping servers and sidecars) after a wait gives up.
const (
	maxMargin = 30 * time.Second
	minMargin = time.Second
)

// New is a context that ends shortly before the test binary's deadline,
// or only when cancelled when the binary has none (go test -timeout 0).
func New(t testing.TB) (context.Context, context.CancelFunc) {
	t.Helper()
	deadline, ok := deadlineOf(t)
	if !ok {
		return context.WithCancel(context.Background())
	}
	return context.WithDeadline(context.Background(), beforeDeadline(deadline, time.Now()))
}

// beforeDeadline leaves a tenth of the time left, between minMargin and
// maxMargin, for the report.
func beforeDeadline(deadline, now time.Time) time.Time {
	margin := min(max(deadline.Sub(now)/10, minMargin), maxMargin)
	return deadline.Add(-margin)
}

// deadlineOf is t.Deadline for tests; benchmarks and fuzz targets have
// none of their own.
func deadlineOf(t testing.TB) (time.Time, bool) {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		return d.Deadline()
	}
	return time.Time{}, false
}

// Report is a context for what a test does after a New context ended: it
// ends at the binary's own deadline, so asking a peer for the state that
// explains the failure still has the margin New kept back.
func Report(t testing.TB) (context.Context, context.CancelFunc) {
	t.Helper()
	if deadline, ok := deadlineOf(t); ok {
		return context.WithDeadline(context.Background(), deadline)
	}
	return context.WithCancel(context.Background())
}
