package entity

import (
	"fmt"
	"math"
	"testing"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/metadata"
	"github.com/blockmate/blockmate/bot/players"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/self"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
	"github.com/blockmate/blockmate/internal/testkit/offline"
)

func protocols() []int32 {
	var out []int32
	for _, r := range mcdata.Releases() {
		out = append(out, int32(r.Protocol))
	}
	return out
}

type harness struct {
	*offline.Session
	f    *Entities
	game *mcdata.GameData
}

// joined is a session with the entity feature, its bot placed at 0.5, 64,
// 0.5.
func joined(t *testing.T, proto int32) *harness {
	h := &harness{game: mcdata.Game(proto)}
	h.Session = offline.New(t, proto, func(s *core.Session) {
		reg := registry.Attach(s)
		me := self.Attach(s, reg, self.Options{})
		h.f = Attach(s, players.Attach(s), me, Options{})
	})
	h.Configure()
	h.Join(0.5, 64, 0.5, 4)
	return h
}

func (h *harness) typeID(name string) int32 {
	h.T.Helper()
	t := h.game.EntityByName(name)
	if t == nil {
		h.T.Fatalf("no entity type %s", name)
	}
	return t.ID
}

// spawn sends spawn_entity in the version's layout (velocity in blocks
// per tick).
func (h *harness) spawn(id int32, uuid [16]byte, typ int32, x, y, z float64, vel [3]float64) {
	h.Route(mcdata.ClientboundPlaySpawnEntity, func(w *wire.Writer) {
		w.VarInt(id)
		w.UUID(uuid)
		w.VarInt(typ)
		w.Float64(x)
		w.Float64(y)
		w.Float64(z)
		if h.Proto >= 773 {
			codec.WriteLpVec3(w, vel[0], vel[1], vel[2])
		}
		w.Int8(0)   // pitch
		w.Int8(64)  // yaw: a quarter turn
		w.Int8(-64) // head yaw
		w.VarInt(0)
		if h.Proto < 773 {
			for _, v := range vel {
				w.Uint16(uint16(int16(v * 8000)))
			}
		}
	})
}

func (h *harness) moveBy(id int32, dx, dy, dz float64) {
	h.Route(mcdata.ClientboundPlayRelEntityMove, func(w *wire.Writer) {
		w.VarInt(id)
		if h.Proto >= 777 {
			// 26.3: on ground is bit 0 of the flags, and the move comes in
			// two steps of half the delta each.
			w.VarInt(1 | 2<<1)
			for range 2 {
				w.VarInt(1) // tick offset
				for _, d := range []float64{dx, dy, dz} {
					w.Uint16(uint16(int16(d * 4096 / 2)))
				}
			}
			return
		}
		for _, d := range []float64{dx, dy, dz} {
			w.Uint16(uint16(int16(d * 4096)))
		}
		w.Bool(true)
	})
}

// teleport sends entity_teleport in the version's layout; relative bits
// apply from 1.21.2.
func (h *harness) teleport(id int32, x, y, z float64, relative uint32) {
	h.Route(mcdata.ClientboundPlayEntityTeleport, func(w *wire.Writer) {
		w.VarInt(id)
		w.Float64(x)
		w.Float64(y)
		w.Float64(z)
		if h.Proto >= 768 {
			w.Float64(0.5)
			w.Float64(0)
			w.Float64(0)
			w.Float32(180)
			w.Float32(10)
			w.Int32(int32(relative))
		} else {
			w.Int8(-128)
			w.Int8(7)
		}
		w.Bool(false)
	})
}

// metadataType is a metadata value type's id in the version.
func (h *harness) metadataType(name string) int32 {
	h.T.Helper()
	names, err := metadata.TypeNames(h.Proto)
	if err != nil {
		h.T.Fatal(err)
	}
	for i, n := range names {
		if n == name {
			return int32(i)
		}
	}
	h.T.Fatalf("no metadata type %s at %d", name, h.Proto)
	return 0
}

// customName sends an entity's custom name (metadata 2).
func (h *harness) customName(id int32, name string) {
	h.Route(mcdata.ClientboundPlayEntityMetadata, func(w *wire.Writer) {
		w.VarInt(id)
		w.Byte(2)
		w.VarInt(h.metadataType("optional_component"))
		w.Bool(true)
		fakeserver.NBTString(w, name)
		w.Byte(0xff)
	})
}

