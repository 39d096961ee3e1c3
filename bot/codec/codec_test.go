package codec

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// TestEveryReleaseHasACodec: the generated release list and the codec files
// agree both ways, and every layout of every codec is set, except those of
// packets a version does not have yet (tagged since:"N"), which are nil
// before N and set from N.
func TestEveryReleaseHasACodec(t *testing.T) {
	releases := map[int32]bool{}
	for _, r := range mcdata.Releases() {
		releases[int32(r.Protocol)] = true
		c := For(int32(r.Protocol))
		if c == nil {
			t.Errorf("release %v (protocol %d) has no codec: add bot/codec/v%d.go with what it changed", r.Names, r.Protocol, r.Protocol)
			continue
		}
		if c.Packets != mcdata.For(int32(r.Protocol)) || c.Name() != r.Names[len(r.Names)-1] {
			t.Errorf("codec %v has the wrong table or names", c)
		}
		v := reflect.ValueOf(c).Elem()
		for i := 0; i < v.NumField(); i++ {
			f, field := v.Field(i), v.Type().Field(i)
			if f.Kind() != reflect.Func && f.Kind() != reflect.Slice {
				continue
			}
			want := true
			if since := field.Tag.Get("since"); since != "" {
				n, err := strconv.Atoi(since)
				if err != nil {
					t.Fatalf("%s: since tag %q", field.Name, since)
				}
				want = c.Protocol >= int32(n)
			}
			if until := field.Tag.Get("until"); until != "" {
				n, err := strconv.Atoi(until)
				if err != nil {
					t.Fatalf("%s: until tag %q", field.Name, until)
				}
				want = want && c.Protocol <= int32(n)
			}
			if set := !f.IsNil(); set != want {
				t.Errorf("%v: %s is set=%v, want %v", c, field.Name, set, want)
			}
		}
	}
	for _, p := range Defined() {
		if !releases[p] {
			t.Errorf("bot/codec defines protocol %d, which the generated tables do not cover: regenerate bot/mcdata first", p)
		}
	}
	if For(1) != nil {
		t.Error("protocol 1 has a codec")
	}
}

// TestSinceMatchesThePacketTables: a layout tagged since:"N" (or
// until:"N") is there exactly when the version's packet table has its
// packet.
func TestSinceMatchesThePacketTables(t *testing.T) {
	packets := map[string][]mcdata.Packet{
		"CodeOfConduct":          {mcdata.ClientboundConfigCodeOfConduct, mcdata.ServerboundConfigAcceptCodeOfConduct},
		"ShowConfigDialog":       {mcdata.ClientboundConfigShowDialog, mcdata.ClientboundConfigClearDialog},
		"ShowDialog":             {mcdata.ClientboundPlayShowDialog, mcdata.ClientboundPlayClearDialog},
		"WriteCustomClickAction": {mcdata.ServerboundConfigCustomClickAction, mcdata.ServerboundPlayCustomClickAction},
		"SyncEntityPosition":     {mcdata.ClientboundPlaySyncEntityPosition},
		"SpawnExperienceOrb":     {mcdata.ClientboundPlaySpawnEntityExperienceOrb},
	}
	for _, r := range mcdata.Releases() {
		c := For(int32(r.Protocol))
		v := reflect.ValueOf(c).Elem()
		for name, ps := range packets {
			set := !v.FieldByName(name).IsNil()
			for _, p := range ps {
				if _, has := c.Packets.ID(p); has != set {
					t.Errorf("%v: %s set=%v but %v in the table=%v", c, name, set, p, has)
				}
			}
		}
	}
}

// TestMetadataKindsKnowEveryName: every metadata type name of every
// version's generated table is a kind the codec knows, so no id reads as
// unknown by oversight; air (index 1) is an int in every version.
func TestMetadataKindsKnowEveryName(t *testing.T) {
	for _, r := range mcdata.Releases() {
		c := For(int32(r.Protocol))
		names := mcdata.MetadataTypes(c.Protocol)
		if len(c.MetadataTypes) != len(names) {
			t.Errorf("%v: %d metadata kinds for %d names", c, len(c.MetadataTypes), len(names))
		}
		for id, k := range c.MetadataTypes {
			if k == MetaUnknown || k.String() != names[id] {
				t.Errorf("%v: metadata type %d (%s) is the kind %v", c, id, names[id], k)
			}
		}
		if c.MetadataTypes[1] != MetaVarInt {
			t.Errorf("%v: metadata type 1 is %v, want int (air)", c, c.MetadataTypes[1])
		}
	}
}

func reader(build func(w *wire.Writer)) *wire.Reader {
	var w wire.Writer
	build(&w)
	return wire.NewReader(w.Bytes())
}

