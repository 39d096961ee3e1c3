package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/blockmate/blockmate/bot/build"
	"github.com/blockmate/blockmate/bot/build/journal"
	"github.com/blockmate/blockmate/bot/dig"
	"github.com/blockmate/blockmate/bot/material"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/move"
	"github.com/blockmate/blockmate/bot/schematic"
	"github.com/blockmate/blockmate/bot/talk"
	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/protocol"
)

// Building: look (mc_region_inspect), prepare a plan that writes nothing
// (mc_build_prepare), apply it with a key (mc_build_apply), follow it, stop
// it, undo it through the same checks, and export a region as a
// schematic. The pure work is bot/build's; this file joins it to the
// session, the bot's hands, blockmate's folder and the journal.

// Apply modes.
const (
	ModeSurvival = "survival"
	ModeCommands = "commands"
)

// Operation statuses besides the journal's ended ones.
const (
	StatusRunning = "running"
	// StatusUnfinished is an apply a crash (or a kill) cut short: found in
	// the journal at start, reported, never resumed.
	StatusUnfinished = "unfinished"
)

// MaxSchematicFile is the largest schematic file read: the seed builder's
// 1 MiB.
const MaxSchematicFile = 1 << 20

// maxConflictsShown bounds the conflicts a result lists; the counters
// count them all.
const maxConflictsShown = 32

// journalKeep is how many finished applies the journal keeps (undo needs
// them); it is compacted to that when it holds twice as many.
const journalKeep = 64

// defaultCommandTicks bounds the wait for a /setblock's block change: the
// game answers within a tick, a busy server within a second.
const defaultCommandTicks = 40

// FolderEnv names the environment variable that sets blockmate's folder
// (schematics and the build journal); without it the folder is the user's
// settings folder's blockmate.
const FolderEnv = "BLOCKMATE_DIR"

// builds is the tools' building state: prepared plans, operations, the
// journal. It outlives sessions: a plan belongs to the world it was
// checked against, which its checks find again.
type builds struct {
	mu      sync.Mutex
	plans   map[string]*build.Plan
	ops     map[string]*buildOp
	order   []string
	journal *journal.Journal
	opened  bool
	openErr error
	folder  string
	now     func() time.Time
	// commandTicks bounds the wait for a /setblock's block change
	// (defaultCommandTicks; a test holding a command longer sets more).
	commandTicks uint64
	// shown is the plan mc_map draws (the console's ghost blocks): the
	// last prepared until it expires, or the one being applied, with the
	// positions done so far.
	shown *shownPlan
}

// shownPlan is a plan on the map.
type shownPlan struct {
	planID  string
	writes  []build.Write
	done    map[build.Pos]bool
	expires time.Time
	running bool
}

// buildOp is one apply.
type buildOp struct {
	ID, PlanID, PlanHash, Key, Mode string
	Status                          string
	Total                           int
	Placed, Skipped, Mismatched     int
	Conflicts                       []build.Conflict
	Mismatches                      []Mismatch
	Written                         []build.Write
	Version                         string
	Reason                          string
	cancel                          context.CancelFunc
}

// Mismatch is a block the server made other than the plan said: the door's
// hinge the game chose, a stair turned by the bot's facing.
type Mismatch struct {
	Pos    build.Pos `json:"pos"`
	Wanted string    `json:"wanted"`
	Got    string    `json:"got"`
}

// Folder is blockmate's folder: $BLOCKMATE_DIR, else the user's settings
// folder's blockmate.
func Folder() (string, error) {
	if d := os.Getenv(FolderEnv); d != "" {
		return d, nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("blockmate has no folder for schematics and the build journal (%v); set %s", err, FolderEnv)
	}
	return filepath.Join(d, "blockmate"), nil
}

// SetFolder sets blockmate's folder for the building tools, before the
// first call (tests; main leaves the default).
func (t *Tools) SetFolder(dir string) {
	b := t.builds
	b.mu.Lock()
	defer b.mu.Unlock()
	b.folder = dir
}

func newBuilds() *builds {
	return &builds{plans: map[string]*build.Plan{}, ops: map[string]*buildOp{}, now: time.Now, commandTicks: defaultCommandTicks}
}

// open opens the journal once, on the first call that needs it, and takes
// the applies it lists in as operations: the unfinished ones as
// unfinished, for mc_build_status to report; none is resumed.
func (b *builds) openLocked() error {
	if b.opened {
		return b.openErr
	}
	b.opened = true
	dir := b.folder
	if dir == "" {
		d, err := Folder()
		if err != nil {
			b.openErr = err
			return err
		}
		dir = d
	}
	b.folder = dir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.openErr = fmt.Errorf("blockmate's folder %s cannot be made (%v); set %s to a writable folder", dir, err, FolderEnv)
		return b.openErr
	}
	j, log, err := journal.Open(filepath.Join(dir, "build-journal.jsonl"))
	if err != nil {
		b.openErr = err
		return err
	}
	b.journal = j
	// The journal keeps every unfinished apply and the newest finished
	// ones, so it does not grow without end.
	if len(log.Operations) > 2*journalKeep {
		if err := j.Compact(journalKeep); err == nil {
			log = j.Log()
		}
	}
	for _, o := range log.Operations {
		op := &buildOp{ID: o.Begin.Op, PlanID: o.Begin.PlanID, PlanHash: o.Begin.PlanHash, Key: o.Begin.Key, Mode: o.Begin.Mode,
			Version: o.Begin.Version, Total: len(o.Begin.Plan), Written: o.Written, Conflicts: o.Skipped,
			Placed: len(o.Written), Skipped: len(o.Skipped), Status: StatusUnfinished}
		if o.End != nil {
			op.Status = o.End.Status
		} else {
			op.Reason = "blockmate stopped during this apply; it was not resumed. Look at the region (mc_region_inspect), then undo what it wrote (mc_build_undo_prepare) or prepare the rest again"
		}
		b.ops[op.ID] = op
		b.order = append(b.order, op.ID)
	}
	return nil
}

func (b *builds) schematicDir() string { return filepath.Join(b.folder, "schematics") }

// ---- results ----

// InspectResult is mc_region_inspect's result.
type InspectResult struct {
	*build.Inspection
	NextStep string `json:"next_step,omitempty"`
}

