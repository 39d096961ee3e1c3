package codec

import (
	"fmt"
	"sync"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/item"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/metadata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/bot/world"
)

// Every layout as protocol 767 (1.21, 1.21.1) has it. Sources: the
// protocol definitions of minecraft-data (pc/1.21.1/protocol.json) and the
// wiki's Java Edition protocol page for 1.21; where they disagree, the game
// decides (see the comments).
func init() { define(767, base) }

// String limits, in characters, as the game reads them.
const (
	maxString     = 32767
	maxIdentifier = 32767
	maxName       = 16
	maxChat       = 256
	maxJSONText   = 262144
)

func base(c *Codec) {
	c.WriteHandshake = writeHandshake
	c.WriteLoginStart = writeLoginStart
	c.LoginCompress = func(r *wire.Reader) int32 { return r.VarInt() }
	c.LoginSuccess = func(r *wire.Reader) LoginSuccess {
		s := loginSuccess(r)
		_ = r.Bool() // strict error handling (1.20.5 to 1.21.1)
		return s
	}
	c.LoginDisconnect = func(r *wire.Reader) any { return chat.ParseJSON(r.String(maxJSONText)) }
	c.LoginPluginRequest = func(r *wire.Reader) PluginRequest {
		return PluginRequest{MessageID: r.VarInt(), Channel: r.String(maxIdentifier), Data: r.Rest()}
	}
	c.WriteLoginPluginResponse = func(w *wire.Writer, p PluginResponse) {
		w.VarInt(p.MessageID)
		w.Bool(p.Understood)
		if p.Understood {
			w.Raw(p.Data)
		}
	}

	c.KeepAlive = func(r *wire.Reader) int64 { return r.Int64() }
	c.WriteKeepAlive = func(w *wire.Writer, id int64) { w.Int64(id) }
	c.Ping = func(r *wire.Reader) int32 { return r.Int32() }
	c.WritePong = func(w *wire.Writer, id int32) { w.Int32(id) }
	c.CookieRequest = func(r *wire.Reader) string { return r.String(maxIdentifier) }
	c.WriteCookieResponse = func(w *wire.Writer, cr CookieResponse) {
		w.String(cr.Key)
		w.Bool(cr.Payload != nil)
		if cr.Payload != nil {
			w.ByteArray(cr.Payload)
		}
	}
	c.AddResourcePack = func(r *wire.Reader) ResourcePack {
		return ResourcePack{UUID: r.UUID(), URL: r.String(maxString), Hash: r.String(40), Forced: r.Bool(), Prompt: r.OptionalNBT()}
	}
	c.WriteResourcePackResponse = func(w *wire.Writer, p ResourcePackResponse) {
		w.UUID(p.UUID)
		w.VarInt(p.Result)
	}
	c.Transfer = func(r *wire.Reader) Transfer { return Transfer{Host: r.String(maxString), Port: r.VarInt()} }
	c.Disconnect = func(r *wire.Reader) any { return r.NBT() }
	c.WriteCustomPayload = func(w *wire.Writer, channel string, data []byte) {
		w.String(channel)
		w.Raw(data)
	}

	c.WriteClientInformation = writeClientInformation
	c.SelectKnownPacks = func(r *wire.Reader) []KnownPack {
		n := r.Count(3)
		packs := make([]KnownPack, 0, n)
		for i := 0; i < n && r.Err() == nil; i++ {
			packs = append(packs, KnownPack{Namespace: r.String(maxString), ID: r.String(maxString), Version: r.String(maxString)})
		}
		return packs
	}
	c.WriteSelectKnownPacks = func(w *wire.Writer, packs []KnownPack) {
		w.VarInt(int32(len(packs)))
		for _, p := range packs {
			w.String(p.Namespace)
			w.String(p.ID)
			w.String(p.Version)
		}
	}
	c.RegistryData = registryData

	c.SpawnInfo = spawnInfo
	c.PlayLogin = func(r *wire.Reader) PlayLogin { return playLogin(c, r) }
	c.Respawn = func(r *wire.Reader) Respawn { return Respawn{Spawn: c.SpawnInfo(r), DataKept: r.Byte()} }
	c.PositionSync = func(r *wire.Reader) PositionSync {
		var p PositionSync
		p.X, p.Y, p.Z = r.Float64(), r.Float64(), r.Float64()
		p.Yaw, p.Pitch = r.Float32(), r.Float32()
		p.Relative = uint32(r.Byte())
		p.TeleportID = r.VarInt()
		return p
	}
	c.WriteTeleportConfirm = func(w *wire.Writer, t TeleportConfirm) { w.VarInt(t.ID) }
	c.WriteMovement = func(w *wire.Writer, m Movement) {
		writePositionLook(w, m)
		w.Bool(m.OnGround)
	}
	c.WriteMovementStatus = func(w *wire.Writer, m Movement) { w.Bool(m.OnGround) }
	c.SendsPlayerLoaded = false

	c.UpdateHealth = func(r *wire.Reader) Health {
		return Health{Health: r.Float32(), Food: r.VarInt(), Saturation: r.Float32()}
	}
	c.Experience = func(r *wire.Reader) Experience {
		return Experience{Bar: r.Float32(), Level: r.VarInt(), Total: r.VarInt()}
	}
	c.GameStateChange = func(r *wire.Reader) GameStateChange {
		return GameStateChange{Reason: r.Byte(), Value: r.Float32()}
	}
	c.TimeUpdate = func(r *wire.Reader) TimeUpdate {
		t := TimeUpdate{WorldAge: r.Int64(), TimeOfDay: r.Int64()}
		// Before 1.21.2 a negative time of day meant the daylight cycle
		// stood still.
		t.TickDayTime = t.TimeOfDay >= 0
		if t.TimeOfDay < 0 {
			t.TimeOfDay = -t.TimeOfDay
		}
		return t
	}
	c.SpawnPosition = func(r *wire.Reader) SpawnPosition {
		x, y, z := r.Position()
		return SpawnPosition{Pos: BlockPos{x, y, z}, Yaw: r.Float32()}
	}
	c.HeldSlot = func(r *wire.Reader) int32 { return int32(r.Int8()) }
	c.DeathCombatEvent = func(r *wire.Reader) CombatDeath { return CombatDeath{PlayerID: r.VarInt(), Message: r.NBT()} }
	c.DamageEvent = func(r *wire.Reader) DamageEvent {
		d := DamageEvent{EntityID: r.VarInt(), SourceType: r.VarInt(), SourceCause: r.VarInt(), SourceDirect: r.VarInt()}
		if r.Bool() {
			d.SourcePos = &[3]float64{r.Float64(), r.Float64(), r.Float64()}
		}
		return d
	}

	// Entity metadata type ids change in 1.21.5, 1.21.9, 1.21.11 and 26.1;
	// every version's table is generated from minecraft-data (checked
	// against the game's EntityDataSerializers at 769, 772 and 775), so
	// the version files do not repeat them.
	c.MetadataTypes = metadataKinds(mcdata.MetadataTypes(c.Protocol))
	c.MetadataValue = metadataValue
	c.EntityMetadata = func(r *wire.Reader) EntityMetadata { return entityMetadata(c, r) }

	c.PlayerInfoActions = []PlayerInfoAction{ActionAddPlayer, ActionInitializeChat, ActionGameMode, ActionListed, ActionLatency, ActionDisplayName}
	c.PlayerInfo = func(r *wire.Reader) PlayerInfoUpdate { return playerInfo(c, r) }
	c.PlayerRemove = func(r *wire.Reader) [][16]byte {
		n := r.Count(16)
		ids := make([][16]byte, 0, n)
		for i := 0; i < n && r.Err() == nil; i++ {
			ids = append(ids, r.UUID())
		}
		return ids
	}

	c.SystemChat = func(r *wire.Reader) SystemChat { return SystemChat{Content: r.NBT(), Overlay: r.Bool()} }
	c.ChatTypeRef = chatTypeRef
	c.PlayerChat = func(r *wire.Reader) PlayerChat { return playerChat(c, r) }
	// A bit set is a VarInt count of longs and the longs (until 26.3).
	c.SkipFilterMask = func(r *wire.Reader) { r.Bytes(8 * r.Count(8)) }
	c.ProfilelessChat = func(r *wire.Reader) ProfilelessChat {
		return ProfilelessChat{Message: r.NBT(), ChatType: c.ChatTypeRef(r), SenderName: r.NBT(), Target: r.OptionalNBT()}
	}
	c.WriteChatMessage = func(w *wire.Writer, m ChatMessage) {
		w.String(m.Message)
		w.Int64(m.Timestamp)
		w.Int64(m.Salt)
		w.Bool(m.Signature != nil)
		if m.Signature != nil {
			w.Raw(m.Signature)
		}
		w.VarInt(m.Offset)
		w.Raw(m.Acknowledged[:])
	}
	c.WriteChatCommand = func(w *wire.Writer, command string) { w.String(command) }
	c.WriteMessageAcknowledgement = func(w *wire.Writer, count int32) { w.VarInt(count) }
	c.WriteClientCommand = func(w *wire.Writer, action int32) { w.VarInt(action) }

	c.ChunkBatchFinished = func(r *wire.Reader) int32 { return r.VarInt() }
	c.WriteChunkBatchReceived = func(w *wire.Writer, perTick float32) { w.Float32(perTick) }

	baseInventory(c)
	baseWorld(c)
	baseEntities(c)
	baseSkills(c)
	baseDig(c)
	baseMovement(c)
	baseSleep(c)
}

