package schematic_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/schematic"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

func newest() *mcdata.GameData {
	ps := mcdata.GameProtocols()
	return mcdata.Game(ps[len(ps)-1])
}

// randomSchematic fills a box with random states of g.
func randomSchematic(g *mcdata.GameData, rng *rand.Rand, w, h, l int) *schematic.Schematic {
	s := &schematic.Schematic{Width: w, Height: h, Length: l, Offset: [3]int{rng.IntN(9) - 4, -rng.IntN(3), 7}, DataVersion: 4000}
	index := map[string]int{}
	for range w * h * l {
		st, _ := g.StateByID(mcdata.StateID(rng.IntN(g.NumStates())))
		if rng.IntN(3) == 0 {
			st, _ = g.StateByID(0) // air, repeated
		}
		text := "minecraft:" + st.String()
		i, ok := index[text]
		if !ok {
			i = len(s.Palette)
			index[text] = i
			s.Palette = append(s.Palette, text)
		}
		s.Blocks = append(s.Blocks, i)
	}
	return s
}

func TestRoundTrip(t *testing.T) {
	g := newest()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range [][3]int{{1, 1, 1}, {3, 2, 5}, {16, 16, 16}, {4096, 1, 1}, {1, 4096, 1}, {7, 9, 11}} {
		s := randomSchematic(g, rng, size[0], size[1], size[2])
		file, err := schematic.Encode(s)
		if err != nil {
			t.Fatalf("%v: %v", size, err)
		}
		again, _ := schematic.Encode(s)
		if !bytes.Equal(file, again) {
			t.Errorf("%v: two encodings differ", size)
		}
		back, err := schematic.Decode(file)
		if err != nil {
			t.Fatalf("%v: %v", size, err)
		}
		if back.Width != s.Width || back.Height != s.Height || back.Length != s.Length || back.Offset != s.Offset || back.DataVersion != s.DataVersion {
			t.Fatalf("%v: read back as %d×%d×%d %v %d", size, back.Width, back.Height, back.Length, back.Offset, back.DataVersion)
		}
		for i := range s.Blocks {
			if back.Palette[back.Blocks[i]] != s.Palette[s.Blocks[i]] {
				t.Fatalf("%v: block %d is %s, want %s", size, i, back.Palette[back.Blocks[i]], s.Palette[s.Blocks[i]])
			}
		}
		states, err := back.Resolve(g)
		if err != nil || len(states) != len(back.Palette) {
			t.Fatalf("%v: resolve: %v", size, err)
		}
	}
}

// nbtFile writes a named root compound as gzipped file NBT, the way any
// tool writes a schematic, for the hostile cases.
func nbtFile(t *testing.T, root map[string]any) []byte {
	t.Helper()
	var w wire.Writer
	if err := w.NBT(root); err != nil {
		t.Fatal(err)
	}
	raw := append([]byte{10, 0, 0}, w.B[1:]...)
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(raw)
	zw.Close()
	return out.Bytes()
}

func validRoot() map[string]any {
	return map[string]any{
		"Version": int32(2), "DataVersion": int32(4000),
		"Width": int16(2), "Height": int16(1), "Length": int16(1),
		"PaletteMax": int32(2),
		"Palette":    map[string]any{"minecraft:air": int32(0), "minecraft:stone": int32(1)},
		"BlockData":  []byte{0, 1},
	}
}

func TestVersion3(t *testing.T) {
	v3 := map[string]any{"Schematic": map[string]any{
		"Version": int32(3), "DataVersion": int32(4000),
		"Width": int16(1), "Height": int16(2), "Length": int16(1),
		"Blocks": map[string]any{
			"Palette":       map[string]any{"minecraft:oak_log[axis=x]": int32(0), "minecraft:glass": int32(1)},
			"Data":          []byte{1, 0},
			"BlockEntities": []any{map[string]any{"Id": "minecraft:chest"}},
		},
	}}
	s, err := schematic.Decode(nbtFile(t, v3))
	if err != nil {
		t.Fatal(err)
	}
	if s.Palette[s.Blocks[0]] != "minecraft:glass" || s.Palette[s.Blocks[1]] != "minecraft:oak_log[axis=x]" || s.BlockEntities != 1 {
		t.Errorf("%+v", s)
	}
}