// PrepareResult is mc_build_prepare's result: the plan's summary, what the
// bot lacks, and the first writes.
type PrepareResult struct {
	build.Summary
	Short []build.Material `json:"short,omitempty"`
	// Unfinished are applies blockmate was stopped during (found in the
	// journal): they are not resumed, and a new build near them may meet
	// their half-built blocks.
	Unfinished []string `json:"unfinished_operations,omitempty"`
	NextStep   string   `json:"next_step,omitempty"`
	// Image is the plan seen from above (PNG), for transports that show
	// pictures (MCP); it is not in the JSON.
	Image []byte `json:"-"`
}

// Pictures offers the plan's picture to transports that show pictures.
func (r PrepareResult) Pictures() []protocol.Image {
	if len(r.Image) == 0 {
		return nil
	}
	return []protocol.Image{{MIMEType: "image/png", Data: r.Image}}
}

// ApplyResult is mc_build_apply's and mc_build_status' result.
type ApplyResult struct {
	OperationID string           `json:"operation_id"`
	Status      string           `json:"status"`
	Placed      int              `json:"placed"`
	Conflicts   []build.Conflict `json:"conflicts,omitempty"`
	Counters    OpCounters       `json:"counters"`
	Mismatches  []Mismatch       `json:"mismatches,omitempty"`
	PlanID      string           `json:"plan_id"`
	Mode        string           `json:"mode,omitempty"`
	Repeated    bool             `json:"repeated,omitempty"`
	Reason      string           `json:"reason,omitempty"`
	NextStep    string           `json:"next_step,omitempty"`
}

// OpCounters count an operation's blocks.
type OpCounters struct {
	Total      int `json:"total"`
	Placed     int `json:"placed"`
	Conflicts  int `json:"conflicts"`
	Mismatched int `json:"mismatched,omitempty"`
	Left       int `json:"left"`
}

// StatusResult is mc_build_status' and mc_build_cancel's result: the
// verdict (status) first, as TOOLS.md has it.
type StatusResult struct {
	Status      string           `json:"status"`
	Counters    OpCounters       `json:"counters"`
	Conflicts   []build.Conflict `json:"conflicts,omitempty"`
	OperationID string           `json:"operation_id"`
	PlanID      string           `json:"plan_id"`
	Mode        string           `json:"mode,omitempty"`
	Mismatches  []Mismatch       `json:"mismatches,omitempty"`
	Reason      string           `json:"reason,omitempty"`
	NextStep    string           `json:"next_step,omitempty"`
}

func (op *buildOp) status() StatusResult {
	r := op.result()
	return StatusResult{Status: r.Status, Counters: r.Counters, Conflicts: r.Conflicts, OperationID: r.OperationID, PlanID: r.PlanID, Mode: r.Mode, Mismatches: r.Mismatches, Reason: r.Reason, NextStep: r.NextStep}
}

// StatusListResult is mc_build_status without an operation: every known
// operation, newest last, the unfinished first said.
type StatusListResult struct {
	Count      int            `json:"count"`
	Unfinished []string       `json:"unfinished,omitempty"`
	Operations []StatusResult `json:"operations"`
}

// UndoResult is mc_build_undo_prepare's result.
type UndoResult struct {
	PlanID        string       `json:"plan_id"`
	PlanHash      string       `json:"plan_hash"`
	ChangedBlocks int          `json:"changed_blocks"`
	Kept          []build.Kept `json:"kept"`
	// Untouched are the blocks the apply skipped as conflicts: it never
	// wrote them, so the undo leaves them as they are too.
	Untouched []build.Conflict `json:"untouched,omitempty"`
	Region    build.Region     `json:"region"`
	ExpiresAt time.Time        `json:"expires_at"`
	NextStep  string           `json:"next_step,omitempty"`
}

func (op *buildOp) result() ApplyResult {
	c := op.Conflicts
	if len(c) > maxConflictsShown {
		c = c[:maxConflictsShown]
	}
	m := op.Mismatches
	if len(m) > maxConflictsShown {
		m = m[:maxConflictsShown]
	}
	left := op.Total - op.Placed - op.Skipped - op.Mismatched
	if left < 0 {
		left = 0
	}
	r := ApplyResult{OperationID: op.ID, Status: op.Status, Placed: op.Placed, Conflicts: append([]build.Conflict(nil), c...),
		Counters:   OpCounters{Total: op.Total, Placed: op.Placed, Conflicts: op.Skipped, Mismatched: op.Mismatched, Left: left},
		Mismatches: append([]Mismatch(nil), m...), PlanID: op.PlanID, Mode: op.Mode, Reason: op.Reason}
	switch op.Status {
	case journal.StatusApplied:
		r.NextStep = "mc_build_undo_prepare with this operation_id makes the plan that puts it back"
	case StatusUnfinished, journal.StatusCancelled, journal.StatusFailed:
		r.NextStep = "mc_region_inspect the region, then mc_build_undo_prepare to take back what was written, or mc_build_prepare the rest again"
	}
	return r
}

// ---- arguments ----

var posArgHelp = `{"x":…, "y":…, "z":…}`

func posArg(a protocol.Args, name string) (build.Pos, error) {
	var p struct{ X, Y, Z *int }
	if err := a.Decode(name, &p); err != nil {
		return build.Pos{}, fmt.Errorf("%v; give %s as %s", err, name, posArgHelp)
	}
	if p.X == nil || p.Y == nil || p.Z == nil {
		return build.Pos{}, fmt.Errorf("%s needs x, y and z, as %s", name, posArgHelp)
	}
	return build.Pos{X: *p.X, Y: *p.Y, Z: *p.Z}, nil
}

// boxArg reads the min and max corners of a box argument pair, as
// mc_region_inspect and mc_schematic_export take them.
func boxArg(a protocol.Args) (lo, hi build.Pos, err error) {
	if lo, err = posArg(a, "min"); err != nil {
		return lo, hi, err
	}
	hi, err = posArg(a, "max")
	return lo, hi, err
}

// readerOf is the world reader of the session: the loaded chunks as they
// are now.
func readerOf(w *session) build.Reader {
	level := w.Level()
	return func(p build.Pos) (mcdata.StateID, bool) { return level.View().BlockAt(p.BlockPos()) }
}

