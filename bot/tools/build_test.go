package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/build"
	"github.com/blockmate/blockmate/bot/build/journal"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/protocol"
)

// newBuildWorld is a bot in a scripted world of stone below y 64 and air
// above, in chunk 0 0, whose server runs /setblock as the game does (the
// block change of the state named) and "poke x y z state", another
// player's change, answered with the system line "poked". The tools keep
// their schematics and journal in dir.
func newBuildWorld(t *testing.T, proto int32, dir string) *scriptedWorld {
	return newBuildWorldHolding(t, proto, dir, nil)
}

// newBuildWorldHolding is newBuildWorld whose server leaves unanswered
// the commands hold says to, as a server busy or refusing does.
func newBuildWorldHolding(t *testing.T, proto int32, dir string, hold func(cmd string) bool) *scriptedWorld {
	t.Helper()
	g := mcdata.Game(proto)
	stone := g.BlockByName("stone").DefaultState
	sw := &scriptedWorld{rec: fakeserver.NewRecorder(t)}
	blockChange := func(f *fakeServer, x, y, z int, s mcdata.StateID) {
		f.Send(mcdata.ClientboundPlayBlockChange, func(w *wire.Writer) {
			w.Int64(int64(x&0x3ffffff)<<38 | int64(z&0x3ffffff)<<12 | int64(y&0xfff))
			w.VarInt(int32(s))
		})
	}
	sw.port = fakeserver.StartWorld(t, proto, func(f *fakeServer) {
		f.Login(-1)
		f.Configure()
		f.Play(42, 0.5, 64, 0.5)
		f.SendChunk(fakeserver.Column(proto, 0, 0, 0, func(x, y, z int) mcdata.StateID {
			if y < 64 {
				return stone
			}
			return 0
		}))
		f.SystemLine("ready")
		for {
			p, r := f.Next()
			if r == nil {
				return
			}
			if p != mcdata.ServerboundPlayChatCommand {
				continue
			}
			cmd := r.String(32767)
			sw.mu.Lock()
			sw.cmds = append(sw.cmds, cmd)
			sw.mu.Unlock()
			if hold != nil && hold(cmd) {
				continue
			}
			fields := strings.Fields(cmd)
			if len(fields) == 8 && fields[0] == "fill" {
				var c [6]int
				for i := range c {
					c[i], _ = strconv.Atoi(fields[1+i])
				}
				st, err := g.ParseState(fields[7])
				if err != nil {
					f.SystemLine("bad state " + fields[7])
					continue
				}
				for y := c[1]; y <= c[4]; y++ {
					for z := c[2]; z <= c[5]; z++ {
						for x := c[0]; x <= c[3]; x++ {
							blockChange(f, x, y, z, st.ID)
						}
					}
				}
				continue
			}
			if len(fields) != 5 || (fields[0] != "setblock" && fields[0] != "poke") {
				continue
			}
			x, _ := strconv.Atoi(fields[1])
			y, _ := strconv.Atoi(fields[2])
			z, _ := strconv.Atoi(fields[3])
			st, err := g.ParseState(fields[4])
			if err != nil {
				f.SystemLine("bad state " + fields[4])
				continue
			}
			blockChange(f, x, y, z, st.ID)
			if fields[0] == "poke" {
				f.SystemLine("poked")
			}
		}
	})
	sw.start(t, proto, bot.Options{})
	sw.t.SetFolder(dir)
	sw.rec.WaitFor(t, "mc_system_chat", func(p string) bool { return strings.Contains(p, `"message":"ready"`) })
	return sw
}

// setblocks counts the writing commands the server received (/setblock
// and /fill).
func (sw *scriptedWorld) setblocks() int {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	n := 0
	for _, c := range sw.cmds {
		if strings.HasPrefix(c, "setblock ") || strings.HasPrefix(c, "fill ") {
			n++
		}
	}
	return n
}

