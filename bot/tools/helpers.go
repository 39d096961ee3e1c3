package tools

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf16"

	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/geom"
)

// The helpers more than one family of tools uses.

// Vec3 is a position in the world, in blocks.
type Vec3 = geom.Vec3

// nextStepDead is what every tool says while the bot is dead.
const nextStepDead = "the bot is dead: call mc_respawn"

func ptr[T any](v T) *T { return &v }

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// cleanMessage refuses what the game would kick the bot for: control
// characters and the section sign.
func cleanMessage(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errors.New("the message is empty; give the words to send")
	}
	for _, r := range s {
		if r == '§' {
			return "", errors.New("the message contains §, Minecraft's formatting sign, which the game refuses; send plain text without it")
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return "", fmt.Errorf("the message contains the control character %U, which the game refuses; send plain text on one line", r)
		}
	}
	return s, nil
}

// splitMessage cuts text into lines of at most max UTF-16 units (the game's
// measure), at spaces where it can.
func splitMessage(s string, max int) []string {
	var out []string
	for len(utf16.Encode([]rune(s))) > max {
		runes := []rune(s)
		cut, units := 0, 0
		for i, r := range runes {
			n := 1
			if r > 0xffff {
				n = 2
			}
			if units+n > max {
				break
			}
			units += n
			cut = i + 1
		}
		if sp := strings.LastIndex(string(runes[:cut]), " "); sp > len(string(runes[:cut]))/2 {
			out = append(out, strings.TrimSpace(string(runes[:cut])[:sp]))
			s = strings.TrimSpace(string(runes[:cut])[sp:] + string(runes[cut:]))
			continue
		}
		out = append(out, string(runes[:cut]))
		s = strings.TrimSpace(string(runes[cut:]))
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

func sendErr(err error) error {
	return fmt.Errorf("the message could not be sent (%v); the connection may be closing: call mc_status", core.ShortErr(err))
}

func deadStep(dead bool) string {
	if dead {
		return nextStepDead
	}
	return ""
}
