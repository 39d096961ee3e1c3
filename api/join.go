package api

import (
	"fmt"
	"regexp"

	"github.com/blockmate/blockmate/geom"
)

// DefaultUsername is the bot's name when the caller gives none. The
// sidecar and the console both use it.
const DefaultUsername = "Blockmate"

// usernameRule is the offline-mode name rule the game's clients enforce.
var usernameRule = regexp.MustCompile(`^[A-Za-z0-9_]{3,16}$`)

// ValidUsername reports whether name can be the bot's name in a world: 3
// to 16 characters of A-Z, a-z, 0-9 and _ (the rule offline-mode names
// follow). Its error is a sentence to show the player.
func ValidUsername(name string) error {
	if usernameRule.MatchString(name) {
		return nil
	}
	return fmt.Errorf("%q is not a Minecraft name: use 3 to 16 characters, each a letter A-Z or a-z, a digit or _, e.g. %q", name, DefaultUsername)
}

// JoinResult is mc_join's result.
type JoinResult struct {
	Joined   bool      `json:"joined"`
	Position geom.Vec3 `json:"position"`
	GameMode string    `json:"gameMode"`
	Version  string    `json:"version"`
	Username string    `json:"username"`
	Server   string    `json:"server"`
}
