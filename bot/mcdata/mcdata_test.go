package mcdata_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/mcdata/internal/gen"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// TestGeneratedFilesAreUpToDate regenerates the tables in memory from the
// pinned minecraft-data and compares them with the committed files.
func TestGeneratedFilesAreUpToDate(t *testing.T) {
	pkg := gen.PackageDir(filepath.Join("..", ".."))
	if _, err := os.Stat(pkg); err != nil {
		if peertest.InCI() {
			t.Fatalf("minecraft-data is not installed at %s; CI must run npm ci --prefix testdata/peers first", pkg)
		}
		t.Skip("minecraft-data is not installed; run npm ci --prefix testdata/peers")
	}
	files, err := gen.Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%s: %v; run go generate ./bot/mcdata", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date with minecraft-data; run go generate ./bot/mcdata and commit the result", name)
		}
	}
}

func TestPinnedVersionMatchesPeers(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "peers", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(`"minecraft-data": "`+mcdata.DataVersion+`"`)) {
		t.Errorf("testdata/peers/package.json does not pin minecraft-data %s, the version the tables were generated from", mcdata.DataVersion)
	}
}

func TestLookups(t *testing.T) {
	cases := []struct {
		proto int32
		p     mcdata.Packet
		id    int32
	}{
		{767, mcdata.ClientboundPlayKeepAlive, 0x26},
		{768, mcdata.ClientboundPlayKeepAlive, 0x27},
		{769, mcdata.ClientboundPlayKeepAlive, 0x27},
		{767, mcdata.ClientboundPlayPosition, 0x40},
		{769, mcdata.ServerboundPlayPlayerLoaded, 0x2a},
		{767, mcdata.ServerboundConfigFinishConfiguration, 0x03},
		{769, mcdata.ClientboundLoginSuccess, 0x02},
		// From the notes' table of the bot's packets (checked there
		// against the game's registration order at 769, 772 and 775).
		{770, mcdata.ClientboundPlayKeepAlive, 0x26},
		{773, mcdata.ClientboundPlayKeepAlive, 0x2b},
		{775, mcdata.ClientboundPlayKeepAlive, 0x2c},
		{771, mcdata.ClientboundPlayShowDialog, 0x85},
		{775, mcdata.ClientboundPlayShowDialog, 0x8c},
		{771, mcdata.ClientboundConfigShowDialog, 0x12},
		{771, mcdata.ServerboundConfigCustomClickAction, 0x08},
		{775, mcdata.ServerboundPlayCustomClickAction, 0x44},
		{773, mcdata.ClientboundConfigCodeOfConduct, 0x13},
		{773, mcdata.ServerboundConfigAcceptCodeOfConduct, 0x09},
		{775, mcdata.ClientboundPlayUpdateTime, 0x71},
		{775, mcdata.ServerboundPlayChatMessage, 0x09},
	}
	for _, c := range cases {
		tab := mcdata.For(c.proto)
		id, ok := tab.ID(c.p)
		if !ok || id != c.id {
			t.Errorf("%d %v: id %#x %v, want %#x", c.proto, c.p, id, ok, c.id)
		}
		if back := tab.Lookup(c.p.State(), c.p.Dir(), c.id); back != c.p {
			t.Errorf("%d lookup %#x gave %v, want %v", c.proto, c.id, back, c.p)
		}
	}
	if _, ok := mcdata.For(767).ID(mcdata.ServerboundPlayPlayerLoaded); ok {
		t.Error("1.21.1 has no player_loaded")
	}
	// The corrections: neither is serverbound in configuration.
	for _, r := range mcdata.Releases() {
		tab := mcdata.For(int32(r.Protocol))
		for id := int32(0); id < 16; id++ {
			if p := tab.Lookup(mcdata.StateConfig, mcdata.Serverbound, id); p.Name() == "custom_report_details" || p.Name() == "server_links" {
				t.Errorf("%d: %v should not be serverbound", r.Protocol, p)
			}
		}
	}
	if mcdata.For(1) != nil {
		t.Error("protocol 1 is not covered")
	}
	if got := mcdata.For(769).Lookup(mcdata.StatePlay, mcdata.Clientbound, 100000); got != mcdata.PacketNone {
		t.Errorf("out-of-range id gave %v", got)
	}
}

// TestReleaseList: the list is derived from minecraft-data, so it holds
// every game version of each protocol, the ones without their own data
// folder included, and nothing before 1.21.
func TestReleaseList(t *testing.T) {
	names := map[string]int{}
	prev := 0
	for _, r := range mcdata.Releases() {
		if r.Protocol <= prev {
			t.Errorf("releases are not oldest first: %d after %d", r.Protocol, prev)
		}
		prev = r.Protocol
		for _, n := range r.Names {
			names[n] = r.Protocol
		}
		if len(mcdata.MetadataTypes(int32(r.Protocol))) < 31 {
			t.Errorf("protocol %d has %d metadata types", r.Protocol, len(mcdata.MetadataTypes(int32(r.Protocol))))
		}
	}
	for name, proto := range map[string]int{"1.21": 767, "1.21.2": 768, "1.21.4": 769, "1.21.5": 770, "1.21.7": 772, "1.21.8": 772, "1.21.10": 773, "1.21.11": 774, "26.1": 775, "26.1.1": 775, "26.1.2": 775} {
		if names[name] != proto {
			t.Errorf("%s is protocol %d in the release list, want %d", name, names[name], proto)
		}
	}
	if r := mcdata.Releases(); r[0].Protocol != 767 {
		t.Errorf("the oldest release is %d, want 767", r[0].Protocol)
	}
	if mcdata.MetadataTypes(1) != nil {
		t.Error("protocol 1 has metadata types")
	}
	// Air, the one metadata value the bot reads today, is type 1 (int)
	// in every version.
	for _, r := range mcdata.Releases() {
		if mt := mcdata.MetadataTypes(int32(r.Protocol)); mt[1] != "int" {
			t.Errorf("%d: metadata type 1 is %s", r.Protocol, mt[1])
		}
	}
}

func TestTranslations(t *testing.T) {
	if s, ok := mcdata.Translate("chat.type.text"); !ok || s != "<%s> %s" {
		t.Errorf("chat.type.text = %q %v", s, ok)
	}
	if mcdata.TranslationsWithPrefix("death.") < 50 {
		t.Error("death messages are missing")
	}
}
