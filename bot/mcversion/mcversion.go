// Package mcversion says which Minecraft: Java Edition versions blockmate
// can join, and what to tell a player whose world runs another one. It is a
// leaf package so that discovery (lan) and the bot share one answer.
package mcversion

import (
	"fmt"
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// Release is one protocol version blockmate speaks and the game versions
// that use it.
type Release struct {
	Protocol int
	Names    []string
}

// supported lists the protocol versions the bot speaks, oldest first: the
// ones the generated packet tables cover.
var supported = func() []Release {
	var out []Release
	for _, r := range mcdata.Releases() {
		out = append(out, Release{r.Protocol, r.Names})
	}
	return out
}()

// Supported lists the releases blockmate can join, oldest first.
func Supported() []Release { return append([]Release(nil), supported...) }

// IsSupported reports whether the bot can join a server speaking protocol.
func IsSupported(protocol int) bool {
	_, ok := Lookup(protocol)
	return ok
}

// Lookup finds the release for a protocol number.
func Lookup(protocol int) (Release, bool) {
	for _, r := range supported {
		if r.Protocol == protocol {
			return r, true
		}
	}
	return Release{}, false
}

// LookupName finds the release a game version name belongs to, e.g.
// "1.21.10" → protocol 773.
func LookupName(name string) (Release, bool) {
	for _, r := range supported {
		for _, n := range r.Names {
			if n == name {
				return r, true
			}
		}
	}
	return Release{}, false
}

// Range names the supported game versions for people, e.g. "1.21 to 26.1.2".
func Range() string {
	first, last := supported[0], supported[len(supported)-1]
	return first.Names[0] + " to " + last.Names[len(last.Names)-1]
}

// Newest is the newest game version blockmate joins.
func Newest() string {
	last := supported[len(supported)-1]
	return last.Names[len(last.Names)-1]
}

// Oldest is the oldest game version blockmate joins.
func Oldest() string { return supported[0].Names[0] }

// Advice tells a player, in plain words, what to do when their world runs
// a version the bot cannot join; name is the version the server reported,
// protocol its protocol number. It names the world's version, the versions
// blockmate joins and how to make an installation of the newest in the
// Minecraft Launcher, and it never leads the player to damage the world:
// opening a world in an older version of the game can corrupt it (the game
// itself warns so), so it says to make a new world for playing with the
// bot, and to back the world up first if they open it in another version
// anyway.
func Advice(name string, protocol int) string {
	name = strings.TrimSpace(name)
	if name == "" {
		name = fmt.Sprintf("protocol %d", protocol)
	}
	newest := Newest()
	install := fmt.Sprintf("in the Minecraft Launcher open Installations, choose New installation, pick release %s as the version, "+
		"create it and press Play", newest)
	backup := "back the world up first (copy its folder out of the saves folder)"
	if protocol > 0 && protocol < supported[0].Protocol {
		// An older world: the newer game updates it when it is opened, a
		// one-way step, hence the backup.
		return fmt.Sprintf("This world runs Minecraft %s, which is older than the versions blockmate joins (%s). "+
			"To play with the bot, make a new world in Minecraft %s: %s, then create a world and Open to LAN. "+
			"To bring this world along instead, %s, then open it in %s (the game updates it, and there is no way back) and Open to LAN.",
			name, Range(), newest, install, backup, newest)
	}
	return fmt.Sprintf("This world runs Minecraft %s, which is newer than the versions blockmate joins (%s; the newest is %s). "+
		"To play with the bot, make a new world in Minecraft %s: %s, then create a new world and Open to LAN. "+
		"Do not open this world in %s: a world opened in an older version of the game can be corrupted. "+
		"If you want to try anyway, %s. A newer blockmate may join %s: check for an update.",
		name, Range(), newest, newest, install, newest, backup, name)
}