// baseWorld sets the chunk and block layouts of 767 (minecraft-data
// pc/1.21.1; the game's ClientboundLevelChunkWithLightPacket,
// ClientboundForgetLevelChunkPacket, ClientboundBlockUpdatePacket,
// ClientboundSectionBlocksUpdatePacket, ClientboundBlockEntityDataPacket).
func baseWorld(c *Codec) {
	// Heightmaps are an NBT compound and every paletted container says how
	// many words follow (until 1.21.5).
	c.ChunkFormat = world.Format{}
	// The game writes the column as one packed ChunkPos long, which reads
	// as z, then x.
	c.UnloadChunk = func(r *wire.Reader) world.ChunkPos {
		z := r.Int32()
		return world.ChunkPos{X: r.Int32(), Z: z}
	}
	c.BlockChange = func(r *wire.Reader) BlockChange {
		x, y, z := r.Position()
		return BlockChange{Pos: BlockPos{x, y, z}, State: r.VarInt()}
	}
	c.MultiBlockChange = func(r *wire.Reader) SectionBlocks {
		s := SectionBlocks{Section: r.Int64()}
		// minecraft-data types the records as VarInts; the game writes
		// VarLongs (correction C9). Both read the same for state ids
		// below 2^19, and a VarLong reader reads both.
		n := r.Count(1)
		if n > maxSectionRecords {
			r.Failf("a section update of %d blocks; a section has %d", n, maxSectionRecords)
			return s
		}
		s.Records = make([]int64, 0, n)
		for i := 0; i < n && r.Err() == nil; i++ {
			s.Records = append(s.Records, r.VarLong())
		}
		return s
	}
	c.BlockEntityData = func(r *wire.Reader) BlockEntityData {
		x, y, z := r.Position()
		return BlockEntityData{Pos: BlockPos{x, y, z}, Type: r.VarInt(), NBT: r.NBTRaw()}
	}
	c.ChunkCenter = func(r *wire.Reader) world.ChunkPos { return world.ChunkPos{X: r.VarInt(), Z: r.VarInt()} }
	c.ViewDistance = func(r *wire.Reader) int32 { return r.VarInt() }
}

