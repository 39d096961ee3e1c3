package talk

import "testing"

// TestPresence: the server's lines for a player coming and going, in the
// game's words and in a server's own formatting (flying-squid's
// "&ealex joined the game."), say who came or went; other lines say
// nothing.
func TestPresence(t *testing.T) {
	for _, c := range []struct{ line, what, who string }{
		{"alex joined the game", "joined", "alex"},
		{"Eduard left the game", "left", "Eduard"},
		{"&eTheo joined the game.", "joined", "Theo"},
		{"§eTheo_2 left the game.", "left", "Theo_2"},
		{"alex joined the game and said hi", "", ""},
		{"someone with a long name that is not one joined the game", "", ""},
		{"<alex> alex joined the game", "", ""},
		{"", "", ""},
	} {
		what, who := presence(c.line)
		if what != c.what || who != c.who {
			t.Errorf("presence(%q) = %q, %q; want %q, %q", c.line, what, who, c.what, c.who)
		}
	}
}
