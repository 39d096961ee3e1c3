package bot

import (
	"io"
	"net"
	"testing"
	"time"

	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/metadata"
	"github.com/blockmate/blockmate/bot/wire"
	blocks "github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

// fuzzWorld is a session with every feature attached over a connection
// whose writes vanish, configured (dimension types, biomes) and logged in,
// so that chunk data is decoded.
func fuzzWorld(proto int32) *Session {
	a, b := net.Pipe()
	go func() { _, _ = io.Copy(io.Discard, b) }()
	w, err := Offline(a, proto, nil, Options{Clock: core.NewManualClock(time.Unix(1_700_000_000, 0))})
	if err != nil {
		panic(err)
	}
	for _, p := range fakeserver.OfflineSetup(proto) {
		if err := w.cs.Route(p.Packet, p.Body); err != nil {
			panic(err)
		}
	}
	return w
}

// FuzzPacket feeds arbitrary payloads to the handlers of every clientbound
// packet in login, configuration and play, for each protocol version,
// through the session's router with every feature attached. The first byte
// picks the version and state, the second the packet id; the rest is the
// payload. No input may panic a handler.
func FuzzPacket(f *testing.F) {
	releases := mcdata.Releases()
	seed := func(vi int, p mcdata.Packet, build func(w *wire.Writer)) {
		id, ok := mcdata.For(int32(releases[vi].Protocol)).ID(p)
		if !ok {
			return
		}
		var w wire.Writer
		build(&w)
		sel := byte(vi)*3 + byte(p.State()-mcdata.StateLogin)
		f.Add(append([]byte{sel, byte(id)}, w.Bytes()...))
	}
	for vi := range releases {
		seed(vi, mcdata.ClientboundPlaySystemChat, func(w *wire.Writer) { fakeserver.NBTTranslate(w, "chat.type.text", "a", "b"); w.Bool(false) })
		seed(vi, mcdata.ClientboundPlayPlayerInfo, func(w *wire.Writer) {
			w.Byte(0x3f)
			w.VarInt(1)
			w.UUID([16]byte{1})
			w.String("x")
			w.VarInt(0)
		})
		seed(vi, mcdata.ClientboundPlayPosition, func(w *wire.Writer) { w.Raw(make([]byte, 64)) })
		seed(vi, mcdata.ClientboundPlayLogin, func(w *wire.Writer) { w.Raw(make([]byte, 40)) })
		seed(vi, mcdata.ClientboundPlayUpdateHealth, func(w *wire.Writer) { w.Float32(0); w.VarInt(3); w.Float32(0) })
		seed(vi, mcdata.ClientboundPlayEntityMetadata, func(w *wire.Writer) { w.VarInt(0); w.Byte(1); w.VarInt(1); w.VarInt(5); w.Byte(0xff) })
		seed(vi, mcdata.ClientboundConfigRegistryData, func(w *wire.Writer) {
			w.String("minecraft:chat_type")
			w.VarInt(1)
			w.String("minecraft:chat")
			w.Bool(true)
			fakeserver.NBTTranslate(w, "x")
		})
		seed(vi, mcdata.ClientboundLoginSuccess, func(w *wire.Writer) { w.UUID([16]byte{}); w.String("Theo"); w.VarInt(0) })
		// Packets some versions added: a dialog whose cancel action is
		// answered, the code of conduct, the time (26.1's clocks).
		dialog := map[string]any{"type": "minecraft:confirmation", "title": "t", "yes": map[string]any{"label": "y"},
			"no": map[string]any{"label": "n", "action": map[string]any{"type": "minecraft:custom", "id": "x:y", "payload": map[string]any{"a": int8(1)}}}}
		seed(vi, mcdata.ClientboundPlayShowDialog, func(w *wire.Writer) { w.VarInt(0); _ = w.NBT(dialog) })
		seed(vi, mcdata.ClientboundConfigShowDialog, func(w *wire.Writer) { _ = w.NBT(dialog) })
		// Digging: the bot's own haste (entity 42, the login's) and its
		// removal, a block_changed_ack.
		seed(vi, mcdata.ClientboundPlayEntityEffect, func(w *wire.Writer) { w.VarInt(42); w.VarInt(2); w.VarInt(1); w.VarInt(-1); w.Byte(6) })
		seed(vi, mcdata.ClientboundPlayRemoveEntityEffect, func(w *wire.Writer) { w.VarInt(42); w.VarInt(2) })
		seed(vi, mcdata.ClientboundPlayAcknowledgePlayerDigging, func(w *wire.Writer) { w.VarInt(7) })
		seed(vi, mcdata.ClientboundConfigCodeOfConduct, func(w *wire.Writer) { w.String("Be nice.") })
		seed(vi, mcdata.ClientboundPlayUpdateTime, func(w *wire.Writer) {
			w.Int64(1)
			w.VarInt(1)
			w.VarInt(0)
			w.VarLong(6000)
			w.Float32(0)
			w.Float32(1)
		})
		// Inventory: a window of two stacks (one with a damage component),
		// a slot, the cursor, a container opening.
		seed(vi, mcdata.ClientboundPlayWindowItems, func(w *wire.Writer) {
			w.VarInt(0)
			w.VarInt(3)
			w.VarInt(2)
			w.VarInt(5)
			w.VarInt(1)
			w.VarInt(0)
			w.VarInt(0)
			w.VarInt(1)
			w.VarInt(800)
			w.VarInt(1)
			w.VarInt(0)
			w.VarInt(3) // damage
			w.VarInt(7)
			w.VarInt(0)
		})
		seed(vi, mcdata.ClientboundPlaySetSlot, func(w *wire.Writer) {
			w.VarInt(0)
			w.VarInt(4)
			w.Int16(36)
			w.VarInt(2)
			w.VarInt(1)
			w.VarInt(0)
			w.VarInt(0)
		})
		seed(vi, mcdata.ClientboundPlaySetCursorItem, func(w *wire.Writer) { w.VarInt(1); w.VarInt(1); w.VarInt(0); w.VarInt(0) })
		seed(vi, mcdata.ClientboundPlayOpenWindow, func(w *wire.Writer) { w.VarInt(3); w.VarInt(2); fakeserver.NBTString(w, "Chest") })

		// The world and entity packets.
		proto := int32(releases[vi].Protocol)
		g := mcdata.Game(proto)
		seed(vi, mcdata.ClientboundPlayMapChunk, func(w *wire.Writer) {
			stone := g.BlockByName("stone").DefaultState
			c := fakeserver.Column(proto, 0, 0, 1, func(x, y, z int) mcdata.StateID {
				if y < 0 || (x+z)%5 == 0 && y < 10 {
					return stone
				}
				return 0
			})
			c.BlockEntities = []blocks.BlockEntity{{Pos: blocks.BlockPos{X: 1, Y: 2, Z: 3}, Type: 1, NBT: []byte{10, 0}}}
			w.Raw(blocks.AppendChunk(nil, c, fakeserver.OverworldLayout(proto)))
		})
		seed(vi, mcdata.ClientboundPlayMultiBlockChange, func(w *wire.Writer) { w.Int64(0); w.VarInt(2); w.VarLong(1<<12 | 0x123); w.VarLong(5 << 12) })
		seed(vi, mcdata.ClientboundPlayBlockChange, func(w *wire.Writer) { w.Int64(64); w.VarInt(1) })
		seed(vi, mcdata.ClientboundPlayUnloadChunk, func(w *wire.Writer) { w.Int32(0); w.Int32(0) })
		seed(vi, mcdata.ClientboundPlayUpdateViewPosition, func(w *wire.Writer) { w.VarInt(3); w.VarInt(-3) })
		seed(vi, mcdata.ClientboundPlaySpawnEntity, func(w *wire.Writer) {
			w.Raw(fakeserver.SpawnBody(proto, 5, [16]byte{5}, g.EntityByName("item").ID, 1, 64, 1))
		})
		seed(vi, mcdata.ClientboundPlayEntityMetadata, func(w *wire.Writer) {
			w.VarInt(5)
			w.Byte(8)
			names, _ := metadata.TypeNames(proto)
			for i, n := range names {
				if n == "item_stack" {
					w.VarInt(int32(i))
				}
			}
			w.VarInt(1)
			w.VarInt(1)
			w.VarInt(0)
			w.VarInt(0)
			w.Byte(0xff)
		})
		seed(vi, mcdata.ClientboundPlayEntityTeleport, func(w *wire.Writer) { w.VarInt(5); w.Raw(make([]byte, 60)) })
		seed(vi, mcdata.ClientboundPlaySetPassengers, func(w *wire.Writer) { w.VarInt(5); w.VarInt(1); w.VarInt(5) })
		seed(vi, mcdata.ClientboundPlayBundleDelimiter, func(w *wire.Writer) {})
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 2 {
			return
		}
		vi := int(b[0]/3) % len(releases)
		state := mcdata.StateLogin + mcdata.State(b[0]%3)
		w := fuzzWorld(int32(releases[vi].Protocol))
		defer w.cs.Leave()
		p := w.cs.Codec.Packets.Lookup(state, mcdata.Clientbound, int32(b[1]))
		if p == mcdata.PacketNone {
			return
		}
		_ = w.cs.Route(p, b[2:])
	})
}
