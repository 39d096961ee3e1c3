package bot

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/Tnze/go-mc/offline"

	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
	"github.com/blockmate/blockmate/untrusted"
)

// keepAliveTimeout is how long the bot waits without hearing a keep-alive
// before it takes the connection for dead. Servers send one every 15 s and
// drop clients after 30 s; this is their number.
const keepAliveTimeout = 30 * time.Second

// chatLog is how many chat lines mc_read_chat can return.
const chatLog = 100

// maxAir is a player's full air supply, in ticks.
const maxAir = 300

// ChatMessage is one line of chat the bot saw.
type ChatMessage struct {
	From string    `json:"from"` // "" for the server
	Text string    `json:"text"`
	At   time.Time `json:"at"`
	// Kind is "chat", "whisper" or "system".
	Kind string `json:"kind"`
	// Segments are the styled runs of the whole line, for the console.
	Segments []chat.Segment `json:"-"`
	// whisperSent marks the server's confirmation of the bot's own
	// whisper (vanilla's commands.message.display.outgoing).
	whisperSent bool
}

// PlayerInfo is one entry of the player list.
type PlayerInfo struct {
	UUID     [16]byte
	Name     string
	GameMode int32
	PingMS   int32
}

// endReason says why a session ended.
type endReason struct {
	Reason   string
	NextStep string
	// Kicked is true when the server ended it with a message.
	Kicked bool
}

// session is one connection to one world, from dial to disconnect.
type session struct {
	log      *slog.Logger
	c        *conn
	v        *version
	host     string
	port     int
	username string
	uuid     [16]byte
	version  string // the game version the server reported
	events   emitter
	opts     Options

	joined   chan struct{} // closed at the first position sync in play
	joinOnce sync.Once
	done     chan struct{} // closed when the read loop ends
	end      endReason

	mu sync.Mutex
	st state

	// cmdMu lets one command at a time wait for its reply, so a reply is
	// never handed to another command sent at the same moment.
	cmdMu sync.Mutex
	// sayMu keeps the lines of one long message together in chat.
	sayMu sync.Mutex

	// leaving is set when the bot leaves on purpose, so the end reads as
	// such and not as a lost connection.
	leaving   bool
	closeOnce sync.Once
}

// state is what the bot knows about itself and the world. Guarded by
// session.mu.
type state struct {
	phase          string // connecting, configuring, playing
	entityID       int32
	pos            Vec3
	yaw, pitch     float32
	onGround       bool
	haveHealth     bool
	health         float32
	food           int32
	saturation     float32
	xpBar          float32
	xpLevel        int32
	gameMode       int8
	dimension      string
	dimType        int32
	timeOfDay      int64
	worldAge       int64
	haveTime       bool
	raining        bool
	thunder        bool
	dead           bool
	pendingRespawn bool
	heldSlot       int32
	air            int32 // air supply in ticks, 0..300

	players map[[16]byte]*PlayerInfo
	// loginAt is when the play login arrived, spawnAt the first position
	// sync after it; rosterSeen is set by the first player-list add after
	// the login (see readPlayerInfo).
	loginAt    time.Time
	spawnAt    time.Time
	rosterSeen bool
	chat       []ChatMessage
	chatSeq    int // lines ever added, so a reader can find what is new

	lowHealthFired bool
	lowFoodFired   bool

	registries    registries
	lastKeepAlive time.Time
	unacked       int
	// lastDamage is the damage type of the last damage event aimed at the
	// bot, which names the attacker of the health drop that follows.
	lastDamage   string
	lastDamageAt time.Time
}

type registries struct {
	dimensionTypes []dimensionType
	chatTypes      []chatType
	damageTypes    []string
}

type dimensionType struct {
	name         string
	minY, height int32
}

type chatType struct {
	name   string
	key    string   // translation key: chat.type.text, commands.message.display.incoming …
	params []string // sender, content, target
}

// emitter publishes events; the client debounces and fans them out.
type emitter func(name, subKey string, payload any)

// Options tune a session.
type Options struct {
	ViewDistance       int8
	LowHealthThreshold float32
	LowFoodThreshold   int32
	KeepAliveTimeout   time.Duration
	Brand              string
}

func (o Options) withDefaults() Options {
	if o.ViewDistance <= 0 {
		o.ViewDistance = 4
	}
	if o.LowHealthThreshold <= 0 {
		o.LowHealthThreshold = 6
	}
	if o.LowFoodThreshold <= 0 {
		o.LowFoodThreshold = 6
	}
	if o.KeepAliveTimeout <= 0 {
		o.KeepAliveTimeout = keepAliveTimeout
	}
	if o.Brand == "" {
		o.Brand = "blockmate"
	}
	return o
}

// JoinError is a join that failed, with the sentence to show.
type JoinError struct{ Msg string }

func (e *JoinError) Error() string { return e.Msg }

