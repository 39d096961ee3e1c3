// Package journal keeps the record of build applies on disk: an
// append-only file of one line per event (an apply begins, a block is
// written, a block is skipped as a conflict, the apply ends), each line
// JSON and its CRC-32C, so that an apply cut short by a crash is known at
// the next start. The journal reports such an apply as unfinished and
// never continues it on its own: what to do with a half-built wall is a
// person's decision, and the written blocks it lists are what an undo
// needs.
//
// Reading is crash-safe. A process that dies mid-append leaves at most
// one incomplete or damaged last line; it is cut off (Open truncates the
// file to the last whole record) and reported. Damage anywhere else is not
// a crash's doing: the file is moved aside, whole, and a new one started,
// so nothing is lost and nothing stops the bot from starting.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/blockmate/blockmate/bot/build"
)

// MaxRecord is the longest line the reader accepts: a begin record with a
// plan of 4096 writes is about half a megabyte.
const MaxRecord = 4 << 20

// Kinds of record.
const (
	KindBegin = "begin"
	KindWrite = "write"
	KindSkip  = "skip"
	KindEnd   = "end"
)

// Statuses an apply ends with.
const (
	StatusApplied   = "applied"
	StatusCancelled = "cancelled"
	StatusFailed    = "failed"
)

// Record is one line of the journal. Kind says which fields it uses.
type Record struct {
	Kind string    `json:"kind"`
	Op   string    `json:"op"`
	At   time.Time `json:"at"`
	// begin
	PlanID   string        `json:"plan_id,omitempty"`
	PlanHash string        `json:"plan_hash,omitempty"`
	Key      string        `json:"key,omitempty"`
	Version  string        `json:"version,omitempty"`
	Mode     string        `json:"mode,omitempty"`
	Plan     []build.Write `json:"plan,omitempty"`
	// write and skip
	Pos    *build.Pos `json:"pos,omitempty"`
	Before string     `json:"before,omitempty"`
	After  string     `json:"after,omitempty"`
	Found  string     `json:"found,omitempty"`
	// end
	Status  string `json:"status,omitempty"`
	Placed  int    `json:"placed,omitempty"`
	Skipped int    `json:"skipped,omitempty"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encode is the record's line: its JSON, a tab, its CRC-32C in hex.
func encode(r Record) ([]byte, error) {
	body, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	line := make([]byte, 0, len(body)+10)
	line = append(line, body...)
	line = append(line, '\t')
	line = append(line, fmt.Sprintf("%08x", crc32.Checksum(body, castagnoli))...)
	line = append(line, '\n')
	if len(line) > MaxRecord {
		return nil, fmt.Errorf("the journal record is %d bytes, more than the %d a record may hold", len(line), MaxRecord)
	}
	return line, nil
}

// Operation is one apply as the journal tells it.
type Operation struct {
	Begin   Record
	Written []build.Write
	Skipped []build.Conflict
	// End is nil for an apply that never ended: cut short by a crash.
	End *Record
}

// Unfinished says the apply began and never ended.
func (o *Operation) Unfinished() bool { return o.End == nil }

// Damage says where reading stopped and why.
type Damage struct {
	// Offset is where the first unreadable line starts; Bytes how many
	// bytes from there on were not read.
	Offset int64  `json:"offset"`
	Bytes  int64  `json:"bytes"`
	Reason string `json:"reason"`
	// Tail says the damage is the last line only, as a crash mid-append
	// leaves it.
	Tail bool `json:"tail"`
	// MovedTo is where Open moved a journal damaged before its tail.
	MovedTo string `json:"moved_to,omitempty"`
}

// Log is a journal read back.
type Log struct {
	// Operations in the order they began.
	Operations []*Operation
	// Orphans counts records of operations whose begin is not in the log.
	Orphans int
	// Damage is nil when every byte read.
	Damage *Damage
	// good is the offset after the last whole record.
	good int64
}

// Find returns the operation with that id, or nil.
func (l *Log) Find(op string) *Operation {
	for _, o := range l.Operations {
		if o.Begin.Op == op {
			return o
		}
	}
	return nil
}

// ByKey returns the operation begun with an idempotency key, or nil: a
// repeated apply with the same key answers with it rather than applying
// again.
func (l *Log) ByKey(key string) *Operation {
	for _, o := range l.Operations {
		if o.Begin.Key == key {
			return o
		}
	}
	return nil
}

// Unfinished lists the operations that began and never ended.
func (l *Log) Unfinished() []*Operation {
	var out []*Operation
	for _, o := range l.Operations {
		if o.Unfinished() {
			out = append(out, o)
		}
	}
	return out
}

// Read reads a journal. It never fails: what cannot be read is reported in
// Damage, and everything before it is in the log.
func Read(r io.Reader) *Log {
	l := &Log{}
	byOp := map[string]*Operation{}
	br := bufio.NewReaderSize(r, 64<<10)
	var off int64
	for {
		line, err := readLine(br)
		if len(line) == 0 && err == io.EOF {
			break
		}
		if err != nil {
			rest := int64(len(line))
			n, _ := io.Copy(io.Discard, br)
			reason := "the last line is cut short"
			if errors.Is(err, errTooLong) {
				reason = "a line is longer than a record may be"
			}
			l.Damage = &Damage{Offset: off, Bytes: rest + n, Reason: reason, Tail: n == 0 && !errors.Is(err, errTooLong)}
			break
		}
		rec, reason := decode(line)
		if reason != "" {
			n, _ := io.Copy(io.Discard, br)
			l.Damage = &Damage{Offset: off, Bytes: int64(len(line)) + n, Reason: reason, Tail: n == 0}
			break
		}
		off += int64(len(line))
		l.good = off
		if rec.Kind == KindBegin {
			if byOp[rec.Op] != nil {
				l.Orphans++ // a second begin of one id is not an apply
				continue
			}
			o := &Operation{Begin: rec}
			byOp[rec.Op] = o
			l.Operations = append(l.Operations, o)
			continue
		}
		o := byOp[rec.Op]
		if o == nil || o.End != nil {
			l.Orphans++
			continue
		}
		switch rec.Kind {
		case KindWrite:
			o.Written = append(o.Written, build.Write{Pos: *rec.Pos, Before: rec.Before, After: rec.After})
		case KindSkip:
			o.Skipped = append(o.Skipped, build.Conflict{Pos: *rec.Pos, Expected: rec.Before, Found: rec.Found})
		case KindEnd:
			end := rec
			o.End = &end
		}
	}
	return l
}

var errTooLong = errors.New("line too long")

// readLine reads one line with its newline, at most MaxRecord bytes; a
// line without a newline at the end of the input is returned with
// io.ErrUnexpectedEOF.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxRecord {
			return line, errTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(line) == 0:
			return nil, io.EOF
		case err == io.EOF:
			return line, io.ErrUnexpectedEOF
		default:
			return line, err
		}
	}
}

// decode checks a line's checksum and reads its record; the reason is
// empty when the line is whole.
func decode(line []byte) (Record, string) {
	body := bytes.TrimSuffix(line, []byte("\n"))
	tab := bytes.LastIndexByte(body, '\t')
	if tab < 0 || len(body)-tab-1 != 8 {
		return Record{}, "a line has no checksum"
	}
	want, err := strconv.ParseUint(string(body[tab+1:]), 16, 32)
	if err != nil || crc32.Checksum(body[:tab], castagnoli) != uint32(want) {
		return Record{}, "a line's checksum does not match"
	}
	var r Record
	if err := json.Unmarshal(body[:tab], &r); err != nil {
		return Record{}, "a line is not a record"
	}
	switch r.Kind {
	case KindBegin, KindEnd:
	case KindWrite, KindSkip:
		if r.Pos == nil {
			return Record{}, "a write or skip record has no position"
		}
	default:
		return Record{}, fmt.Sprintf("a record has the unknown kind %q", r.Kind)
	}
	if r.Op == "" {
		return Record{}, "a record names no operation"
	}
	return r, ""
}

// Journal is an open journal file. Its methods are safe for concurrent
// use.
type Journal struct {
	mu   sync.Mutex
	path string
	f    *os.File
	log  *Log
	now  func() time.Time
}

// Open opens (or creates) the journal at path and reads it. A torn last
// line is cut off; damage before the tail moves the file aside (path +
// ".damaged-<unix time>") and starts a new journal. Either is said in the
// log's Damage, and the log's Unfinished are the applies a crash cut
// short, to be reported, never resumed.
func Open(path string) (*Journal, *Log, error) {
	return open(path, time.Now)
}

func open(path string, now func() time.Time) (*Journal, *Log, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("the build journal %s cannot be opened (%v); check that blockmate's folder is writable", path, err)
	}
	log := Read(f)
	if d := log.Damage; d != nil {
		if d.Tail {
			if err := f.Truncate(log.good); err != nil {
				f.Close()
				return nil, nil, fmt.Errorf("the build journal %s has a torn last record that cannot be cut off (%v)", path, err)
			}
		} else {
			f.Close()
			aside := fmt.Sprintf("%s.damaged-%d", path, now().Unix())
			if err := os.Rename(path, aside); err != nil {
				return nil, nil, fmt.Errorf("the build journal %s is damaged at byte %d and cannot be moved aside (%v); move it away by hand", path, d.Offset, err)
			}
			d.MovedTo = aside
			if f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600); err != nil {
				return nil, nil, fmt.Errorf("a new build journal %s cannot be made (%v)", path, err)
			}
			log.good = 0
		}
	}
	if _, err := f.Seek(log.good, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, err
	}
	return &Journal{path: path, f: f, log: log, now: now}, log, nil
}

// Begin records that an apply starts, with the plan it will write, and
// syncs: after it returns, a crash leaves an unfinished operation behind.
func (j *Journal) Begin(op, planID, planHash, key, version, mode string, plan []build.Write) error {
	if op == "" {
		return errors.New("an apply needs an operation id")
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.log.Find(op) != nil {
		return fmt.Errorf("operation %s is already in the journal; give each apply a new id", op)
	}
	if key != "" && j.log.ByKey(key) != nil {
		return fmt.Errorf("idempotency key %q already began an apply; repeating it must answer with that apply, not start another", key)
	}
	rec := Record{Kind: KindBegin, Op: op, At: j.now().UTC(), PlanID: planID, PlanHash: planHash, Key: key, Version: version, Mode: mode, Plan: plan}
	if err := j.appendLocked(rec, true); err != nil {
		return err
	}
	j.log.Operations = append(j.log.Operations, &Operation{Begin: rec})
	return nil
}

// Wrote records one block the apply wrote (and saw written). It does not
// sync; Sync or End does, so a crash may lose the last few, which is why
// a reviewer of an unfinished apply reads the world, not only the
// journal.
func (j *Journal) Wrote(op string, w build.Write) error {
	p := w.Pos
	return j.add(op, Record{Kind: KindWrite, Op: op, Pos: &p, Before: w.Before, After: w.After}, func(o *Operation) {
		o.Written = append(o.Written, build.Write{Pos: w.Pos, Before: w.Before, After: w.After})
	})
}

// Skipped records a block left alone because someone changed it.
func (j *Journal) Skipped(op string, c build.Conflict) error {
	p := c.Pos
	return j.add(op, Record{Kind: KindSkip, Op: op, Pos: &p, Before: c.Expected, Found: c.Found}, func(o *Operation) {
		o.Skipped = append(o.Skipped, c)
	})
}

// End records how the apply ended, with the counts of blocks written and
// skipped, and syncs.
func (j *Journal) End(op, status string) error {
	if status != StatusApplied && status != StatusCancelled && status != StatusFailed {
		return fmt.Errorf("status %q is not applied, cancelled or failed", status)
	}
	if err := j.add(op, Record{Kind: KindEnd, Op: op, Status: status}, nil); err != nil {
		return err
	}
	return j.Sync()
}

// add appends a record of a begun, unended operation and applies it to
// the log: apply for writes and skips; an end record is filled with the
// counts and becomes the operation's End.
func (j *Journal) add(op string, rec Record, apply func(*Operation)) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	o := j.log.Find(op)
	if o == nil {
		return fmt.Errorf("operation %s has not begun in the journal", op)
	}
	if o.End != nil {
		return fmt.Errorf("operation %s has already ended (%s)", op, o.End.Status)
	}
	rec.At = j.now().UTC()
	if rec.Kind == KindEnd {
		rec.Placed, rec.Skipped = len(o.Written), len(o.Skipped)
	}
	if err := j.appendLocked(rec, false); err != nil {
		return err
	}
	if rec.Kind == KindEnd {
		o.End = &rec
	} else {
		apply(o)
	}
	return nil
}

func (j *Journal) appendLocked(rec Record, sync bool) error {
	line, err := encode(rec)
	if err != nil {
		return err
	}
	if _, err := j.f.Write(line); err != nil {
		return fmt.Errorf("the build journal %s cannot be written (%v); the apply stops here", j.path, err)
	}
	j.log.good += int64(len(line))
	if sync {
		return j.f.Sync()
	}
	return nil
}

// Sync makes what was appended durable.
func (j *Journal) Sync() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.f.Sync()
}

// Log is the journal as it stands (shared: do not modify).
func (j *Journal) Log() *Log {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.log
}

// Compact rewrites the journal keeping every unfinished operation and the
// newest keep finished ones, so that it does not grow without end. The new
// file is written beside the old and renamed over it, so a crash leaves
// one or the other whole.
func (j *Journal) Compact(keep int) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	var finished []*Operation
	for _, o := range j.log.Operations {
		if !o.Unfinished() {
			finished = append(finished, o)
		}
	}
	drop := map[*Operation]bool{}
	if len(finished) > keep {
		sort.SliceStable(finished, func(a, b int) bool { return finished[a].End.At.Before(finished[b].End.At) })
		for _, o := range finished[:len(finished)-keep] {
			drop[o] = true
		}
	}
	tmp := j.path + ".compact"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	var kept []*Operation
	var size int64
	write := func(r Record) error {
		line, err := encode(r)
		if err == nil {
			_, err = f.Write(line)
			size += int64(len(line))
		}
		return err
	}
	for _, o := range j.log.Operations {
		if drop[o] {
			continue
		}
		kept = append(kept, o)
		if err := write(o.Begin); err != nil {
			f.Close()
			return err
		}
		for _, w := range o.Written {
			p := w.Pos
			if err := write(Record{Kind: KindWrite, Op: o.Begin.Op, At: o.Begin.At, Pos: &p, Before: w.Before, After: w.After}); err != nil {
				f.Close()
				return err
			}
		}
		for _, c := range o.Skipped {
			p := c.Pos
			if err := write(Record{Kind: KindSkip, Op: o.Begin.Op, At: o.Begin.At, Pos: &p, Before: c.Expected, Found: c.Found}); err != nil {
				f.Close()
				return err
			}
		}
		if o.End != nil {
			if err := write(*o.End); err != nil {
				f.Close()
				return err
			}
		}
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := os.Rename(tmp, j.path); err != nil {
		f.Close()
		return err
	}
	j.f.Close()
	j.f = f
	j.log = &Log{Operations: kept, good: size}
	return nil
}

// Close closes the file.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.f.Close()
}