// maxSectionRecords bounds a section update: a section has 4096 blocks, and
// the game sends each changed block once.
const maxSectionRecords = 4096

// baseEntities sets the entity layouts of 767 (minecraft-data pc/1.21.1;
// the game's ClientboundAddEntityPacket, ClientboundMoveEntityPacket,
// ClientboundTeleportEntityPacket, ClientboundSetEntityMotionPacket …).
func baseEntities(c *Codec) {
	c.SpawnEntity = func(r *wire.Reader) SpawnEntity {
		e := SpawnEntity{EntityID: r.VarInt(), UUID: r.UUID(), Type: r.VarInt(), X: r.Float64(), Y: r.Float64(), Z: r.Float64()}
		e.Pitch, e.Yaw, e.HeadYaw = angle(r), angle(r), angle(r)
		e.Data = r.VarInt()
		e.VX, e.VY, e.VZ = shortVelocity(r)
		return e
	}
	// The orb's entity type comes from the version's static data, looked
	// up at the first orb: building a codec must not decode the game data
	// of every version (codecs are built for all of them at once).
	orb := sync.OnceValue(func() int32 {
		if g := mcdata.Game(c.Protocol); g != nil {
			if t := g.EntityByName("experience_orb"); t != nil {
				return t.ID
			}
		}
		return -1
	})
	// An orb has no UUID on the wire (the game makes a random one); its
	// value is the data.
	c.SpawnExperienceOrb = func(r *wire.Reader) SpawnEntity {
		return SpawnEntity{EntityID: r.VarInt(), Type: orb(), X: r.Float64(), Y: r.Float64(), Z: r.Float64(), Data: int32(r.Int16())}
	}
	c.EntityMove = func(r *wire.Reader) EntityMove {
		m := EntityMove{EntityID: r.VarInt(), HasMove: true}
		m.DX, m.DY, m.DZ = delta(r), delta(r), delta(r)
		m.OnGround = r.Bool()
		return m
	}
	c.EntityMoveLook = func(r *wire.Reader) EntityMove {
		m := EntityMove{EntityID: r.VarInt(), HasMove: true, HasLook: true}
		m.DX, m.DY, m.DZ = delta(r), delta(r), delta(r)
		m.Yaw, m.Pitch = angle(r), angle(r)
		m.OnGround = r.Bool()
		return m
	}
	c.EntityLook = func(r *wire.Reader) EntityMove {
		m := EntityMove{EntityID: r.VarInt(), HasLook: true}
		m.Yaw, m.Pitch = angle(r), angle(r)
		m.OnGround = r.Bool()
		return m
	}
	c.EntityHeadRotation = func(r *wire.Reader) EntityHeadRotation {
		return EntityHeadRotation{EntityID: r.VarInt(), HeadYaw: angle(r)}
	}
	c.EntityTeleport = func(r *wire.Reader) EntityTeleport {
		t := EntityTeleport{EntityID: r.VarInt(), X: r.Float64(), Y: r.Float64(), Z: r.Float64()}
		t.Yaw, t.Pitch = angle(r), angle(r)
		t.OnGround = r.Bool()
		return t
	}
	c.SyncEntityPosition = nil // 1.21.2
	c.EntityVelocity = func(r *wire.Reader) EntityVelocity {
		v := EntityVelocity{EntityID: r.VarInt()}
		v.VX, v.VY, v.VZ = shortVelocity(r)
		return v
	}
	c.EntityDestroy = func(r *wire.Reader) []int32 { return varInts(r) }
	c.SetPassengers = func(r *wire.Reader) Passengers { return Passengers{Vehicle: r.VarInt(), Passengers: varInts(r)} }
	c.EntityStatus = func(r *wire.Reader) EntityStatus { return EntityStatus{EntityID: r.Int32(), Status: r.Int8()} }
	// use_entity: 0 interact, 1 attack, 2 interact at a point (x, y, z as
	// floats); a hand for 0 and 2; then sneaking (game 1.21.4
	// ServerboundInteractPacket).
	c.InteractPacket = func(Interact) mcdata.Packet { return mcdata.ServerboundPlayUseEntity }
	c.WriteInteract = func(w *wire.Writer, i Interact) {
		w.VarInt(i.EntityID)
		switch {
		case i.Attack:
			w.VarInt(1)
		case i.At != nil:
			w.VarInt(2)
			w.Float32(float32(i.At[0]))
			w.Float32(float32(i.At[1]))
			w.Float32(float32(i.At[2]))
			w.VarInt(i.Hand)
		default:
			w.VarInt(0)
			w.VarInt(i.Hand)
		}
		w.Bool(i.Sneaking)
	}
	c.EntityData = func(r *wire.Reader) EntityData {
		d := EntityData{EntityID: r.VarInt()}
		if r.Err() == nil {
			d.Entries = metadata.Read(r, c.Protocol)
		}
		return d
	}
}

