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

// Range names the supported game versions for people: "1.21 to 1.21.4".
func Range() string {
	first, last := supported[0], supported[len(supported)-1]
	return first.Names[0] + " to " + last.Names[len(last.Names)-1]
}

// Newest is the newest game version blockmate joins.
func Newest() string {
	last := supported[len(supported)-1]
	return last.Names[len(last.Names)-1]
}

// Advice tells a player, in plain words, what to do when their world runs a
// version the bot cannot join. name is the version the server reported.
func Advice(name string, protocol int) string {
	name = strings.TrimSpace(name)
	if name == "" {
		name = fmt.Sprintf("protocol %d", protocol)
	}
	return fmt.Sprintf("This world runs Minecraft %s, and blockmate joins %s (for now). "+
		"To play with the bot, open the Minecraft Launcher, go to Installations → New installation, choose release %s, "+
		"start the game with it, open your world and Open to LAN again.", name, Range(), Newest())
}