// spawnInfoBytes writes a spawn info by hand, with the sea level when asked.
func spawnInfoBytes(w *wire.Writer, seaLevel bool) {
	w.VarInt(2)
	w.String("minecraft:the_nether")
	w.Int64(99)
	w.Int8(1)
	w.Int8(-1)
	w.Bool(false)
	w.Bool(true)
	w.Bool(true) // a death location
	w.String("minecraft:overworld")
	w.Int64(int64(10)<<38 | int64(-3&0x3ffffff)<<12 | 64) // x 10, z -3, y 64
	w.VarInt(5)
	if seaLevel {
		w.VarInt(63)
	}
}

// TestVersionDifferences decodes hand-written bytes in each version's
// layout: every difference between 767, 768 and 769 the bot depends on.
func TestVersionDifferences(t *testing.T) {
	c767, c768, c769 := For(767), For(768), For(769)

	// Login success: the strict-error flag ends it in 767 only.
	for _, c := range []*Codec{c767, c768, c769} {
		r := reader(func(w *wire.Writer) {
			w.UUID([16]byte{1})
			w.String("Theo")
			w.VarInt(1)
			w.String("textures")
			w.String("abc")
			w.Bool(true)
			w.String("sig")
			if c.Protocol == 767 {
				w.Bool(true)
			}
		})
		s := c.LoginSuccess(r)
		if r.Err() != nil || r.Remaining() != 0 || s.Name != "Theo" || len(s.Properties) != 1 || s.Properties[0].Signature != "sig" {
			t.Errorf("%v login success: %+v, err %v, %d bytes left", c, s, r.Err(), r.Remaining())
		}
	}

	// Spawn info, through the play login and respawn: the sea level from 768.
	for _, c := range []*Codec{c767, c768, c769} {
		sea := c.Protocol >= 768
		r := reader(func(w *wire.Writer) {
			w.Int32(42)
			w.Bool(false)
			w.VarInt(1)
			w.String("minecraft:overworld")
			w.VarInt(20)
			w.VarInt(8)
			w.VarInt(6)
			w.Bool(false)
			w.Bool(true)
			w.Bool(false)
			spawnInfoBytes(w, sea)
			w.Bool(true)
		})
		l := c.PlayLogin(r)
		want := GlobalPos{"minecraft:overworld", BlockPos{10, 64, -3}}
		if r.Err() != nil || r.Remaining() != 0 || l.EntityID != 42 || l.Spawn.Dimension != "minecraft:the_nether" || l.Spawn.GameMode != 1 ||
			l.Spawn.DeathLocation == nil || *l.Spawn.DeathLocation != want || !l.EnforcesSecureChat || (sea && l.Spawn.SeaLevel != 63) {
			t.Errorf("%v play login: %+v (%+v), err %v, %d left", c, l, l.Spawn.DeathLocation, r.Err(), r.Remaining())
		}
		r = reader(func(w *wire.Writer) { spawnInfoBytes(w, sea); w.Byte(3) })
		if rs := c.Respawn(r); r.Err() != nil || r.Remaining() != 0 || rs.DataKept != 3 || rs.Spawn.PortalCooldown != 5 {
			t.Errorf("%v respawn: %+v, err %v", c, rs, r.Err())
		}
	}

	// Position sync: id last and 8-bit flags in 767; id first, velocity and
	// 32-bit flags from 768.
	r := reader(func(w *wire.Writer) {
		w.Float64(1.5)
		w.Float64(64)
		w.Float64(-2)
		w.Float32(90)
		w.Float32(10)
		w.Byte(RelativeX | RelativeYaw)
		w.VarInt(7)
	})
	if p := c767.PositionSync(r); r.Err() != nil || r.Remaining() != 0 || p != (PositionSync{TeleportID: 7, X: 1.5, Y: 64, Z: -2, Yaw: 90, Pitch: 10, Relative: RelativeX | RelativeYaw}) {
		t.Errorf("767 position: %+v", p)
	}
	for _, c := range []*Codec{c768, c769} {
		r := reader(func(w *wire.Writer) {
			w.VarInt(7)
			w.Float64(1.5)
			w.Float64(64)
			w.Float64(-2)
			w.Float64(0.25)
			w.Float64(0)
			w.Float64(0)
			w.Float32(90)
			w.Float32(10)
			w.Int32(RelativeX | RelativeYaw | 1<<8)
		})
		if p := c.PositionSync(r); r.Err() != nil || r.Remaining() != 0 || p != (PositionSync{TeleportID: 7, X: 1.5, Y: 64, Z: -2, VX: 0.25, Yaw: 90, Pitch: 10, Relative: RelativeX | RelativeYaw | 1<<8}) {
			t.Errorf("%v position: %+v", c, p)
		}
	}

	// Movement: an on-ground boolean in 767, a flags byte from 768.
	for _, c := range []*Codec{c767, c768} {
		var w wire.Writer
		c.WriteMovement(&w, Movement{X: 1, Y: 2, Z: 3, Yaw: 4, Pitch: 5, OnGround: true, HorizontalCollision: true})
		b := w.Bytes()
		want := byte(1)
		if c.Protocol >= 768 {
			want = 3
		}
		if len(b) != 33 || b[32] != want {
			t.Errorf("%v movement: %d bytes ending %#x, want 33 ending %#x", c, len(b), b[len(b)-1], want)
		}
	}

	// Client information: the particle setting ends it from 768.
	for _, c := range []*Codec{c767, c768} {
		var w wire.Writer
		c.WriteClientInformation(&w, ClientInformation{Locale: "en_us", ViewDistance: 4, ParticleStatus: 2})
		want := 1 + 5 + 1 + 1 + 1 + 1 + 1 + 1 + 1
		if c.Protocol >= 768 {
			want++
		}
		if len(w.Bytes()) != want {
			t.Errorf("%v client information: %d bytes, want %d", c, len(w.Bytes()), want)
		}
	}

	// Time: a negative time of day stopped the clock before 768; then a flag.
	r = reader(func(w *wire.Writer) { w.Int64(100); w.Int64(-6000) })
	if tu := c767.TimeUpdate(r); !reflect.DeepEqual(tu, TimeUpdate{WorldAge: 100, TimeOfDay: 6000, TickDayTime: false}) {
		t.Errorf("767 time: %+v", tu)
	}
	r = reader(func(w *wire.Writer) { w.Int64(100); w.Int64(6000); w.Bool(false) })
	if tu := c768.TimeUpdate(r); r.Remaining() != 0 || !reflect.DeepEqual(tu, TimeUpdate{WorldAge: 100, TimeOfDay: 6000, TickDayTime: false}) {
		t.Errorf("768 time: %+v", tu)
	}

	// Held slot: a byte before 769, a VarInt in 769.
	if s := c768.HeldSlot(wire.NewReader([]byte{5})); s != 5 {
		t.Errorf("768 held slot %d", s)
	}
	r = wire.NewReader([]byte{0x85, 0x01})
	if s := c769.HeldSlot(r); s != 133 || r.Remaining() != 0 {
		t.Errorf("769 held slot %d", s)
	}

	if c767.SendsPlayerLoaded || c768.SendsPlayerLoaded || !c769.SendsPlayerLoaded {
		t.Error("player_loaded is 1.21.4's")
	}
}

