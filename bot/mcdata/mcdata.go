// Package mcdata holds the tables generated from minecraft-data: packet ids
// per protocol version, the releases each protocol serves, the en_us
// translations the bot renders, and the static game data of each version
// (blocks and their states, collision shapes, items, foods, tool
// materials, entities, enchantments, effects, recipes, biomes: Game, in
// game.go). Nothing here talks to the network; the tables are plain data
// the rest of the bot looks things up in.
//
// The generated files are committed, so `go build` needs no npm. After
// changing the minecraft-data pin in testdata/peers/package.json, run
// `npm ci --prefix testdata/peers && go generate ./bot/mcdata`; a test fails
// while the committed files differ from what the generator writes.
package mcdata

//go:generate go run ./gen -root ../.. -out .

import "strings"

// State is a connection state of the Java Edition protocol.
type State uint8

const (
	StateHandshake State = iota
	StateStatus
	StateLogin
	StateConfig
	StatePlay
	numStates
)

func (s State) String() string {
	return [...]string{"handshake", "status", "login", "configuration", "play", "?"}[min(int(s), int(numStates))]
}

// Direction is who sends a packet.
type Direction uint8

const (
	Clientbound Direction = iota // server to client
	Serverbound                  // client to server
)

// Packet names one packet kind across versions; its id depends on the
// protocol version (Table.ID).
type Packet uint16

type meta struct {
	State State
	Dir   Direction
	Name  string
}

// Name is minecraft-data's name for the packet, e.g. "keep_alive".
func (p Packet) Name() string {
	if p == PacketNone || p >= numPackets {
		return "unknown"
	}
	return packetMeta[p].Name
}

// State is the connection state the packet belongs to.
func (p Packet) State() State { return packetMeta[min(p, numPackets-1)].State }

// Dir says who sends the packet.
func (p Packet) Dir() Direction { return packetMeta[min(p, numPackets-1)].Dir }

func (p Packet) String() string {
	if p == PacketNone || p >= numPackets {
		return "unknown packet"
	}
	m := packetMeta[p]
	dir := "clientbound"
	if m.Dir == Serverbound {
		dir = "serverbound"
	}
	return m.State.String() + " " + dir + " " + m.Name
}

// Release is one protocol version and the game versions that speak it.
type Release struct {
	Protocol int
	// Names are the game versions, oldest first: "1.21", "1.21.1".
	Names []string
	// Data is minecraft-data's folder the tables came from.
	Data string
}

// Releases lists the protocol versions the tables cover, oldest first: the
// one list of supported releases. The generator derives it from
// minecraft-data (every release from protocol 767 on that has protocol
// data), and everything else that names versions (codecs, game data, the
// version verdicts, every test matrix) reads it.
func Releases() []Release { return append([]Release(nil), releases...) }

// MetadataTypes names the entity metadata value types of a protocol in id
// order, as minecraft-data names them ("byte", "int", … "quaternion"); nil
// for a protocol the tables do not cover.
func MetadataTypes(protocol int32) []string {
	return append([]string(nil), metadataTypes[protocol]...)
}

// Table maps packets to ids and back for one protocol version.
type Table struct {
	Protocol int32
	ids      *[numPackets]int16
	// byID[state][dir][id] is the packet with that id.
	byID [numStates][2][]Packet
}

var tables = func() map[int32]*Table {
	m := make(map[int32]*Table, len(packetIDs))
	for proto, ids := range packetIDs {
		t := &Table{Protocol: proto, ids: ids}
		for p := Packet(1); p < numPackets; p++ {
			id := ids[p]
			if id < 0 {
				continue
			}
			md := packetMeta[p]
			list := t.byID[md.State][md.Dir]
			for len(list) <= int(id) {
				list = append(list, PacketNone)
			}
			list[id] = p
			t.byID[md.State][md.Dir] = list
		}
		m[proto] = t
	}
	return m
}()

// Name is the newest game version of the table's protocol, e.g. "1.21.4".
func (t *Table) Name() string {
	for _, r := range releases {
		if int32(r.Protocol) == t.Protocol {
			return r.Names[len(r.Names)-1]
		}
	}
	return "unknown"
}

// For returns the table for a protocol version, or nil if the tables do not
// cover it.
func For(protocol int32) *Table { return tables[protocol] }

// ID is the packet's id in this version, and false if this version has no
// such packet.
func (t *Table) ID(p Packet) (int32, bool) {
	if p == PacketNone || p >= numPackets || t.ids[p] < 0 {
		return 0, false
	}
	return int32(t.ids[p]), true
}

// Lookup finds the packet a peer sent (or we send) by state, direction and
// id; PacketNone when the version has none with that id.
func (t *Table) Lookup(s State, d Direction, id int32) Packet {
	if s >= numStates || d > Serverbound || id < 0 {
		return PacketNone
	}
	list := t.byID[s][d]
	if int(id) >= len(list) {
		return PacketNone
	}
	return list[id]
}

// Translate returns the en_us text for a translation key and whether it is
// known. Only the keys the bot renders are kept (chat formats, deaths,
// disconnect reasons, whispers, join and leave lines, command feedback,
// dialog buttons).
func Translate(key string) (string, bool) {
	s, ok := lang[key]
	return s, ok
}

// TranslationsWithPrefix counts the kept translations under a prefix, for
// tests.
func TranslationsWithPrefix(prefix string) int {
	n := 0
	for k := range lang {
		if strings.HasPrefix(k, prefix) {
			n++
		}
	}
	return n
}
