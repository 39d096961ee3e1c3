package codec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// packetVector is one packet minecraft-protocol serialized
// (testdata/peers/packetvectors.js): its fields' protocol.json types, the
// body's bytes and minecraft-protocol's own reading of them.
type packetVector struct {
	Version string            `json:"version"`
	Dir     string            `json:"dir"` // "toServer" for the bot's own packets
	Case    string            `json:"case"`
	Name    string            `json:"name"`
	Types   map[string]string `json:"types"`
	Hex     string            `json:"hex"`
	Parsed  map[string]any    `json:"parsed"`
}

// TestWorldAndEntityLayoutsMatchMinecraftProtocol decodes the world and
// entity packets minecraft-protocol's serializer wrote for every version
// (the code flying-squid and minecraft-protocol's server send with) and
// checks every field against minecraft-protocol's reading of the same
// bytes, in the bot's units: angles in degrees, moves in blocks, velocities
// in blocks per tick. Every decoder must consume the whole body.
func TestWorldAndEntityLayoutsMatchMinecraftProtocol(t *testing.T) {
	var names []string
	for _, r := range mcdata.Releases() {
		names = append(names, For(int32(r.Protocol)).Name())
	}
	out := peertest.RunNode(t, "packetvectors.js", names...)
	byVersion := map[string]*Codec{}
	for _, r := range mcdata.Releases() {
		c := For(int32(r.Protocol))
		byVersion[c.Name()] = c
	}
	seen := map[string]int{}
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var v packetVector
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("packetvectors.js: %v: %s", err, line)
		}
		c := byVersion[v.Version]
		if v.Dir == "toServer" {
			check := checkInteract
			if v.Case == "use_item" || v.Case == "use_item_on" || v.Case == "swing" || v.Case == "leave_bed" {
				check = checkSkillPacket
			}
			t.Run(v.Version+"/"+v.Case, func(t *testing.T) { check(t, c, v) })
			seen[v.Case]++
			continue
		}
		raw, _ := hex.DecodeString(v.Hex)
		r := wire.NewReader(raw)
		t.Run(v.Version+"/"+v.Case, func(t *testing.T) {
			check := checker{t: t, v: v}
			check.decode(c, r)
			if r.Err() != nil || r.Remaining() != 0 {
				t.Errorf("decoding left err %v and %d bytes", r.Err(), r.Remaining())
			}
		})
		seen[v.Case]++
	}
	for _, name := range []string{"interact", "interact_at", "attack", "use_item", "use_item_on", "swing", "leave_bed", "spawn_entity", "rel_entity_move", "entity_move_look", "entity_look", "entity_head_rotation",
		"entity_teleport", "entity_velocity", "entity_destroy", "set_passengers", "entity_status", "unload_chunk",
		"update_view_position", "update_view_distance", "block_change", "multi_block_change", "tile_entity_data"} {
		if seen[name] != len(names) {
			t.Errorf("%s: %d vectors for %d versions", name, seen[name], len(names))
		}
	}
}

type checker struct {
	t *testing.T
	v packetVector
}

// num is a parsed number at a path of keys ("velocity", "x").
func (c checker) num(path ...string) float64 {
	var cur any = c.v.Parsed
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			c.t.Fatalf("parsed %v has no %v", c.v.Parsed, path)
		}
		cur = m[k]
	}
	switch x := cur.(type) {
	case float64:
		return x
	case string: // a BigInt
		f, _ := strconv.ParseFloat(x, 64)
		return f
	}
	c.t.Fatalf("parsed %v: %v is %T", c.v.Parsed, path, cur)
	return 0
}

// bool is a parsed flag, a boolean or (26.3's move flags) a one-bit
// bitfield.
func (c checker) bool(field string) bool {
	switch x := c.v.Parsed[field].(type) {
	case bool:
		return x
	case float64:
		return x != 0
	}
	c.t.Fatalf("parsed %v: %s is not a flag", c.v.Parsed, field)
	return false
}

// moveDelta is a parsed move's delta in 4096ths: its dX, dY, dZ, or from
// 26.3 the sum of its steps' when it has steps.
func (c checker) moveDelta() [3]float64 {
	steps, _ := c.v.Parsed["steps"].([]any)
	if len(steps) == 0 {
		return [3]float64{c.num("dX"), c.num("dY"), c.num("dZ")}
	}
	var d [3]float64
	for _, s := range steps {
		m := s.(map[string]any)
		d[0] += m["dX"].(float64)
		d[1] += m["dY"].(float64)
		d[2] += m["dZ"].(float64)
	}
	return d
}