// dial connects and runs login and configuration up to the start of play;
// the read loop then runs in its own goroutine. It returns once the bot
// has spawned (the first position sync) or failed.
func dial(ctx context.Context, log *slog.Logger, host string, port int, username string, protocol int32, gameVersion string, ev emitter, opts Options) (*session, error) {
	v := versions[protocol]
	table := mcdata.For(protocol)
	if v == nil || table == nil {
		return nil, &JoinError{fmt.Sprintf("blockmate cannot speak protocol %d", protocol)}
	}
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, &JoinError{fmt.Sprintf("cannot connect to %s (%v): check that the world is still open to LAN and the port is right", addr, shortErr(err))}
	}
	if tcp, ok := nc.(*net.TCPConn); ok {
		_ = tcp.SetNoDelay(true)
	}
	s := &session{
		log: log, c: newConn(nc, table), v: v, host: host, port: port, username: username,
		uuid: offline.NameToUUID(username), version: gameVersion, events: ev, opts: opts.withDefaults(),
		joined: make(chan struct{}), done: make(chan struct{}),
	}
	s.c.timeout = s.opts.KeepAliveTimeout
	s.st.phase = "connecting"
	s.st.players = map[[16]byte]*PlayerInfo{}
	s.st.heldSlot = 0
	s.st.air = maxAir

	// Cancelling ctx before the join finishes closes the socket, which ends
	// whichever read or write is waiting.
	stop := context.AfterFunc(ctx, func() { _ = nc.Close() })
	defer stop()

	if err := s.handshake(addr); err != nil {
		nc.Close()
		return nil, err
	}
	go s.run()
	select {
	case <-s.joined:
		return s, nil
	case <-s.done:
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &JoinError{s.end.Reason + "; " + s.end.NextStep}
	case <-ctx.Done():
		s.close()
		<-s.done
		return nil, ctx.Err()
	}
}

func shortErr(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	return err.Error()
}

func (s *session) handshake(addr string) error {
	var w wire.Writer
	w.VarInt(s.v.protocol)
	w.String(s.host)
	w.Uint16(uint16(s.port))
	w.VarInt(2) // login
	if err := s.c.write(mcdata.ServerboundHandshakeSetProtocol, &w); err != nil {
		return &JoinError{fmt.Sprintf("cannot talk to %s: %v", addr, shortErr(err))}
	}
	s.c.setState(mcdata.StateLogin)
	w = wire.Writer{}
	w.String(s.username)
	w.UUID(s.uuid)
	if err := s.c.write(mcdata.ServerboundLoginLoginStart, &w); err != nil {
		return &JoinError{fmt.Sprintf("cannot talk to %s: %v", addr, shortErr(err))}
	}
	return nil
}

// close ends the connection; the read loop then ends.
func (s *session) close() {
	s.closeOnce.Do(func() { _ = s.c.close() })
}

// leave disconnects on purpose.
func (s *session) leave() {
	s.mu.Lock()
	s.leaving = true
	s.mu.Unlock()
	s.close()
	<-s.done
}

// errEnd carries the reason a server gave for ending the connection.
type errEnd struct{ endReason }

func (e *errEnd) Error() string { return e.Reason }

// run is the read loop: every packet is read and handled here, in order, so
// state needs no ordering beyond the session mutex. It never panics on what
// the server sends: a decode error ends the connection with a reason.
func (s *session) run() {
	defer close(s.done)
	defer s.close()
	err := s.loop()
	s.mu.Lock()
	leaving := s.leaving
	s.mu.Unlock()
	var end *errEnd
	switch {
	case leaving:
		s.end = endReason{Reason: "the bot left the world", NextStep: "call mc_join to join again"}
	case errors.As(err, &end):
		s.end = end.endReason
	default:
		s.end = endReason{Reason: describeReadErr(err), NextStep: "check that the world is still open to LAN, then call mc_join again (mc_discover_lan finds the port)"}
	}
	s.log.Info("connection ended", "server", net.JoinHostPort(s.host, strconv.Itoa(s.port)), "reason", s.end.Reason)
}

func describeReadErr(err error) string {
	var ne net.Error
	switch {
	case err == nil:
		return "the connection ended"
	case errors.As(err, &ne) && ne.Timeout():
		return "the server stopped answering (no keep-alive for 30 seconds): the world was probably closed, or the game is paused or frozen"
	case errors.Is(err, errFrame), errors.Is(err, errDecode):
		return "the server sent data the bot could not read (" + err.Error() + "), so the bot disconnected"
	}
	return "the connection to the world was lost (" + shortErr(err) + ")"
}

var errDecode = errors.New("malformed packet")

func (s *session) loop() (err error) {
	defer func() {
		// Handlers check every length, but a bug must still end one
		// connection, not the whole program.
		if p := recover(); p != nil {
			s.log.Error("packet handler panicked", "panic", p)
			err = fmt.Errorf("%w: %v", errDecode, p)
		}
	}()
	for {
		state := s.c.getState()
		p, id, r, err := s.c.read(state)
		if err != nil {
			return err
		}
		if p == mcdata.PacketNone {
			s.log.Debug("packet not in this version's tables", "state", state, "id", id)
			continue
		}
		var herr error
		switch state {
		case mcdata.StateLogin:
			herr = s.handleLogin(p, r)
		case mcdata.StateConfig:
			herr = s.handleConfig(p, r)
		case mcdata.StatePlay:
			herr = s.handlePlay(p, r)
		}
		if herr != nil {
			return herr
		}
		if r.Err() != nil {
			return fmt.Errorf("%w: %v: %v", errDecode, p, r.Err())
		}
	}
}

// ---- login ----

