package self

import (
	"bufio"
	"context"
	"errors"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	pk "github.com/Tnze/go-mc/net/packet"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/registry"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/internal/testkit/fakeserver"
)

type harness struct {
	t     *testing.T
	s     *core.Session
	f     *Self
	clock *core.ManualClock
	rec   *fakeserver.Recorder
	srv   *fakeserver.Server // for its spawn-info encoder; it has no connection

	mu   sync.Mutex
	sent []mcdata.Packet
	got  chan struct{}
}

// offline is a session in play fed through Route; the packets it writes
// are recorded by kind.
func offline(t *testing.T, proto int32) *harness {
	a, b := net.Pipe()
	h := &harness{t: t, clock: core.NewManualClock(time.Unix(1_700_000_000, 0)), rec: fakeserver.NewRecorder(t), got: make(chan struct{}, 1),
		srv: &fakeserver.Server{T: t, Proto: proto, Table: mcdata.For(proto)}}
	go func() {
		br := bufio.NewReader(b)
		for {
			var p pk.Packet
			if p.UnPack(br, -1) != nil {
				return
			}
			h.mu.Lock()
			h.sent = append(h.sent, mcdata.For(proto).Lookup(mcdata.StatePlay, mcdata.Serverbound, p.ID))
			h.mu.Unlock()
			select {
			case h.got <- struct{}{}:
			default:
			}
		}
	}()
	h.s = core.New(a, codec.For(proto), core.Options{Emit: h.rec.Emit, Username: "Theo", Clock: h.clock})
	reg := registry.Attach(h.s)
	h.f = Attach(h.s, reg, Options{})
	// The body (bot/move) answers a sync with the position; a stand-in here
	// so the batch is what a session sends.
	h.f.OnSync(func(sy Sync) []core.Out {
		return []core.Out{{Packet: mcdata.ServerboundPlayPositionLook, Build: func(w *wire.Writer) {
			h.s.Codec.WriteMovement(w, codec.Movement{X: sy.Position.X, Y: sy.Position.Y, Z: sy.Position.Z, Yaw: sy.Yaw, Pitch: sy.Pitch, OnGround: true})
		}}}
	})
	var w wire.Writer
	w.String("minecraft:damage_type")
	w.VarInt(2)
	w.String("minecraft:fall")
	w.Bool(false)
	w.String("minecraft:mob_attack")
	w.Bool(false)
	h.route(mcdata.ClientboundConfigRegistryData, func(x *wire.Writer) { x.Raw(w.Bytes()) })
	if err := h.s.SwitchAfter(mcdata.ServerboundHandshakeSetProtocol, nil, mcdata.StatePlay); err != nil {
		t.Fatal(err)
	}
	h.waitSent(1)
	h.mu.Lock()
	h.sent = nil
	h.mu.Unlock()
	t.Cleanup(h.s.Leave)
	return h
}

func (h *harness) route(p mcdata.Packet, build func(w *wire.Writer)) {
	h.t.Helper()
	var w wire.Writer
	build(&w)
	if err := h.s.Route(p, w.Bytes()); err != nil {
		h.t.Fatalf("%v: %v", p, err)
	}
}

func (h *harness) waitSent(n int) []mcdata.Packet {
	h.t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		h.mu.Lock()
		if len(h.sent) >= n {
			out := append([]mcdata.Packet(nil), h.sent...)
			h.mu.Unlock()
			return out
		}
		h.mu.Unlock()
		select {
		case <-h.got:
		case <-deadline:
			h.t.Fatalf("sent %v, want %d packets", h.sent, n)
		}
	}
}

func (h *harness) health(health float32, food int32) {
	h.route(mcdata.ClientboundPlayUpdateHealth, func(w *wire.Writer) { w.Float32(health); w.VarInt(food); w.Float32(1) })
}

func (h *harness) login() {
	h.route(mcdata.ClientboundPlayLogin, func(w *wire.Writer) {
		w.Int32(42)
		w.Bool(false)
		w.VarInt(1)
		w.String("minecraft:overworld")
		w.VarInt(20)
		w.VarInt(4)
		w.VarInt(4)
		w.Bool(false)
		w.Bool(true)
		w.Bool(false)
		h.srv.SpawnInfo(w)
		w.Bool(false)
	})
}