// hutRecipe is a 5×5 hut of planks, three high, walls only, with a door
// in the south wall: the hut.
const hutRecipe = `{"version":1,"operations":[
 {"op":"box","min":{"x":2,"y":64,"z":2},"max":{"x":6,"y":66,"z":6},"block":"oak_planks","walls":true},
 {"op":"line","from":{"x":4,"y":64,"z":6},"to":{"x":4,"y":64,"z":6},"block":"oak_door[facing=south,half=lower]"},
 {"op":"line","from":{"x":4,"y":65,"z":6},"to":{"x":4,"y":65,"z":6},"block":"oak_door[facing=south,half=upper]"}]}`

func inspectBlocks(t *testing.T, sw *scriptedWorld, lo, hi build.Pos) map[build.Pos]string {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"min": lo, "max": hi, "detail": "blocks"})
	r := decode[build.Inspection](t, callN(t, sw.d, "mc_region_inspect", string(args)))
	if len(r.Unloaded) > 0 {
		t.Fatalf("unloaded parts %+v", r.Unloaded)
	}
	out := map[build.Pos]string{}
	for _, b := range r.Blocks {
		out[b.Pos] = b.State
	}
	return out
}

// TestBuildWithCommands walks the tool chain in commands mode against a
// scripted server: inspect, prepare, a block changed by someone else
// between prepare and apply is a conflict left alone, the same key twice
// writes once, undo takes back the rest and lists a block changed after
// the apply, and a schematic exported here is imported elsewhere block
// for block.
func TestBuildWithCommands(t *testing.T) {
	dir := t.TempDir()
	sw := newBuildWorld(t, 769, dir)
	hutMin, hutMax := build.Pos{X: 2, Y: 64, Z: 2}, build.Pos{X: 6, Y: 66, Z: 6}

	// The unloaded chunk east of 15 is said, not guessed.
	ins := decode[build.Inspection](t, callN(t, sw.d, "mc_region_inspect", `{"min":{"x":14,"y":63,"z":0},"max":{"x":17,"y":64,"z":0}}`))
	if ins.Loaded != 4 || len(ins.Unloaded) != 1 || ins.Unloaded[0].Count != 4 || ins.Unloaded[0].Min.X != 16 {
		t.Fatalf("inspect across the loaded edge: %+v", ins)
	}
	if r := callN(t, sw.d, "mc_region_inspect", `{"min":{"x":0,"y":0,"z":0},"max":{"x":16,"y":16,"z":16}}`); r.OK || !strings.Contains(r.Error, "at most 4096") {
		t.Fatalf("a region of 4913 positions: %+v", r)
	}

	// expected_blocks from an inspection: accepted while the world is as
	// seen, refused once it changed.
	seenBlocks := decode[build.Inspection](t, callN(t, sw.d, "mc_region_inspect", `{"min":{"x":8,"y":64,"z":8},"max":{"x":9,"y":64,"z":8},"detail":"blocks"}`)).Blocks
	expected, _ := json.Marshal(seenBlocks)
	small := `{"version":1,"operations":[{"op":"line","from":{"x":8,"y":64,"z":8},"to":{"x":9,"y":64,"z":8},"block":"stone"}]}`
	if r := decode[PrepareResult](t, callN(t, sw.d, "mc_build_prepare", `{"recipe":`+small+`,"expected_blocks":`+string(expected)+`}`)); r.ChangedBlocks != 2 {
		t.Fatalf("prepare with what was seen: %+v", r)
	}
	sw.command(t, "poke 9 64 8 glass", "poked")
	if r := callN(t, sw.d, "mc_build_prepare", `{"recipe":`+small+`,"expected_blocks":`+string(expected)+`}`); r.OK || !strings.Contains(r.Error, "9 64 8 was air and is now glass") {
		t.Fatalf("prepare after the world changed: %+v", r)
	}
	sw.command(t, "poke 9 64 8 air", "poked")

	prep := decode[PrepareResult](t, callN(t, sw.d, "mc_build_prepare", `{"recipe":`+hutRecipe+`}`))
	// Walls of 5×5×3: 16 a layer, 48, the door's two halves among them.
	if prep.ChangedBlocks != 48 || prep.Region.Min != hutMin || prep.Region.Max != hutMax {
		t.Fatalf("prepare: %+v", prep)
	}
	want := map[string]int{"oak_planks": 46, "oak_door": 1}
	for _, m := range prep.Materials {
		if want[m.Item] != m.Need || m.Have != 0 {
			t.Errorf("material %+v, want need %d have 0", m, want[m.Item])
		}
		delete(want, m.Item)
	}
	if len(want) > 0 || len(prep.Short) != 2 {
		t.Errorf("materials %+v, short %+v", prep.Materials, prep.Short)
	}
	// Nothing was written, and the map shows the plan's 16 wall columns as
	// not yet placed, where they are.
	if n := sw.setblocks(); n != 0 {
		t.Fatalf("prepare sent %d setblocks", n)
	}
	planOnMap := func() []PlanMark {
		return decode[mapResult](t, callN(t, sw.d, "mc_map", `{"radius":8}`)).Plan
	}
	marks := planOnMap()
	if len(marks) != 16 {
		t.Fatalf("the map shows %d plan columns: %+v", len(marks), marks)
	}
	for _, m := range marks {
		if m.Placed || m.DX < 2 || m.DX > 6 || m.DZ < 2 || m.DZ > 6 || m.DY != 2 {
			t.Errorf("plan mark %+v", m)
		}
	}
	// Survival refuses first, saying what is short.
	apply := func(plan, hash, key, mode string) protocol.Response {
		return callN(t, sw.d, "mc_build_apply", fmt.Sprintf(`{"plan_id":%q,"plan_hash":%q,"idempotency_key":%q,"mode":%q}`, plan, hash, key, mode))
	}
	if r := apply(prep.PlanID, prep.PlanHash, "k0", ModeSurvival); r.OK || !strings.Contains(r.Error, "lacks materials") || !strings.Contains(r.Error, "46 oak_planks (has 0)") {
		t.Fatalf("a survival apply without materials: %+v", r)
	}
	if r := apply(prep.PlanID, strings.Repeat("0", 64), "k0", ModeCommands); r.OK || !strings.Contains(r.Error, "plan_hash does not match") {
		t.Fatalf("a wrong hash: %+v", r)
	}

	// Someone puts cobblestone in the wall's corner after the prepare.
	sw.command(t, "poke 2 64 2 cobblestone", "poked")
	res := decode[ApplyResult](t, apply(prep.PlanID, prep.PlanHash, "k1", ModeCommands))
	if res.Status != journal.StatusApplied || res.Placed != 47 || len(res.Conflicts) != 1 || res.Conflicts[0].Pos != hutMin || res.Conflicts[0].Found != "cobblestone" {
		t.Fatalf("apply: %+v", res)
	}
	got := inspectBlocks(t, sw, hutMin, hutMax)
	if got[hutMin] != "cobblestone" {
		t.Errorf("the changed block is %s, not left alone", got[hutMin])
	}
	if s := got[build.Pos{X: 4, Y: 65, Z: 6}]; !strings.HasPrefix(s, "oak_door[") || !strings.Contains(s, "half=upper") {
		t.Errorf("the door's upper half is %s", s)
	}
	if m := planOnMap(); len(m) != 0 {
		t.Errorf("the applied plan is still on the map: %+v", m)
	}
	// Rows of planks go by /fill: the walls' rows along x, less the corner
	// someone changed, and the door's halves by /setblock.
	sent := sw.setblocks()
	sw.mu.Lock()
	fills := 0
	for _, c := range sw.cmds {
		if strings.HasPrefix(c, "fill ") {
			fills++
			if strings.HasPrefix(c, "fill 2 64 2 ") {
				t.Errorf("%q overwrites the changed corner", c)
			}
		}
	}
	sw.mu.Unlock()
	if fills == 0 || sent >= 47 {
		t.Errorf("%d commands (%d fills) for 47 blocks", sent, fills)
	}
	// The same key again is the same operation, and writes nothing.
	again := decode[ApplyResult](t, apply(prep.PlanID, prep.PlanHash, "k1", ModeCommands))
	if again.OperationID != res.OperationID || !again.Repeated || again.Placed != 47 || sw.setblocks() != sent {
		t.Fatalf("repeated apply: %+v, %d setblocks", again, sw.setblocks())
	}
	st := decode[StatusResult](t, callN(t, sw.d, "mc_build_status", `{"operation_id":"`+res.OperationID+`"}`))
	if st.Status != journal.StatusApplied || st.Counters.Total != 48 || st.Counters.Conflicts != 1 || st.Counters.Left != 0 {
		t.Fatalf("status: %+v", st)
	}

	// The hut, exported, comes back 10 blocks east block for block.
	exp := decode[build.Export](t, callN(t, sw.d, "mc_schematic_export", `{"name":"hut","min":{"x":2,"y":64,"z":2},"max":{"x":6,"y":66,"z":6}}`))
	if exp.Width != 5 || exp.Height != 3 || exp.Length != 5 || len(exp.SHA256) != 64 {
		t.Fatalf("export: %+v", exp)
	}
	if _, err := os.Stat(filepath.Join(dir, "schematics", "hut.schem")); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`"hut"`, `"../hut"`, `"a/b"`} {
		r := callN(t, sw.d, "mc_schematic_export", `{"name":`+bad+`,"min":{"x":2,"y":64,"z":2},"max":{"x":6,"y":66,"z":6}}`)
		if r.OK {
			t.Errorf("export as %s was accepted", bad)
		}
	}
	cp := decode[PrepareResult](t, callN(t, sw.d, "mc_build_prepare", `{"schematic":"hut","target":{"x":8,"y":64,"z":2}}`))
	if cp.ChangedBlocks != 48 || cp.Region.Min != (build.Pos{X: 8, Y: 64, Z: 2}) {
		t.Fatalf("prepare from the schematic: %+v", cp)
	}
	decode[ApplyResult](t, apply(cp.PlanID, cp.PlanHash, "copy", ModeCommands))
	copied := inspectBlocks(t, sw, build.Pos{X: 8, Y: 64, Z: 2}, build.Pos{X: 12, Y: 66, Z: 6})
	for p, s := range got {
		if q := (build.Pos{X: p.X + 6, Y: p.Y, Z: p.Z}); copied[q] != s {
			t.Errorf("copy at %v is %s, the hut at %v is %s", q, copied[q], p, s)
		}
	}
	if r := callN(t, sw.d, "mc_build_prepare", `{"schematic":"nothere","target":{"x":8,"y":64,"z":2}}`); r.OK || !strings.Contains(r.Error, "no schematic named nothere") {
		t.Errorf("a missing schematic: %+v", r)
	}

	// Someone turns a wall block to glass after the apply: undo keeps it
	// and says so.
	sw.command(t, "poke 6 66 6 glass", "poked")
	undo := decode[UndoResult](t, callN(t, sw.d, "mc_build_undo_prepare", `{"operation_id":"`+res.OperationID+`"}`))
	if undo.ChangedBlocks != 46 || len(undo.Kept) != 1 || undo.Kept[0].Pos != (build.Pos{X: 6, Y: 66, Z: 6}) || undo.Kept[0].Found != "glass" || len(undo.Untouched) != 1 || undo.Untouched[0].Pos != hutMin {
		t.Fatalf("undo: %+v", undo)
	}
	ur := decode[ApplyResult](t, apply(undo.PlanID, undo.PlanHash, "undo-1", ModeCommands))
	if ur.Status != journal.StatusApplied || ur.Placed != 46 || len(ur.Conflicts) != 0 {
		t.Fatalf("undo apply: %+v", ur)
	}
	for p, s := range inspectBlocks(t, sw, hutMin, hutMax) {
		switch p {
		case hutMin, build.Pos{X: 6, Y: 66, Z: 6}:
			if s != "cobblestone" && s != "glass" {
				t.Errorf("the other player's block at %v became %s", p, s)
			}
		default:
			if s == "air" {
				continue
			}
			t.Errorf("%v is %s after undo", p, s)
		}
	}

	// A new start reads the journal: every apply is known, none unfinished.
	cat := protocol.NewCatalog()
	d := protocol.NewDispatcher(cat, protocol.NewBus(nil), nil)
	Register(cat, bot.NewClient(testLog(), nil, d, bot.Options{}), d).SetFolder(dir)
	list := decode[StatusListResult](t, callN(t, d, "mc_build_status", `{}`))
	if list.Count != 3 || len(list.Unfinished) != 0 || list.Operations[0].OperationID != res.OperationID || list.Operations[0].Counters.Placed != 47 {
		t.Fatalf("status list after a restart: %+v", list)
	}
}

