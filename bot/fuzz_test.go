package bot

import (
	"testing"

	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// fuzzSession is a session in the given state whose writes vanish.
func fuzzSession(proto int32, state mcdata.State) *session {
	s := &session{
		log: testLog(), c: newConn(discardConn(), mcdata.For(proto)), v: versions[proto],
		username: "Theo", events: func(string, string, any) {}, opts: Options{}.withDefaults(),
		joined: make(chan struct{}), done: make(chan struct{}),
	}
	s.st.players = map[[16]byte]*PlayerInfo{}
	s.st.registries.chatTypes = []chatType{{name: "minecraft:chat", key: "chat.type.text", params: []string{"sender", "content"}}}
	s.c.setState(state)
	return s
}

// FuzzPacket feeds arbitrary payloads to the handler of every clientbound
// packet in login, configuration and play, for each protocol version. The
// first byte picks the version and state, the second the packet id; the
// rest is the payload. No input may panic the read loop's handlers.
func FuzzPacket(f *testing.F) {
	seed := func(proto int32, p mcdata.Packet, build func(w *wire.Writer)) {
		id, ok := mcdata.For(proto).ID(p)
		if !ok {
			return
		}
		var w wire.Writer
		build(&w)
		sel := byte(proto-767)*3 + byte(p.State()-mcdata.StateLogin)
		f.Add(append([]byte{sel, byte(id)}, w.Bytes()...))
	}
	for _, proto := range []int32{767, 768, 769} {
		seed(proto, mcdata.ClientboundPlaySystemChat, func(w *wire.Writer) { nbtTranslate(w, "chat.type.text", "a", "b"); w.Bool(false) })
		seed(proto, mcdata.ClientboundPlayPlayerInfo, func(w *wire.Writer) {
			w.Byte(0xff)
			w.VarInt(1)
			w.UUID([16]byte{1})
			w.String("x")
			w.VarInt(0)
		})
		seed(proto, mcdata.ClientboundPlayPosition, func(w *wire.Writer) { w.Raw(make([]byte, 64)) })
		seed(proto, mcdata.ClientboundPlayLogin, func(w *wire.Writer) { w.Raw(make([]byte, 40)) })
		seed(proto, mcdata.ClientboundConfigRegistryData, func(w *wire.Writer) {
			w.String("minecraft:chat_type")
			w.VarInt(1)
			w.String("minecraft:chat")
			w.Bool(true)
			nbtTranslate(w, "x")
		})
		seed(proto, mcdata.ClientboundLoginSuccess, func(w *wire.Writer) { w.UUID([16]byte{}); w.String("Theo"); w.VarInt(0) })
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 2 {
			return
		}
		proto := 767 + int32(b[0]/3%3)
		state := mcdata.StateLogin + mcdata.State(b[0]%3)
		s := fuzzSession(proto, state)
		defer s.c.close()
		p := s.c.table.Lookup(state, mcdata.Clientbound, int32(b[1]))
		if p == mcdata.PacketNone {
			return
		}
		r := wire.NewReader(b[2:])
		switch state {
		case mcdata.StateLogin:
			_ = s.handleLogin(p, r)
		case mcdata.StateConfig:
			_ = s.handleConfig(p, r)
		case mcdata.StatePlay:
			_ = s.handlePlay(p, r)
		}
	})
}
