// Package registry keeps the registries the server sends in configuration
// that other features read: dimension types, chat types, damage types,
// biome names, dialogs (1.21.6+) and world clocks (26.1+). Entries are
// looked up by their index, which is how play packets and chunk data refer
// to them.
package registry

import (
	"strings"
	"sync"

	"github.com/blockmate/blockmate/bot/codec"
	"github.com/blockmate/blockmate/bot/core"
	"github.com/blockmate/blockmate/bot/mcdata"
	"github.com/blockmate/blockmate/bot/wire"
)

// DimensionType is an entry of minecraft:dimension_type.
type DimensionType struct {
	Name         string
	MinY, Height int32
	// DefaultClock (26.1+) names the world clock whose ticks are the
	// dimension's time of day, e.g. "minecraft:overworld"; "" when the
	// dimension has no day time (the nether), or before 26.1.
	DefaultClock string
}

// Dialog is an entry of minecraft:dialog (1.21.6+): its name and its NBT.
type Dialog struct {
	Name string
	Data any
}

// ChatType is an entry of minecraft:chat_type: how a chat line of that type
// is shown.
type ChatType struct {
	Name string
	// TranslationKey is e.g. chat.type.text or
	// commands.message.display.incoming.
	TranslationKey string
	// Parameters name the translation's arguments: "sender", "content",
	// "target".
	Parameters []string
}

// Registry holds one session's registries. Its methods are safe from any
// goroutine.
type Registry struct {
	mu         sync.RWMutex
	dimensions []DimensionType
	chatTypes  []ChatType
	damage     []string
	dialogs    []Dialog
	clocks     []string
	biomes     []string
	// enchantments are the enchantment registry's names (bot/dig reads
	// efficiency and aqua affinity from a stack's enchantment ids).
	enchantments []string
}

// Attach registers the registry's handler on s.
func Attach(s *core.Session) *Registry {
	g := &Registry{}
	c := s.Codec
	s.Handle(mcdata.ClientboundConfigRegistryData, func(r *wire.Reader) error {
		data := c.RegistryData(r)
		if r.Err() != nil {
			return nil
		}
		g.apply(data.ID, data.Entries)
		return nil
	})
	return g
}

func (g *Registry) apply(id string, entries []codec.RegistryEntry) {
	switch id {
	case "minecraft:dimension_type":
		dims := make([]DimensionType, len(entries))
		for i, e := range entries {
			data, _ := e.Data.(map[string]any)
			clock, _ := data["default_clock"].(string)
			dims[i] = DimensionType{Name: e.Name, MinY: nbtInt(data["min_y"]), Height: nbtInt(data["height"]), DefaultClock: clock}
		}
		g.mu.Lock()
		g.dimensions = dims
		g.mu.Unlock()
	case "minecraft:chat_type":
		types := make([]ChatType, len(entries))
		for i, e := range entries {
			ct := ChatType{Name: e.Name}
			data, _ := e.Data.(map[string]any)
			if c, ok := data["chat"].(map[string]any); ok {
				ct.TranslationKey, _ = c["translation_key"].(string)
				if ps, ok := c["parameters"].([]any); ok {
					for _, p := range ps {
						if p, ok := p.(string); ok {
							ct.Parameters = append(ct.Parameters, p)
						}
					}
				}
			}
			if ct.TranslationKey == "" {
				ct.TranslationKey, ct.Parameters = vanillaChatType(e.Name)
			}
			types[i] = ct
		}
		g.mu.Lock()
		g.chatTypes = types
		g.mu.Unlock()
	case "minecraft:worldgen/biome":
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = strings.TrimPrefix(e.Name, "minecraft:")
		}
		g.mu.Lock()
		g.biomes = names
		g.mu.Unlock()
	case "minecraft:damage_type":
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = strings.TrimPrefix(e.Name, "minecraft:")
		}
		g.mu.Lock()
		g.damage = names
		g.mu.Unlock()
	case "minecraft:dialog":
		dialogs := make([]Dialog, len(entries))
		for i, e := range entries {
			dialogs[i] = Dialog{Name: e.Name, Data: e.Data}
		}
		g.mu.Lock()
		g.dialogs = dialogs
		g.mu.Unlock()
	case "minecraft:enchantment":
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = strings.TrimPrefix(e.Name, "minecraft:")
		}
		g.mu.Lock()
		g.enchantments = names
		g.mu.Unlock()
	case "minecraft:world_clock":
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = e.Name
		}
		g.mu.Lock()
		g.clocks = names
		g.mu.Unlock()
	}
}

// Dialog is the dialog at index, and false when there is none.
func (g *Registry) Dialog(index int32) (Dialog, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if index < 0 || int(index) >= len(g.dialogs) {
		return Dialog{}, false
	}
	return g.dialogs[index], true
}

// ClockIndex is the index of the world clock called name in
// minecraft:world_clock (26.1+), which time updates key clocks by, and
// false when the server sent no such clock.
func (g *Registry) ClockIndex(name string) (int32, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	for i, n := range g.clocks {
		if n == name {
			return int32(i), true
		}
	}
	return 0, false
}

// ChatType is the chat type at index, and false when there is none.
func (g *Registry) ChatType(index int32) (ChatType, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if index < 0 || int(index) >= len(g.chatTypes) {
		return ChatType{}, false
	}
	return g.chatTypes[index], true
}

// DamageType is the damage type's name at index (without "minecraft:"),
// and false when there is none.
func (g *Registry) DamageType(index int32) (string, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if index < 0 || int(index) >= len(g.damage) {
		return "", false
	}
	return g.damage[index], true
}

// DimensionType is the dimension type at index, and false when there is
// none.
func (g *Registry) DimensionType(index int32) (DimensionType, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if index < 0 || int(index) >= len(g.dimensions) {
		return DimensionType{}, false
	}
	return g.dimensions[index], true
}

// Biomes is the biome registry's names (without "minecraft:"), indexed by
// the ids chunk data carries; nil until the server sends the registry.
// The slice is shared: do not modify it.
func (g *Registry) Biomes() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.biomes
}

// Enchantment names an id of the enchantment registry (without
// "minecraft:"), and false until the server sent the registry or for an id
// it does not hold.
func (g *Registry) Enchantment(id int32) (string, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if id < 0 || int(id) >= len(g.enchantments) {
		return "", false
	}
	return g.enchantments[id], true
}

// vanillaChatType is how the vanilla pack shows a chat type the server sent
// without data (a client that knows the pack would have it).
func vanillaChatType(name string) (key string, params []string) {
	switch name {
	case "minecraft:msg_command_incoming":
		return "commands.message.display.incoming", []string{"sender", "content"}
	case "minecraft:msg_command_outgoing":
		return "commands.message.display.outgoing", []string{"target", "content"}
	case "minecraft:say_command":
		return "chat.type.announcement", []string{"sender", "content"}
	case "minecraft:emote_command":
		return "chat.type.emote", []string{"sender", "content"}
	case "minecraft:team_msg_command_incoming":
		return "chat.type.team.text", []string{"target", "sender", "content"}
	case "minecraft:team_msg_command_outgoing":
		return "chat.type.team.sent", []string{"target", "sender", "content"}
	}
	return "chat.type.text", []string{"sender", "content"}
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