// TestUnfinishedApplyIsReportedNotResumed: an apply the journal shows begun
// and never ended is reported as unfinished at the next start, with what
// it wrote, and nothing runs it again.
func TestUnfinishedApplyIsReportedNotResumed(t *testing.T) {
	dir := t.TempDir()
	j, _, err := journal.Open(filepath.Join(dir, "build-journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	plan := []build.Write{{Pos: build.Pos{X: 1, Y: 64, Z: 1}, Before: "air", After: "stone"}, {Pos: build.Pos{X: 2, Y: 64, Z: 1}, Before: "air", After: "stone"}}
	if err := j.Begin("op-crashed", "plan-x", strings.Repeat("a", 64), "key-x", "1.21.4", ModeCommands, plan); err != nil {
		t.Fatal(err)
	}
	if err := j.Wrote("op-crashed", plan[0]); err != nil {
		t.Fatal(err)
	}
	j.Sync()
	j.Close()

	cat := protocol.NewCatalog()
	d := protocol.NewDispatcher(cat, protocol.NewBus(nil), nil)
	c := bot.NewClient(testLog(), nil, d, bot.Options{})
	Register(cat, c, d).SetFolder(dir)
	list := decode[StatusListResult](t, callN(t, d, "mc_build_status", `{}`))
	if list.Count != 1 || len(list.Unfinished) != 1 || list.Unfinished[0] != "op-crashed" {
		t.Fatalf("status list: %+v", list)
	}
	op := list.Operations[0]
	if op.Status != StatusUnfinished || op.Counters.Placed != 1 || op.Counters.Left != 1 || !strings.Contains(op.Reason, "not resumed") {
		t.Fatalf("the unfinished apply: %+v", op)
	}
	// Its key answers with it, rather than applying anything.
	r := decode[ApplyResult](t, callN(t, d, "mc_build_apply", `{"plan_id":"plan-x","plan_hash":"`+strings.Repeat("a", 64)+`","idempotency_key":"key-x"}`))
	if r.OperationID != "op-crashed" || r.Status != StatusUnfinished || !r.Repeated {
		t.Fatalf("the key of the unfinished apply: %+v", r)
	}
}

// TestHostileSchematicFilesAreRefused: mc_build_prepare reads only plain
// files of at most 1 MiB by a checked name, and refuses a malformed one
// with a sentence.
func TestHostileSchematicFilesAreRefused(t *testing.T) {
	dir := t.TempDir()
	sdir := filepath.Join(dir, "schematics")
	if err := os.MkdirAll(sdir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(sdir, "junk.schem"), []byte("not gzip at all"), 0o600)
	os.WriteFile(filepath.Join(sdir, "huge.schem"), make([]byte, MaxSchematicFile+1), 0o600)
	os.WriteFile(filepath.Join(dir, "secret"), []byte("x"), 0o600)
	os.Symlink(filepath.Join(dir, "secret"), filepath.Join(sdir, "link.schem"))
	b := newBuilds()
	b.folder = dir
	for name, want := range map[string]string{
		"junk":    "",
		"huge":    "at most 1048576",
		"link":    "not a plain file",
		"../huge": "",
	} {
		_, err := b.readSchematic(name)
		if name == "junk" {
			if err != nil {
				t.Errorf("junk: %v", err)
			}
			g := mcdata.Game(769)
			if _, _, err := build.Import(g, []byte("not gzip at all"), build.Pos{}, 0); err == nil {
				t.Error("a file that is not a schematic was imported")
			}
			continue
		}
		if err == nil || want != "" && !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}

// TestPlanPicture: a plan's picture is a PNG of its region from above,
// each column the colour of its highest write.
func TestPlanPicture(t *testing.T) {
	g := mcdata.Game(769)
	var r build.Recipe
	if err := json.Unmarshal([]byte(hutRecipe), &r); err != nil {
		t.Fatal(err)
	}
	target, err := build.Expand(g, r)
	if err != nil {
		t.Fatal(err)
	}
	p, err := build.Prepare(g, target, func(build.Pos) (mcdata.StateID, bool) { return 0, true }, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(PlanPNG(g, p)))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 40 || b.Dy() != 40 {
		t.Fatalf("a 5×5 plan drawn %v", b)
	}
	planks := blockColor(g, g.BlockByName("oak_planks").DefaultState)
	inside := color.RGBAModel.Convert(img.At(2*8+4, 2*8+4)).(color.RGBA)
	wall := color.RGBAModel.Convert(img.At(4, 4)).(color.RGBA)
	if wall != planks || inside == planks {
		t.Errorf("the wall is %v and the inside %v; planks are %v", wall, inside, planks)
	}
}

// TestCancelStopsAnApply: mc_build_cancel stops a running apply between
// blocks; what it wrote stays, journalled, and the status says cancelled.
func TestCancelStopsAnApply(t *testing.T) {
	held := make(chan struct{}, 1)
	sw := newBuildWorldHolding(t, 769, t.TempDir(), func(cmd string) bool {
		if strings.HasPrefix(cmd, "setblock 3 64 2 ") {
			held <- struct{}{}
			return true
		}
		return false
	})
	// The held block is waited for until the cancel, however slow the
	// machine.
	sw.t.builds.commandTicks = 1 << 40
	// Stone and dirt in turn, so each block is a /setblock of its own.
	prep := decode[PrepareResult](t, callN(t, sw.d, "mc_build_prepare", `{"recipe":{"version":1,"operations":[{"op":"line","from":{"x":2,"y":64,"z":2},"to":{"x":5,"y":64,"z":2},"block":"stone"},`+
		`{"op":"line","from":{"x":3,"y":64,"z":2},"to":{"x":3,"y":64,"z":2},"block":"dirt"},{"op":"line","from":{"x":5,"y":64,"z":2},"to":{"x":5,"y":64,"z":2},"block":"dirt"}]}}`))
	done := make(chan protocol.Response, 1)
	go func() {
		done <- callN(t, sw.d, "mc_build_apply", fmt.Sprintf(`{"plan_id":%q,"plan_hash":%q,"idempotency_key":"c1","mode":"commands"}`, prep.PlanID, prep.PlanHash))
	}()
	<-held
	op := opID("c1", prep.PlanID)
	st := decode[StatusResult](t, callN(t, sw.d, "mc_build_status", `{"operation_id":"`+op+`"}`))
	if st.Status != StatusRunning || st.Counters.Placed != 1 {
		t.Fatalf("status while held: %+v", st)
	}
	// A second apply waits its turn: it is refused while one runs.
	other := decode[PrepareResult](t, callN(t, sw.d, "mc_build_prepare", `{"recipe":{"version":1,"operations":[{"op":"line","from":{"x":2,"y":65,"z":2},"to":{"x":3,"y":65,"z":2},"block":"stone"}]}}`))
	if r := callN(t, sw.d, "mc_build_apply", fmt.Sprintf(`{"plan_id":%q,"plan_hash":%q,"idempotency_key":"c2","mode":"commands"}`, other.PlanID, other.PlanHash)); r.OK || !strings.Contains(r.Error, op+" is still running") {
		t.Fatalf("a second apply while one runs: %+v", r)
	}
	decode[StatusResult](t, callN(t, sw.d, "mc_build_cancel", `{"operation_id":"`+op+`"}`))
	res := decode[ApplyResult](t, <-done)
	if res.Status != journal.StatusCancelled || res.Placed != 1 || res.Counters.Left != 3 {
		t.Fatalf("cancelled apply: %+v", res)
	}
	if n := sw.setblocks(); n != 2 {
		t.Errorf("%d writing commands sent; the cancel should stop after the held one", n)
	}
}

// TestJournalIsCompactedAtStart: a journal of many finished applies is cut
// to the newest journalKeep at the next start; the unfinished stay.
func TestJournalIsCompactedAtStart(t *testing.T) {
	dir := t.TempDir()
	j, _, err := journal.Open(filepath.Join(dir, "build-journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	w := []build.Write{{Pos: build.Pos{X: 1, Y: 64, Z: 1}, Before: "air", After: "stone"}}
	for i := 0; i < 2*journalKeep+1; i++ {
		op := fmt.Sprintf("op-%03d", i)
		if err := j.Begin(op, "plan", strings.Repeat("a", 64), op, "1.21.4", ModeCommands, w); err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			j.End(op, journal.StatusApplied)
		}
	}
	j.Close()
	cat := protocol.NewCatalog()
	d := protocol.NewDispatcher(cat, protocol.NewBus(nil), nil)
	Register(cat, bot.NewClient(testLog(), nil, d, bot.Options{}), d).SetFolder(dir)
	list := decode[StatusListResult](t, callN(t, d, "mc_build_status", `{}`))
	if list.Count != journalKeep+1 || len(list.Unfinished) != 1 || list.Unfinished[0] != "op-000" || list.Operations[list.Count-1].OperationID != fmt.Sprintf("op-%03d", 2*journalKeep) {
		t.Fatalf("after compaction: %d operations, unfinished %v", list.Count, list.Unfinished)
	}
}

// TestPlacerSpot: the bot places a block that faces where its placer looks
// from two blocks behind its facing; other blocks from anywhere.
func TestPlacerSpot(t *testing.T) {
	g := mcdata.Game(769)
	at := build.Pos{X: 10, Y: 64, Z: 10}
	for _, c := range []struct {
		state string
		want  *build.Pos
	}{
		{"oak_door[facing=east,half=lower]", &build.Pos{X: 8, Y: 64, Z: 10}},
		{"oak_stairs[facing=north,half=bottom]", &build.Pos{X: 10, Y: 64, Z: 12}},
		{"birch_fence_gate[facing=south]", &build.Pos{X: 10, Y: 64, Z: 8}},
		{"red_bed[facing=west,part=foot]", &build.Pos{X: 12, Y: 64, Z: 10}},
		{"oak_stairs[facing=north,half=top]", nil},
		{"furnace[facing=north]", nil},
		{"oak_planks", nil},
	} {
		st, err := g.ParseState(c.state)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := placerSpot(st, at)
		if ok != (c.want != nil) || ok && got != *c.want {
			t.Errorf("%s: %v %v, want %v", c.state, got, ok, c.want)
		}
	}
}