func TestHostileFilesAreRefused(t *testing.T) {
	g := newest()
	with := func(change func(m map[string]any)) []byte {
		m := validRoot()
		change(m)
		return nbtFile(t, m)
	}
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	zw.Write(make([]byte, schematic.MaxNBTBytes+10))
	zw.Close()
	hugeVarint := with(func(m map[string]any) { m["BlockData"] = []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x01} })
	for _, c := range []struct {
		name string
		file []byte
		says string
	}{
		{"empty", nil, "not gzip-compressed NBT"},
		{"plain text", []byte("hello"), "not gzip-compressed NBT"},
		{"too big", make([]byte, schematic.MaxFileBytes+1), "at most 1048576 (1 MiB)"},
		{"gzip bomb", bomb.Bytes(), "decompresses to more than"},
		{"no version", with(func(m map[string]any) { delete(m, "Version") }), "no Version"},
		{"version 1", with(func(m map[string]any) { m["Version"] = int32(1) }), "versions 2 and 3 are read"},
		{"no data version", with(func(m map[string]any) { delete(m, "DataVersion") }), "no DataVersion"},
		{"too many positions", with(func(m map[string]any) { m["Width"], m["Height"], m["Length"] = int16(100), int16(100), int16(100) }), "at most 4096 positions"},
		{"unsigned sides", with(func(m map[string]any) { m["Width"] = int16(-1) }), "at most 4096 positions"},
		{"zero side", with(func(m map[string]any) { m["Height"] = int16(0) }), "at least 1"},
		{"side of the wrong type", with(func(m map[string]any) { m["Length"] = int32(1) }), "no Length"},
		{"index out of the palette", with(func(m map[string]any) { m["BlockData"] = []byte{0, 2} }), "palette index 2 of 2"},
		{"too few blocks", with(func(m map[string]any) { m["BlockData"] = []byte{0} }), "holds 1 of its 2 positions"},
		{"too many blocks", with(func(m map[string]any) { m["BlockData"] = []byte{0, 1, 1} }), "more than its 2 positions"},
		{"cut varint", with(func(m map[string]any) { m["BlockData"] = []byte{0, 0x81} }), "ends inside a number"},
		{"long varint", hugeVarint, "longer than five bytes"},
		{"duplicate index", with(func(m map[string]any) {
			m["Palette"] = map[string]any{"minecraft:air": int32(0), "minecraft:stone": int32(0)}
		}), "each once"},
		{"negative index", with(func(m map[string]any) {
			m["Palette"] = map[string]any{"minecraft:air": int32(-1), "minecraft:stone": int32(0)}
		}), "each once"},
		{"palette larger than the box", with(func(m map[string]any) {
			m["Palette"] = map[string]any{"a": int32(0), "b": int32(1), "c": int32(2)}
		}), "3 states for 2 positions"},
		{"palette max", with(func(m map[string]any) { m["PaletteMax"] = int32(9) }), "PaletteMax is 9"},
		{"no palette", with(func(m map[string]any) { delete(m, "Palette") }), "no palette"},
		{"no block data", with(func(m map[string]any) { m["BlockData"] = "x" }), "no block data"},
		{"bad offset", with(func(m map[string]any) { m["Offset"] = []int32{1, 2} }), "Offset is not three integers"},
		{"huge state", with(func(m map[string]any) {
			m["Palette"] = map[string]any{strings.Repeat("a", 2000): int32(0), "minecraft:stone": int32(1)}
		}), "at most 1024"},
	} {
		_, err := schematic.Decode(c.file)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want it to say %q", c.name, err, c.says)
		}
	}
	// Every cut of a valid file is refused, never read as something else.
	file, _ := schematic.Encode(randomSchematic(g, rand.New(rand.NewPCG(5, 6)), 4, 4, 4))
	for n := 0; n < len(file); n++ {
		if _, err := schematic.Decode(file[:n]); err == nil {
			t.Fatalf("the first %d of %d bytes read as a schematic", n, len(file))
		}
	}
	// Trailing bytes inside the NBT stream are refused too.
	raw := append(nbtRaw(t, validRoot()), 0, 0)
	if _, err := schematic.Decode(gz(raw)); err == nil || !strings.Contains(err.Error(), "bytes after its NBT") {
		t.Errorf("trailing bytes: %v", err)
	}
}

func nbtRaw(t *testing.T, root map[string]any) []byte {
	var w wire.Writer
	if err := w.NBT(root); err != nil {
		t.Fatal(err)
	}
	return append([]byte{10, 0, 0}, w.B[1:]...)
}

