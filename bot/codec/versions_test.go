package codec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
	"github.com/blockmate/blockmate/internal/testkit/peertest"
)

// peerVector is one packet minecraft-protocol's serializer encoded
// (testdata/make_vectors.js): its id and body, and, where minecraft-data
// and the game disagree, the game's bytes built by hand.
type peerVector struct {
	Version   string `json:"version"`
	State     string `json:"state"`
	Direction string `json:"direction"`
	Name      string `json:"name"`
	Hex       string `json:"hex"`
	GameHex   string `json:"gameHex"`
}

func loadPeerVectors(t *testing.T) []peerVector {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "peer_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Packets []peerVector }
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	return file.Packets
}

// codecNamed is the codec of a game version name.
func codecNamed(t *testing.T, name string) *Codec {
	t.Helper()
	for _, r := range mcdata.Releases() {
		for _, n := range r.Names {
			if n == name {
				return For(int32(r.Protocol))
			}
		}
	}
	t.Fatalf("no release is called %s", name)
	return nil
}

// body splits a vector's bytes into its packet (looked up in the codec's
// table) and its body.
func body(t *testing.T, c *Codec, v peerVector, raw []byte) (mcdata.Packet, []byte) {
	t.Helper()
	states := map[string]mcdata.State{"login": mcdata.StateLogin, "configuration": mcdata.StateConfig, "play": mcdata.StatePlay}
	dir := mcdata.Clientbound
	if v.Direction == "toServer" {
		dir = mcdata.Serverbound
	}
	r := wire.NewReader(raw)
	id := r.VarInt()
	p := c.Packets.Lookup(states[v.State], dir, id)
	if p.Name() != v.Name {
		t.Fatalf("%s %s %s: id %#x is %v in our table", v.Version, v.State, v.Name, id, p)
	}
	return p, r.Rest()
}

// withID is a serverbound packet as the vectors hold it: id, then body.
func withID(c *Codec, p mcdata.Packet, build func(w *wire.Writer)) []byte {
	id, _ := c.Packets.ID(p)
	var w wire.Writer
	w.VarInt(id)
	if build != nil {
		build(&w)
	}
	return w.Bytes()
}

// TestPeerVectors decodes what minecraft-protocol's serializer encoded for
// each version, and encodes what the bot sends to the very same bytes:
// the checksum byte of 1.21.5 chat, the global index of 1.21.5 player chat,
// the 1.21.9 spawn position, the code of conduct and its accept, dialogs
// in configuration and play. custom_click_action is the exception
// minecraft-data gets wrong (C4): the bot's bytes are the game's, not the
// peer's.
func TestPeerVectors(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range loadPeerVectors(t) {
		c := codecNamed(t, v.Version)
		raw, err := hex.DecodeString(v.Hex)
		if err != nil {
			t.Fatal(err)
		}
		p, b := body(t, c, v, raw)
		r := wire.NewReader(b)
		done := func(what string, ok bool, got any) {
			t.Helper()
			seen[v.Name] = true
			if r.Err() != nil || r.Remaining() != 0 || !ok {
				t.Errorf("%v %s: %+v, err %v, %d bytes left", c, what, got, r.Err(), r.Remaining())
			}
		}
		switch v.Name {
		case "chat_message":
			got := withID(c, p, func(w *wire.Writer) {
				c.WriteChatMessage(w, ChatMessage{Message: "hi", Timestamp: 1700000000000})
			})
			seen[v.Name] = true
			if !bytes.Equal(got, raw) {
				t.Errorf("%v chat message: % x, the peer encodes % x", c, got, raw)
			}
		case "player_chat":
			m := c.PlayerChat(r)
			wantIndex := int32(0)
			if c.Protocol >= 770 {
				wantIndex = 5
			}
			done("player chat", m.GlobalIndex == wantIndex && m.Sender == [16]byte{15: 1} && m.Body == "hi" && m.Timestamp == 1700000000000 &&
				m.ChatType.Registry == 0 && chat.Plain(m.SenderName) == "Alice" && m.Target == nil, m)
		case "spawn_position":
			s := c.SpawnPosition(r)
			want := SpawnPosition{Pos: BlockPos{1, 64, -2}, Yaw: 90}
			if c.Protocol >= 773 {
				want.Dimension = "minecraft:overworld"
			}
			done("spawn position", s == want, s)
		case "code_of_conduct":
			text := c.CodeOfConduct(r)
			done("code of conduct", text == "Be nice.", text)
		case "accept_code_of_conduct":
			done("accept", len(b) == 0, b)
		case "show_dialog":
			var d DialogRef
			if p.State() == mcdata.StateConfig {
				d = c.ShowConfigDialog(r)
			} else {
				d = c.ShowDialog(r)
			}
			m, _ := d.Inline.(map[string]any)
			done("show dialog", d.Registry == -1 && m["type"] == "minecraft:notice" && chat.Plain(m["title"]) == "Rules", d)
		case "clear_dialog":
			done("clear dialog", len(b) == 0, b)
		case "custom_click_action":
			got := withID(c, p, func(w *wire.Writer) { c.WriteCustomClickAction(w, CustomClickAction{ID: "minecraft:x"}) })
			game, _ := hex.DecodeString(v.GameHex)
			seen[v.Name] = true
			if !bytes.Equal(got, game) || bytes.Equal(got, raw) {
				t.Errorf("%v custom click action: % x; the game's bytes are % x, minecraft-data's % x (C4)", c, got, game, raw)
			}
		case "success":
			s := c.LoginSuccess(r)
			want := [16]byte{}
			if c.Protocol >= 776 {
				want[15] = 2
			}
			done("login success", s.UUID == [16]byte{15: 1} && s.Name == "Theo" && len(s.Properties) == 0 && s.SessionID == want, s)
		case "login":
			l := c.PlayLogin(r)
			done("play login", l.EntityID == 42 && l.Spawn.Dimension == "minecraft:overworld" && l.Spawn.GameMode == 1 && l.Spawn.Flat && l.Spawn.SeaLevel == 63 &&
				l.EnforcesSecureChat && l.OnlineMode == (c.Protocol >= 776), l)
		case "entity_velocity":
			// The bot reads no velocities yet (issue 9).
		default:
			t.Errorf("a vector of %s, which this test does not check", v.Name)
		}
	}
	for _, name := range []string{"chat_message", "player_chat", "spawn_position", "code_of_conduct", "accept_code_of_conduct", "show_dialog", "clear_dialog", "custom_click_action", "success", "login"} {
		if !seen[name] {
			t.Errorf("no vector checked %s", name)
		}
	}
}