func (h *harness) position(id int32, x, y, z float64, relative uint32) {
	h.route(mcdata.ClientboundPlayPosition, func(w *wire.Writer) { w.Raw(fakeserver.PositionBody(h.srv.Proto, id, x, y, z, relative)) })
}

// TestSpawnAndPosition: nothing is known before the server says it; the
// first position sync is confirmed (with player_loaded on 1.21.4) in one
// batch and marks the spawn; a relative sync adds up; a position that is
// not a number ends the connection.
func TestSpawnAndPosition(t *testing.T) {
	for _, proto := range []int32{767, 769} {
		h := offline(t, proto)
		if st := h.f.Snapshot(); st.HasHealth || st.HasXP || st.HasTime || st.Air != MaxAir {
			t.Errorf("before anything was sent: %+v", st)
		}
		h.login()
		h.position(7, 10.5, 64, -3.25, 0)
		want := []mcdata.Packet{mcdata.ServerboundPlayTeleportConfirm, mcdata.ServerboundPlayPositionLook}
		if proto >= 769 {
			want = append(want, mcdata.ServerboundPlayPlayerLoaded)
		}
		if got := h.waitSent(len(want)); !slices.Equal(got, want) {
			t.Errorf("%d: sent %v, want %v", proto, got, want)
		}
		select {
		case <-h.s.Spawned():
		default:
			t.Errorf("%d: the first position sync did not mark the spawn", proto)
		}
		h.position(8, 1, 0, 1, codec.RelativeX|codec.RelativeY|codec.RelativeZ)
		if st := h.f.Snapshot(); st.Position != (geom.Vec3{X: 11.5, Y: 64, Z: -2.25}) || st.EntityID != 42 || !st.OnGround {
			t.Errorf("%d: after a relative sync: %+v", proto, st)
		}
		var w wire.Writer
		w.Raw(fakeserver.PositionBody(proto, 9, 0, 0, 0, 0))
		b := w.Bytes()
		off := 0
		if proto >= 768 {
			off = 1
		}
		copy(b[off:off+8], []byte{0x7f, 0xf8, 0, 0, 0, 0, 0, 0}) // x = NaN
		if err := h.s.Route(mcdata.ClientboundPlayPosition, b); !errors.Is(err, core.ErrDecode) {
			t.Errorf("%d: a NaN position: %v", proto, err)
		}
	}
}

// TestDeathMessageIsCleanedAndMarked: the server's death message can quote
// what players wrote (a killer's name, a renamed weapon): it goes through
// the one sanitiser and mc_death marks it untrusted. The "Theo died" the
// bot makes up when health alone tells the death quotes no one.
func TestDeathMessageIsCleanedAndMarked(t *testing.T) {
	h := offline(t, 768)
	h.login()
	h.position(1, 0.5, 70, 0.5, 0)
	h.waitSent(2)
	h.route(mcdata.ClientboundPlayDeathCombatEvent, func(w *wire.Writer) {
		w.VarInt(42)
		fakeserver.NBTTranslate(w, "death.attack.player", "Theo", "\x1b[2JEv\u202eil\u2066")
	})
	if got := fakeserver.JSON(h.rec.Wait(t, "mc_death")); got != `{"message":"Theo was slain by Evil","untrusted":true}` {
		t.Errorf("mc_death = %s", got)
	}

	h = offline(t, 768)
	h.login()
	h.position(1, 0.5, 70, 0.5, 0)
	h.waitSent(2)
	h.health(0, 20)
	if got := fakeserver.JSON(h.rec.Wait(t, "mc_death")); got != `{"message":"Theo died"}` {
		t.Errorf("mc_death from health alone = %s", got)
	}
}