// position is a parsed teleport's or sync's position: x, y, z, or from
// 26.3 a path's position or its last step.
func (c checker) position() [3]float64 {
	p, ok := c.v.Parsed["position"].(map[string]any)
	if !ok {
		return [3]float64{c.num("x"), c.num("y"), c.num("z")}
	}
	var at map[string]any
	switch path := p["path"].(type) {
	case map[string]any:
		at = path
	case []any:
		at = path[len(path)-1].(map[string]any)
	}
	return [3]float64{at["x"].(float64), at["y"].(float64), at["z"].(float64)}
}

// angle is a parsed rotation in degrees, whatever its wire type.
func (c checker) angle(field string) float32 {
	if c.v.Types[field] == "i8" {
		return float32(c.num(field)) * 360 / 256
	}
	return float32(c.num(field))
}

// velocity is a parsed velocity in blocks per tick.
func (c checker) velocity(field string) [3]float64 {
	v := [3]float64{c.num(field, "x"), c.num(field, "y"), c.num(field, "z")}
	if c.v.Types[field] == "vec3i16" {
		for i := range v {
			v[i] /= 8000
		}
	}
	return v
}

func (c checker) eq(what string, got, want any) {
	c.t.Helper()
	if g, ok := got.(float64); ok {
		if w, ok := want.(float64); ok && math.Abs(g-w) < 1e-9 {
			return
		}
	}
	if got != want {
		c.t.Errorf("%s = %v, want %v (minecraft-protocol parsed %v)", what, got, want, c.v.Parsed)
	}
}

func (c checker) ints(what string, got []int32, field string) {
	c.t.Helper()
	list, _ := c.v.Parsed[field].([]any)
	if len(got) != len(list) {
		c.t.Errorf("%s = %v, want %v", what, got, list)
		return
	}
	for i := range got {
		c.eq(what, float64(got[i]), list[i].(float64))
	}
}

