package codec

import (
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// Protocol 775 (26.1, 26.1.1, 26.1.2): what changed from 774. Sources:
// minecraft-data's pc/1.21.11 → pc/26.1 protocol.json diff and the
// decompiled 26.1.2 game.
//
// Also new in 26.1, and nothing the bot reads or writes yet: hands are
// typed enums (the same bytes); item components carry ItemStackTemplate;
// entity metadata adds sound variants (the generated table); play ids are
// renumbered (the generated packet table).
func init() { define(775, v775) }

// maxClocks bounds the world clocks one time update may carry: vanilla
// has two (overworld, the end), and a registry of more than this is not a
// world anyone plays.
const maxClocks = 1024

func v775(c *Codec) {
	// The time update is the world's age and a map of world clocks, keyed
	// by their index in the minecraft:world_clock registry, each a VarLong
	// of total ticks, a partial tick and a rate (26.1.2
	// ClientboundSetTimePacket, ClockNetworkState). There is no time of
	// day: it is the total ticks of the clock the dimension type names as
	// its default_clock. The server sends every clock once, then only the
	// clocks that changed, and sometimes none (a plain age update).
	c.TimeUpdate = func(r *wire.Reader) TimeUpdate {
		t := TimeUpdate{WorldAge: r.Int64(), PerClock: true}
		n := r.Count(1 + 1 + 4 + 4)
		if n > maxClocks {
			r.Failf("a time update of %d world clocks is more than %d", n, maxClocks)
			return t
		}
		t.Clocks = make([]ClockState, 0, n)
		for i := 0; i < n && r.Err() == nil; i++ {
			t.Clocks = append(t.Clocks, ClockState{Clock: r.VarInt(), TotalTicks: r.VarLong(), PartialTick: r.Float32(), Rate: r.Float32()})
		}
		return t
	}

	// Each chunk section sends a count of its fluid blocks after its block
	// count (26.1.2 LevelChunkSection.write; prismarine-chunk's
	// hasFluidCount from 26.1). Peers built on prismarine-chunk count
	// fewer fluids than vanilla (waterlogged plants), so the world must
	// not depend on it.
	c.ChunkFormat.FluidCount = true

	// An attack is a packet of its own (attack: the entity id), and
	// use_entity is a hand, the point clicked as an LpVec3 (always sent)
	// and sneaking (26.1.2 ServerboundAttackPacket and
	// ServerboundInteractPacket; minecraft-data 26.1).
	c.InteractPacket = func(i Interact) mcdata.Packet {
		if i.Attack {
			return mcdata.ServerboundPlayAttack
		}
		return mcdata.ServerboundPlayUseEntity
	}
	c.WriteInteract = func(w *wire.Writer, i Interact) {
		w.VarInt(i.EntityID)
		if i.Attack {
			return
		}
		w.VarInt(i.Hand)
		var at [3]float64
		if i.At != nil {
			at = *i.At
		}
		WriteLpVec3(w, at[0], at[1], at[2])
		w.Bool(i.Sneaking)
	}
}
