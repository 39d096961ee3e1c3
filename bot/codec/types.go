package codec

import (
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/metadata"
)

// The typed packets. Fields are what the wire carries, named as the game
// names them; a decoder fills what its version sends and leaves the rest
// zero. Text components are chat component trees (bot/chat renders them),
// decoded from NBT, or from JSON where the packet still sends JSON.

// Handshake opens the connection (serverbound).
type Handshake struct {
	Protocol int32
	Host     string
	Port     uint16
	// Intent is 1 for status, 2 for login, 3 for a transfer.
	Intent int32
}

// IntentLogin is the handshake intent of a join.
const IntentLogin = 2

// LoginStart names the player (serverbound).
type LoginStart struct {
	Name string
	UUID [16]byte
}

// Property is one game-profile property (skins).
type Property struct {
	Name, Value string
	Signature   string
	Signed      bool
}

// LoginSuccess ends the login state (clientbound).
type LoginSuccess struct {
	UUID       [16]byte
	Name       string
	Properties []Property
	// SessionID is the server's id of this login session (26.2+; zero
	// before).
	SessionID [16]byte
}

// PluginRequest is a login plugin message (clientbound).
type PluginRequest struct {
	MessageID int32
	Channel   string
	Data      []byte // aliases the packet
}

// PluginResponse answers a PluginRequest (serverbound); Understood false
// sends no data, which tells the server the channel is unknown.
type PluginResponse struct {
	MessageID  int32
	Understood bool
	Data       []byte
}

// CookieResponse answers a cookie request (serverbound); a nil Payload
// means the client has no such cookie.
type CookieResponse struct {
	Key     string
	Payload []byte
}

// ResourcePack asks the client to load a pack (clientbound).
type ResourcePack struct {
	UUID   [16]byte
	URL    string
	Hash   string
	Forced bool
	Prompt any // text, nil when absent
}

// Resource pack results the client reports.
const (
	PackLoaded     = 0
	PackDeclined   = 1
	PackFailed     = 2
	PackAccepted   = 3
	PackDownloaded = 4
)

// ResourcePackResponse reports a pack's progress (serverbound).
type ResourcePackResponse struct {
	UUID   [16]byte
	Result int32
}

// Transfer sends the client on to another server (clientbound).
type Transfer struct {
	Host string
	Port int32
}

// ClientInformation is the client's settings (serverbound).
type ClientInformation struct {
	Locale             string
	ViewDistance       int8
	ChatMode           int32 // 0 full, 1 commands only, 2 hidden
	ChatColors         bool
	SkinParts          byte
	MainHand           int32 // 0 left, 1 right
	TextFiltering      bool
	AllowServerListing bool
	// ParticleStatus is 0 all, 1 decreased, 2 minimal (1.21.2+).
	ParticleStatus int32
}

// KnownPack is a data pack both sides may know.
type KnownPack struct {
	Namespace, ID, Version string
}

// RegistryEntry is one entry of a registry sent in configuration.
type RegistryEntry struct {
	Name string
	// Data is the entry's NBT (map[string]any …), nil when the server left
	// it out because the client knows it from a known pack.
	Data any
}

// RegistryData is one registry (clientbound, configuration).
type RegistryData struct {
	ID      string
	Entries []RegistryEntry
}

// BlockPos is a block position.
type BlockPos struct{ X, Y, Z int }

// GlobalPos is a position in a named dimension.
type GlobalPos struct {
	Dimension string
	Pos       BlockPos
}

// SpawnInfo is the part the play login and respawn share.
type SpawnInfo struct {
	DimensionType    int32
	Dimension        string
	HashedSeed       int64
	GameMode         int8
	PreviousGameMode int8
	Debug, Flat      bool
	DeathLocation    *GlobalPos
	PortalCooldown   int32
	SeaLevel         int32 // 1.21.2+
}

// PlayLogin starts play (clientbound).
type PlayLogin struct {
	EntityID           int32
	Hardcore           bool
	Dimensions         []string
	MaxPlayers         int32
	ViewDistance       int32
	SimulationDistance int32
	ReducedDebugInfo   bool
	RespawnScreen      bool
	LimitedCrafting    bool
	Spawn              SpawnInfo
	// OnlineMode says whether the server authenticates players (26.2+;
	// false before, when only the encryption request told).
	OnlineMode         bool
	EnforcesSecureChat bool
}

// Respawn moves the player to a (new) dimension or back to life
// (clientbound).
type Respawn struct {
	Spawn    SpawnInfo
	DataKept byte
}