// snapshotReader reads one snapshot of the world: an inspection sees one
// moment.
func snapshotReader(w *session) build.Reader { return build.ViewReader(w.Level().View()) }

func carried(w *session) map[string]int {
	v := w.Inventory().View()
	out := map[string]int{}
	for _, s := range v.Slots {
		if !s.Empty() {
			out[s.Name] += int(s.Count)
		}
	}
	return out
}

func (t *Tools) registerBuild(c *protocol.Catalog) {
	b := t.builds

	c.Add(protocol.Tool{
		Name: "mc_region_inspect",
		Description: "Reads a box of the loaded world, at most 4096 positions (16×16×16): a palette of block states with counts, and with detail blocks every position's state, in the game's syntax. " +
			"Parts in chunks the bot has not loaded are listed under unloaded, never guessed. Give its blocks to mc_build_prepare as expected_blocks so the plan is refused if the world changed in between.",
		Args: protocol.Schema{
			protocol.Obj("min", `one corner, {"x":…, "y":…, "z":…}`, 200).Req(),
			protocol.Obj("max", "the opposite corner (inclusive)", 200).Req(),
			protocol.Str("detail", "summary (the palette) or blocks (every position too)").OneOf(build.DetailSummary, build.DetailBlocks).Def(build.DetailSummary),
		},
		Effect: protocol.Read,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			lo, hi, err := boxArg(a)
			if err != nil {
				return nil, err
			}
			r, err := build.Inspect(w.Level().Game(), snapshotReader(w), lo, hi, a.String("detail"))
			if err != nil {
				return nil, err
			}
			out := InspectResult{Inspection: r}
			if len(r.Unloaded) > 0 {
				out.NextStep = "walk toward the unloaded parts (mc_goto) and inspect again"
			}
			return out, nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_build_prepare",
		Description: "Plans a build and writes nothing: from a recipe {version: 1, operations: [box(min, max, block, hollow?, walls?), line(from, to, block), cylinder(center, radius, height, block, hollow?), repeat(count, offset, operations)]} or a schematic file in blockmate's folder placed at target and turned by rotation (0, 90, 180, 270, clockwise from above). " +
			"Blocks are states in the game's syntax, oak_door[facing=south,half=lower]; a wrong property or value is refused with the allowed ones. Every position is checked against the loaded world (unloaded ones refuse the plan); expected_blocks, from mc_region_inspect with detail blocks, refuses it if the world changed since. " +
			"Answers plan_id, plan_hash, changed_blocks, the region, the materials it needs against what the bot carries, and expires_at; apply it with mc_build_apply.",
		Args: protocol.Schema{
			protocol.Obj("recipe", "the operations, {version: 1, operations: […]}", 256<<10),
			protocol.Str("schematic", "the name of a .schem file in blockmate's schematics folder (letters, digits, _ and -; no paths), instead of a recipe").Len(1, 64),
			protocol.Obj("target", "where the schematic's origin goes, {x, y, z}", 200),
			protocol.Int("rotation", "the schematic's turn in degrees, clockwise from above", 0, 270).Def(0),
			protocol.Arr("expected_blocks", "[{pos, state}] for every position of the plan, from mc_region_inspect", 1<<20),
		},
		Effect: protocol.Read,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			g := w.Level().Game()
			target, err := b.target(g, a)
			if err != nil {
				return nil, err
			}
			o := build.Options{Now: b.now(), Have: carried(w)}
			if d := w.Level().Dimension(); d.Known {
				o.MinY, o.MaxY = d.MinY, d.MinY+d.Height
			}
			if a.Has("expected_blocks") {
				if err := a.Decode("expected_blocks", &o.Expected); err != nil {
					return nil, fmt.Errorf("%v; give expected_blocks as mc_region_inspect's blocks, [{\"pos\": {x, y, z}, \"state\": \"…\"}]", err)
				}
				if o.Expected == nil {
					o.Expected = []build.ExpectedBlock{}
				}
			}
			p, err := build.Prepare(g, target, snapshotReader(w), o)
			if err != nil {
				return nil, err
			}
			b.mu.Lock()
			var unfinished []string
			if b.openLocked() == nil {
				for _, id := range b.order {
					if b.ops[id].Status == StatusUnfinished {
						unfinished = append(unfinished, id)
					}
				}
			}
			b.plans[p.ID] = p
			b.dropExpiredLocked()
			if b.shown == nil || !b.shown.running {
				b.shown = &shownPlan{planID: p.ID, writes: p.Writes, done: map[build.Pos]bool{}, expires: p.ExpiresAt}
			}
			b.mu.Unlock()
			out := PrepareResult{Summary: p.Summary(), Short: p.Short(), Unfinished: unfinished, Image: PlanPNG(g, p)}
			switch {
			case len(p.Writes) == 0:
				out.NextStep = "the world already holds the plan; nothing to apply"
			case len(out.Short) > 0:
				out.NextStep = "the bot lacks materials for a survival apply: get them (mc_obtain, mc_collect) or apply with mode commands where the bot may use /setblock"
			default:
				out.NextStep = "mc_build_apply with plan_id, plan_hash and a new idempotency_key"
			}
			return out, nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_build_apply",
		Description: "Applies a prepared plan: before each block it checks the world still holds what the plan saw there, and a block someone changed is a conflict, reported and skipped, never overwritten. " +
			"Mode survival (the default) walks, reaches and places from the inventory in an order that stands (supports first, bottom up, both halves of doors and beds), and refuses first when materials are short; mode commands writes with /fill (rows of one block) and /setblock and reads back what the server did. " +
			"Repeating the call with the same idempotency_key answers with the same operation and writes nothing again. Progress comes as mc_task_progress; mc_build_cancel or mc_stop stops it between blocks.",
		Args: protocol.Schema{
			protocol.Str("plan_id", "mc_build_prepare's plan_id").Req().Len(1, 64),
			protocol.Str("plan_hash", "mc_build_prepare's plan_hash, which says the plan is the one you read").Req().Len(64, 64),
			protocol.Str("idempotency_key", "a key of your choosing for this apply; repeat it to ask again without applying twice").Req().Len(1, 128),
			protocol.Str("mode", "survival (place from the inventory) or commands (/setblock)").OneOf(ModeSurvival, ModeCommands).Def(ModeSurvival),
		},
		Effect: protocol.Write,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			return t.apply(ctx, a.String("plan_id"), a.String("plan_hash"), a.String("idempotency_key"), a.String("mode"))
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_build_status",
		Description: "Says how an apply stands: status (running, applied, cancelled, failed, or unfinished for one blockmate was stopped during, which is never resumed on its own), counters, and the conflicts it skipped. " +
			"Without operation_id it lists every apply the journal knows, the unfinished named first.",
		Args:      protocol.Schema{protocol.Str("operation_id", "mc_build_apply's operation_id").Len(1, 64)},
		Effect:    protocol.Read,
		LocalOnly: true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			b.mu.Lock()
			defer b.mu.Unlock()
			if err := b.openLocked(); err != nil {
				return nil, err
			}
			if id := a.String("operation_id"); id != "" {
				op, err := b.opLocked(id)
				if err != nil {
					return nil, err
				}
				return op.status(), nil
			}
			out := StatusListResult{Operations: []StatusResult{}}
			for _, id := range b.order {
				op := b.ops[id]
				if op.Status == StatusUnfinished {
					out.Unfinished = append(out.Unfinished, id)
				}
				out.Operations = append(out.Operations, op.status())
			}
			out.Count = len(out.Operations)
			return out, nil
		},
	})

	c.Add(protocol.Tool{
		Name:        "mc_build_cancel",
		Description: "Stops a running apply after the block it is placing; what it wrote stays and is in the journal, so mc_build_undo_prepare can take it back. A finished apply is left as it is.",
		Args:        protocol.Schema{protocol.Str("operation_id", "mc_build_apply's operation_id").Req().Len(1, 64)},
		Effect:      protocol.Write,
		Idempotent:  true,
		LocalOnly:   true,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			b.mu.Lock()
			defer b.mu.Unlock()
			if err := b.openLocked(); err != nil {
				return nil, err
			}
			op, err := b.opLocked(a.String("operation_id"))
			if err != nil {
				return nil, err
			}
			if op.Status == StatusRunning && op.cancel != nil {
				op.cancel()
			}
			return op.status(), nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_build_undo_prepare",
		Description: "Prepares the plan that undoes an apply: every block it wrote goes back to what was there before, where it still holds what the apply wrote. Blocks someone changed since stay as they are and are listed in kept; untouched lists those the apply itself skipped as conflicts. " +
			"Nothing is written: apply the answer's plan with mc_build_apply, which checks every block again.",
		Args:   protocol.Schema{protocol.Str("operation_id", "mc_build_apply's operation_id").Req().Len(1, 64)},
		Effect: protocol.Read,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			g := w.Level().Game()
			b.mu.Lock()
			if err := b.openLocked(); err != nil {
				b.mu.Unlock()
				return nil, err
			}
			op, err := b.opLocked(a.String("operation_id"))
			var written []build.Write
			var untouched []build.Conflict
			if err == nil {
				untouched = append(untouched, op.Conflicts...)
				if op.Status == StatusRunning {
					err = fmt.Errorf("operation %s is still running; mc_build_cancel it or wait for it to end, then undo", op.ID)
				} else if op.Version != "" && op.Version != g.Version {
					err = fmt.Errorf("operation %s wrote blocks of version %s and the world is %s now; undo it in the world it built in", op.ID, op.Version, g.Version)
				}
				written = append(written, op.Written...)
			}
			b.mu.Unlock()
			if err != nil {
				return nil, err
			}
			if len(written) == 0 {
				return nil, fmt.Errorf("operation %s wrote no blocks, so there is nothing to undo", op.ID)
			}
			ws, err := build.WritesFromText(g, written)
			if err != nil {
				return nil, err
			}
			p, kept, err := build.Undo(g, ws, snapshotReader(w), build.Options{Now: b.now(), Have: carried(w)})
			if err != nil {
				return nil, err
			}
			b.mu.Lock()
			b.plans[p.ID] = p
			b.mu.Unlock()
			if kept == nil {
				kept = []build.Kept{}
			}
			out := UndoResult{PlanID: p.ID, PlanHash: p.Hash, ChangedBlocks: len(p.Writes), Kept: kept, Untouched: untouched, Region: p.Region, ExpiresAt: p.ExpiresAt}
			if len(p.Writes) > 0 {
				out.NextStep = "mc_build_apply with this plan_id and plan_hash and a new idempotency_key"
			}
			return out, nil
		},
	})

	c.Add(protocol.Tool{
		Name: "mc_schematic_export",
		Description: "Saves a box of the loaded world, at most 4096 positions, air included, as a Sponge schematic (v2) named name.schem in blockmate's schematics folder; mc_build_prepare reads it back by that name, anywhere, turned if asked. " +
			"Names are letters, digits, _ and - (no paths); an existing name is refused. Block states are kept; block data (chest contents, sign text) is not, and blocks_without_data counts those.",
		Args: protocol.Schema{
			protocol.Str("name", "the schematic's name, e.g. tower_1").Req().Len(1, 64),
			protocol.Obj("min", "one corner, {x, y, z}", 200).Req(),
			protocol.Obj("max", "the opposite corner (inclusive)", 200).Req(),
		},
		Effect: protocol.Write,
		Handler: func(ctx context.Context, a protocol.Args) (any, error) {
			w, err := t.session()
			if err != nil {
				return nil, err
			}
			lo, hi, err := boxArg(a)
			if err != nil {
				return nil, err
			}
			name := a.String("name")
			exp, file, err := build.ExportRegion(w.Level().Game(), snapshotReader(w), name, lo, hi)
			if err != nil {
				return nil, err
			}
			b.mu.Lock()
			err = b.openLocked()
			dir := b.schematicDir()
			b.mu.Unlock()
			if err != nil {
				return nil, err
			}
			if err := writeNew(dir, name+".schem", file); err != nil {
				return nil, err
			}
			return exp, nil
		},
	})
}

