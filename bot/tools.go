// Package bot is blockmate's headless Minecraft: Java Edition client and the
// tools that drive it.
//
// The client is built from small parts: bot/conn (transport), bot/codec
// (per-version wire layouts), bot/core (the session: read loop, router,
// tick), and feature packages that own their packets and state (bot/link,
// bot/registry, bot/self, bot/players, bot/talk). This package wires the
// features onto each new session (world.go), runs the join/leave life
// cycle (client.go), and holds the mc_* tools.
//
// The tools live here, not in a package of their own that imports bot:
// RegisterTools, which main and the console call, must register them, and
// a bot/tools package importing bot could not be imported back by it. They
// are thin: each reads a feature's snapshot or calls a feature's method.
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"unicode/utf16"

	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/geom"
	"github.com/blockmate/blockmate/protocol"
)

// Host is what the bot's tools need from the dispatcher: what runs (for
// mc_status's task and to know a join is admitted), cancelling admitted
// mc_join calls (mc_leave), and the event bus.
type Host interface {
	Running() []protocol.RunningCall
	CancelBefore(ctx context.Context, tool string, cause error) []string
	Events() *protocol.Bus
}

// TaskLister is the older name of Host.
type TaskLister = Host

// Vec3 is a position in the world, in blocks.
type Vec3 = geom.Vec3

// nextStepDead is what every tool says while the bot is dead.
const nextStepDead = "the bot is dead: call mc_respawn"

func ptr[T any](v T) *T { return &v }

// RegisterTools adds the bot's tools to the catalog and returns the client
// they drive, whose Close leaves the world when blockmate exits.
func RegisterTools(c *protocol.Catalog, host Host) *Client {
	return RegisterToolsWith(c, host, nil, Options{})
}

// RegisterToolsWith is RegisterTools with a logger and options.
func RegisterToolsWith(c *protocol.Catalog, host Host, log *slog.Logger, opts Options) *Client {
	var emit func(name, sub string, payload any)
	if bus := host.Events(); bus != nil {
		emit = bus.Emit
	}
	b := NewClient(log, emit, opts)
	b.register(c, host)
	return b
}

// register adds the tools, driving b, to the catalog.
func (b *Client) register(c *protocol.Catalog, host Host) {
	b.host = host
	b.registerConnection(c, host)
	b.registerPerception(c)
	b.registerWorld(c)
	b.registerMap(c)
	b.registerChat(c)
	b.registerInventory(c)
	b.registerCraft(c)
	b.registerEat(c)
	b.registerChest(c)
	b.registerCombat(c)
	b.registerSmelt(c)
	b.registerGive(c)
	b.registerDig(c)
	b.registerMovement(c)
	b.registerSleep(c)
}

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