// TestHealthDeathAndRespawn: hurt events name the damage type seen within
// a second before; the alarms fire on crossing and re-arm; death is
// reported once whether health or the death screen tells it; Respawn
// waits for the position sync that places the bot.
func TestHealthDeathAndRespawn(t *testing.T) {
	h := offline(t, 768)
	h.login()
	h.position(1, 0.5, 70, 0.5, 0)
	h.waitSent(2)
	h.health(20, 20)
	h.route(mcdata.ClientboundPlayDamageEvent, func(w *wire.Writer) { w.VarInt(42); w.VarInt(1); w.VarInt(0); w.VarInt(0); w.Bool(false) })
	h.health(15, 20)
	h.clock.Advance(2 * time.Second)
	h.health(12, 20)
	h.health(5, 4)
	h.health(4, 3)
	if got := fakeserver.JSON(h.rec.Wait(t, "mc_hurt")); got != `{"health":15,"attacker":"mob_attack"}` {
		t.Errorf("first mc_hurt = %s", got)
	}
	if n, m := h.rec.Count("mc_low_health"), h.rec.Count("mc_low_food"); n != 1 || m != 1 {
		t.Errorf("%d low-health and %d low-food alarms, want one each", n, m)
	}
	h.health(0, 3)
	h.route(mcdata.ClientboundPlayDeathCombatEvent, func(w *wire.Writer) {
		w.VarInt(42)
		fakeserver.NBTTranslate(w, "death.attack.mob", "Theo", "Zombie")
	})
	if n := h.rec.Count("mc_death"); n != 1 {
		t.Errorf("%d mc_death events, want 1", n)
	}
	if got := fakeserver.JSON(h.rec.Wait(t, "mc_death")); got != `{"message":"Theo died"}` {
		t.Errorf("mc_death = %s", got)
	}
	if !h.f.Snapshot().Dead {
		t.Fatal("not dead")
	}
	respawned := make(chan geom.Vec3, 1)
	errs := make(chan error, 1)
	go func() {
		pos, err := h.f.Respawn(context.Background(), time.Minute)
		errs <- err
		respawned <- pos
	}()
	sent := h.waitSent(3)
	if sent[2] != mcdata.ServerboundPlayClientCommand {
		t.Fatalf("sent %v, want a client command", sent)
	}
	h.route(mcdata.ClientboundPlayRespawn, func(w *wire.Writer) { h.srv.SpawnInfo(w); w.Byte(0) })
	h.position(2, 3, 65, 4, 0)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if pos := <-respawned; pos != (geom.Vec3{X: 3, Y: 65, Z: 4}) {
		t.Errorf("respawned at %+v", pos)
	}
	if got := fakeserver.JSON(h.rec.Wait(t, "mc_respawned")); got != `{"position":{"x":3,"y":65,"z":4}}` {
		t.Errorf("mc_respawned = %s", got)
	}
	if _, err := h.f.Respawn(context.Background(), time.Minute); !errors.Is(err, ErrAlive) {
		t.Errorf("respawning a living bot: %v", err)
	}
}

// TestWorldFacts: time, weather, game mode, experience, held slot and the
// bot's own air (not another entity's).
func TestWorldFacts(t *testing.T) {
	h := offline(t, 769)
	h.login()
	h.route(mcdata.ClientboundPlayUpdateTime, func(w *wire.Writer) { w.Int64(24000*3 + 100); w.Int64(6000); w.Bool(true) })
	h.route(mcdata.ClientboundPlayGameStateChange, func(w *wire.Writer) { w.Byte(codec.GameStartRaining); w.Float32(0) })
	h.route(mcdata.ClientboundPlayGameStateChange, func(w *wire.Writer) { w.Byte(codec.GameChangeMode); w.Float32(1) })
	h.route(mcdata.ClientboundPlayExperience, func(w *wire.Writer) { w.Float32(0.25); w.VarInt(4); w.VarInt(40) })
	for _, eid := range []int32{42, 7} {
		h.route(mcdata.ClientboundPlayEntityMetadata, func(w *wire.Writer) {
			w.VarInt(eid)
			w.Byte(1)
			w.VarInt(1)
			w.VarInt(120 + eid)
			w.Byte(0xff)
		})
	}
	st := h.f.Snapshot()
	if !st.HasTime || st.TimeOfDay != 6000 || st.DayCycle != DayRunning || st.WorldAge != 72100 || !st.Raining || st.GameMode != 1 || !st.HasXP || st.XPLevel != 4 || st.Air != 162 {
		t.Errorf("%+v", st)
	}
}