func (s *session) handleLogin(p mcdata.Packet, r *wire.Reader) error {
	switch p {
	case mcdata.ClientboundLoginCompress:
		t := r.VarInt()
		if r.Err() == nil {
			s.c.setThreshold(int(t))
		}
	case mcdata.ClientboundLoginEncryptionBegin:
		return &errEnd{endReason{
			Reason:   "this server wants a Mojang login (online mode); blockmate joins worlds opened to LAN and servers in offline mode",
			NextStep: "open a single-player world to LAN and join that, or set online-mode=false on your own server",
		}}
	case mcdata.ClientboundLoginLoginPluginRequest:
		msgID := r.VarInt()
		var w wire.Writer
		w.VarInt(msgID)
		w.Bool(false) // not understood
		return s.c.write(mcdata.ServerboundLoginLoginPluginResponse, &w)
	case mcdata.ClientboundLoginCookieRequest:
		key := r.String(32767)
		var w wire.Writer
		w.String(key)
		w.Bool(false) // no cookie
		return s.c.write(mcdata.ServerboundLoginCookieResponse, &w)
	case mcdata.ClientboundLoginDisconnect:
		reason := chat.Plain(chat.ParseJSON(r.String(262144)))
		return kickEnd("the server refused the bot", reason)
	case mcdata.ClientboundLoginSuccess:
		_ = r.UUID()
		name := r.String(16)
		n := r.Count(3)
		for i := 0; i < n && r.Err() == nil; i++ {
			_ = r.String(64)
			_ = r.String(32767)
			if r.Bool() {
				_ = r.String(1024)
			}
		}
		if s.v.loginStrictErrors {
			_ = r.Bool()
		}
		if r.Err() != nil {
			return fmt.Errorf("%w: login success: %v", errDecode, r.Err())
		}
		if name != "" {
			s.username = name
		}
		if err := s.c.write(mcdata.ServerboundLoginLoginAcknowledged, nil); err != nil {
			return err
		}
		s.c.setState(mcdata.StateConfig)
		s.setPhase("configuring")
		return s.startConfig()
	}
	return nil
}

// ---- configuration ----

func (s *session) startConfig() error {
	var w wire.Writer
	s.v.writeClientInfo(&w, s.opts.ViewDistance)
	if err := s.c.write(mcdata.ServerboundConfigSettings, &w); err != nil {
		return err
	}
	w = wire.Writer{}
	w.String("minecraft:brand")
	w.String(s.opts.Brand)
	return s.c.write(mcdata.ServerboundConfigCustomPayload, &w)
}

func (s *session) handleConfig(p mcdata.Packet, r *wire.Reader) error {
	switch p {
	case mcdata.ClientboundConfigKeepAlive:
		id := r.Int64()
		s.touchKeepAlive()
		var w wire.Writer
		w.Int64(id)
		return s.c.write(mcdata.ServerboundConfigKeepAlive, &w)
	case mcdata.ClientboundConfigPing:
		id := r.Int32()
		var w wire.Writer
		w.Int32(id)
		return s.c.write(mcdata.ServerboundConfigPong, &w)
	case mcdata.ClientboundConfigSelectKnownPacks:
		// The bot ships no data packs, so it knows none and the server
		// sends every registry entry in full.
		var w wire.Writer
		w.VarInt(0)
		return s.c.write(mcdata.ServerboundConfigSelectKnownPacks, &w)
	case mcdata.ClientboundConfigRegistryData:
		s.readRegistry(r)
	case mcdata.ClientboundConfigAddResourcePack:
		// Never hang on a resource pack: say it was accepted and loaded.
		id := r.UUID()
		for _, result := range []int32{3, 4, 0} { // accepted, downloaded, loaded
			var w wire.Writer
			w.UUID(id)
			w.VarInt(result)
			if err := s.c.write(mcdata.ServerboundConfigResourcePackReceive, &w); err != nil {
				return err
			}
		}
		r.Rest()
	case mcdata.ClientboundConfigCookieRequest:
		key := r.String(32767)
		var w wire.Writer
		w.String(key)
		w.Bool(false)
		return s.c.write(mcdata.ServerboundConfigCookieResponse, &w)
	case mcdata.ClientboundConfigDisconnect:
		reason := chat.Plain(r.NBT())
		return kickEnd("the server disconnected the bot", reason)
	case mcdata.ClientboundConfigTransfer:
		host := r.String(32767)
		port := r.VarInt()
		return &errEnd{endReason{Reason: fmt.Sprintf("the server sent the bot on to another server (%s:%d), which blockmate does not follow", host, port), NextStep: "call mc_join with that server's port if it is a LAN world"}}
	case mcdata.ClientboundConfigFinishConfiguration:
		if err := s.c.write(mcdata.ServerboundConfigFinishConfiguration, nil); err != nil {
			return err
		}
		s.c.setState(mcdata.StatePlay)
		s.setPhase("playing")
	default:
		// custom_payload, feature_flags, tags, reset_chat, store_cookie,
		// resource pack removal, report details, server links: nothing
		// the bot needs.
		r.Rest()
	}
	return nil
}