// angle reads a rotation sent as 256ths of a turn, in degrees.
func angle(r *wire.Reader) float32 { return float32(r.Int8()) * 360 / 256 }

// delta reads a relative move component sent in 4096ths of a block.
func delta(r *wire.Reader) float64 { return float64(r.Int16()) / 4096 }

// shortVelocity reads a velocity sent as three shorts in 8000ths of a
// block per tick (until 1.21.9).
func shortVelocity(r *wire.Reader) (x, y, z float64) {
	return float64(r.Int16()) / 8000, float64(r.Int16()) / 8000, float64(r.Int16()) / 8000
}

// varInts reads a VarInt-counted array of VarInts, bounded by the bytes
// left (each takes one at least).
func varInts(r *wire.Reader) []int32 {
	n := r.Count(1)
	out := make([]int32, 0, n)
	for i := 0; i < n && r.Err() == nil; i++ {
		out = append(out, r.VarInt())
	}
	return out
}

func writeHandshake(w *wire.Writer, h Handshake) {
	w.VarInt(h.Protocol)
	w.String(h.Host)
	w.Uint16(h.Port)
	w.VarInt(h.Intent)
}

func writeLoginStart(w *wire.Writer, l LoginStart) {
	w.String(l.Name)
	w.UUID(l.UUID)
}