// registryData routes one registry whose entries carry NBT data.
func (h *harness) registryData(id string, names []string, data []any) {
	h.t.Helper()
	h.route(mcdata.ClientboundConfigRegistryData, func(w *wire.Writer) {
		w.String(id)
		w.VarInt(int32(len(names)))
		for i, n := range names {
			w.String(n)
			w.Bool(true)
			if err := w.NBT(data[i]); err != nil {
				h.t.Fatal(err)
			}
		}
	})
}

// TestWorldClocks: from 26.1 the time of day is the dimension's default
// world clock. Updates carry only the clocks that changed (or none), so the
// last state of each is kept; a dimension without a default clock has no
// day time, which is not 0.
func TestWorldClocks(t *testing.T) {
	h := offline(t, 775)
	h.registryData("minecraft:dimension_type", []string{"minecraft:overworld", "minecraft:the_nether"},
		[]any{map[string]any{"default_clock": "minecraft:overworld", "min_y": int32(-64), "height": int32(384)}, map[string]any{"min_y": int32(0), "height": int32(256)}})
	h.registryData("minecraft:world_clock", []string{"minecraft:the_end", "minecraft:overworld"}, []any{map[string]any{}, map[string]any{}})
	h.login()
	clocks := func(age int64, states ...codec.ClockState) {
		h.route(mcdata.ClientboundPlayUpdateTime, func(w *wire.Writer) {
			w.Int64(age)
			w.VarInt(int32(len(states)))
			for _, c := range states {
				w.VarInt(c.Clock)
				w.VarLong(c.TotalTicks)
				w.Float32(c.PartialTick)
				w.Float32(c.Rate)
			}
		})
	}
	check := func(what string, cycle string, tod, age int64) {
		t.Helper()
		st := h.f.Snapshot()
		if !st.HasTime || st.DayCycle != cycle || st.TimeOfDay != tod || st.WorldAge != age {
			t.Errorf("%s: day cycle %q, time %d, age %d; want %q, %d, %d", what, st.DayCycle, st.TimeOfDay, st.WorldAge, cycle, tod, age)
		}
	}
	if st := h.f.Snapshot(); st.HasTime || st.DayCycle != "" {
		t.Errorf("time known before the server sent it: %+v", st)
	}
	// The overworld's clock is entry 1 of the world_clock registry.
	clocks(100, codec.ClockState{Clock: 0, TotalTicks: 999, Rate: 1}, codec.ClockState{Clock: 1, TotalTicks: 24000 + 6000, Rate: 1})
	check("first update", DayRunning, 30000, 100)
	clocks(120)
	check("age only", DayRunning, 30000, 120)
	clocks(140, codec.ClockState{Clock: 0, TotalTicks: 5})
	check("the end's clock only", DayRunning, 30000, 140)
	clocks(160, codec.ClockState{Clock: 1, TotalTicks: 31000, Rate: 0})
	check("daylight cycle off", DayStopped, 31000, 160)
	// Into the nether (dimension type 1), which has no default clock.
	h.route(mcdata.ClientboundPlayRespawn, func(w *wire.Writer) {
		w.VarInt(1)
		w.String("minecraft:the_nether")
		w.Int64(0)
		w.Int8(0)
		w.Byte(255)
		w.Bool(false)
		w.Bool(false)
		w.Bool(false)
		w.VarInt(0)
		w.VarInt(32)
		w.Byte(0)
	})
	check("in the nether", DayNone, 0, 160)
}

// TestSpawnPoint: the world's spawn point in each layout: a position and
// an angle before 1.21.9, then a dimension, a position, yaw and pitch.
func TestSpawnPoint(t *testing.T) {
	for _, proto := range []int32{772, 773} {
		h := offline(t, proto)
		if h.f.Snapshot().HasSpawnPoint {
			t.Errorf("%d: a spawn point before the server sent one", proto)
		}
		h.route(mcdata.ClientboundPlaySpawnPosition, func(w *wire.Writer) {
			if proto >= 773 {
				w.String("minecraft:overworld")
			}
			w.Int64(int64(1)<<38 | int64(-2&0x3ffffff)<<12 | 64)
			w.Float32(90)
			if proto >= 773 {
				w.Float32(10)
			}
		})
		want := codec.SpawnPosition{Pos: codec.BlockPos{X: 1, Y: 64, Z: -2}, Yaw: 90}
		if proto >= 773 {
			want.Dimension, want.Pitch = "minecraft:overworld", 10
		}
		if st := h.f.Snapshot(); !st.HasSpawnPoint || st.SpawnPoint != want {
			t.Errorf("%d: spawn point %+v, want %+v", proto, st.SpawnPoint, want)
		}
	}
}