func (s *session) readRegistry(r *wire.Reader) {
	id := r.String(32767)
	n := r.Count(2)
	keep := id == "minecraft:dimension_type" || id == "minecraft:chat_type" || id == "minecraft:damage_type"
	var dims []dimensionType
	var chats []chatType
	var damages []string
	for i := 0; i < n && r.Err() == nil; i++ {
		name := r.String(32767)
		var data map[string]any
		if r.Bool() {
			if keep {
				data, _ = r.NBT().(map[string]any)
			} else {
				_ = r.NBT()
			}
		}
		switch id {
		case "minecraft:dimension_type":
			dims = append(dims, dimensionType{name: name, minY: nbtInt(data["min_y"]), height: nbtInt(data["height"])})
		case "minecraft:chat_type":
			ct := chatType{name: name}
			if c, ok := data["chat"].(map[string]any); ok {
				ct.key, _ = c["translation_key"].(string)
				if ps, ok := c["parameters"].([]any); ok {
					for _, p := range ps {
						if ps, ok := p.(string); ok {
							ct.params = append(ct.params, ps)
						}
					}
				}
			}
			if ct.key == "" {
				ct.key = defaultChatKey(name)
			}
			chats = append(chats, ct)
		case "minecraft:damage_type":
			damages = append(damages, strings.TrimPrefix(name, "minecraft:"))
		}
	}
	if r.Err() != nil {
		return
	}
	s.mu.Lock()
	switch id {
	case "minecraft:dimension_type":
		s.st.registries.dimensionTypes = dims
	case "minecraft:chat_type":
		s.st.registries.chatTypes = chats
	case "minecraft:damage_type":
		s.st.registries.damageTypes = damages
	}
	s.mu.Unlock()
}

// defaultChatKey is the vanilla translation for a chat type sent without
// data (a client that knows the vanilla pack would have it).
func defaultChatKey(name string) string {
	switch name {
	case "minecraft:msg_command_incoming":
		return "commands.message.display.incoming"
	case "minecraft:msg_command_outgoing":
		return "commands.message.display.outgoing"
	case "minecraft:say_command":
		return "chat.type.announcement"
	case "minecraft:emote_command":
		return "chat.type.emote"
	case "minecraft:team_msg_command_incoming":
		return "chat.type.team.text"
	case "minecraft:team_msg_command_outgoing":
		return "chat.type.team.sent"
	}
	return "chat.type.text"
}

func nbtInt(v any) int32 {
	switch x := v.(type) {
	case int32:
		return x
	case int16:
		return int32(x)
	case int8:
		return int32(x)
	case int64:
		return int32(x)
	}
	return 0
}

// ---- play ----