// Relative flags of a position sync: which values add to the current ones.
const (
	RelativeX     = 1 << 0
	RelativeY     = 1 << 1
	RelativeZ     = 1 << 2
	RelativeYaw   = 1 << 3
	RelativePitch = 1 << 4
)

// PositionSync is the server placing the player (clientbound).
type PositionSync struct {
	TeleportID int32
	X, Y, Z    float64
	// Velocity is sent from 1.21.2 on.
	VX, VY, VZ float64
	Yaw, Pitch float32
	// Relative holds the Relative* bits (and, from 1.21.2, more for the
	// velocity).
	Relative uint32
}

// Movement is the player's position and look (serverbound position_look).
type Movement struct {
	X, Y, Z             float64
	Yaw, Pitch          float32
	OnGround            bool
	HorizontalCollision bool // sent from 1.21.2 on
}

// Health is the player's health, food and saturation (clientbound).
type Health struct {
	Health     float32
	Food       int32
	Saturation float32
}

// Experience is the player's experience (clientbound).
type Experience struct {
	Bar   float32 // 0..1 towards the next level
	Level int32
	Total int32
}

// Game state change reasons the bot reads.
const (
	GameStartRaining     = 1
	GameStopRaining      = 2
	GameChangeMode       = 3
	GameRainLevel        = 7
	GameThunderLevel     = 8
	GameImmediateRespawn = 11
)

// GameStateChange is one change of game state (clientbound).
type GameStateChange struct {
	Reason byte
	Value  float32
}

// TimeUpdate is the world's age and its time of day, or from 26.1 its
// world clocks (clientbound).
type TimeUpdate struct {
	WorldAge int64
	// TimeOfDay and TickDayTime are sent before 26.1. TickDayTime says
	// whether the day time advances (1.21.2+; before, a negative time of
	// day meant it stood still).
	TimeOfDay   int64
	TickDayTime bool
	// PerClock is true from 26.1 on: the update carries world clocks
	// instead of a time of day. Clocks holds only the clocks that changed
	// (all of them in the first update; none in a plain age update).
	PerClock bool
	Clocks   []ClockState
}

// ClockState is one world clock's state (26.1+). The time of day of a
// dimension is the TotalTicks of its dimension type's default clock.
type ClockState struct {
	// Clock is the clock's index in the minecraft:world_clock registry.
	Clock       int32
	TotalTicks  int64
	PartialTick float32
	// Rate is how fast the clock runs; 0 means it stands still.
	Rate float32
}

// SpawnPosition is the world's spawn point, where a compass points
// (clientbound set_default_spawn_position).
type SpawnPosition struct {
	// Dimension is sent from 1.21.9 on; "" before, where the spawn point
	// is the overworld's.
	Dimension string
	Pos       BlockPos
	Yaw       float32
	Pitch     float32 // 1.21.9+
}

// DialogRef is a dialog to show (1.21.6+): an entry of the minecraft:dialog
// registry the server sent in configuration, or the dialog's NBT inline.
type DialogRef struct {
	// Registry is the entry's index, or -1 when the dialog is inline.
	Registry int32
	// Inline is the dialog's NBT (map[string]any …) when Registry is -1.
	Inline any
}

// CustomClickAction is the client running a dialog's or a text's custom
// action (serverbound, 1.21.6+).
type CustomClickAction struct {
	ID string
	// Payload is one network NBT value, type byte first (wire.Writer.NBT
	// writes it); nil sends none.
	Payload []byte
}

// CombatDeath is the player's death screen (clientbound).
type CombatDeath struct {
	PlayerID int32
	Message  any // text
}

// DamageEvent is an entity taking damage (clientbound).
type DamageEvent struct {
	EntityID     int32
	SourceType   int32 // index in the damage type registry
	SourceCause  int32 // entity id + 1, 0 for none
	SourceDirect int32 // entity id + 1, 0 for none
	SourcePos    *[3]float64
}

// PlayerInfoAction is one kind of player-list change. The wire assigns
// them bits that differ between versions (Codec.PlayerInfoActions).
type PlayerInfoAction uint8

const (
	ActionAddPlayer PlayerInfoAction = iota
	ActionInitializeChat
	ActionGameMode
	ActionListed
	ActionLatency
	ActionDisplayName
	ActionListOrder
	ActionShowHat
)

// PlayerInfoEntry is one player's part of a player-list update.
type PlayerInfoEntry struct {
	UUID        [16]byte
	Name        string // with ActionAddPlayer
	Properties  []Property
	GameMode    int32
	Listed      bool
	Latency     int32
	DisplayName any // text, nil when unset
	ListOrder   int32
	ShowHat     bool
}