// writeNew writes a new file in dir through a temporary file and a link,
// so a reader never sees half a file and an existing one is never
// replaced.
func writeNew(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("the schematics folder %s cannot be made (%v)", dir, err)
	}
	final := filepath.Join(dir, name)
	if _, err := os.Lstat(final); err == nil {
		return fmt.Errorf("a schematic named %s already exists; choose another name", strings.TrimSuffix(name, ".schem"))
	}
	tmp, err := os.CreateTemp(dir, ".export-*")
	if err != nil {
		return fmt.Errorf("the schematic cannot be written in %s (%v)", dir, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("the schematic cannot be written in %s (%v)", dir, err)
	}
	if err := os.Link(tmp.Name(), final); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("a schematic named %s already exists; choose another name", strings.TrimSuffix(name, ".schem"))
		}
		return fmt.Errorf("the schematic cannot be written in %s (%v)", dir, err)
	}
	return nil
}

// target is the blocks mc_build_prepare asks for: a recipe's or a
// schematic's, never both.
func (b *builds) target(g *mcdata.GameData, a protocol.Args) (*build.Target, error) {
	hasRecipe, hasSchem := a.Has("recipe"), a.String("schematic") != ""
	switch {
	case hasRecipe && hasSchem:
		return nil, errors.New("give a recipe or a schematic, not both")
	case hasRecipe:
		if a.Has("target") {
			return nil, errors.New("target places a schematic; a recipe's coordinates are the world's, so leave target out")
		}
		var r build.Recipe
		if err := a.Decode("recipe", &r); err != nil {
			return nil, fmt.Errorf("%v; a recipe is {\"version\": 1, \"operations\": [{\"op\": \"box\", \"min\": {x, y, z}, \"max\": {x, y, z}, \"block\": \"oak_planks\"}]}", err)
		}
		return build.Expand(g, r)
	case hasSchem:
		if !a.Has("target") {
			return nil, errors.New("a schematic needs a target, {x, y, z}: where its origin goes")
		}
		at, err := posArg(a, "target")
		if err != nil {
			return nil, err
		}
		file, err := b.readSchematic(a.String("schematic"))
		if err != nil {
			return nil, err
		}
		t, _, err := build.Import(g, file, at, a.Int("rotation"))
		return t, err
	}
	return nil, errors.New("give a recipe, {\"version\": 1, \"operations\": […]}, or the name of a schematic in blockmate's folder with a target")
}