// loginSuccess reads the fields every version's login success starts with.
func loginSuccess(r *wire.Reader) LoginSuccess {
	s := LoginSuccess{UUID: r.UUID(), Name: r.String(maxName)}
	s.Properties = properties(r)
	return s
}

func properties(r *wire.Reader) []Property {
	n := r.Count(3)
	props := make([]Property, 0, n)
	for i := 0; i < n && r.Err() == nil; i++ {
		p := Property{Name: r.String(64), Value: r.String(maxString)}
		if r.Bool() {
			p.Signed, p.Signature = true, r.String(1024)
		}
		props = append(props, p)
	}
	return props
}

// writeClientInformation writes the settings every version sends; later
// versions append to it.
func writeClientInformation(w *wire.Writer, c ClientInformation) {
	w.String(c.Locale)
	w.Int8(c.ViewDistance)
	w.VarInt(c.ChatMode)
	w.Bool(c.ChatColors)
	w.Byte(c.SkinParts)
	w.VarInt(c.MainHand)
	w.Bool(c.TextFiltering)
	w.Bool(c.AllowServerListing)
}

func registryData(r *wire.Reader) RegistryData {
	d := RegistryData{ID: r.String(maxIdentifier)}
	n := r.Count(2)
	d.Entries = make([]RegistryEntry, 0, n)
	for i := 0; i < n && r.Err() == nil; i++ {
		e := RegistryEntry{Name: r.String(maxIdentifier)}
		if r.Bool() {
			e.Data = r.NBT()
		}
		d.Entries = append(d.Entries, e)
	}
	return d
}

// spawnInfo is the spawn info of 1.20.5 to 1.21.1.
func spawnInfo(r *wire.Reader) SpawnInfo {
	s := SpawnInfo{
		DimensionType: r.VarInt(), Dimension: r.String(maxIdentifier), HashedSeed: r.Int64(),
		GameMode: r.Int8(), PreviousGameMode: r.Int8(), Debug: r.Bool(), Flat: r.Bool(),
	}
	if r.Bool() {
		dim := r.String(maxIdentifier)
		x, y, z := r.Position()
		s.DeathLocation = &GlobalPos{Dimension: dim, Pos: BlockPos{x, y, z}}
	}
	s.PortalCooldown = r.VarInt()
	return s
}

func playLogin(c *Codec, r *wire.Reader) PlayLogin {
	l := playLoginHead(c, r)
	l.EnforcesSecureChat = r.Bool()
	return l
}

// playLoginHead reads the play login up to and with the spawn info, which
// every version has; what follows it changed in 26.2.
func playLoginHead(c *Codec, r *wire.Reader) PlayLogin {
	l := PlayLogin{EntityID: r.Int32(), Hardcore: r.Bool()}
	n := r.Count(1)
	l.Dimensions = make([]string, 0, n)
	for i := 0; i < n && r.Err() == nil; i++ {
		l.Dimensions = append(l.Dimensions, r.String(maxIdentifier))
	}
	l.MaxPlayers, l.ViewDistance, l.SimulationDistance = r.VarInt(), r.VarInt(), r.VarInt()
	l.ReducedDebugInfo, l.RespawnScreen, l.LimitedCrafting = r.Bool(), r.Bool(), r.Bool()
	l.Spawn = c.SpawnInfo(r)
	return l
}

// writePositionLook writes what every version's position_look starts with.
func writePositionLook(w *wire.Writer, m Movement) {
	w.Float64(m.X)
	w.Float64(m.Y)
	w.Float64(m.Z)
	w.Float32(m.Yaw)
	w.Float32(m.Pitch)
}