func (s *session) handlePlay(p mcdata.Packet, r *wire.Reader) error {
	switch p {
	case mcdata.ClientboundPlayKeepAlive:
		id := r.Int64()
		s.touchKeepAlive()
		var w wire.Writer
		w.Int64(id)
		return s.c.write(mcdata.ServerboundPlayKeepAlive, &w)
	case mcdata.ClientboundPlayPing:
		id := r.Int32()
		var w wire.Writer
		w.Int32(id)
		return s.c.write(mcdata.ServerboundPlayPong, &w)
	case mcdata.ClientboundPlayLogin:
		eid := r.Int32()
		_ = r.Bool() // hardcore
		n := r.Count(1)
		for i := 0; i < n; i++ {
			_ = r.String(32767)
		}
		_ = r.VarInt() // max players
		_ = r.VarInt() // view distance
		_ = r.VarInt() // simulation distance
		_ = r.Bool()   // reduced debug info
		_ = r.Bool()   // respawn screen
		_ = r.Bool()   // limited crafting
		si := s.v.readSpawnInfo(r)
		_ = r.Bool() // secure chat
		if r.Err() == nil {
			s.mu.Lock()
			s.st.entityID = eid
			s.applySpawnInfo(si)
			if s.st.loginAt.IsZero() {
				s.st.loginAt = time.Now()
			}
			s.mu.Unlock()
		}
	case mcdata.ClientboundPlayRespawn:
		si := s.v.readSpawnInfo(r)
		_ = r.Byte() // data kept
		if r.Err() == nil {
			s.mu.Lock()
			s.applySpawnInfo(si)
			wasDead := s.st.dead
			s.st.dead = false
			s.st.air = maxAir
			s.st.pendingRespawn = wasDead || s.st.pendingRespawn
			s.mu.Unlock()
		}
	case mcdata.ClientboundPlayPosition:
		ps := s.v.readPosition(r)
		if r.Err() != nil {
			return nil
		}
		return s.syncPosition(ps)
	case mcdata.ClientboundPlayUpdateHealth:
		health := r.Float32()
		food := r.VarInt()
		sat := r.Float32()
		if r.Err() == nil {
			s.updateHealth(health, food, sat)
		}
	case mcdata.ClientboundPlayExperience:
		bar := finite32(r.Float32(), 0)
		level := r.VarInt()
		_ = r.VarInt()
		s.mu.Lock()
		s.st.xpBar, s.st.xpLevel = bar, level
		s.mu.Unlock()
	case mcdata.ClientboundPlayGameStateChange:
		reason := r.Byte()
		value := r.Float32()
		s.mu.Lock()
		switch reason {
		case 1:
			s.st.raining = true
		case 2:
			s.st.raining, s.st.thunder = false, false
		case 3:
			if value >= 0 && value <= 3 {
				s.st.gameMode = int8(value)
			}
		case 7:
			s.st.raining = value > 0
		case 8:
			s.st.thunder = value > 0
		}
		s.mu.Unlock()
	case mcdata.ClientboundPlayUpdateTime:
		age := r.Int64()
		tod := r.Int64()
		s.mu.Lock()
		s.st.worldAge, s.st.timeOfDay, s.st.haveTime = age, tod, true
		s.mu.Unlock()
		r.Rest() // the day-time flag of 1.21.2+
	case mcdata.ClientboundPlayDeathCombatEvent:
		who := r.VarInt()
		msg := chat.Plain(r.NBT())
		if r.Err() == nil {
			s.mu.Lock()
			self := who == s.st.entityID
			first := self && !s.st.dead
			if self {
				s.st.dead = true
			}
			s.mu.Unlock()
			if first {
				if msg == "" {
					msg = s.username + " died"
				}
				s.events("mc_death", "", struct {
					Message string `json:"message"`
				}{msg})
			}
		}
	case mcdata.ClientboundPlayPlayerInfo:
		s.readPlayerInfo(r)
	case mcdata.ClientboundPlayPlayerRemove:
		n := r.Count(16)
		var gone []string
		s.mu.Lock()
		for i := 0; i < n && r.Err() == nil; i++ {
			id := r.UUID()
			if p, ok := s.st.players[id]; ok {
				delete(s.st.players, id)
				if id != s.uuid {
					gone = append(gone, p.Name)
				}
			}
		}
		spawned := s.spawnedLocked()
		s.mu.Unlock()
		if spawned {
			for _, name := range gone {
				s.events("mc_player_left", name, struct {
					Username string `json:"username"`
				}{name})
			}
		}
	case mcdata.ClientboundPlaySystemChat:
		content := r.NBT()
		overlay := r.Bool()
		if r.Err() == nil && !overlay {
			s.onSystemChat(content)
		}
	case mcdata.ClientboundPlayPlayerChat:
		s.readPlayerChat(r)
	case mcdata.ClientboundPlayProfilelessChat:
		msg := r.NBT()
		ct := s.readChatType(r)
		name := r.NBT()
		target := r.OptionalNBT()
		if r.Err() == nil {
			s.onTypedChat(chat.Plain(name), chat.Plain(msg), ct, target)
		}
	case mcdata.ClientboundPlayKickDisconnect:
		reason := chat.Plain(r.NBT())
		return kickEnd("the server disconnected the bot", reason)
	case mcdata.ClientboundPlayStartConfiguration:
		if err := s.c.write(mcdata.ServerboundPlayConfigurationAcknowledged, nil); err != nil {
			return err
		}
		s.c.setState(mcdata.StateConfig)
		s.setPhase("configuring")
	case mcdata.ClientboundPlayChunkBatchFinished:
		_ = r.VarInt()
		var w wire.Writer
		w.Float32(20) // chunks per tick the bot can take
		return s.c.write(mcdata.ServerboundPlayChunkBatchReceived, &w)
	case mcdata.ClientboundPlayDamageEvent:
		who := r.VarInt()
		kind := r.VarInt()
		r.Rest()
		s.mu.Lock()
		if who == s.st.entityID {
			s.st.lastDamage, s.st.lastDamageAt = "", time.Now()
			if i := int(kind); i >= 0 && i < len(s.st.registries.damageTypes) {
				s.st.lastDamage = s.st.registries.damageTypes[i]
			}
		}
		s.mu.Unlock()
	case mcdata.ClientboundPlayEntityMetadata:
		s.readMetadata(r)
	case mcdata.ClientboundPlayHeldItemSlot:
		var slot int32
		if s.v.heldSlotVarInt {
			slot = r.VarInt()
		} else {
			slot = int32(r.Int8())
		}
		s.mu.Lock()
		s.st.heldSlot = slot
		s.mu.Unlock()
	default:
		// Everything else (chunks, entities, sounds …) is for later
		// issues; skipped without decoding.
		r.Rest()
	}
	return nil
}

func (s *session) applySpawnInfo(si spawnInfo) {
	s.st.dimension = si.dimension
	s.st.dimType = si.dimensionType
	if si.gameMode >= 0 && si.gameMode <= 3 {
		s.st.gameMode = si.gameMode
	}
}

func (s *session) spawnedLocked() bool {
	select {
	case <-s.joined:
		return true
	default:
		return false
	}
}

