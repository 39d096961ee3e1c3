package item

import (
	"github.com/blockmate/blockmate/bot/chat"
	"github.com/blockmate/blockmate/bot/protodef"
)

// The accessors below decode one component when called. Each answers false
// when the stack does not carry the component (the item's default then
// applies; see the package doc) or when it does not decode. Field names are
// minecraft-data's, looked up by name, so a layout that moves a field
// between versions still reads; the tests run every accessor on every
// version.

func (s Stack) decoded(name string) (protodef.Value, bool) {
	c, ok := s.Component(name)
	if !ok {
		return protodef.Value{}, false
	}
	v, err := c.Decode()
	return v, err == nil
}

func (s Stack) varint(name string) (int32, bool) {
	v, ok := s.decoded(name)
	if !ok || v.Type.Kind != protodef.VarInt {
		return 0, false
	}
	return int32(v.Int), true
}

// Damage is the damage the stack has taken (component damage).
func (s Stack) Damage() (int32, bool) { return s.varint("damage") }

// MaxDamage is the durability when the stack overrides it (max_damage).
func (s Stack) MaxDamage() (int32, bool) { return s.varint("max_damage") }

// MaxStackSize is the stack size limit when the stack overrides it.
func (s Stack) MaxStackSize() (int32, bool) { return s.varint("max_stack_size") }

// RepairCost is the anvil repair cost (repair_cost).
func (s Stack) RepairCost() (int32, bool) { return s.varint("repair_cost") }

// Unbreakable reports whether the stack carries the unbreakable component.
func (s Stack) Unbreakable() bool { return s.Has("unbreakable") }

// CustomName is the name given with an anvil or a command (custom_name),
// as a chat component (NBT form; see bot/chat). Other players can set it:
// it is untrusted text.
func (s Stack) CustomName() (any, bool) { return s.text("custom_name") }

// ItemName is the item's name override (item_name), as a chat component.
func (s Stack) ItemName() (any, bool) { return s.text("item_name") }

func (s Stack) text(name string) (any, bool) {
	v, ok := s.decoded(name)
	if !ok || v.Type.Kind != protodef.NBT || v.NBT == nil {
		return nil, false
	}
	return v.NBT, true
}

// DisplayName is the custom name, else the item name override, as plain
// text; "" when the stack has neither (the item's registry name applies).
// It may hold text other players wrote.
func (s Stack) DisplayName() string {
	if c, ok := s.CustomName(); ok {
		return chat.Plain(c)
	}
	if c, ok := s.ItemName(); ok {
		return chat.Plain(c)
	}
	return ""
}

// Enchantment is one enchantment and its level. ID is the enchantment's id
// in the minecraft:enchantment registry the server sent in configuration
// (a dynamic registry: look its name up there).
type Enchantment struct {
	ID    int32
	Level int32
}

// Enchantments are the stack's enchantments (enchantments).
func (s Stack) Enchantments() ([]Enchantment, bool) { return s.enchantments("enchantments") }

// StoredEnchantments are an enchanted book's (stored_enchantments).
func (s Stack) StoredEnchantments() ([]Enchantment, bool) {
	return s.enchantments("stored_enchantments")
}

func (s Stack) enchantments(name string) ([]Enchantment, bool) {
	v, ok := s.decoded(name)
	if !ok {
		return nil, false
	}
	list, ok := v.Field("enchantments")
	if !ok || list.Type.Kind != protodef.Array {
		return nil, false
	}
	out := make([]Enchantment, 0, len(list.Items))
	for _, e := range list.Items {
		id, ok1 := e.Field("id")
		lvl, ok2 := e.Field("level")
		if !ok1 || !ok2 {
			return nil, false
		}
		out = append(out, Enchantment{int32(id.Int), int32(lvl.Int)})
	}
	return out, true
}

// Food is the food component: what eating the stack restores.
type Food struct {
	Nutrition          int32
	SaturationModifier float32
	CanAlwaysEat       bool
	// EatSeconds is how long eating takes when the food component says
	// (1.21.1); from 1.21.2 on it is the consumable component's
	// (Consumable.Seconds), and 0 here.
	EatSeconds float32
}

// Food is the stack's food component.
func (s Stack) Food() (Food, bool) {
	v, ok := s.decoded("food")
	if !ok {
		return Food{}, false
	}
	n, ok1 := v.Field("nutrition")
	sat, ok2 := v.Field("saturationModifier")
	always, ok3 := v.Field("canAlwaysEat")
	if !ok1 || !ok2 || !ok3 {
		return Food{}, false
	}
	f := Food{Nutrition: int32(n.Int), SaturationModifier: sat.Float32(), CanAlwaysEat: always.Bool()}
	if secs, ok := v.Field("secondsToEat"); ok {
		f.EatSeconds = secs.Float32()
	}
	return f, true
}

// Consumable is the consumable component (1.21.2+): how the stack is used
// up (eaten, drunk …).
type Consumable struct {
	Seconds float32
	// Animation is minecraft-data's name: "eat", "drink", "block" …
	Animation string
}