func playerInfo(c *Codec, r *wire.Reader) PlayerInfoUpdate {
	// The action set is a byte while there are at most eight actions.
	bits := uint32(r.Byte())
	var u PlayerInfoUpdate
	var order []PlayerInfoAction
	for i, a := range c.PlayerInfoActions {
		if bits&(1<<i) != 0 {
			u.Actions |= 1 << a
			order = append(order, a)
		}
	}
	if unknown := bits >> len(c.PlayerInfoActions); unknown != 0 {
		r.Failf("player info has action bits %#x that %s does not define", bits, c)
		return u
	}
	n := r.Count(16)
	u.Entries = make([]PlayerInfoEntry, 0, n)
	for i := 0; i < n && r.Err() == nil; i++ {
		e := PlayerInfoEntry{UUID: r.UUID()}
		for _, a := range order {
			switch a {
			case ActionAddPlayer:
				e.Name = r.String(maxName)
				e.Properties = properties(r)
			case ActionInitializeChat:
				if r.Bool() {
					_ = r.UUID()      // session id
					_ = r.Int64()     // key expiry
					_ = r.ByteArray() // public key
					_ = r.ByteArray() // key signature
				}
			case ActionGameMode:
				e.GameMode = r.VarInt()
			case ActionListed:
				e.Listed = r.Bool()
			case ActionLatency:
				e.Latency = r.VarInt()
			case ActionDisplayName:
				e.DisplayName = r.OptionalNBT()
			case ActionListOrder:
				e.ListOrder = r.VarInt()
			case ActionShowHat:
				e.ShowHat = r.Bool()
			}
		}
		u.Entries = append(u.Entries, e)
	}
	return u
}

// chatTypeRef reads a chat type holder: a VarInt that is the registry index
// plus one, or 0 followed by the type inline. An inline chat type is two
// decorations, how the line is shown in chat and how it is narrated, each
// a translation key, its parameters and a style (the game's
// ChatType.DIRECT_STREAM_CODEC, 1.21.4; minecraft-data's ChatTypes
// {chat, narration}). The bot shows the chat decoration.
func chatTypeRef(r *wire.Reader) ChatTypeRef {
	id := r.VarInt()
	if id != 0 {
		return ChatTypeRef{Registry: id - 1}
	}
	key, params := chatDecoration(r)
	_, _ = chatDecoration(r) // narration
	return ChatTypeRef{Registry: -1, Inline: ChatType{TranslationKey: key, Parameters: params}}
}

// chatDecoration reads one decoration of an inline chat type.
func chatDecoration(r *wire.Reader) (key string, params []string) {
	key = r.String(maxString)
	n := r.Count(1)
	for i := 0; i < n && r.Err() == nil; i++ {
		switch r.VarInt() {
		case 0:
			params = append(params, "content")
		case 1:
			params = append(params, "sender")
		case 2:
			params = append(params, "target")
		default:
			r.Failf("chat type parameter out of range")
		}
	}
	_ = r.NBT() // style
	return key, params
}

func playerChat(c *Codec, r *wire.Reader) PlayerChat {
	m := PlayerChat{Sender: r.UUID(), Index: r.VarInt()}
	if r.Bool() {
		m.Signature = r.Bytes(256)
	}
	m.Body = r.String(maxChat)
	m.Timestamp, m.Salt = r.Int64(), r.Int64()
	// The last-seen messages: each an id plus one, or 0 and a signature.
	n := r.Count(1)
	for i := 0; i < n && r.Err() == nil; i++ {
		if r.VarInt() == 0 {
			_ = r.Bytes(256)
		}
	}
	m.Unsigned = r.OptionalNBT()
	m.FilterType = r.VarInt()
	if m.FilterType == 2 { // partly filtered: a bit set of the filtered characters
		c.SkipFilterMask(r)
	}
	m.ChatType = c.ChatTypeRef(r)
	m.SenderName = r.NBT()
	m.Target = r.OptionalNBT()
	return m
}

func entityMetadata(c *Codec, r *wire.Reader) EntityMetadata {
	m := EntityMetadata{EntityID: r.VarInt()}
	for r.Err() == nil {
		index := r.Byte()
		if index == 0xff || r.Err() != nil {
			return m
		}
		typ := r.VarInt()
		kind := MetaUnknown
		if typ >= 0 && int(typ) < len(c.MetadataTypes) {
			kind = c.MetadataTypes[typ]
		}
		v, ok := c.MetadataValue(r, kind)
		if !ok {
			m.Partial = true
			return m
		}
		if r.Err() == nil {
			m.Entries = append(m.Entries, MetadataEntry{Index: index, Kind: kind, Value: v})
		}
	}
	return m
}