// readSchematic reads a named schematic from blockmate's folder: a plain
// file (no link), at most MaxSchematicFile bytes.
func (b *builds) readSchematic(name string) ([]byte, error) {
	if err := schematic.CheckName(name); err != nil {
		return nil, err
	}
	b.mu.Lock()
	err := b.openLocked()
	dir := b.schematicDir()
	b.mu.Unlock()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, name+".schem")
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("there is no schematic named %s in %s; mc_schematic_export makes one, or put a .schem file there", name, dir)
	case err != nil:
		return nil, fmt.Errorf("the schematic %s cannot be read (%v)", name, err)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s.schem is not a plain file (a link or a folder); blockmate reads only plain files from its folder", name)
	case fi.Size() > MaxSchematicFile:
		return nil, fmt.Errorf("%s.schem is %d bytes; schematics are at most %d (1 MiB)", name, fi.Size(), MaxSchematicFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("the schematic %s cannot be read (%v)", name, err)
	}
	defer f.Close()
	buf := make([]byte, MaxSchematicFile+1)
	n, _ := readFull(f, buf)
	if n > MaxSchematicFile {
		return nil, fmt.Errorf("%s.schem is more than %d bytes; schematics are at most 1 MiB", name, MaxSchematicFile)
	}
	return buf[:n], nil
}

