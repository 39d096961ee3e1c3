package journal_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/build"
	"github.com/blockmate/blockmate/bot/build/journal"
)

func writes(n int) []build.Write {
	var out []build.Write
	for i := range n {
		out = append(out, build.Write{Pos: build.Pos{X: i, Y: 64, Z: -i}, Before: "air", After: "oak_planks"})
	}
	return out
}

// applyPart begins an apply of plan and journals its first n writes and
// a skip, without ending it.
func applyPart(t *testing.T, j *journal.Journal, op, key string, plan []build.Write, n int) {
	t.Helper()
	if err := j.Begin(op, "plan-1", "abc", key, "26.1", "survival", plan); err != nil {
		t.Fatal(err)
	}
	for _, w := range plan[:n] {
		if err := j.Wrote(op, w); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Skipped(op, build.Conflict{Pos: build.Pos{X: 9, Y: 9, Z: 9}, Expected: "air", Found: "stone"}); err != nil {
		t.Fatal(err)
	}
}

func TestJournalRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "builds.journal")
	j, log, err := journal.Open(path)
	if err != nil || len(log.Operations) != 0 || log.Damage != nil {
		t.Fatalf("%v %+v", err, log)
	}
	plan := writes(5)
	applyPart(t, j, "op-1", "key-1", plan, 5)
	if err := j.End("op-1", journal.StatusApplied); err != nil {
		t.Fatal(err)
	}
	applyPart(t, j, "op-2", "key-2", plan, 2) // the process dies here
	j.Close()

	j, log, err = journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if len(log.Operations) != 2 || log.Damage != nil {
		t.Fatalf("%d operations, damage %+v", len(log.Operations), log.Damage)
	}
	done, cut := log.Find("op-1"), log.Find("op-2")
	if done.Unfinished() || done.End.Status != journal.StatusApplied || done.End.Placed != 5 || done.End.Skipped != 1 || len(done.Written) != 5 {
		t.Errorf("op-1: %+v", done)
	}
	if len(done.Begin.Plan) != 5 || done.Begin.Plan[3] != plan[3] || done.Begin.Key != "key-1" || done.Begin.PlanHash != "abc" {
		t.Errorf("op-1 begin: %+v", done.Begin)
	}
	if !cut.Unfinished() || len(cut.Written) != 2 || cut.Written[1] != plan[1] || len(cut.Skipped) != 1 || cut.Skipped[0].Found != "stone" {
		t.Errorf("op-2: %+v", cut)
	}
	if u := log.Unfinished(); len(u) != 1 || u[0] != cut {
		t.Errorf("unfinished %v", u)
	}
	if log.ByKey("key-2") != cut || log.ByKey("nope") != nil {
		t.Error("ByKey")
	}
	for _, c := range []struct {
		err  error
		says string
	}{
		{j.Begin("op-1", "p", "h", "k", "26.1", "survival", nil), "already in the journal"},
		{j.Begin("op-3", "p", "h", "key-1", "26.1", "survival", nil), "already began an apply"},
		{j.Wrote("op-9", plan[0]), "has not begun"},
		{j.End("op-1", journal.StatusApplied), "already ended"},
		{j.End("op-2", "done"), "not applied, cancelled or failed"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.says) {
			t.Errorf("%v, want it to say %q", c.err, c.says)
		}
	}
}

// TestCrashAtEveryByte cuts the journal at every byte of its last
// records, as a crash mid-append would, and opens it: the cut record is
// dropped and reported as a torn tail, everything before it is read, the
// file is truncated to the last whole record, and the journal takes new
// records after it.
func TestCrashAtEveryByte(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "j")
	j, _, _ := journal.Open(path)
	plan := writes(4)
	applyPart(t, j, "op-1", "k", plan, 4)
	j.Close()
	full, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(full, []byte("\n"))
	begin := len(lines[0])
	for cut := begin; cut < len(full); cut++ {
		os.WriteFile(path, full[:cut], 0o600)
		j, log, err := journal.Open(path)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		whole := 0
		for off := 0; off+len(lines[whole]) <= cut; whole++ {
			off += len(lines[whole])
		}
		o := log.Find("op-1")
		if o == nil || !o.Unfinished() {
			t.Fatalf("cut at %d: %+v", cut, log)
		}
		if got := len(o.Written) + len(o.Skipped); got != whole-1 {
			t.Fatalf("cut at %d: %d records after the begin, want %d", cut, got, whole-1)
		}
		atLineEnd := false
		for off, i := 0, 0; i < len(lines); i++ {
			off += len(lines[i])
			atLineEnd = atLineEnd || off == cut
		}
		if atLineEnd != (log.Damage == nil) || log.Damage != nil && (!log.Damage.Tail || log.Damage.MovedTo != "") {
			t.Fatalf("cut at %d: damage %+v", cut, log.Damage)
		}
		if err := j.End("op-1", journal.StatusFailed); err != nil {
			t.Fatal(err)
		}
		j.Close()
		_, again, _ := journal.Open(path)
		if again.Damage != nil || again.Find("op-1").Unfinished() {
			t.Fatalf("cut at %d, then ended: %+v", cut, again.Damage)
		}
	}
}

func TestDamageBeforeTheTailMovesTheFileAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "j")
	j, _, _ := journal.Open(path)
	applyPart(t, j, "op-1", "k", writes(3), 3)
	j.End("op-1", journal.StatusApplied)
	j.Close()
	full, _ := os.ReadFile(path)
	bad := bytes.Clone(full)
	bad[20] ^= 1 // inside the first record
	os.WriteFile(path, bad, 0o600)
	j, log, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if log.Damage == nil || log.Damage.Tail || log.Damage.Offset != 0 || log.Damage.MovedTo == "" || !strings.Contains(log.Damage.Reason, "checksum") {
		t.Fatalf("damage %+v", log.Damage)
	}
	kept, _ := os.ReadFile(log.Damage.MovedTo)
	if !bytes.Equal(kept, bad) {
		t.Error("the damaged journal was not kept whole")
	}
	if fresh, _ := os.ReadFile(path); len(fresh) != 0 {
		t.Errorf("the new journal holds %d bytes", len(fresh))
	}
	if err := j.Begin("op-2", "p", "h", "k2", "26.1", "commands", nil); err != nil {
		t.Errorf("the new journal takes records: %v", err)
	}
}

func TestReadRefusesHostileLines(t *testing.T) {
	for _, c := range []struct {
		name, input, reason string
	}{
		{"no checksum", "{\"kind\":\"begin\",\"op\":\"a\"}\n", "no checksum"},
		{"wrong checksum", "{\"kind\":\"begin\",\"op\":\"a\"}\t00000000\n", "checksum does not match"},
		{"garbage", "\x00\x01\x02\n", "no checksum"},
		{"huge line", strings.Repeat("x", journal.MaxRecord+10), "longer than a record"},
	} {
		log := journal.Read(strings.NewReader(c.input))
		if log.Damage == nil || !strings.Contains(log.Damage.Reason, c.reason) || len(log.Operations) != 0 {
			t.Errorf("%s: %+v", c.name, log.Damage)
		}
	}
}

func TestCompact(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _, _ := journal.Open(path)
	for i := range 6 {
		applyPart(t, j, fmt.Sprint("op-", i), fmt.Sprint("k-", i), writes(3), 3)
		if i != 2 {
			j.End(fmt.Sprint("op-", i), journal.StatusApplied)
		}
	}
	if err := j.Compact(2); err != nil {
		t.Fatal(err)
	}
	if err := j.Begin("op-6", "p", "h", "k-6", "26.1", "survival", nil); err != nil {
		t.Fatal(err)
	}
	j.Close()
	_, log, _ := journal.Open(path)
	var ids []string
	for _, o := range log.Operations {
		ids = append(ids, o.Begin.Op)
	}
	if fmt.Sprint(ids) != "[op-2 op-4 op-5 op-6]" || log.Damage != nil || len(log.Find("op-2").Written) != 3 || log.Find("op-5").End.Placed != 3 {
		t.Errorf("after compacting: %v, damage %+v", ids, log.Damage)
	}
}

// FuzzRead reads arbitrary bytes as a journal: never a panic, damage
// within the input, and a clean read for exactly the inputs that end on a
// whole record.
func FuzzRead(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "j")
	j, _, _ := journal.Open(path)
	j.Begin("op", "p", "h", "k", "26.1", "survival", writes(2))
	j.Wrote("op", writes(1)[0])
	j.End("op", journal.StatusApplied)
	j.Close()
	seed, _ := os.ReadFile(path)
	f.Add(seed)
	f.Add([]byte("{}\t00000000\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		log := journal.Read(bytes.NewReader(data))
		if d := log.Damage; d != nil && (d.Offset < 0 || d.Offset+d.Bytes != int64(len(data))) {
			t.Fatalf("damage %+v for %d bytes", d, len(data))
		}
	})
}
