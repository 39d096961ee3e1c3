package dig

import (
	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
)

// ClickPackets are the packets of one right-click with the main hand on a
// face of block p (cursor: the point clicked, relative to the block):
// use_item_on with the next prediction sequence, then the swing. The body
// (bot/move) sends them in its tick's batch, after the look that aims
// them, to open a door on its way; the sequence comes from the one counter
// every click and dig of the bot takes, so the server's acknowledgements
// stay in order. It neither sends nor waits, so the tick may call it.
func (d *Dig) ClickPackets(p world.BlockPos, face int32, cursor [3]float32) []core.Out {
	return d.usePackets(codec.UseItemOn{Hand: codec.HandMain, Pos: codec.BlockPos(p), Face: face,
		CursorX: cursor[0], CursorY: cursor[1], CursorZ: cursor[2], Sequence: d.nextSeq()})
}

// usePackets are use_item_on and the swing of the hand that goes with it.
func (d *Dig) usePackets(u codec.UseItemOn) []core.Out {
	out := []core.Out{{Packet: mcdata.ServerboundPlayBlockPlace, Build: func(w *wire.Writer) { d.c.WriteUseItemOn(w, u) }}}
	if swing, ok := d.c.SwingPacket(u.Hand); ok {
		out = append(out, core.Out{Packet: swing, Build: func(w *wire.Writer) { d.c.WriteSwing(w, u.Hand) }})
	}
	return out
}