// metadataValue reads one value of kind, and false for a kind whose layout
// the bot does not decode.
func metadataValue(r *wire.Reader, kind MetadataKind) (any, bool) {
	switch kind {
	case MetaByte:
		return r.Int8(), true
	case MetaVarInt, MetaDirection, MetaBlockState, MetaOptionalBlockState, MetaOptionalVarInt, MetaPose,
		MetaCatVariant, MetaFrogVariant, MetaSnifferState, MetaArmadilloState,
		// The kinds 1.21.5 and later added are registry ids or enums.
		MetaCowVariant, MetaWolfSoundVariant, MetaPigVariant, MetaChickenVariant, MetaCopperGolemState,
		MetaWeatheringCopperGolemState, MetaZombieNautilusVariant, MetaHumanoidArm, MetaCatSoundVariant,
		MetaCowSoundVariant, MetaPigSoundVariant, MetaChickenSoundVariant, MetaDyeColor:
		return r.VarInt(), true
	case MetaVarLong:
		return r.VarLong(), true
	case MetaFloat:
		return r.Float32(), true
	case MetaString:
		return r.String(maxString), true
	case MetaComponent, MetaNBT:
		return r.NBT(), true
	case MetaOptionalComponent:
		return r.OptionalNBT(), true
	case MetaBool:
		return r.Bool(), true
	case MetaRotations, MetaVector3:
		return [3]float32{r.Float32(), r.Float32(), r.Float32()}, true
	case MetaQuaternion:
		return [4]float32{r.Float32(), r.Float32(), r.Float32(), r.Float32()}, true
	case MetaBlockPos:
		x, y, z := r.Position()
		return BlockPos{x, y, z}, true
	case MetaOptionalBlockPos:
		if !r.Bool() {
			return nil, true
		}
		x, y, z := r.Position()
		return BlockPos{x, y, z}, true
	case MetaOptionalUUID:
		if !r.Bool() {
			return nil, true
		}
		return r.UUID(), true
	case MetaVillagerData:
		return [3]int32{r.VarInt(), r.VarInt(), r.VarInt()}, true
	case MetaOptionalGlobalPos:
		// minecraft-data writes this as an optional string before 1.21.9;
		// the game sends a dimension and a position (correction C5).
		if !r.Bool() {
			return nil, true
		}
		dim := r.String(maxIdentifier)
		x, y, z := r.Position()
		return GlobalPos{dim, BlockPos{x, y, z}}, true
	}
	// Item stacks, particles, variants that may come inline (wolf before
	// 1.21.5, painting) and resolvable profiles are left for the features
	// that need them (issues 9 to 11).
	return nil, false
}

// baseInventory sets the inventory and container layouts of 767
// (minecraft-data pc/1.21.1; where it types a container id u8, the game's
// 1.21.1 packets decide: set_slot reads a signed byte, because window -1
// is the cursor and -2 the player's inventory, and window_click and the
// serverbound close_window write a signed byte too).
func baseInventory(c *Codec) {
	p := c.Protocol
	c.WindowItems = func(r *wire.Reader) WindowItems {
		wi := WindowItems{Window: int32(r.Byte()), StateID: r.VarInt()}
		wi.Items = readWindowSlots(r, p)
		wi.Carried = item.ReadSlot(r, p)
		return wi
	}
	c.SetSlot = func(r *wire.Reader) SetSlot {
		return SetSlot{Window: int32(r.Int8()), StateID: r.VarInt(), Slot: r.Int16(), Item: item.ReadSlot(r, p)}
	}
	c.SetCursorItem = func(r *wire.Reader) item.Stack { return item.ReadSlot(r, p) }
	c.SetPlayerInventory = func(r *wire.Reader) SetPlayerInventory {
		return SetPlayerInventory{Slot: r.VarInt(), Item: item.ReadSlot(r, p)}
	}
	c.OpenWindow = func(r *wire.Reader) OpenWindow {
		return OpenWindow{Window: r.VarInt(), MenuType: r.VarInt(), Title: r.NBT()}
	}
	c.CloseWindow = func(r *wire.Reader) int32 { return int32(r.Byte()) }
	c.WindowProperty = func(r *wire.Reader) WindowProperty {
		return WindowProperty{Window: int32(r.Byte()), Property: r.Int16(), Value: r.Int16()}
	}
	c.WriteWindowClick = func(w *wire.Writer, wc WindowClick) error {
		w.Int8(int8(wc.Window))
		return writeWindowClick(w, p, wc, item.WriteSlot)
	}
	c.WriteCloseWindow = func(w *wire.Writer, window int32) { w.Int8(int8(window)) }
	c.WriteHeldItem = func(w *wire.Writer, slot int16) { w.Int16(slot) }
	c.WritePlayerAction = func(w *wire.Writer, a PlayerAction) {
		w.VarInt(a.Status)
		writePosition(w, a.Pos)
		w.Int8(a.Face)
		w.VarInt(a.Sequence)
	}
}