// TestPeerVectorsAreCurrent regenerates the vectors with the installed
// minecraft-protocol: the file is what the peer encodes today, not what it
// encoded once.
func TestPeerVectorsAreCurrent(t *testing.T) {
	node := peertest.NodeBinary(t)
	modules := peertest.NodeModules(t)
	root := peertest.ModuleRoot(t)
	cmd := exec.Command(node, filepath.Join(root, "bot", "codec", "testdata", "make_vectors.js"))
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("make_vectors.js: %v", err)
	}
	var fresh, committed any
	if err := json.Unmarshal(out, &fresh); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join("testdata", "peer_vectors.json"))
	if err := json.Unmarshal(raw, &committed); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fresh, committed) {
		t.Error("bot/codec/testdata/peer_vectors.json differs from what minecraft-protocol encodes now; regenerate it (see make_vectors.js) and read the diff")
	}
}

// TestInlineChatTypeHasTwoDecorations: an inline chat type (holder 0) is a
// chat decoration and a narration decoration, in every version; the name
// and target after it are read from the right bytes.
func TestInlineChatTypeHasTwoDecorations(t *testing.T) {
	for _, rel := range mcdata.Releases() {
		c := For(int32(rel.Protocol))
		r := reader(func(w *wire.Writer) {
			w.Byte(8) // message: an NBT string
			w.Uint16(2)
			w.Raw([]byte("hi"))
			w.VarInt(0) // inline chat type
			w.String("chat.type.emote")
			w.VarInt(2)
			w.VarInt(1)
			w.VarInt(0)
			w.Byte(10) // style: an empty compound
			w.Byte(0)
			w.String("chat.type.emote.narrate")
			w.VarInt(1)
			w.VarInt(0)
			w.Byte(10)
			w.Byte(0)
			w.Byte(8) // sender name
			w.Uint16(4)
			w.Raw([]byte("alex"))
			w.Bool(false) // no target
		})
		m := c.ProfilelessChat(r)
		if r.Err() != nil || r.Remaining() != 0 || m.ChatType.Registry != -1 || m.ChatType.Inline.TranslationKey != "chat.type.emote" ||
			!reflect.DeepEqual(m.ChatType.Inline.Parameters, []string{"sender", "content"}) || m.SenderName != "alex" || m.Target != nil {
			t.Errorf("%v profileless chat with an inline type: %+v, err %v, %d left", c, m, r.Err(), r.Remaining())
		}
	}
}

