package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/blockmate/blockmate/api"
	"github.com/blockmate/blockmate/bot"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/metadata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/protocol"
)

// seeingWorld is a scripted world that, on the command "scene", sends a
// 3×3 of flat columns around the bot (stone below y 60, grass at 60, in
// the desert) with two oak logs standing on it, a named zombie, a diamond
// on the ground, the player alex (spawned, as flying-squid does, as entity
// type 0 with alex's UUID) and the time; and on "cut" turns one log into
// stone. Each command's reply comes after what it sent, so a tool called
// after mc_command sees it.
func seeingWorld(t *testing.T, proto int32) *scriptedWorld {
	g := mcdata.Game(proto)
	state := func(pattern string) mcdata.StateID {
		set, err := g.MatchStates(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for id := mcdata.StateID(0); ; id++ {
			if set.Has(id) {
				return id
			}
		}
	}
	stone, grass, log := state("stone"), state("grass_block[snowy=false]"), state("oak_log[axis=y]")
	logs := map[[3]int]bool{{3, 61, 4}: true, {-7, 61, 2}: true}
	metaType := func(name string) int32 {
		names, _ := metadata.TypeNames(proto)
		for i, n := range names {
			if n == name {
				return int32(i)
			}
		}
		t.Fatalf("no metadata type %s", name)
		return 0
	}
	// A clock that stands still: the tick would move the time on.
	opts := bot.Options{Clock: core.NewManualClock(time.Unix(1_700_000_000, 0))}
	return newScriptedWorldWith(t, proto, opts, nil, func(f *fakeServer, cmd string) {
		switch cmd {
		case "scene":
			for x := int32(-1); x <= 1; x++ {
				for z := int32(-1); z <= 1; z++ {
					f.SendChunk(fakeserver.Column(proto, x, z, 1, func(x, y, z int) mcdata.StateID {
						switch {
						case logs[[3]int{x, y, z}]:
							return log
						case y < 60:
							return stone
						case y == 60:
							return grass
						}
						return 0
					}))
				}
			}
			f.ListPlayers("alex")
			f.Send(mcdata.ClientboundPlaySpawnEntity, func(w *wire.Writer) {
				w.Raw(fakeserver.SpawnBody(proto, 7, [16]byte{100}, 0, -2.5, 61, 0.5))
			})
			f.Send(mcdata.ClientboundPlaySpawnEntity, func(w *wire.Writer) {
				w.Raw(fakeserver.SpawnBody(proto, 8, [16]byte{8}, g.EntityByName("zombie").ID, 4.5, 61, 0.5))
			})
			f.Send(mcdata.ClientboundPlayEntityMetadata, func(w *wire.Writer) {
				w.VarInt(8)
				w.Byte(2)
				w.VarInt(metaType("optional_component"))
				w.Bool(true)
				fakeserver.NBTString(w, "Zed")
				w.Byte(0xff)
			})
			f.Send(mcdata.ClientboundPlaySpawnEntity, func(w *wire.Writer) {
				w.Raw(fakeserver.SpawnBody(proto, 9, [16]byte{9}, g.EntityByName("item").ID, 0.5, 61, 6.5))
			})
			f.Send(mcdata.ClientboundPlayEntityMetadata, func(w *wire.Writer) {
				w.VarInt(9)
				w.Byte(8)
				w.VarInt(metaType("item_stack"))
				w.VarInt(3)
				w.VarInt(int32(g.ItemByName("diamond").ID))
				w.VarInt(0)
				w.VarInt(0)
				w.Byte(0xff)
			})
			f.Time(24000*2+500, 24000*2+14000)
			f.SystemLine("scene set")
		case "cut":
			f.Send(mcdata.ClientboundPlayBlockChange, func(w *wire.Writer) {
				w.Int64(int64(3)<<38 | int64(4)<<12 | 61)
				w.VarInt(int32(stone))
			})
			f.SystemLine("cut")
		}
	})
}

func decode[T any](t *testing.T, r protocol.Response) T {
	t.Helper()
	var v T
	if !r.OK {
		t.Fatalf("call failed: %s", r.Error)
	}
	if err := json.Unmarshal(r.Result, &v); err != nil {
		t.Fatalf("%v: %s", err, r.Result)
	}
	return v
}

func TestTheBotSeesTheWorld(t *testing.T) {
	for _, r := range mcdata.Releases() {
		proto := int32(r.Protocol)
		t.Run(fmt.Sprint(proto), func(t *testing.T) {
			w := seeingWorld(t, proto)
			if res := w.command(t, "scene", "scene set"); !res.OK {
				t.Fatal(res.Error)
			}
			w.wholeWorld(t)

			// mc_find_blocks: nearest first, from the bot's feet (0 64 0).
			find := decode[findResult](t, callN(t, w.d, "mc_find_blocks", `{"block_type":"Oak Log"}`))
			if find.Found != 2 || find.Blocks[0].Position != (BlockPos{3, 61, 4}) || find.Blocks[0].Distance != 5.8 ||
				find.Blocks[1].Position != (BlockPos{-7, 61, 2}) || find.Blocks[1].Distance != 7.9 || find.Blocks[0].Block != "oak_log[axis=y]" {
				t.Errorf("mc_find_blocks oak log = %+v", find)
			}
			raw := callN(t, w.d, "mc_find_blocks", `{"block_type":"oak_log[axis=x]","max_distance":10}`)
			if !strings.HasPrefix(string(raw.Result), `{"found":0,"blocks":[],"reason":"no oak_log[axis=x] within 10 blocks of the bot","next_step":"search farther (max_distance up to 16`) {
				t.Errorf("mc_find_blocks of a state nowhere = %s", raw.Result)
			}
			if far := decode[findResult](t, callN(t, w.d, "mc_find_blocks", `{"block_type":"gold_block","max_distance":200}`)); far.Found != 0 ||
				!strings.Contains(far.Reason, "within the loaded chunks") || far.Loaded != 16 || !strings.Contains(far.NextStep, "mc_goto") {
				t.Errorf("mc_find_blocks past the loaded chunks = %+v", far)
			}
			if res := callN(t, w.d, "mc_find_blocks", `{"block_type":"unobtainium"}`); res.OK || !strings.Contains(res.Error, "block_type") {
				t.Errorf("an unknown block: %+v", res)
			}
			if top := decode[findResult](t, callN(t, w.d, "mc_find_blocks", `{"block_type":"stone","count":3}`)); top.Found != 3 || top.Blocks[0].Distance != 5 || top.Blocks[0].Position != (BlockPos{0, 59, 0}) {
				t.Errorf("the nearest stone = %+v", top)
			}

			// mc_block_at agrees, then follows a block change.
			at := decode[blockAtResult](t, callN(t, w.d, "mc_block_at", `{"x":3,"y":61,"z":4}`))
			if at.Block != "oak_log" || at.State["axis"] != "y" || at.Biome != "desert" || at.Position != (BlockPos{3, 61, 4}) {
				t.Errorf("mc_block_at = %+v", at)
			}
			w.command(t, "cut", "cut")
			if at := decode[blockAtResult](t, callN(t, w.d, "mc_block_at", `{"x":3,"y":61,"z":4}`)); at.Block != "stone" || len(at.State) != 0 {
				t.Errorf("mc_block_at after the change = %+v", at)
			}
			if res := callN(t, w.d, "mc_block_at", `{"x":100,"y":61,"z":100}`); res.OK || !strings.Contains(res.Error, "not loaded") || !strings.Contains(res.Error, "mc_goto") {
				t.Errorf("mc_block_at of an unloaded chunk: %+v", res)
			}
			if res := callN(t, w.d, "mc_block_at", `{"x":0,"y":400,"z":0}`); res.OK || !strings.Contains(res.Error, "from y -64 to 319") {
				t.Errorf("mc_block_at above the world: %+v", res)
			}

			// mc_nearby: the zombie and the diamond, alex as a player.
			near := decode[nearbyResult](t, callN(t, w.d, "mc_nearby", `{"radius":10}`))
			if len(near.Entities) != 2 || near.Entities[0].Type != "zombie" || near.Entities[0].Name != "Zed" || !near.Entities[0].Hostile ||
				near.Entities[0].Distance != 5 || near.Entities[1].Item == nil || near.Entities[1].Item.Name != "diamond" || near.Entities[1].Hostile {
				t.Errorf("mc_nearby entities = %+v", near.Entities)
			}
			if len(near.Players) != 1 || near.Players[0].Username != "alex" || near.Players[0].Distance != 4.2 || near.Players[0].Position != (Vec3{X: -2.5, Y: 61, Z: 0.5}) {
				t.Errorf("mc_nearby players = %+v", near.Players)
			}
			// The cube of radius 10 around 0 64 0: y 54–59 stone, 60
			// grass, one log left in it (3 61 4 is stone now).
			if near.Blocks["grass_block"] != 21*21 || near.Blocks["stone"] != 21*21*6+1 || near.Blocks["oak_log"] != 1 || near.Blocks["air"] != 0 || near.UntrustedText == "" {
				t.Errorf("mc_nearby blocks = %v (%s)", near.Blocks, near.UntrustedText)
			}

			// alex in mc_list_players and mc_status, the biome, the time.
			var list struct {
				Players []struct {
					Username string
					Distance *float64
					Position *Vec3
				}
			}
			if err := json.Unmarshal(callN(t, w.d, "mc_list_players", "").Result, &list); err != nil {
				t.Fatal(err)
			}
			seen := false
			for _, p := range list.Players {
				seen = seen || p.Username == "alex"
				if p.Username == "alex" && (p.Distance == nil || *p.Distance != 4.2 || p.Position == nil || p.Position.X != -2.5) {
					t.Errorf("mc_list_players alex = %s", jsonOf(p))
				}
			}
			if !seen {
				t.Errorf("mc_list_players lacks alex: %+v", list)
			}
			st := decode[api.Status](t, callN(t, w.d, "mc_status", ""))
			if st.Biome != "desert" || len(st.PlayersInSight) != 1 || st.PlayersInSight[0].Username != "alex" ||
				st.World == nil || st.World.ChunksLoaded != 9 || st.World.MemoryBytes <= 0 || st.World.Entities != 3 {
				t.Errorf("mc_status = %+v, world %+v", st, st.World)
			}
			pos := callN(t, w.d, "mc_get_position", "")
			if !strings.Contains(string(pos.Result), `"biome":"desert"`) {
				t.Errorf("mc_get_position = %s", pos.Result)
			}
			tw := callN(t, w.d, "mc_get_time_weather", "")
			if string(tw.Result) != `{"time_of_day":14000,"day":2,"is_day":false,"raining":false,"thundering":false}` {
				t.Errorf("mc_get_time_weather = %s", tw.Result)
			}
		})
	}
}

// TestWorldToolsBeforeAnyChunk: right after a join, with no chunk sent,
// the tools say the bot sees nothing yet instead of "none found".
func TestWorldToolsBeforeAnyChunk(t *testing.T) {
	w := newScriptedWorld(t, 769, nil, nil)
	find := decode[findResult](t, callN(t, w.d, "mc_find_blocks", `{"block_type":"stone"}`))
	if find.Found != 0 || !strings.Contains(find.Reason, "no chunks loaded yet") {
		t.Errorf("mc_find_blocks = %+v", find)
	}
	if res := callN(t, w.d, "mc_block_at", `{"x":0,"y":60,"z":0}`); res.OK || !strings.Contains(res.Error, "not loaded") {
		t.Errorf("mc_block_at = %+v", res)
	}
	tw := callN(t, w.d, "mc_get_time_weather", "")
	if !strings.Contains(string(tw.Result), `"note":"the server has not sent the time yet`) || strings.Contains(string(tw.Result), "time_of_day") {
		t.Errorf("mc_get_time_weather = %s", tw.Result)
	}
}
