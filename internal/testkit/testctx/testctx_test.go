package testctx

import (
	"testing"
	"time"
)

func TestBeforeDeadline(t *testing.T) {
	now := time.Date(2026, 11, 30, 20, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		left, want time.Duration
	}{
		{45 * time.Minute, 45*time.Minute - maxMargin}, // a tenth is more than the most kept back
		{100 * time.Second, 90 * time.Second},          // a tenth
		{5 * time.Second, 4 * time.Second},             // at least minMargin
	} {
		if got := beforeDeadline(now.Add(c.left), now).Sub(now); got != c.want {
			t.Errorf("%v left: the context ends after %v, want %v", c.left, got, c.want)
		}
	}
}

func TestNewEndsBeforeTheBinary(t *testing.T) {
	ctx, cancel := New(t)
	defer cancel()
	binary, ok := t.Deadline()
	ours, has := ctx.Deadline()
	if ok != has {
		t.Fatalf("the binary has a deadline: %v; the context: %v", ok, has)
	}
	if ok && !ours.Before(binary) {
		t.Errorf("the context ends at %v, not before the binary's deadline %v", ours, binary)
	}
}
