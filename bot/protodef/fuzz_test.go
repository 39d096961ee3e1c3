package protodef

import (
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// FuzzSkipDecode reads arbitrary bytes as every component value, metadata
// value and particle of every protocol, with Skip and with Decode (no
// hook, so nested stacks read by the schema alone): no panic, and where
// Decode succeeds Skip succeeds and ends at the same byte.
func FuzzSkipDecode(f *testing.F) {
	f.Add([]byte{0x03, 0x05})
	f.Add([]byte{0x0a, 0x01, 0x0c, 0x05, 0x00})
	f.Add([]byte{0x01, 0x40, 0x23, 0x00, 0x00})
	f.Add([]byte{0x0d, 0x3f, 0x80, 0, 0, 0x40, 0, 0, 0})
	type root struct {
		p int32
		t *Type
	}
	var roots []root
	for _, p := range mcdata.SchemaProtocols() {
		s, err := For(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, n := range []string{"SlotComponent", "Particle", "entityMetadataEntry", "Slot"} {
			roots = append(roots, root{p, s.Type(n)})
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, rt := range roots {
			r := wire.NewReader(data)
			v := NewDecoder(r, nil).Decode(rt.t)
			if r.Err() != nil {
				continue
			}
			v.Plain()
			left := r.Remaining()
			r = wire.NewReader(data)
			NewDecoder(r, nil).Skip(rt.t)
			if r.Err() != nil || r.Remaining() != left {
				t.Fatalf("protocol %d %s: Decode left %d bytes, Skip %d (%v)", rt.p, rt.t.Name, left, r.Remaining(), r.Err())
			}
		}
	})
}