// PlayerInfoUpdate is a player-list change (clientbound). Has says which
// fields every entry carries.
type PlayerInfoUpdate struct {
	Actions uint16 // bit 1<<PlayerInfoAction for each action present
	Entries []PlayerInfoEntry
}

// Has reports whether the update carries action a.
func (u PlayerInfoUpdate) Has(a PlayerInfoAction) bool { return u.Actions&(1<<a) != 0 }

// SystemChat is a chat line from the server (clientbound).
type SystemChat struct {
	Content any // text
	Overlay bool
}

// ChatType is a chat type given inline instead of by registry entry.
type ChatType struct {
	TranslationKey string
	// Parameters name the translation's arguments in order: "sender",
	// "content" or "target".
	Parameters []string
}

// ChatTypeRef is a chat type: an entry of the chat_type registry or inline.
type ChatTypeRef struct {
	// Registry is the entry's index in the chat_type registry, or -1 when
	// the type is inline.
	Registry int32
	Inline   ChatType
}

// PlayerChat is chat a player wrote (clientbound).
type PlayerChat struct {
	// GlobalIndex counts every player chat the server sent this client
	// (1.21.5+). The bot reads it and does not check it: peers built on
	// minecraft-data send 0 for every message.
	GlobalIndex int32
	Sender      [16]byte
	Index       int32
	Signature   []byte // nil when unsigned; aliases the packet
	Body        string
	Timestamp   int64
	Salt        int64
	Unsigned    any // text replacing Body when set
	FilterType  int32
	ChatType    ChatTypeRef
	SenderName  any // text
	Target      any // text, nil when absent
}

// ProfilelessChat is chat without a signed sender, e.g. /say from the
// console (clientbound).
type ProfilelessChat struct {
	Message    any // text
	ChatType   ChatTypeRef
	SenderName any
	Target     any
}

// ChatMessage is the player's own chat line (serverbound).
type ChatMessage struct {
	Message   string
	Timestamp int64 // milliseconds since the epoch
	Salt      int64
	Signature []byte // nil: unsigned
	// Offset and Acknowledged are the last-seen messages update: how many
	// messages the client has seen since its last one, and a 20-bit set of
	// which of the last 20 it acknowledges.
	Offset       int32
	Acknowledged [3]byte
	// Checksum (1.21.5+) is a hash of the acknowledged signatures; 0 tells
	// the server not to check it, which is what an unsigned bot sends.
	Checksum byte
}

// ClientCommand actions.
const (
	CommandRespawn      = 0
	CommandRequestStats = 1
)

// MetadataKind is the type of one entity metadata value.
type MetadataKind uint8

const (
	MetaUnknown MetadataKind = iota
	MetaByte
	MetaVarInt
	MetaVarLong
	MetaFloat
	MetaString
	MetaComponent
	MetaOptionalComponent
	MetaItemStack
	MetaBool
	MetaRotations
	MetaBlockPos
	MetaOptionalBlockPos
	MetaDirection
	MetaOptionalUUID
	MetaBlockState
	MetaOptionalBlockState
	MetaNBT
	MetaParticle
	MetaParticles
	MetaVillagerData
	MetaOptionalVarInt
	MetaPose
	MetaCatVariant
	MetaWolfVariant
	MetaFrogVariant
	MetaOptionalGlobalPos
	MetaPaintingVariant
	MetaSnifferState
	MetaArmadilloState
	MetaVector3
	MetaQuaternion
	MetaCowVariant
	MetaWolfSoundVariant
	MetaPigVariant
	MetaChickenVariant
	MetaCopperGolemState
	MetaWeatheringCopperGolemState
	MetaResolvableProfile
	MetaZombieNautilusVariant
	MetaHumanoidArm
	MetaCatSoundVariant
	MetaCowSoundVariant
	MetaPigSoundVariant
	MetaChickenSoundVariant
	// MetaDyeColor is a dye colour's id, a VarInt (26.3).
	MetaDyeColor
	numMetadataKinds
)