// TestPlayerInfoBits: list order is bit 0x40 from 768 and the hat 0x80 in
// 769; a bit the version does not define is an error, not a misread.
func TestPlayerInfoBits(t *testing.T) {
	entry := func(w *wire.Writer, bits byte, listOrder, hat bool) {
		w.Byte(bits)
		w.VarInt(1)
		w.UUID([16]byte{9})
		w.String("alex")
		w.VarInt(0)
		w.VarInt(1) // game mode
		if listOrder {
			w.VarInt(4)
		}
		if hat {
			w.Bool(true)
		}
	}
	for _, c := range []*Codec{For(768), For(769)} {
		r := reader(func(w *wire.Writer) { entry(w, 0x01|0x04|0x40, true, false) })
		u := c.PlayerInfo(r)
		if r.Err() != nil || r.Remaining() != 0 || !u.Has(ActionListOrder) || u.Has(ActionShowHat) || u.Entries[0].ListOrder != 4 || u.Entries[0].GameMode != 1 {
			t.Errorf("%v list order: %+v, err %v", c, u, r.Err())
		}
	}
	r := reader(func(w *wire.Writer) { entry(w, 0x01|0x04|0x40|0x80, true, true) })
	if u := For(769).PlayerInfo(r); r.Err() != nil || r.Remaining() != 0 || !u.Entries[0].ShowHat || u.Entries[0].ListOrder != 4 {
		t.Errorf("769 hat: %+v, err %v", u, r.Err())
	}
	for proto, bits := range map[int32]byte{767: 0x40, 768: 0x80} {
		r := reader(func(w *wire.Writer) { entry(w, 0x01|bits, false, false) })
		if For(proto).PlayerInfo(r); r.Err() == nil {
			t.Errorf("%d accepted player info bit %#x", proto, bits)
		}
	}
}

