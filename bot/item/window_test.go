package item_test

import (
	"bytes"
	"embed"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/mdtest"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// The window_items fixtures: a player inventory of 46 varied stacks (empty
// slots, plain stacks, enchanted tools, a named sword, books, potions,
// food, a shulker box with contents, a bundle, fireworks, a banner …) as
// minecraft-protocol serializes it, for the oldest and the newest protocol.
// itemvectors.js writes them; TestWindowFixturesAreCurrent checks they are
// what it writes today (`go test ./bot/item -run Fixtures -update` rewrites
// them).
//
//go:embed testdata/window_items_767.bin testdata/window_items_775.bin
var windowFixtures embed.FS

var windowProtocols = []int32{767, 775}

var update = flag.Bool("update", false, "rewrite the window_items fixtures from itemvectors.js")

func windowFixture(t testing.TB, p int32) []byte {
	b, err := windowFixtures.ReadFile(fmt.Sprintf("testdata/window_items_%d.bin", p))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readWindow reads a window_items payload: window id, state id, the
// stacks, the carried stack.
func readWindow(r *wire.Reader, p int32) []item.Stack {
	if p < 768 {
		r.Byte()
	} else {
		r.VarInt()
	}
	r.VarInt()
	stacks := item.ReadSlots(r, p)
	item.SkipSlot(r, p)
	return stacks
}

// TestWindowFixtures: each fixture reads to its end as 46 stacks, most of
// them with components.
func TestWindowFixtures(t *testing.T) {
	for _, p := range windowProtocols {
		r := wire.NewReader(windowFixture(t, p))
		stacks := readWindow(r, p)
		withComponents := 0
		for _, s := range stacks {
			if len(s.Components) > 0 {
				withComponents++
			}
		}
		if r.Err() != nil || r.Remaining() != 0 || len(stacks) != 46 || withComponents < 10 {
			t.Errorf("protocol %d: %d stacks (%d with components), %v, %d left", p, len(stacks), withComponents, r.Err(), r.Remaining())
		}
	}
}

// TestWindowFixturesAreCurrent regenerates the fixtures with
// minecraft-protocol and compares.
func TestWindowFixturesAreCurrent(t *testing.T) {
	node := mdtest.Node(t)
	type corrected struct {
		Protocol int32  `json:"protocol"`
		Path     string `json:"path"`
	}
	var cs []corrected
	for _, c := range mcdata.SchemaCorrections() {
		for _, p := range c.Protocols {
			cs = append(cs, corrected{p, c.Path})
		}
	}
	for _, p := range windowProtocols {
		config, _ := json.Marshal(map[string]any{"window": p, "corrected": cs})
		cmd := exec.Command(node, "itemvectors.js", string(config))
		cmd.Dir = peertest.PeersDir(t)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("itemvectors.js: %v", err)
		}
		var got struct{ Hex string }
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		want, _ := hex.DecodeString(got.Hex)
		if *update {
			if err := os.WriteFile(filepath.Join("testdata", fmt.Sprintf("window_items_%d.bin", p)), want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !bytes.Equal(want, windowFixture(t, p)) {
			t.Errorf("protocol %d: testdata/window_items_%d.bin is not what itemvectors.js writes; rerun with -update", p, p)
		}
	}
}

// BenchmarkWindowItems decodes a window_items payload of 46 varied stacks
// (components kept as bytes, not decoded); slots/s is the figure.
func BenchmarkWindowItems(b *testing.B) {
	for _, p := range windowProtocols {
		data := windowFixture(b, p)
		b.Run(fmt.Sprint(p), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				r := wire.NewReader(data)
				if stacks := readWindow(r, p); len(stacks) != 46 || r.Err() != nil {
					b.Fatal(r.Err())
				}
			}
			b.ReportMetric(float64(46*b.N)/b.Elapsed().Seconds(), "slots/s")
		})
	}
}

// BenchmarkWindowItemsAccessors is the same read followed by what the
// inventory looks at for every stack: damage, custom name, enchantments.
func BenchmarkWindowItemsAccessors(b *testing.B) {
	for _, p := range windowProtocols {
		data := windowFixture(b, p)
		b.Run(fmt.Sprint(p), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, s := range readWindow(wire.NewReader(data), p) {
					s.Damage()
					s.DisplayName()
					s.Enchantments()
				}
			}
			b.ReportMetric(float64(46*b.N)/b.Elapsed().Seconds(), "slots/s")
		})
	}
}
