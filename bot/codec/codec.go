// Package codec holds the wire layouts of the packets the bot reads and
// writes, per protocol version, as typed decode and encode funcs ("thin
// decoding": a decoder turns bytes into a Go struct and nothing more; what
// the values mean is the features' business).
//
// base.go defines every layout as the oldest supported protocol (767,
// 1.21/1.21.1) has it. Each later protocol has one file, v768.go, v769.go
// …, that holds only what that version changed, each change with a comment
// saying what changed and where the fact comes from. A codec is built by
// running base and then every version's overrides in order up to its own
// protocol on a fresh Codec, so an override of one piece (say SpawnInfo)
// is seen by every layout that uses it (PlayLogin, Respawn).
//
// Adding a protocol is: regenerate bot/mcdata, add vNNN.go with its
// overrides (define(NNN, …)), and nothing else. TestEveryReleaseHasACodec
// fails while a release of mcdata has no codec or a codec no release.
//
// Where minecraft-data's layout differs from the game's, the codec follows
// the game, and the comment names the correction (C1 … in the header of
// bot/mcdata/packets_gen.go).
package codec

import (
	"fmt"
	"slices"
	"sync"

	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
)

// Codec is the wire layout of one protocol version. Decoders (funcs of a
// *wire.Reader) never panic and never allocate from a length they have not
// checked; a malformed packet leaves an error in the Reader. Encoders
// (Write… funcs) append to a *wire.Writer.
//
// A layout tagged since:"N" belongs to packets that protocol N added: it is
// nil before N (the version has no such packet, so nothing may be sent or
// handled) and set from N on; one tagged until:"N" belongs to packets the
// protocol after N removed. TestEveryReleaseHasACodec holds both.
type Codec struct {
	// Protocol is the protocol version, e.g. 769.
	Protocol int32
	// Packets is the version's generated packet table.
	Packets *mcdata.Table
	// Names are the game versions that speak the protocol, oldest first.
	Names []string

	// ---- handshake and login ----

	WriteHandshake           func(w *wire.Writer, h Handshake)
	WriteLoginStart          func(w *wire.Writer, l LoginStart)
	LoginCompress            func(r *wire.Reader) int32
	LoginSuccess             func(r *wire.Reader) LoginSuccess
	LoginDisconnect          func(r *wire.Reader) any
	LoginPluginRequest       func(r *wire.Reader) PluginRequest
	WriteLoginPluginResponse func(w *wire.Writer, p PluginResponse)

	// ---- shared by configuration and play ----

	KeepAlive                 func(r *wire.Reader) int64
	WriteKeepAlive            func(w *wire.Writer, id int64)
	Ping                      func(r *wire.Reader) int32
	WritePong                 func(w *wire.Writer, id int32)
	CookieRequest             func(r *wire.Reader) string
	WriteCookieResponse       func(w *wire.Writer, c CookieResponse)
	AddResourcePack           func(r *wire.Reader) ResourcePack
	WriteResourcePackResponse func(w *wire.Writer, p ResourcePackResponse)
	Transfer                  func(r *wire.Reader) Transfer
	// Disconnect is the configuration disconnect and the play kick.
	Disconnect         func(r *wire.Reader) any
	WriteCustomPayload func(w *wire.Writer, channel string, data []byte)

	// ---- configuration ----

	WriteClientInformation func(w *wire.Writer, c ClientInformation)
	SelectKnownPacks       func(r *wire.Reader) []KnownPack
	WriteSelectKnownPacks  func(w *wire.Writer, packs []KnownPack)
	RegistryData           func(r *wire.Reader) RegistryData
	// CodeOfConduct is the server's code of conduct (1.21.9+), which the
	// server waits for the client to accept (accept_code_of_conduct, an
	// empty packet) before it goes on.
	CodeOfConduct func(r *wire.Reader) string `since:"773"`

	// ---- dialogs (1.21.6+), in configuration and play ----

	// ShowConfigDialog is the configuration show_dialog: always inline.
	ShowConfigDialog func(r *wire.Reader) DialogRef `since:"771"`
	// ShowDialog is the play show_dialog: a registry entry or inline.
	ShowDialog             func(r *wire.Reader) DialogRef            `since:"771"`
	WriteCustomClickAction func(w *wire.Writer, a CustomClickAction) `since:"771"`

	// ---- play ----

	PlayLogin func(r *wire.Reader) PlayLogin
	Respawn   func(r *wire.Reader) Respawn
	// SpawnInfo is the piece PlayLogin and Respawn share.
	SpawnInfo    func(r *wire.Reader) SpawnInfo
	PositionSync func(r *wire.Reader) PositionSync
	// WriteTeleportConfirm writes teleport_confirm: the sync's teleport id
	// and, from 26.3, the position and rotation the client took from it.
	WriteTeleportConfirm func(w *wire.Writer, t TeleportConfirm)
	// WriteMovement writes position_look.
	WriteMovement func(w *wire.Writer, m Movement)
	// WriteMovementStatus writes the status-only movement ("flying"): only
	// whether the player stands on the ground (and, from 1.21.2, is against
	// a wall), from m.
	WriteMovementStatus func(w *wire.Writer, m Movement)
	// SendsPlayerLoaded says whether the client tells the server it has
	// loaded the world (player_loaded) after the first position sync of a
	// spawn and after each respawn.
	SendsPlayerLoaded bool

	UpdateHealth    func(r *wire.Reader) Health
	Experience      func(r *wire.Reader) Experience
	GameStateChange func(r *wire.Reader) GameStateChange
	TimeUpdate      func(r *wire.Reader) TimeUpdate
	SpawnPosition   func(r *wire.Reader) SpawnPosition
	// HeldSlot is the clientbound held_item_slot: the hotbar slot, 0 to 8.
	HeldSlot         func(r *wire.Reader) int32
	DeathCombatEvent func(r *wire.Reader) CombatDeath
	DamageEvent      func(r *wire.Reader) DamageEvent

	// MetadataTypes maps an entity metadata type id (the index) to its
	// kind; it comes from the generated tables (mcdata.MetadataTypes).
	MetadataTypes []MetadataKind
	// MetadataValue reads one metadata value of a kind, and false for a
	// kind whose layout the bot does not decode.
	MetadataValue  func(r *wire.Reader, kind MetadataKind) (any, bool)
	EntityMetadata func(r *wire.Reader) EntityMetadata

	// PlayerInfoActions lists the player-info actions in wire order: the
	// action of bit i is PlayerInfoActions[i], and an entry's fields come
	// in that order.
	PlayerInfoActions []PlayerInfoAction
	PlayerInfo        func(r *wire.Reader) PlayerInfoUpdate
	PlayerRemove      func(r *wire.Reader) [][16]byte

	SystemChat  func(r *wire.Reader) SystemChat
	ChatTypeRef func(r *wire.Reader) ChatTypeRef
	PlayerChat  func(r *wire.Reader) PlayerChat
	// SkipFilterMask reads past a partly filtered chat message's mask of
	// filtered characters (a bit set).
	SkipFilterMask  func(r *wire.Reader)
	ProfilelessChat func(r *wire.Reader) ProfilelessChat

	WriteChatMessage            func(w *wire.Writer, m ChatMessage)
	WriteChatCommand            func(w *wire.Writer, command string)
	WriteMessageAcknowledgement func(w *wire.Writer, count int32)
	WriteClientCommand          func(w *wire.Writer, action int32)

	ChunkBatchFinished      func(r *wire.Reader) int32
	WriteChunkBatchReceived func(w *wire.Writer, chunksPerTick float32)

	// ---- the world ----

	// ChunkFormat is how the version lays out chunk data (map_chunk's body
	// is read by world.DecodeChunk, which also needs the dimension's
	// height and the registries' sizes, known only at run time).
	ChunkFormat world.Format

	// ---- inventory and containers ----

	WindowItems func(r *wire.Reader) WindowItems
	SetSlot     func(r *wire.Reader) SetSlot
	// SetCursorItem reads set_cursor_item (a packet of 1.21.2 and later;
	// before, the cursor came as set_slot window -1).
	SetCursorItem func(r *wire.Reader) item.Stack
	// SetPlayerInventory reads set_player_inventory (1.21.2 and later;
	// before, set_slot window -2).
	SetPlayerInventory func(r *wire.Reader) SetPlayerInventory
	OpenWindow         func(r *wire.Reader) OpenWindow
	// CloseWindow reads the clientbound close_window: the window's id.
	CloseWindow    func(r *wire.Reader) int32
	WindowProperty func(r *wire.Reader) WindowProperty
	// WriteWindowClick writes window_click; it fails (writing nothing
	// useful) when a stack's components belong to another protocol or the
	// changed list is longer than the game reads.
	WriteWindowClick func(w *wire.Writer, c WindowClick) error
	WriteCloseWindow func(w *wire.Writer, window int32)
	// WriteHeldItem writes the serverbound held_item_slot: the hotbar slot
	// the bot holds, 0 to 8.
	WriteHeldItem     func(w *wire.Writer, slot int16)
	WritePlayerAction func(w *wire.Writer, a PlayerAction)
	// UnloadChunk reads unload_chunk (z first on the wire).
	UnloadChunk      func(r *wire.Reader) world.ChunkPos
	BlockChange      func(r *wire.Reader) BlockChange
	MultiBlockChange func(r *wire.Reader) SectionBlocks
	BlockEntityData  func(r *wire.Reader) BlockEntityData
	// ChunkCenter reads update_view_position: the column the server
	// centres the bot's view on.
	ChunkCenter func(r *wire.Reader) world.ChunkPos
	// ViewDistance reads update_view_distance, in chunks.
	ViewDistance func(r *wire.Reader) int32

	// ---- entities ----

	SpawnEntity func(r *wire.Reader) SpawnEntity
	// SpawnExperienceOrb reads spawn_entity_experience_orb; nil from 1.21.5,
	// which spawns orbs with spawn_entity.
	SpawnExperienceOrb func(r *wire.Reader) SpawnEntity `until:"769"`
	EntityMove         func(r *wire.Reader) EntityMove  // rel_entity_move
	EntityMoveLook     func(r *wire.Reader) EntityMove
	EntityLook         func(r *wire.Reader) EntityMove
	EntityHeadRotation func(r *wire.Reader) EntityHeadRotation
	EntityTeleport     func(r *wire.Reader) EntityTeleport
	// SyncEntityPosition reads sync_entity_position; nil before 1.21.2.
	SyncEntityPosition func(r *wire.Reader) EntityTeleport `since:"768"`
	EntityVelocity     func(r *wire.Reader) EntityVelocity
	EntityDestroy      func(r *wire.Reader) []int32
	SetPassengers      func(r *wire.Reader) Passengers
	EntityStatus       func(r *wire.Reader) EntityStatus
	// InteractPacket is the packet that carries an Interact: use_entity,
	// or from 26.1 attack for an attack; WriteInteract writes its body.
	InteractPacket func(i Interact) mcdata.Packet
	WriteInteract  func(w *wire.Writer, i Interact)
	// EntityData reads entity_metadata with every value type of the
	// version (bot/metadata), for the entity feature; EntityMetadata above
	// stops at the first type it does not decode.
	EntityData func(r *wire.Reader) EntityData

	// ---- skills (craft) ----

	// WriteUseItem writes use_item (eating, drinking); WriteUseItemOn
	// writes use_item_on, minecraft-data's block_place (opening a
	// container). Layouts in skills.go.
	WriteUseItem   func(w *wire.Writer, u UseItem)
	WriteUseItemOn func(w *wire.Writer, u UseItemOn)
	// SwingPacket is the packet that swings the bot's arm with a hand:
	// arm_animation, or from 26.3 punch, which only the main hand sends
	// (false: the version sends nothing for that hand). WriteSwing writes
	// its body.
	SwingPacket func(hand int32) (mcdata.Packet, bool)
	// WriteSwing writes arm_animation: the hand that swings (0 main); from
	// 26.3 punch, which has no body.
	WriteSwing func(w *wire.Writer, hand int32)

	// ---- digging, placing and using blocks (bot/dig) ----

	// BlockChangedAck reads block_changed_ack (acknowledge_player_digging):
	// the highest sequence the server has handled.
	BlockChangedAck func(r *wire.Reader) int32
	// EntityEffect and RemoveEntityEffect read update_mob_effect and
	// remove_mob_effect (haste and mining fatigue change break times).
	EntityEffect       func(r *wire.Reader) EntityEffect
	RemoveEntityEffect func(r *wire.Reader) RemoveEntityEffect
	// ---- movement ----

	// WritePosition writes position (the feet, no look) and WriteLook look
	// (no position), with the on-ground flag (from 1.21.2 the flags byte).
	// WriteMovement and WriteMovementStatus above are the other two.
	WritePosition func(w *wire.Writer, m Movement)
	WriteLook     func(w *wire.Writer, m Movement)
	// WritePlayerInput writes player_input (1.21.2 on): the keys held, as
	// physics.Controls.PlayerInput's flags byte. 1.21.1's packet of that
	// name steers a vehicle and is never sent.
	WritePlayerInput func(w *wire.Writer, keys byte) `since:"768"`
	// WriteSprint writes entity_action start or stop sprinting for the
	// bot's entity.
	WriteSprint func(w *wire.Writer, entityID int32, start bool)

	// ---- sleep ----

	// WriteLeaveBed writes entity_action stop_sleeping (the bed screen's
	// "Leave Bed" button) for the bot's entity.
	WriteLeaveBed func(w *wire.Writer, entityID int32)
}

