package places

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/geom"
)

// TestPlacesSurviveANewStore: what one store remembers, a new store on the
// same directory (blockmate restarted) reads back, per world; forgetting
// removes it; the file is written whole (no temporary file left behind).
func TestPlacesSurviveANewStore(t *testing.T) {
	dir := t.TempDir()
	home := Place{Name: "home", Position: geom.Vec3{X: 10, Y: 64, Z: -3}, Dimension: "minecraft:overworld"}
	world := WorldKey("127.0.0.1", "Eduard - Survival")
	if _, err := NewStore(dir).Remember(world, home); err != nil {
		t.Fatal(err)
	}
	if _, err := NewStore(dir).Remember(WorldKey("127.0.0.1", "Another"), Place{Name: "mine"}); err != nil {
		t.Fatal(err)
	}
	got, ok, err := NewStore(dir).Get(world, "HOME")
	if err != nil || !ok || got != home {
		t.Fatalf("after a restart: %+v %v %v", got, ok, err)
	}
	if list, _ := NewStore(dir).List(world); len(list) != 1 {
		t.Errorf("the world's list %+v: another world's place leaked in", list)
	}
	if replaced, err := NewStore(dir).Remember(world, Place{Name: "Home", Position: geom.Vec3{X: 1}}); err != nil || !replaced {
		t.Errorf("remembering home again: replaced=%v %v", replaced, err)
	}
	if ok, err := NewStore(dir).Forget(world, "home"); !ok || err != nil {
		t.Errorf("forget: %v %v", ok, err)
	}
	if _, ok, _ := NewStore(dir).Get(world, "home"); ok {
		t.Error("home is still there after forgetting it")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != FileName {
		t.Errorf("the directory holds %v, want only %s", entries, FileName)
	}
}

// TestACorruptFileIsKeptAside: a file that is not the places file's JSON
// is refused with a sentence naming where it was kept, renamed aside with
// its bytes intact, and never written over; the next write starts a new
// file.
func TestACorruptFileIsKeptAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	junk := []byte(`{"version":1,"worlds":{"x": [`)
	if err := os.WriteFile(path, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewStore(dir)
	s.now = func() time.Time { return time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC) }
	_, err := s.Remember("w", Place{Name: "home"})
	var ce *CorruptError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "kept aside as") || !strings.HasSuffix(ce.KeptAs, ".corrupt-20261202T050000Z") {
		t.Fatalf("a corrupt file: %v", err)
	}
	if kept, err := os.ReadFile(ce.KeptAs); err != nil || string(kept) != string(junk) {
		t.Errorf("the file kept aside holds %q (%v), want the corrupt bytes", kept, err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the corrupt file was written over (stat: %v)", err)
	}
	if _, err := s.Remember("w", Place{Name: "home"}); err != nil {
		t.Fatalf("the next write: %v", err)
	}
	if list, err := s.List("w"); err != nil || len(list) != 1 {
		t.Errorf("after a new start: %+v %v", list, err)
	}
}

// TestNamesAreCleanedLikeChat: control characters, bidi overrides and
// escapes are removed as chat's are; empty and overlong names are refused
// with a sentence.
func TestNamesAreCleanedLikeChat(t *testing.T) {
	if n, err := CleanName("  ho\u202eme\x1b[31m "); err != nil || n != "home" {
		t.Errorf("CleanName = %q %v, want home", n, err)
	}
	if _, err := CleanName("\x00\u200b"); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("an empty name: %v", err)
	}
	if _, err := CleanName(strings.Repeat("a", MaxName+1)); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("an overlong name: %v", err)
	}
}