func gz(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

func TestResolve(t *testing.T) {
	g := newest()
	s, _ := schematic.Decode(nbtFile(t, validRoot()))
	if _, err := s.Resolve(g); err != nil {
		t.Fatal(err)
	}
	dv, _ := schematic.DataVersionOf(g.Version)
	s.DataVersion = dv + 1
	if _, err := s.Resolve(g); err == nil || !strings.Contains(err.Error(), "newer Minecraft") {
		t.Errorf("a newer data version: %v", err)
	}
	s.DataVersion = 100
	s.Palette[1] = "minecraft:oak_stairs[facing=up]"
	if _, err := s.Resolve(g); err == nil || !strings.Contains(err.Error(), "it is one of north") {
		t.Errorf("a bad state: %v", err)
	}
}

func TestCheckName(t *testing.T) {
	for _, ok := range []string{"hut", "Tower-2", "a", "x_y", strings.Repeat("a", 64)} {
		if err := schematic.CheckName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "../hut", "a/b", "hut.schem", ".hidden", "-x", "_x", "a b", "é", strings.Repeat("a", 65), "con\x00", "C:hut", "hut\n"} {
		if err := schematic.CheckName(bad); err == nil || !strings.Contains(err.Error(), "not accepted") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestDataVersionsMatchMinecraftData checks the data version table
// against minecraft-data's protocolVersions.json, for every version
// mcdata has.
func TestDataVersionsMatchMinecraftData(t *testing.T) {
	dir := peertest.NodeModules(t)
	raw, err := os.ReadFile(filepath.Join(dir, "minecraft-data", "minecraft-data", "data", "pc", "common", "protocolVersions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var list []struct {
		MinecraftVersion string `json:"minecraftVersion"`
		DataVersion      int    `json:"dataVersion"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	for _, p := range mcdata.GameProtocols() {
		g := mcdata.Game(p)
		got, ok := schematic.DataVersionOf(g.Version)
		if !ok {
			t.Errorf("%s has no data version in dataversion.go; add minecraft-data's dataVersion for it", g.Version)
			continue
		}
		for _, v := range list {
			if v.MinecraftVersion == g.Version && v.DataVersion != got {
				t.Errorf("%s: data version %d, minecraft-data says %d", g.Version, got, v.DataVersion)
			}
		}
	}
}

// TestPrismarineNBTAgrees writes a schematic with this package and reads it
// with prismarine-nbt, and writes one with prismarine-nbt and reads it
// here: the same states at the same positions both ways.
func TestPrismarineNBTAgrees(t *testing.T) {
	node := peertest.NodeBinary(t)
	g := newest()
	dir := t.TempDir()
	s := randomSchematic(g, rand.New(rand.NewPCG(7, 8)), 5, 3, 4)
	file, err := schematic.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ours.schem")
	os.WriteFile(path, file, 0o644)
	out := peertest.RunNode(t, "schematic.js", "read", path)
	var theirs struct {
		Name        string   `json:"name"`
		Version     int      `json:"version"`
		DataVersion int      `json:"dataVersion"`
		Width       int      `json:"width"`
		Height      int      `json:"height"`
		Length      int      `json:"length"`
		Offset      []int    `json:"offset"`
		PaletteMax  int      `json:"paletteMax"`
		Blocks      []string `json:"blocks"`
	}
	if err := json.Unmarshal(out, &theirs); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if theirs.Name != "Schematic" || theirs.Version != 2 || theirs.DataVersion != s.DataVersion || theirs.Width != 5 || theirs.Height != 3 || theirs.Length != 4 ||
		!slices.Equal(theirs.Offset, s.Offset[:]) || theirs.PaletteMax != len(s.Palette) {
		t.Errorf("prismarine-nbt reads %+v", theirs)
	}
	for i, b := range s.Blocks {
		if i >= len(theirs.Blocks) || theirs.Blocks[i] != s.Palette[b] {
			t.Fatalf("block %d: prismarine-nbt reads %v, we wrote %s", i, theirs.Blocks[min(i, len(theirs.Blocks)-1)], s.Palette[b])
		}
	}

	// The other way: a schematic of 200 positions, so some indices take
	// two varint bytes.
	want := struct {
		Width       int      `json:"width"`
		Height      int      `json:"height"`
		Length      int      `json:"length"`
		Offset      []int    `json:"offset"`
		DataVersion int      `json:"dataVersion"`
		Blocks      []string `json:"blocks"`
	}{Width: 10, Height: 4, Length: 5, Offset: []int{-3, 0, 2}, DataVersion: 4786}
	for i := range 200 {
		st, _ := g.StateByID(mcdata.StateID(i * 7))
		want.Blocks = append(want.Blocks, "minecraft:"+st.String())
	}
	in, _ := json.Marshal(want)
	theirsPath := filepath.Join(dir, "theirs.schem")
	cmd := exec.Command(node, "schematic.js", "write", theirsPath)
	cmd.Dir = peertest.PeersDir(t)
	cmd.Stdin = bytes.NewReader(in)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("schematic.js write: %v\n%s", err, msg)
	}
	raw, _ := os.ReadFile(theirsPath)
	back, err := schematic.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	if back.Width != 10 || back.Height != 4 || back.Length != 5 || back.Offset != [3]int{-3, 0, 2} || back.DataVersion != 4786 || back.BlockEntities != 0 {
		t.Errorf("read %+v", back)
	}
	for i, b := range back.Blocks {
		if back.Palette[b] != want.Blocks[i] {
			t.Fatalf("block %d: %s, prismarine-nbt wrote %s", i, back.Palette[b], want.Blocks[i])
		}
	}
}

// FuzzDecode reads arbitrary bytes, gzipped and not: a schematic that
// passes its own Check, or a sentence; never a panic.
func FuzzDecode(f *testing.F) {
	g := newest()
	file, _ := schematic.Encode(randomSchematic(g, rand.New(rand.NewPCG(9, 10)), 2, 2, 2))
	f.Add(file, false)
	f.Add(nbtRaw(&testing.T{}, validRoot()), true)
	f.Fuzz(func(t *testing.T, data []byte, compress bool) {
		if compress {
			data = gz(data)
		}
		s, err := schematic.Decode(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("decoded a schematic that fails its check: %v", err)
		}
	})
}
