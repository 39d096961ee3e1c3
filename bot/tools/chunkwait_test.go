package tools

import (
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/protocol"
)

// TestWorldToolsWaitForTheChunksAroundTheBot: mc_find_blocks called right
// after the join, when only the bot's own column (dirt) has come, waits for
// the chunks around the bot (holding the tick in real time while it does)
// and finds the stone in them, rather than answering "nothing found" from
// the one column.
func TestWorldToolsWaitForTheChunksAroundTheBot(t *testing.T) {
	g := mcdata.Game(769)
	stone, dirt := g.BlockByName("stone").DefaultState, g.BlockByName("dirt").DefaultState
	w := newScriptedWorld(t, 769, nil, func(f *fakeServer, cmd string) {
		switch cmd {
		case "home":
			f.SendChunk(fakeserver.Column(769, 0, 0, 1, func(_, y, _ int) mcdata.StateID {
				if y < 64 {
					return dirt // ground to stand on, and no stone
				}
				return 0
			}))
		case "around":
			for x := int32(-2); x <= 2; x++ {
				for z := int32(-2); z <= 2; z++ {
					if x == 0 && z == 0 {
						continue
					}
					f.SendChunk(fakeserver.Column(769, x, z, 1, func(_, y, _ int) mcdata.StateID {
						if y < 60 {
							return stone
						}
						return 0
					}))
				}
			}
		}
		f.SystemLine(cmd + " sent")
	})
	w.command(t, "home", "home sent")
	waitFor(t, w.w.Core().AtRest, "the tick at rest after the join")
	found := make(chan protocol.Response, 1)
	go func() { found <- callN(t, w.d, "mc_find_blocks", `{"block_type":"stone","count":1}`) }()
	waitFor(t, func() bool { return !w.w.Core().AtRest() }, "mc_find_blocks waiting for the chunks")
	w.command(t, "around", "around sent")
	r := decode[findResult](t, <-found)
	if r.Found != 1 || len(r.Blocks) != 1 || r.Blocks[0].Block != "stone" {
		t.Errorf("mc_find_blocks right behind the join = %+v", r)
	}
}