func readFull(f *os.File, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := f.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func (b *builds) opLocked(id string) (*buildOp, error) {
	op := b.ops[id]
	if op == nil {
		return nil, fmt.Errorf("there is no apply %s; mc_build_status without an operation_id lists them", id)
	}
	return op, nil
}

// dropExpiredLocked forgets plans past their expiry, so prepared plans do
// not pile up.
func (b *builds) dropExpiredLocked() {
	now := b.now()
	for id, p := range b.plans {
		if p.Expired(now) {
			delete(b.plans, id)
		}
	}
}

// opID is an apply's id, from its key and plan: the same call names the
// same operation.
func opID(key, planID string) string {
	h := sha256.Sum256([]byte(planID + "\n" + key))
	return "op-" + hex.EncodeToString(h[:8])
}

// apply runs mc_build_apply.
func (t *Tools) apply(ctx context.Context, planID, planHash, key, mode string) (any, error) {
	b := t.builds
	b.mu.Lock()
	if err := b.openLocked(); err != nil {
		b.mu.Unlock()
		return nil, err
	}
	if o := b.journal.Log().ByKey(key); o != nil {
		op := b.ops[o.Begin.Op]
		b.mu.Unlock()
		if o.Begin.PlanID != planID {
			return nil, fmt.Errorf("idempotency key %q already applied plan %s; a different plan needs a different key", key, o.Begin.PlanID)
		}
		r := op.result()
		r.Repeated = true
		return r, nil
	}
	p := b.plans[planID]
	b.mu.Unlock()
	switch {
	case p == nil:
		return nil, fmt.Errorf("there is no prepared plan %s (plans last %v, and not across restarts); prepare it again with mc_build_prepare", planID, build.DefaultTTL)
	case p.Hash != planHash:
		return nil, fmt.Errorf("plan_hash does not match plan %s; give the plan_hash mc_build_prepare answered with it", planID)
	case p.Expired(b.now()):
		return nil, fmt.Errorf("plan %s expired at %s; prepare it again, against the world as it is now", planID, p.ExpiresAt.Format(time.RFC3339))
	}
	w, err := t.session()
	if err != nil {
		return nil, err
	}
	g := w.Level().Game()
	if g.Version != p.Version {
		return nil, fmt.Errorf("plan %s is for version %s and the world is %s; prepare it in this world", planID, p.Version, g.Version)
	}
	if mode == ModeSurvival {
		if w.Self().Snapshot().Dead {
			return nil, errors.New("the bot is dead and cannot build: call mc_respawn first")
		}
		have := carried(w)
		var short []string
		for _, m := range p.Materials {
			if have[m.Item] < m.Need {
				short = append(short, fmt.Sprintf("%d %s (has %d)", m.Need, m.Item, have[m.Item]))
			}
		}
		if len(short) > 0 {
			return nil, fmt.Errorf("the bot lacks materials for this plan: it needs %s; get them (mc_obtain, mc_collect, or ask a player) and apply again, or use mode commands where the bot may use /setblock", strings.Join(short, ", "))
		}
		if len(p.Unplaceable) > 0 {
			return nil, fmt.Errorf("no item places %s, so a survival apply cannot build this plan; use mode commands", strings.Join(p.Unplaceable, ", "))
		}
	}
	id := opID(key, planID)
	op := &buildOp{ID: id, PlanID: planID, PlanHash: planHash, Key: key, Mode: mode, Status: StatusRunning, Total: len(p.Writes), Version: p.Version}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	op.cancel = cancel
	b.mu.Lock()
	for _, other := range b.order {
		// One apply at a time: two would share the bot's hands, and each
		// checks the world the other is changing.
		if o := b.ops[other]; o.Status == StatusRunning {
			b.mu.Unlock()
			return nil, fmt.Errorf("apply %s is still running; wait for it (mc_build_status) or stop it (mc_build_cancel), then apply again", o.ID)
		}
	}
	if err := b.journal.Begin(id, planID, planHash, key, p.Version, mode, p.Writes); err != nil {
		b.mu.Unlock()
		return nil, err
	}
	b.ops[id] = op
	b.order = append(b.order, id)
	callID, _ := protocol.CallID(ctx)
	ap := &applier{t: t, w: w, g: g, p: p, op: op, mode: mode, done: map[build.Pos]bool{}, callID: callID}
	b.shown = &shownPlan{planID: p.ID, writes: p.Writes, done: ap.done, running: true}
	b.mu.Unlock()

	status, reason := ap.run(runCtx)
	b.mu.Lock()
	op.Status, op.Reason, op.cancel = status, reason, nil
	if b.shown != nil && b.shown.planID == p.ID {
		b.shown = nil // the world shows what was built now
	}
	endErr := b.journal.End(id, status)
	r := op.result()
	b.mu.Unlock()
	ap.report()
	if endErr != nil {
		return nil, endErr
	}
	if status == journal.StatusCancelled && ctx.Err() != nil {
		return nil, fmt.Errorf("the apply was stopped (%v) after %d of %d blocks; mc_build_status %s says where it stands, and mc_build_undo_prepare takes them back", context.Cause(ctx), op.Placed, op.Total, id)
	}
	return r, nil
}

// applier writes one plan's blocks, one at a time, in the plan's order.
type applier struct {
	t    *Tools
	w    *session
	g    *mcdata.GameData
	p    *build.Plan
	op   *buildOp
	mode string
	done map[build.Pos]bool
	// callID is the mc_build_apply call's id.
	callID string
}

// report says how far the apply is, as mc_task_progress.
func (ap *applier) report() {
	b := ap.t.builds
	b.mu.Lock()
	done := ap.op.Placed + ap.op.Skipped + ap.op.Mismatched
	b.mu.Unlock()
	// Progress is keyed by the call, as every tool's is, so MCP's
	// progress notifications find their request.
	id := ap.callID
	if id == "" {
		id = ap.op.ID
	}
	ap.t.emit("mc_task_progress", id, protocol.TaskProgress{Tool: "mc_build_apply", ID: id, Done: int64(done), Total: int64(len(ap.p.Writes))})
}

// PlanMark is a column of the plan on mc_map: its offset from the bot and
// whether every block the plan writes in it is done.
type PlanMark struct {
	DX     int  `json:"dx"`
	DZ     int  `json:"dz"`
	DY     int  `json:"dy"`
	Placed bool `json:"placed"`
}

// planMarks are the shown plan's columns within radius of center, each at
// its highest write: what the console draws as ghost blocks.
func (b *builds) planMarks(center BlockPos, radius int) []PlanMark {
	b.mu.Lock()
	defer b.mu.Unlock()
	sp := b.shown
	if sp == nil || !sp.running && !b.now().Before(sp.expires) {
		return nil
	}
	type column struct {
		top  int
		open bool
	}
	cols := map[[2]int]*column{}
	var order [][2]int
	for _, w := range sp.writes {
		k := [2]int{w.Pos.X - center.X, w.Pos.Z - center.Z}
		if abs(k[0]) > radius || abs(k[1]) > radius {
			continue
		}
		c := cols[k]
		if c == nil {
			c = &column{top: w.Pos.Y}
			cols[k] = c
			order = append(order, k)
		}
		c.top = max(c.top, w.Pos.Y)
		c.open = c.open || !sp.done[w.Pos]
	}
	out := make([]PlanMark, 0, len(order))
	for _, k := range order {
		c := cols[k]
		out = append(out, PlanMark{DX: k[0], DZ: k[1], DY: c.top - center.Y, Placed: !c.open})
	}
	return out
}

// run applies every write; the status and reason say how it ended.
func (ap *applier) run(ctx context.Context) (status, reason string) {
	read := readerOf(ap.w)
	names := func(s mcdata.StateID) string { st, _ := ap.g.StateByID(s); return st.String() }
	ap.report()
	writes := ap.p.Writes
	for i := 0; i < len(writes); i++ {
		wr := writes[i]
		if ctx.Err() != nil {
			return journal.StatusCancelled, "the apply was cancelled; what it wrote stays"
		}
		if n := ap.fillRun(writes[i:], read); n > 1 {
			if err := ap.fill(ctx, writes[i:i+n]); err != nil {
				if ctx.Err() != nil {
					return journal.StatusCancelled, "the apply was cancelled; what it wrote stays"
				}
				return journal.StatusFailed, err.Error()
			}
			i += n - 1
			continue
		}
		now, ok := read(wr.Pos)
		switch {
		case !ok:
			ap.conflict(build.Conflict{Pos: wr.Pos, Expected: wr.Before, Found: "unloaded"})
			continue
		case now == wr.AfterID && !wr.Placed:
			// The other half, written by its partner's placement.
			ap.wrote(wr, wr.After)
			continue
		case !wr.Placed && ap.mode == ModeSurvival && wr.Partner != nil && ap.done[*wr.Partner]:
			// The partner's item makes this half as the game chooses (or
			// does not); the hands cannot place it alone.
			got, err := ap.partnerMade(ctx, wr)
			if err == nil && got == wr.BeforeID && ap.g.IsAir(wr.AfterID) {
				// The game takes a door's upper half with its lower; a
				// server that leaves it standing has it dug by hand.
				got, err = ap.survival(ctx, wr)
			}
			if err != nil {
				if ctx.Err() != nil {
					return journal.StatusCancelled, "the apply was cancelled; what it wrote stays"
				}
				return journal.StatusFailed, err.Error()
			}
			if got == wr.AfterID {
				ap.wrote(wr, wr.After)
			} else {
				ap.mismatch(wr, names(got))
			}
			continue
		case now != wr.BeforeID:
			ap.conflict(build.Conflict{Pos: wr.Pos, Expected: wr.Before, Found: names(now)})
			continue
		case !wr.Placed && ap.mode == ModeSurvival:
			// Its partner was not placed (a conflict there), so nothing
			// makes this half: no item places an upper half alone.
			ap.mismatch(wr, names(now))
			continue
		}
		got, err := ap.write(ctx, wr)
		if err != nil {
			if ctx.Err() != nil {
				return journal.StatusCancelled, "the apply was cancelled; what it wrote stays"
			}
			return journal.StatusFailed, err.Error()
		}
		if got == wr.AfterID {
			ap.wrote(wr, wr.After)
		} else {
			ap.mismatch(wr, names(got))
		}
	}
	return journal.StatusApplied, ""
}

func (ap *applier) wrote(wr build.Write, after string) {
	b := ap.t.builds
	rec := build.Write{Pos: wr.Pos, Before: wr.Before, After: after}
	b.mu.Lock()
	_ = b.journal.Wrote(ap.op.ID, rec)
	ap.op.Written = append(ap.op.Written, rec)
	ap.op.Placed++
	ap.done[wr.Pos] = true
	b.mu.Unlock()
	ap.report()
}

// mismatch is a block the server made otherwise than planned: it is
// written (the journal keeps what is there, so undo takes it back) and
// reported.
func (ap *applier) mismatch(wr build.Write, got string) {
	b := ap.t.builds
	rec := build.Write{Pos: wr.Pos, Before: wr.Before, After: got}
	b.mu.Lock()
	if got != wr.Before {
		_ = b.journal.Wrote(ap.op.ID, rec)
		ap.op.Written = append(ap.op.Written, rec)
	}
	ap.op.Mismatched++
	ap.op.Mismatches = append(ap.op.Mismatches, Mismatch{Pos: wr.Pos, Wanted: wr.After, Got: got})
	ap.done[wr.Pos] = true
	b.mu.Unlock()
	ap.report()
}

func (ap *applier) conflict(c build.Conflict) {
	b := ap.t.builds
	b.mu.Lock()
	_ = b.journal.Skipped(ap.op.ID, c)
	ap.op.Skipped++
	ap.op.Conflicts = append(ap.op.Conflicts, c)
	b.mu.Unlock()
	ap.report()
}

// write makes one block and answers what the world holds there after.
func (ap *applier) write(ctx context.Context, wr build.Write) (mcdata.StateID, error) {
	if ap.mode == ModeCommands {
		return ap.setblock(ctx, wr)
	}
	return ap.survival(ctx, wr)
}

// maxFillRun is the longest row one /fill writes: a row of a 64-wide plan.
const maxFillRun = 64

// fillRun is how many writes from the first one /fill may write at once,
// in commands mode: a row along x of one single-part block, each position
// still holding what the plan saw (so the fill overwrites no one's
// change); 0 or 1 when the first goes alone.
func (ap *applier) fillRun(ws []build.Write, read build.Reader) int {
	if ap.mode != ModeCommands || len(ws) < 2 {
		return 0
	}
	first := ws[0]
	after, _ := ap.g.StateByID(first.AfterID)
	if first.Partner != nil || material.PartsOf(after) != material.OnePart {
		return 0
	}
	n := 0
	for _, w := range ws {
		if n == maxFillRun || w.AfterID != first.AfterID || w.Partner != nil || w.Pos.Y != first.Pos.Y || w.Pos.Z != first.Pos.Z || w.Pos.X != first.Pos.X+n {
			break
		}
		if s, ok := read(w.Pos); !ok || s != w.BeforeID {
			break
		}
		n++
	}
	return n
}

// fill writes a row with one /fill and reads back every block of it.
func (ap *applier) fill(ctx context.Context, ws []build.Write) error {
	a, b := ws[0].Pos, ws[len(ws)-1].Pos
	cmd := fmt.Sprintf("fill %d %d %d %d %d %d minecraft:%s", a.X, a.Y, a.Z, b.X, b.Y, b.Z, ws[0].After)
	if _, err := ap.w.Talk().Command(ctx, cmd, commandReplyWait); err != nil {
		return sendErr(err)
	}
	read := readerOf(ap.w)
	all := func() bool {
		for _, w := range ws {
			if s, ok := read(w.Pos); !ok || s == w.BeforeID {
				return false
			}
		}
		return true
	}
	limit := ap.t.builds.commandTicks
	if err := ap.w.Core().Await(ctx, limit, all, ap.w.Level().Changed); err != nil && ctx.Err() != nil {
		return context.Cause(ctx)
	}
	names := func(s mcdata.StateID) string { st, _ := ap.g.StateByID(s); return st.String() }
	for _, w := range ws {
		s, _ := read(w.Pos)
		switch s {
		case w.AfterID:
			ap.wrote(w, w.After)
		case w.BeforeID:
			return fmt.Errorf("the server did not change %v within %d ticks of /fill; the bot may lack command permission (on a LAN world, open it with cheats on) — apply in mode survival instead", w.Pos, limit)
		default:
			ap.mismatch(w, names(s))
		}
	}
	return nil
}

// setblock writes with /setblock and waits for the server's block change.
func (ap *applier) setblock(ctx context.Context, wr build.Write) (mcdata.StateID, error) {
	cmd := fmt.Sprintf("setblock %d %d %d minecraft:%s", wr.Pos.X, wr.Pos.Y, wr.Pos.Z, wr.After)
	if _, err := ap.w.Talk().Command(ctx, cmd, commandReplyWait); err != nil {
		return 0, sendErr(err)
	}
	return ap.await(ctx, wr)
}

// commandReplyWait is how long /setblock's reply is waited for: not at
// all, since the block change is what the apply waits on, on the tick.
var commandReplyWait = talk.ReplyWait{Max: 1}

// await waits, on the session's tick, until the position holds something
// other than before (or the bound passes) and answers what it holds.
func (ap *applier) await(ctx context.Context, wr build.Write) (mcdata.StateID, error) {
	read := readerOf(ap.w)
	changed := func() bool { s, ok := read(wr.Pos); return ok && s != wr.BeforeID }
	limit := ap.t.builds.commandTicks
	err := ap.w.Core().Await(ctx, limit, changed, ap.w.Level().Changed)
	if err != nil && ctx.Err() != nil {
		return 0, context.Cause(ctx)
	}
	s, _ := read(wr.Pos)
	if s == wr.BeforeID {
		return 0, fmt.Errorf("the server did not change %v within %d ticks of /setblock; the bot may lack command permission (on a LAN world, open it with cheats on) — apply in mode survival instead", wr.Pos, limit)
	}
	return s, nil
}

// survival writes with the bot's hands: it digs what is there when it is
// not air, then places the item that makes the block, from where the
// game's placement gives the planned facing (a door faces the way its
// placer looks), and not from inside the block.
func (ap *applier) survival(ctx context.Context, wr build.Write) (mcdata.StateID, error) {
	read := readerOf(ap.w)
	before, _ := ap.g.StateByID(wr.BeforeID)
	if !ap.g.IsAir(wr.BeforeID) && !dig.Replaceable(before.Block.Name) {
		r, err := ap.w.Dig().Dig(ctx, wr.Pos.BlockPos())
		if err != nil {
			return 0, err
		}
		if !r.Dug {
			return 0, fmt.Errorf("the bot could not clear %v for the plan: %s", wr.Pos, r.Reason)
		}
	}
	if ap.g.IsAir(wr.AfterID) {
		s, _ := read(wr.Pos)
		return s, nil
	}
	after, _ := ap.g.StateByID(wr.AfterID)
	items, ok := material.ItemsFor(ap.g, after.Block)
	if !ok || len(items) == 0 {
		return 0, fmt.Errorf("no item places %s; apply in mode commands", after.Block.Name)
	}
	if stand, ok := placerSpot(after, wr.Pos); ok {
		// Best effort: when the spot cannot be reached, the placement
		// still happens and a different facing is reported as a mismatch.
		_ = ap.standAt(ctx, stand)
	} else if ap.inside(wr.Pos) {
		_ = ap.standAt(ctx, ap.outside(wr.Pos))
	}
	if ctx.Err() != nil {
		return 0, context.Cause(ctx)
	}
	r, err := ap.w.Dig().Place(ctx, items[0], wr.Pos.BlockPos())
	if err != nil {
		return 0, err
	}
	if !r.Placed {
		return 0, fmt.Errorf("the bot could not place %s at %v: %s", items[0], wr.Pos, r.Reason)
	}
	s, _ := read(wr.Pos)
	return s, nil
}

// partnerMade waits, on the tick and bounded, for the half of a two-part
// block that its partner's placement makes (the game writes it in the same
// tick; a server may send it a moment later), and answers what is there.
func (ap *applier) partnerMade(ctx context.Context, wr build.Write) (mcdata.StateID, error) {
	read := readerOf(ap.w)
	changed := func() bool { s, ok := read(wr.Pos); return ok && s != wr.BeforeID }
	if err := ap.w.Core().Await(ctx, partnerTicks, changed, ap.w.Level().Changed); err != nil && ctx.Err() != nil {
		return 0, context.Cause(ctx)
	}
	s, _ := read(wr.Pos)
	return s, nil
}

// partnerTicks bounds the wait for a door's upper half after its lower.
const partnerTicks = 20

// placerSpot is where the bot stands to place a block whose facing is the
// direction its placer looks (the game's getHorizontalDirection: doors,
// stairs, fence gates, beds): two blocks behind it, against the facing, on
// the same level, so it looks along the facing as it clicks. Upside-down
// stairs need a click on a block's top half as well, which it does not
// arrange, so they are left to the click (a mismatch says so).
func placerSpot(s mcdata.BlockState, p build.Pos) (build.Pos, bool) {
	if s.Block == nil {
		return build.Pos{}, false
	}
	switch n := s.Block.Name; {
	case strings.HasSuffix(n, "_door"), strings.HasSuffix(n, "_fence_gate"), strings.HasSuffix(n, "_bed"):
	case strings.HasSuffix(n, "_stairs"):
		if half, _ := s.Value("half"); half != "bottom" {
			return build.Pos{}, false
		}
	default:
		return build.Pos{}, false
	}
	facing, _ := s.Value("facing")
	d, ok := map[string]build.Pos{"north": {Z: -1}, "south": {Z: 1}, "east": {X: 1}, "west": {X: -1}}[facing]
	if !ok {
		return build.Pos{}, false
	}
	return build.Pos{X: p.X - 2*d.X, Y: p.Y, Z: p.Z - 2*d.Z}, true
}

// inside says the bot's body takes the block at p (feet or head).
func (ap *applier) inside(p build.Pos) bool {
	f := ap.w.feet()
	return f.X == p.X && f.Z == p.Z && (f.Y == p.Y || f.Y+1 == p.Y)
}

// outside is a spot two blocks from p away from the plan's middle, so
// that stepping there leaves the build's footprint.
func (ap *applier) outside(p build.Pos) build.Pos {
	r := ap.p.Region
	cx, cz := (r.Min.X+r.Max.X)/2, (r.Min.Z+r.Max.Z)/2
	dx, dz := p.X-cx, p.Z-cz
	if abs(dx) >= abs(dz) {
		if dx >= 0 {
			return build.Pos{X: r.Max.X + 2, Y: p.Y, Z: p.Z}
		}
		return build.Pos{X: r.Min.X - 2, Y: p.Y, Z: p.Z}
	}
	if dz >= 0 {
		return build.Pos{X: p.X, Y: p.Y, Z: r.Max.Z + 2}
	}
	return build.Pos{X: p.X, Y: p.Y, Z: r.Min.Z - 2}
}

// standAt walks the bot's feet into the block at p.
func (ap *applier) standAt(ctx context.Context, p build.Pos) error {
	at := geom.Vec3{X: float64(p.X) + 0.5, Y: float64(p.Y), Z: float64(p.Z) + 0.5}
	_, err := ap.w.Body().Go(ctx, move.Target{Kind: "go_near", Point: func() (geom.Vec3, bool) { return at, true }, Within: 0.5})
	return err
}