// Consumable is the stack's consumable component.
func (s Stack) Consumable() (Consumable, bool) {
	v, ok := s.decoded("consumable")
	if !ok {
		return Consumable{}, false
	}
	secs, ok1 := v.Field("consume_seconds")
	anim, ok2 := v.Field("animation")
	if !ok1 || !ok2 {
		return Consumable{}, false
	}
	return Consumable{Seconds: secs.Float32(), Animation: anim.Name()}, true
}

// BlockSet is a set of blocks as the wire gives it: a tag name (resolve it
// with the tags the server sent) or block ids.
type BlockSet struct {
	Tag string
	IDs []int32
}

// ToolRule is one rule of a tool component.
type ToolRule struct {
	Blocks BlockSet
	// Speed is the mining speed on those blocks, when the rule sets one.
	Speed    float32
	HasSpeed bool
	// CorrectForDrops says whether the blocks drop when mined with the
	// tool, when the rule says.
	CorrectForDrops    bool
	HasCorrectForDrops bool
}

// Tool is the tool component: mining speeds and which blocks drop.
type Tool struct {
	Rules              []ToolRule
	DefaultMiningSpeed float32
	DamagePerBlock     int32
}

// Tool is the stack's tool component.
func (s Stack) Tool() (Tool, bool) {
	v, ok := s.decoded("tool")
	if !ok {
		return Tool{}, false
	}
	rules, ok1 := v.Field("rules")
	speed, ok2 := v.Field("defaultMiningSpeed")
	dmg, ok3 := v.Field("damagePerBlock")
	if !ok1 || !ok2 || !ok3 {
		return Tool{}, false
	}
	t := Tool{DefaultMiningSpeed: speed.Float32(), DamagePerBlock: int32(dmg.Int)}
	for _, rv := range rules.Items {
		var rule ToolRule
		blocks, ok := rv.Field("blocks")
		if !ok {
			return Tool{}, false
		}
		rule.Blocks = blockSet(blocks)
		if sp, ok := rv.Path("speed", "?"); ok {
			rule.Speed, rule.HasSpeed = sp.Float32(), true
		}
		if c, ok := rv.Path("correctDropForBlocks", "?"); ok {
			rule.CorrectForDrops, rule.HasCorrectForDrops = c.Bool(), true
		}
		t.Rules = append(t.Rules, rule)
	}
	return t, true
}

func blockSet(v protodef.Value) BlockSet {
	if v.Int == -1 && len(v.Items) == 1 {
		return BlockSet{Tag: v.Items[0].Str}
	}
	ids := make([]int32, len(v.Items))
	for i, it := range v.Items {
		ids[i] = int32(it.Int)
	}
	return BlockSet{IDs: ids}
}

// Container is a shulker box's or chest's contents (container), slot by
// slot: an empty Stack is an empty slot.
func (s Stack) Container() ([]Stack, bool) { return s.stacks("container") }

// BundleContents are a bundle's stacks (bundle_contents).
func (s Stack) BundleContents() ([]Stack, bool) { return s.stacks("bundle_contents") }

// ChargedProjectiles are a loaded crossbow's projectiles.
func (s Stack) ChargedProjectiles() ([]Stack, bool) { return s.stacks("charged_projectiles") }

func (s Stack) stacks(name string) ([]Stack, bool) {
	v, ok := s.decoded(name)
	if !ok {
		return nil, false
	}
	for _, field := range []string{"contents", "projectiles"} {
		list, ok := v.Field(field)
		if !ok || list.Type.Kind != protodef.Array {
			continue
		}
		out := make([]Stack, len(list.Items))
		for i, it := range list.Items {
			if e, ok := it.Elem(); ok { // 775: Opt<ItemStackTemplate>
				it = e
			}
			if st, ok := it.Ext.(Stack); ok {
				out[i] = st
			}
		}
		return out, true
	}
	return nil, false
}

// Potion is the potion_contents component.
type Potion struct {
	// PotionID is the potion's id in the potion registry, when set.
	PotionID    int32
	HasPotionID bool
	// CustomEffects are the effects (effect ids and amplifiers) added on
	// top of the potion's own.
	CustomEffects []Effect
}

// Effect is one status effect of a potion: the effect's registry id, the
// amplifier (level − 1) and the duration in ticks.
type Effect struct {
	ID, Amplifier, Duration int32
}

// Potion is the stack's potion_contents component.
func (s Stack) Potion() (Potion, bool) {
	v, ok := s.decoded("potion_contents")
	if !ok {
		return Potion{}, false
	}
	var p Potion
	if id, ok := v.Path("potionId", "?"); ok {
		p.PotionID, p.HasPotionID = int32(id.Int), true
	}
	if effects, ok := v.Field("customEffects"); ok {
		for _, e := range effects.Items {
			id, _ := e.Field("id")
			amp, _ := e.Path("details", "amplifier")
			dur, _ := e.Path("details", "duration")
			p.CustomEffects = append(p.CustomEffects, Effect{int32(id.Int), int32(amp.Int), int32(dur.Int)})
		}
	}
	return p, true
}
