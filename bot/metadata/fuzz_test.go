package metadata_test

import (
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/metadata"
	"github.com/blockmate/blockmate/bot/wire"
)

// FuzzRead feeds arbitrary bytes to metadata.Read for every protocol: no
// panic, and every entry's typed accessors and plain form are safe to call.
func FuzzRead(f *testing.F) {
	f.Add([]byte{0, 0, 0x22, 6, 21, 5, 0xff})
	f.Add([]byte{8, 7, 1, 35, 0, 0, 0xff})
	f.Add([]byte{2, 6, 1, 8, 0, 2, 'h', 'i', 0xff})
	f.Add([]byte{3, 17, 1, 0xff})
	protocols := mcdata.SchemaProtocols()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range protocols {
			r := wire.NewReader(data)
			for _, e := range metadata.Read(r, p) {
				e.Plain()
				e.Byte()
				e.Text()
				e.Stack()
				e.Pose()
				e.UUID()
				e.BlockPos()
				e.GlobalPos()
				e.VillagerData()
				e.Quaternion()
				e.Vector()
			}
		}
	})
}