// metadataKindNames are minecraft-data's names for the kinds: the
// generated per-protocol type lists (mcdata.MetadataTypes) name them so.
var metadataKindNames = [numMetadataKinds]string{
	"unknown", "byte", "int", "long", "float", "string", "component", "optional_component", "item_stack", "boolean",
	"rotations", "block_pos", "optional_block_pos", "direction", "optional_uuid", "block_state", "optional_block_state",
	"compound_tag", "particle", "particles", "villager_data", "optional_unsigned_int", "pose", "cat_variant",
	"wolf_variant", "frog_variant", "optional_global_pos", "painting_variant", "sniffer_state", "armadillo_state",
	"vector3", "quaternion", "cow_variant", "wolf_sound_variant", "pig_variant", "chicken_variant",
	"copper_golem_state", "weathering_copper_golem_state", "resolvable_profile", "zombie_nautilus_variant",
	"humanoid_arm", "cat_sound_variant", "cow_sound_variant", "pig_sound_variant", "chicken_sound_variant",
	"dye_color",
}

// metadataKinds turns a protocol's generated metadata type names into
// kinds, by id; a name the codec does not know reads as MetaUnknown (and
// decoding stops there), which TestMetadataKindsKnowEveryName forbids.
func metadataKinds(names []string) []MetadataKind {
	out := make([]MetadataKind, len(names))
	for i, n := range names {
		for k, kn := range metadataKindNames {
			if k > 0 && kn == n {
				out[i] = MetadataKind(k)
				break
			}
		}
	}
	return out
}

func (k MetadataKind) String() string { return metadataKindNames[min(k, numMetadataKinds-1)] }

// MetadataEntry is one entity metadata value. Value holds int8 (byte),
// int32 (VarInt kinds), int64, float32, string, bool, a text or NBT value,
// BlockPos, [3]float32, [4]float32, [16]byte or nil for an absent optional.
type MetadataEntry struct {
	Index uint8
	Kind  MetadataKind
	Value any
}

// EntityMetadata is an entity's changed metadata (clientbound). Decoding
// stops at the first value whose layout the bot does not decode (item
// stacks, particles, inline variants); Partial says so. Entries come in
// index order, so the leading ones are always there.
type EntityMetadata struct {
	EntityID int32
	Entries  []MetadataEntry
	Partial  bool
}

// ---- inventory and containers ----

// WindowItems is window_items: every slot of a window, in the window's
// numbering, and the stack on the cursor.
type WindowItems struct {
	Window  int32
	StateID int32
	Items   []item.Stack
	Carried item.Stack
}

// Special window ids of set_slot: the cursor (slot -1) and, before 1.21.2,
// the player's inventory by its own numbering (0–8 hotbar, 9–35 main, 36–39
// armour feet to head, 40 off-hand).
const (
	WindowCursor    = -1
	WindowInventory = -2
)

// SetSlot is set_slot: one slot of a window. Window is WindowCursor or
// WindowInventory for the special forms.
type SetSlot struct {
	Window  int32
	StateID int32
	Slot    int16
	Item    item.Stack
}

// SetPlayerInventory is set_player_inventory (1.21.2+): one slot of the
// player's inventory by its own numbering (see WindowInventory).
type SetPlayerInventory struct {
	Slot int32
	Item item.Stack
}

// OpenWindow is open_window: a container the server opened for the bot.
// MenuType is the id in the game's built-in minecraft:menu registry; Title
// is a text component (NBT form).
type OpenWindow struct {
	Window   int32
	MenuType int32
	Title    any
}

// WindowProperty is craft_progress_bar (the game's container data): one
// value of a container, such as a furnace's burn and cook progress.
type WindowProperty struct {
	Window   int32
	Property int16
	Value    int16
}

// Click modes of window_click (the game's ClickType, in its order).
const (
	ClickPickup     = 0 // left (button 0) or right (1) click
	ClickQuickMove  = 1 // shift-click
	ClickSwap       = 2 // number key: button 0–8 a hotbar slot, 40 the off-hand
	ClickClone      = 3 // middle click (creative)
	ClickThrow      = 4 // Q on a slot: button 0 one item, 1 the stack
	ClickQuickCraft = 5 // dragging
	ClickPickupAll  = 6 // double click
)

// WindowClick is window_click. Changed are the slots the client believes
// the click changed, and Carried what it believes the cursor holds after
// it; the server performs the click itself and uses these only to decide
// what to send back (see bot/inventory).
type WindowClick struct {
	Window  int32
	StateID int32
	Slot    int16
	Button  int8
	Mode    int32
	Changed []ChangedSlot
	Carried item.Stack
}

// ChangedSlot is one slot of WindowClick.Changed.
type ChangedSlot struct {
	Slot int16
	Item item.Stack
}

// Player action statuses (block_dig), the game's
// ServerboundPlayerActionPacket.Action in its order.
const (
	ActionStartDigging = 0
	ActionAbortDigging = 1
	ActionStopDigging  = 2
	ActionDropStack    = 3 // ctrl+Q: the held stack
	ActionDropItem     = 4 // Q: one of the held stack
	ActionReleaseUse   = 5
	ActionSwapHands    = 6 // F: main hand and off-hand
)