func (s *session) syncPosition(ps positionSync) error {
	s.mu.Lock()
	st := &s.st
	if ps.relative&1 != 0 {
		ps.x += st.pos.X
	}
	if ps.relative&2 != 0 {
		ps.y += st.pos.Y
	}
	if ps.relative&4 != 0 {
		ps.z += st.pos.Z
	}
	if ps.relative&8 != 0 {
		ps.yaw += st.yaw
	}
	if ps.relative&16 != 0 {
		ps.pitch += st.pitch
	}
	ps.yaw, ps.pitch = finite32(ps.yaw, 0), finite32(ps.pitch, 0)
	if !finite(ps.x) || !finite(ps.y) || !finite(ps.z) {
		s.mu.Unlock()
		return fmt.Errorf("%w: position is not a finite number", errDecode)
	}
	st.pos = Vec3{ps.x, ps.y, ps.z}
	st.yaw, st.pitch = ps.yaw, ps.pitch
	st.onGround = true
	if st.spawnAt.IsZero() {
		st.spawnAt = time.Now()
	}
	respawned := st.pendingRespawn
	st.pendingRespawn = false
	pos := st.pos
	s.mu.Unlock()

	var w wire.Writer
	w.VarInt(ps.teleportID)
	if err := s.c.write(mcdata.ServerboundPlayTeleportConfirm, &w); err != nil {
		return err
	}
	w = wire.Writer{}
	w.Float64(ps.x)
	w.Float64(ps.y)
	w.Float64(ps.z)
	w.Float32(ps.yaw)
	w.Float32(ps.pitch)
	// The bot stands where the server put it; claiming the ground keeps
	// the server's fly check quiet.
	s.v.writeOnGround(&w, true)
	if err := s.c.write(mcdata.ServerboundPlayPositionLook, &w); err != nil {
		return err
	}
	first := false
	s.joinOnce.Do(func() { first = true })
	if (first || respawned) && s.v.playerLoaded {
		if err := s.c.write(mcdata.ServerboundPlayPlayerLoaded, nil); err != nil {
			return err
		}
	}
	if first {
		close(s.joined)
	}
	if respawned {
		s.events("mc_respawned", "", struct {
			Position Vec3 `json:"position"`
		}{round(pos)})
	}
	return nil
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func finite32(f, otherwise float32) float32 {
	if finite(float64(f)) {
		return f
	}
	return otherwise
}

func round(v Vec3) Vec3 {
	r := func(f float64) float64 { return math.Round(f*100) / 100 }
	return Vec3{r(v.X), r(v.Y), r(v.Z)}
}

func (s *session) updateHealth(health float32, food int32, sat float32) {
	// Some servers send NaN for values they never set (flying-squid's
	// saturation); a number that is not finite means nothing.
	health, sat = finite32(health, 20), finite32(sat, 0)
	s.mu.Lock()
	st := &s.st
	prev, had := st.health, st.haveHealth
	st.health, st.food, st.saturation, st.haveHealth = health, food, sat, true
	var fire []func()
	if had && health < prev && health > 0 {
		h, attacker := health, ""
		if time.Since(st.lastDamageAt) < time.Second {
			attacker = st.lastDamage
		}
		fire = append(fire, func() {
			s.events("mc_hurt", attacker, struct {
				Health   float32 `json:"health"`
				Attacker string  `json:"attacker,omitempty"`
			}{h, attacker})
		})
	}
	if health > 0 && health <= s.opts.LowHealthThreshold && !st.lowHealthFired {
		st.lowHealthFired = true
		h := health
		fire = append(fire, func() {
			s.events("mc_low_health", "", struct {
				Health    float32 `json:"health"`
				MaxHealth float32 `json:"max_health"`
			}{h, 20})
		})
	} else if health > s.opts.LowHealthThreshold {
		st.lowHealthFired = false
	}
	if food <= s.opts.LowFoodThreshold && !st.lowFoodFired {
		st.lowFoodFired = true
		f := food
		fire = append(fire, func() {
			s.events("mc_low_food", "", struct {
				Food int32 `json:"food"`
			}{f})
		})
	} else if food > s.opts.LowFoodThreshold {
		st.lowFoodFired = false
	}
	if health <= 0 && !st.dead {
		// Servers that send no combat kill (flying-squid) still report the
		// death through health.
		st.dead = true
		name := s.username
		fire = append(fire, func() {
			s.events("mc_death", "", struct {
				Message string `json:"message"`
			}{name + " died"})
		})
	}
	if health > 0 && st.dead {
		st.dead = false
		st.pendingRespawn = true
	}
	s.mu.Unlock()
	for _, f := range fire {
		f()
	}
}

// rosterWindow is how long after the bot's first position sync the first
// player-list add still counts as the roster of players already in the
// world. Vanilla sends the roster right behind that position sync, in the
// same burst, so the read loop sees it within milliseconds whatever the
// load; a player who really joins comes later, on servers that send no
// roster too.
const rosterWindow = 500 * time.Millisecond

func (s *session) readPlayerInfo(r *wire.Reader) {
	actions := r.Byte()
	n := r.Count(16)
	var joined []string
	s.mu.Lock()
	// Vanilla sends everyone already in the world in one add right after
	// the login's position sync: that roster is recorded, not announced as
	// mc_player_joined. The trade-off: flying-squid never sends a newcomer
	// the roster, so there a real join within rosterWindow of the bot's
	// first position sync is taken for the roster and not announced.
	roster := false
	if actions&0x01 != 0 && !s.st.rosterSeen {
		s.st.rosterSeen = true
		roster = !s.st.loginAt.IsZero() && (s.st.spawnAt.IsZero() || time.Since(s.st.spawnAt) <= rosterWindow)
	}
	defer func() {
		spawned := s.spawnedLocked()
		s.mu.Unlock()
		if spawned && !roster {
			for _, name := range joined {
				s.events("mc_player_joined", name, struct {
					Username string `json:"username"`
				}{name})
			}
		}
	}()
	for i := 0; i < n && r.Err() == nil; i++ {
		id := r.UUID()
		p := s.st.players[id]
		if p == nil {
			p = &PlayerInfo{UUID: id}
		}
		if actions&0x01 != 0 {
			p.Name = r.String(16)
			props := r.Count(3)
			for j := 0; j < props && r.Err() == nil; j++ {
				_ = r.String(64)
				_ = r.String(32767)
				if r.Bool() {
					_ = r.String(1024)
				}
			}
		}
		if actions&0x02 != 0 && r.Bool() {
			_ = r.UUID()
			_ = r.Int64()
			_ = r.ByteArray()
			_ = r.ByteArray()
		}
		if actions&0x04 != 0 {
			p.GameMode = r.VarInt()
		}
		if actions&0x08 != 0 {
			_ = r.Bool()
		}
		if actions&0x10 != 0 {
			p.PingMS = r.VarInt()
		}
		if actions&0x20 != 0 {
			_ = r.OptionalNBT()
		}
		if s.v.listOrder && actions&0x40 != 0 {
			_ = r.VarInt()
		}
		if s.v.hat && actions&0x80 != 0 {
			_ = r.Bool()
		}
		if r.Err() != nil {
			return
		}
		if _, known := s.st.players[id]; !known && p.Name != "" {
			if len(s.st.players) >= 10000 {
				continue // a hostile list cannot grow without bound
			}
			s.st.players[id] = p
			if id != s.uuid {
				joined = append(joined, p.Name)
			}
		}
	}
}

func (s *session) readChatType(r *wire.Reader) chatType {
	id := r.VarInt()
	if id == 0 {
		// An inline chat type: translation key, parameters, style.
		ct := chatType{key: r.String(32767)}
		n := r.Count(1)
		for i := 0; i < n; i++ {
			switch r.VarInt() {
			case 0:
				ct.params = append(ct.params, "content")
			case 1:
				ct.params = append(ct.params, "sender")
			case 2:
				ct.params = append(ct.params, "target")
			}
		}
		_ = r.NBT()
		return ct
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := int(id) - 1; i >= 0 && i < len(s.st.registries.chatTypes) {
		return s.st.registries.chatTypes[i]
	}
	return chatType{key: "chat.type.text"}
}

func (s *session) readPlayerChat(r *wire.Reader) {
	_ = r.UUID()   // sender
	_ = r.VarInt() // index
	signed := r.Bool()
	if signed {
		_ = r.Bytes(256)
	}
	plain := r.String(256)
	_ = r.Int64() // timestamp
	_ = r.Int64() // salt
	n := r.Count(1)
	for i := 0; i < n && r.Err() == nil; i++ {
		if r.VarInt() == 0 {
			_ = r.Bytes(256)
		}
	}
	unsigned := r.OptionalNBT()
	if r.VarInt() == 2 { // partly filtered
		m := r.Count(8)
		for i := 0; i < m; i++ {
			_ = r.Int64()
		}
	}
	ct := s.readChatType(r)
	name := r.NBT()
	target := r.OptionalNBT()
	if r.Err() != nil {
		return
	}
	if signed {
		// Signed messages must be acknowledged now and then, or the server
		// stops relaying chat.
		s.mu.Lock()
		s.st.unacked++
		ack := s.st.unacked >= 64
		if ack {
			s.st.unacked = 0
		}
		s.mu.Unlock()
		if ack {
			var w wire.Writer
			w.VarInt(64)
			_ = s.c.write(mcdata.ServerboundPlayMessageAcknowledgement, &w)
		}
	}
	text := plain
	if unsigned != nil {
		text = chat.Plain(unsigned)
	}
	s.onTypedChat(chat.Plain(name), text, ct, target)
}

// onTypedChat files player and disguised chat by its chat type.
func (s *session) onTypedChat(sender, text string, ct chatType, target any) {
	kind := "chat"
	switch ct.key {
	case "commands.message.display.incoming":
		kind = "whisper"
	case "commands.message.display.outgoing":
		kind = "whisper-sent"
	case "chat.type.team.sent":
		kind = "own"
	}
	if ct.name == "minecraft:msg_command_outgoing" {
		kind = "whisper-sent"
	}
	var args []any
	for _, p := range ct.params {
		switch p {
		case "sender":
			args = append(args, sender)
		case "content":
			args = append(args, text)
		case "target":
			args = append(args, target)
		}
	}
	line := map[string]any{"translate": ct.key, "with": args}
	s.addChat(sender, text, kind, chat.Segments(line))
}

var (
	// chatLine is how flying-squid (and plugins that format chat
	// themselves) send player chat: a system line "<name> text".
	chatLine = regexp.MustCompile(`^<([A-Za-z0-9_]{1,16})> (.*)$`)
	// whisperLine is vanilla's incoming whisper, when rendered as text.
	whisperLine = regexp.MustCompile(`^([A-Za-z0-9_]{1,16}) whispers to you: (.*)$`)
)

func (s *session) onSystemChat(content any) {
	// A system line built from a known translation names its parts.
	if m, ok := content.(map[string]any); ok {
		if key, _ := m["translate"].(string); key == "chat.type.text" || key == "commands.message.display.incoming" {
			if with, ok := m["with"].([]any); ok && len(with) == 2 {
				kind := "chat"
				if key != "chat.type.text" {
					kind = "whisper"
				}
				s.addChat(chat.Plain(with[0]), chat.Plain(with[1]), kind, chat.Segments(content))
				return
			}
		}
	}
	text := chat.Plain(content)
	segs := chat.Segments(content)
	if m, ok := content.(map[string]any); ok {
		if key, _ := m["translate"].(string); key == "commands.message.display.outgoing" {
			// The server's confirmation of the bot's own /msg.
			s.addChat("", text, "whisper-sent", segs)
			return
		}
	}
	if m := chatLine.FindStringSubmatch(text); m != nil {
		s.addChat(m[1], m[2], "chat", segs)
		return
	}
	if m := whisperLine.FindStringSubmatch(text); m != nil {
		s.addChat(m[1], m[2], "whisper", segs)
		return
	}
	s.addChat("", text, "system", segs)
}

func (s *session) addChat(from, text, kind string, segs []chat.Segment) {
	whisperSent := kind == "whisper-sent"
	if kind == "own" || whisperSent {
		kind = "system"
	}
	from, text = cleanChat(from), cleanChat(text)
	for i := range segs {
		segs[i].Text = cleanChat(segs[i].Text)
	}
	msg := ChatMessage{From: from, Text: text, At: time.Now(), Kind: kind, Segments: segs, whisperSent: whisperSent}
	if kind == "system" {
		msg.From = ""
	}
	s.mu.Lock()
	if len(s.st.chat) >= chatLog {
		copy(s.st.chat, s.st.chat[1:])
		s.st.chat = s.st.chat[:chatLog-1]
	}
	s.st.chat = append(s.st.chat, msg)
	s.st.chatSeq++
	self := from == s.username
	s.mu.Unlock()
	if self {
		return
	}
	// Untrusted marks, in the payload itself, text other players wrote,
	// for a reader that sees the payload without the event catalog.
	type said struct {
		Username  string         `json:"username"`
		Message   string         `json:"message"`
		Segments  []chat.Segment `json:"segments,omitempty"`
		Untrusted bool           `json:"untrusted"`
	}
	switch kind {
	case "chat":
		s.events("mc_player_chat", "", said{from, text, segs, true})
	case "whisper":
		s.events("mc_whisper", "", said{from, text, segs, true})
	case "system":
		s.events("mc_system_chat", "", struct {
			Message   string         `json:"message"`
			Segments  []chat.Segment `json:"segments,omitempty"`
			Untrusted bool           `json:"untrusted"`
		}{text, segs, true})
	}
}

// readMetadata keeps the bot's own air supply (index 1, a VarInt, in
// 1.21.x). Entries come in index order, so it reads the leading ones whose
// types it can skip and stops at the first it cannot.
func (s *session) readMetadata(r *wire.Reader) {
	defer r.Rest()
	eid := r.VarInt()
	s.mu.Lock()
	self := eid == s.st.entityID
	s.mu.Unlock()
	if !self {
		return
	}
	for r.Err() == nil {
		index := r.Byte()
		if index == 0xff || r.Err() != nil {
			return
		}
		switch typ := r.VarInt(); typ {
		case 0: // byte
			_ = r.Byte()
		case 1: // VarInt
			v := r.VarInt()
			if index == 1 && r.Err() == nil {
				s.mu.Lock()
				s.st.air = min(max(v, 0), maxAir)
				s.mu.Unlock()
				return
			}
		case 2: // VarLong
			_ = r.Int64() // never before index 1 in practice; stop after it
			return
		case 3: // float
			_ = r.Float32()
		case 8: // boolean
			_ = r.Bool()
		default:
			return
		}
	}
}

func (s *session) touchKeepAlive() {
	s.mu.Lock()
	s.st.lastKeepAlive = time.Now()
	s.mu.Unlock()
}

func (s *session) setPhase(p string) {
	s.mu.Lock()
	s.st.phase = p
	s.mu.Unlock()
}

// cleanChat removes from chat text what could act on a terminal or
// reorder or hide text for a reader, keeping line breaks: the rules are
// untrusted.Text's, the one sanitiser.
func cleanChat(s string) string { return untrusted.Text(s) }

// ---- sending ----

func (s *session) say(text string) error {
	var w wire.Writer
	w.String(text)
	w.Int64(time.Now().UnixMilli())
	var salt [8]byte
	_, _ = rand.Read(salt[:])
	w.Int64(int64(binary.BigEndian.Uint64(salt[:])))
	w.Bool(false) // unsigned
	w.VarInt(0)   // acknowledgement offset
	w.Raw([]byte{0, 0, 0})
	return s.c.write(mcdata.ServerboundPlayChatMessage, &w)
}

func (s *session) command(cmd string) error {
	var w wire.Writer
	w.String(cmd)
	return s.c.write(mcdata.ServerboundPlayChatCommand, &w)
}

func (s *session) respawn() error {
	var w wire.Writer
	w.VarInt(0) // perform respawn
	return s.c.write(mcdata.ServerboundPlayClientCommand, &w)
}

// kickEnd is the end of a session the server ended with reason: what
// says what happened, e.g. "the server disconnected the bot".
func kickEnd(what, reason string) *errEnd {
	reason = cleanChat(reason) // a server operator wrote it
	if strings.TrimSpace(reason) == "" {
		return &errEnd{endReason{Reason: what + " without giving a reason", NextStep: nextStepForKick("")}}
	}
	return &errEnd{endReason{Reason: what + ": " + reason, NextStep: nextStepForKick(reason), Kicked: true}}
}

// nextStepForKick suggests what to do after a server's own message.
func nextStepForKick(reason string) string {
	switch {
	case kickVersion.MatchString(reason):
		return "the world runs another game version; check it with mc_ping_server"
	case kickAccess.MatchString(reason):
		return "ask the world's owner to let the bot in, then call mc_join again"
	case kickName.MatchString(reason):
		return "try mc_join with another username"
	}
	return "call mc_join again if the world is still open; tell the player what the server said"
}

var (
	kickVersion = regexp.MustCompile(`(?i)outdated|incompatible|version`)
	kickAccess  = regexp.MustCompile(`(?i)banned|whitelist|white-listed|not allowed`)
	kickName    = regexp.MustCompile(`(?i)name|already`)
)