// TestTimeRunsBetweenUpdates: the tick moves the world's age and, while
// the daylight cycle runs, the time of day on between the server's time
// updates.
func TestTimeRunsBetweenUpdates(t *testing.T) {
	h := offline(t, 769)
	h.login()
	h.position(1, 0, 64, 0, 0) // the spawn starts the tick
	h.route(mcdata.ClientboundPlayUpdateTime, func(w *wire.Writer) { w.Int64(1000); w.Int64(6000); w.Bool(true) })
	// Only catch-up handlers tick: each clock tick runs a second's 20
	// ticks. Tick() returns once the tick was taken, not once its 20 ran,
	// so after two at least one second has run and the second may be
	// part-way through.
	h.clock.Tick()
	h.clock.Tick()
	st := h.f.Snapshot()
	if st.TimeOfDay < 6020 || st.TimeOfDay > 6040 || st.WorldAge-st.TimeOfDay != 1000-6000 {
		t.Errorf("after a second or two: time of day %d, age %d", st.TimeOfDay, st.WorldAge)
	}
	h.route(mcdata.ClientboundPlayUpdateTime, func(w *wire.Writer) { w.Int64(2000); w.Int64(18000); w.Bool(false) })
	h.clock.Tick()
	h.clock.Tick()
	// The last second of the first round may run after the update: one
	// more.
	if st := h.f.Snapshot(); st.TimeOfDay != 18000 || st.WorldAge < 2020 || st.WorldAge > 2060 {
		t.Errorf("with the daylight cycle off: time of day %d, age %d", st.TimeOfDay, st.WorldAge)
	}
}

// metaType is the protocol's id of a metadata value kind.
func metaType(t *testing.T, proto int32, kind codec.MetadataKind) int32 {
	t.Helper()
	for id, k := range codec.For(proto).MetadataTypes {
		if k == kind {
			return int32(id)
		}
	}
	t.Fatalf("protocol %d has no metadata type %v", proto, kind)
	return 0
}

// TestSleepingPose: the bot is asleep while its own entity's pose is
// sleeping, in the bed its sleeping_pos names; another entity's pose does
// not count, and standing up (the pose back, the position cleared) wakes it.
func TestSleepingPose(t *testing.T) {
	for _, proto := range []int32{767, 769, 775} {
		h := offline(t, proto)
		h.login()
		pose, optPos := metaType(t, proto, codec.MetaPose), metaType(t, proto, codec.MetaOptionalBlockPos)
		lie := func(eid int32, sleeping bool) {
			h.route(mcdata.ClientboundPlayEntityMetadata, func(w *wire.Writer) {
				w.VarInt(eid)
				w.Byte(6)
				w.VarInt(pose)
				if sleeping {
					w.VarInt(2)
				} else {
					w.VarInt(0)
				}
				w.Byte(14)
				w.VarInt(optPos)
				w.Bool(sleeping)
				if sleeping {
					x, y, z := int64(-3), int64(64), int64(1000)
					w.Int64((x&0x3ffffff)<<38 | (z&0x3ffffff)<<12 | y&0xfff)
				}
				w.Byte(0xff)
			})
		}
		lie(7, true)
		if st := h.f.Snapshot(); st.Sleeping || st.HasBed {
			t.Fatalf("%d: another entity's pose put the bot to sleep: %+v", proto, st)
		}
		lie(42, true)
		if st := h.f.Snapshot(); !st.Sleeping || !st.HasBed || st.Bed != (codec.BlockPos{X: -3, Y: 64, Z: 1000}) {
			t.Fatalf("%d: after its own sleeping pose the bot is %v in %v (%v)", proto, st.Sleeping, st.Bed, st.HasBed)
		}
		lie(42, false)
		if st := h.f.Snapshot(); st.Sleeping || st.HasBed {
			t.Fatalf("%d: standing again, the bot is %v in %v (%v)", proto, st.Sleeping, st.Bed, st.HasBed)
		}
	}
}
