package entity

import (
	"testing"

	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/players"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/internal/testkit/offline"
)

// streamPackets are the packets FuzzEntityStream mixes.
var streamPackets = []mcdata.Packet{
	mcdata.ClientboundPlaySpawnEntity, mcdata.ClientboundPlayRelEntityMove, mcdata.ClientboundPlayEntityMoveLook,
	mcdata.ClientboundPlayEntityLook, mcdata.ClientboundPlayEntityHeadRotation, mcdata.ClientboundPlayEntityTeleport,
	mcdata.ClientboundPlayEntityVelocity, mcdata.ClientboundPlayEntityDestroy, mcdata.ClientboundPlaySetPassengers,
	mcdata.ClientboundPlayEntityMetadata, mcdata.ClientboundPlayEntityStatus, mcdata.ClientboundPlayBundleDelimiter,
	mcdata.ClientboundPlayPlayerInfo, mcdata.ClientboundPlayRespawn,
}

// FuzzEntityStream feeds a stream of entity packets built from the input
// (each: a byte choosing the packet, a length byte, that many payload
// bytes) to the entity feature, and checks after each that nothing
// panicked, the table stays within MaxEntities and the UUID index points
// at entities with that UUID.
func FuzzEntityStream(f *testing.F) {
	proto := int32(769)
	spawn := fakeserver.SpawnBody(proto, 7, [16]byte{7}, 0, 1, 2, 3)
	f.Add(append([]byte{0, byte(len(spawn))}, spawn...))
	f.Add(append(append([]byte{11, 0, 0, byte(len(spawn))}, spawn...), 1, 8, 7, 0, 16, 0, 0, 0, 0, 1, 11, 0, 7, 3, 1, 1, 7))
	f.Add([]byte{8, 4, 7, 2, 7, 7, 7, 2, 1, 7})
	f.Fuzz(func(t *testing.T, b []byte) {
		var e *Entities
		o := offline.New(t, proto, func(s *core.Session) {
			reg := registry.Attach(s)
			e = Attach(s, players.Attach(s), self.Attach(s, reg, self.Options{}), Options{})
		})
		for len(b) >= 2 {
			p := streamPackets[int(b[0])%len(streamPackets)]
			n := min(int(b[1]), len(b)-2)
			payload := b[2 : 2+n]
			b = b[2+n:]
			_ = o.RouteErr(p, func(w *wire.Writer) { w.Raw(payload) })
			e.mu.RLock()
			if len(e.table) > MaxEntities {
				t.Fatalf("%d entities", len(e.table))
			}
			for id, eid := range e.byUUID {
				if ent := e.table[eid]; ent == nil || ent.UUID != id {
					t.Fatalf("the UUID index points %x at %d, which is %+v", id, eid, ent)
				}
			}
			e.mu.RUnlock()
		}
	})
}