// TestEntityMetadata: values are read up to the end marker, and decoding
// stops, marked partial, at the first layout the bot does not read.
func TestEntityMetadata(t *testing.T) {
	c := For(769)
	r := reader(func(w *wire.Writer) {
		w.VarInt(42)
		w.Byte(0)
		w.VarInt(0) // byte
		w.Byte(2)
		w.Byte(1)
		w.VarInt(1) // VarInt: air
		w.VarInt(120)
		w.Byte(6)
		w.VarInt(11) // optional block pos, absent
		w.Bool(false)
		w.Byte(0xff)
	})
	m := c.EntityMetadata(r)
	if r.Err() != nil || m.Partial || m.EntityID != 42 || len(m.Entries) != 3 || m.Entries[1] != (MetadataEntry{1, MetaVarInt, int32(120)}) || m.Entries[2].Value != nil {
		t.Errorf("metadata: %+v, err %v", m, r.Err())
	}
	r = reader(func(w *wire.Writer) {
		w.VarInt(7)
		w.Byte(1)
		w.VarInt(1)
		w.VarInt(300)
		w.Byte(8)
		w.VarInt(7) // an item stack
		w.Raw([]byte{1, 2, 3})
	})
	if m := c.EntityMetadata(r); r.Err() != nil || !m.Partial || len(m.Entries) != 1 {
		t.Errorf("metadata with an item stack: %+v, err %v", m, r.Err())
	}
}

// decoders lists every clientbound decoder of a codec: each set field of
// type func(*wire.Reader) T, found by reflection so that a decoder added
// later, in base or in any version's file, is fuzzed too.
func decoders(c *Codec) []struct {
	name string
	fn   reflect.Value
} {
	var out []struct {
		name string
		fn   reflect.Value
	}
	readerType := reflect.TypeOf((*wire.Reader)(nil))
	v := reflect.ValueOf(c).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() == reflect.Func && !f.IsNil() && f.Type().NumIn() == 1 && f.Type().In(0) == readerType && f.Type().NumOut() == 1 {
			out = append(out, struct {
				name string
				fn   reflect.Value
			}{v.Type().Field(i).Name, f})
		}
	}
	return out
}

// TestDecodersAreFound: the fuzz target reaches every version's decoders,
// those a version added included (dialogs from 1.21.6, the code of
// conduct from 1.21.9).
func TestDecodersAreFound(t *testing.T) {
	for _, r := range mcdata.Releases() {
		c := For(int32(r.Protocol))
		names := map[string]bool{}
		for _, d := range decoders(c) {
			names[d.name] = true
		}
		want := []string{"LoginSuccess", "PlayLogin", "PositionSync", "PlayerInfo", "PlayerChat", "EntityMetadata", "RegistryData", "TimeUpdate", "SpawnPosition"}
		if c.Protocol >= 771 {
			want = append(want, "ShowDialog", "ShowConfigDialog")
		}
		if c.Protocol >= 773 {
			want = append(want, "CodeOfConduct")
		}
		for _, w := range want {
			if !names[w] {
				t.Errorf("the fuzz target does not reach %v's %s", c, w)
			}
		}
	}
}

// FuzzDecoders feeds arbitrary bytes to every clientbound decoder of every
// version: the first byte picks the version, the second the decoder. No
// input may panic.
func FuzzDecoders(f *testing.F) {
	releases := mcdata.Releases()
	for vi := range releases {
		c := For(int32(releases[vi].Protocol))
		for di, d := range decoders(c) {
			seed := []byte{byte(vi), byte(di)}
			switch d.name {
			case "PlayerInfo":
				seed = append(seed, 0xff, 1)
				seed = append(seed, make([]byte, 16)...)
				seed = append(seed, 1, 'x', 0)
			case "EntityMetadata":
				seed = append(seed, 42, 1, 1, 120, 0xff)
			default:
				seed = append(seed, make([]byte, 24)...)
			}
			f.Add(seed)
			// 26.3's stepped moves and position paths (v777.go).
			if c.Protocol >= 777 {
				switch d.name {
				case "EntityMove", "EntityMoveLook":
					f.Add(append([]byte{byte(vi), byte(di), 5, 1 | 2<<1, 1, 0x10, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0}, 64, 0))
				case "SyncEntityPosition":
					s := []byte{byte(vi), byte(di), 9, 1, 1}
					s = append(s, make([]byte, 24)...)
					f.Add(append(append(s, 1), make([]byte, 9)...))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 2 {
			return
		}
		c := For(int32(releases[int(b[0])%len(releases)].Protocol))
		all := decoders(c)
		d := all[int(b[1])%len(all)]
		d.fn.Call([]reflect.Value{reflect.ValueOf(wire.NewReader(b[2:]))})
	})
}