// TestTimeUpdateWorldClocks: from 26.1 the time update is the age and the
// world clocks that changed, possibly none; a hostile clock count is an
// error, not an allocation.
func TestTimeUpdateWorldClocks(t *testing.T) {
	c := For(775)
	r := reader(func(w *wire.Writer) {
		w.Int64(72100)
		w.VarInt(2)
		w.VarInt(0)
		w.VarLong(6000)
		w.Float32(0.5)
		w.Float32(1)
		w.VarInt(1)
		w.VarLong(1 << 40)
		w.Float32(0)
		w.Float32(0)
	})
	tu := c.TimeUpdate(r)
	want := TimeUpdate{WorldAge: 72100, PerClock: true, Clocks: []ClockState{{0, 6000, 0.5, 1}, {1, 1 << 40, 0, 0}}}
	if r.Err() != nil || r.Remaining() != 0 || !reflect.DeepEqual(tu, want) {
		t.Errorf("775 time: %+v, err %v", tu, r.Err())
	}
	r = reader(func(w *wire.Writer) { w.Int64(5); w.VarInt(0) })
	if tu := c.TimeUpdate(r); r.Err() != nil || !tu.PerClock || len(tu.Clocks) != 0 || tu.WorldAge != 5 {
		t.Errorf("775 age-only time: %+v, err %v", tu, r.Err())
	}
	r = reader(func(w *wire.Writer) { w.Int64(5); w.VarInt(1 << 30) })
	if c.TimeUpdate(r); r.Err() == nil {
		t.Error("a billion clocks in a few bytes was accepted")
	}
	// 774 still sends a time of day; its bytes do not read as clocks.
	r = reader(func(w *wire.Writer) { w.Int64(100); w.Int64(6000); w.Bool(true) })
	if tu := For(774).TimeUpdate(r); r.Remaining() != 0 || tu.PerClock || tu.TimeOfDay != 6000 || !tu.TickDayTime {
		t.Errorf("774 time: %+v", tu)
	}
}

// TestChatChecksum: 1.21.5 and later end chat with the checksum byte the
// message carries (0, "do not check", for the bot); 1.21.4 has none.
func TestChatChecksum(t *testing.T) {
	for _, rel := range mcdata.Releases() {
		c := For(int32(rel.Protocol))
		var w wire.Writer
		c.WriteChatMessage(&w, ChatMessage{Message: "hi", Checksum: 7})
		want := 1 + 2 + 8 + 8 + 1 + 1 + 3
		if c.Protocol >= 770 {
			want++
		}
		if b := w.Bytes(); len(b) != want || (c.Protocol >= 770 && b[len(b)-1] != 7) {
			t.Errorf("%v chat message: % x, want %d bytes", c, b, want)
		}
	}
}

// TestCustomClickActionPayload: a payload is length-prefixed NBT (C4).
func TestCustomClickActionPayload(t *testing.T) {
	var nbt wire.Writer
	if err := nbt.NBT(map[string]any{"a": int8(1)}); err != nil {
		t.Fatal(err)
	}
	var w wire.Writer
	For(771).WriteCustomClickAction(&w, CustomClickAction{ID: "x:y", Payload: nbt.Bytes()})
	r := wire.NewReader(w.Bytes())
	if id, payload := r.String(100), r.ByteArray(); id != "x:y" || !bytes.Equal(payload, nbt.Bytes()) || r.Remaining() != 0 {
		t.Errorf("custom click action: % x", w.Bytes())
	}
}

// TestWolfVariantMetadata: the wolf variant is a registry id from 1.21.5;
// before, a holder the bot does not decode (the entry is partial).
func TestWolfVariantMetadata(t *testing.T) {
	for _, proto := range []int32{769, 770, 775} {
		c := For(proto)
		id := -1
		for i, k := range c.MetadataTypes {
			if k == MetaWolfVariant {
				id = i
			}
		}
		r := reader(func(w *wire.Writer) {
			w.VarInt(3)
			w.Byte(20)
			w.VarInt(int32(id))
			w.VarInt(4)
			w.Byte(0xff)
		})
		m := c.EntityMetadata(r)
		if proto >= 770 {
			if r.Err() != nil || m.Partial || len(m.Entries) != 1 || m.Entries[0].Value != int32(4) {
				t.Errorf("%v wolf variant: %+v, err %v", c, m, r.Err())
			}
		} else if !m.Partial || len(m.Entries) != 0 {
			t.Errorf("%v wolf variant holder: %+v", c, m)
		}
	}
}

// TestChunkFormats: each version's chunk layout flags, as the world
// decoder needs them.
func TestChunkFormats(t *testing.T) {
	for _, rel := range mcdata.Releases() {
		p := int32(rel.Protocol)
		want := world.Format{NoSizePrefix: p >= 770, HeightmapArray: p >= 770, FluidCount: p >= 775, LightMaskBytes: p >= 777}
		if got := For(p).ChunkFormat; got != want {
			t.Errorf("%d chunk format %+v, want %+v", p, got, want)
		}
	}
}
