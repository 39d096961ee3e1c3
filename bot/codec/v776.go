package codec

import (
	"github.com/blockmate/blockmate/bot/wire"
)

// Protocol 776 (26.2): what changed from 775. Sources: ViaVersion's
// Protocol26_1To26_2 and its EntityPacketRewriter26_2 (the packets it
// rewrites between 26.1 and 26.2), azalea-protocol's 26.2 packets (commit
// 0d846995 "26.2": ClientboundLoginFinished, ClientboundLogin), both named
// with their commits in bot/mcdata/internal/gen/sources/26.2.json. Packet
// ids are 26.1's in every state (ViaVersion maps 26.2 with 26.1's packet
// enums).
//
// Also new in 26.2, and nothing the bot reads or writes: team parameters
// are reordered (prefix and suffix before the rules, an optional colour,
// the flags last); the spectator's serverbound spectate carries an
// optional entity id; a client no longer accepts entity id 0; slimes and
// magma cubes have two more metadata fields before their size; data
// component sulfur_cube_content (an item stack), particles geyser … and
// command argument team_color come from the generated tables.
func init() { define(776, v776) }

func v776(c *Codec) {
	// Login success ends with the server's session id, a UUID, after the
	// profile (ViaVersion LOGIN_FINISHED; azalea ClientboundLoginFinished
	// session_id).
	c.LoginSuccess = func(r *wire.Reader) LoginSuccess {
		s := loginSuccess(r)
		s.SessionID = r.UUID()
		return s
	}

	// The play login says whether the server is in online mode, between
	// the spawn info and enforcesSecureChat (ViaVersion writes it after
	// the sea level, the spawn info's last field, and only in the login:
	// the respawn's spawn info is unchanged; azalea ClientboundLogin
	// online_mode).
	c.PlayLogin = func(r *wire.Reader) PlayLogin {
		l := playLoginHead(c, r)
		l.OnlineMode = r.Bool()
		l.EnforcesSecureChat = r.Bool()
		return l
	}
}