// TeleportConfirm answers a position sync (teleport_confirm): its id and,
// from 26.3, where the client then is and how it looks (the sync applied).
type TeleportConfirm struct {
	ID         int32
	X, Y, Z    float64
	Yaw, Pitch float32
}

// PlayerAction is block_dig (the game's player action): digging, dropping
// from the held slot, swapping hands.
type PlayerAction struct {
	Status   int32
	Pos      BlockPos
	Face     int8
	Sequence int32
}

// BlockChange is one block the server set (clientbound block_change).
type BlockChange struct {
	Pos   BlockPos
	State int32 // a global block state id
}

// SectionBlocks is a multi block change: several blocks of one section.
// Section packs the section's coordinates and each record one block, as
// world.SectionChange unpacks them.
type SectionBlocks struct {
	Section int64
	Records []int64
}

// BlockEntityData is a block entity's data (clientbound tile_entity_data).
type BlockEntityData struct {
	Pos BlockPos
	// Type is an id in the block_entity_type registry.
	Type int32
	// NBT is one network NBT value's bytes (nil when the server sent
	// TAG_End, "no data"); it aliases the packet.
	NBT []byte
}

// SpawnEntity is an entity coming into view (clientbound spawn_entity,
// and before 1.21.5 spawn_entity_experience_orb).
type SpawnEntity struct {
	EntityID int32
	UUID     [16]byte
	// Type is an id in the version's entity type registry (mcdata.Game's
	// Entities).
	Type    int32
	X, Y, Z float64
	// Pitch, Yaw and HeadYaw are in degrees (the wire sends 256ths of a
	// turn).
	Pitch, Yaw, HeadYaw float32
	// Data is the type's extra value: a falling block's state, an item
	// frame's facing, a projectile's owner, an experience orb's value.
	Data int32
	// VX, VY, VZ are the velocity in blocks per tick.
	VX, VY, VZ float64
}

// EntityMove is an entity's relative move and/or new look
// (rel_entity_move, entity_move_look, entity_look).
type EntityMove struct {
	EntityID int32
	// HasMove says DX, DY, DZ (blocks) are set; HasLook says Yaw and
	// Pitch (degrees) are.
	HasMove, HasLook bool
	DX, DY, DZ       float64
	Yaw, Pitch       float32
	OnGround         bool
}

// EntityTeleport places an entity (entity_teleport; from 1.21.2 also
// sync_entity_position, which is never relative).
type EntityTeleport struct {
	EntityID int32
	X, Y, Z  float64
	// HasVelocity says VX, VY, VZ (blocks per tick) are set (1.21.2 on).
	HasVelocity bool
	VX, VY, VZ  float64
	Yaw, Pitch  float32 // degrees
	// Relative holds the Relative* bits of the values that add to the
	// entity's current ones (1.21.2 on; 0 before).
	Relative uint32
	OnGround bool
}

// EntityVelocity is an entity's new velocity, in blocks per tick.
type EntityVelocity struct {
	EntityID   int32
	VX, VY, VZ float64
}

// EntityHeadRotation turns an entity's head (degrees).
type EntityHeadRotation struct {
	EntityID int32
	HeadYaw  float32
}

// Passengers says who rides a vehicle (set_passengers): the whole list.
type Passengers struct {
	Vehicle    int32
	Passengers []int32
}

// EntityStatus is an entity event (entity_status): 3 is a living entity's
// death, 2 hurt, and so on (the game's EntityEvent).
type EntityStatus struct {
	EntityID int32
	Status   int8
}

// EntityDeath is the entity event of a living entity dying.
const EntityDeath = 3

// EntityData is an entity's changed metadata with every value read by
// bot/metadata (the version's generated layouts).
type EntityData struct {
	EntityID int32
	Entries  []metadata.Entry
}

// Interact is the bot using an entity (a right click with a hand, maybe at
// a point of it) or attacking it (serverbound use_entity; from 26.1 an
// attack is a packet of its own).
type Interact struct {
	EntityID int32
	// Attack hits the entity instead of using it; Hand and At are then
	// not sent.
	Attack bool
	Hand   int32 // 0 main hand, 1 off hand
	// At is the point clicked, relative to the entity's position; nil for
	// a plain use (before 26.1 only interact_at carries a point; 26.1
	// always sends one, zero for none).
	At       *[3]float64
	Sneaking bool
}