// maxWindowSlots bounds window_items: the game's largest window has 90
// slots (a double chest and the player's); a modded one may have more, but
// not thousands, and each slot costs the bot far more than the byte it
// takes on the wire.
const maxWindowSlots = 1024

// readWindowSlots reads window_items' stacks (a VarInt count, then Slots).
func readWindowSlots(r *wire.Reader, protocol int32) []item.Stack {
	n := r.Count(1)
	if n > maxWindowSlots {
		r.Failf("window_items with %d slots; a window has at most %d", n, maxWindowSlots)
		return nil
	}
	out := make([]item.Stack, 0, n)
	for i := 0; i < n && r.Err() == nil; i++ {
		out = append(out, item.ReadSlot(r, protocol))
	}
	return out
}

// maxChangedSlots is how many changed slots the game reads in one
// window_click (ServerboundContainerClickPacket.MAX_SLOT_COUNT).
const maxChangedSlots = 128

// writeWindowClick writes window_click after the window id, with each
// stack in the version's form.
func writeWindowClick(w *wire.Writer, protocol int32, wc WindowClick, stack func(*wire.Writer, int32, item.Stack) error) error {
	if len(wc.Changed) > maxChangedSlots {
		return fmt.Errorf("codec: a click may name at most %d changed slots, not %d", maxChangedSlots, len(wc.Changed))
	}
	w.VarInt(wc.StateID)
	w.Int16(wc.Slot)
	w.Int8(wc.Button)
	w.VarInt(wc.Mode)
	w.VarInt(int32(len(wc.Changed)))
	for _, ch := range wc.Changed {
		w.Int16(ch.Slot)
		if err := stack(w, protocol, ch.Item); err != nil {
			return err
		}
	}
	return stack(w, protocol, wc.Carried)
}

// writePosition packs a block position as the game does: x and z in 26
// bits, y in 12.
func writePosition(w *wire.Writer, p BlockPos) {
	w.Int64(int64(p.X&0x3ffffff)<<38 | int64(p.Z&0x3ffffff)<<12 | int64(p.Y&0xfff))
}

// baseMovement sets the movement layouts of 767 (minecraft-data pc/1.21.1
// packet_position, packet_look, packet_entity_action; the game's
// ServerboundMovePlayerPacket.Pos and .Rot, ServerboundPlayerCommandPacket):
// position and look end with the on-ground boolean, and entity_action
// numbers start sprinting 3 and stop sprinting 4 (after the two sneak
// actions), with a jump boost of 0.
func baseMovement(c *Codec) {
	c.WritePosition = func(w *wire.Writer, m Movement) {
		w.Float64(m.X)
		w.Float64(m.Y)
		w.Float64(m.Z)
		w.Bool(m.OnGround)
	}
	c.WriteLook = func(w *wire.Writer, m Movement) {
		w.Float32(m.Yaw)
		w.Float32(m.Pitch)
		w.Bool(m.OnGround)
	}
	c.WriteSprint = func(w *wire.Writer, entityID int32, start bool) {
		writeEntityAction(w, entityID, start, 3)
	}
}

// writeEntityAction writes entity_action start (startID) or stop
// (startID+1) sprinting.
func writeEntityAction(w *wire.Writer, entityID int32, start bool, startID int32) {
	w.VarInt(entityID)
	if start {
		w.VarInt(startID)
	} else {
		w.VarInt(startID + 1)
	}
	w.VarInt(0)
}