func (c checker) decode(cd *Codec, r *wire.Reader) {
	n := c.num
	switch c.v.Name {
	case "spawn_entity", "spawn_entity_experience_orb":
		var e SpawnEntity
		if c.v.Name == "spawn_entity" {
			e = cd.SpawnEntity(r)
			c.eq("type", float64(e.Type), n("type"))
			c.eq("pitch", e.Pitch, c.angle("pitch"))
			c.eq("yaw", e.Yaw, c.angle("yaw"))
			c.eq("head yaw", e.HeadYaw, c.angle("headPitch"))
			c.eq("data", float64(e.Data), n("objectData"))
			vel := c.velocity("velocity")
			c.eq("vx", e.VX, vel[0])
			c.eq("vy", e.VY, vel[1])
			c.eq("vz", e.VZ, vel[2])
			c.eq("uuid", hex.EncodeToString(e.UUID[:]), "4b1c0a2e9f3d4e218a773c5d6e7f8091")
		} else {
			e = cd.SpawnExperienceOrb(r)
			c.eq("value", float64(e.Data), n("count"))
			c.eq("type", e.Type, mcdata.Game(cd.Protocol).EntityByName("experience_orb").ID)
		}
		c.eq("id", float64(e.EntityID), n("entityId"))
		c.eq("x", e.X, n("x"))
		c.eq("y", e.Y, n("y"))
		c.eq("z", e.Z, n("z"))
	case "rel_entity_move", "entity_move_look", "entity_look":
		var m EntityMove
		switch c.v.Name {
		case "rel_entity_move":
			m = cd.EntityMove(r)
		case "entity_move_look":
			m = cd.EntityMoveLook(r)
		default:
			m = cd.EntityLook(r)
		}
		c.eq("id", float64(m.EntityID), n("entityId"))
		c.eq("on ground", m.OnGround, c.bool("onGround"))
		if _, ok := c.v.Types["dX"]; ok != m.HasMove {
			c.t.Errorf("HasMove = %v", m.HasMove)
		} else if ok {
			d := c.moveDelta()
			c.eq("dx", m.DX, d[0]/4096)
			c.eq("dy", m.DY, d[1]/4096)
			c.eq("dz", m.DZ, d[2]/4096)
		}
		if _, ok := c.v.Types["yaw"]; ok != m.HasLook {
			c.t.Errorf("HasLook = %v", m.HasLook)
		} else if ok {
			c.eq("yaw", m.Yaw, c.angle("yaw"))
			c.eq("pitch", m.Pitch, c.angle("pitch"))
		}
	case "entity_head_rotation":
		h := cd.EntityHeadRotation(r)
		c.eq("id", float64(h.EntityID), n("entityId"))
		c.eq("head yaw", h.HeadYaw, c.angle("headYaw"))
	case "entity_teleport", "sync_entity_position":
		var tp EntityTeleport
		if c.v.Name == "entity_teleport" {
			tp = cd.EntityTeleport(r)
		} else {
			tp = cd.SyncEntityPosition(r)
		}
		c.eq("id", float64(tp.EntityID), n("entityId"))
		pos := c.position()
		c.eq("x", tp.X, pos[0])
		c.eq("y", tp.Y, pos[1])
		c.eq("z", tp.Z, pos[2])
		c.eq("yaw", tp.Yaw, c.angle("yaw"))
		c.eq("pitch", tp.Pitch, c.angle("pitch"))
		c.eq("on ground", tp.OnGround, c.v.Parsed["onGround"])
		if _, ok := c.v.Types["dx"]; ok != tp.HasVelocity {
			c.t.Errorf("HasVelocity = %v", tp.HasVelocity)
		} else if ok {
			c.eq("vx", tp.VX, n("dx"))
			c.eq("vy", tp.VY, n("dy"))
			c.eq("vz", tp.VZ, n("dz"))
		}
		if _, ok := c.v.Types["flags"]; ok {
			c.eq("relative", float64(tp.Relative), n("flags", "_value"))
		} else if tp.Relative != 0 {
			c.t.Errorf("relative = %#x without flags on the wire", tp.Relative)
		}
	case "entity_velocity":
		v := cd.EntityVelocity(r)
		want := c.velocity("velocity")
		c.eq("id", float64(v.EntityID), n("entityId"))
		c.eq("vx", v.VX, want[0])
		c.eq("vy", v.VY, want[1])
		c.eq("vz", v.VZ, want[2])
	case "entity_destroy":
		c.ints("ids", cd.EntityDestroy(r), "entityIds")
	case "set_passengers":
		p := cd.SetPassengers(r)
		c.eq("vehicle", float64(p.Vehicle), n("entityId"))
		c.ints("passengers", p.Passengers, "passengers")
	case "entity_status":
		s := cd.EntityStatus(r)
		c.eq("id", float64(s.EntityID), n("entityId"))
		c.eq("status", float64(s.Status), n("entityStatus"))
	case "unload_chunk":
		p := cd.UnloadChunk(r)
		c.eq("x", float64(p.X), n("chunkX"))
		c.eq("z", float64(p.Z), n("chunkZ"))
	case "update_view_position":
		p := cd.ChunkCenter(r)
		c.eq("x", float64(p.X), n("chunkX"))
		c.eq("z", float64(p.Z), n("chunkZ"))
	case "update_view_distance":
		c.eq("view distance", float64(cd.ViewDistance(r)), n("viewDistance"))
	case "block_change":
		b := cd.BlockChange(r)
		c.eq("x", float64(b.Pos.X), n("location", "x"))
		c.eq("y", float64(b.Pos.Y), n("location", "y"))
		c.eq("z", float64(b.Pos.Z), n("location", "z"))
		c.eq("state", float64(b.State), n("type"))
	case "multi_block_change":
		m := cd.MultiBlockChange(r)
		x, z, y := n("chunkCoordinates", "x"), n("chunkCoordinates", "z"), n("chunkCoordinates", "y")
		c.eq("section x", float64(m.Section>>42), x)
		c.eq("section z", float64(m.Section<<22>>42), z)
		c.eq("section y", float64(m.Section<<44>>44), y)
		records := make([]int32, len(m.Records))
		for i, rec := range m.Records {
			records[i] = int32(rec)
		}
		c.ints("records", records, "records")
	case "tile_entity_data":
		d := cd.BlockEntityData(r)
		c.eq("x", float64(d.Pos.X), n("location", "x"))
		c.eq("y", float64(d.Pos.Y), n("location", "y"))
		c.eq("z", float64(d.Pos.Z), n("location", "z"))
		c.eq("type", float64(d.Type), n("action"))
		nb := wire.NewReader(d.NBT)
		value, _ := nb.NBT().(map[string]any)
		c.eq("nbt id", value["id"], "minecraft:sign")
	default:
		c.t.Fatalf("no decoder checked for %s", c.v.Name)
	}
}

// checkInteract writes the Interact of a serverbound case and compares the
// packet and its bytes with minecraft-protocol's.
func checkInteract(t *testing.T, c *Codec, v packetVector) {
	i := Interact{EntityID: 42}
	switch v.Case {
	case "attack":
		i.Attack = true
	case "interact_at":
		i.Hand, i.At, i.Sneaking = 1, &[3]float64{0.25, 1.5, -0.25}, true
	}
	if got := c.InteractPacket(i).Name(); got != v.Name {
		t.Errorf("the packet is %s, minecraft-protocol writes %s", got, v.Name)
	}
	var w wire.Writer
	c.WriteInteract(&w, i)
	if got := hex.EncodeToString(w.Bytes()); got != v.Hex {
		t.Errorf("%+v is written %s, minecraft-protocol writes %s", i, got, v.Hex)
	}
}