func (h *harness) get(id int32) Entity {
	h.T.Helper()
	e, ok := h.f.Get(id)
	if !ok {
		h.T.Fatalf("entity %d is not known", id)
	}
	return e
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// nearVelocity allows for 1.21.9's low-precision velocities (15 bits an
// axis, scaled).
func nearVelocity(a, b float64) bool { return math.Abs(a-b) < 1e-4 }

func TestEntitiesFollowTheServer(t *testing.T) {
	for _, proto := range protocols() {
		t.Run(fmt.Sprint(proto), func(t *testing.T) {
			h := joined(t, proto)
			zombie := h.typeID("zombie")
			changed := h.f.Changed()
			h.spawn(10, [16]byte{9}, zombie, 5.5, 64, 0.5, [3]float64{0.25, 0, -0.5})
			select {
			case <-changed:
			default:
				t.Error("a spawn did not notify")
			}
			e := h.get(10)
			if e.Type != "zombie" || !e.Hostile || e.Player || e.Position.X != 5.5 || e.Yaw != 90 || e.HeadYaw != -90 ||
				!nearVelocity(e.Velocity.X, 0.25) || !nearVelocity(e.Velocity.Z, -0.5) {
				t.Errorf("spawned zombie = %+v", e)
			}
			if by, ok := h.f.ByUUID([16]byte{9}); !ok || by.ID != 10 {
				t.Errorf("ByUUID = %+v, %v", by, ok)
			}
			h.customName(10, "Bob\x1b[31m the\nZombie")
			if e := h.get(10); e.CustomName != "Bob the Zombie" || e.Name() != e.CustomName {
				t.Errorf("custom name = %q (escape sequences and line breaks go)", e.CustomName)
			}
			h.moveBy(10, 1, 0.5, -2)
			if e := h.get(10); !near(e.Position.X, 6.5) || !near(e.Position.Y, 64.5) || !near(e.Position.Z, -1.5) || !e.OnGround {
				t.Errorf("after a relative move: %+v", e.Position)
			}
			h.Route(mcdata.ClientboundPlayEntityLook, func(w *wire.Writer) {
				w.VarInt(10)
				if proto >= 777 {
					w.Bool(false) // 26.3: on ground before the angles
				}
				w.Int8(-64)
				w.Int8(32)
				if proto < 777 {
					w.Bool(false)
				}
			})
			if e := h.get(10); e.Yaw != -90 || e.Pitch != 45 || e.OnGround {
				t.Errorf("after a look: yaw %v pitch %v", e.Yaw, e.Pitch)
			}
			h.Route(mcdata.ClientboundPlayEntityHeadRotation, func(w *wire.Writer) { w.VarInt(10); w.Int8(32) })
			if e := h.get(10); e.HeadYaw != 45 {
				t.Errorf("head yaw %v", e.HeadYaw)
			}
			h.teleport(10, 100, 70, -100, 0)
			e = h.get(10)
			if e.Position.X != 100 || e.Position.Y != 70 || e.Position.Z != -100 {
				t.Errorf("after a teleport: %+v", e.Position)
			}
			if proto >= 768 {
				if e.Yaw != 180 || e.Pitch != 10 || e.Velocity.X != 0.5 {
					t.Errorf("after a 1.21.2 teleport: yaw %v pitch %v velocity %+v", e.Yaw, e.Pitch, e.Velocity)
				}
				h.teleport(10, 1, 0, -1, codec.RelativeX|codec.RelativeZ)
				if e := h.get(10); e.Position.X != 101 || e.Position.Y != 0 || e.Position.Z != -101 {
					t.Errorf("after a relative teleport: %+v", e.Position)
				}
			} else if e.Yaw != -180 || !near(float64(e.Pitch), 7*360.0/256) {
				t.Errorf("after a 1.21.1 teleport: yaw %v pitch %v", e.Yaw, e.Pitch)
			}
			h.Route(mcdata.ClientboundPlayEntityVelocity, func(w *wire.Writer) {
				w.VarInt(10)
				if proto >= 773 {
					codec.WriteLpVec3(w, 0, 1, 0)
				} else {
					w.Uint16(0)
					w.Uint16(8000)
					w.Uint16(0)
				}
			})
			if e := h.get(10); !nearVelocity(e.Velocity.Y, 1) || math.Abs(e.Velocity.X) > 1e-4 {
				t.Errorf("velocity %+v", e.Velocity)
			}
			// A packet about an entity the bot never saw changes nothing.
			h.moveBy(99, 1, 1, 1)
			if _, ok := h.f.Get(99); ok || h.f.Len() != 1 {
				t.Error("a move of an unknown entity created it")
			}
			h.Route(mcdata.ClientboundPlayEntityStatus, func(w *wire.Writer) { w.Int32(10); w.Int8(codec.EntityDeath) })
			if !h.get(10).Dead {
				t.Error("the death event did not mark the zombie dead")
			}
			h.Route(mcdata.ClientboundPlayEntityDestroy, func(w *wire.Writer) { w.VarInt(2); w.VarInt(10); w.VarInt(555) })
			if _, ok := h.f.Get(10); ok || h.f.Len() != 0 {
				t.Error("the zombie was not removed")
			}
			if _, ok := h.f.ByUUID([16]byte{9}); ok {
				t.Error("the removed zombie is still found by UUID")
			}
		})
	}
}

// TestPlayersAreLinkedByUUID: flying-squid spawns other players as type 0
// with their UUID; the player list names them, before or after the spawn.
func TestPlayersAreLinkedByUUID(t *testing.T) {
	h := joined(t, 769)
	alex, cole := [16]byte{0xa1}, [16]byte{0xc0}
	listPlayer := func(id [16]byte, name string) {
		h.Route(mcdata.ClientboundPlayPlayerInfo, func(w *wire.Writer) {
			w.Byte(0x01) // add player
			w.VarInt(1)
			w.UUID(id)
			w.String(name)
			w.VarInt(0)
		})
	}
	listPlayer(alex, "alex")
	h.spawn(20, alex, 0, 3, 64, 4, [3]float64{})
	h.spawn(21, cole, 0, -3, 64, 4, [3]float64{})
	if e := h.get(20); !e.Player || e.Username != "alex" || e.Type != "player" || e.Hostile || e.Name() != "alex" {
		t.Errorf("alex = %+v", e)
	}
	if e := h.get(21); e.Player || e.Type == "player" {
		t.Errorf("cole, not listed yet, = %+v", e)
	}
	listPlayer(cole, "cole")
	if e := h.get(21); !e.Player || e.Username != "cole" {
		t.Errorf("cole after the list named him = %+v", e)
	}
	// A real player entity type is a player even without a list entry.
	h.spawn(22, [16]byte{0xdd}, h.typeID("player"), 0, 64, 9, [3]float64{})
	if e := h.get(22); !e.Player || e.Username != "" || e.Type != "player" {
		t.Errorf("unlisted player = %+v", e)
	}
	list, dist := h.f.Near(h.get(20).Position, 100)
	if len(list) != 3 || list[0].ID != 20 || dist[0] != 0 || list[1].ID != 22 {
		t.Errorf("Near = %+v %v", list, dist)
	}
}

// TestItemEntitiesCarryTheirStack: an item on the ground is named by its
// stack from metadata.
func TestItemEntitiesCarryTheirStack(t *testing.T) {
	for _, proto := range protocols() {
		t.Run(fmt.Sprint(proto), func(t *testing.T) {
			h := joined(t, proto)
			h.spawn(30, [16]byte{3}, h.typeID("item"), 1, 64, 1, [3]float64{})
			diamond := h.game.ItemByName("diamond")
			h.Route(mcdata.ClientboundPlayEntityMetadata, func(w *wire.Writer) {
				w.VarInt(30)
				w.Byte(8)
				w.VarInt(h.metadataType("item_stack"))
				w.VarInt(5) // count
				w.VarInt(int32(diamond.ID))
				w.VarInt(0)
				w.VarInt(0)
				w.Byte(0xff)
			})
			e := h.get(30)
			if e.Item == nil || e.Item.Name != "diamond" || e.Item.Count != 5 || e.Type != "item" || e.Hostile {
				t.Errorf("item entity = %+v, stack %+v", e, e.Item)
			}
		})
	}
}

// TestBundlesApplyAtOnce: what comes between two bundle delimiters is seen
// by readers only when the bundle closes.
func TestBundlesApplyAtOnce(t *testing.T) {
	h := joined(t, 769)
	h.Route(mcdata.ClientboundPlayBundleDelimiter, nil)
	h.spawn(40, [16]byte{4}, h.typeID("skeleton"), 2, 64, 2, [3]float64{})
	h.customName(40, "Sam")
	h.moveBy(40, 1, 0, 0)
	if _, ok := h.f.Get(40); ok || h.f.Len() != 0 {
		t.Fatal("a reader saw the skeleton before its bundle closed")
	}
	changed := h.f.Changed()
	h.Route(mcdata.ClientboundPlayBundleDelimiter, nil)
	select {
	case <-changed:
	default:
		t.Error("closing the bundle did not notify")
	}
	if e := h.get(40); e.CustomName != "Sam" || e.Position.X != 3 {
		t.Errorf("after the bundle: %+v", e)
	}
	// A removal inside a bundle.
	h.Route(mcdata.ClientboundPlayBundleDelimiter, nil)
	h.Route(mcdata.ClientboundPlayEntityDestroy, func(w *wire.Writer) { w.VarInt(1); w.VarInt(40) })
	if _, ok := h.f.Get(40); !ok {
		t.Error("the removal showed before its bundle closed")
	}
	h.Route(mcdata.ClientboundPlayBundleDelimiter, nil)
	if _, ok := h.f.Get(40); ok {
		t.Error("the removal did not apply when the bundle closed")
	}
}

// TestTheTableIsBounded: spawns past MaxEntities are dropped and counted.
func TestTheTableIsBounded(t *testing.T) {
	h := joined(t, 769)
	cow := h.typeID("cow")
	for i := int32(0); i < MaxEntities+10; i++ {
		h.spawn(1000+i, [16]byte{byte(i), byte(i >> 8), 1}, cow, float64(i), 64, 0, [3]float64{})
	}
	if h.f.Len() != MaxEntities || h.f.Dropped() != 10 {
		t.Errorf("%d entities, %d dropped", h.f.Len(), h.f.Dropped())
	}
	// A known entity may still be replaced (a respawned id).
	h.spawn(1000, [16]byte{0xee}, cow, 0, 64, 0, [3]float64{})
	if e := h.get(1000); e.UUID != ([16]byte{0xee}) || h.f.Dropped() != 10 {
		t.Errorf("respawned id = %+v, dropped %d", e, h.f.Dropped())
	}
}

// TestDimensionChangeForgetsEntities: the same dimension keeps them; a
// new one, a login or a return to configuration clears them.
func TestDimensionChangeForgetsEntities(t *testing.T) {
	h := joined(t, 768)
	h.spawn(50, [16]byte{5}, h.typeID("pig"), 1, 64, 1, [3]float64{})
	h.RouteBytes(mcdata.ClientboundPlayRespawn, fakeserver.RespawnBody(768, 0, "minecraft:overworld"))
	if h.f.Len() != 1 {
		t.Error("a respawn in the same dimension dropped the pig")
	}
	h.RouteBytes(mcdata.ClientboundPlayRespawn, fakeserver.RespawnBody(768, 1, "minecraft:the_nether"))
	if h.f.Len() != 0 {
		t.Error("the nether still has the overworld's pig")
	}
	h.spawn(51, [16]byte{6}, h.typeID("ghast"), 1, 64, 1, [3]float64{})
	h.Route(mcdata.ClientboundPlayStartConfiguration, nil)
	if h.f.Len() != 0 {
		t.Error("a return to configuration kept the ghast")
	}
}

// TestPassengers: set_passengers replaces a vehicle's riders.
func TestPassengers(t *testing.T) {
	h := joined(t, 769)
	h.spawn(60, [16]byte{1}, h.typeID("minecart"), 0, 64, 0, [3]float64{})
	h.spawn(61, [16]byte{2}, h.typeID("villager"), 0, 64, 0, [3]float64{})
	h.spawn(62, [16]byte{3}, h.typeID("cat"), 0, 64, 0, [3]float64{})
	passengers := func(ids ...int32) {
		h.Route(mcdata.ClientboundPlaySetPassengers, func(w *wire.Writer) {
			w.VarInt(60)
			w.VarInt(int32(len(ids)))
			for _, id := range ids {
				w.VarInt(id)
			}
		})
	}
	passengers(61, 62)
	if v, a := h.get(60), h.get(61); len(v.Passengers) != 2 || !a.HasVehicle || a.Vehicle != 60 {
		t.Errorf("vehicle %+v, rider %+v", v, a)
	}
	passengers(62)
	if v, a, c := h.get(60), h.get(61), h.get(62); len(v.Passengers) != 1 || a.HasVehicle || !c.HasVehicle {
		t.Errorf("after 61 got off: vehicle %v, 61 %v, 62 %v", v.Passengers, a.HasVehicle, c.HasVehicle)
	}
}

// TestHostileNearby: the tick emits mc_hostile_nearby when a hostile type
// comes within 16 blocks, again only when it comes 4 blocks closer, not
// for players, the dead or the peaceful, and anew after it went away.
func TestHostileNearby(t *testing.T) {
	h := joined(t, 769)
	// Tick twice: the first tick's scan has finished once the second is
	// taken.
	tick := func() { h.Clock.Tick(); h.Clock.Tick() }
	events := func() []fakeserver.Event { return h.Rec.Named("mc_hostile_nearby") }
	payload := func(e fakeserver.Event) (string, float64) {
		p := fmt.Sprintf("%+v", e.Payload)
		var typ string
		var d float64
		fmt.Sscanf(p, "{Type:%s Distance:%g}", &typ, &d)
		return typ, d
	}
	h.spawn(70, [16]byte{7}, h.typeID("zombie"), 10.5, 64, 0.5, [3]float64{})
	h.spawn(71, [16]byte{8}, h.typeID("cow"), 2.5, 64, 0.5, [3]float64{})
	h.spawn(72, [16]byte{9}, h.typeID("creeper"), 40.5, 64, 0.5, [3]float64{})
	tick()
	if ev := events(); len(ev) != 1 {
		t.Fatalf("events %+v, want one for the zombie", ev)
	} else if typ, d := payload(ev[0]); typ != "zombie" || d != 10 || ev[0].SubKey != "zombie" {
		t.Errorf("event %+v", ev[0])
	}
	h.moveBy(70, -1, 0, 0) // 9 blocks: not news
	tick()
	if n := len(events()); n != 1 {
		t.Errorf("%d events after a 1-block approach", n)
	}
	h.moveBy(70, -4, 0, 0) // 5 blocks: news
	tick()
	if ev := events(); len(ev) != 2 {
		t.Errorf("events %+v after a 4-block approach", ev)
	} else if _, d := payload(ev[1]); d != 5 {
		t.Errorf("second event %+v", ev[1])
	}
	h.Route(mcdata.ClientboundPlayEntityStatus, func(w *wire.Writer) { w.Int32(70); w.Int8(codec.EntityDeath) })
	h.teleport(72, 12.5, 64, 0.5, 0) // the creeper comes near
	tick()
	if ev := events(); len(ev) != 3 {
		t.Errorf("events %+v", ev)
	} else if typ, _ := payload(ev[2]); typ != "creeper" {
		t.Errorf("third event %+v", ev[2])
	}
	// The creeper leaves past the margin, then comes back: news again.
	h.teleport(72, 60.5, 64, 0.5, 0)
	tick()
	h.teleport(72, 15.5, 64, 0.5, 0)
	tick()
	if ev := events(); len(ev) != 4 {
		t.Errorf("events %+v after the creeper came back", ev)
	}
	// A player spawned as a hostile type (a server's quirk) is not a mob.
	h.Route(mcdata.ClientboundPlayPlayerInfo, func(w *wire.Writer) {
		w.Byte(0x01)
		w.VarInt(1)
		w.UUID([16]byte{0xbb})
		w.String("griefer")
		w.VarInt(0)
	})
	h.spawn(73, [16]byte{0xbb}, h.typeID("witch"), 1.5, 64, 0.5, [3]float64{})
	tick()
	for _, e := range events() {
		if typ, _ := payload(e); typ == "witch" {
			t.Errorf("a player spawned as a witch was reported hostile: %+v", e)
		}
	}
}
