package talk

import (
	"regexp"
	"strings"

	"github.com/blockmate/blockmate/bot/mcdata"
)

// The server's own line for a player coming or going ("alex joined the
// game"), recognised so that mc_system_chat can say whom it is about: a
// reader (the console) then tells a join once, not once by mc_player_joined
// and again by the server's line.
var (
	joinedLine = translationPattern("multiplayer.player.joined")
	leftLine   = translationPattern("multiplayer.player.left")
)

// translationPattern turns a one-argument game translation ("%s joined the
// game") into a pattern that reads the argument back out of the line.
func translationPattern(key string) *regexp.Regexp {
	format, ok := mcdata.Translate(key)
	before, after, found := strings.Cut(format, "%s")
	if !ok || !found {
		return regexp.MustCompile(`$.^`) // matches nothing
	}
	return regexp.MustCompile("^" + regexp.QuoteMeta(before) + `(\S{1,16})` + regexp.QuoteMeta(strings.TrimSuffix(after, ".")) + "$")
}

// legacyCodes are the formatting codes (&e, §e) that servers which format
// chat themselves leave in a line; flying-squid announces a join as
// "&ealex joined the game.".
var legacyCodes = regexp.MustCompile(`[&§][0-9a-fk-orA-FK-OR]`)

// presence reads a system line as a player's arrival or departure: it
// returns "joined" or "left" and the player's name, or two empty strings.
func presence(line string) (what, username string) {
	plain := strings.TrimSuffix(strings.TrimSpace(legacyCodes.ReplaceAllString(line, "")), ".")
	if m := joinedLine.FindStringSubmatch(plain); m != nil {
		return "joined", m[1]
	}
	if m := leftLine.FindStringSubmatch(plain); m != nil {
		return "left", m[1]
	}
	return "", ""
}
