package codec

import "github.com/blockmate/blockmate/bot/wire"

// Protocol 769 (1.21.4): what changed from 768. Sources: minecraft-data's
// pc/1.21.3 → pc/1.21.4 protocol.json diff and the wiki's protocol page for
// 1.21.4.
func init() { define(769, v769) }

func v769(c *Codec) {
	// The client tells the server it has loaded the world (player_loaded)
	// after a spawn's first position sync and after each respawn.
	c.SendsPlayerLoaded = true

	// The clientbound held slot is a VarInt (a byte before).
	c.HeldSlot = func(r *wire.Reader) int32 { return r.VarInt() }

	// Player info gained action 0x80, whether the player's hat shows.
	// minecraft-data 3.119.0 swaps 0x40 and 0x80 for 1.21.4; the wiki and
	// the game put the list order first.
	c.PlayerInfoActions = append(c.PlayerInfoActions[:len(c.PlayerInfoActions):len(c.PlayerInfoActions)], ActionShowHat)
}