// Name is the newest game version of the codec's protocol, e.g. "1.21.4".
func (c *Codec) Name() string { return c.Names[len(c.Names)-1] }

func (c *Codec) String() string { return fmt.Sprintf("protocol %d (%s)", c.Protocol, c.Name()) }

// overrides holds each protocol's changes, registered by the version files'
// init funcs.
var overrides = map[int32]func(c *Codec){}

// define registers the layouts protocol changed relative to the protocol
// before it (for the oldest, every layout).
func define(protocol int32, apply func(c *Codec)) {
	if overrides[protocol] != nil {
		panic(fmt.Sprintf("codec: protocol %d is defined twice", protocol))
	}
	overrides[protocol] = apply
}

// Defined lists the protocols with a codec file, oldest first.
func Defined() []int32 {
	out := make([]int32, 0, len(overrides))
	for p := range overrides {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

var codecs = sync.OnceValue(func() map[int32]*Codec {
	defined := Defined()
	m := map[int32]*Codec{}
	for _, r := range mcdata.Releases() {
		proto := int32(r.Protocol)
		if overrides[proto] == nil || mcdata.For(proto) == nil {
			continue
		}
		c := &Codec{Protocol: proto, Packets: mcdata.For(proto), Names: r.Names}
		for _, p := range defined {
			if p <= proto {
				overrides[p](c)
			}
		}
		m[proto] = c
	}
	return m
})

// For returns the codec of a protocol version, or nil when blockmate does
// not speak it. Every release in mcdata.Releases has one.
func For(protocol int32) *Codec { return codecs()[protocol] }
